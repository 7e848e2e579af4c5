"""A teacher's own account with mail configured: the same answer for every address, an e-mail either way, and a link
that finishes the account once, within the hour; without mail, the old sign-up that signs in at once."""

from __future__ import annotations

import json
import re
import time

import itsdangerous
import pytest
from sqlalchemy import func, select

from tests.conftest import Staff
from tests.mail_support import wait_for_mail, without_csrf_token
from tutor.models import Teacher
from tutor.web import db

EMAIL = "tove@school.example"  # Staff's teacher
NEW = "sara@skola.example"
PASSWORD = "tio tecken minst"
SENT = "We have sent a message to that address. Open the link in it within an hour to finish."


@pytest.fixture
def signup_app(mail_app):
    mail_app.config["ALLOW_SIGNUP"] = True
    return mail_app


def teachers(app) -> int:
    with app.app_context():
        return db.session().scalar(select(func.count(Teacher.id)))


def ask(client, email):
    return client.post("/teacher/sign-up", data={"email": email})


def finish_link(message) -> str:
    found = re.search(r"https://kortmatte\.school\.example(/teacher/sign-up/\S+)", message.get_content())
    assert found
    return found.group(1)


def finish(client, link, name="Sara", password=PASSWORD, again=None):
    return client.post(link, data={"name": name, "password": password, "password_again": again or password})


def test_the_answer_is_the_same_for_new_and_known_addresses(signup_app, mailbox):
    Staff(signup_app).teacher()
    client = signup_app.test_client()
    page = client.get("/teacher/sign-up").get_data(as_text=True)
    assert 'name="email"' in page and 'name="password"' not in page and 'name="name"' not in page
    known = ask(client, EMAIL)
    known_mail = wait_for_mail(mailbox)
    new = ask(client, NEW)
    new_mail = wait_for_mail(mailbox, 2)
    assert known.status_code == new.status_code == 200
    assert without_csrf_token(known) == without_csrf_token(new)
    assert SENT in new.get_data(as_text=True)
    assert client.get("/teacher").status_code == 302  # nobody is signed in
    assert teachers(signup_app) == 1

    assert known_mail["To"] == EMAIL and "already has one" in known_mail.get_content()
    known_text = known_mail.get_content()
    assert "https://kortmatte.school.example/teacher/sign-in" in known_text
    assert "https://kortmatte.school.example/teacher/forgot-password" in known_text
    assert "/teacher/sign-up/" not in known_text
    assert new_mail["To"] == NEW and "within an hour" in new_mail.get_content()
    assert finish_link(new_mail)


def test_the_mails_speak_the_teachers_language(signup_app, mailbox):
    staff = Staff(signup_app)
    staff.teacher()
    with signup_app.app_context():
        db.session().scalar(select(Teacher)).locale = "nb"
        db.session().commit()
    client = signup_app.test_client()
    client.post("/language", data={"locale": "sv"})
    ask(client, EMAIL)
    known_mail = wait_for_mail(mailbox)
    assert known_mail["Subject"] == "Kortmatte-kontoen din"  # the account's language (nb), not the page's
    assert "Noen prøvde å lage en Kortmatte-konto" in known_mail.get_content()
    ask(client, NEW)
    new_mail = wait_for_mail(mailbox, 2)  # a new address: the page's language (sv)
    assert new_mail["Subject"] == "Gör klart ditt Kortmatte-konto" and "inom en timme" in new_mail.get_content()
    done = finish(client, finish_link(new_mail))
    assert done.status_code == 302
    with signup_app.app_context():
        assert db.session().scalar(select(Teacher.locale).where(Teacher.email == NEW)) == "sv"


def test_the_link_makes_the_account_once_and_signs_in(signup_app, mailbox):
    client = signup_app.test_client()
    ask(client, "  Sara@Skola.example ")
    link = finish_link(wait_for_mail(mailbox))
    page = client.get(link)
    assert page.status_code == 200 and NEW in page.get_data(as_text=True)

    common = finish(client, link, password="Password2024!")
    assert common.status_code == 400 and "most common" in common.get_data(as_text=True)
    differ = finish(client, link, again=PASSWORD + "!")
    assert differ.status_code == 400 and "not the same" in differ.get_data(as_text=True)
    short = finish(client, link, password="short")
    assert short.status_code == 400 and "password of 10" in short.get_data(as_text=True)
    nameless = finish(client, link, name="")
    assert nameless.status_code == 400 and "Please type your name" in nameless.get_data(as_text=True)
    assert 'name="password"' in nameless.get_data(as_text=True)
    assert teachers(signup_app) == 0

    done = finish(client, link)
    assert done.status_code == 302 and done.headers["Location"].endswith("/teacher")
    assert client.get("/teacher").status_code == 200
    with signup_app.app_context():
        teacher = db.session().scalar(select(Teacher))
        assert teacher.email == NEW and teacher.name == "Sara" and PASSWORD not in teacher.password_hash

    other = signup_app.test_client()
    for again in (other.get(link), finish(other, link, name="Someone else", password="another long password")):
        assert again.status_code == 400 and "This link has been used" in again.get_data(as_text=True)
    assert teachers(signup_app) == 1 and other.get("/teacher").status_code == 302


