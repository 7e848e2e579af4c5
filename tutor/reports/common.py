"""Shared pieces of the reports: words for levels, statuses and refusals, and reading stored questions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from tutor import accounts, classroom, content
from tutor.drills import texts
from tutor.lessons import LESSONS
from tutor.models import SkillRecord
from tutor.skill_model import skills
from tutor.text import N_, Text, say

Gettext = Callable[[str | Text], str]


def untranslated(message: str | Text) -> str:
    """English words: a plain message as it is, a Text (a level word with its context) said in English."""
    return say(message)


# --- words ----------------------------------------------------------------------------------
#: Level words: the skill model's scale (:data:`skills.LEVEL_WORDS`), said with its context.
LEVEL_WORDS = {level: Text.in_context(marked) for level, marked in skills.LEVEL_WORDS.items()}
#: Homework statuses in words; a goal reached after the due time is "handed in late".
STATUS_WORDS = {
    "not_started": N_("not started"),
    "in_progress": N_("in progress"),
    "needs_help": N_("needs help"),
    "done": N_("done"),
    "late": N_("late"),
}
DONE_LATE = N_("handed in late")


# --- shared pieces --------------------------------------------------------------------------
#: The columns of a pupil's skill record that :func:`tutor.skill_model.skills.record_level` reads, with the pupil and
#: skill: the dashboards select these, not whole records (thousands of ORM objects are slow to build).
LEVEL_COLUMNS = (
    SkillRecord.pupil_id,
    SkillRecord.skill,
    SkillRecord.p_known,
    SkillRecord.attempts,
    SkillRecord.mastery_threshold,
    SkillRecord.evidence,
    SkillRecord.typed_right,
    SkillRecord.practised_at,
)


@dataclass(frozen=True)
class PupilRef:
    """What a dashboard shows of a pupil: the first name and the id for links."""

    id: int
    public_id: str
    name: str


@lru_cache(maxsize=1)
def grid_skill_ids() -> tuple[str, ...]:
    practised = {skill for game_id in LESSONS for skill in classroom.game_skills(game_id)}
    return tuple(skill for skill in skills.SKILLS if skill in practised)


def grid_skills() -> list[str]:
    """The skills the registered games practise, in ``content/skills.toml`` order."""
    return list(grid_skill_ids())


def as_utc_or_none(moment: datetime | None) -> datetime | None:
    return accounts.as_utc(moment) if moment is not None else None


def name_key(name: str) -> str:
    return name.casefold()


def question_prompt(question: dict | None) -> Text | None:
    """The prompt of a stored question, or None when the stored form cannot be read.

    Only the prompt is read (as :meth:`tutor.drills.Question.from_dict` reads it): a report shows many
    examples, and reading every hint, solution step and button of each is most of its time.
    """
    if not question:
        return None
    try:
        return Text.from_dict(question["prompt"])
    except (KeyError, TypeError, ValueError):
        return None


def choice_label(question: dict | None, value: str | None) -> Text | None:
    """The label of the button a pupil chose (choice questions store the button's value)."""
    if not question or value is None or question.get("answer") != "choice":
        return None
    for choice in question.get("choices", []):
        if str(choice.get("value")) == str(value) and isinstance(choice.get("label"), dict):
            try:
                return Text.from_dict(choice["label"])
            except (KeyError, TypeError, ValueError):
                return None
    return None


#: A question kind's name when its content gives none.
UNKNOWN_KIND = N_("A question in the game")


def kind_name(kind: str) -> str:
    """A question kind's name for the teacher (English source text): a drill kind's ``name`` in
    content/drills, a decision's in content/choices.toml ("choice:move" and the like)."""
    if kind.startswith("choice:"):
        decisions = content.load("choices")
        return decisions.get(kind.partition(":")[2], decisions["move"])["name"]
    try:
        return texts(kind)["name"]
    except KeyError:
        return UNKNOWN_KIND


def teacher_description(kind: str, misconception_id: str) -> Text | None:
    """What a misconception says about the pupil, in plain words for the teacher (the drill content's
    ``teacher_descriptions``), not the feedback sentence the child saw."""
    try:
        return Text(texts(kind)["teacher_descriptions"][misconception_id])
    except KeyError:
        return None
