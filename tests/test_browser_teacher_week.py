"""A teacher's week in real Chromium, in the four languages, on a 1024 px laptop and a 390 px phone.

The teacher makes a group, sets homework for it, changes the homework and gives one pupil a later
date, then reads the needs-attention panel and the misconception report. Every teacher page is
opened at both sizes (on the phone in every language): axe-core finds nothing serious and no page
is wider than the screen (wide tables scroll inside their own box, the grid's pupil column stays
in place).
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from tests.browser_support import Visit
from tests.conftest import PASSWORD
from tests.test_dashboards import seed
from tests.test_replay import store_played_run
from tests.test_teacher_week import same_number_by_the_whole_class
from tutor import groups
from tutor.models import (
    Assignment,
    AssignmentExtension,
    ClassTeacher,
    LessonRunRecord,
    Pupil,
    PupilGroup,
    SchoolClass,
    Teacher,
)
from tutor.text import say

pytestmark = pytest.mark.browser

LANGUAGES = [("en", "English"), ("nb", "Norsk bokmål"), ("sv", "Svenska"), ("it", "Italiano")]
SIZES = [(1024, 768), (390, 844)]
#: The outermost elements that reach past the right edge of the screen (outside a scrolling box), to name in a failure.
TOO_WIDE = """() => [...document.querySelectorAll('main *')].filter(e => {
  if (e.closest('.table-scroll') && !e.classList.contains('table-scroll')) return false;
  return e.getBoundingClientRect().right > window.innerWidth + 0.5;
}).slice(0, 5).map(e => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}px`)"""


@pytest.fixture(scope="module")
def seeded(live_server):
    """The dashboards' class 4B of Tove (tests/test_dashboards.py), and a whole played lesson that she may replay."""
    run_id = store_played_run(live_server.database_url)
    engine = create_engine(live_server.database_url)
    with Session(engine) as session:
        ids = seed(session)
        same_number_by_the_whole_class(session, ids["class"])  # more pupils than the report names in a row
        played = session.scalar(select(LessonRunRecord).where(LessonRunRecord.public_id == run_id))
        tove = session.scalar(select(Teacher.id).where(Teacher.email == "tove@school.example"))
        class_id = session.scalar(select(Pupil.class_id).where(Pupil.id == played.pupil_id))
        session.add(ClassTeacher(class_id=class_id, teacher_id=tove, role="co"))
        school_class = session.scalar(select(SchoolClass).where(SchoolClass.public_id == ids["class"]))
        table = groups.create_group(session, school_class, "Table 1", [ids["ola"], ids["ada"]])
        session.commit()
        ids["group"] = table.public_id
    engine.dispose()
    return {**ids, "played": run_id}


def database(live_server) -> Session:
    return Session(create_engine(live_server.database_url))


def go(visit: Visit, locator) -> None:
    with visit.page.expect_navigation():
        locator.click()
    visit.page.wait_for_load_state("networkidle")


def signed_in(browser, live_server, language: str, size) -> Visit:
    teacher = Visit(browser, live_server, viewport=size)
    page = teacher.page
    page.goto(live_server + "/teacher/sign-in")
    go(teacher, page.get_by_role("button", name=language))
    page.locator("#email").fill("tove@school.example")
    page.locator("#password").fill(PASSWORD)
    go(teacher, page.locator("form.panel button[type=submit]"))
    return teacher


def fits(teacher: Visit, label: str) -> None:
    """axe finds nothing serious, and nothing makes the page wider than the screen."""
    page = teacher.page
    page.wait_for_load_state("networkidle")
    wide = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"{label}: the page is {wide}px wider than the screen: {page.evaluate(TOO_WIDE)}"
    teacher.axe(label)


#: The screens and languages every teacher page is checked in: the laptop in English, the phone in every language
#: (the longer Norwegian, Swedish and Italian words must fit it too).
FIT_CHECKS = [(SIZES[0], "en", "English")] + [(SIZES[1], locale, language) for locale, language in LANGUAGES]


@pytest.mark.parametrize(
    "size,locale,language", FIT_CHECKS, ids=[f"{width}x{height}-{locale}" for (width, height), locale, _ in FIT_CHECKS]
)
def test_every_teacher_page_fits_the_screen(browser, live_server, seeded, size, locale, language):
    teacher = signed_in(browser, live_server, language, size)
    page = teacher.page
    with database(live_server) as session:
        assignment = session.scalar(select(Assignment).where(Assignment.public_id == seeded["assignment"]))
        class_id = seeded["class"]
    pages = {
        "the classes": "/teacher",
        "the class grid": f"/teacher/classes/{class_id}",
        "the homework list": f"/teacher/classes/{class_id}/homework",
        "the homework form": f"/teacher/classes/{class_id}/homework/new",
        "the assignment": f"/teacher/assignments/{assignment.public_id}",
        "the changed homework form": f"/teacher/assignments/{assignment.public_id}/edit",
        "the misconception report": f"/teacher/classes/{class_id}/misconceptions",
        "a misconception's pupils": (
            f"/teacher/classes/{class_id}/misconceptions/tens_friends/tens_friend_number/same_number"
        ),
        "the pupils": f"/teacher/classes/{class_id}/pupils",
        "the groups": f"/teacher/classes/{class_id}/groups",
        "a group": f"/teacher/groups/{seeded['group']}",
        "the login cards": f"/teacher/classes/{class_id}/cards",
        "the settings": f"/teacher/classes/{class_id}/settings",
        "the pupil page": f"/teacher/pupils/{seeded['ola']}",
        "the replay": f"/teacher/runs/{seeded['played']}/replay?step=3",
        "a new class": "/teacher/classes/new",
    }
    for label, url in pages.items():
        page.goto(live_server + url)
        assert page.locator("html").get_attribute("lang") == locale, label
        fits(teacher, f"{label} at {size[0]} px in {locale}")
    # the grid: the pupil column stays in view while the skills scroll sideways inside their box
    page.goto(live_server + f"/teacher/classes/{class_id}")
    box = page.locator(".table-scroll").first
    box.evaluate("element => { element.scrollLeft = element.scrollWidth; }")
    name = page.locator("table.grid tbody th").first.bounding_box()
    assert 0 <= name["x"] < size[0] / 2, name
    caption = page.locator("#grid-caption").bounding_box()
    assert caption["x"] >= 0 and caption["x"] + caption["width"] <= size[0]
    assert not teacher.problems, teacher.problems
    teacher.close()


@pytest.mark.parametrize("locale,language", LANGUAGES)
def test_a_teacher_makes_a_group_sets_changes_and_extends_its_homework(browser, live_server, seeded, locale, language):
    t = lambda text: say(text, locale)  # noqa: E731
    teacher = signed_in(browser, live_server, language, SIZES[0])
    page = teacher.page
    class_url = f"{live_server}/teacher/classes/{seeded['class']}"
    group_name = f"Bord {locale}"

    # a group of two pupils
    page.goto(class_url + "/groups")
    page.locator("#group-name").fill(group_name)
    page.locator(f"input[name=pupils][value='{seeded['ola']}']").check()
    page.locator(f"input[name=pupils][value='{seeded['ada']}']").check()
    go(teacher, page.locator("form.panel button.primary"))
    assert group_name in page.locator("main").inner_text()
    fits(teacher, "the groups with a group")

    # homework for the group, then changed, then a later date for Ola alone
    go(teacher, page.locator("main a", has_text=group_name))
    fits(teacher, "the group page")
    go(teacher, page.locator("main a[href*='target=group']"))
    assert page.locator("input[name=target][value=group]").is_checked()
    page.locator("#due-date").fill((date.today() + timedelta(days=3)).isoformat())
    go(teacher, page.locator("form.homework-form button.primary[type=submit]"))
    assert "/teacher/assignments/" in page.url and group_name in page.locator("dl.facts").inner_text()
    fits(teacher, "the group's homework")
    go(teacher, page.locator("main a[href$='/edit']"))
    page.locator("input[name=goal][value=questions]").check()
    page.locator("#goal-count").fill("5")
    page.locator("#due-date").fill((date.today() + timedelta(days=4)).isoformat())
    go(teacher, page.locator("form.homework-form button.primary[type=submit]"))
    assert t("The homework is changed. Its pupils see the change now.") in page.locator(".flashes").inner_text()
    page.locator("#extend-pupil").select_option(seeded["ola"])
    page.locator("#extend-date").fill((date.today() + timedelta(days=9)).isoformat())
    go(teacher, page.locator("form.extend-form button[type=submit]"))
    assert page.locator(f"#work-{seeded['ola']} form").count() == 1  # his own date, with a button to undo it
    fits(teacher, "the homework with a later date for one pupil")
    with database(live_server) as session:
        group = session.scalar(select(PupilGroup).where(PupilGroup.name == group_name))
        assignment = session.scalar(select(Assignment).where(Assignment.group_id == group.id))
        assert assignment.goal == "questions" and assignment.goal_count == 5 and assignment.changed_at is not None
        ola_id = session.scalar(select(Pupil.id).where(Pupil.public_id == seeded["ola"]))
        assert session.get(AssignmentExtension, (assignment.id, ola_id)) is not None

    # the class page's panel and the misconception report, in the teacher's language
    page.goto(class_url)
    assert t("Needs attention") in page.locator("#attention").inner_text()
    fits(teacher, "the class page with its panel")
    page.goto(class_url + "/misconceptions")
    report = page.locator("main").inner_text()
    assert "Ola" in report and "same_number" not in report and t("Who showed it") in report
    assert t("Gave the same number as on the card (tens-friends are not known yet)") in report  # for the teacher
    fits(teacher, "the misconception report")
    # the row names three of its four pupils; the fourth comes in place, and the keyboard goes to the whole list
    show_all = page.locator("a.show-all")
    assert show_all.count() == 1 and "Ola" not in show_all.locator("xpath=..").inner_text()
    with page.expect_response(lambda response: "/misconceptions/tens_friends/" in response.url):
        show_all.click()
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    seen = page.locator("tr", has=page.locator("ul.pupils-seen[data-autofocus]"))
    assert seen.locator("ul.pupils-seen li").count() == 4 and "pupils-seen" in teacher.focused()
    assert page.locator("a.show-all").count() == 0 and page.url.split("?")[0].endswith("/misconceptions")
    # the report's own refresh (every 30 s) keeps the row whole
    with page.expect_response(lambda response: "open=" in response.url):
        page.evaluate(
            "() => htmx.ajax('GET', document.querySelector('#report').getAttribute('hx-get'),"
            " {source: '#report', target: '#report', swap: 'outerHTML'})"
        )
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    assert page.locator("a.show-all").count() == 0 and page.locator("input[name=open]").count() == 1
    fits(teacher, "the misconception report with a row's every pupil")
    assert not teacher.problems, teacher.problems
    teacher.close()
