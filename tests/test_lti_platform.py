"""LTI 1.3 end to end against a platform from a published package (lti1p3platform, see tests/lti_platform.py).

The platform builds and signs the messages; Kortmatte's routes check them as in production.
"""

from __future__ import annotations

import json
import re
import time
from datetime import date, timedelta

import jwt
import pytest
from jwcrypto.jwk import JWK
from pylti1p3.message_launch import MessageLaunch
from sqlalchemy import func, select

from tests.lti_platform import (
    CLIENT_ID,
    DEPLOYMENT,
    INSTRUCTOR,
    ISSUER,
    KEYSET_URL,
    LEARNER,
    LINEITEM_URL,
    LINEITEMS_URL,
    LOGIN_URL,
    MEMBERSHIPS_URL,
    TOKEN_URL,
    Platform,
)
from tutor.app import create_app
from tutor.cli import main
from tutor.lti import key_sets, platforms, roster
from tutor.models import (
    Assignment,
    AssignmentWork,
    LessonRunRecord,
    LtiKeySetCache,
    LtiLineItem,
    LtiPupilLink,
    Pupil,
    SchoolClass,
    Teacher,
)
from tutor.web import db

ROWS = (Teacher, SchoolClass, Pupil, LtiPupilLink)


@pytest.fixture
def lti_app(database_url):
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "test-secret"})
    with app.app_context():
        platforms.add_platform(db.session(), ISSUER, CLIENT_ID, [DEPLOYMENT], LOGIN_URL, TOKEN_URL, KEYSET_URL)
        db.session().commit()
    yield app
    app.extensions["db_engine"].dispose()


@pytest.fixture
def lms(lti_app, monkeypatch):
    """The platform; pylti1p3 fetches its key set from it instead of the network."""
    platform = Platform(lti_app.test_client())
    real_fetch = MessageLaunch.fetch_public_key

    def fetch(launch, url):
        return platform.key_set() if url == KEYSET_URL else real_fetch(launch, url)

    monkeypatch.setattr(MessageLaunch, "fetch_public_key", fetch)
    return platform


def counts(app) -> dict:
    with app.app_context():
        return {model.__name__: db.session().scalar(select(func.count()).select_from(model)) for model in ROWS}


def test_a_teacher_and_then_a_pupil_launch_from_the_platform(lti_app, lms):
    teacher = lti_app.test_client()
    response = lms.launch(teacher, "teacher-1", [INSTRUCTOR], given_name="Kari", family_name="Lærer")
    assert response.status_code == 302 and response.location.startswith("/teacher/classes/")
    assert teacher.get(response.location).status_code == 200
    pupil = lti_app.test_client()
    response = lms.launch(pupil, "pupil-1", [LEARNER])
    assert response.status_code == 302 and response.location == "/"
    page = pupil.get("/").get_data(as_text=True)
    assert "Emma" in page and "Nordmann" not in page
    with lti_app.app_context():
        database = db.session()
        assert database.scalar(select(SchoolClass.name)) == "Maths 5B"
        assert database.scalar(select(Teacher.name)) == "Kari Lærer"
        assert database.scalar(select(Pupil.name)) == "Emma"


def resigned_with_another_key(platform, message, data):
    forged = JWK.generate(kty="RSA", size=2048)
    body = jwt.decode(data["id_token"], options={"verify_signature": False})
    header = jwt.get_unverified_header(data["id_token"])
    token = jwt.encode(body, forged.export_to_pem(private_key=True, password=None), "RS256", headers=header)
    return data | {"id_token": token}


def expired(platform, message, data):
    body = jwt.decode(data["id_token"], options={"verify_signature": False})
    body |= {"iat": int(time.time()) - 600, "exp": int(time.time()) - 300}
    key = platform.registration.get_platform_private_key()
    return data | {
        "id_token": platform.registration.encode_and_sign(body, key, jwt.get_unverified_header(data["id_token"]))
    }


