"""Questions about the sums of circled values: estimate, pick the best card, add exactly, compare.

Used by Calculation War (and later the Crazy Banana games). Each generator works on
card ids from the live position; the cards' values come from the Kids2 deck.
"""

from __future__ import annotations

from tutor.deck import Card, kids2
from tutor.drills import CHOICE, NUMBER, PLACE_VALUE, TIMES_TEN, Question, Text, build, misconception, slips
from tutor.text import N_

#: The stated tolerance of an estimate, by difficulty.
TOLERANCE = {1: 20, 2: 10, 3: 5}


def round_to_ten(value: int) -> int:
    """Round half up to the nearest ten, as pupils are taught (45 -> 50)."""
    return 10 * ((value + 5) // 10)


def plus(values) -> str:
    return " + ".join(str(v) for v in values)


def _card(card_id: int) -> Card:
    return kids2()[card_id]


def _claimed(candidates, is_wrong) -> list[dict]:
    """Misconceptions in priority order: a wrong value is named only by the first that lists it."""
    taken: set[str] = set()
    named = []
    for misconception_id, values in candidates:
        fresh = {str(v) for v in values if is_wrong(v)} - taken
        taken |= fresh
        named.append(misconception(misconception_id, fresh))
    return named


def estimate_card_sum(card_id: int, difficulty: int = 2) -> Question:
    """Estimate one card's circled sum within a stated tolerance."""
    card = _card(card_id)
    rounded = [round_to_ten(v) for v in card.circled]
    exact = card.circled_sum
    # Never tighter than the error of the rounding the hints teach, so the taught method always counts.
    tolerance = max(TOLERANCE[difficulty], abs(sum(rounded) - exact))
    params = {
        "tolerance": tolerance,
        "rounded": ", ".join(map(str, rounded)),
        "rounded_expr": plus(rounded),
        "rounded_sum": sum(rounded),
        "rounding": ", ".join(f"{v} ≈ {r}" for v, r in zip(card.circled, rounded)),
        "exact_expr": plus(card.circled),
        "exact": exact,
        "low": exact - tolerance,
        "high": exact + tolerance,
    }

    truncated = sum(10 * (v // 10) for v in card.circled)
    with_top = [exact + card.top + d for d in range(-tolerance, tolerance + 1)]
    left_out = [exact - v + d for v in card.circled for d in range(-tolerance, tolerance + 1)]
    slipped: dict[str, list] = {
        TIMES_TEN: [],
        PLACE_VALUE: [],
    }  # a zero or a digit off the exact sum or the taught estimate
    for total in (exact, sum(rounded)):
        for misconception_id, values in slips(total, which=(TIMES_TEN, PLACE_VALUE)):
            slipped[misconception_id] += values
    return build(
        "estimate_card_sum",
        params,
        answer=NUMBER,
        check={"rule": "within_tolerance", "expected": str(exact), "tolerance": str(tolerance)},
        misconceptions=_claimed(
            [("truncated", [truncated]), ("added_top", with_top), ("left_out_value", left_out), *slipped.items()],
            lambda v: abs(v - exact) > tolerance,
        ),
        cards=[card_id],
        difficulty=difficulty,
    )


def _card_choices(card_ids: list[int], labels: dict[int, Text] | None = None) -> list[dict]:
    return [
        {
            "value": str(card_id),
            "card": card_id,
            "label": (labels or {}).get(card_id)
            or Text(N_("card with %(values)s"), {"values": plus(_card(card_id).circled)}),
        }
        for card_id in card_ids
    ]


def _comparison_misconceptions(card_ids: list[int], best: set[int]) -> list[dict]:
    cards = [_card(c) for c in card_ids]
    top = max(card.top for card in cards)
    single = max(max(card.circled) for card in cards)
    lowest = min(card.circled_sum for card in cards)
    wrong = [card for card in cards if card.id not in best]
    return [
        misconception("highest_top", [c.id for c in wrong if c.top == top]),
        misconception("biggest_single_value", [c.id for c in wrong if single in c.circled]),
        misconception("lowest_sum", [c.id for c in wrong if c.circled_sum == lowest]),
    ]


def best_card(hand: list[int], difficulty: int = 2) -> Question:
    """Pick the card with the highest circled sum from a hand (answered with card buttons)."""
    sums = {card_id: _card(card_id).circled_sum for card_id in hand}
    best_sum = max(sums.values())
    best = {card_id for card_id, total in sums.items() if total == best_sum}
    params = {
        "estimates": "; ".join(
            f"{plus(_card(c).circled)} ≈ {sum(round_to_ten(v) for v in _card(c).circled)}" for c in hand
        ),
        "sums": "; ".join(f"{plus(_card(c).circled)} = {sums[c]}" for c in hand),
        "best_sum": best_sum,
        "best_values": plus(_card(min(best)).circled),
    }
    return build(
        "best_card",
        params,
        answer=CHOICE,
        check={"rule": "choice", "expected": sorted(str(c) for c in best)},
        misconceptions=_comparison_misconceptions(hand, best),
        choices=_card_choices(hand),
        cards=list(hand),
        difficulty=difficulty,
    )


def exact_card_sum(card_id: int, difficulty: int = 2) -> Question:
    """Add one card's four circled values exactly (asked when estimates cannot decide)."""
    card = _card(card_id)
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
        misconceptions=_claimed(
            [
                ("carry_forgotten", carries),
                ("left_out_value", [exact - v for v in card.circled]),
                ("added_top", [exact + card.top]),
                *slips(exact),
            ],
            lambda v: v != exact,
        ),
        cards=[card_id],
        difficulty=difficulty,
    )


def winning_card(table: list[int], labels: dict[int, Text], difficulty: int = 2) -> Question:
    """Which of the cards on the table wins (answered with card buttons; the result stays hidden)."""
    sums = {card_id: _card(card_id).circled_sum for card_id in table}
    best_sum = max(sums.values())
    best = {card_id for card_id, total in sums.items() if total == best_sum}
    params = {"sums": ", ".join(str(sums[c]) for c in table), "best_sum": best_sum}
    return build(
        "winning_card",
        params,
        answer=CHOICE,
        check={"rule": "choice", "expected": sorted(str(c) for c in best)},
        misconceptions=_comparison_misconceptions(table, best),
        choices=_card_choices(table, labels),
        cards=list(table),
        difficulty=difficulty,
        hides_result=True,
    )


GENERATORS = {
    "estimate_sum": [estimate_card_sum, best_card],
    "exact_sum": [exact_card_sum],
    "compare": [winning_card],
}
