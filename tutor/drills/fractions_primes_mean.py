"""Questions on fractions, primes, means and chances.

Fraction Master asks ``fractions``; Crazy Banana: Extreme asks ``primes`` and ``mean``;
Gnav, War and Casino War ask ``probability``. Each generator takes the live position and
a difficulty 1 (easy) .. 3 (hard) and returns a :class:`~tutor.drills.Question`; every
text is English source text in ``content/drills/fractions_primes_mean.toml``.

Inputs
    A fraction is made of two Kids2 number cards' top numbers, the numerator card first,
    and is shown as laid ("6/8", never reduced). An interval is four card ids laid as two
    fractions (c/d, then e/f; either may be the larger). A hand is a list of distinct card
    ids; a pupil's fraction is any two of them in order. Primes and means use a card's four
    circled values. Probability questions take plain counts from the position (cards in
    the deck, how many beat yours, how many decks).

Difficulty
    Where the position leaves a choice, the generator picks what to ask by difficulty (a
    fraction far from the interval's ends, or one on or next to an end; a clear or a
    misleading pair of fractions; an easy or a hard card sum to test for primality), and
    choice questions show more buttons when harder. Where the numbers are fixed, the
    difficulty sets the support: the estimate's tolerance, a reminder or given sum in the
    prompt, and whether a chance must be written in simplest form (difficulty 3).

Texts
    A kind's ``[kind.cases.<name>]`` tables hold variants the generator chooses (strict
    intervals, the outcome a worked solution explains, a helped prompt); each field there
    (prompt, hints or solution) replaces the kind's own. Button labels are in
    ``[kind.labels]``.

Misconceptions
    A wrong answer that shows a known mistake is listed under the mistake's id: an exact
    value (``str`` of a sympy Rational, e.g. "7/2") for typed answers, a choice value for
    buttons. A value is listed under one id only, and never when it would be marked right.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, permutations

from tutor.deck import kids2
from tutor.drills import (
    CHOICE,
    NO,
    NUMBER,
    PLACE_VALUE,
    TIMES_TEN,
    YES,
    Question,
    Text,
    build,
    misconception,
    slips,
    texts,
    yes_no_choices,
)
from tutor.drills.card_sums import plus, round_to_ten
from tutor.primes import PRIME_LIMIT, is_prime, primes_up_to, smallest_factor
from tutor.signs import FRACTION, MIXED, exact_text, formula, fraction_text, listing

DIFFICULTIES = (1, 2, 3)
NONE, EQUAL = "none", "equal"


# --- shared helpers ----------------------------------------------------------------------


def _difficulty(difficulty: int) -> int:
    if difficulty not in DIFFICULTIES or isinstance(difficulty, bool):
        raise ValueError(f"difficulty must be 1, 2 or 3, not {difficulty!r}")
    return int(difficulty)


def _steps(numerator: int, denominator: int) -> dict:
    """A fraction and, if it simplifies, its simplest form: "12/48 = 1/4", "6/41"."""
    simplest = Fraction(numerator, denominator)
    if (simplest.numerator, simplest.denominator) == (numerator, denominator):
        return formula((numerator, denominator), form=FRACTION)
    return formula((numerator, denominator), "=", simplest, form=FRACTION)


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


def _ask(kind: str, params: dict, cases: Iterable[str] = (), **fields) -> Question:
    """:func:`build`, then let each case's prompt, hints or solution replace the kind's own."""
    question = build(kind, params, **fields)
    entry = texts(kind)
    for case in cases:
        variant = entry["cases"][case]
        if "prompt" in variant:
            question.prompt = Text.from_content(variant["prompt"], params)
        if "hints" in variant:
            question.hints = [Text.from_content(hint, params) for hint in variant["hints"]]
        if "solution" in variant:
            question.solution = [Text.from_content(step, params) for step in variant["solution"]]
    return question


def _label(kind: str, name: str, **params) -> Text:
    return Text(texts(kind)["labels"][name], params)


def _merge(candidates: Iterable[tuple[str, Iterable]], taken: set, allowed: Callable) -> list[tuple[str, list]]:
    """Misconceptions in priority order: each value under its first id, never a taken or disallowed value."""
    found: dict[str, list] = {}
    for misconception_id, values in candidates:
        for value in values:
            if value is not None and value not in taken and allowed(value):
                taken.add(value)
                found.setdefault(misconception_id, []).append(value)
    return list(found.items())


def _typed_misconceptions(
    candidates: Iterable[tuple[str, Iterable]], is_right: Callable[[Fraction], bool]
) -> list[dict]:
    """For typed answers: exact wrong values, each listed as its sympy text."""
    exact_candidates = [(mid, [Fraction(v) for v in values if v is not None]) for mid, values in candidates]
    return [
        misconception(mid, map(exact_text, values))
        for mid, values in _merge(exact_candidates, set(), lambda v: not is_right(v))
    ]


def _choice_misconceptions(
    candidates: Iterable[tuple[str, Iterable]], right: Iterable[str], shown: Iterable[str]
) -> list[dict]:
    """For buttons: wrong choice values that are on the buttons."""
    shown = set(shown)
    return [misconception(mid, values) for mid, values in _merge(candidates, set(right), lambda v: v in shown)]


def _number_card(card_id: int):
    deck = kids2()
    if (
        isinstance(card_id, bool)
        or not isinstance(card_id, int)
        or not 0 <= card_id < len(deck)
        or deck[card_id].top is None
    ):
        raise ValueError(f"{card_id!r} is not a number card of the Kids2 deck")
    return deck[card_id]


# --- fractions (Fraction Master) ---------------------------------------------------------


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
    return CardFraction(_number_card(num_card).top, _number_card(den_card).top, (num_card, den_card))


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
    difficulty = _difficulty(difficulty)
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
    return _ask(
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
    difficulty = _difficulty(difficulty)
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
        {"value": a.text, "label": _label("fraction_larger", "fraction", fraction=a.text)},
        {"value": b.text, "label": _label("fraction_larger", "fraction", fraction=b.text)},
        {"value": EQUAL, "label": _label("fraction_larger", EQUAL)},
    ]
    return _ask(
        "fraction_larger",
        params,
        ["equal"] if equal else [],
        answer=CHOICE,
        check={"rule": "choice", "expected": right},
        misconceptions=_choice_misconceptions(candidates, right, [c["value"] for c in choices]),
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
    difficulty = _difficulty(difficulty)
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
            "label": _label(
                "fraction_order", "order", **dict(zip(("first", "second", "third"), (trio[i].text for i in o)))
            ),
        }
        for o in shown
    ]
    return _ask(
        "fraction_order",
        params,
        ["with_equal"] if ties else [],
        answer=CHOICE,
        check={"rule": "choice", "expected": right_values},
        misconceptions=_choice_misconceptions(
            [(mid, [value(o) for o in orders]) for mid, orders in wrong_orders],
            right_values,
            [c["value"] for c in choices],
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
    difficulty = _difficulty(difficulty)
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
    return _ask(
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
    cannot move and keeps the cards). The worked solution lists every fraction of the
    hand that fits, also those not on a button.
    """
    difficulty = _difficulty(difficulty)
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
    equal_fraction = next((f for f in shown_fits if equivalent_end(f)), None)
    equal_end = next((end for end in (low, high) if equal_fraction and end.value == equal_fraction.value), low)
    params = {
        "first": first.text,
        "second": second.text,
        "low": low.text,
        "high": high.text,
        "cards": ", ".join(str(_number_card(card).top) for card in hand),
        # The worked solution lists every fraction of the hand that fits, on a button or not.
        "checks": "; ".join(f"{low.text} {sign} {f.text} {sign} {high.text}" for f in fits),
        "hint_numerator": picked[0].num if shown_fits else "",
        "equal_fraction": (equal_fraction or low).text,
        "equal_end": equal_end.text,
    }
    cases = ["strict"] if strict else []
    if not shown_fits:
        cases.append("none")
    elif equal_fraction and not strict:
        cases.append("fits_equivalent")
    choices = [
        {"value": f.text, "label": _label("fraction_from_hand", "fraction", fraction=f.text), "cards": list(f.cards)}
        for f in shown
    ]
    choices.append({"value": NONE, "label": _label("fraction_from_hand", NONE)})
    return _ask(
        "fraction_from_hand",
        params,
        cases,
        answer=CHOICE,
        check={"rule": "choice", "expected": right},
        misconceptions=_choice_misconceptions(candidates_by_id, right, [c["value"] for c in choices]),
        choices=choices,
        cards=[*interval, *hand],
        difficulty=difficulty,
    )