def test_refusals_with_the_platforms_own_messages(lti_app, lms):
    lms.launch(lti_app.test_client(), "teacher-1", [INSTRUCTOR])
    before = counts(lti_app)
    forged = lms.launch(lti_app.test_client(), "pupil-1", [LEARNER], sign=resigned_with_another_key)
    assert forged.status_code == 403 and "could not be checked" in forged.get_data(as_text=True)
    old = lms.launch(lti_app.test_client(), "pupil-1", [LEARNER], sign=expired)
    assert old.status_code == 403 and "has expired" in old.get_data(as_text=True)
    stranger = Platform(lti_app.test_client(), client_id="someone-else")
    wrong = stranger.launch(lti_app.test_client(), "pupil-1", [LEARNER])
    assert wrong.status_code == 403 and "not registered with Kortmatte" in wrong.get_data(as_text=True)
    assert counts(lti_app) == before


def test_a_replayed_launch_from_the_platform_is_refused(lti_app, lms):
    sent = {}

    def keep(platform, message, data):
        sent.update(data)
        return data

    browser = lti_app.test_client()
    assert lms.launch(browser, "teacher-1", [INSTRUCTOR], sign=keep).status_code == 302
    thief = lti_app.test_client()  # the token and the state cookie, sent again from another browser
    thief.set_cookie(f"lti1p3-{sent['state']}", sent["state"])
    again = thief.post("/lti/launch", data=sent)
    assert again.status_code == 403 and "was used already" in again.get_data(as_text=True)


RETURN_URL = f"{ISSUER}/deep-linking/return"


