"""Skill ``multiply``: the product of two Kids2 cards' top numbers, times tables 1 to 9.

MultiWar and MultiMatch ask it about cards given by id. The product is typed at every
difficulty; the difficulty sets the support (a tip in the prompt at 1, the last hint left
out at 3), and a typed wrong product that a misconception lists is named. Texts:
``content/drills/multiply.toml``.
"""

from __future__ import annotations

from tutor.drills import Question
from tutor.drills.common import (
    OFF_BY_ONE,
    TIMES_TEN,
    ask_with_support,
    check_difficulty,
    claim,
    number_answer,
    number_card,
    slips,
)
from tutor.signs import formula


def times_steps(step: int, count: int) -> str:
    """Counting in steps: "7, 14, 21" for three steps of 7."""
    return ", ".join(str(step * k) for k in range(1, count + 1))


def multiply_top_numbers(card_a: int, card_b: int, difficulty: int = 2) -> Question:
    """The product of two cards' top numbers (MultiWar, MultiMatch)."""
    check_difficulty(difficulty)
    kind = "multiply_top_numbers"
    a, b = number_card(card_a).top, number_card(card_b).top
    right = a * b
    big, small = max(a, b), min(a, b)
    params = {
        "a": a,
        "b": b,
        "big": big,
        "small": small,
        "sum": a + b,
        "steps": times_steps(big, small),
        "before": small - 1,
        "before_product": big * (small - 1),
        "before_fact": formula(small - 1, "*", big, "=", big * (small - 1)),
        "product": right,
        "product_question": formula(a, "*", b),
        "fact": formula(a, "*", b, "=", right),
        "small_times_ten": formula(small, "*", 10),
    }
    neighbours = {x * y for x, y in ((a, b - 1), (a, b + 1), (a - 1, b), (a + 1, b)) if x >= 1 and y >= 1}
    swapped = [int(str(right)[::-1])] if right >= 10 and right % 10 else []
    one_or_ten_out = [(mid, [int(v) for v in values]) for mid, values in slips(right, which=(OFF_BY_ONE, TIMES_TEN))]
    misconceptions = claim(
        [("added", [a + b]), ("neighbour_fact", sorted(neighbours)), ("digits_swapped", swapped), *one_or_ten_out],
        lambda v: v != right,
        keep_empty=True,
    )
    return ask_with_support(
        kind,
        params,
        difficulty,
        **number_answer(right),
        misconceptions=misconceptions,
        cards=[card_a, card_b],
        hides_result=True,
    )


GENERATORS = [multiply_top_numbers]
