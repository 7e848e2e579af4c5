"""A fake SMTP server and an app with mail configured, for the pages that send e-mail (reset, sign-up)."""

from __future__ import annotations

import re
import time

import pytest

from tutor import mail
from tutor.app import create_app

MAIL_SETTINGS = {
    "MAIL_SERVER": "smtp.school.example",
    "MAIL_PORT": 2525,
    "MAIL_FROM": "kortmatte@school.example",
    "MAIL_USERNAME": "kortmatte",
    "MAIL_PASSWORD": "mail secret",
    "SITE_URL": "https://kortmatte.school.example",
}


class FakeSMTP:
    """Stands in for smtplib.SMTP: records what a real server would have been told."""

    sent: list = []
    calls: list = []

    def __init__(self, host, port, timeout):
        FakeSMTP.calls.append(("connect", host, port))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def starttls(self, context):
        FakeSMTP.calls.append(("starttls",))

    def login(self, user, password):
        FakeSMTP.calls.append(("login", user, password))

    def send_message(self, message):
        FakeSMTP.sent.append(message)


@pytest.fixture
def mailbox(monkeypatch):
    FakeSMTP.sent, FakeSMTP.calls = [], []
    monkeypatch.setattr(mail.smtplib, "SMTP", FakeSMTP)
    return FakeSMTP


@pytest.fixture
def mail_app(database_url):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": database_url,
            "SECRET_KEY": "test-secret",
            "WTF_CSRF_ENABLED": False,
            **MAIL_SETTINGS,
        }
    )
    yield app
    app.extensions["db_engine"].dispose()


def wait_for_mail(mailbox, count: int = 1):
    """The e-mail is sent from a thread after the page answered."""
    deadline = time.monotonic() + 5
    while len(mailbox.sent) < count and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(mailbox.sent) == count
    return mailbox.sent[-1]


def without_csrf_token(response) -> str:
    """The page without its CSRF token (signed with a time stamp, so it changes with the second)."""
    return re.sub(r'"[\w-]+\.[\w-]+\.[\w-]+"', '"token"', response.get_data(as_text=True))