def csrf_token(page: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def choose_lesson(app, platform, teacher, game_id="calculation-war", **launch):
    """A teacher's deep-linking launch and choice; returns the page that sends the answer back."""
    response = platform.launch(
        teacher, "teacher-1", [INSTRUCTOR], deep_linking_return_url=RETURN_URL, lineitems_url=LINEITEMS_URL, **launch
    )
    assert response.status_code == 302 and response.location == "/lti/deep-link"
    form = teacher.get("/lti/deep-link")
    assert form.status_code == 200 and 'action="/lti/deep-link"' in form.get_data(as_text=True)
    due = (date.today() + timedelta(days=7)).isoformat()
    return teacher.post(
        "/lti/deep-link",
        data={
            "csrf_token": csrf_token(form.get_data(as_text=True)),
            "game": game_id,
            "goal": "games",
            "goal_count": "2",
            "due_date": due,
            "due_time": "18:00",
            "target": "class",
        },
    )


def sent_back(page: str) -> tuple[str, str]:
    action = re.search(r'<form method="post" action="([^"]+)" data-auto-submit>', page).group(1)
    return action, re.search(r'name="JWT" value="([^"]+)"', page).group(1)


def test_a_teacher_picks_a_lesson_and_the_platform_gets_a_signed_link_with_a_line_item(lti_app, lms):
    teacher = lti_app.test_client()
    answer = choose_lesson(lti_app, lms, teacher)
    assert answer.status_code == 200
    assert f"form-action 'self' {ISSUER}" in answer.headers["Content-Security-Policy"]
    action, jwt_sent = sent_back(answer.get_data(as_text=True))
    assert action == RETURN_URL
    (item,) = lms.content_items(jwt_sent)  # checked by the platform against Kortmatte's published key set
    with lti_app.app_context():
        assignment = db.session().scalar(select(Assignment))
        assert assignment.game_id == "calculation-war" and assignment.goal_count == 2 and assignment.everyone
    assert item["type"] == "ltiResourceLink" and item["url"] == "http://localhost/lti/launch"
    assert item["custom"] == {"kortmatte_assignment": assignment.public_id, "kortmatte_lesson": "calculation-war"}
    assert item["lineItem"]["scoreMaximum"] == 100 and item["lineItem"]["resourceId"] == assignment.public_id
    assert teacher.get("/lti/deep-link").status_code == 404  # answered once; the request is gone


def test_without_grades_the_link_has_no_line_item(lti_app, lms):
    teacher = lti_app.test_client()
    response = lms.launch(teacher, "teacher-1", [INSTRUCTOR], deep_linking_return_url=RETURN_URL)
    form = teacher.get(response.location).get_data(as_text=True)
    due = (date.today() + timedelta(days=3)).isoformat()
    data = {"csrf_token": csrf_token(form), "game": "calculation-war", "goal": "games", "goal_count": "1"}
    answer = teacher.post("/lti/deep-link", data=data | {"due_date": due, "due_time": "18:00", "target": "class"})
    (item,) = lms.content_items(sent_back(answer.get_data(as_text=True))[1])
    assert "lineItem" not in item


def test_the_pick_form_needs_its_csrf_token_and_a_waiting_request(lti_app, lms):
    teacher = lti_app.test_client()
    lms.launch(teacher, "teacher-1", [INSTRUCTOR], deep_linking_return_url=RETURN_URL)
    due = (date.today() + timedelta(days=3)).isoformat()
    data = {"game": "calculation-war", "goal": "games", "goal_count": "1", "due_date": due, "due_time": "18:00"}
    assert teacher.post("/lti/deep-link", data=data | {"target": "class"}).status_code == 400
    with lti_app.app_context():
        assert db.session().scalar(select(func.count()).select_from(Assignment)) == 0
    other = lti_app.test_client()
    lms.launch(other, "teacher-1", [INSTRUCTOR])
    assert other.get("/lti/deep-link").status_code == 404


def test_a_pupil_opening_the_link_plays_that_homework(lti_app, lms):
    teacher = lti_app.test_client()
    item = lms.content_items(sent_back(choose_lesson(lti_app, lms, teacher).get_data(as_text=True))[1])[0]
    pupil = lti_app.test_client()
    response = lms.launch(pupil, "pupil-1", [LEARNER], resource_link="link-7", custom=item["custom"])
    assert response.status_code == 302 and response.location.startswith("/runs/")
    with lti_app.app_context():
        run = db.session().scalar(select(LessonRunRecord))
        assignment = db.session().scalar(select(Assignment))
        assert run.assignment_id == assignment.id and run.game_id == "calculation-war"
    assert pupil.get(response.location).status_code == 200
    again = lms.launch(lti_app.test_client(), "pupil-1", [LEARNER], resource_link="link-7", custom=item["custom"])
    assert again.location == response.location  # the unfinished game goes on
    back = lms.launch(lti_app.test_client(), "teacher-1", [INSTRUCTOR], custom=item["custom"])
    assert back.location == f"/teacher/assignments/{assignment.public_id}"


def test_a_link_to_another_platforms_homework_opens_nothing_of_it(lti_app, lms):
    item = lms.content_items(sent_back(choose_lesson(lti_app, lms, lti_app.test_client()).get_data(as_text=True))[1])[0]
    with lti_app.app_context():
        platforms.add_platform(db.session(), ISSUER, "second-client", [DEPLOYMENT], LOGIN_URL, TOKEN_URL, KEYSET_URL)
        db.session().commit()
    # one issuer and key set (as Canvas's cloud), another registration
    second = Platform(lti_app.test_client(), client_id="second-client", key=lms.config.key)
    second.launch(lti_app.test_client(), "teacher-9", [INSTRUCTOR], custom=item["custom"])
    pupil = lti_app.test_client()
    response = second.launch(pupil, "pupil-9", [LEARNER], custom=item["custom"])
    assert response.status_code == 302 and response.location == "/"
    with lti_app.app_context():
        assert db.session().scalar(select(func.count()).select_from(LessonRunRecord)) == 0


# --- names and roles ----------------------------------------------------------------------------
def member(user_id, given, family, roles=(LEARNER,), **more):
    return {
        "user_id": user_id,
        "roles": list(roles),
        "given_name": given,
        "family_name": family,
        "name": f"{given} {family}",
        "email": f"{user_id}@school.example",
    } | more


@pytest.fixture
def class_list(lms, monkeypatch):
    lms.serve(monkeypatch)
    lms.members = [
        member("teacher-1", "Kari", "Lærer", roles=(INSTRUCTOR,)),
        member("pupil-1", "Emma", "Nordmann"),
        member("pupil-2", "Emma", "Hansen"),
        member("pupil-3", "Ola", "Berg"),
        member("pupil-4", "Gone", "Away", status="Inactive"),
    ]
    return lms


def pupils(app) -> list[tuple[str, str]]:
    with app.app_context():
        rows = db.session().execute(select(LtiPupilLink.subject, Pupil.name).join(Pupil)).all()
    return sorted(tuple(row) for row in rows)


def test_a_teacher_launch_reads_the_class_list_first_names_only_and_once(lti_app, class_list):
    response = class_list.launch(lti_app.test_client(), "teacher-1", [INSTRUCTOR], memberships_url=MEMBERSHIPS_URL)
    assert response.status_code == 302
    assert class_list.calls == [TOKEN_URL, MEMBERSHIPS_URL]  # an access token, checked by the platform, then the list
    assert pupils(lti_app) == [("pupil-1", "Emma"), ("pupil-2", "Emma 2"), ("pupil-3", "Ola")]
    with lti_app.app_context():
        stored = json.dumps([[str(v) for v in row] for row in db.session().execute(select(Pupil.__table__)).all()])
    assert "Nordmann" not in stored and "Hansen" not in stored and "@" not in stored
    class_list.members.append(member("pupil-5", "Ida", "Dahl"))
    class_list.launch(lti_app.test_client(), "teacher-1", [INSTRUCTOR], memberships_url=MEMBERSHIPS_URL)
    assert pupils(lti_app) == [("pupil-1", "Emma"), ("pupil-2", "Emma 2"), ("pupil-3", "Ola"), ("pupil-5", "Ida")]
    before = counts(lti_app)
    pupil = lti_app.test_client()
    assert class_list.launch(pupil, "pupil-3", [LEARNER], given_name="Ola").status_code == 302
    assert counts(lti_app) == before  # the pupil's own launch finds the pupil the class list made


def test_a_class_list_that_cannot_be_read_leaves_the_launch_working(lti_app, class_list, caplog):
    response = class_list.launch(lti_app.test_client(), "teacher-1", [INSTRUCTOR], memberships_url=f"{ISSUER}/nowhere")
    assert response.status_code == 302 and pupils(lti_app) == []
    assert "names and roles of platform" in caplog.text and "pupil" not in caplog.text.lower()


def test_two_launches_racing_to_make_the_same_pupil_or_class_make_one(lti_app, lms, monkeypatch):
    lms.launch(lti_app.test_client(), "teacher-1", [INSTRUCTOR])
    lms.launch(lti_app.test_client(), "pupil-1", [LEARNER])
    before = counts(lti_app)
    real_pupil, real_class = roster.linked_pupil, roster.linked_class
    late = {"pupil": True, "class": True}

    def pupil_not_yet_seen(*args):  # the other launch commits its pupil between this one's look and its insert
        if late.pop("pupil", False):
            return None
        return real_pupil(*args)

    def class_not_yet_seen(*args):
        if late.pop("class", False):
            return None
        return real_class(*args)

    monkeypatch.setattr(roster, "linked_pupil", pupil_not_yet_seen)
    assert lms.launch(lti_app.test_client(), "pupil-1", [LEARNER]).location == "/"
    monkeypatch.setattr(roster, "linked_class", class_not_yet_seen)
    second = lms.launch(lti_app.test_client(), "teacher-2", [INSTRUCTOR])
    assert second.status_code == 302 and second.location.startswith("/teacher/classes/")
    after = counts(lti_app)
    assert after["Pupil"] == before["Pupil"] and after["SchoolClass"] == before["SchoolClass"] == 1
    assert after["Teacher"] == 2


# --- grades -------------------------------------------------------------------------------------
def test_a_pupils_homework_score_goes_to_the_platforms_gradebook_once_per_change(
    lti_app, lms, monkeypatch, database_url, caplog, capsys
):
    lms.serve(monkeypatch)
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("SECRET_KEY", "cli-test")
    item = lms.content_items(sent_back(choose_lesson(lti_app, lms, lti_app.test_client()).get_data(as_text=True))[1])[0]
    pupil = lti_app.test_client()
    launched = lms.launch(
        pupil, "pupil-1", [LEARNER], custom=item["custom"], lineitems_url=LINEITEMS_URL, lineitem_url=LINEITEM_URL
    )
    assert launched.location.startswith("/runs/")
    with lti_app.app_context():
        assert db.session().scalar(select(LtiLineItem.url)) == LINEITEM_URL

    def finished(games: int) -> None:  # the pupil's homework progress, as the lesson steps count it
        with lti_app.app_context():
            db.session().scalar(select(AssignmentWork)).games_finished = games
            db.session().commit()

    assert main(["lti", "send-grades"]) == 0  # no game finished yet: 0 per cent, sent once
    finished(1)
    assert main(["lti", "send-grades"]) == 0
    assert main(["lti", "send-grades"]) == 0  # nothing changed: nothing sent
    assert [(s["userId"], s["scoreGiven"], s["scoreMaximum"]) for s in lms.scores] == [
        ("pupil-1", 0, 100),
        ("pupil-1", 50, 100),
    ]
    lms.down = True
    finished(2)
    assert main(["lti", "send-grades"]) == 1
    assert "could not be sent (LtiServiceException)" in caplog.text and "pupil-1" not in caplog.text
    lms.down = False
    assert main(["lti", "send-grades"]) == 0  # tried again: the score was kept as not accepted
    assert lms.scores[-1]["scoreGiven"] == 100 and lms.scores[-1]["activityProgress"] == "Completed"
    assert len(lms.scores) == 3
    capsys.readouterr()


def test_a_launch_of_another_platform_records_no_gradebook_column_for_this_homework(lti_app, lms):
    item = lms.content_items(sent_back(choose_lesson(lti_app, lms, lti_app.test_client()).get_data(as_text=True))[1])[0]
    with lti_app.app_context():
        platforms.add_platform(db.session(), ISSUER, "second-client", [DEPLOYMENT], LOGIN_URL, TOKEN_URL, KEYSET_URL)
        db.session().commit()
    second = Platform(lti_app.test_client(), client_id="second-client", key=lms.config.key)
    second.launch(lti_app.test_client(), "teacher-9", [INSTRUCTOR])
    second.launch(
        lti_app.test_client(), "pupil-9", [LEARNER], custom=item["custom"], lineitem_url=f"{ISSUER}/elsewhere/1"
    )
    with lti_app.app_context():
        assert db.session().scalar(select(func.count()).select_from(LtiLineItem)) == 0


# --- the platform's key set ---------------------------------------------------------------------
def test_the_platforms_key_set_is_kept_for_a_while_and_fetched_again_for_a_new_key(lti_app, lms):
    lms.launch(lti_app.test_client(), "teacher-1", [INSTRUCTOR])
    lms.launch(lti_app.test_client(), "pupil-1", [LEARNER])
    assert lms.key_set_fetches == 1  # the second launch used the kept key set
    lms.rotate_key()
    assert lms.launch(lti_app.test_client(), "pupil-1", [LEARNER]).location == "/"
    assert lms.key_set_fetches == 2  # a key the kept set lacks: fetched again at once
    with lti_app.app_context():
        row = db.session().scalar(select(LtiKeySetCache))
        row.fetched_at = row.fetched_at - key_sets.LIFETIME - timedelta(minutes=1)
        db.session().commit()
    assert lms.launch(lti_app.test_client(), "pupil-1", [LEARNER]).location == "/"
    assert lms.key_set_fetches == 3  # too old: fetched again
    forged = lms.launch(lti_app.test_client(), "pupil-1", [LEARNER], sign=resigned_with_another_key)
    assert forged.status_code == 403 and lms.key_set_fetches == 3  # the kept keys still refuse a forged signature
