"""The teacher's side through the routes: accounts and sessions, classes, pupils, sign-in for children, homework."""

from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import func, select, update

from tests.answer_key import accepted_move
from tests.conftest import PASSWORD, Guest, run_id_in, run_record
from tutor.answer_key import right_answer
from tutor.lessons import LESSONS
from tutor.lessons.base import move_token
from tutor.lessons.runner import LessonRun
from tutor.models import (
    Assignment,
    AssignmentWork,
    AttemptRecord,
    LessonRunRecord,
    Pupil,
    SchoolClass,
    SignInSession,
    SkillRecord,
    Teacher,
)
from tutor.web import db


def flashes(response) -> list[str]:
    return re.findall(r'class="flash flash-\w+"[^>]*>([^<]*)<', response.get_data(as_text=True))


def count(app, model, *where) -> int:
    with app.app_context():
        return db.session().scalar(select(func.count()).select_from(model).where(*where))


def homework_form(game="calculation-war", **changes):
    due = (date.today() + timedelta(days=5)).isoformat()
    form = {
        "game": game,
        f"{game}-players": "2",
        f"{game}-bots": "beginner",
        "goal": "games",
        "goal_count": "1",
        "due_date": due,
        "due_time": "18:00",
        "target": "class",
    }
    return {**form, **changes}


@pytest.fixture
def teacher_client(app, staff):
    staff.teacher()
    client = app.test_client()
    assert staff.sign_in(client).status_code == 302
    return client


# --- accounts and sessions --------------------------------------------------------------------


def take_a_step(client, run_id: str, run: LessonRun, answer: str | None = None) -> None:
    """One pupil action: answer the open question (``answer``, or the right one), go on after it, or make a move the
    lesson accepts."""
    if run.drill.question and run.drill.open:
        client.post(
            f"/runs/{run_id}/answer",
            data={"answer": right_answer(run.drill.question, "en") if answer is None else answer},
        )
    elif run.drill.question:
        client.post(f"/runs/{run_id}/go-on")
    else:
        client.post(
            f"/runs/{run_id}/move", data={"move": move_token(accepted_move(LESSONS[run.game_id], run.game_state()))}
        )


def test_a_teacher_signs_in_and_sees_their_classes(app, staff, client):
    staff.teacher()
    response = staff.sign_in(client)
    assert response.status_code == 302 and response.headers["Location"] == "/teacher"
    assert "My classes" in client.get("/teacher").get_data(as_text=True)
    assert client.get("/").headers["Location"] == "/teacher"


def test_a_wrong_password_is_refused_kindly(app, staff, client):
    staff.teacher()
    response = client.post("/teacher/sign-in", data={"email": "tove@school.example", "password": "wrong password"})
    assert response.status_code == 400 and "do not match" in response.get_data(as_text=True)
    assert client.get("/teacher").status_code == 302


def test_signing_out_ends_the_session_on_the_server_so_a_copied_cookie_stops_working(app, staff, client):
    staff.teacher()
    staff.sign_in(client)
    copied = client.get_cookie("session").value
    client.post("/sign-out")
    thief = app.test_client()
    thief.set_cookie("session", copied)
    response = thief.get("/teacher")
    assert response.status_code == 302 and "/teacher/sign-in" in response.headers["Location"]
    assert count(app, SignInSession) == 0


def test_signing_in_again_starts_a_new_session(app, staff, client):
    staff.teacher()
    staff.sign_in(client)
    first = client.get_cookie("session").value
    staff.sign_in(client)
    old = app.test_client()
    old.set_cookie("session", first)
    assert old.get("/teacher").status_code == 302  # the earlier session was closed by the new sign-in
    assert client.get("/teacher").status_code == 200
    assert count(app, SignInSession) == 1


def test_an_idle_session_ends_with_a_clear_message(app, staff, client):
    staff.teacher()
    staff.sign_in(client)
    with app.app_context():
        database = db.session()
        database.execute(
            update(SignInSession).values(
                last_seen_at=datetime.now(UTC) - timedelta(minutes=app.config["SESSION_IDLE_MINUTES"] + 1)
            )
        )
        database.commit()
    response = client.get("/teacher", follow_redirects=True)
    assert "signed out because the time ran out" in response.get_data(as_text=True)


def test_an_old_session_ends_even_when_active(app, staff, client):
    staff.teacher()
    staff.sign_in(client)
    with app.app_context():
        database = db.session()
        database.execute(
            update(SignInSession).values(
                created_at=datetime.now(UTC) - timedelta(hours=app.config["SESSION_LIFETIME_HOURS"], minutes=1)
            )
        )
        database.commit()
    assert client.get("/teacher").status_code == 302