# --- primes (Crazy Banana: Extreme) ------------------------------------------------------


def _hidden_square(n: int) -> bool:
    """A square of a prime that the tests for 2, 3 and 5 miss: 49, 121, 169."""
    root = math.isqrt(n)
    return root * root == n and root >= 7 and is_prime(root)


def _factored(n: int) -> dict:
    """n as its smallest factor times the rest: "91 = 7 × 13"."""
    p = smallest_factor(n)
    return formula(n, "=", p, "*", n // p)


#: The squares of primes that the tests for 2, 3 and 5 miss, as a misconception shows them.
_PRIME_SQUARES = listing([formula(p, "*", p, "=", p * p) for p in (7, 11, 13)], ",")


def prime_is_prime(n: int, difficulty: int = 2, cards: Sequence[int] = ()) -> Question:
    """Is n prime, for n from 1 to 200? (yes/no). Difficulty 1 reminds what a prime is in the prompt."""
    difficulty = _difficulty(difficulty)
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= PRIME_LIMIT:
        raise ValueError(f"n must be a whole number from 1 to {PRIME_LIMIT}")
    prime = is_prime(n)
    factor = smallest_factor(n) if n > 1 else 1
    params = {
        "n": n,
        "digit_sum": sum(int(d) for d in str(n)),
        "factor": factor,
        "cofactor": n // factor,
        "factored": formula(n, "=", factor, "*", n // factor),
        "primes": ", ".join(map(str, primes_up_to())),
    }
    outcome = "one" if n == 1 else "two" if n == 2 else "prime" if prime else "composite"
    if n == 1:
        mistake = "one_is_prime"
    elif n == 2:
        mistake = "two_not_prime"
    elif prime:
        mistake = None
    elif n % 2 == 0:
        mistake = "even_means_prime"
    else:
        mistake = "prime_square" if _hidden_square(n) else "odd_means_prime"
    return _ask(
        "prime_is_prime",
        params,
        [*(["reminder"] if difficulty == 1 else []), *([outcome] if outcome != "composite" else [])],
        answer=CHOICE,
        check={"rule": "choice", "expected": [YES if prime else NO]},
        misconceptions=[misconception(mistake, [NO if prime else YES])] if mistake else [],
        choices=yes_no_choices(),
        cards=list(cards),
        difficulty=difficulty,
    )


def _circled(card_id: int) -> tuple[int, ...]:
    return _number_card(card_id).circled


def _sum_level(n: int) -> int:
    """How hard it is to tell whether a card sum is prime: 1 even or a multiple of 5, 3 a hidden factor or a big prime."""
    if n % 2 == 0 or n % 5 == 0:
        return 1
    if n % 3 == 0 or (is_prime(n) and n < 100):
        return 2
    return 3


def prime_card_sum(card_id: int, difficulty: int = 2) -> Question:
    """Is the sum of two circled values of a card prime? The sum is easy to test at difficulty 1, hard at 3."""
    difficulty = _difficulty(difficulty)
    sums = sorted({a + b for a, b in combinations(_circled(card_id), 2)})
    levels: dict[int, list[int]] = {}
    for n in sums:
        levels.setdefault(_sum_level(n), []).append(n)
    group = levels[min(levels, key=lambda lv: (abs(lv - difficulty), lv))]
    return prime_is_prime(group[card_id % len(group)], difficulty, cards=[card_id])


WHICH_SUM_BUTTONS = {1: 3, 2: 6, 3: 6}


def prime_which_sum(card_id: int, difficulty: int = 2) -> Question:
    """Which pair of a card's circled values adds up to a prime? (buttons: the pairs, and "none").

    Difficulty 1 shows 3 pairs with their sums, 2 all six with sums, 3 all six without sums.
    """
    difficulty = _difficulty(difficulty)
    pairs = list(combinations(_circled(card_id), 2))
    traps = [p for p in pairs if not is_prime(sum(p)) and sum(p) % 2]
    picked = [p for p in pairs if is_prime(sum(p))][:1]
    for pair in traps + pairs:
        if pair not in picked and len(picked) < WHICH_SUM_BUTTONS[difficulty]:
            picked.append(pair)
    shown = [p for p in pairs if p in picked]

    def value(pair):
        return f"{pair[0]}+{pair[1]}"

    prime_pairs = [p for p in shown if is_prime(sum(p))]
    right = [value(p) for p in prime_pairs] or [NONE]
    candidates = [
        ("prime_square", [value(p) for p in shown if _hidden_square(sum(p))]),
        ("odd_means_prime", [value(p) for p in shown if sum(p) % 2 and not is_prime(sum(p))]),
        ("even_means_prime", [value(p) for p in shown if sum(p) % 2 == 0 and sum(p) != 2]),
    ]
    params = {
        "values": ", ".join(map(str, _circled(card_id))),
        "sums": "; ".join(f"{a} + {b} = {a + b}" for a, b in shown),
        "factored": listing([_factored(sum(p)) for p in shown if not is_prime(sum(p))]),
        "prime_sums": ", ".join(str(sum(p)) for p in prime_pairs),
        "primes": ", ".join(map(str, primes_up_to())),
        "squares": _PRIME_SQUARES,
    }
    label = "pair" if difficulty == 3 else "pair_sum"
    choices = [
        {"value": value(p), "label": _label("prime_which_sum", label, a=p[0], b=p[1], sum=p[0] + p[1])} for p in shown
    ]
    choices.append({"value": NONE, "label": _label("prime_which_sum", NONE)})
    return _ask(
        "prime_which_sum",
        params,
        [] if prime_pairs else ["none"],
        answer=CHOICE,
        check={"rule": "choice", "expected": right},
        misconceptions=_choice_misconceptions(candidates, right, [c["value"] for c in choices]),
        choices=choices,
        cards=[card_id],
        difficulty=difficulty,
    )


# --- mean (Crazy Banana: Extreme) --------------------------------------------------------

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
    difficulty = _difficulty(difficulty)
    values = _circled(card_id)
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
        misconceptions=_typed_misconceptions(candidates, lambda v: abs(v - mean) <= tolerance),
        cards=[card_id],
        difficulty=difficulty,
        number_form=MIXED,
    )


def mean_exact(card_id: int, difficulty: int = 2) -> Question:
    """The exact mean of a card's four circled values (a whole number, fraction, mixed number or decimal).

    Difficulty 1 gives the sum in the prompt.
    """
    difficulty = _difficulty(difficulty)
    values = _circled(card_id)
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
    return _ask(
        "mean_exact",
        params,
        ["sum_given"] if difficulty == 1 else [],
        answer=NUMBER,
        check={"rule": "equals", "expected": exact_text(mean), "unworked": _unworked([total], count)},
        misconceptions=_typed_misconceptions(candidates, lambda v: v == mean),
        cards=[card_id],
        difficulty=difficulty,
        number_form=MIXED,
    )


# --- probability (Gnav, War, Casino War) -------------------------------------------------


def _chance_check(chance: Fraction, difficulty: int) -> dict:
    """Any equivalent fraction counts at difficulties 1 and 2; simplest form is asked at 3 (the prompt says which)."""
    return {"rule": "equivalent_simplest" if difficulty == 3 else "equals", "expected": exact_text(chance)}


def _chance_cases(difficulty: int) -> list[str]:
    return {1: ["helped"], 2: [], 3: ["simplest"]}[difficulty]


def probability_card_beats(deck_size: int, higher: int, difficulty: int = 2) -> Question:
    """The chance that the next card from the rest of the deck beats yours, as a fraction.

    ``deck_size``: the cards the pupil knows of, their own card included (Gnav: 42, War:
    52); ``higher``: how many of the other cards beat theirs. The answer is
    higher / (deck_size - 1): the pupil's own card cannot come again. Difficulty 1 states
    how many other cards there are; difficulty 3 asks for the simplest form.
    """
    difficulty = _difficulty(difficulty)
    if isinstance(deck_size, bool) or deck_size < 2 or not 0 <= higher <= deck_size - 1:
        raise ValueError("need a deck of at least 2 cards and 0 <= higher < deck_size")
    others = deck_size - 1
    not_higher = others - higher
    chance = Fraction(higher, others)
    params = {
        "deck_size": deck_size,
        "others": others,
        "higher": higher,
        "not_higher": not_higher,
        "chance": fraction_text(chance, FRACTION),
        "chance_steps": _steps(higher, others),
    }
    candidates = [
        ("odds", [Fraction(higher, not_higher) if not_higher else None]),
        ("own_card_kept", [Fraction(higher, deck_size)]),
        ("count_not_fraction", [Fraction(higher)]),
        ("inverted", [Fraction(others, higher) if higher else None]),
        ("complement", [Fraction(not_higher, others)]),
    ]
    return _ask(
        "probability_card_beats",
        params,
        _chance_cases(difficulty),
        answer=NUMBER,
        check=_chance_check(chance, difficulty),
        misconceptions=_typed_misconceptions(candidates, lambda v: v == chance),
        difficulty=difficulty,
        number_form=FRACTION,
    )


MAX_DECKS = 8


def _tie_counts(decks: int) -> dict:
    if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= MAX_DECKS:
        raise ValueError(f"Casino War uses 1 to {MAX_DECKS} decks")
    cards, same = 52 * decks, 4 * decks
    return {
        "decks": decks,
        "cards": cards,
        "same": same,
        "same_left": same - 1,
        "left": cards - 1,
        "all_cards": formula(decks, "*", 52, "=", cards),
    }


def probability_tie(decks: int, difficulty: int = 2) -> Question:
    """Casino War with ``decks`` decks: the chance that the house's card ties with yours, (4n - 1)/(52n - 1).

    Difficulty 1 states how many cards of your rank are left among how many; difficulty 3
    asks for the simplest form.
    """
    difficulty = _difficulty(difficulty)
    counts = _tie_counts(decks)
    same, same_left, cards, left = counts["same"], counts["same_left"], counts["cards"], counts["left"]
    chance = Fraction(same_left, left)
    params = {**counts, "chance": fraction_text(chance, FRACTION), "chance_steps": _steps(same_left, left)}
    candidates = [
        ("odds", [Fraction(same_left, left - same_left)]),
        ("own_card_kept", [Fraction(same, cards), Fraction(same, left), Fraction(same_left, cards)]),
        ("count_not_fraction", [Fraction(same_left), Fraction(same)]),
        ("inverted", [Fraction(left, same_left)]),
    ]
    return _ask(
        "probability_tie",
        params,
        _chance_cases(difficulty),
        answer=NUMBER,
        check=_chance_check(chance, difficulty),
        misconceptions=_typed_misconceptions(candidates, lambda v: v == chance),
        difficulty=difficulty,
        number_form=FRACTION,
    )


def probability_tie_bet(decks: int, difficulty: int = 2, payout: int = 10) -> Question:
    """The expected value of Casino War's tie side bet paying ``payout`` to 1, per token staked.

    Win ``payout`` tokens (and keep the stake) with the chance of a tie, else lose the stake:
    payout × p − (1 − p), negative for the pupil (the house's edge). Difficulties 1 and 2
    give the chance of a tie in the prompt; at 3 the pupil works it out from the decks.
    """
    difficulty = _difficulty(difficulty)
    if isinstance(payout, bool) or not isinstance(payout, int) or payout < 1:
        raise ValueError("the payout is a whole number of tokens per token, at least 1")
    counts = _tie_counts(decks)
    chance = Fraction(counts["same_left"], counts["left"])
    lose = 1 - chance
    value = payout * chance - lose
    params = {
        **counts,
        "payout": payout,
        "chance": fraction_text(chance, FRACTION),
        "chance_steps": _steps(counts["same_left"], counts["left"]),
        "lose_chance": fraction_text(lose, FRACTION),
        "win_part": fraction_text(payout * chance, FRACTION),
        "win_product": formula(payout, "*", chance, form=FRACTION),
        "win_steps": formula(payout, "*", chance, "=", payout * chance, form=FRACTION),
        "loss_product": formula(1, "*", lose, form=FRACTION),
        "loss_steps": formula(1, "*", lose, "=", lose, form=FRACTION),
        "value_steps": formula(payout * chance, "-", lose, "=", value, form=FRACTION),
        "value": fraction_text(value, FRACTION),
        "loss": fraction_text(abs(value), FRACTION),
    }
    odds = Fraction(counts["same_left"], counts["left"] - counts["same_left"])
    careless = Fraction(counts["same"], counts["cards"])
    candidates = [
        ("ignored_loss", [payout * chance]),
        ("stake_always_lost", [payout * chance - 1]),
        ("sign_flipped", [-value]),
        ("odds", [payout * odds - (1 - odds)]),
    ]
    if difficulty == 3:
        candidates.append(("own_card_kept", [payout * careless - (1 - careless)]))
    return _ask(
        "probability_tie_bet",
        params,
        [*(["chance_given"] if difficulty < 3 else []), *(["no_loss"] if value >= 0 else [])],
        answer=NUMBER,
        check={"rule": "equals", "expected": exact_text(value)},
        misconceptions=_typed_misconceptions(candidates, lambda v: v == value),
        difficulty=difficulty,
        number_form=FRACTION,
    )


#: The question generators of each skill, for the drill catalogue.
GENERATORS = {
    "fractions": [fraction_in_interval, fraction_larger, fraction_order, fraction_equivalent, fraction_from_hand],
    "primes": [prime_is_prime, prime_card_sum, prime_which_sum],
    "mean": [mean_estimate, mean_exact],
    "probability": [probability_card_beats, probability_tie, probability_tie_bet],
}
