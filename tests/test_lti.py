"""LTI 1.3 launches from a fake platform: its own RSA keys and key set, id_tokens signed with PyJWT.

The platform's key set is served by patching pylti1p3's key-set fetch; everything else (the
login's redirect, the state cookie, the nonce row, the signature, expiry, audience and
deployment checks) runs as in production, through the Flask test client.
"""

from __future__ import annotations

import json
import time
import uuid
from urllib.parse import parse_qs, urlsplit

import jwt
import pytest
from jwcrypto.jwk import JWK
from pylti1p3.message_launch import MessageLaunch
from sqlalchemy import func, select

from tutor.app import create_app
from tutor.cli import main
from tutor.lti import platforms
from tutor.models import (
    ClassTeacher,
    LtiClassLink,
    LtiNonce,
    LtiPlatform,
    LtiPupilLink,
    LtiTeacherLink,
    LtiToolKey,
    Pupil,
    SchoolClass,
    Teacher,
)
from tutor.web import db

ISSUER = "https://platform.example"
CLIENT_ID = "kortmatte-client"
DEPLOYMENT = "deployment-1"
KEYSET_URL = f"{ISSUER}/jwks"
LOGIN_URL = f"{ISSUER}/auth"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
DEPLOYMENT_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/deployment_id"
ROWS = (Teacher, SchoolClass, ClassTeacher, Pupil, LtiTeacherLink, LtiClassLink, LtiPupilLink)


class FakePlatform:
    """A learning platform: an RSA key pair with its key set, and the id_tokens it signs after a login."""

    def __init__(self, issuer=ISSUER, kid="platform-key-1"):
        self.issuer, self.kid = issuer, kid
        self.key = JWK.generate(kty="RSA", size=2048, kid=kid)

    def key_set(self) -> dict:
        public = json.loads(self.key.export_public())
        return {"keys": [public | {"alg": "RS256", "use": "sig"}]}

    def id_token(self, nonce: str, roles, sub: str, key: JWK | None = None, **overrides) -> str:
        now = int(time.time())
        claims = {
            "iss": self.issuer,
            "aud": CLIENT_ID,
            "sub": sub,
            "iat": now,
            "exp": now + 300,
            "nonce": nonce,
            "given_name": "Emma",
            "family_name": "Nordmann",
            "name": "Emma Nordmann",
            "email": "emma.nordmann@school.example",
            "https://purl.imsglobal.org/spec/lti/claim/message_type": "LtiResourceLinkRequest",
            "https://purl.imsglobal.org/spec/lti/claim/version": "1.3.0",
            DEPLOYMENT_CLAIM: DEPLOYMENT,
            "https://purl.imsglobal.org/spec/lti/claim/target_link_uri": "http://localhost/lti/launch",
            "https://purl.imsglobal.org/spec/lti/claim/resource_link": {"id": "link-1"},
            "https://purl.imsglobal.org/spec/lti/claim/roles": list(roles),
            "https://purl.imsglobal.org/spec/lti/claim/context": {"id": "course-42", "title": "Maths 5B"},
            "https://purl.imsglobal.org/spec/lti/claim/launch_presentation": {"locale": "nb-NO"},
        }
        claims.update(overrides)
        claims = {name: value for name, value in claims.items() if value is not None}
        signing = (key or self.key).export_to_pem(private_key=True, password=None)
        return jwt.encode(claims, signing, algorithm="RS256", headers={"kid": self.kid})


@pytest.fixture
def platform(monkeypatch):
    fake = FakePlatform()
    real_fetch = MessageLaunch.fetch_public_key

    def fetch(launch, url):
        return fake.key_set() if url == KEYSET_URL else real_fetch(launch, url)

    monkeypatch.setattr(MessageLaunch, "fetch_public_key", fetch)
    return fake


@pytest.fixture
def lti_app(database_url):
    """The app with CSRF protection on, as in production: the platform's posts must pass without a form token."""
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "test-secret"})
    with app.app_context():
        platforms.add_platform(db.session(), ISSUER, CLIENT_ID, [DEPLOYMENT], LOGIN_URL, f"{ISSUER}/token", KEYSET_URL)
        db.session().commit()
    yield app
    app.extensions["db_engine"].dispose()