def test_failed_sign_ins_are_throttled_per_account(app, staff, client):
    staff.teacher()
    for _ in range(5):
        client.post("/teacher/sign-in", data={"email": "tove@school.example", "password": "wrong password"})
    response = client.post("/teacher/sign-in", data={"email": "tove@school.example", "password": PASSWORD})
    assert response.status_code == 429 and "Please wait 5 minutes" in response.get_data(as_text=True)
    # the throttle lives in the database, so a second app server on the same database refuses too
    from tutor.app import create_app

    second = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": app.config["DATABASE_URL"],
            "SECRET_KEY": app.config["SECRET_KEY"],
            "WTF_CSRF_ENABLED": False,
        }
    )
    assert (
        second.test_client()
        .post("/teacher/sign-in", data={"email": "tove@school.example", "password": PASSWORD})
        .status_code
        == 429
    )
    second.extensions["db_engine"].dispose()


def test_password_lists_tried_from_one_address_are_throttled_per_address(app, staff, client, monkeypatch):
    from datetime import timedelta as minutes

    from tutor import accounts

    monkeypatch.setattr(
        accounts, "ADDRESS", accounts.Throttle(8, minutes(hours=1), minutes(minutes=5), minutes(hours=1))
    )
    staff.teacher()
    for n in range(8):
        client.post("/teacher/sign-in", data={"email": f"guess{n}@school.example", "password": "wrong password"})
    assert staff.sign_in(client).status_code == 429
    elsewhere = app.test_client()
    assert (
        elsewhere.post(
            "/teacher/sign-in",
            data={"email": "tove@school.example", "password": PASSWORD},
            environ_base={"REMOTE_ADDR": "10.0.0.9"},
        ).status_code
        == 302
    )


def test_sign_up_is_off_unless_the_operator_allows_it(app, client):
    assert client.get("/teacher/sign-up").status_code == 404
    assert "Create a teacher account" not in client.get("/teacher/sign-in").get_data(as_text=True)


@pytest.mark.parametrize(
    "form, message",
    [
        (
            {"name": "", "email": "a@b.no", "password": "long enough pw", "password_again": "long enough pw"},
            "Please type your name",
        ),
        (
            {"name": "X" * 81, "email": "a@b.no", "password": "long enough pw", "password_again": "long enough pw"},
            "Please type your name",
        ),
        (
            {
                "name": "Tove",
                "email": "not-an-address",
                "password": "long enough pw",
                "password_again": "long enough pw",
            },
            "valid e-mail",
        ),
        ({"name": "Tove", "email": "a@b.no", "password": "short", "password_again": "short"}, "password of 10"),
        (
            {"name": "Tove", "email": "a@b.no", "password": "long enough pw", "password_again": "long enough px"},
            "not the same",
        ),
        (
            {
                "name": "Tove",
                "email": "TOVE@school.example",
                "password": "long enough pw",
                "password_again": "long enough pw",
            },
            "We could not create an account with these details",
        ),
        (
            {"name": "Tove", "email": "a@b.no", "password": "Password2024!", "password_again": "Password2024!"},
            "most common ones",
        ),
        (
            {"name": "Tove", "email": "a@b.no", "password": "aaaaaaaaaa", "password_again": "aaaaaaaaaa"},
            "most common ones",
        ),
    ],
)
def test_sign_up_refuses_bad_input_and_stores_nothing(app, staff, client, form, message):
    app.config["ALLOW_SIGNUP"] = True
    staff.teacher()
    response = client.post("/teacher/sign-up", data=form)
    assert response.status_code == 400 and message in response.get_data(as_text=True)
    assert count(app, Teacher) == 1


def test_sign_up_creates_an_account_and_signs_in(app, client):
    app.config["ALLOW_SIGNUP"] = True
    client.post("/language", data={"locale": "sv"})
    response = client.post(
        "/teacher/sign-up",
        data={
            "name": "Sara",
            "email": "Sara@Skola.se",
            "password": "tio tecken minst",
            "password_again": "tio tecken minst",
        },
    )
    assert response.status_code == 302 and client.get("/teacher").status_code == 200
    with app.app_context():
        teacher = db.session().scalar(select(Teacher))
        assert teacher.email == "sara@skola.se" and teacher.locale == "sv" and "tio tecken" not in teacher.password_hash


