"""What the skill modules share: one copy of each helper a question is built with.

A generator checks its difficulty, names the wrong answers that show a misconception
(:func:`claim`, the more telling mistake first), and builds its question from the kind's
texts in ``content/drills/<skill>.toml`` (:func:`build`, or :func:`ask` with the kind's
``[kind.cases.<name>]`` tables laid over them). Button labels come from the kind's
``[kind.labels]`` table; the cards are looked up here, Kids2 cards by id in
:mod:`tutor.deck` and standard cards in :mod:`tutor.standard_deck`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction

from tutor.deck import Card, kids2
from tutor.drills import NO, NUMBER, YES, Question, texts
from tutor.text import COLOUR_ADJECTIVE, N_, Text

DIFFICULTIES = (1, 2, 3)
#: The choice value of "none of them" (no pair, no card, no fraction fits).
NONE = "none"
#: Slips rather than misunderstandings, named alike in every question kind where they apply.
OFF_BY_ONE, TIMES_TEN, PLACE_VALUE = "off_by_one", "times_ten", "place_value"


def check_difficulty(difficulty: int) -> int:
    """The difficulty as a whole number 1, 2 or 3; anything else is refused."""
    if isinstance(difficulty, bool) or difficulty not in DIFFICULTIES:
        raise ValueError(f"difficulty must be 1, 2 or 3, not {difficulty!r}")
    return int(difficulty)


def check_whole_numbers(*numbers: int) -> None:
    """Refuse counts and numbers to compare that are not whole numbers, 0 or more."""
    if any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in numbers):
        raise ValueError(f"whole numbers, 0 or more, are needed: {numbers!r}")


# --- building a question from its texts ---------------------------------------------------------


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


def ask(kind: str, params: dict, cases: Iterable[str] = (), **fields) -> Question:
    """:func:`build`, then each named case's prompt, hints or solution (``[kind.cases.<name>]``) replaces
    the kind's own, in order; a case the kind has no table for changes nothing."""
    question = build(kind, params, **fields)
    tables = texts(kind).get("cases", {})
    for case in cases:
        variant = tables.get(case, {})
        if "prompt" in variant:
            question.prompt = Text.from_content(variant["prompt"], params)
        if "hints" in variant:
            question.hints = [Text.from_content(hint, params) for hint in variant["hints"]]
        if "solution" in variant:
            question.solution = [Text.from_content(step, params) for step in variant["solution"]]
    return question


def ask_with_support(kind: str, params: dict, difficulty: int, cases: Iterable[str] = (), **fields) -> Question:
    """:func:`ask` where the difficulty sets the support: 1 adds a tip to the prompt (the kind's ``easy``
    case, before the other cases), 2 asks plainly, 3 leaves out the last hint, the one that nearly gives
    the answer (the worked solution still shows it). TripleSmart, 29, Războiul and every typed card count,
    product and tens-friend (:func:`number_answer`) ask this way."""
    difficulty = check_difficulty(difficulty)
    question = ask(kind, params, [*(["easy"] if difficulty == 1 else []), *cases], difficulty=difficulty, **fields)
    if difficulty == 3:
        question.hints = question.hints[:-1]
    return question


def label(kind: str, key: str, **params) -> Text:
    """A button label of ``kind`` (``[kind.labels] key`` in the content file)."""
    return Text(texts(kind)["labels"][key], params)


def yes_no_choices() -> list[dict]:
    """Buttons for a yes/no question."""
    return [{"value": YES, "label": Text(N_("Yes"))}, {"value": NO, "label": Text(N_("No"))}]


def number_answer(right: int) -> dict:
    """The fields of a question whose answer is a whole number: typed at every difficulty, never picked from
    buttons, as a tap on one of three is a guess that looks like knowing (the difficulty sets the support,
    :func:`ask_with_support`). A typed wrong value that a misconception lists is named as before."""
    return {"answer": NUMBER, "check": {"rule": "equals", "expected": str(right)}}


def pick(right: list, ranked: list, everything: list, limit: int) -> list:
    """Up to ``limit`` items to offer as buttons, right ones and then misconception ones first,
    in ``everything``'s order."""
    chosen: list = []
    for item in [*right, *ranked, *everything]:
        if item not in chosen and len(chosen) < limit:
            chosen.append(item)
    return [item for item in everything if item in chosen]


def round_robin(groups: list[list]) -> list:
    """The first of each group, then the second of each, and so on."""
    out: list = []
    for layer in range(max((len(g) for g in groups), default=0)):
        out.extend(g[layer] for g in groups if layer < len(g))
    return out


def plus(values) -> str:
    """Numbers written as a sum: "12 + 7 + 30"."""
    return " + ".join(str(v) for v in values)


def summed(numbers) -> list:
    """Numbers with "+" between them, as terms of :func:`tutor.signs.formula`: 4, "+", 4, "+", 2."""
    terms: list = []
    for position, number in enumerate(numbers):
        terms += (["+"] if position else []) + [number]
    return terms


# --- misconceptions ------------------------------------------------------------------------------


def misconception(misconception_id: str, values) -> dict:
    """Wrong answers (exact values or choice values) that show a named misconception."""
    return {"id": misconception_id, "values": sorted({str(v) for v in values})}


def claim(
    candidates: Iterable[tuple[str, Iterable]],
    is_wrong: Callable[[object], bool] = lambda value: True,
    show: Callable[[object], str] = str,
    keep_empty: bool = False,
) -> list[dict]:
    """Misconceptions in priority order: a wrong answer is named only by the first that lists it.

    ``candidates`` are (misconception id, values) pairs, the more telling mistake first. A
    value is stored as ``show(value)`` (an exact value as text, or a choice value) and named
    only when ``is_wrong(value)``, so a right answer is never named; ``None`` stands for a
    value the mistake cannot give (a chance with nothing to divide by). An id listed twice
    gathers its values in one entry. A misconception left without values is dropped, or
    kept with none with ``keep_empty`` (as the number-fact and card-sum questions store them).
    """
    taken: set[str] = set()
    named: dict[str, set[str]] = {}
    for misconception_id, values in candidates:
        fresh = {show(v) for v in values if v is not None and is_wrong(v)} - taken
        taken |= fresh
        if fresh or keep_empty:
            named.setdefault(misconception_id, set()).update(fresh)
    return [misconception(misconception_id, values) for misconception_id, values in named.items()]


def wrong_choice(right: Iterable[str], choices: list[dict]) -> Callable[[str], bool]:
    """For :func:`claim`: whether a choice value is a wrong answer on one of the buttons."""
    right, shown = set(right), {choice["value"] for choice in choices}
    return lambda value: value not in right and value in shown


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


# --- cards ---------------------------------------------------------------------------------------


def number_card(card_id: int) -> Card:
    """The Kids2 number card with this id; a special card (banana, Kocha) has no top number and is refused."""
    deck = kids2()
    if isinstance(card_id, bool) or not isinstance(card_id, int) or not 0 <= card_id < len(deck):
        raise ValueError(f"{card_id!r} is not a card of the Kids2 deck")
    if deck[card_id].is_special:
        raise ValueError(f"card {card_id} is a special card without a top number")
    return deck[card_id]


def card_label(kind: str, card: Card) -> Text:
    """A Kids2 card on a button, its colour describing it ("the green 7"), as the cards' names for
    screen readers say it (the kind's ``card`` label)."""
    colour = Text.in_context((COLOUR_ADJECTIVE, kids2().colour(card.colour).name)).to_dict()
    return label(kind, "card", colour=colour, top=card.top)