def another_address(link: str) -> str:
    """The link with another address in it and the old signature."""
    payload, rest = link.removeprefix("/teacher/sign-up/").split(".", 1)
    details = json.loads(itsdangerous.encoding.base64_decode(payload))
    details["email"] = "eve@school.example"
    forged = itsdangerous.encoding.base64_encode(json.dumps(details, separators=(",", ":"))).decode()
    return f"/teacher/sign-up/{forged}.{rest}"


@pytest.mark.parametrize(
    "spoil",
    [
        lambda link: link[:-3] + ("abc" if not link.endswith("abc") else "xyz"),  # the signature does not match
        lambda link: another_address(link),
        lambda link: "/teacher/sign-up/" + "x" * 40,
    ],
)
def test_a_tampered_link_makes_nothing(signup_app, mailbox, spoil):
    client = signup_app.test_client()
    ask(client, NEW)
    link = spoil(finish_link(wait_for_mail(mailbox)))
    assert client.get(link).status_code == 400
    answer = finish(client, link)
    assert answer.status_code == 400 and "This link does not work" in answer.get_data(as_text=True)
    assert teachers(signup_app) == 0


@pytest.mark.parametrize("minutes, works", [(59, True), (61, False)])
def test_a_link_works_for_one_hour(signup_app, mailbox, monkeypatch, minutes, works):
    client = signup_app.test_client()
    with monkeypatch.context() as clock:  # the link is made this many minutes ago
        clock.setattr(itsdangerous.TimestampSigner, "get_timestamp", lambda self: int(time.time()) - minutes * 60)
        ask(client, NEW)
    answer = finish(client, finish_link(wait_for_mail(mailbox)))
    if works:
        assert answer.status_code == 302 and teachers(signup_app) == 1
    else:
        assert answer.status_code == 400 and "This link does not work" in answer.get_data(as_text=True)
        assert teachers(signup_app) == 0


def test_one_address_gets_three_mails_an_hour(signup_app, mailbox):
    client = signup_app.test_client()
    for _ in range(5):
        assert ask(client, NEW).status_code == 200
    wait_for_mail(mailbox, 3)
    time.sleep(0.2)
    assert len(mailbox.sent) == 3


def test_sign_up_by_mail_counts_against_the_sign_up_limit(signup_app, mailbox, monkeypatch):
    from tutor import limits

    monkeypatch.setattr(limits, "SIGN_UPS", limits.Limit("sign-up", 2, 3600))
    client = signup_app.test_client()
    assert [ask(client, f"t{n}@school.example").status_code for n in range(3)] == [200, 200, 429]
    wait_for_mail(mailbox, 2)  # (so no e-mail of this test arrives in the next one's mailbox)
    assert ask(client, "not-an-address").status_code == 429


def test_a_bad_address_is_refused(signup_app, mailbox):
    answer = ask(signup_app.test_client(), "not-an-address")
    assert answer.status_code == 400 and "valid e-mail" in answer.get_data(as_text=True)
    time.sleep(0.1)
    assert mailbox.sent == []


def test_without_sign_up_the_link_does_not_work(mail_app, mailbox):
    assert mail_app.test_client().get("/teacher/sign-up").status_code == 404
    assert mail_app.test_client().get("/teacher/sign-up/anything").status_code == 404


def test_the_pages_speak_the_chosen_language(signup_app, mailbox):
    client = signup_app.test_client()
    client.post("/language", data={"locale": "nb"})
    assert "Der velger du navn og passord." in client.get("/teacher/sign-up").get_data(as_text=True)
    sent = ask(client, NEW).get_data(as_text=True)
    assert "Vi har sendt en e-post til den adressen." in sent and "We have sent" not in sent
    link = finish_link(wait_for_mail(mailbox))
    assert "Gjør ferdig" in wait_for_mail(mailbox)["Subject"]
    assert "Denne lenken virker ikke." in client.get("/teacher/sign-up/" + "x" * 40).get_data(as_text=True)
    finish(client, link)
    other = signup_app.test_client()
    other.post("/language", data={"locale": "nb"})
    assert "Denne lenken er brukt" in other.get(link).get_data(as_text=True)