# --- classes and pupils -----------------------------------------------------------------------
def test_a_teacher_creates_a_class_with_a_readable_code_and_adds_pupils(app, teacher_client):
    response = teacher_client.post(
        "/teacher/classes/new", data={"name": "4B", "locale": "nb", "timezone": "Europe/Oslo", "sign_in": "pictures"}
    )
    assert response.status_code == 302
    class_id = response.headers["Location"].split("/")[3]
    refused = teacher_client.post(
        f"/teacher/classes/{class_id}/pupils", data={"names": "Ada\nOla\n\nLise Marie\n" + "X" * 41 + "\nOla"}
    )
    text = refused.get_data(as_text=True)
    assert refused.status_code == 400 and any("Nothing was added yet" in m for m in flashes(refused))
    assert "Line 5" in text and "Line 6, “Ola”: the same name as an earlier line" in text
    with app.app_context():
        assert not db.session().scalar(select(SchoolClass)).pupils  # nothing half-imported
    teacher_client.post(f"/teacher/classes/{class_id}/pupils", data={"names": "Ada"})
    page = teacher_client.post(
        f"/teacher/classes/{class_id}/pupils", data={"names": "Ola\n\n ada \nLise Marie"}, follow_redirects=True
    )
    messages = flashes(page)
    assert any("2 pupils added" in m for m in messages)
    assert any("Already in the class" in m and "ada" in m for m in messages)
    with app.app_context():
        school_class = db.session().scalar(select(SchoolClass))
        assert not set(school_class.code) & set("0O1IL")
        names = sorted(p.name for p in school_class.pupils)
        assert names == ["Ada", "Lise Marie", "Ola"]
        assert all(p.avatar and len(p.secret.split()) == 4 and not p.is_guest for p in school_class.pupils)
        assert len({p.avatar for p in school_class.pupils}) == 3


@pytest.mark.parametrize(
    "form",
    [
        {"name": "", "locale": "en", "timezone": "Europe/Oslo", "sign_in": "pictures"},
        {"name": "Z" * 61, "locale": "en", "timezone": "Europe/Oslo", "sign_in": "pictures"},
        {"name": "4B", "locale": "de", "timezone": "Europe/Oslo", "sign_in": "pictures"},
        {"name": "4B", "locale": "en", "timezone": "Mars/Olympus", "sign_in": "pictures"},
        {"name": "4B", "locale": "en", "timezone": "Europe/Oslo", "sign_in": "password"},
        {"name": "4B", "locale": "en", "timezone": "Europe/Oslo", "sign_in": "pictures", "target_success": "55"},
        {"name": "4B", "locale": "en", "timezone": "Europe/Oslo", "sign_in": "pictures", "target_success": "0.75"},
        {},
    ],
)
def test_a_class_with_bad_settings_is_refused_and_nothing_is_stored(app, teacher_client, form):
    response = teacher_client.post("/teacher/classes/new", data=form)
    assert response.status_code == 400 and flashes(response)
    assert count(app, SchoolClass) == 0


def test_a_class_aims_its_pupils_questions_at_the_share_of_right_answers_the_teacher_sets(app, staff, teacher_client):
    """A new pupil (ability 0) expects 0.75 at level 1 and 0.5 at level 2: 75 % asks level 1, 60 % level 2."""
    school_class = staff.school_class(pupils=("Ada",))
    settings = f"/teacher/classes/{school_class.public_id}/settings"
    assert 'value="75" selected' in teacher_client.get(settings).get_data(as_text=True)
    first_levels = {}
    for percent in ("75", "60"):
        form = {
            "name": "4B",
            "locale": "en",
            "timezone": "Europe/Oslo",
            "sign_in": "pictures",
            "target_success": percent,
        }
        assert teacher_client.post(settings, data=form).status_code == 302
        assert f'value="{percent}" selected' in teacher_client.get(settings).get_data(as_text=True)
        pupil = Guest(app.test_client())
        staff.sign_in_pupil(pupil.client, school_class.code, "Ada")
        run_id = pupil.start("calculation-war")
        pupil.client.post(f"/runs/{run_id}/skip-intro")
        first_levels[percent] = first_question(app, pupil, run_id)["difficulty"]
    assert first_levels == {"75": 1, "60": 2}


def first_question(app, pupil: Guest, run_id: str) -> dict:
    """Make the last legal move until the lesson asks its first question."""
    for _ in range(40):
        run = LessonRun.from_dict(run_record(app, run_id).data)
        if run.drill.question:
            return run.drill.question
        pupil.client.post(f"/runs/{run_id}/move", data={"move": move_token(run.game_state().legal_moves()[-1])})
    raise AssertionError("no question in 40 moves")


def test_an_empty_pupil_list_is_refused_with_a_message(app, staff, teacher_client):
    school_class = staff.school_class(pupils=())
    response = teacher_client.post(f"/teacher/classes/{school_class.public_id}/pupils", data={"names": "  \n \n"})
    assert response.status_code == 400 and "one per line" in response.get_data(as_text=True)


