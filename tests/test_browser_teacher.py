"""The teacher's and the pupil's journey in a real Chromium, in each of the four languages.

A teacher signs in, creates a class, adds pupils, opens the login cards and sets homework
with a due date. A pupil signs in with the class code, their name and four pictures, and
does the homework. The teacher then sees "done", the pupil's chart, the replay and the
misconception report. axe-core checks every page on the way.
"""

from __future__ import annotations

import functools
import json
from datetime import date, timedelta

import pytest
from sqlalchemy import create_engine, select, text
from sqlalchemy.orm import Session

from tests.answer_key import right_answer
from tests.browser_support import Visit
from tutor import accounts
from tutor.models import Pupil, SchoolClass, Teacher
from tutor.text import say

pytestmark = pytest.mark.browser

LANGUAGES = [("nb", "Norsk bokmål"), ("it", "Italiano"), ("en", "English"), ("sv", "Svenska")]
PASSWORD = "a long enough password"


def database(live_server) -> Session:
    return Session(create_engine(live_server.database_url))


def add_teacher(live_server, email: str) -> None:
    with database(live_server) as session:
        session.add(Teacher(email=email, name="Tove", password_hash=accounts.hash_password(PASSWORD), locale="en"))
        session.commit()


def open_question(live_server, pupil_public_id: str) -> dict | None:
    engine = create_engine(live_server.database_url)
    with engine.connect() as connection:
        row = connection.execute(
            text(
                "SELECT r.data FROM lesson_run r JOIN pupil p ON p.id = r.pupil_id WHERE p.public_id = :id ORDER BY "
                "r.id DESC LIMIT 1"
            ),
            {"id": pupil_public_id},
        ).one()
    engine.dispose()
    data = row[0] if isinstance(row[0], dict) else json.loads(row[0])
    return data["question"] if data.get("question_open") else None


def go(visit: Visit, locator) -> None:
    """Follow a link or submit a form, and wait for the new page."""
    with visit.page.expect_navigation():
        locator.click()
    visit.page.wait_for_load_state("networkidle")


