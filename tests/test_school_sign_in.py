"""Signing in with the school's account: Feide with its groups, Google and Microsoft, against Authlib's own server.

The identity provider (tests/identity_provider.py) runs on this machine; Kortmatte fetches
its metadata, keys, tokens and groups over real HTTP, and the browser's part is played by
the Flask test client and ``requests`` (which follows nothing by itself).
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from sqlalchemy import func, select

from tests.conftest import Staff
from tests.identity_provider import PUPIL, TEACHER, Person, organisation, serving_provider
from tutor.app import create_app
from tutor.models import ClassTeacher, Pupil, SchoolClass, SignInLink, SignInSession, Teacher
from tutor.sso import entry
from tutor.web import db


@pytest.fixture(scope="module")
def idp():
    with serving_provider() as provider:
        yield provider


@pytest.fixture(autouse=True)
def fresh_provider(idp):
    idp.twist, idp.next_person = {}, TEACHER
    yield


def make_app(database_url, **settings):
    base = {"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "test-secret", "WTF_CSRF_ENABLED": False}
    return create_app(base | settings)


@pytest.fixture
def app(database_url, idp):
    app = make_app(database_url, **idp.settings("FEIDE"), **idp.settings("GOOGLE"))
    yield app
    app.extensions["db_engine"].dispose()


def to_provider(client, provider="feide", role="teacher", url=None, **form):
    """Press the sign-in button: the address Kortmatte sends the browser to."""
    started = client.post(url or f"/sign-in/{provider}", data={"as": role, **form})
    assert started.status_code == 302, started.data[:500]
    return started.headers["Location"]


def back_from_provider(location: str) -> str:
    """What the provider answers the browser: the path (with query) it sends it back to on Kortmatte."""
    answer = requests.get(location, allow_redirects=False, timeout=10)
    assert answer.status_code == 302, answer.text[:500]
    back = urlsplit(answer.headers["Location"])
    return f"{back.path}?{back.query}"


def sign_in(client, idp, person=TEACHER, provider="feide", role="teacher", **form):
    idp.next_person = person
    return client.get(back_from_provider(to_provider(client, provider, role, **form)))


def count(app, model) -> int:
    with app.app_context():
        return db.session().scalar(select(func.count()).select_from(model))


def nothing_made(app) -> bool:
    return all(count(app, model) == 0 for model in (Teacher, SchoolClass, Pupil, SignInLink, SignInSession))


# --- the groups API's shapes ------------------------------------------------------------------
def test_teaching_groups_and_staff_come_from_feides_documented_shapes():
    groups = TEACHER.groups + [{"type": "fc:adhoc", "id": "fc:adhoc:1", "displayName": "Chess club"}, "junk", None]
    found = entry.teaching_groups(groups)
    assert [(g.name, g.teaches) for g in found] == [("6A matematikk", True)]
    assert entry.works_at_school(TEACHER.groups) and not entry.works_at_school(PUPIL.groups)
    assert entry.works_at_school([organisation("staff")]) and not entry.works_at_school("not a list")
    assert [g.teaches for g in entry.teaching_groups(PUPIL.groups)] == [False]


# --- teachers ---------------------------------------------------------------------------------
def test_the_sign_in_asks_with_state_nonce_and_pkce(client):
    query = parse_qs(urlsplit(to_provider(client)).query)
    assert query["response_type"] == ["code"] and query["code_challenge_method"] == ["S256"]
    assert query["state"][0] and query["nonce"][0] and query["code_challenge"][0]
    assert query["scope"] == ["openid profile groups-edu"]
    assert query["redirect_uri"] == ["http://localhost/sign-in/feide/done"]


def test_a_feide_teacher_gets_a_class_for_their_teaching_group_and_no_password(app, client, idp):
    response = sign_in(client, idp)
    assert response.status_code == 302 and response.headers["Location"] == "/teacher"
    page = client.get("/teacher").get_data(as_text=True)
    assert "6A matematikk" in page and "Welcome, Kari Nordmann." in page
    with app.app_context():
        teacher = db.session().scalars(select(Teacher)).one()
        assert teacher.email is None and teacher.password_hash is None
        link = db.session().scalars(select(SignInLink)).one()
        assert (link.provider, link.issuer, link.subject, link.teacher_id) == ("feide", idp.issuer, TEACHER.sub, 1)
        membership = db.session().scalars(select(ClassTeacher)).one()
        assert membership.role == "owner" and membership.teacher_id == teacher.id
    assert client.get("/teacher/password").status_code == 404  # no password here to change
    # the same sign-in again finds the same teacher and class
    client.post("/sign-out")
    assert sign_in(client, idp).status_code == 302
    assert count(app, Teacher) == 1 and count(app, SchoolClass) == 1 and count(app, SignInLink) == 1


def test_a_school_sign_in_is_a_sign_in_like_any_other(app, client, idp):
    sign_in(client, idp)
    assert client.get("/teacher").status_code == 200
    with app.app_context():
        assert db.session().scalars(select(SignInSession)).one().teacher_id is not None
    client.post("/sign-out")
    assert client.get("/teacher").status_code == 302
    with app.app_context():  # signing out ended the session row, as for a password
        assert count(app, SignInSession) == 0 or db.session().scalars(select(SignInSession)).one().ended_at is not None


def test_a_second_teacher_of_the_group_joins_its_class(app, client, idp):
    sign_in(client, idp)
    client.post("/sign-out")
    colleague = Person("c0ffee-colleague", "Per Hansen", "Per", TEACHER.groups)
    sign_in(client, idp, colleague)
    assert count(app, SchoolClass) == 1
    with app.app_context():
        roles = sorted(m.role for m in db.session().scalars(select(ClassTeacher)))
    assert roles == ["co", "owner"]


def test_a_feide_person_the_school_does_not_call_a_teacher_gets_no_teacher_account(app, client, idp):
    response = sign_in(client, idp, PUPIL, role="teacher")
    assert response.status_code == 403
    assert "has no teacher account here yet" in response.get_data(as_text=True)
    assert nothing_made(app)


def test_google_makes_no_teacher_unless_sign_up_is_allowed_but_links_one(app, client, idp):
    staff = Staff(app)
    stranger = Person("google-1", "Tove Lie", "Tove")
    assert sign_in(client, idp, stranger, provider="google").status_code == 403
    assert nothing_made(app)
    staff.teacher()
    staff.sign_in(client)
    assert 'action="/teacher/school-account/google"' in client.get("/teacher").get_data(as_text=True)
    started = client.post("/teacher/school-account/google")
    answer = client.get(back_from_provider(started.headers["Location"]))
    assert answer.status_code == 302 and "is linked" in client.get("/teacher").get_data(as_text=True)
    client.post("/sign-out")
    assert sign_in(client, idp, stranger, provider="google").status_code == 302
    assert "Welcome, Tove." in client.get("/teacher").get_data(as_text=True)
    assert count(app, Teacher) == 1


def test_google_makes_a_teacher_when_sign_up_is_allowed(database_url, idp):
    app = make_app(database_url, ALLOW_SIGNUP=True, **idp.settings("GOOGLE"))
    client = app.test_client()
    assert sign_in(client, idp, Person("google-2", "Tove Lie", "Tove"), provider="google").status_code == 302
    assert count(app, Teacher) == 1 and count(app, SchoolClass) == 0
    app.extensions["db_engine"].dispose()


def test_google_refuses_an_account_outside_the_schools_domain(database_url, idp):
    app = make_app(database_url, ALLOW_SIGNUP=True, GOOGLE_HOSTED_DOMAIN="school.example", **idp.settings("GOOGLE"))
    client = app.test_client()
    assert "hd=school.example" in to_provider(client, "google")
    outsider = Person("google-3", "Eve", "Eve", hd="elsewhere.example")
    response = sign_in(client, idp, outsider, provider="google")
    assert response.status_code == 403 and "does not belong to the school" in response.get_data(as_text=True)
    assert nothing_made(app)
    insider = Person("google-4", "Tove", "Tove", hd="school.example")
    assert sign_in(client, idp, insider, provider="google").status_code == 302
    app.extensions["db_engine"].dispose()


def test_microsoft_entra_signs_in_a_linked_teacher(database_url, idp):
    app = make_app(database_url, ALLOW_SIGNUP=True, **idp.settings("ENTRA"))
    client = app.test_client()
    assert "Sign in with Microsoft" in client.get("/teacher/sign-in").get_data(as_text=True)
    assert sign_in(client, idp, Person("entra-1", "Tove Lie", "Tove"), provider="entra").status_code == 302
    assert count(app, SignInLink) == 1
    app.extensions["db_engine"].dispose()


def test_the_same_subject_at_another_issuer_is_another_account(database_url, idp):
    twin = Person("same-sub", "Tove Lie", "Tove")
    with serving_provider() as other:
        app = make_app(database_url, ALLOW_SIGNUP=True, **idp.settings("FEIDE"), **other.settings("GOOGLE"))
        client = app.test_client()
        assert sign_in(client, idp, twin, "feide").status_code == 302
        client.post("/sign-out")
        assert sign_in(client, other, twin, "google").status_code == 302
        with app.app_context():
            links = db.session().scalars(select(SignInLink)).all()
            assert {link.issuer for link in links} == {idp.issuer, other.issuer}
            assert len({link.teacher_id for link in links}) == 2
        app.extensions["db_engine"].dispose()


def test_a_switched_off_teacher_is_refused(app, client, idp):
    sign_in(client, idp)
    client.post("/sign-out")
    with app.app_context():
        db.session().scalars(select(Teacher)).one().disabled = True
        db.session().commit()
    response = sign_in(client, idp)
    assert response.status_code == 403 and "switched off" in response.get_data(as_text=True)


# --- pupils -----------------------------------------------------------------------------------
def test_a_feide_pupil_is_placed_in_their_groups_class_by_first_name_only(app, client, idp):
    sign_in(client, idp)
    client.post("/sign-out")
    response = sign_in(client, idp, PUPIL, role="pupil")
    assert response.status_code == 302 and response.headers["Location"] == "/"
    assert "Hello, Ola!" in client.get("/").get_data(as_text=True)
    with app.app_context():
        pupil = db.session().scalars(select(Pupil)).one()
        assert pupil.name == "Ola" and pupil.school_class.name == "6A matematikk" and not pupil.is_guest
        names = " ".join(str(v) for row in db.session().execute(select(Pupil.__table__)).all() for v in row)
        assert "Nordmann" not in names
    client.post("/sign-out")
    sign_in(client, idp, PUPIL, role="pupil")
    assert count(app, Pupil) == 1


def test_a_pupil_whose_group_has_no_class_here_is_refused_and_nothing_is_made(app, client, idp):
    response = sign_in(client, idp, PUPIL, role="pupil")
    assert response.status_code == 403
    assert "is not in a class here yet" in response.get_data(as_text=True)
    assert nothing_made(app)


def test_a_teacher_links_a_pupils_google_account_and_only_that_account_signs_the_pupil_in(app, client, idp):
    staff = Staff(app)
    staff.teacher()
    school_class = staff.school_class(pupils=("Ada", "Ola"))
    ada = staff.pupil(school_class.code, "Ada")
    staff.sign_in(client)
    page = client.get(f"/teacher/pupils/{ada.public_id}").get_data(as_text=True)
    assert f'action="/teacher/pupils/{ada.public_id}/school-account/google"' in page
    started = client.post(f"/teacher/pupils/{ada.public_id}/school-account/google")
    assert "prompt=login" in started.headers["Location"]  # the pupil signs in afresh, not the teacher's account
    idp.next_person = Person("google-ada", "Ada Lovelace", "Ada")
    done = client.get(back_from_provider(started.headers["Location"]))
    assert done.status_code == 302 and done.headers["Location"] == f"/teacher/pupils/{ada.public_id}"
    client.post("/sign-out")
    pupil_browser = client.application.test_client()
    assert (
        sign_in(pupil_browser, idp, Person("google-ada", "Ada Lovelace", "Ada"), "google", "pupil").status_code == 302
    )
    assert "Hello, Ada!" in pupil_browser.get("/").get_data(as_text=True)
    # another account with the same name is not Ada
    other = app.test_client()
    response = sign_in(other, idp, Person("google-other", "Ada Lovelace", "Ada"), "google", "pupil")
    assert response.status_code == 403


def test_a_teacher_cannot_link_another_teachers_pupil(app, client, idp):
    staff = Staff(app)
    staff.teacher()
    staff.teacher("bo@school.example", "Bo")
    theirs = staff.pupil(staff.school_class("bo@school.example", pupils=("Bea",)).code, "Bea")
    staff.sign_in(client)
    assert client.post(f"/teacher/pupils/{theirs.public_id}/school-account/google").status_code == 404
    assert count(app, SignInLink) == 0


def test_an_account_that_signs_in_a_teacher_is_not_linked_to_a_pupil(app, client, idp):
    staff = Staff(app)
    staff.teacher()
    school_class = staff.school_class(pupils=("Ada",))
    ada = staff.pupil(school_class.code, "Ada")
    staff.sign_in(client)
    client.get(back_from_provider(client.post("/teacher/school-account/google").headers["Location"]))
    idp.next_person = TEACHER  # the same account again, now for the pupil
    started = client.post(f"/teacher/pupils/{ada.public_id}/school-account/google")
    response = client.get(back_from_provider(started.headers["Location"]))
    assert response.status_code == 409 and count(app, SignInLink) == 1


# --- refusals ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("twist", "status", "words"),
    [
        ({"iss": "https://evil.example"}, 403, "could not be checked"),
        ({"aud": "another-client"}, 403, "could not be checked"),
        ({"expired": True}, 403, "has expired"),
        ({"error": "access_denied"}, 400, "cancelled or the provider refused it"),
    ],
)
def test_a_refused_answer_shows_why_and_makes_nothing(app, client, idp, twist, status, words):
    idp.twist = twist
    response = sign_in(client, idp)
    assert response.status_code == status
    assert words in response.get_data(as_text=True)
    assert nothing_made(app)
    assert client.get("/teacher").status_code == 302


def test_an_answer_used_twice_or_in_another_browser_is_refused(app, client, idp):
    back = back_from_provider(to_provider(client))
    other = app.test_client()
    response = other.get(back)
    assert response.status_code == 400 and "did not start in this browser" in response.get_data(as_text=True)
    assert client.get(back).status_code == 302
    client.post("/sign-out")
    assert client.get(back).status_code == 400
    assert count(app, Teacher) == 1


def test_the_refusal_is_in_the_readers_language(app, client, idp):
    client.post("/language", data={"locale": "nb"})
    idp.twist = {"expired": True}
    page = sign_in(client, idp).get_data(as_text=True)
    assert "Innlogginga virka ikkje" not in page  # Bokmål, not Nynorsk
    assert "Innloggingen virket ikke" in page and "has expired" not in page


def test_an_unreachable_provider_is_refused_politely(database_url):
    app = make_app(
        database_url,
        FEIDE_CLIENT_ID="x",
        FEIDE_CLIENT_SECRET="y",
        FEIDE_METADATA_URL="http://127.0.0.1:9/.well-known/openid-configuration",
    )
    response = app.test_client().post("/sign-in/feide", data={"as": "teacher"})
    assert response.status_code == 502 and "could not be reached" in response.get_data(as_text=True)
    app.extensions["db_engine"].dispose()


# --- which buttons ----------------------------------------------------------------------------
def test_only_configured_providers_have_buttons(database_url, idp):
    app = make_app(database_url, **idp.settings("FEIDE"))
    client = app.test_client()
    for page in ("/teacher/sign-in", "/"):
        text = client.get(page).get_data(as_text=True)
        assert "Sign in with Feide" in text and "Google" not in text and "Microsoft" not in text
    assert client.post("/sign-in/google", data={"as": "teacher"}).status_code == 404
    app.extensions["db_engine"].dispose()
    bare = make_app(database_url)
    assert "Sign in with" not in bare.test_client().get("/teacher/sign-in").get_data(as_text=True)
    assert bare.test_client().post("/sign-in/feide").status_code == 404
    bare.extensions["db_engine"].dispose()
