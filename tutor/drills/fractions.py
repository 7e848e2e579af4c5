"""Skill ``fractions``: compare, order and place fractions in an interval (Fraction Master).

A fraction is made of two Kids2 number cards' top numbers, the numerator card first, and
is shown as laid ("6/8", never reduced). An interval is four card ids laid as two
fractions (c/d, then e/f; either may be the larger). A hand is a list of distinct card
ids; a pupil's fraction is any two of them in order.

Where the position leaves a choice, the generator picks what to ask by difficulty (a
fraction far from the interval's ends, or one on or next to an end; a clear or a
misleading pair of fractions), and choice questions show more buttons when harder. A
kind's ``[kind.cases.<name>]`` tables hold variants the generator chooses (strict
intervals, the outcome a worked solution explains); button labels are in
``[kind.labels]``. Texts: ``content/drills/fractions.toml``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, permutations

from tutor.drills import CHOICE, NO, YES, Question
from tutor.drills.common import (
    NONE,
    ask,
    check_difficulty,
    claim,
    label,
    misconception,
    number_card,
    wrong_choice,
    yes_no_choices,
)
from tutor.signs import FRACTION, formula

EQUAL = "equal"


def _at(items: Sequence, difficulty: int):
    """From items sorted easy to hard: the first for 1, the middle one for 2, the last for 3."""
    return items[{1: 0, 2: len(items) // 2, 3: len(items) - 1}[difficulty]]


def _by_level(items: Iterable, level: Callable, difficulty: int, easy_first: Callable):
    """The item to ask at this difficulty: from the level nearest to it, easiest to hardest within."""
    levels: dict[int, list] = {}
    for item in items:
        levels.setdefault(level(item), []).append(item)
    nearest = min(levels, key=lambda lv: (abs(lv - difficulty), lv))
    return _at(sorted(levels[nearest], key=easy_first), difficulty)


@dataclass(frozen=True)
class CardFraction:
    """A fraction laid from two cards' top numbers: numerator card first."""

    num: int
    den: int
    cards: tuple[int, ...] = ()

    @property
    def value(self) -> Fraction:
        return Fraction(self.num, self.den)

    @property
    def text(self) -> str:
        return f"{self.num}/{self.den}"

    def flipped(self) -> CardFraction:
        return CardFraction(self.den, self.num, self.cards[::-1])


def card_fraction(num_card: int, den_card: int) -> CardFraction:
    """The fraction laid with ``num_card`` on top of ``den_card``."""
    if num_card == den_card:
        raise ValueError("a fraction needs two different cards")
    return CardFraction(number_card(num_card).top, number_card(den_card).top, (num_card, den_card))


def _interval(interval: Sequence[int]) -> tuple[CardFraction, CardFraction]:
    if len(interval) != 4 or len(set(interval)) != 4:
        raise ValueError("an interval is four different cards: c, d, e, f for c/d and e/f")
    return card_fraction(interval[0], interval[1]), card_fraction(interval[2], interval[3])


def hand_fractions(hand: Sequence[int]) -> list[CardFraction]:
    """Every fraction a pupil can lay from two cards of the hand, once per way it is written."""
    if len(set(hand)) != len(hand):
        raise ValueError("a hand holds each card once")
    seen: dict[str, CardFraction] = {}
    for i, j in permutations(range(len(hand)), 2):
        fraction = card_fraction(hand[i], hand[j])
        seen.setdefault(fraction.text, fraction)
    return list(seen.values())


def table_fractions(interval: Sequence[int], hand: Sequence[int]) -> list[CardFraction]:
    """The fractions on the table: the interval's two, then those the hand can make."""
    found: dict[str, CardFraction] = {}
    for fraction in [*(_interval(interval) if interval else ()), *hand_fractions(hand)]:
        found.setdefault(fraction.text, fraction)
    return list(found.values())


