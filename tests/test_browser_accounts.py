"""A teacher's account in a real Chromium: changing the password (a common one is refused), giving a class a new
code, and turning on the second factor and signing in with it. axe-core checks each page."""

from __future__ import annotations

import time

import pyotp
import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from tests.browser_support import Visit
from tutor import accounts, classroom
from tutor.models import SchoolClass, Teacher

pytestmark = pytest.mark.browser

PASSWORD = "a long enough password"
NEW_PASSWORD = "seven green apples on the table"


def go(visit: Visit, locator) -> None:
    with visit.page.expect_navigation():
        locator.click()
    visit.page.wait_for_load_state("networkidle")


def sign_in(visit: Visit, live_server, email: str, password: str) -> None:
    visit.page.goto(live_server + "/teacher/sign-in")
    visit.page.locator("#email").fill(email)
    visit.page.locator("#password").fill(password)
    go(visit, visit.page.locator("form.panel button[type=submit]"))


def test_a_teacher_changes_the_password_and_gives_the_class_a_new_code(browser, live_server):
    email = "tove-accounts@school.example"
    engine = create_engine(live_server.database_url)
    with Session(engine) as session:
        teacher = Teacher(email=email, name="Tove", password_hash=accounts.hash_password(PASSWORD), locale="en")
        session.add(teacher)
        school_class = classroom.create_class(session, teacher, "6A accounts", "en", "Europe/Oslo", "pictures")
        classroom.add_pupils(session, school_class, "Ada")
        session.commit()
        class_id, old_code = school_class.public_id, school_class.code
        ada = school_class.pupils[0]
        ada_url = f"/class/{old_code}/{ada.public_id}"
    engine.dispose()

    visit = Visit(browser, live_server)
    page = visit.page
    sign_in(visit, live_server, email, PASSWORD)
    go(visit, page.locator("header nav a[href$='/teacher/password']"))
    visit.axe("the password page")
    page.locator("#current").fill(PASSWORD)
    page.locator("#password").fill("iloveyou12345")
    page.locator("#password_again").fill("iloveyou12345")
    go(visit, page.locator("form.panel button.primary"))
    assert "most common" in page.content()
    page.locator("#current").fill(PASSWORD)
    page.locator("#password").fill(NEW_PASSWORD)
    page.locator("#password_again").fill(NEW_PASSWORD)
    go(visit, page.locator("form.panel button.primary"))
    assert page.url.endswith("/teacher") and "Your password is changed" in page.content()

    page.goto(f"{live_server}/teacher/classes/{class_id}/pupils")
    go(visit, page.locator("nav.tabs a[href$='/settings']"))
    visit.axe("the class settings with a new code button")
    go(visit, page.get_by_role("button", name="Give the class a new code"))
    with Session(create_engine(live_server.database_url)) as session:
        new_code = session.scalar(select(SchoolClass.code).where(SchoolClass.public_id == class_id))
    assert new_code != old_code and accounts.show_code(new_code) in page.content()
    guesser = Visit(browser, live_server)
    assert guesser.page.goto(live_server + ada_url).status == 404  # the old code no longer leads to Ada
    assert guesser.page.goto(live_server + ada_url.replace(old_code, new_code)).status == 200
    visit.close()
    guesser.close()

    again = Visit(browser, live_server)
    sign_in(again, live_server, email, NEW_PASSWORD)
    assert again.page.url.endswith("/teacher")
    again.close()


def test_a_teacher_turns_on_the_second_factor_and_signs_in_with_a_code(browser, live_server):
    email = "tove-two-step@school.example"
    engine = create_engine(live_server.database_url)
    with Session(engine) as session:
        session.add(Teacher(email=email, name="Tove", password_hash=accounts.hash_password(PASSWORD), locale="en"))
        session.commit()

    def app_code(steps_from_now: int = 0) -> str:
        """What the teacher's authenticator app shows (the key is read from the database, as the app scanned it)."""
        with Session(engine) as session:
            secret = session.scalar(select(Teacher.totp_secret).where(Teacher.email == email))
        totp = pyotp.TOTP(secret)
        return totp.generate_otp(int(time.time()) // totp.interval + steps_from_now)

    visit = Visit(browser, live_server)
    page = visit.page
    sign_in(visit, live_server, email, PASSWORD)
    go(visit, page.locator("header nav a[href$='/teacher/password']"))
    go(visit, page.get_by_role("link", name="Sign in with a code from an app"))
    visit.axe("the page that turns the second factor on")
    assert page.locator("img[src^='data:image/svg+xml']").count() == 1  # the QR code is made here, not fetched
    assert page.locator("#setup-address").text_content().startswith("otpauth://totp/")
    page.locator("#code").fill(app_code(-1))
    go(visit, page.get_by_role("button", name="Turn it on"))
    visit.axe("the recovery codes")
    codes = page.locator("#recovery-codes code").all_text_contents()
    assert len(codes) == 10
    go(visit, page.get_by_role("button", name="Sign out (Tove)"))

    sign_in(visit, live_server, email, PASSWORD)
    assert page.url.endswith("/teacher/sign-in/code")
    visit.axe("the sign-in's code page")
    page.locator("#code").fill(app_code())
    go(visit, page.locator("form.panel button[type=submit]"))
    assert page.url.endswith("/teacher") and "Welcome, Tove." in page.content()
    visit.close()
    engine.dispose()


PAD_BOXES = """() => [...document.querySelectorAll('.picture-pad .picture-button')].map(button => {
  const box = button.getBoundingClientRect();
  return {
    left: Math.round(box.left), top: Math.round(box.top), right: box.right, bottom: box.bottom,
    width: box.width, height: box.height,
  };
})"""


@pytest.mark.parametrize("locale", ["en", "it"])
def test_the_twelve_picture_pad_fits_a_phone_in_three_columns_of_big_buttons(browser, live_server, locale):
    engine = create_engine(live_server.database_url)
    with Session(engine) as session:
        teacher = Teacher(email=f"tove-pad-{locale}@school.example", name="Tove", password_hash="-", locale=locale)
        session.add(teacher)
        school_class = classroom.create_class(session, teacher, "1A pad", locale, "Europe/Oslo", "pictures")
        classroom.add_pupils(session, school_class, "Ada")
        session.commit()
        pad_url = f"{live_server}/class/{school_class.code}/{school_class.pupils[0].public_id}"
    engine.dispose()

    phone = Visit(browser, live_server, viewport=(390, 844), touch=True)
    phone.page.goto(pad_url)
    buttons = phone.page.evaluate(PAD_BOXES)
    assert len(buttons) == len(accounts.PICTURES) == 12
    assert len({b["left"] for b in buttons}) == 3 and len({b["top"] for b in buttons}) == 4  # 3 x 4
    assert all(b["width"] >= 44 and b["height"] >= 44 for b in buttons), buttons  # touch targets
    assert max(b["right"] for b in buttons) <= 390 and max(b["bottom"] for b in buttons) <= 844  # no scrolling
    assert phone.page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0
    names = [phone.page.locator(".picture-button img").nth(n).get_attribute("alt") for n in range(12)]
    new_pictures = {"en": {"flower", "umbrella", "key"}, "it": {"fiore", "ombrello", "chiave"}}[locale]
    assert new_pictures <= set(names) and all(names)  # named in the class's language
    phone.axe("the twelve-picture pad on a phone")
    phone.close()
