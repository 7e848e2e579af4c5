"""A teacher's optional second factor: turning it on with a first code, signing in with the app's code or a
recovery code (each once), the limit on tries, and the administrator's command that turns it off."""

from __future__ import annotations

import re
import time

import pyotp
from sqlalchemy import select

from tests.conftest import PASSWORD
from tutor import cli, limits, second_factor
from tutor.models import RecoveryCode, Teacher
from tutor.web import db

EMAIL = "tove@school.example"


def teacher_row(app) -> Teacher:
    with app.app_context():
        teacher = db.session().scalar(select(Teacher).where(Teacher.email == EMAIL))
        db.session().expunge(teacher)
        return teacher


def code_at(secret: str, offset_steps: int = 0) -> str:
    totp = pyotp.TOTP(secret)
    return totp.generate_otp(int(time.time()) // totp.interval + offset_steps)


def turn_on(app, client, staff) -> tuple[str, list[str]]:
    """Sign in, open the page, confirm with the app's code of one step ago: the secret and the recovery codes."""
    staff.teacher()
    staff.sign_in(client)
    page = client.get("/teacher/second-factor").get_data(as_text=True)
    secret = teacher_row(app).totp_secret
    assert secret and second_factor.show_secret(secret) in page
    assert "otpauth://totp/Kortmatte:tove%40school.example?secret=" + secret in page
    assert "data:image/svg+xml" in page  # the QR code, made here
    done = client.post("/teacher/second-factor", data={"action": "on", "code": code_at(secret, -1)})
    assert done.status_code == 200
    codes = re.findall(r"<code>([A-Z0-9-]{19})</code>", done.get_data(as_text=True))
    assert len(codes) == 10 and len(set(codes)) == 10
    client.post("/sign-out")
    return secret, codes


def password_step(staff, client):
    response = staff.sign_in(client)
    assert response.status_code == 302 and response.headers["Location"].endswith("/teacher/sign-in/code")
    return response


def signed_in(client) -> bool:
    return client.get("/teacher").status_code == 200


def test_a_wrong_first_code_does_not_turn_it_on(app, client, staff):
    staff.teacher()
    staff.sign_in(client)
    client.get("/teacher/second-factor")
    secret = teacher_row(app).totp_secret
    wrong = f"{(int(code_at(secret)) + 1) % 1_000_000:06d}"
    assert client.post("/teacher/second-factor", data={"action": "on", "code": wrong}).status_code == 400
    assert not teacher_row(app).totp_on
    assert teacher_row(app).totp_secret == secret  # reloading keeps the key the app already has
    client.get("/teacher/second-factor")
    assert teacher_row(app).totp_secret == secret


def test_the_recovery_codes_are_stored_hashed(app, client, staff):
    _secret, codes = turn_on(app, client, staff)
    with app.app_context():
        hashes = db.session().scalars(select(RecoveryCode.code_hash)).all()
    assert len(hashes) == 10 and not set(hashes) & set(codes)


def test_the_password_alone_no_longer_signs_in_and_the_right_code_does(app, client, staff):
    secret, _codes = turn_on(app, client, staff)
    password_step(staff, client)
    assert not signed_in(client)
    response = client.post("/teacher/sign-in/code", data={"code": code_at(secret)})
    assert response.status_code == 302 and response.headers["Location"].endswith("/teacher")
    assert signed_in(client)


def test_a_wrong_code_is_refused(app, client, staff):
    secret, _codes = turn_on(app, client, staff)
    password_step(staff, client)
    wrong = f"{(int(code_at(secret)) + 1) % 1_000_000:06d}"
    assert client.post("/teacher/sign-in/code", data={"code": wrong}).status_code == 400
    assert client.post("/teacher/sign-in/code", data={"code": code_at(secret, 5)}).status_code == 400  # too late
    assert not signed_in(client)


def test_a_code_used_once_is_refused_the_second_time(app, client, staff):
    secret, _codes = turn_on(app, client, staff)
    password_step(staff, client)
    assert client.post("/teacher/sign-in/code", data={"code": code_at(secret)}).status_code == 302
    client.post("/sign-out")
    password_step(staff, client)
    assert client.post("/teacher/sign-in/code", data={"code": code_at(secret)}).status_code == 400
    # the confirming code was one step ago: that and every earlier code stay used
    assert client.post("/teacher/sign-in/code", data={"code": code_at(secret, -1)}).status_code == 400
    assert not signed_in(client)


def test_a_recovery_code_signs_in_once_only(app, client, staff):
    _secret, codes = turn_on(app, client, staff)
    password_step(staff, client)
    typed = codes[3].lower().replace("-", " ")  # read off paper: case and separators do not matter
    assert client.post("/teacher/sign-in/code", data={"code": typed}).status_code == 302
    assert signed_in(client)
    assert "9 recovery codes left" in client.get("/teacher/second-factor").get_data(as_text=True)
    client.post("/sign-out")
    password_step(staff, client)
    assert client.post("/teacher/sign-in/code", data={"code": codes[3]}).status_code == 400
    assert client.post("/teacher/sign-in/code", data={"code": codes[4]}).status_code == 302


def test_the_code_page_needs_the_password_first(app, client, staff):
    secret, _codes = turn_on(app, client, staff)
    response = client.post("/teacher/sign-in/code", data={"code": code_at(secret)})
    assert response.status_code == 302 and response.headers["Location"].endswith("/teacher/sign-in")
    assert not signed_in(client)


def test_codes_are_limited_per_account_even_the_right_one(app, client, staff):
    secret, _codes = turn_on(app, client, staff)
    password_step(staff, client)
    wrong = f"{(int(code_at(secret)) + 1) % 1_000_000:06d}"
    for _ in range(limits.SECOND_FACTOR_TRIES.hits):
        assert client.post("/teacher/sign-in/code", data={"code": wrong}).status_code == 400
    over = client.post("/teacher/sign-in/code", data={"code": code_at(secret)})
    assert over.status_code == 429 and "Too many tries" in over.get_data(as_text=True)
    assert not signed_in(client)


def test_the_teacher_turns_it_off_with_the_password(app, client, staff):
    secret, _codes = turn_on(app, client, staff)
    password_step(staff, client)
    client.post("/teacher/sign-in/code", data={"code": code_at(secret)})
    client.post("/teacher/second-factor", data={"action": "off", "password": "not the password"})
    assert teacher_row(app).totp_on
    client.post("/teacher/second-factor", data={"action": "off", "password": PASSWORD})
    assert not teacher_row(app).totp_on and teacher_row(app).totp_secret is None
    client.post("/sign-out")
    assert staff.sign_in(client).headers["Location"].endswith("/teacher")


def test_the_administrator_turns_it_off_for_a_lost_phone(app, client, staff, monkeypatch, capsys):
    turn_on(app, client, staff)
    monkeypatch.setenv("DATABASE_URL", app.config["DATABASE_URL"])
    monkeypatch.setenv("SECRET_KEY", "cli-test")
    assert cli.main(["teacher", "disable-2fa", EMAIL]) == 0
    assert "password alone" in capsys.readouterr().out
    with app.app_context():
        assert db.session().scalar(select(RecoveryCode.id)) is None
    assert not teacher_row(app).totp_on
    assert staff.sign_in(client).headers["Location"].endswith("/teacher")
    assert cli.main(["teacher", "disable-2fa", "nobody@school.example"]) == 2
