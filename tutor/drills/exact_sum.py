"""Skill ``exact_sum``: add a card's four two-digit circled values exactly, tens first, then ones.

Asked by Calculation War and the Crazy Banana games when a card's sum is close to
another's, about a Kids2 card given by id; the prompt names the card's values and never
says that an estimate was not enough (the pupil may not have estimated anything). The
worked solutions of the card-sum questions add each card this way (:func:`adding_lines`).
Texts: ``content/drills/exact_sum.toml``.
"""

from __future__ import annotations

from tutor.deck import kids2
from tutor.drills import NUMBER, Question, texts
from tutor.drills.common import build, claim, plus, slips, summed
from tutor.signs import formula
from tutor.text import Text


def split_by_tens(values: list[int]) -> dict:
    """A sum added tens first, then ones, as a text's fields: ``values`` "37 + 45" and ``steps``
    "30 + 40 = 70, 7 + 5 = 12, 70 + 12 = 82"."""
    tens = [10 * (v // 10) for v in values]
    ones = [v % 10 for v in values]
    tens_step = [*summed(tens), "=", sum(tens)]
    ones_step = [*summed(ones), "=", sum(ones)]
    steps = formula(*tens_step, ",", *ones_step, ",", sum(tens), "+", sum(ones), "=", sum(values))
    return {"values": formula(*summed(values)), "steps": steps}


def adding_lines(kind: str, card_ids: list[int]) -> list[Text]:
    """One worked line per Kids2 card, its circled values added by tens and ones (the kind's ``adding`` phrase)."""
    phrase = texts(kind)["phrases"]["adding"]["text"]
    return [Text(phrase, split_by_tens(kids2()[card_id].circled)) for card_id in card_ids]


def exact_card_sum(card_id: int, difficulty: int = 2) -> Question:
    """Add one card's four circled values exactly (asked when estimates cannot decide)."""
    card = kids2()[card_id]
    exact = card.circled_sum
    tens = [10 * (v // 10) for v in card.circled]
    ones = [v % 10 for v in card.circled]
    params = {
        "tens_expr": plus(tens),
        "tens": sum(tens),
        "ones_expr": plus(ones),
        "ones": sum(ones),
        "exact": exact,
        "values": ", ".join(map(str, card.circled)),
    }
    carries = [exact - 10 * k for k in range(1, sum(ones) // 10 + 1)]
    return build(
        "exact_card_sum",
        params,
        answer=NUMBER,
        check={"rule": "equals", "expected": str(exact)},
        misconceptions=claim(
            [
                ("carry_forgotten", carries),
                ("left_out_value", [exact - v for v in card.circled]),
                ("added_top", [exact + card.top]),
                *slips(exact),
            ],
            lambda v: v != exact,
            keep_empty=True,
        ),
        cards=[card_id],
        difficulty=difficulty,
    )


GENERATORS = [exact_card_sum]