def counts(app) -> dict:
    with app.app_context():
        return {model.__name__: db.session().scalar(select(func.count()).select_from(model)) for model in ROWS}


def login(client, issuer=ISSUER, client_id=CLIENT_ID, **headers):
    """The platform's login initiation; returns the response and the state and nonce it sent on."""
    query = {"iss": issuer, "login_hint": "hint", "target_link_uri": "http://localhost/lti/launch"}
    if client_id:
        query["client_id"] = client_id
    response = client.get("/lti/login", query_string=query, headers=headers)
    if response.status_code != 302:
        return response, None, None
    sent = parse_qs(urlsplit(response.location).query)
    return response, sent["state"][0], sent["nonce"][0]


def launch(client, platform, roles=(INSTRUCTOR,), sub="teacher-sub-1", **overrides):
    """A whole launch: login, the platform's sign-in (the signed id_token), the post to /lti/launch."""
    _, state, nonce = login(client)
    token = platform.id_token(nonce, roles, sub, **overrides)
    return client.post("/lti/launch", data={"id_token": token, "state": state})


def test_the_login_sends_the_browser_to_the_platform_with_state_and_a_stored_nonce(lti_app, platform):
    client = lti_app.test_client()
    response, state, nonce = login(client)
    sent = parse_qs(urlsplit(response.location).query)
    assert response.location.startswith(LOGIN_URL + "?")
    assert sent["client_id"] == [CLIENT_ID] and sent["redirect_uri"] == ["http://localhost/lti/launch"]
    assert sent["response_mode"] == ["form_post"] and sent["prompt"] == ["none"] and sent["login_hint"] == ["hint"]
    assert client.get_cookie(f"lti1p3-{state}").value == state
    with lti_app.app_context():
        assert db.session().scalar(select(func.count()).select_from(LtiNonce)) == 1
    assert client.post(
        "/lti/login", data={"iss": ISSUER, "login_hint": "h", "client_id": CLIENT_ID}
    ).location.startswith(LOGIN_URL)


def test_an_instructor_launch_makes_the_teacher_and_class_once_and_lands_on_the_class(lti_app, platform):
    client = lti_app.test_client()
    response = launch(client, platform)
    assert response.status_code == 302
    with lti_app.app_context():
        database = db.session()
        school_class = database.scalar(select(SchoolClass))
        teacher = database.scalar(select(Teacher))
        assert response.location == f"/teacher/classes/{school_class.public_id}"
        assert school_class.name == "Maths 5B" and school_class.locale == "nb"
        assert teacher.email is None and teacher.password_hash is None and teacher.name == "Emma Nordmann"
        assert [m.teacher_id for m in school_class.memberships] == [teacher.id]
    assert client.get(response.location).status_code == 200
    before = counts(lti_app)
    again = launch(lti_app.test_client(), platform)
    assert again.location == response.location and counts(lti_app) == before
    with lti_app.app_context():
        assert db.session().scalar(select(func.count()).select_from(LtiNonce)) == 0  # each nonce was taken


def test_a_second_instructor_of_the_course_teaches_the_same_class(lti_app, platform):
    first = launch(lti_app.test_client(), platform)
    second = launch(lti_app.test_client(), platform, sub="teacher-sub-2", name="Ola Lærer")
    assert second.location == first.location
    with lti_app.app_context():
        roles = db.session().execute(select(ClassTeacher.role)).scalars().all()
    assert sorted(roles) == ["co", "owner"]


def test_a_learner_launch_makes_the_pupil_once_with_the_first_name_only(lti_app, platform):
    launch(lti_app.test_client(), platform)
    client = lti_app.test_client()
    response = launch(client, platform, roles=[LEARNER], sub="pupil-sub-1")
    assert response.status_code == 302 and response.location == "/"
    page = client.get("/").get_data(as_text=True)
    assert "Emma" in page and "Nordmann" not in page
    with lti_app.app_context():
        database = db.session()
        pupil = database.scalar(select(Pupil))
        school_class = database.scalar(select(SchoolClass))
        assert pupil.name == "Emma" and pupil.class_id == school_class.id and not pupil.is_guest
        assert pupil.locale == "nb"
        stored = json.dumps([[str(v) for v in row] for row in database.execute(select(Pupil.__table__)).all()])
        assert "Nordmann" not in stored and "@" not in stored
    before = counts(lti_app)
    assert launch(lti_app.test_client(), platform, roles=[LEARNER], sub="pupil-sub-1").location == "/"
    assert counts(lti_app) == before