def test_a_class_holds_at_most_sixty_pupils(app, staff, teacher_client):
    school_class = staff.school_class(pupils=[f"P{n}" for n in range(58)])
    page = teacher_client.post(f"/teacher/classes/{school_class.public_id}/pupils", data={"names": "A\nB\nC\nD"})
    assert page.status_code == 400 and "at most 60 pupils: 2 names are too many" in page.get_data(as_text=True)
    assert count(app, Pupil) == 58
    teacher_client.post(f"/teacher/classes/{school_class.public_id}/pupils", data={"names": "A\nB"})
    assert count(app, Pupil) == 60


def test_the_login_cards_show_code_names_pictures_and_a_qr_code(app, staff, teacher_client):
    school_class = staff.school_class(pupils=("Ada", "Ola"))
    page = teacher_client.get(f"/teacher/classes/{school_class.public_id}/cards").get_data(as_text=True)
    ada = staff.pupil(school_class.code, "Ada")
    assert page.count('class="login-card"') == 2 and "Ada" in page and "Ola" in page
    code = f"{school_class.code[:3]} {school_class.code[3:]}"
    assert page.count(code) >= 2
    for picture in ada.secret.split():
        assert f"pictures/{picture}." in page  # pictures/cat.<hash>.svg
    assert page.count("data:image/svg+xml") == 2
    stylesheet = teacher_client.get("/static/app.css")
    assert "@media print" in stylesheet.get_data(as_text=True)
    stylesheet.close()


def test_renaming_resetting_and_deleting_a_pupil(app, staff, teacher_client, sign_in_clock):
    school_class = staff.school_class(pupils=("Ada", "Ola"))
    ada = staff.pupil(school_class.code, "Ada")
    pupil_client = app.test_client()
    staff.sign_in_pupil(pupil_client, school_class.code, "Ada")
    assert pupil_client.get("/progress").status_code == 200
    teacher_client.post(f"/teacher/pupils/{ada.public_id}/reset-secret")
    assert staff.pupil(school_class.code, "Ada").secret != ada.secret
    sign_in_clock.advance(app.config["SESSION_CHECK_SECONDS"])  # once her cookie's check is due
    assert pupil_client.get("/progress").status_code == 302  # new pictures end her old sign-ins
    response = teacher_client.post(
        f"/teacher/pupils/{ada.public_id}/rename", data={"name": "ola"}, follow_redirects=True
    )
    assert any("already a pupil called ola" in m for m in flashes(response))
    teacher_client.post(f"/teacher/pupils/{ada.public_id}/rename", data={"name": "Adele"})
    assert staff.pupil(school_class.code, "Adele") is not None
    teacher_client.post(f"/teacher/pupils/{ada.public_id}/delete", data={})  # not confirmed
    assert count(app, Pupil) == 2
    teacher_client.post(f"/teacher/pupils/{ada.public_id}/delete", data={"confirm": "yes"})
    assert count(app, Pupil) == 1


def test_a_co_teacher_sees_the_class_and_the_message_does_not_tell_which_addresses_have_accounts(
    app, staff, teacher_client
):
    staff.teacher("co@school.example", "Cora")
    school_class = staff.school_class()
    said = {}
    for email in ("nobody@school.example", "CO@school.example"):
        response = teacher_client.post(
            f"/teacher/classes/{school_class.public_id}/co-teachers", data={"email": email}, follow_redirects=True
        )
        said[email] = flashes(response)[-1].replace(email.lower(), "EMAIL")
    assert said["nobody@school.example"] == said["CO@school.example"]
    assert "If EMAIL has a Kortmatte account, they now teach this class too." in said["CO@school.example"]
    co = app.test_client()
    staff.sign_in(co, "co@school.example")
    assert school_class.name in co.get("/teacher").get_data(as_text=True)
    assert (
        co.post(f"/teacher/classes/{school_class.public_id}/delete", data={"confirm": "yes"}).status_code == 404
    )  # only the owner deletes


