"""Drill questions: built from the live game position, stored as plain JSON.

A generator takes the cards a game shows and a difficulty (1 easy .. 3 hard) and
returns a :class:`Question`: the prompt, how it is answered, the named check with its
exact values, graded hints, a worked solution, and the wrong answers that signal a
known misconception. All text is English source text with ``%(name)s`` fields, kept in
``content/drills.toml`` and translated where it is shown.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from fractions import Fraction

from tutor import content
from tutor.text import N_

NUMBER, CHOICE = "number", "choice"
YES, NO = "yes", "no"


@dataclass(frozen=True)
class Text:
    """A message id with its fields, translated and filled only when shown."""

    msgid: str
    params: dict = field(default_factory=dict)
    plural: str = ""  # with a plural form, the ``num`` field chooses between them
    context: str = ""  # a msgctxt, for a short msgid with more than one meaning ("Last round", "won")

    def to_dict(self) -> dict:
        """Plain JSON; a field that is itself a Text (a colour's name) becomes its dict too."""
        params = {key: value.to_dict() if isinstance(value, Text) else value for key, value in self.params.items()}
        data = {"msgid": self.msgid, "params": params}
        if self.plural:
            data["plural"] = self.plural
        if self.context:
            data["context"] = self.context
        return data

    @classmethod
    def from_dict(cls, data: dict) -> Text:
        return cls(data["msgid"], dict(data.get("params", {})), data.get("plural", ""), data.get("context", ""))

    @classmethod
    def count(cls, forms: tuple, num: int, **params) -> Text:
        """A text with singular and plural forms for ``num`` things: from :func:`tutor.text.NP_`,
        or with a context first from :func:`tutor.text.NPC_`."""
        context, singular, plural = forms if len(forms) == 3 else ("", *forms)
        return cls(singular, {**params, "num": num}, plural, context)

    @classmethod
    def from_content(cls, value, params: dict) -> Text:
        """A content text filled with ``params``: a string, or a plural table whose ``count`` names the field that counts (:func:`tutor.content.plural_forms`)."""
        forms = content.plural_forms(value)
        if forms is None:
            return cls(value, params)
        singular, plural, counted = forms
        return cls(singular, {**params, "num": params[counted]}, plural)

    @classmethod
    def in_context(cls, marked: tuple[str, str], **params) -> Text:
        """A text whose msgid has a context, from :func:`tutor.text.NC_` ("Last round" as a heading)."""
        context, msgid = marked
        return cls(msgid, params, context=context)


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


def yes_no_choices() -> list[dict]:
    """Buttons for a yes/no question."""
    return [{"value": YES, "label": Text(N_("Yes"))}, {"value": NO, "label": Text(N_("No"))}]


def build(kind: str, params: dict, **fields) -> Question:
    """A question of ``kind`` with its prompt, hints and solution from content, all filled with ``params``
    (a text about a number of things is a plural table there: :meth:`Text.from_content`)."""
    entry = texts(kind)
    return Question(
        kind=kind,
        skill=entry["skill"],
        prompt=Text.from_content(entry["prompt"], params),
        hints=[Text.from_content(h, params) for h in entry["hints"]],
        solution=[Text.from_content(s, params) for s in entry["solution"]],
        **fields,
    )


def misconception(misconception_id: str, values) -> dict:
    """Wrong answers (exact values or choice values) that show a named misconception."""
    return {"id": misconception_id, "values": sorted({str(v) for v in values})}


#: Slips rather than misunderstandings, named alike in every question kind where they apply.
OFF_BY_ONE, TIMES_TEN, PLACE_VALUE = "off_by_one", "times_ten", "place_value"


def slips(
    right, whole: bool = True, which: tuple[str, ...] = (OFF_BY_ONE, TIMES_TEN, PLACE_VALUE)
) -> list[tuple[str, list[Fraction]]]:
    """Wrong answers that show a slip: one out, ten times too big or too small, the right digits in the wrong places.

    ``right`` is the right answer, a whole number or a fraction; with ``whole`` only whole
    numbers are slips (a pupil who must type a whole number does not type 4.2 for 42).
    Each generator lists them after its own misconceptions, which claim a value first.
    """
    right = Fraction(right)
    found: list[tuple[str, list[Fraction]]] = []
    if OFF_BY_ONE in which:
        found.append((OFF_BY_ONE, [v for v in (right - 1, right + 1) if v >= 0]))
    if TIMES_TEN in which and right:
        found.append((TIMES_TEN, [v for v in (right * 10, right / 10) if v.denominator == 1 or not whole]))
    if PLACE_VALUE in which and right.denominator == 1 and right >= 10:
        digits = str(right.numerator)
        swapped = {digits[:i] + digits[i + 1] + digits[i] + digits[i + 2 :] for i in range(len(digits) - 1)}
        found.append((PLACE_VALUE, sorted(Fraction(d) for d in swapped if d[0] != "0" and d != digits)))
    return found


#: The level of a question in a skill the lesson was given no level for: the easiest.
EASIEST = 1


def level_of(levels: dict[str, int], skill: str) -> int:
    """The level (1 to 3) chosen for the pupil's next question in ``skill`` (tutor.progress.choose_levels)."""
    return levels.get(skill, EASIEST)
