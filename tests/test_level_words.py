"""Level words: one scale per school system, the same word on the grid, pupil pages, homework goals and the CSV."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from babel.messages.pofile import read_po

from tests.test_dashboards import csv_rows, school, urls  # noqa: F401  (school: the seeded class 4B as a fixture)
from tutor import reports
from tutor.models import Assignment, SchoolClass, utcnow
from tutor.skill_model import skills
from tutor.text import TRANSLATIONS_DIR, Text, say
from tutor.web import db

SCALE = (skills.ATTEMPTED, skills.FAMILIAR, skills.PROFICIENT, skills.MASTERED)
#: The scales language.md gives, lowest first.
EXPECTED = {
    "en": ("attempted", "familiar", "proficient", "mastered"),
    "nb": ("påbegynt", "grunnleggende", "sikker", "mestret"),
    "sv": ("påbörjad", "grundläggande", "säker", "behärskar"),
    "it": ("in via di prima acquisizione", "base", "intermedio", "avanzato"),
}


@pytest.mark.parametrize("locale", ["nb", "sv", "it"])
def test_the_four_level_words_come_from_one_context_in_each_catalogue(locale):
    with open(TRANSLATIONS_DIR / locale / "LC_MESSAGES" / "messages.po", "rb") as handle:
        catalogue = read_po(handle)
    english = {marked[1] for marked in (skills.LEVEL_WORDS[level] for level in SCALE)}
    contexts = {message.context for message in catalogue if message.id in english}
    assert contexts == {"skill level"}, "a level word outside its scale's context reads as another word"
    words = tuple(say(Text.in_context(skills.LEVEL_WORDS[level]), locale) for level in SCALE)
    assert words == EXPECTED[locale]


def homework_for_multiply(app, class_id: str) -> None:
    """A homework goal in words: reach "proficient" in times tables."""
    with app.app_context():
        database = db.session()
        school_class = database.query(SchoolClass).filter_by(public_id=class_id).one()
        database.add(
            Assignment(
                class_id=school_class.id,
                game_id="multiwar",
                goal="skill",
                goal_skill="multiply",
                goal_level=skills.PROFICIENT,
                goal_count=1,
                due_at=utcnow() + timedelta(days=2),
                everyone=True,
                created_at=utcnow(),
            )
        )
        database.commit()


@pytest.mark.parametrize("locale", ["en", "nb", "sv", "it"])
def test_a_level_reads_the_same_on_the_grid_the_pupils_pages_the_goal_and_the_csv(school, app, staff, locale):  # noqa: F811
    """Ola's times tables are "proficient"; the homework asks for that level: every page says the same word."""
    homework_for_multiply(app, school["class"])
    proficient, mastered = EXPECTED[locale][2], EXPECTED[locale][3]
    teacher = school["client"]
    teacher.post("/language", data={"locale": locale})
    grid = html.unescape(teacher.get(urls(school)["grid"]).get_data(as_text=True))
    assert proficient in grid and mastered in grid
    rows = csv_rows(teacher.get(urls(school)["grid_csv"]), ";" if locale != "en" else ",")
    multiply = 2 + 4 * reports.grid_skills().index("multiply")
    by_name = {row[0]: row for row in rows[1:]}
    assert by_name["Ola"][multiply] == proficient and by_name["Ada"][multiply] == mastered
    homework = html.unescape(teacher.get(f"/teacher/classes/{school['class']}/homework").get_data(as_text=True))
    assert f"“{proficient}”" in homework or f"«{proficient}»" in homework or f"”{proficient}”" in homework

    pupil = app.test_client()
    staff.sign_in_pupil(pupil, school["code"], "Ola")
    pupil.post("/language", data={"locale": locale})
    index = html.unescape(pupil.get("/").get_data(as_text=True))
    assert proficient in index  # the homework goal the pupil reads
    progress = html.unescape(pupil.get("/progress").get_data(as_text=True))
    assert f'<p class="note level-word">{proficient}</p>' in progress