# --- children signing in ---------------------------------------------------------------------
def test_a_child_signs_in_with_code_name_and_four_pictures(app, staff, client):
    staff.teacher()
    school_class = staff.school_class(pupils=("Ada", "Ola"))
    assert (
        client.post("/class", data={"code": f" {school_class.code[:3].lower()}-{school_class.code[3:]} "}).headers[
            "Location"
        ]
        == f"/class/{school_class.code}"
    )
    page = client.get(f"/class/{school_class.code}").get_data(as_text=True)
    ada = staff.pupil(school_class.code, "Ada")
    assert "Ada" in page and "Ola" in page and f"pictures/{ada.avatar}." in page
    first, second, third, fourth = ada.secret.split()
    page = client.post(f"/class/{school_class.code}/{ada.public_id}", data={"picked": "", "pick": first}).get_data(
        as_text=True
    )
    assert "1 of 4 pictures chosen" in page and f'name="picked" value="{first}"' in page
    client.post(f"/class/{school_class.code}/{ada.public_id}", data={"picked": first, "pick": second})
    client.post(f"/class/{school_class.code}/{ada.public_id}", data={"picked": f"{first} {second}", "pick": third})
    response = client.post(
        f"/class/{school_class.code}/{ada.public_id}", data={"picked": f"{first} {second} {third}", "pick": fourth}
    )
    assert response.status_code == 302 and response.headers["Location"] == "/"
    assert "Hello, Ada" in client.get("/").get_data(as_text=True)


def test_a_wrong_class_code_gets_a_clear_message_in_the_childs_language(client):
    client.post("/language", data={"locale": "nb"})
    response = client.post("/class", data={"code": "NOPE42"})
    assert response.status_code == 400 and 'value="NOPE42"' in response.get_data(as_text=True)
    assert flashes(response)


def test_wrong_pictures_are_throttled_for_that_child_only(app, staff):
    staff.teacher()
    school_class = staff.school_class(pupils=("Ada", "Ola"))
    ada = staff.pupil(school_class.code, "Ada")
    wrong = " ".join(reversed(ada.secret.split()))
    attacker = app.test_client()
    url = f"/class/{school_class.code}/{ada.public_id}"
    for _ in range(5):
        *picked, last = wrong.split()
        response = attacker.post(url, data={"picked": " ".join(picked), "pick": last}, follow_redirects=True)
        assert "not your pictures" in response.get_data(as_text=True)
    *picked, last = ada.secret.split()
    response = attacker.post(url, data={"picked": " ".join(picked), "pick": last})
    assert response.status_code == 429 and "Too many tries. Please wait" in response.get_data(as_text=True)
    classmate = app.test_client()
    assert staff.sign_in_pupil(classmate, school_class.code, "Ola").status_code == 302  # the class is not locked out
    teacher = app.test_client()
    staff.sign_in(teacher)
    teacher.post(f"/teacher/pupils/{ada.public_id}/reset-secret")  # the teacher's reset lifts the wait
    assert staff.sign_in_pupil(app.test_client(), school_class.code, "Ada").status_code == 302


def test_a_pin_class_signs_in_with_four_digits_and_refuses_anything_else(app, staff, client):
    staff.teacher()
    school_class = staff.school_class(pupils=("Ada",), sign_in="pin")
    ada = staff.pupil(school_class.code, "Ada")
    url = f"/class/{school_class.code}/{ada.public_id}"
    assert 'inputmode="numeric"' in client.get(url).get_data(as_text=True)
    assert client.post(url, data={"pin": "12"}).status_code == 400
    assert client.post(url, data={"pin": "abcd"}).status_code == 400
    assert client.post(url, data={"pin": ada.secret}).status_code == 302


def test_guests_find_their_games_again_with_the_same_name_on_the_same_device(app, guest, client):
    guest.sign_in("Mia")
    run_id = guest.start()
    client.post("/sign-out")
    guest.sign_in("mia")
    assert f"/runs/{run_id}" in client.get("/").get_data(as_text=True)
    other_device = app.test_client()
    Guest = type(guest)
    Guest(other_device).sign_in("Mia")
    assert f"/runs/{run_id}" not in other_device.get("/").get_data(as_text=True)
    assert count(app, Pupil) == 2


def test_guest_play_can_be_switched_off(app, client):
    app.config["ALLOW_GUESTS"] = False
    assert "Play as a guest" not in client.get("/").get_data(as_text=True)
    assert client.post("/guest", data={"name": "Mia"}).status_code == 404


# --- homework --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "changes, message",
    [
        ({"game": "poker"}, "choose a game"),
        ({"calculation-war-players": "9"}, "do not work for this game"),
        ({"calculation-war-bots": "cheater"}, "do not work for this game"),
        ({"goal": "fun"}, "choose a goal"),
        ({"goal_count": "0"}, "from 1 to 20"),
        ({"goal_count": "lots"}, "from 1 to 20"),
        ({"goal": "questions", "goal_count": "501"}, "from 1 to 500"),
        (
            {"goal": "skill", "calculation-war-goal_skill": "fractions", "goal_level": "mastered"},
            "skill this game practises",
        ),
        (
            {"goal": "skill", "calculation-war-goal_skill": "compare", "goal_level": "attempted"},
            "skill this game practises",
        ),
        ({"due_date": "2020-01-01"}, "already passed"),
        ({"due_date": "tomorrow"}, "date and a time"),
        ({"due_time": "25:99"}, "date and a time"),
        ({"due_date": (date.today() + timedelta(days=800)).isoformat()}, "more than a year"),
        ({"target": "pupils"}, "at least one pupil"),
        ({"target": "pupils", "pupils": "not-a-pupil"}, "at least one pupil"),
    ],
)
def test_homework_with_bad_settings_is_refused_and_the_form_kept(app, staff, teacher_client, changes, message):
    school_class = staff.school_class()
    response = teacher_client.post(
        f"/teacher/classes/{school_class.public_id}/homework/new", data=homework_form(**changes)
    )
    assert response.status_code == 400 and any(message in m for m in flashes(response)), flashes(response)
    assert count(app, Assignment) == 0


