"""Device cookies: a teacher's own browser is limited on its own, so a stranger at the school's address cannot lock a
colleague out; a forged, foreign, too old or pre-password-change cookie gives no exemption."""

from __future__ import annotations

import time

import pytest
from itsdangerous import URLSafeTimedSerializer
from itsdangerous.timed import TimestampSigner
from sqlalchemy import select

from tests.conftest import PASSWORD
from tests.test_second_factor import code_at, turn_on
from tutor import accounts, admin
from tutor.models import Teacher
from tutor.web import db, teacher_device

SCHOOL = {"REMOTE_ADDR": "203.0.113.7"}
PER = "per@school.example"


def sign_in(client, password=PASSWORD, email=PER) -> int:
    return client.post("/teacher/sign-in", data={"email": email, "password": password}, environ_base=SCHOOL).status_code


def device_cookie(client) -> str | None:
    cookie = client.get_cookie(teacher_device.COOKIE)
    return cookie.value if cookie else None


def with_cookie(app, value: str):
    """A fresh browser that brings ``value`` as its device cookie."""
    client = app.test_client()
    client.set_cookie(teacher_device.COOKIE, value)
    return client


def stranger_locks_per_out(app) -> None:
    """More wrong passwords at Per's account from the school's address than the account and address allow."""
    stranger = app.test_client()
    for _ in range(accounts.ACCOUNT.allowed + 3):
        sign_in(stranger, "not the password")
    assert sign_in(app.test_client()) == 429  # a browser Per never signed in on waits, even with the right password


@pytest.fixture
def per(app, staff):
    staff.teacher(email=PER, name="Per")
    return app


def test_a_stranger_at_the_school_address_cannot_lock_out_a_colleagues_own_browser(per):
    own_browser = per.test_client()
    assert sign_in(own_browser) == 302
    cookie = device_cookie(own_browser)
    assert cookie and own_browser.post("/sign-out").status_code == 302
    stranger_locks_per_out(per)
    assert sign_in(own_browser) == 302  # the device cookie: nobody else's failures count against it
    assert device_cookie(own_browser) != cookie  # each sign-in gives a fresh cookie


def test_the_device_cookie_names_the_account_and_a_nonce_only(per):
    own_browser = per.test_client()
    sign_in(own_browser)
    with per.app_context():
        found = URLSafeTimedSerializer("test-secret", salt="teacher-device").loads(device_cookie(own_browser))
        public_id = db.session().scalar(select(Teacher.public_id).where(Teacher.email == PER))
    assert found[0] == public_id and len(found) == 3
    assert not any(PER in part or "Per" in part for part in found)  # no e-mail address, no name
    cookie = own_browser.get_cookie(teacher_device.COOKIE)
    assert cookie.http_only and cookie.same_site == "Lax" and cookie.max_age == teacher_device.DAYS * 86_400


def test_wrong_passwords_from_a_trusted_browser_are_limited_per_device(per):
    own_browser = per.test_client()
    sign_in(own_browser)
    for _ in range(accounts.ACCOUNT.allowed):
        assert sign_in(own_browser, "a wrong password") == 400
    assert sign_in(own_browser) == 429
    assert sign_in(per.test_client()) == 302  # its failures are its own: another of Per's browsers is not held up


def test_a_forged_a_foreign_or_an_old_device_cookie_gives_no_exemption(per, staff, monkeypatch):
    staff.teacher()  # Tove, at the same school
    toves_browser, own_browser = per.test_client(), per.test_client()
    sign_in(toves_browser, email="tove@school.example")
    sign_in(own_browser)
    toves_cookie, pers_cookie = device_cookie(toves_browser), device_cookie(own_browser)
    with per.app_context():
        public_id = db.session().scalar(select(Teacher.public_id).where(Teacher.email == PER))
    forged = URLSafeTimedSerializer("not the app's secret", salt="teacher-device").dumps([public_id, "x" * 22, "y"])
    tampered = pers_cookie[:-3] + ("AAA" if not pers_cookie.endswith("AAA") else "BBB")
    with monkeypatch.context() as past:  # a cookie given more than a year ago
        past.setattr(TimestampSigner, "get_timestamp", lambda self: int(time.time()) - 366 * 86_400)
        year_old_browser = per.test_client()
        sign_in(year_old_browser)
        year_old = device_cookie(year_old_browser)
    stranger_locks_per_out(per)
    for cookie in (forged, tampered, toves_cookie, year_old, "garbage"):
        assert sign_in(with_cookie(per, cookie)) == 429, cookie
    assert sign_in(with_cookie(per, pers_cookie)) == 302
    with per.app_context():  # a new password (here the administrator's) ends every device cookie of the account
        database = db.session()
        admin.set_password(database, database.scalar(select(Teacher).where(Teacher.email == PER)), "a new password 2")
        database.commit()
    assert sign_in(with_cookie(per, pers_cookie), "a new password 2") == 429


def test_changing_the_password_gives_this_browser_a_device_cookie_under_the_new_one(per, staff):
    own_browser = per.test_client()
    sign_in(own_browser)
    old_cookie = device_cookie(own_browser)
    new = "a brand new password"
    response = own_browser.post(
        "/teacher/password",
        data={"current": PASSWORD, "password": new, "password_again": new},
        environ_base=SCHOOL,
    )
    assert response.status_code == 302 and device_cookie(own_browser) != old_cookie
    own_browser.post("/sign-out")
    stranger = per.test_client()
    for _ in range(accounts.ACCOUNT.allowed + 3):
        sign_in(stranger, "not the password")
    assert sign_in(own_browser, new) == 302
    assert sign_in(with_cookie(per, old_cookie), new) == 429


def test_with_a_second_factor_the_device_cookie_comes_with_the_code_not_the_password(app, client, staff):
    secret, _codes = turn_on(app, client, staff)  # Tove, signed in once before she turned it on
    fresh = app.test_client()
    password = fresh.post("/teacher/sign-in", data={"email": "tove@school.example", "password": PASSWORD})
    assert password.headers["Location"].endswith("/teacher/sign-in/code")
    assert not any(teacher_device.COOKIE in c for c in password.headers.getlist("Set-Cookie"))
    assert device_cookie(fresh) is None
    assert fresh.post("/teacher/sign-in/code", data={"code": code_at(secret)}).status_code == 302
    assert device_cookie(fresh)
