"""A teacher's own account by e-mail in a real Chromium, in English and Norwegian: the teacher gives the address on
the sign-up page, opens the e-mailed link (caught by the fake SMTP server), chooses name and password and is signed
in. axe-core checks each page."""

from __future__ import annotations

import re

import pytest
from babel.support import Translations

from tests.browser_support import Visit, serving_with_mail, the_mail_to
from tutor import ROOT

pytestmark = pytest.mark.browser

PASSWORD = "seven green apples on the table"
LANGUAGES = [("en", "English"), ("nb", "Norsk bokmål")]


@pytest.fixture(scope="module")
def signup_server(tmp_path_factory):
    """A live server with sign-up on and mail configured; its e-mails go to FakeSMTP, its links lead back to it."""
    with serving_with_mail(tmp_path_factory, ALLOW_SIGNUP=True) as base:
        yield base


def go(visit: Visit, locator) -> None:
    with visit.page.expect_navigation():
        locator.click()
    visit.page.wait_for_load_state("networkidle")


@pytest.mark.parametrize("locale,language", LANGUAGES)
def test_a_teacher_makes_an_account_by_the_e_mailed_link(browser, signup_server, locale, language):
    email = f"sara-{locale}@school.example"
    words = Translations.load(str(ROOT / "translations"), [locale])
    visit = Visit(browser, signup_server)
    page = visit.page
    page.goto(signup_server + "/teacher/sign-in")
    go(visit, page.get_by_role("button", name=language))
    go(visit, page.locator("main a[href$='/teacher/sign-up']"))
    assert page.locator("html").get_attribute("lang") == locale
    assert page.locator("#password").count() == 0
    visit.axe(f"the sign-up page that asks for the address ({locale})")
    page.locator("#email").fill(email)
    go(visit, page.locator("form.panel button[type=submit]"))
    sent = "We have sent a message to that address. Open the link in it within an hour to finish."
    assert page.locator("#sign-up-sent").text_content() == words.gettext(sent)
    visit.axe(f"the answer that a link is on its way ({locale})")

    message = the_mail_to(email)
    assert message["Subject"] == words.gettext("Finish your Kortmatte account")
    link = re.search(re.escape(signup_server) + r"/teacher/sign-up/\S+", message.get_content()).group(0)
    page.goto(link)
    visit.axe(f"the page that finishes the account ({locale})")
    page.locator("#name").fill("Sara")
    page.locator("#password").fill(PASSWORD)
    page.locator("#password_again").fill(PASSWORD)
    go(visit, page.locator("form.panel button.primary"))
    assert page.url.endswith("/teacher"), page.url
    assert words.gettext("Welcome, %(name)s. Start by creating a class.") % {"name": "Sara"} in page.content()
    assert not visit.problems, visit.problems  # (the used link below answers 400 on purpose)
    assert page.goto(link).status == 400
    assert page.locator("#link-used").is_visible()
    visit.close()
