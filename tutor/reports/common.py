"""Shared pieces of the reports: words for levels, statuses and refusals, and reading stored questions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from tutor import accounts, classroom
from tutor.drills import Question, texts
from tutor.lessons import LESSONS
from tutor.skill_model import skills
from tutor.text import N_, Text

Gettext = Callable[[str], str]


def untranslated(message: str) -> str:
    return message


# --- words ----------------------------------------------------------------------------------
#: Level words (the same source text as the web's LEVEL_NAMES, so one translation serves both).
LEVEL_WORDS = {
    "not_started": N_("not started"),
    "attempted": N_("attempted"),
    "familiar": N_("familiar"),
    "proficient": N_("proficient"),
    "mastered": N_("mastered"),
    "needs_help": N_("needs help"),
}
#: Homework statuses in words; a goal reached after the due time is "handed in late".
STATUS_WORDS = {
    "not_started": N_("not started"),
    "in_progress": N_("in progress"),
    "needs_help": N_("needs help"),
    "done": N_("done"),
    "late": N_("late"),
}
DONE_LATE = N_("handed in late")

#: A short description for the teacher of each reason an answer could not be read
#: (the codes of :data:`tutor.answers.MESSAGES`, and ``not_a_choice`` for buttons).
ERROR_DESCRIPTIONS = {
    "empty": N_("nothing typed"),
    "too_long": N_("too long to read"),
    "letters": N_("letters instead of numbers"),
    "other_digits": N_("digits from another script"),
    "equals_sign": N_("an = sign in the answer"),
    "power_not_allowed": N_("a power sign"),
    "factorial_not_allowed": N_("a factorial sign"),
    "percent_not_allowed": N_("a percent sign"),
    "bad_character": N_("a sign that is not allowed"),
    "hidden_character": N_("a hidden character"),
    "too_many_digits": N_("a number with too many digits"),
    "ambiguous_decimal": N_("unclear decimal or thousands sign"),
    "decimal_comma": N_("a decimal comma where a point is used"),
    "bad_number": N_("a number that could not be read"),
    "brackets_not_allowed": N_("brackets where one number was asked"),
    "unbalanced_brackets": N_("brackets that do not match"),
    "too_deep": N_("too many brackets inside brackets"),
    "too_many_operators": N_("too many signs"),
    "operator_not_allowed": N_("a sign that cannot be used here"),
    "missing_number": N_("a number missing next to a sign"),
    "empty_brackets": N_("empty brackets"),
    "missing_operator": N_("two numbers without a sign between"),
    "spaced_number": N_("a number with spaces in it"),
    "bad_fraction": N_("a fraction written the wrong way"),
    "bad_mixed_number": N_("a mixed number with too big a fraction"),
    "zero_denominator": N_("a fraction with 0 under the line"),
    "division_by_zero": N_("division by zero"),
    "not_a_choice": N_("not one of the buttons"),
    "type_the_result": N_("the calculation typed back instead of its result"),
}
UNKNOWN_ERROR = N_("an unknown reason")


def error_description(code: str | None) -> str:
    """The English description of a refusal code (translate it where it is shown)."""
    return ERROR_DESCRIPTIONS.get(code or "", UNKNOWN_ERROR)


# --- shared pieces --------------------------------------------------------------------------
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
    """The prompt of a stored question, or None when the stored form cannot be read."""
    if not question:
        return None
    try:
        return Question.from_dict(question).prompt
    except (KeyError, TypeError, ValueError):
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


def misconception_text(kind: str, misconception_id: str, question: dict | None) -> Text | None:
    """The misconception's feedback text from the drill content, with the question's first hint's fields."""
    try:
        msgid = texts(kind)["misconceptions"][misconception_id]
    except KeyError:
        return None
    params = {}
    hints = (question or {}).get("hints") or []
    if hints and isinstance(hints[0], dict):
        params = dict(hints[0].get("params") or {})
    return Text.from_content(msgid, params)