#: Whole-number ways of comparing two fractions: the "size" each mistake gives a fraction.
WRONG_SIZES: dict[str, Callable[[CardFraction], int]] = {
    "only_numerators": lambda f: f.num,  # the bigger numerator wins
    "bigger_denominator": lambda f: f.den,  # the bigger denominator wins ("8 is more than 4")
    "only_denominators": lambda f: -f.den,  # the smaller denominator wins, numerators ignored
}
#: The same mistakes when a fraction is checked against an interval: is its numerator (or its
#: denominator) between the ends' numerators (denominators)? Either direction of the
#: denominators gives the same answer here, so there is one denominator mistake.
INTERVAL_WRONG_SIZES: dict[str, Callable[[CardFraction], int]] = {
    "only_numerators": lambda f: f.num,
    "only_denominators": lambda f: f.den,
}


def _true_size(fraction: CardFraction) -> Fraction:
    return fraction.value


def _between(fraction: CardFraction, end_a: CardFraction, end_b: CardFraction, size: Callable, strict: bool) -> bool:
    low, high = sorted((size(end_a), size(end_b)))
    value = size(fraction)
    return low < value < high if strict else low <= value <= high


def _common(fractions: Sequence[CardFraction]) -> tuple[int, dict[str, str], str]:
    """A common denominator, each fraction over it, and the list "2/3 = 8/12, 6/12"."""
    denominator = math.lcm(*(f.den for f in fractions))
    over = {f.text: f"{f.num * (denominator // f.den)}/{denominator}" for f in fractions}
    listing = ", ".join(text if text == common else f"{text} = {common}" for text, common in over.items())
    return denominator, over, listing


def _same_gap(a: CardFraction, b: CardFraction) -> bool:
    """Both proper, and both miss the same number of pieces to a whole (2/3 and 3/4)."""
    return a.num < a.den and b.num < b.den and a.den - a.num == b.den - b.num and a.value != b.value


def _distance_to_ends(fraction: CardFraction, first: CardFraction, second: CardFraction) -> Fraction:
    return min(abs(fraction.value - first.value), abs(fraction.value - second.value))


def fraction_in_interval(
    interval: Sequence[int],
    hand: Sequence[int] = (),
    difficulty: int = 2,
    strict: bool = False,
    fraction: tuple[int, int] | None = None,
) -> Question:
    """Is a/b inside the interval [c/d, e/f]? (yes/no; ``strict``: the game's option where the ends do not count).

    ``fraction`` is the pair of cards to ask about (numerator card, denominator card);
    without it, a fraction from the hand is chosen: far from the ends at difficulty 1,
    on or next to an end (an equivalent fraction) at difficulty 3; inside or outside
    as the cards fall.
    """
    difficulty = check_difficulty(difficulty)
    first, second = _interval(interval)
    if fraction is not None:
        x = card_fraction(*fraction)
    else:
        candidates = hand_fractions(hand)
        if not candidates:
            raise ValueError("the hand needs two cards to make a fraction")
        inside = [f for f in candidates if _between(f, first, second, _true_size, strict)]
        outside = [f for f in candidates if f not in inside]
        prefer_inside = (sum(interval) + sum(hand)) % 2 == 0
        group = inside if inside and (prefer_inside or not outside) else outside
        x = _at(sorted(group, key=lambda f: (-_distance_to_ends(f, first, second), f.num, f.den)), difficulty)
    low, high = sorted((first, second), key=_true_size)
    is_inside = _between(x, first, second, _true_size, strict)
    denominator, over, common = _common([x, first, second])
    ends = [end for end in (low, high) if end.value == x.value]
    nearest = ends[0] if ends else min((low, high), key=lambda end: abs(end.value - x.value))
    same_end = any(end.text == x.text for end in ends)
    if ends:
        outcome = ("same_end" if same_end else "equivalent_end") + ("_strict" if strict else "_inclusive")
    else:
        outcome = "below" if x.value < low.value else "above" if x.value > high.value else "inside"
    mistake = None
    if ends and not same_end:
        mistake = "equivalent_fractions"
    elif not ends:
        mistake = next(
            (
                mid
                for mid, size in INTERVAL_WRONG_SIZES.items()
                if _between(x, first, second, size, strict) != is_inside
            ),
            None,
        )
        if mistake is None and _between(x.flipped(), first, second, _true_size, strict) != is_inside:
            mistake = "flipped"
    params = {
        "fraction": x.text,
        "first": first.text,
        "second": second.text,
        "low": low.text,
        "high": high.text,
        "denominator": denominator,
        "common": common,
        "fraction_c": over[x.text],
        "low_c": over[low.text],
        "high_c": over[high.text],
        "nearest": nearest.text,
        "nearest_c": over[nearest.text],
        "flipped": x.flipped().text,
    }
    wrong = NO if is_inside else YES
    return ask(
        "fraction_in_interval",
        params,
        [*(["strict"] if strict else []), *([outcome] if outcome != "inside" else [])],
        answer=CHOICE,
        check={"rule": "choice", "expected": [YES if is_inside else NO]},
        misconceptions=[misconception(mistake, [wrong])] if mistake else [],
        choices=yes_no_choices(),
        cards=[*interval, *x.cards],
        difficulty=difficulty,
    )