def test_learners_are_linked_by_subject_never_by_name(lti_app, platform):
    launch(lti_app.test_client(), platform)
    launch(lti_app.test_client(), platform, roles=[LEARNER], sub="pupil-a")
    launch(lti_app.test_client(), platform, roles=[LEARNER], sub="pupil-b")  # another Emma
    launch(lti_app.test_client(), platform, roles=[LEARNER], sub="pupil-a", given_name="Emmy", name="Emmy N")
    with lti_app.app_context():
        links = db.session().execute(select(LtiPupilLink.subject, Pupil.name).join(Pupil)).all()
    assert sorted(links) == [("pupil-a", "Emma"), ("pupil-b", "Emma 2")]


def test_a_learner_before_the_teacher_is_refused_and_nothing_is_made(lti_app, platform):
    before = counts(lti_app)
    response = launch(lti_app.test_client(), platform, roles=[LEARNER], sub="pupil-1")
    assert response.status_code == 403 and "has not opened Kortmatte" in response.get_data(as_text=True)
    assert counts(lti_app) == before


def replayed(client, platform):
    _, state, nonce = login(client)
    data = {"id_token": platform.id_token(nonce, [INSTRUCTOR], "teacher-sub-1"), "state": state}
    assert client.post("/lti/launch", data=data).status_code == 302
    thief = client.application.test_client()  # the token and the state cookie, sent again from another browser
    thief.set_cookie(f"lti1p3-{state}", state)
    return thief.post("/lti/launch", data=data)


def other_key(client, platform):
    _, state, nonce = login(client)
    forged = JWK.generate(kty="RSA", size=2048)
    token = platform.id_token(nonce, [INSTRUCTOR], "teacher-sub-1", key=forged)
    return client.post("/lti/launch", data={"id_token": token, "state": state})


def no_state_cookie(client, platform):
    _, state, nonce = login(client)
    client.delete_cookie(f"lti1p3-{state}")
    token = platform.id_token(nonce, [INSTRUCTOR], "teacher-sub-1")
    return client.post("/lti/launch", data={"id_token": token, "state": state})


def unknown_nonce(client, platform):
    _, state, _ = login(client)
    token = platform.id_token(uuid.uuid4().hex, [INSTRUCTOR], "teacher-sub-1")
    return client.post("/lti/launch", data={"id_token": token, "state": state})


def launch_with(**overrides):
    return lambda client, platform: launch(client, platform, **overrides)


REFUSALS = {
    "bad signature": (other_key, 403, "could not be checked against your learning platform"),
    "replayed nonce": (replayed, 403, "was used already"),
    "unknown nonce": (unknown_nonce, 403, "was used already"),
    "expired token": (launch_with(exp=int(time.time()) - 60, iat=int(time.time()) - 400), 403, "has expired"),
    "no expiry": (launch_with(exp=None), 403, "could not be checked"),
    "unknown issuer": (launch_with(iss="https://elsewhere.example"), 403, "not registered with Kortmatte"),
    "wrong audience": (launch_with(aud="another-tool"), 403, "meant for another tool"),
    "unknown deployment": (launch_with(**{DEPLOYMENT_CLAIM: "deployment-9"}), 403, "deployment ID"),
    "no state cookie": (no_state_cookie, 400, "did not come from the sign-in"),
    "deep linking by a learner": (
        launch_with(
            roles=[LEARNER],
            **{
                "https://purl.imsglobal.org/spec/lti/claim/message_type": "LtiDeepLinkingRequest",
                "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings": {
                    "deep_link_return_url": f"{ISSUER}/deep-links",
                    "accept_types": ["ltiResourceLink"],
                    "accept_presentation_document_targets": ["window"],
                },
            },
        ),
        403,
        "Only the course's teachers can choose lessons",
    ),
    "another message": (
        launch_with(
            **{
                "https://purl.imsglobal.org/spec/lti/claim/message_type": "LtiSubmissionReviewRequest",
                "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": {"lineitem": f"{ISSUER}/lineitems/1"},
                "https://purl.imsglobal.org/spec/lti/claim/for_user": {"user_id": "pupil-1"},
            }
        ),
        400,
        "or to choose a lesson",
    ),
    "no course": (launch_with(**{"https://purl.imsglobal.org/spec/lti/claim/context": None}), 400, "from a course"),
    "no role": (launch_with(roles=["http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor"]), 403, "only for"),
}


