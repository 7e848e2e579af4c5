"""Drill questions: built from the live game position, stored as plain JSON.

A generator takes the cards a game shows and a difficulty (1 easy .. 3 hard) and
returns a :class:`Question`: the prompt, how it is answered, the named check with its
exact values, graded hints, a worked solution, and the wrong answers that signal a
known misconception. All text is English source text with ``%(name)s`` fields,
translated where it is shown.

The generators live in one module per skill, named by the skill's id in
``content/skills.toml`` (``compare.py``, ``fractions.py``, ...), each with its texts in
``content/drills/<skill>.toml``; ``common.py`` holds what they share, ``catalogue.py``
lists them by skill and ``marking.py`` marks an answer.
"""

from __future__ import annotations

import copy
from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field

from tutor import content

# Text is also imported from here by modules not yet moved to tutor.text (temporary).
from tutor.text import Text  # noqa: F401

NUMBER, CHOICE = "number", "choice"
YES, NO = "yes", "no"


@dataclass
class Question:
    kind: str
    skill: str
    prompt: Text
    answer: str  # NUMBER (typed) or CHOICE (buttons)
    check: dict  # {"rule": name, ...exact values as text}
    hints: list[Text]
    solution: list[Text]
    misconceptions: list[dict] = field(default_factory=list)  # {"id", "values"}: answers that signal it
    choices: list[dict] = field(default_factory=list)  # {"value", "label": Text, "card"}
    cards: list[int] = field(default_factory=list)  # the cards the question is about
    difficulty: int = 2
    hides_result: bool = False  # the table must not show who won while this is open
    about_round: int = 0  # the decided round it asks about, shown as it lay while it is open (0: the table now)
    allow: str = "number"  # which grammar a typed answer may use (tutor.answers.ALLOW_*)
    number_form: str = (
        "decimal"  # how the question writes a number that is not whole (tutor.signs: decimal, fraction, mixed)
    )

    def to_dict(self) -> dict:
        data = asdict(self)
        data["prompt"] = self.prompt.to_dict()
        data["hints"] = [hint.to_dict() for hint in self.hints]
        data["solution"] = [step.to_dict() for step in self.solution]
        data["choices"] = [{**choice, "label": choice["label"].to_dict()} for choice in self.choices]
        return data

    @classmethod
    def from_dict(cls, data: dict) -> Question:
        return cls(
            **{
                **data,
                "prompt": Text.from_dict(data["prompt"]),
                "hints": [Text.from_dict(h) for h in data["hints"]],
                "solution": [Text.from_dict(s) for s in data["solution"]],
                "choices": [{**c, "label": Text.from_dict(c["label"])} for c in data["choices"]],
            }
        )


def texts(kind: str) -> dict:
    """The content entry of a question kind: prompt, hints, solution, misconceptions."""
    return content.drill_texts()[kind]


#: The level of a question in a skill the lesson was given no level for: the easiest.
EASIEST = 1


def level_of(levels: dict[str, int], skill: str) -> int:
    """The level (1 to 3) of the next question in ``skill`` (:func:`tutor.skill_model.progress.choose_levels`)."""
    return levels.get(skill, EASIEST)


@dataclass(frozen=True)
class Offer:
    """A question the table allows now, built only once the choice has given it a level."""

    skill: str
    kind: str  # the kind the question will have (its difficulty is kept per skill, kind and level)
    build: Callable[[int], Question | None]  # the question at a level (1 to 3)


class Pitch(Mapping[str, int]):
    """The levels of a pupil's next questions (skill -> level) that can also rank the questions a table offers.

    The skill model gives a lesson one (:class:`tutor.skill_model.progress.PupilPitch`); a plain dict of levels
    (tests, a lesson played without a pupil) ranks nothing and keeps the lesson's order.
    """

    #: the kind of the last question if it had two options: the runner drops a second one in a row
    avoid_two_option: str = ""

    def avoiding(self, kind: str) -> Pitch:
        """This pitch for a drill point right after a two-option question of ``kind`` ("" after any other)."""
        pitch = copy.copy(self)
        pitch.avoid_two_option = kind
        return pitch

    @abstractmethod
    def ranked(self, offers: Sequence[Offer]) -> list[tuple[Offer, int]]:
        """The offers with their levels, the one whose forecast success is nearest the pupil's target first."""


def is_two_option(question: Question) -> bool:
    """Whether a question is answered by one of two buttons (a coin toss for a pupil who guesses)."""
    return question.answer == CHOICE and len(question.choices) == 2


def choose_question(levels: Mapping[str, int], offers: Sequence[Offer]) -> Question | None:
    """Of the questions the table offers now, the one pitched nearest the pupil's target success.

    With a :class:`Pitch` the offers are tried nearest first, each at its own best level; with
    plain levels in the lesson's order at the skill's level. A two-option question of the kind
    the last question was (:attr:`Pitch.avoid_two_option`) is passed over, as the runner would
    drop it, and so is an offer that builds no question.
    """
    avoid_two_option = ""
    if isinstance(levels, Pitch):
        tried, avoid_two_option = levels.ranked(offers), levels.avoid_two_option
    else:
        tried = [(offer, level_of(levels, offer.skill)) for offer in offers]
    for offer, level in tried:
        question = offer.build(level)
        if question is not None and not (is_two_option(question) and question.kind == avoid_two_option):
            return question
    return None
