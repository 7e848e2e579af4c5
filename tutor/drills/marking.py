"""Mark one answer: read it safely, apply the named check, and name the misconception.

An answer that cannot be read is not a wrong answer: it gets a friendly message and
neither a penalty nor a skill update.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tutor import answers
from tutor.answers import AnswerError, read_answer, read_back
from tutor.checks import check_text, exact, in_simplest_form, run_check, typed_back, uses_only
from tutor.drills import CHOICE, Question, texts
from tutor.signs import format_number
from tutor.text import N_, Text

RIGHT, WRONG, UNREADABLE = "right", "wrong", "unreadable"
#: Shown when an expression uses a number that is not on the pupil's cards (or uses one twice).
USED_OTHER_NUMBERS = "used_other_numbers"
#: The refusal code of an answer that is the question's own division typed back ("224/4" for a mean).
TYPE_THE_RESULT = "type_the_result"
#: The misconception of a right value not written in the simplest form the question asks for ("21/81" for 7/27).
NOT_SIMPLEST = "not_simplest"
#: How the kind of a card chosen in the game and judged as an answer begins (``choice:<judged kind>``).
CARD_CHOICE = "choice:"
#: The refusal code of a value that is not one of the question's buttons.
NOT_A_CHOICE = "not_a_choice"

#: A short description for the teacher of every reason an answer could not be read: the
#: grammar's (:data:`tutor.answers.REFUSAL_DESCRIPTIONS`) and marking's own.
REFUSAL_DESCRIPTIONS = {
    **answers.REFUSAL_DESCRIPTIONS,
    NOT_A_CHOICE: N_("not one of the buttons"),
    TYPE_THE_RESULT: N_("the calculation typed back instead of its result"),
}
UNKNOWN_REFUSAL = N_("an unknown reason")


def refusal_description(code: str | None) -> str:
    """The English description, for the teacher, of why an answer could not be read (translated where shown)."""
    return REFUSAL_DESCRIPTIONS.get(code or "", UNKNOWN_REFUSAL)


@dataclass
class Marked:
    status: str
    typed: str
    read_as: str | None = (
        None  # how the answer was read: the pupil's own form in the locale's signs (answers.read_back)
    )
    value: str | None = None  # the exact value or the choice, as stored
    feedback: list[Text] = field(default_factory=list)
    misconception: str | None = None
    error_code: str | None = None

    @property
    def correct(self) -> bool:
        return self.status == RIGHT

    def to_dict(self) -> dict:
        return {
            "status": self.status,
            # an unreadable answer may be any free text (a name, a telephone number): only its refusal code is kept
            "typed": self.typed if self.status != UNREADABLE else "",
            "read_as": self.read_as,
            "value": self.value,
            "feedback": [text.to_dict() for text in self.feedback],
            "misconception": self.misconception,
            "error_code": self.error_code,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Marked:
        return cls(**{**data, "feedback": [Text.from_dict(t) for t in data["feedback"]]})


@dataclass
class Attempt:
    """A marked answer as it is stored: what was asked, typed and read, and how the pupil got there."""

    skill: str
    kind: str
    question: dict
    typed: str
    read_as: str | None
    correct: bool
    readable: bool
    first_try: bool
    hints_used: int
    time_ms: int
    choices: int
    move_index: int = 0  # how many moves the run had made when the question was answered
    feedback: list[dict] = field(default_factory=list)  # the feedback shown, as Text dicts
    misconception: str | None = None
    error_code: str | None = None  # why it could not be read; then ``typed`` is not kept


def _check_params(question: Question, locale: str) -> dict:
    """The check's values as the question writes its numbers (the feedback is kept as the pupil read it)."""
    check = question.check
    return {
        key: format_number(exact(check[key]), locale, question.number_form)
        for key in ("expected", "tolerance", "low", "high", "target")
        if isinstance(check.get(key), str)
    }


def _misconception(question: Question, value: str, reading) -> str | None:
    """The named misconception this wrong answer shows, if any."""
    if (
        reading is not None
        and "numbers" in question.check
        and not uses_only(reading.numbers, question.check["numbers"])
    ):
        return USED_OTHER_NUMBERS
    if (
        reading is not None
        and question.check["rule"] == "equivalent_simplest"
        and reading.value == exact(question.check["expected"])
        and not in_simplest_form(reading)
    ):
        return NOT_SIMPLEST
    return next((m["id"] for m in question.misconceptions if value in m["values"]), None)


def mark(question: Question, typed: str, locale: str) -> Marked:
    """Read ``typed`` for ``question`` in ``locale`` and say whether it is right, and why not."""
    if question.answer == CHOICE:
        values = {choice["value"] for choice in question.choices}
        if typed not in values:
            return Marked(
                UNREADABLE, typed, feedback=[Text(N_("Please choose one of the buttons."))], error_code=NOT_A_CHOICE
            )
        value, read_as = typed, None
        correct = run_check(question.check, typed)
    else:
        try:
            reading = read_answer(typed, locale, allow=question.allow, form=question.number_form)
        except AnswerError as error:
            return Marked(UNREADABLE, typed, feedback=[error.text], error_code=error.code)
        unworked = typed_back(question.check, reading)
        if unworked:  # not wrong, and not right either: the pupil has not done the division yet
            message = Text(
                N_("You wrote the division %(division)s: work it out and type the result."), {"division": unworked}
            )
            return Marked(UNREADABLE, typed, feedback=[message], error_code=TYPE_THE_RESULT)
        value, read_as = str(reading.value), read_back(reading, locale, question.number_form)
        correct = run_check(question.check, reading.value, reading)
    params = {
        **_check_params(question, locale),
        "value": format_number(reading.value, locale, question.number_form) if read_as is not None else value,
    }
    feedback = [Text(check_text(question.check["rule"], correct), params)]
    misconception = None if correct else _misconception(question, value, reading if question.answer != CHOICE else None)
    if misconception:
        said = Text.from_content(
            texts(question.kind)["misconceptions"][misconception], question.hints[0].params if question.hints else {}
        )
        # A right value in the wrong form is not a wrong value: say only what is missing.
        feedback = [said] if misconception == NOT_SIMPLEST else [*feedback, said]
    return Marked(RIGHT if correct else WRONG, typed, read_as, value, feedback, misconception)
