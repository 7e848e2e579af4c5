"""The drill catalogue: every skill of games.md, one module per skill, and the lessons ask every skill they can."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from babel.messages.pofile import read_po

from tutor import ROOT, content
from tutor.content import drill_texts
from tutor.drills.catalogue import MODULES, generators, misconceptions, skill_of, skills
from tutor.lessons import LESSONS

GAMES_MD_SKILLS = (
    re.findall(r"^\| `(\w+)` \|", (ROOT.parent / "shared" / "games.md").read_text(encoding="utf-8"), re.M)
    if (ROOT.parent / "shared" / "games.md").exists()
    else []
)
#: Skills whose games (29, Three Traits, Gnav, the War variants) are not built yet: their
#: generators are tested directly in the test_drills_* files.
NOT_YET_IN_A_GAME: set[str] = set()


def test_every_skill_has_question_generators():
    catalogue = generators()
    assert set(skills()) == set(catalogue)
    assert len(catalogue) == 15 and all(catalogue.values())
    if GAMES_MD_SKILLS:
        assert set(GAMES_MD_SKILLS) == set(catalogue)


def test_the_catalogue_has_one_module_per_skill_of_skills_toml_in_its_order():
    assert [skill_of(module) for module in MODULES] == list(content.load("skills"))
    assert {path.stem for path in (ROOT / "tutor" / "drills").glob("*.py")} == {
        *map(skill_of, MODULES),
        "__init__",
        "common",
        "catalogue",
        "marking",
    }
    for module in MODULES:
        assert all(function.__module__ == module.__name__ for function in module.GENERATORS), module.__name__


def test_each_skill_modules_question_kinds_are_in_its_content_file_under_its_skill():
    files = {path.stem for path in (content.CONTENT_DIR / "drills").glob("*.toml")}
    assert files == set(skills())
    for skill in files:
        kinds = content.load(f"drills/{skill}")
        assert kinds and {entry["skill"] for entry in kinds.values()} == {skill}, skill
    assert sum(len(content.load(f"drills/{skill}")) for skill in files) == len(drill_texts())


def test_every_skill_recognises_at_least_three_misconceptions():
    found = misconceptions()
    assert {skill: len(found.get(skill, ())) for skill in skills() if len(found.get(skill, ())) < 3} == {}


def test_every_question_kind_belongs_to_a_catalogue_skill():
    assert {entry["skill"] for entry in drill_texts().values()} <= set(skills())


def test_the_lessons_ask_every_skill_whose_game_exists():
    asked = set()
    for lesson in LESSONS.values():
        source = Path(__import__(type(lesson).__module__, fromlist=["_"]).__file__).read_text(encoding="utf-8")
        asked |= {
            skill
            for skill, functions in generators().items()
            for function in functions
            if re.search(rf"\b{function.__name__}\b", source)
        }
    assert set(skills()) - asked == NOT_YET_IN_A_GAME


def test_the_drills_are_pure_python_without_flask():
    code = "import sys, tutor.drills.catalogue, tutor.drills.marking; assert 'flask' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_every_misconception_a_drill_can_name_has_a_teacher_description_in_every_catalogue():
    """The misconception report names each mistake for the teacher in plain words, in the teacher's language.

    A drill names a misconception only from its kind's ``misconceptions`` table (marking reads the
    child's sentence from there), so each of those ids needs its ``teacher_descriptions`` entry.
    """
    catalogues = {}
    for locale in ("nb", "sv", "it"):
        with (ROOT / "translations" / locale / "LC_MESSAGES" / "messages.po").open("rb") as handle:
            catalogues[locale] = read_po(handle)
    for kind, entry in drill_texts().items():
        named, described = entry.get("misconceptions", {}), entry.get("teacher_descriptions", {})
        assert set(described) == set(named), kind
        for misconception, description in described.items():
            assert isinstance(description, str) and "%(" not in description and "_" not in description, kind
            assert description not in str(named[misconception]), (kind, misconception)  # not the child's sentence
            for locale, catalogue in catalogues.items():
                message = catalogue.get(description)
                assert message is not None and message.string and not message.fuzzy, (locale, kind, misconception)