def _larger_level(pair: tuple[CardFraction, CardFraction]) -> int:
    a, b = pair
    if a.value == b.value:
        return 3
    small, large = sorted(pair, key=_true_size)
    if a.den == b.den or (a.value < 1) != (b.value < 1):
        return 1
    if small.num > large.num or abs(a.value - b.value) < Fraction(1, 10):
        return 3
    return 2


def fraction_larger(
    interval: Sequence[int] = (),
    hand: Sequence[int] = (),
    difficulty: int = 2,
    fractions: tuple[tuple[int, int], tuple[int, int]] | None = None,
) -> Question:
    """Which of two fractions is larger, or are they equal? (buttons: the two fractions and "equal").

    ``fractions`` are two card pairs to compare; without them two fractions are chosen from
    the interval and the hand: same denominators or a clear gap at difficulty 1, pairs where
    the bigger numerator belongs to the smaller fraction, a tiny gap or equivalent fractions
    at difficulty 3.
    """
    difficulty = check_difficulty(difficulty)
    if fractions is not None:
        a, b = (card_fraction(*pair) for pair in fractions)
    else:
        pairs = list(combinations(table_fractions(interval, hand), 2))
        if not pairs:
            raise ValueError("there are not two different fractions to compare")
        a, b = _by_level(
            pairs, _larger_level, difficulty, lambda p: (-abs(p[0].value - p[1].value), p[0].text, p[1].text)
        )
    if a.text == b.text:
        raise ValueError("the two fractions must be written differently")
    small, large = sorted((a, b), key=_true_size)
    equal = a.value == b.value
    denominator, over, common = _common([a, b])
    params = {
        "first": a.text,
        "second": b.text,
        "larger": large.text,
        "smaller": small.text,
        "denominator": denominator,
        "common": common,
        "first_c": over[a.text],
        "second_c": over[b.text],
        "larger_c": over[large.text],
        "smaller_c": over[small.text],
    }
    candidates: list[tuple[str, list[str]]] = []
    if equal:
        candidates.append(("equivalent_fractions", [a.text, b.text]))
    else:
        candidates += [(mid, [small.text]) for mid, size in WRONG_SIZES.items() if size(small) > size(large)]
        if _same_gap(a, b):
            candidates.append(("same_gap", [EQUAL]))
        if a.num == b.num:
            candidates.append(("only_numerators", [EQUAL]))
        if a.den == b.den:
            candidates.append(("only_denominators", [EQUAL]))
    right = [EQUAL] if equal else [large.text]
    choices = [
        {"value": a.text, "label": label("fraction_larger", "fraction", fraction=a.text)},
        {"value": b.text, "label": label("fraction_larger", "fraction", fraction=b.text)},
        {"value": EQUAL, "label": label("fraction_larger", EQUAL)},
    ]
    return ask(
        "fraction_larger",
        params,
        ["equal"] if equal else [],
        answer=CHOICE,
        check={"rule": "choice", "expected": right},
        misconceptions=claim(candidates, wrong_choice(right, choices)),
        choices=choices,
        cards=[card for f in (a, b) for card in f.cards],
        difficulty=difficulty,
    )