@pytest.mark.parametrize("players,status", [("2", 400), ("12", 400), ("6", 302)])
def test_homework_is_set_only_with_a_player_count_the_lesson_offers(app, staff, teacher_client, players, status):
    """Gnav's rules take 2 to 12 players; its lesson offers 3 to 6."""
    school_class = staff.school_class()
    response = teacher_client.post(
        f"/teacher/classes/{school_class.public_id}/homework/new",
        data=homework_form("gnav", **{"gnav-players": players}),
    )
    assert response.status_code == status
    assert count(app, Assignment) == (status == 302)


def test_homework_due_time_is_in_the_class_time_zone_and_stored_in_utc(app, staff, teacher_client):
    school_class = staff.school_class(timezone="Europe/Oslo")
    due = date.today() + timedelta(days=5)
    teacher_client.post(
        f"/teacher/classes/{school_class.public_id}/homework/new",
        data=homework_form(due_date=due.isoformat(), due_time="18:00"),
    )
    with app.app_context():
        stored = db.session().scalar(select(Assignment.due_at))
    from zoneinfo import ZoneInfo

    expected = datetime.combine(due, datetime.min.time().replace(hour=18), ZoneInfo("Europe/Oslo")).astimezone(UTC)
    assert stored.replace(tzinfo=UTC) == expected


def test_homework_for_chosen_pupils_only_reaches_them(app, staff, teacher_client):
    school_class = staff.school_class(pupils=("Ada", "Ola"))
    ada = staff.pupil(school_class.code, "Ada")
    form = homework_form(target="pupils", pupils=ada.public_id)
    assert teacher_client.post(f"/teacher/classes/{school_class.public_id}/homework/new", data=form).status_code == 302
    ada_client, ola_client = app.test_client(), app.test_client()
    staff.sign_in_pupil(ada_client, school_class.code, "Ada")
    staff.sign_in_pupil(ola_client, school_class.code, "Ola")
    assert "Your homework" in ada_client.get("/").get_data(as_text=True) and "Finish 1 game." in ada_client.get(
        "/"
    ).get_data(as_text=True)
    assert "Finish 1 game." not in ola_client.get("/").get_data(as_text=True)


def play_through(client, app, run_id, answers_right=True, limit=400):
    """Play a lesson through the routes, answering every question (right or wrong), to its end."""
    client.post(f"/runs/{run_id}/skip-intro")
    for _ in range(limit):
        run = LessonRun.from_dict(run_record(app, run_id).data)
        if run.stage == "finished":
            return run
        wrong = None
        if run.drill.question and run.drill.open and not answers_right:
            question = run.current_question()
            wrong = "999999" if question.answer == "number" else question.choices[-1]["value"]
        take_a_step(client, run_id, run, wrong)
    raise AssertionError("the lesson did not finish")


def test_a_pupil_does_homework_and_the_teacher_sees_it_done(app, staff, teacher_client):
    school_class = staff.school_class(pupils=("Ada", "Ola"))
    form = homework_form(goal="questions", goal_count="2", class_deal="yes")
    assignment_id = (
        teacher_client.post(f"/teacher/classes/{school_class.public_id}/homework/new", data=form)
        .headers["Location"]
        .rsplit("/", 1)[1]
    )
    ada, ola = app.test_client(), app.test_client()
    staff.sign_in_pupil(ada, school_class.code, "Ada")
    staff.sign_in_pupil(ola, school_class.code, "Ola")
    ada_run = run_id_in(ada.post(f"/homework/{assignment_id}/start").headers["Location"])
    ola_run = run_id_in(ola.post(f"/homework/{assignment_id}/start").headers["Location"])
    assert run_record(app, ada_run).seed == run_record(app, ola_run).seed  # the class deal
    assert run_record(app, ada_run).data["state"] == run_record(app, ola_run).data["state"]
    assert (
        run_id_in(ada.post(f"/homework/{assignment_id}/start").headers["Location"]) == ada_run
    )  # start again = continue
    ada.post(f"/runs/{ada_run}/skip-intro")
    for _ in range(80):  # step until two answers count for the homework (a judged card choice counts too)
        take_a_step(ada, ada_run, LessonRun.from_dict(run_record(app, ada_run).data))
        with app.app_context():
            counted = db.session().scalar(select(AssignmentWork.questions).join(Pupil).where(Pupil.name == "Ada"))
        if (counted or 0) >= 2:
            break
    with app.app_context():
        work = db.session().scalar(select(AssignmentWork).join(Pupil).where(Pupil.name == "Ada"))
        assert work.questions == 2 and work.first_try_right == 2 and work.done_at is not None
        ola_work = db.session().scalar(select(AssignmentWork).join(Pupil).where(Pupil.name == "Ola"))
        assert ola_work.questions == 0 and ola_work.done_at is None
    home = ada.get("/").get_data(as_text=True)
    assert 'value="100"' in home and "done" in home


