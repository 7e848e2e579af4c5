"""Skill ``factor_pairs``: which two cards multiply to a circled value, and what times a card makes one.

MultiMatch asks it about Kids2 cards given by id (the pupil's hand and the top discard;
only top numbers are multiplied). Pair buttons: 2 of them at difficulty 1, 3 at 2, 5 at 3,
always with "no pair works"; the wrong ones offered first are those that show a
misconception. The missing factor is typed at every difficulty, which picks the circled
value and sets the support (a tip in the prompt at 1, the last hint left out at 3).
Texts: ``content/drills/factor_pairs.toml``.
"""

from __future__ import annotations

from itertools import combinations

from tutor.deck import Card, kids2
from tutor.drills import CHOICE, Question
from tutor.drills.common import (
    NONE,
    ask_with_support,
    build,
    card_label,
    check_difficulty,
    claim,
    label,
    number_answer,
    number_card,
    pick,
    round_robin,
)
from tutor.drills.multiply import times_steps
from tutor.signs import formula, listing

#: How many pairs of the pupil's cards are offered as buttons, by difficulty.
PAIR_BUTTONS = {1: 2, 2: 3, 3: 5}


def _distinct_pairs(hand: list[int]) -> list[tuple[Card, Card]]:
    """Pairs of the hand's number cards, in hand order; two pairs that look the same are offered once."""
    if len(set(hand)) != len(hand):
        raise ValueError("a card is twice in the hand")
    cards = [kids2()[c] for c in hand if not kids2()[c].is_special]
    if len(cards) < 2:
        raise ValueError("a pair needs two number cards in the hand")
    seen, pairs = set(), []
    for first, second in combinations(cards, 2):
        looks = tuple(sorted([(first.colour, first.top), (second.colour, second.top)]))
        if looks not in seen:
            seen.add(looks)
            pairs.append((first, second))
    return pairs


def _pair_value(pair: tuple[Card, Card]) -> str:
    return f"{pair[0].id},{pair[1].id}"


def _pair_question(
    kind: str,
    hand: list[int],
    targets: list[int],
    wrong_targets: tuple[str, list[int]],
    difficulty: int,
    params: dict,
    cards: list[int],
) -> Question:
    """Which offered pair of the hand's cards multiplies (top numbers) to one of ``targets``; or none."""
    pairs = _distinct_pairs(hand)

    def product_of(pair):
        return pair[0].top * pair[1].top

    def off_by_a_step(pair):
        x, y = pair[0].top, pair[1].top
        return any(v in targets for v in ((x - 1) * y, (x + 1) * y, x * (y - 1), x * (y + 1)))

    right = [p for p in pairs if product_of(p) in targets]
    wrong_id, wrong_values = wrong_targets
    candidates = [
        ("sum_not_product", [p for p in pairs if p[0].top + p[1].top in targets]),
        ("table_step_off", [p for p in pairs if off_by_a_step(p)]),
        (wrong_id, [p for p in pairs if product_of(p) in wrong_values(p)]),
    ]
    ranked = round_robin([[p for p in group if p not in right] for _, group in candidates])
    offered = pick(right, ranked, pairs, PAIR_BUTTONS[difficulty])
    labels = {
        _pair_value(p): label(
            kind, "pair", first=card_label(kind, p[0]).to_dict(), second=card_label(kind, p[1]).to_dict()
        )
        for p in offered
    }
    choices = [{"value": value, "label": text} for value, text in labels.items()]
    choices.append({"value": NONE, "label": label(kind, NONE)})
    expected = sorted(_pair_value(p) for p in right if p in offered) or [NONE]
    answer = labels[expected[0]] if right else label(kind, NONE)
    in_pairs = {card.id for pair in offered for card in pair}
    cards = [c for c in cards if c not in hand or c in in_pairs]  # the top card and the cards on the buttons
    params = {
        **params,
        "tops": ", ".join(str(kids2()[c].top) for c in hand if not kids2()[c].is_special),
        "products": listing([formula(p[0].top, "*", p[1].top, "=", product_of(p)) for p in offered]),
        "answer": answer.to_dict(),
    }
    return build(
        kind,
        params,
        answer=CHOICE,
        check={"rule": "choice", "expected": expected},
        misconceptions=claim(
            [(mid, [_pair_value(p) for p in group]) for mid, group in candidates],
            lambda value: value not in expected,
            keep_empty=True,
        ),
        choices=choices,
        cards=cards,
        difficulty=difficulty,
    )


def factor_pair_cards(hand: list[int], discard: int, difficulty: int = 2) -> Question:
    """Which two of your cards multiply (top numbers) to one of the top discard's circled values (MultiMatch)."""
    check_difficulty(difficulty)
    top = number_card(discard)
    targets = list(top.circled)
    params = {"values": ", ".join(map(str, targets))}
    # Looking at the pair's own circled values instead of the top discard's.
    own = ("own_card_value", lambda pair: [*pair[0].circled, *pair[1].circled])
    return _pair_question("factor_pair_cards", hand, targets, own, difficulty, params, [discard, *hand])


def factor_pair_for_value(hand: list[int], value: int, difficulty: int = 2, discard: int | None = None) -> Question:
    """Which two of your cards multiply (top numbers) to ``value`` (one circled value of the top discard)."""
    check_difficulty(difficulty)
    others = [v for v in number_card(discard).circled if v != value] if discard is not None else []
    params = {"target": value}
    other = ("other_circled_value", lambda pair: others)
    cards = ([discard] if discard is not None else []) + list(hand)
    return _pair_question("factor_pair_for_value", hand, [value], other, difficulty, params, cards)


def reachable_values(card_id: int, discard: int) -> list[int]:
    """The discard's circled values that the card's top number times a top number 1-9 makes."""
    n = number_card(card_id).top
    return sorted({v for v in number_card(discard).circled if v % n == 0 and 1 <= v // n <= 9})


def missing_factor(card_id: int, discard: int, difficulty: int = 2, value: int | None = None) -> Question:
    """What times your card's top number makes a circled value of the top discard (typed at every difficulty)."""
    check_difficulty(difficulty)
    kind = "missing_factor"
    n = number_card(card_id).top
    reachable = reachable_values(card_id, discard)
    if value is None:
        if not reachable:
            raise ValueError(f"no circled value of card {discard} is {n} times a top number")
        value = reachable[{1: 0, 2: len(reachable) // 2, 3: -1}[difficulty]]
    if value % n or not 1 <= value // n <= 9:
        raise ValueError(f"{value} is not {n} times a top number 1-9")
    right = value // n
    params = {
        "n": n,
        "value": value,
        "steps_start": times_steps(n, min(2, right)),
        "before": right - 1,
        "before_product": n * (right - 1),
        "before_fact": formula(right - 1, "*", n, "=", n * (right - 1)),
        "quotient": right,
        "fact": formula(right, "*", n, "=", value),
        "all_steps": times_steps(n, right),
    }
    others = [v // n for v in reachable if v != value]
    misconceptions = claim(
        [
            ("subtracted", [value - n] if value > n else []),
            ("table_step_off", [q for q in (right - 1, right + 1) if q >= 1]),
            ("other_circled_value", others),
        ],
        lambda v: v != right,
        keep_empty=True,
    )
    return ask_with_support(
        kind, params, difficulty, **number_answer(right), misconceptions=misconceptions, cards=[card_id, discard]
    )


GENERATORS = [factor_pair_cards, factor_pair_for_value, missing_factor]