ORDER_BUTTONS = {1: 3, 2: 4, 3: 6}


def _min_gap(trio: Sequence[CardFraction]) -> Fraction:
    values = sorted(f.value for f in trio)
    return min(values[1] - values[0], values[2] - values[1])


def _order_level(trio: Sequence[CardFraction]) -> int:
    gap = _min_gap(trio)
    return 3 if gap < Fraction(1, 6) else 2 if gap < Fraction(1, 2) else 1


def _orderings(trio: Sequence[CardFraction], size: Callable) -> list[tuple[int, ...]]:
    """Every order of the three (as indices) that puts them from the smallest to the largest ``size``."""
    return [p for p in permutations(range(3)) if size(trio[p[0]]) <= size(trio[p[1]]) <= size(trio[p[2]])]


def fraction_order(
    interval: Sequence[int] = (),
    hand: Sequence[int] = (),
    difficulty: int = 2,
    fractions: Sequence[tuple[int, int]] | None = None,
) -> Question:
    """Put three fractions in order from the smallest to the largest (buttons: orderings).

    ``fractions`` are three card pairs; without them three are chosen from the interval and
    the hand, far apart at difficulty 1 and close together (or equivalent) at difficulty 3.
    Difficulty 1 shows 3 orderings, 2 shows 4, 3 all 6. Equivalent fractions may come in
    either order, so then two orderings are right.
    """
    difficulty = check_difficulty(difficulty)
    if fractions is not None:
        trio = [card_fraction(*pair) for pair in fractions]
        if len(trio) != 3 or len({f.text for f in trio}) != 3:
            raise ValueError("order three differently written fractions")
    else:
        triples = [t for t in combinations(table_fractions(interval, hand), 3) if len({f.value for f in t}) > 1]
        if not triples:
            raise ValueError("there are not three different fractions to order")
        trio = list(_by_level(triples, _order_level, difficulty, lambda t: (-_min_gap(t), [f.text for f in t])))
    right = _orderings(trio, _true_size)
    # A whole-number rule explains an ordering only when it tells all three apart.
    wrong_orders = [
        (mid, _orderings(trio, size)) for mid, size in WRONG_SIZES.items() if len({size(f) for f in trio}) == 3
    ]
    wrong_orders.append(("largest_first", _orderings(trio, lambda f: -f.value)))
    shown = [right[0]]
    for order in [o for _, orders in wrong_orders for o in orders] + right + list(permutations(range(3))):
        if order not in shown and len(shown) < ORDER_BUTTONS[difficulty]:
            shown.append(order)
    shown.sort()

    def value(order):
        return "".join(str(i) for i in order)

    ordered = [trio[i] for i in right[0]]
    denominator, over, common = _common(trio)
    ties = [(x, y) for x, y in combinations(trio, 2) if x.value == y.value]
    equal_a, equal_b = ties[0] if ties else (trio[0], trio[1])
    params = {
        "fractions": ", ".join(f.text for f in trio),
        "denominator": denominator,
        "common": common,
        "ordered": ", ".join(f.text for f in ordered),
        "ordered_c": ", ".join(over[f.text] for f in ordered),
        "smallest": ordered[0].text,
        "equal_a": equal_a.text,
        "equal_b": equal_b.text,
    }
    right_values = [value(o) for o in right if o in shown]
    choices = [
        {
            "value": value(o),
            "label": label(
                "fraction_order", "order", **dict(zip(("first", "second", "third"), (trio[i].text for i in o)))
            ),
        }
        for o in shown
    ]
    return ask(
        "fraction_order",
        params,
        ["with_equal"] if ties else [],
        answer=CHOICE,
        check={"rule": "choice", "expected": right_values},
        misconceptions=claim(
            [(mid, [value(o) for o in orders]) for mid, orders in wrong_orders], wrong_choice(right_values, choices)
        ),
        choices=choices,
        cards=[card for f in trio for card in f.cards],
        difficulty=difficulty,
    )


