"""The drill catalogue covers every skill of games.md, and the lessons ask every skill they can."""

from __future__ import annotations

import re
from pathlib import Path

from tutor import ROOT
from tutor.content import drill_texts
from tutor.drills.catalogue import generators, misconceptions, skills
from tutor.lessons import LESSONS

GAMES_MD_SKILLS = (
    re.findall(r"^\| `(\w+)` \|", (ROOT.parent / "shared" / "games.md").read_text(encoding="utf-8"), re.M)
    if (ROOT.parent / "shared" / "games.md").exists()
    else []
)
#: Skills whose games (29, Three Traits, Gnav, the War variants) are not built yet: their
#: generators are tested directly in the test_drills_* files.
NOT_YET_IN_A_GAME = {"parity_size", "missing_addend"}


def test_every_skill_has_question_generators():
    catalogue = generators()
    assert set(skills()) == set(catalogue)
    assert len(catalogue) == 15
    if GAMES_MD_SKILLS:
        assert set(GAMES_MD_SKILLS) == set(catalogue)


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
