"""Skill ``four_ops``: build an expression with + - x / and brackets closest to a target (TripleSmart: Extreme).

The questions are TripleSmart's (:mod:`tutor.drills.add_sub`) with all four operations:
they take Kids2 card ids, and a value may be a fraction. Difficulty 1 gives a tip in the
prompt, 3 leaves out the last hint. Texts: ``content/drills/four_ops.toml``.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import permutations, product

from tutor.answers import ALLOW_FOUR_OPS
from tutor.drills import NUMBER, Question
from tutor.drills.add_sub import (
    better_question,
    card_tops,
    distance_question,
    expression_check,
    is_not_best,
    triplesmart_params,
)
from tutor.drills.common import ask_with_support, claim
from tutor.expressions import ADD_SUB, FOUR_OPS, closest, reachable
from tutor.signs import FRACTION, exact_text, formula, operators, plain_formula

#: Fields of the four_ops texts that show the signs and their rules, written in the reader's school signs.
FOUR_OPS_FIELDS = {
    "operations": operators("+-*/"),
    "times": operators("*"),
    "divide": operators("/"),
    "bracket_example": plain_formula("(2 + 3) * 4"),
    "bracket_inside": plain_formula("2 + 3"),
    "precedence": plain_formula("2 + 3 * 4 = 2 + 12 = 14"),
    "division": plain_formula("8 / 2 = 4"),
    "division_turned": formula(2, "/", 8, "=", Fraction(1, 4), form=FRACTION),
}


def _flat_values(numbers: tuple[Fraction, ...], ops: tuple[str, ...]) -> tuple[Fraction, Fraction]:
    """A bracket-free expression read left to right, and read properly (x and / before + and -)."""
    left_to_right = numbers[0]
    for op, n in zip(ops, numbers[1:]):
        left_to_right = _apply(left_to_right, op, n)
    total, term = Fraction(0), numbers[0]
    sign = 1
    for op, n in zip(ops, numbers[1:]):
        if op in "*/":
            term = _apply(term, op, n)
        else:
            total, term, sign = total + sign * term, n, (1 if op == "+" else -1)
    return left_to_right, total + sign * term


def _apply(a: Fraction, op: str, b: Fraction) -> Fraction:
    return a + b if op == "+" else a - b if op == "-" else a * b if op == "*" else a / b


@lru_cache(maxsize=2048)
def _forms(numbers: tuple[int, ...]) -> tuple[tuple[Fraction, tuple[Fraction, ...]], ...]:
    """Every bracketing and choice of operations over ``numbers`` in this order: (value, values with one
    division turned round)."""
    if len(numbers) == 1:
        return ((Fraction(numbers[0]), ()),)
    out = []
    for split in range(1, len(numbers)):
        for left, left_flips in _forms(numbers[:split]):
            for right, right_flips in _forms(numbers[split:]):
                for op in "+-*/":
                    if op == "/" and right == 0:
                        continue
                    flips = [_apply(f, op, right) for f in left_flips]
                    flips += [_apply(left, op, f) for f in right_flips if not (op == "/" and f == 0)]
                    if op == "/" and left != 0:
                        flips.append(right / left)
                    out.append((_apply(left, op, right), tuple(flips)))
    return tuple(out)


@lru_cache(maxsize=1024)
def _four_ops_slips(values: tuple[int, ...], target: int) -> tuple[frozenset, frozenset]:
    """Values a pupil reaches by a slip from a best expression: x and / not done first, or a division turned round."""
    best = closest(list(values), target, FOUR_OPS)[0]

    def good(value: Fraction) -> bool:
        return abs(value - target) <= best

    order, flipped = set(), set()
    for size in range(2, len(values) + 1):
        for chosen in set(permutations(values, size)):
            numbers = tuple(Fraction(v) for v in chosen)
            for ops in product("+-*/", repeat=size - 1):
                left_to_right, proper = _flat_values(numbers, ops)
                if good(left_to_right) and not good(proper):
                    order.add(proper)
            for value, flips in _forms(chosen):
                if good(value):
                    flipped.update(f for f in flips if not good(f))
    return frozenset(order), frozenset(flipped)


def triplesmart_extreme_expression(card_ids: list[int], target_card: int, difficulty: int = 2) -> Question:
    """Type an expression with + - x / and brackets and your cards' top numbers, each at most once, as close to
    the target as possible."""
    values, target = card_tops(card_ids, target_card)
    params, best_distance = triplesmart_params(values, target, FOUR_OPS, FOUR_OPS_FIELDS)
    order, flipped = _four_ops_slips(tuple(sorted(values)), target)
    plus_minus_distance = closest(values, target, ADD_SUB)[0]
    plus_minus_best = [v for v in reachable(values, ADD_SUB) if abs(v - target) == plus_minus_distance]
    candidates = [
        ("order_of_operations", order),
        ("divided_wrong_way", flipped),
        ("only_add_sub", plus_minus_best),
    ]
    return ask_with_support(
        "triplesmart_extreme_expression",
        params,
        difficulty,
        answer=NUMBER,
        allow=ALLOW_FOUR_OPS,
        check=expression_check(values, target, best_distance),
        misconceptions=claim(candidates, is_not_best(target, best_distance), exact_text),
        cards=[*card_ids, target_card],
        number_form=FRACTION,
    )


def triplesmart_extreme_distance(
    card_ids: list[int], target_card: int, value, difficulty: int = 2, maker: dict | None = None
) -> Question | None:
    """How far is the pupil's value (made with + - x /, maybe a fraction), or ``maker``'s, from the target? None
    after a perfect hit."""
    return distance_question("triplesmart_extreme_distance", card_ids, target_card, value, difficulty, maker)


def triplesmart_extreme_better(card_ids: list[int], target_card: int, value, difficulty: int = 2) -> Question | None:
    """Can + - x / with these cards get closer to the target than the pupil's value? (yes/no; None after a
    perfect hit)"""
    return better_question(
        "triplesmart_extreme_better", FOUR_OPS, card_ids, target_card, value, difficulty, FOUR_OPS_FIELDS
    )


GENERATORS = [triplesmart_extreme_expression, triplesmart_extreme_distance, triplesmart_extreme_better]