def _scaled(a: CardFraction, b: CardFraction) -> bool:
    """Equal, and one is the other with top and bottom times the same whole number (1/2 and 3/6)."""
    small, big = sorted((a, b), key=lambda f: f.num)
    return a.value == b.value and big.num % small.num == 0 and big.den % small.den == 0


def _equivalence_trap(a: CardFraction, b: CardFraction) -> bool:
    return a.value != b.value and (_same_gap(a, b) or a.num == b.num or a.den == b.den)


def fraction_equivalent(
    interval: Sequence[int] = (),
    hand: Sequence[int] = (),
    difficulty: int = 2,
    fractions: tuple[tuple[int, int], tuple[int, int]] | None = None,
) -> Question:
    """Are two fractions equivalent? (yes/no).

    ``fractions`` are two card pairs; without them two are chosen from the interval and the
    hand: at difficulty 1 a pair where one is the other times a whole number (1/2, 3/6) or
    two clearly different ones; at 2 any equivalent pair, else a tempting one; at 3 a hidden
    equivalence (4/6, 6/9) or a near miss (2/3, 3/4).
    """
    difficulty = check_difficulty(difficulty)
    if fractions is not None:
        a, b = (card_fraction(*pair) for pair in fractions)
    else:
        pairs = list(combinations(table_fractions(interval, hand), 2))
        if not pairs:
            raise ValueError("there are not two different fractions to compare")

        def gap(p):
            return abs(p[0].value - p[1].value)

        def names(p):
            return (p[0].text, p[1].text)

        equal = [p for p in pairs if p[0].value == p[1].value]
        scaled = [p for p in equal if _scaled(*p)]
        hidden = [p for p in equal if not _scaled(*p)]
        unequal = sorted((p for p in pairs if p[0].value != p[1].value), key=lambda p: (-gap(p), names(p)))
        traps = [p for p in unequal if _equivalence_trap(*p)]
        if difficulty == 1:
            groups = [sorted(scaled, key=names), unequal]
        elif difficulty == 2:
            groups = [sorted(equal, key=names), traps, unequal]
        else:
            groups = [sorted(hidden, key=names), traps[::-1], unequal[::-1], sorted(scaled, key=names)]
        # When the table offers only pairs outside the difficulty's wishes, any pair will do.
        group = next((g for g in groups if g), None) or sorted(pairs, key=names)
        a, b = group[len(group) // 2] if difficulty == 2 else group[0]
    if a.text == b.text:
        raise ValueError("the two fractions must be written differently")
    equal_values = a.value == b.value
    denominator, over, common = _common([a, b])
    params = {
        "first": a.text,
        "second": b.text,
        "denominator": denominator,
        "common": common,
        "first_c": over[a.text],
        "second_c": over[b.text],
    }
    if equal_values:
        mistake = "equivalent_fractions"
    elif _same_gap(a, b):
        mistake = "same_gap"
    elif a.num == b.num:
        mistake = "only_numerators"
    elif a.den == b.den:
        mistake = "only_denominators"
    else:
        mistake = None
    wrong = NO if equal_values else YES
    return ask(
        "fraction_equivalent",
        params,
        ["equivalent"] if equal_values else [],
        answer=CHOICE,
        check={"rule": "choice", "expected": [YES if equal_values else NO]},
        misconceptions=[misconception(mistake, [wrong])] if mistake else [],
        choices=yes_no_choices(),
        cards=[card for f in (a, b) for card in f.cards],
        difficulty=difficulty,
    )


FROM_HAND_BUTTONS = {1: 3, 2: 5, 3: None}


def fraction_from_hand(
    interval: Sequence[int], hand: Sequence[int], difficulty: int = 2, strict: bool = False
) -> Question:
    """Which fraction from your cards lies inside the interval? (buttons: the fractions, and "none fits").

    Typed, the answer would need a check that the fraction is made of the pupil's cards,
    which no named check can say; so the pupil picks among the fractions the hand can make.
    Difficulty 1 shows 3 of them (one that fits, if any, and tempting wrong ones), 2 shows
    5, 3 all. "None of them fits" is right when no fraction of the hand fits (the pupil
    cannot move and keeps the cards). The worked solution shows one fraction on a button
    that fits between the ends, all three over one common denominator, and names the
    other buttons that fit: at most four lines.
    """
    difficulty = check_difficulty(difficulty)
    first, second = _interval(interval)
    candidates = hand_fractions(hand)
    if not candidates:
        raise ValueError("the hand needs two cards to make a fraction")
    if set(hand) & set(interval):
        raise ValueError("the hand and the interval share a card")
    low, high = sorted((first, second), key=_true_size)
    fits = [f for f in candidates if _between(f, first, second, _true_size, strict)]

    def equivalent_end(f):
        """Equal to an end, but written differently from both ends."""
        return any(end.value == f.value for end in (first, second)) and all(
            end.text != f.text for end in (first, second)
        )

    def mistake(f):
        if f in fits:
            return None
        if any(end.value == f.value for end in (first, second)):
            return "equivalent_fractions" if equivalent_end(f) else None
        if _between(f.flipped(), first, second, _true_size, strict):
            return "flipped"
        return next(
            (mid for mid, size in INTERVAL_WRONG_SIZES.items() if _between(f, first, second, size, strict)), None
        )

    count = FROM_HAND_BUTTONS[difficulty] or len(candidates)
    picked = []
    if fits:
        picked.append(_at(sorted(fits, key=lambda f: (-_distance_to_ends(f, first, second), f.text)), difficulty))
    for f in [f for f in candidates if mistake(f)] + candidates:
        if f not in picked and len(picked) < count:
            picked.append(f)
    shown = [f for f in candidates if f in picked]
    shown_fits = [f for f in shown if f in fits]
    right = [f.text for f in shown_fits] or [NONE]
    candidates_by_id: list[tuple[str, list[str]]] = [(mistake(f), [f.text]) for f in shown if mistake(f)]
    if shown_fits and all(equivalent_end(f) for f in shown_fits):
        candidates_by_id.append(("equivalent_fractions", [NONE]))
    sign = "<" if strict else "≤"
    equal_fraction = next((f for f in shown_fits if equivalent_end(f)), None) if not strict else None
    equal_end = next((end for end in (low, high) if equal_fraction and end.value == equal_fraction.value), low)
    # The worked solution shows one fitting fraction on a button, over one denominator with the ends.
    shown_answer = equal_fraction or (picked[0] if shown_fits else low)
    denominator, over, common = _common([low, shown_answer, high])

    def scaled(fraction: CardFraction) -> tuple[int, int]:
        return fraction.num * (denominator // fraction.den), denominator

    params = {
        "first": first.text,
        "second": second.text,
        "low": low.text,
        "high": high.text,
        "cards": ", ".join(str(number_card(card).top) for card in hand),
        "hint_numerator": picked[0].num if shown_fits else "",
        "equal_fraction": (equal_fraction or low).text,
        "equal_end": equal_end.text,
        "answer": shown_answer.text,
        "denominator": denominator,
        "common": common,
        "chain": formula(scaled(low), sign, scaled(shown_answer), sign, scaled(high), form=FRACTION),
        "others": ", ".join(f.text for f in shown_fits if f != shown_answer),
    }
    cases = ["strict"] if strict else []
    if not shown_fits:
        cases.append("none")
    elif equal_fraction:
        cases.append("fits_equivalent")
    elif len(shown_fits) > 1:
        cases.append("more_fit")
    choices = [
        {"value": f.text, "label": label("fraction_from_hand", "fraction", fraction=f.text), "cards": list(f.cards)}
        for f in shown
    ]
    choices.append({"value": NONE, "label": label("fraction_from_hand", NONE)})
    return ask(
        "fraction_from_hand",
        params,
        cases,
        answer=CHOICE,
        check={"rule": "choice", "expected": right},
        misconceptions=claim(candidates_by_id, wrong_choice(right, choices)),
        choices=choices,
        cards=[*interval, *hand],
        difficulty=difficulty,
    )


GENERATORS = [fraction_in_interval, fraction_larger, fraction_order, fraction_equivalent, fraction_from_hand]
