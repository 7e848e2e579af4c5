"""Skill ``mean``: the mean of a card's four circled values, estimated and exact.

Crazy Banana: Extreme asks it about Kids2 cards given by id. The estimate is rounded to
tens, added and divided by 4, and counts within a tolerance stated by difficulty; the
exact mean may be typed as a whole number, fraction, mixed number or decimal (difficulty 1
gives the sum). A mean is written as a mixed number. Texts: ``content/drills/mean.toml``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction

from tutor.drills import NUMBER, Question
from tutor.drills.common import (
    PLACE_VALUE,
    TIMES_TEN,
    ask,
    build,
    check_difficulty,
    claim,
    number_card,
    plus,
    slips,
)
from tutor.drills.estimate_sum import round_to_ten
from tutor.signs import MIXED, exact_text, formula, fraction_text

#: The stated tolerance of an estimated mean, by difficulty (never tighter than the taught rounding needs).
MEAN_TOLERANCE = {1: 5, 2: 3, 3: 2}


def round_half_up(value: Fraction) -> int:
    return math.floor(value + Fraction(1, 2))


def _one_decimal(value: Fraction) -> list[Fraction]:
    """``value`` cut or rounded to one decimal, when it has more (57.75 -> 57.7, 57.8)."""
    tenths = value * 10
    return [] if tenths.denominator == 1 else [Fraction(math.floor(tenths), 10), Fraction(math.ceil(tenths), 10)]


def _middle_values(values: Sequence[int]) -> list[Fraction]:
    middle = sorted(values)[1:3]
    return [Fraction(middle[0]), Fraction(middle[1]), Fraction(sum(middle), 2)]


def _around(centre: Fraction, spread: int) -> list[Fraction]:
    """``centre`` and the whole numbers within ``spread`` of it."""
    return [centre] + [Fraction(v) for v in range(math.floor(centre - spread), math.ceil(centre + spread) + 1)]


def _unworked(sums: Iterable, count: int) -> list[str]:
    """The divisions a mean question asks to work out, refused when typed back ("224/4": type the result).

    A sum over 4 that is already in simplest form ("213/4") is a fraction answer like any other.
    """
    return [f"{int(s)}/{count}" for s in sums if math.gcd(int(s), count) > 1]


def mean_estimate(card_id: int, difficulty: int = 2) -> Question:
    """Estimate the mean of a card's four circled values (round to tens, add, divide by 4) within a stated tolerance."""
    difficulty = check_difficulty(difficulty)
    values = number_card(card_id).circled
    total = sum(values)
    mean = Fraction(total, len(values))
    rounded = [round_to_ten(v) for v in values]
    estimate = Fraction(sum(rounded), len(values))
    # The taught estimate always counts, also when it is rounded once more to a whole number.
    tolerance = max(MEAN_TOLERANCE[difficulty], math.ceil(abs(estimate - mean) + Fraction(1, 2)))
    params = {
        "values": ", ".join(map(str, values)),
        "rounding": ", ".join(f"{v} ≈ {r}" for v, r in zip(values, rounded)),
        "rounded_expr": plus(rounded),
        "rounded_sum": sum(rounded),
        "estimate": fraction_text(estimate, MIXED),
        "estimate_division": formula(sum(rounded), "/", len(values), "=", estimate, form=MIXED),
        "tolerance": tolerance,
        "sum_expr": plus(values),
        "sum": total,
        "mean": fraction_text(mean, MIXED),
        "mean_division": formula(total, "/", len(values), "=", mean, form=MIXED),
        "low": fraction_text(mean - tolerance, MIXED),
        "high": fraction_text(mean + tolerance, MIXED),
    }
    sums = [Fraction(total), Fraction(sum(rounded))]
    candidates = [
        ("forgot_to_divide", [v for s in sums for v in _around(s, tolerance)]),
        ("wrong_count", [v for s in sums for count in (3, 2) for v in _around(s / count, tolerance)]),
        ("median_like", _middle_values(values) + [Fraction(round_to_ten(v)) for v in sorted(values)[1:3]]),
        *slips(mean, whole=False, which=(TIMES_TEN, PLACE_VALUE)),
        *slips(estimate, whole=False, which=(TIMES_TEN, PLACE_VALUE)),
    ]
    return build(
        "mean_estimate",
        params,
        answer=NUMBER,
        check={
            "rule": "within_tolerance",
            "expected": exact_text(mean),
            "tolerance": str(tolerance),
            "unworked": _unworked(sums, len(values)),
        },
        misconceptions=claim(candidates, lambda v: abs(v - mean) > tolerance, exact_text),
        cards=[card_id],
        difficulty=difficulty,
        number_form=MIXED,
    )


def mean_exact(card_id: int, difficulty: int = 2) -> Question:
    """The exact mean of a card's four circled values (a whole number, fraction, mixed number or decimal).

    Difficulty 1 gives the sum in the prompt.
    """
    difficulty = check_difficulty(difficulty)
    values = number_card(card_id).circled
    total = sum(values)
    count = len(values)
    mean = Fraction(total, count)
    quotient, remainder = divmod(total, count)
    params = {
        "values": ", ".join(map(str, values)),
        "sum_expr": plus(values),
        "sum": total,
        "half": fraction_text(Fraction(total, 2), MIXED),
        "halving": formula(total, "/", 2, "=", Fraction(total, 2), form=MIXED),
        "mean": fraction_text(mean, MIXED),
        "division": formula(total, "/", count, form=MIXED),
        "mean_division": formula(total, "/", count, "=", mean, form=MIXED),
        "quotient": quotient,
        "remainder": remainder,
    }
    candidates = [
        ("forgot_to_divide", [Fraction(total)]),
        (
            "wrong_count",
            [
                v
                for d in (3, 2)
                for v in (Fraction(total, d), Fraction(total // d), Fraction(round_half_up(Fraction(total, d))))
            ],
        ),
        ("remainder_as_decimal", [quotient + Fraction(remainder, 10)]),
        ("rounded_mean", [Fraction(math.floor(mean)), Fraction(math.ceil(mean))] + _one_decimal(mean)),
        ("median_like", _middle_values(values)),
        *slips(mean, whole=False),
    ]
    return ask(
        "mean_exact",
        params,
        ["sum_given"] if difficulty == 1 else [],
        answer=NUMBER,
        check={"rule": "equals", "expected": exact_text(mean), "unworked": _unworked([total], count)},
        misconceptions=claim(candidates, lambda v: v != mean, exact_text),
        cards=[card_id],
        difficulty=difficulty,
        number_form=MIXED,
    )


GENERATORS = [mean_estimate, mean_exact]