@pytest.mark.parametrize("locale,language", LANGUAGES)
def test_a_teacher_sets_homework_and_a_pupil_signs_in_with_pictures_and_does_it(browser, live_server, locale, language):
    t = functools.partial(say, locale=locale)
    email = f"tove-{locale}@school.example"
    add_teacher(live_server, email)

    # --- the teacher -----------------------------------------------------------------------
    teacher = Visit(browser, live_server)
    page = teacher.page
    page.goto(live_server + "/teacher/sign-in")
    go(teacher, page.get_by_role("button", name=language))
    teacher.axe("the teacher sign-in page")
    page.locator("#email").fill(email)
    page.locator("#password").fill(PASSWORD)
    go(teacher, page.locator("form.panel button[type=submit]"))
    assert page.url.endswith("/teacher")
    teacher.axe("the teacher's classes")
    go(teacher, page.locator("a.button.primary[href$='/classes/new']"))
    teacher.axe("the new class form")
    page.locator("#class-name").fill(f"5C {locale}")
    page.locator("#class-locale").select_option(locale)
    page.locator("#class-timezone").select_option("Europe/Rome")
    go(teacher, page.locator("form.panel button.primary"))
    assert "/pupils" in page.url
    page.locator("#names").fill("Nora\nEmil\nSofia\n")
    go(teacher, page.locator("form.panel button.primary"))
    assert page.locator("table.pupils tbody tr").count() == 3
    teacher.axe("the pupils tab")
    go(teacher, page.locator("nav.tabs a[href$='/cards']"))
    assert page.locator("li.login-card").count() == 3 and page.locator("img.card-qr").count() == 3
    teacher.axe("the login cards")
    go(teacher, page.locator("nav.tabs a[href$='/homework']"))
    teacher.axe("the homework tab")
    go(teacher, page.locator("a.button.primary[href$='/homework/new']"))
    teacher.axe("the homework form")
    page.locator("#game").select_option("crazy-banana-tiervenner")
    page.wait_for_load_state("networkidle")
    page.wait_for_selector("input[name='crazy-banana-tiervenner-players']")  # htmx brought this game's settings
    page.locator("input[name=goal][value=questions]").check()
    page.locator("#goal-count").fill("1")
    page.locator("#due-date").fill((date.today() + timedelta(days=3)).isoformat())
    page.locator("#due-time").fill("17:30")
    go(teacher, page.locator("form.homework-form button.primary[type=submit]"))
    assert "/teacher/assignments/" in page.url
    assignment_url = page.url
    teacher.axe("the new assignment")

    with database(live_server) as session:
        school_class = session.scalar(select(SchoolClass).where(SchoolClass.name == f"5C {locale}"))
        code, class_url = school_class.code, f"{live_server}/teacher/classes/{school_class.public_id}"
        nora = session.scalar(select(Pupil).where(Pupil.class_id == school_class.id, Pupil.name == "Nora"))
        nora_id, secret = nora.public_id, nora.secret.split()
    assert school_class.locale == locale

    # --- the pupil -------------------------------------------------------------------------
    pupil = Visit(browser, live_server)
    kid = pupil.page
    kid.goto(live_server + "/")
    pupil.axe("the home page")
    kid.locator("#code").fill(f"{code[:3].lower()} {code[3:]}")
    go(pupil, kid.locator("#code").locator("xpath=ancestor::form").locator("button"))
    pupil.axe("the class's names")
    go(pupil, kid.locator("a.name-card", has_text="Nora"))
    pupil.axe("the picture pad")
    for n, picture in enumerate(secret, 1):
        name = t(content_label(picture))
        button = kid.get_by_role("button", name=name, exact=True)
        if n < len(secret):
            go(pupil, button)
            assert kid.locator(".picked-list img").count() == n
        else:
            go(pupil, button)
    assert kid.url == live_server + "/", kid.url
    assert kid.locator("html").get_attribute("lang") == locale
    assert t("Your homework") in kid.content()
    pupil.axe("the pupil's home page with homework")
    go(pupil, kid.locator("form[action*='/homework/'] button"))
    kid.locator("form[action$='/skip-intro'] button").focus()
    pupil.press("Enter")
    for _ in range(60):
        question = open_question(live_server, nora_id)
        if question:
            break
        buttons = kid.locator("section.hand button.card-button, section.moves button.move-button")
        if kid.locator("section.drill").count():  # a closed question: go on
            kid.locator("form[action$='/go-on'] button").focus()
        else:
            buttons.first.focus()
        pupil.press("Enter")
    else:
        raise AssertionError("no question in 60 steps")
    answer = right_answer(question, locale)
    if question["answer"] == "choice":
        kid.locator(f'section.drill button[name="answer"][value="{answer}"]').focus()
    else:
        kid.locator("input#answer").focus()
        kid.keyboard.type(answer)
    pupil.press("Enter")
    assert kid.locator("section.drill .feedback-right").count() == 1
    pupil.axe("the homework's question, answered")
    kid.goto(live_server + "/")
    assert kid.locator("progress[value='100']").count() == 1
    assert not pupil.problems, pupil.problems
    pupil.close()

    # --- the teacher sees it -------------------------------------------------------------------
    page.goto(assignment_url)
    assert t("done") in page.locator("main").inner_text()
    teacher.axe("the assignment view with the pupil done")
    go(teacher, page.locator("main a", has_text="Nora").first)
    assert page.locator("main svg").count() >= 1 and page.locator("main table").count() >= 1
    teacher.axe("the pupil page with the chart")
    go(teacher, page.locator("a[href*='/replay']").first)
    teacher.axe("the replay")
    question_frame = page.locator(".replay-question-frames a").first
    if question_frame.count():  # the question is not on the first frame
        question_frame.click()
        page.wait_for_selector(".replay-tries")
    tries = page.locator("table.replay-tries tbody tr")
    assert tries.count() == 1 and "result-right" in tries.first.get_attribute("class")
    teacher.axe("the replay at the question")
    page.goto(class_url + "/misconceptions")
    teacher.axe("the misconception report")
    page.goto(class_url)
    assert page.locator("main table").count() >= 1 and "Nora" in page.locator("main table").inner_text()
    teacher.axe("the class grid")
    assert not teacher.problems, teacher.problems
    teacher.close()


def content_label(picture: str) -> str:
    from tutor import content

    return content.load("pictures")["labels"][picture]