def test_late_work_is_accepted_and_marked_late(app, staff, teacher_client):
    school_class = staff.school_class(pupils=("Ada",))
    assignment_id = (
        teacher_client.post(f"/teacher/classes/{school_class.public_id}/homework/new", data=homework_form())
        .headers["Location"]
        .rsplit("/", 1)[1]
    )
    with app.app_context():
        database = db.session()
        database.execute(update(Assignment).values(due_at=datetime.now(UTC) - timedelta(days=1)))
        database.commit()
    ada = app.test_client()
    staff.sign_in_pupil(ada, school_class.code, "Ada")
    assert "late" in ada.get("/").get_data(as_text=True)
    run_id = run_id_in(ada.post(f"/homework/{assignment_id}/start").headers["Location"])
    play_through(ada, app, run_id)
    with app.app_context():
        work = db.session().scalar(select(AssignmentWork))
        assert work.games_finished == 1 and work.done_at is not None
    assert "handed in late" in ada.get("/").get_data(as_text=True)


def test_an_unreadable_answer_is_stored_as_its_refusal_code_not_the_text(app, guest, client):
    guest.sign_in()
    run_id = guest.start("calculation-war")
    client.post(f"/runs/{run_id}/skip-intro")
    for _ in range(200):
        run = LessonRun.from_dict(run_record(app, run_id).data)
        if run.drill.question and run.drill.open and run.drill.question["answer"] == "number":
            break
        take_a_step(client, run_id, run)
    else:
        raise AssertionError("no typed question came up")
    client.post(f"/runs/{run_id}/answer", data={"answer": "Ada 91234567"})
    with app.app_context():
        row = db.session().scalars(select(AttemptRecord).order_by(AttemptRecord.id.desc())).first()
        assert row.error_code and row.typed == "" and row.read_as is None and not row.readable
        assert "Ada" not in json.dumps(row.feedback or []) and "9123" not in json.dumps(row.feedback or [])


def test_deleting_a_pupil_removes_all_their_work(app, staff, teacher_client, sign_in_clock):
    school_class = staff.school_class(pupils=("Ada", "Ola"))
    assignment_id = (
        teacher_client.post(f"/teacher/classes/{school_class.public_id}/homework/new", data=homework_form())
        .headers["Location"]
        .rsplit("/", 1)[1]
    )
    ada = app.test_client()
    staff.sign_in_pupil(ada, school_class.code, "Ada")
    run_id = run_id_in(ada.post(f"/homework/{assignment_id}/start").headers["Location"])
    play_through(ada, app, run_id)
    assert count(app, AttemptRecord) > 0 and count(app, SkillRecord) > 0
    export = teacher_client.get(f"/teacher/pupils/{staff.pupil(school_class.code, 'Ada').public_id}/export.json")
    data = json.loads(export.get_data(as_text=True))
    assert data["pupil"]["name"] == "Ada" and data["answers"] and data["lesson_runs"] and data["homework"]
    assert "attachment" in export.headers["Content-Disposition"]
    teacher_client.post(
        f"/teacher/pupils/{staff.pupil(school_class.code, 'Ada').public_id}/delete", data={"confirm": "yes"}
    )
    for model in (AttemptRecord, SkillRecord, LessonRunRecord, AssignmentWork):
        assert count(app, model) == 0, model
    assert count(app, SignInSession, SignInSession.pupil_id.is_not(None)) == 0
    sign_in_clock.advance(app.config["SESSION_CHECK_SECONDS"])  # once her cookie's check is due
    assert ada.get("/progress").status_code == 302


