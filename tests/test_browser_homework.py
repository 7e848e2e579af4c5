"""Homework goes on, in real Chromium in each of the four languages, on a phone (390x844) and a laptop (1024x768).

A pupil of a class with a class deal finishes the homework's first game; "Play again" on the
finished game starts the homework's second game, dealt as a classmate's second game was. Her
progress page is a child's page: a card per skill with its stars and one sentence, no
numbers, nothing wider than the screen. axe-core checks every page.
"""

from __future__ import annotations

import functools
import re

import pytest

from tests.browser_support import Visit
from tests.conftest import Staff, run_id_in, run_record
from tests.test_teacher import homework_form, play_through
from tutor.app import create_app
from tutor.text import say

pytestmark = pytest.mark.browser

LANGUAGES = ["nb", "sv", "it", "en"]
SIZES = [(390, 844), (1024, 768)]
#: The one sentence a skill's card may say (tutor/web/main.py), in English.
SENTENCES = (
    "You have not tried this yet.",
    "You have made a start.",
    "You are getting better at this.",
    "You are good at this.",
    "You know this really well!",
    "This is hard right now, so ask a grown-up to help you.",
)


@pytest.fixture(scope="module")
def setup_app(live_server):
    """An app on the live server's database that sets up classes and plays games through the routes, without CSRF."""
    app = create_app(
        {"TESTING": True, "DATABASE_URL": live_server.database_url, "SECRET_KEY": "setup", "WTF_CSRF_ENABLED": False}
    )
    yield app
    app.extensions["db_engine"].dispose()


def wider_than_the_screen(page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")


@pytest.mark.parametrize("locale", LANGUAGES)
def test_play_again_continues_the_homework_and_the_progress_page_is_a_childs(browser, live_server, setup_app, locale):
    t = functools.partial(say, locale=locale)
    staff = Staff(setup_app)
    email = f"homework-{locale}@school.example"
    staff.teacher(email)
    school_class = staff.school_class(email, f"Class {locale}", pupils=("Nora", "Emil"), locale=locale, sign_in="pin")
    teacher = setup_app.test_client()
    staff.sign_in(teacher, email)
    created = teacher.post(
        f"/teacher/classes/{school_class.public_id}/homework/new", data=homework_form(class_deal="yes", goal_count="3")
    )
    assignment_id = created.headers["Location"].rsplit("/", 1)[1]
    games = {}
    for name in ("Emil", "Nora"):  # each finishes the first game; Emil has started his second
        client = setup_app.test_client()
        staff.sign_in_pupil(client, school_class.code, name)
        games[name] = [run_id_in(client.post(f"/homework/{assignment_id}/start").headers["Location"])]
        play_through(client, setup_app, games[name][0])
        if name == "Emil":
            games[name].append(run_id_in(client.post(f"/homework/{assignment_id}/start").headers["Location"]))

    nora = staff.pupil(school_class.code, "Nora")
    visit = Visit(browser, live_server, viewport=SIZES[0])
    page = visit.page
    page.goto(f"{live_server}/class/{school_class.code}/{nora.public_id}")
    page.locator("#pin").fill(nora.secret)
    with page.expect_navigation():
        page.locator("#pin").press("Enter")
    assert page.locator("html").get_attribute("lang") == locale

    page.goto(f"{live_server}/runs/{games['Nora'][0]}")
    play_again = page.locator(f"form[action='/homework/{assignment_id}/start'] button")
    assert play_again.inner_text() == t("Play again")
    assert t("Play again to go on with your homework.") in page.locator(".coach").inner_text()
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        assert wider_than_the_screen(page) <= 0, f"the finished game at {width}px"
        assert play_again.is_visible()
        visit.axe(f"the finished homework game at {width}px")
    with page.expect_navigation():
        play_again.click()
    page.wait_for_load_state("networkidle")
    second = run_id_in(page.url)
    assert second != games["Nora"][0]
    nora_second, emil_second = run_record(setup_app, second), run_record(setup_app, games["Emil"][1])
    assert nora_second.assignment_id is not None and nora_second.seed == emil_second.seed
    assert nora_second.seed != run_record(setup_app, games["Nora"][0]).seed
    assert nora_second.data["state"] == emil_second.data["state"]  # the class's second deal
    visit.axe("the homework's second game")

    page.goto(f"{live_server}/progress")
    cards = page.locator("li.skill-card")
    assert cards.count() >= 5 and page.locator("main table, main meter, main progress").count() == 0
    assert "%" not in page.locator("main").inner_text()
    assert t("The stars show how well you know each skill. Play the games to get more stars!") in page.inner_text(
        "main"
    )
    assert page.locator("li.skill-card .star-on").count() >= 1, "the skills of a finished game have stars"
    for stars in page.locator("li.skill-card .stars").all():
        assert stars.get_attribute("role") == "img" and re.search(r"\d", stars.get_attribute("aria-label"))
    sentences = {t(text) for text in SENTENCES}
    assert all(card.locator(".skill-sentence").inner_text() in sentences for card in cards.all())
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        assert wider_than_the_screen(page) <= 0, f"the progress page at {width}px"
        boxes = page.evaluate(
            "() => [...document.querySelectorAll('li.skill-card')].map(c => c.getBoundingClientRect().right)"
        )
        assert max(boxes) <= width, f"a skill card reaches past the screen at {width}px"
        visit.axe(f"the progress page at {width}px")
    assert not visit.problems, visit.problems
    visit.close()
