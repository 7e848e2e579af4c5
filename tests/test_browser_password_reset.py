"""A forgotten teacher password in a real Chromium, in English and Norwegian: the teacher asks for a link from the
sign-in page, opens it from the e-mail (caught by the route tests' fake SMTP server), chooses a new password and
signs in with it. axe-core checks both pages of the reset."""

from __future__ import annotations

import re

import pytest
from babel.support import Translations
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from tests.browser_support import Visit, serving_with_mail, the_mail_to
from tests.test_password_reset import NEW_PASSWORD
from tutor import ROOT, accounts
from tutor.models import Teacher

pytestmark = pytest.mark.browser

PASSWORD = "a long enough password"
LANGUAGES = [("en", "English"), ("nb", "Norsk bokmål")]


@pytest.fixture(scope="module")
def mail_server(tmp_path_factory):
    """A live server with mail configured; its e-mails go to FakeSMTP, and its links lead back to it."""
    with serving_with_mail(tmp_path_factory) as base:
        yield base


def go(visit: Visit, locator) -> None:
    with visit.page.expect_navigation():
        locator.click()
    visit.page.wait_for_load_state("networkidle")


@pytest.mark.parametrize("locale,language", LANGUAGES)
def test_a_teacher_resets_a_forgotten_password_by_the_e_mailed_link(browser, mail_server, locale, language):
    email = f"tove-reset-{locale}@school.example"
    hashed = accounts.hash_password(PASSWORD)
    engine = create_engine(mail_server.database_url)
    with Session(engine) as session:
        session.add(Teacher(email=email, name="Tove", password_hash=hashed, locale=locale))
        session.commit()
    engine.dispose()
    words = Translations.load(str(ROOT / "translations"), [locale])

    visit = Visit(browser, mail_server)
    page = visit.page
    page.goto(mail_server + "/teacher/sign-in")
    go(visit, page.get_by_role("button", name=language))
    go(visit, page.locator("main a[href$='/teacher/forgot-password']"))
    assert page.locator("html").get_attribute("lang") == locale
    visit.axe(f"the page that asks for a reset link ({locale})")
    page.locator("#email").fill(email)
    go(visit, page.locator("form.panel button[type=submit]"))
    sent = "If an account has this address, we have sent it an e-mail with a link. The link works for one hour."
    assert words.gettext(sent) in page.locator(".flash").all_text_contents()
    visit.axe(f"the answer that a link is on its way ({locale})")

    message = the_mail_to(email)
    assert message["Subject"] == words.gettext("Your new Kortmatte password")  # in the teacher's language
    link = re.search(re.escape(mail_server) + r"/teacher/new-password/\S+", message.get_content()).group(0)
    page.goto(link)
    assert page.locator("#password").is_visible()
    visit.axe(f"the page that chooses a new password ({locale})")
    page.locator("#password").fill(NEW_PASSWORD)
    page.locator("#password_again").fill(NEW_PASSWORD)
    go(visit, page.locator("form.panel button.primary"))
    assert page.url.endswith("/teacher/sign-in"), page.url
    visit.axe(f"the sign-in page after the new password ({locale})")
    assert not visit.problems, visit.problems  # (a wrong password and a used link below answer 400 on purpose)

    page.locator("#email").fill(email)
    page.locator("#password").fill(PASSWORD)
    go(visit, page.locator("form.panel button[type=submit]"))
    assert page.url.endswith("/teacher/sign-in")  # the old password no longer works
    page.locator("#password").fill(NEW_PASSWORD)
    go(visit, page.locator("form.panel button[type=submit]"))
    assert page.url.endswith("/teacher"), page.url
    assert words.gettext("Welcome, %(name)s.") % {"name": "Tove"} in page.content()
    assert page.goto(link).status == 400  # the link worked once
    assert page.locator("#link-does-not-work").is_visible()
    visit.close()