@pytest.mark.parametrize("case", list(REFUSALS))
def test_every_refused_launch_says_why_in_a_page_and_creates_nothing(lti_app, platform, case):
    attempt, status, words = REFUSALS[case]
    client = lti_app.test_client()
    before = counts(lti_app) if case != "replayed nonce" else None
    response = attempt(client, platform)
    page = response.get_data(as_text=True)
    assert response.status_code == status and words in page
    assert "Kortmatte could not be opened" in page
    if before is not None:
        assert counts(lti_app) == before
    else:  # the first launch made the teacher and class; the replay made nothing more and signed no one in again
        assert counts(lti_app)["SchoolClass"] == 1 and counts(lti_app)["Teacher"] == 1


def test_a_refusal_page_is_in_the_readers_language(lti_app, platform):
    client = lti_app.test_client()
    response = client.get(
        "/lti/login",
        query_string={"iss": "https://elsewhere.example", "login_hint": "h"},
        headers={"Accept-Language": "nb"},
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 403 and "not registered with Kortmatte" not in page
    assert "Kortmatte" in page and 'lang="nb"' in page


def test_a_login_from_an_unknown_platform_is_refused_and_stores_no_nonce(lti_app, platform):
    response, _, _ = login(lti_app.test_client(), issuer="https://elsewhere.example")
    assert response.status_code == 403 and "not registered with Kortmatte" in response.get_data(as_text=True)
    with lti_app.app_context():
        assert db.session().scalar(select(func.count()).select_from(LtiNonce)) == 0


def test_a_login_without_client_id_finds_the_issuers_only_platform(lti_app, platform):
    response, state, _ = login(lti_app.test_client(), client_id=None)
    assert response.status_code == 302 and state


def test_a_login_inside_a_frame_offers_a_new_window_and_only_that_page_may_be_framed(lti_app, platform):
    client = lti_app.test_client()
    response, _, _ = login(client, **{"Sec-Fetch-Dest": "iframe"})
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and 'target="_blank"' in page and "lti1p3_new_window=1" in page
    assert response.headers["Content-Security-Policy"].endswith(f"frame-ancestors https: {ISSUER}")
    assert "X-Frame-Options" not in response.headers
    opened, state, _ = login(client, **{"Sec-Fetch-Dest": "document"})
    assert opened.status_code == 302 and state
    assert lti_app.test_client().get("/").headers["X-Frame-Options"] == "DENY"


def test_the_key_set_publishes_every_kept_key_of_the_tool(lti_app):
    client = lti_app.test_client()
    with lti_app.app_context():
        first = db.session().scalar(select(LtiToolKey.kid))
    assert [k["kid"] for k in client.get("/lti/jwks").get_json()["keys"]] == [first]
    with lti_app.app_context():
        newest = platforms.rotate_key(db.session(), ISSUER).kid
        db.session().commit()
    keys = client.get("/lti/jwks").get_json()["keys"]
    assert [k["kid"] for k in keys] == [first, newest]
    assert all(k["kty"] == "RSA" and k["alg"] == "RS256" and "d" not in k for k in keys)
    with lti_app.app_context():
        assert platforms.remove_old_keys(db.session(), ISSUER) == [first]
        db.session().commit()
    assert [k["kid"] for k in client.get("/lti/jwks").get_json()["keys"]] == [newest]


def test_removing_a_platform_unlinks_its_people_and_keeps_them(lti_app, platform):
    launch(lti_app.test_client(), platform)
    launch(lti_app.test_client(), platform, roles=[LEARNER], sub="pupil-1")
    with lti_app.app_context():
        platforms.remove_platform(db.session(), ISSUER)
        db.session().commit()
    after = counts(lti_app)
    assert after["Teacher"] == 1 and after["SchoolClass"] == 1 and after["Pupil"] == 1
    assert after["LtiTeacherLink"] == after["LtiClassLink"] == after["LtiPupilLink"] == 0


def test_a_platform_reaches_only_its_own_classes(lti_app, platform, monkeypatch):
    """Another registration with the same issuer (Canvas's shared cloud issuer) and the same course id."""
    launch(lti_app.test_client(), platform)
    with lti_app.app_context():
        platforms.add_platform(
            db.session(), ISSUER, "other-client", [DEPLOYMENT], LOGIN_URL, f"{ISSUER}/token", KEYSET_URL
        )
        db.session().commit()
    client = lti_app.test_client()
    _, state, nonce = login(client, client_id="other-client")
    token = platform.id_token(nonce, [LEARNER], "pupil-1", aud="other-client")
    response = client.post("/lti/launch", data={"id_token": token, "state": state})
    assert response.status_code == 403 and "has not opened Kortmatte" in response.get_data(as_text=True)


# --- kortmatte lti ------------------------------------------------------------------------------
@pytest.fixture
def cli_database(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("SECRET_KEY", "cli-test")
    return url


def test_the_lti_commands_add_list_rotate_and_remove_a_platform(capsys, cli_database):
    add = [
        "lti",
        "add-platform",
        "--issuer",
        ISSUER,
        "--client-id",
        CLIENT_ID,
        "--deployment-id",
        "d1",
        "--deployment-id",
        "d2",
        "--login-url",
        LOGIN_URL,
        "--token-url",
        f"{ISSUER}/token",
        "--keyset-url",
        KEYSET_URL,
    ]
    assert main(add) == 0
    assert main(add) == 2 and "registered already" in capsys.readouterr().err
    assert main(["lti", "rotate-key", "--issuer", ISSUER]) == 0
    capsys.readouterr()
    assert main(["lti", "list", "--json"]) == 0
    (listed,) = json.loads(capsys.readouterr().out)
    assert listed["deployment_ids"] == ["d1", "d2"] and len(listed["key_ids"]) == 2
    assert main(["lti", "rotate-key", "--issuer", ISSUER, "--remove-old"]) == 0
    assert listed["key_ids"][0] in capsys.readouterr().out
    assert main(["lti", "remove-platform", "--issuer", ISSUER]) == 0
    capsys.readouterr()
    assert main(["lti", "list"]) == 0 and capsys.readouterr().out == ""
    assert main(["lti", "rotate-key", "--issuer", ISSUER]) == 2


def test_add_platform_refuses_plain_http_addresses_and_stores_nothing(capsys, cli_database):
    code = main(
        [
            "lti",
            "add-platform",
            "--issuer",
            ISSUER,
            "--client-id",
            "c",
            "--deployment-id",
            "d",
            "--login-url",
            "http://platform.example/auth",
            "--token-url",
            f"{ISSUER}/token",
            "--keyset-url",
            KEYSET_URL,
        ]
    )
    assert code == 2 and "https://" in capsys.readouterr().err
    from sqlalchemy.orm import Session

    from tutor import db as core_db

    engine = core_db.make_engine(cli_database)
    with Session(engine) as session:
        assert session.scalar(select(func.count()).select_from(LtiPlatform)) == 0
    engine.dispose()


def test_a_teacher_switched_off_here_cannot_enter_through_a_platform(lti_app, platform):
    launch(lti_app.test_client(), platform)
    with lti_app.app_context():
        db.session().scalar(select(Teacher)).disabled = True
        db.session().commit()
    response = launch(lti_app.test_client(), platform)
    assert response.status_code == 403 and "switched off" in response.get_data(as_text=True)


def test_a_teacher_from_a_platform_has_no_password_or_second_factor_pages(lti_app, platform):
    client = lti_app.test_client()
    launch(client, platform)
    assert 'href="/teacher/password"' not in client.get("/teacher").get_data(as_text=True)
    assert client.get("/teacher/password").status_code == 404
    assert client.get("/teacher/second-factor").status_code == 404
