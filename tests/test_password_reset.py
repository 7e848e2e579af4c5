"""A forgotten teacher password, reset by an e-mailed link: the same answer for every address, a link that works
once for an hour, the new password checked, every sign-in ended; without mail, no link is offered."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from sqlalchemy import select

from tests.conftest import PASSWORD, Staff
from tests.mail_support import MAIL_SETTINGS, wait_for_mail, without_csrf_token
from tutor import admin, password_reset
from tutor.models import PasswordReset, Teacher, utcnow
from tutor.web import db

EMAIL = "tove@school.example"
NEW_PASSWORD = "seven green apples on the table"


def link_in(message) -> str:
    found = re.search(r"https://kortmatte\.school\.example(/teacher/new-password/\S+)", message.get_content())
    assert found
    return found.group(1)


def ask(client, email=EMAIL, **headers):
    return client.post("/teacher/forgot-password", data={"email": email}, headers=headers)


def test_without_mail_no_link_is_offered(client, staff):
    staff.teacher()
    assert "Forgot your password?" not in client.get("/teacher/sign-in").get_data(as_text=True)
    assert client.get("/teacher/forgot-password").status_code == 404


def test_the_answer_is_the_same_whatever_the_address(mail_app, mailbox):
    client = mail_app.test_client()
    Staff(mail_app).teacher()
    assert "Forgot your password?" in client.get("/teacher/sign-in").get_data(as_text=True)
    known, unknown = ask(client), ask(client, "nobody@school.example")
    assert known.status_code == unknown.status_code == 200
    assert without_csrf_token(known) == without_csrf_token(unknown)
    message = wait_for_mail(mailbox)
    time.sleep(0.1)
    assert len(mailbox.sent) == 1 and message["To"] == EMAIL and message["From"] == MAIL_SETTINGS["MAIL_FROM"]
    assert mailbox.calls[:3] == [
        ("connect", "smtp.school.example", 2525),
        ("starttls",),
        ("login", "kortmatte", "mail secret"),
    ]


def test_the_link_sets_a_new_password_once_and_ends_every_sign_in(mail_app, mailbox, sign_in_clock):
    staff = Staff(mail_app)
    staff.teacher()
    signed_in_elsewhere = mail_app.test_client()
    staff.sign_in(signed_in_elsewhere)
    assert signed_in_elsewhere.get("/teacher").status_code == 200

    client = mail_app.test_client()
    ask(client, "  Tove@School.example ")
    link = link_in(wait_for_mail(mailbox))
    with mail_app.app_context():  # only a hash is kept
        stored = db.session().scalar(select(PasswordReset.token_hash))
    assert stored and stored not in link

    assert client.get(link).status_code == 200
    common = client.post(link, data={"password": "iloveyou12345", "password_again": "iloveyou12345"})
    assert common.status_code == 400 and "most common" in common.get_data(as_text=True)
    differ = client.post(link, data={"password": NEW_PASSWORD, "password_again": NEW_PASSWORD + "!"})
    assert differ.status_code == 400
    done = client.post(link, data={"password": NEW_PASSWORD, "password_again": NEW_PASSWORD})
    assert done.status_code == 302 and done.headers["Location"].endswith("/teacher/sign-in")

    sign_in_clock.advance(mail_app.config["SESSION_CHECK_SECONDS"])  # once the other cookie's check is due
    assert signed_in_elsewhere.get("/teacher").status_code == 302  # signed out everywhere
    assert staff.sign_in(client, password=PASSWORD).status_code == 400
    assert staff.sign_in(client, password=NEW_PASSWORD).status_code == 302
    again = mail_app.test_client().post(link, data={"password": "another long password", "password_again": "x"})
    assert again.status_code == 400 and "does not work any more" in again.get_data(as_text=True)


@pytest.mark.parametrize(
    "spoil",
    [
        lambda link: link[:-3] + ("abc" if not link.endswith("abc") else "xyz"),  # the signature does not match
        lambda link: "/teacher/new-password/" + "x" * 40,
        lambda link: "/teacher/new-password/" + "y" * 5000,
    ],
)
def test_a_spoilt_link_does_not_work(mail_app, mailbox, spoil):
    Staff(mail_app).teacher()
    client = mail_app.test_client()
    ask(client)
    link = spoil(link_in(wait_for_mail(mailbox)))
    assert client.get(link).status_code in (400, 404)
    answer = client.post(link, data={"password": NEW_PASSWORD, "password_again": NEW_PASSWORD})
    assert answer.status_code in (400, 404)
    assert Staff(mail_app).sign_in(client, password=PASSWORD).status_code == 302


def test_a_link_older_than_an_hour_does_not_work(mail_app):
    Staff(mail_app).teacher()
    with mail_app.app_context():
        database = db.session()
        _teacher, token = password_reset.start(database, EMAIL, utcnow() - timedelta(minutes=61))
        database.commit()
        assert password_reset.teacher_for(database, token, utcnow()) is None
        assert password_reset.teacher_for(database, token, utcnow() - timedelta(minutes=30)) is not None


def test_a_password_changed_another_way_ends_the_open_links(mail_app):
    """A link asked for before the teacher (or the administrator) set a new password cannot undo that change."""
    Staff(mail_app).teacher()
    with mail_app.app_context():
        database = db.session()
        teacher, token = password_reset.start(database, EMAIL, utcnow())
        database.commit()
        admin.set_password(database, teacher, NEW_PASSWORD)
        database.commit()
        assert password_reset.teacher_for(database, token, utcnow()) is None
        assert database.scalar(select(PasswordReset.id)) is None


def test_a_switched_off_account_gets_no_link(mail_app, mailbox):
    Staff(mail_app).teacher()
    with mail_app.app_context():
        db.session().scalar(select(Teacher)).disabled = True
        db.session().commit()
    ask(mail_app.test_client())
    time.sleep(0.2)
    assert mailbox.sent == []


def test_links_are_limited_per_account_and_forms_per_address(mail_app, mailbox):
    Staff(mail_app).teacher()
    client = mail_app.test_client()
    for _ in range(5):
        assert ask(client).status_code == 200
    wait_for_mail(mailbox, 3)
    time.sleep(0.2)
    assert len(mailbox.sent) == 3  # the inbox is not flooded
    for _ in range(15):
        ask(client, "nobody@school.example")
    assert ask(client).status_code == 429
