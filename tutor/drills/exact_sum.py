"""Skill ``exact_sum``: add a card's four two-digit circled values exactly, tens first, then ones.

Asked by Calculation War and Crazy Banana: Overslag when estimates cannot decide, about a
Kids2 card given by id. Texts: ``content/drills/exact_sum.toml``.
"""

from __future__ import annotations

from tutor.deck import kids2
from tutor.drills import NUMBER, Question
from tutor.drills.common import build, claim, plus, slips


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