def test_deleting_a_class_removes_its_pupils_and_their_work(app, staff, teacher_client):
    school_class = staff.school_class(pupils=("Ada",))
    ada = app.test_client()
    staff.sign_in_pupil(ada, school_class.code, "Ada")
    ada.post("/lessons/calculation-war/start", data={"players": "2", "strength": "beginner"})
    teacher_client.post(f"/teacher/classes/{school_class.public_id}/delete", data={})
    assert count(app, SchoolClass) == 1
    teacher_client.post(f"/teacher/classes/{school_class.public_id}/delete", data={"confirm": "yes"})
    for model in (SchoolClass, Pupil, LessonRunRecord, SignInSession):
        assert count(app, model) == (1 if model is SignInSession else 0), model  # the teacher's own session stays


def test_the_database_engine_keeps_parameters_out_of_logs_and_errors(app):
    assert app.extensions["db_engine"].hide_parameters


def test_a_class_sign_in_page_speaks_the_class_language_unless_the_child_chose_another(app, staff, client):
    staff.teacher()
    school_class = staff.school_class(pupils=("Ada",), locale="it")
    ada = staff.pupil(school_class.code, "Ada")
    page = client.get(f"/class/{school_class.code}/{ada.public_id}", headers={"Accept-Language": "en"}).get_data(
        as_text=True
    )
    assert '<html lang="it">' in page
    client.post("/language", data={"locale": "sv"})
    page = client.get(f"/class/{school_class.code}/{ada.public_id}", headers={"Accept-Language": "en"}).get_data(
        as_text=True
    )
    assert '<html lang="sv">' in page


def test_login_cards_are_in_the_class_language_whatever_the_teacher_reads(app, staff, teacher_client):
    school_class = staff.school_class(pupils=("Ada",), locale="it")
    page = teacher_client.get(f"/teacher/classes/{school_class.public_id}/cards").get_data(as_text=True)
    assert '<html lang="en">' in page and 'lang="it"' in page
    from markupsafe import escape

    from tutor.text import say

    assert escape(say("My pictures, in this order:", "it")) in page
    ada = staff.pupil(school_class.code, "Ada")
    assert f'alt="{escape(say(ada.secret.split()[0], "it"))}"' in page
    with app.app_context():  # the three pictures added to the nine print with their Italian names too
        db.session().get(Pupil, ada.id).secret = "key umbrella flower sun"
        db.session().commit()
    page = teacher_client.get(f"/teacher/classes/{school_class.public_id}/cards").get_data(as_text=True)
    for name in ("chiave", "ombrello", "fiore", "sole"):
        assert f'alt="{name}"' in page, name


def test_sign_up_is_limited_per_address(app, client, monkeypatch):
    from tutor import limits

    monkeypatch.setattr(limits, "SIGN_UPS", limits.Limit("sign-up", 2, 3600))
    app.config["ALLOW_SIGNUP"] = True
    form = {"name": "Tove", "email": "bad", "password": "x", "password_again": "x"}
    assert [client.post("/teacher/sign-up", data=form).status_code for _ in range(3)] == [400, 400, 429]


def test_a_teacher_changes_the_password_and_every_other_sign_in_ends(app, staff, teacher_client):
    other = app.test_client()
    staff.sign_in(other)
    page = teacher_client.get("/teacher/password")
    assert page.status_code == 200 and "Change your password" in page.get_data(as_text=True)
    new = "seven green apples on the table"
    refused = [
        ({"current": "wrong", "password": new, "password_again": new}, "not your current password"),
        ({"current": PASSWORD, "password": new, "password_again": new + "x"}, "not the same"),
        ({"current": PASSWORD, "password": "iloveyou12345", "password_again": "iloveyou12345"}, "most common"),
        ({"current": PASSWORD, "password": "short", "password_again": "short"}, "password of 10"),
    ]
    for form, message in refused:
        response = teacher_client.post("/teacher/password", data=form)
        assert response.status_code == 400 and message in response.get_data(as_text=True), message
    response = teacher_client.post(
        "/teacher/password", data={"current": PASSWORD, "password": new, "password_again": new}
    )
    assert response.status_code == 302 and teacher_client.get("/teacher").status_code == 200
    assert other.get("/teacher").status_code == 302  # the other browser was signed out
    assert staff.sign_in(app.test_client(), password=PASSWORD).status_code == 400
    assert staff.sign_in(app.test_client(), password=new).status_code == 302


def test_a_switched_off_account_cannot_sign_in_even_with_the_right_password(app, staff):
    from tutor import admin

    staff.teacher()
    with app.app_context():
        admin.disable_teacher(db.session(), admin.teacher_by_email(db.session(), "tove@school.example"))
        db.session().commit()
    response = staff.sign_in(app.test_client())
    assert response.status_code == 403 and "switched off" in response.get_data(as_text=True)
