"""LTI 1.3 end to end against a platform from a published package (lti1p3platform, see tests/lti_platform.py).

The platform builds and signs the messages; Kortmatte's routes check them as in production.
"""

from __future__ import annotations

import time

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
    LOGIN_URL,
    TOKEN_URL,
    Platform,
)
from tutor.app import create_app
from tutor.lti import platforms
from tutor.models import LtiPupilLink, Pupil, SchoolClass, Teacher
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
