"""Skill ``estimate_sum``: estimate the sum of a card's four circled values by rounding, and pick the best card.

Calculation War and Crazy Banana: Overslag ask it about Kids2 cards, given by id; the
cards' values come from the Kids2 deck. Texts: ``content/drills/estimate_sum.toml``.
"""

from __future__ import annotations

from tutor.deck import kids2
from tutor.drills import CHOICE, NUMBER, Question
from tutor.drills.common import PLACE_VALUE, TIMES_TEN, build, claim, misconception, plus, slips
from tutor.drills.exact_sum import adding_lines
from tutor.text import N_, Text

#: The stated tolerance of an estimate, by difficulty.
TOLERANCE = {1: 20, 2: 10, 3: 5}


def round_to_ten(value: int) -> int:
    """Round half up to the nearest ten, as pupils are taught (45 -> 50)."""
    return 10 * ((value + 5) // 10)


def estimate_card_sum(card_id: int, difficulty: int = 2) -> Question:
    """Estimate one card's circled sum within a stated tolerance."""
    card = kids2()[card_id]
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
    # A zero or a digit off the exact sum or off the taught estimate.
    slipped: dict[str, list] = {TIMES_TEN: [], PLACE_VALUE: []}
    for total in (exact, sum(rounded)):
        for misconception_id, values in slips(total, which=(TIMES_TEN, PLACE_VALUE)):
            slipped[misconception_id] += values
    return build(
        "estimate_card_sum",
        params,
        answer=NUMBER,
        check={"rule": "within_tolerance", "expected": str(exact), "tolerance": str(tolerance)},
        misconceptions=claim(
            [("truncated", [truncated]), ("added_top", with_top), ("left_out_value", left_out), *slipped.items()],
            lambda v: abs(v - exact) > tolerance,
            keep_empty=True,
        ),
        cards=[card_id],
        difficulty=difficulty,
    )


def sum_card_choices(card_ids: list[int], labels: dict[int, Text] | None = None) -> list[dict]:
    """A button for each Kids2 card, labelled by its circled values unless ``labels`` names it.

    A label of circled values only describes the card drawn on the button (``describes_card``):
    screen readers say it, the page does not print it under the card again.
    """
    labels = labels or {}
    return [
        {"value": str(card_id), "card": card_id, "label": labels[card_id]}
        if card_id in labels
        else {
            "value": str(card_id),
            "card": card_id,
            "label": Text(N_("card with %(values)s"), {"values": plus(kids2()[card_id].circled)}),
            "describes_card": True,
        }
        for card_id in card_ids
    ]


def sum_comparison_misconceptions(card_ids: list[int], best: set[int]) -> list[dict]:
    """Which card a pupil picks who compares the top numbers, the biggest single values, or wants the lowest sum."""
    cards = [kids2()[c] for c in card_ids]
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
    """Pick the card with the highest circled sum from a hand (card buttons); the worked solution adds each card."""
    sums = {card_id: kids2()[card_id].circled_sum for card_id in hand}
    best_sum = max(sums.values())
    best = {card_id for card_id, total in sums.items() if total == best_sum}
    params = {
        "estimates": "; ".join(
            f"{plus(kids2()[c].circled)} ≈ {sum(round_to_ten(v) for v in kids2()[c].circled)}" for c in hand
        ),
        "best_sum": best_sum,
        "best_values": plus(kids2()[min(best)].circled),
    }
    question = build(
        "best_card",
        params,
        answer=CHOICE,
        check={"rule": "choice", "expected": sorted(str(c) for c in best)},
        misconceptions=sum_comparison_misconceptions(hand, best),
        choices=sum_card_choices(hand),
        cards=list(hand),
        difficulty=difficulty,
    )
    question.solution = [*adding_lines("best_card", hand), *question.solution]
    return question


GENERATORS = [estimate_card_sum, best_card]
