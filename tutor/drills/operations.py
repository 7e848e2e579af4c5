"""Questions about adding, subtracting and the four operations: TripleSmart, 29 and Războiul.

TripleSmart questions take Kids2 card ids (the pupil's number cards and the target
card; only top numbers count). 29 and Războiul use ordinary playing cards, so their
questions take plain numbers: a 29 pile is a list of number cards 2-10, each given as
``7`` or as ``(7, "K")`` with the face cards lying on it ("K" King: the card counts twice,
"Q" Queen: its value is taken away, "J" Jack: no effect on the value).

Difficulty works the same way in every kind: 1 gives a helping tip in the prompt (the
kind's ``easy`` table in the content file), 2 is the plain question, 3 leaves out the last
hint, the one that nearly gives the answer (the worked solution still shows it). A 29 pile
is shown as its total at 1 and worked out into numbers at 2 ("10 + 10 + 8 - 8" for a King
on the 10 and a Queen on the 8); in the ``missing_addend`` questions it is shown at 3 as
number cards with their Kings and Queens, so the pupil applies the face-card rules.

Misconception values never include a right answer, and each wrong value names only the
first misconception that lists it, so the feedback a pupil gets is never ambiguous.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import permutations, product

from tutor.answers import ALLOW_ADD_SUB, ALLOW_FOUR_OPS
from tutor.deck import kids2
from tutor.drills import CHOICE, NO, NUMBER, YES, Question, Text, build, misconception, texts, yes_no_choices
from tutor.expressions import ADD_SUB, FOUR_OPS, closest, reachable
from tutor.signs import FRACTION, exact_text, formula, fraction_text, operators, plain_formula

#: The exact value every 29 pile is built up to.
GOAL = 29
#: Ranks of the tied card in Războiul: number cards count their number, pictures count 10.
PICTURES = ("J", "Q", "K")
KING, QUEEN, JACK = "K", "Q", "J"
NONE = "none"


def _num(value) -> str:
    """An exact value as stored: "12", "-3", "7/2"."""
    return exact_text(value)


def _named(is_right, candidates, show=_num) -> list[dict]:
    """Misconceptions in priority order: a value (stored as ``show(value)``) names only the first that lists it, and never a right answer."""
    taken: set[str] = set()
    named = []
    for misconception_id, values in candidates:
        fresh = {show(v) for v in values} - taken
        fresh = {v for v in fresh if not is_right(v)}
        taken |= fresh
        if fresh:
            named.append(misconception(misconception_id, fresh))
    return named


def _ask(kind: str, params: dict, difficulty: int, variants=(), **fields) -> Question:
    """:func:`build` with the difficulty applied and the named variant tables of the kind laid over its texts."""
    if difficulty not in (1, 2, 3):
        raise ValueError(f"difficulty must be 1, 2 or 3, not {difficulty!r}")
    entry = texts(kind)
    merged = dict(entry)
    for variant in (("easy",) if difficulty == 1 else ()) + tuple(variants):
        merged.update(entry.get(variant, {}))
    question = build(kind, params, difficulty=difficulty, **fields)
    question.prompt = Text.from_content(merged["prompt"], params)
    question.hints = [
        Text.from_content(h, params) for h in (merged["hints"] if difficulty < 3 else merged["hints"][:-1])
    ]
    question.solution = [Text.from_content(s, params) for s in merged["solution"]]
    return question


# TripleSmart (Kids2 cards) ------------------------------------------------------------


def _tops(card_ids: list[int], target_card: int) -> tuple[list[int], int]:
    """The top numbers of the pupil's number cards and of the target card."""
    deck = kids2()
    if not 1 <= len(card_ids) <= 4:
        raise ValueError("TripleSmart questions need one to four of the pupil's number cards")
    cards = [deck[c] for c in [*card_ids, target_card]]
    if any(card.is_special for card in cards):
        raise ValueError("banana and Kocha cards have no top number")
    return [card.top for card in cards[:-1]], cards[-1].top


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


def _triple_params(values: list[int], target: int, search: str) -> tuple[dict, Fraction]:
    """The texts' fields of a TripleSmart question (the numbers by the fraction rule), and the best distance."""
    best_distance, best_value, best_expression = closest(values, target, search)
    params = {
        "values": ", ".join(map(str, values)),
        "target": target,
        "best_distance": fraction_text(best_distance, FRACTION),
        "best_value": fraction_text(best_value, FRACTION),
        "best_expression": plain_formula(best_expression, FRACTION),
    }
    return ({**params, **FOUR_OPS_FIELDS} if search == FOUR_OPS else params), best_distance


def _expression_check(values: list[int], target: int, best_distance) -> dict:
    return {
        "rule": "closest_to_target",
        "target": str(target),
        "numbers": [str(v) for v in values],
        "best_distance": _num(best_distance),
    }


def _is_best(target: int, best_distance):
    best = Fraction(str(best_distance))
    return lambda value: abs(Fraction(value) - target) <= best


def triplesmart_expression(card_ids: list[int], target_card: int, difficulty: int = 2) -> Question:
    """Type an expression with + and - and your cards' top numbers, each at most once, as close to the target as possible."""
    values, target = _tops(card_ids, target_card)
    params, best_distance = _triple_params(values, target, ADD_SUB)
    params["all_sum"] = sum(values)
    reached = reachable(values, ADD_SUB)
    candidates = [
        ("added_all_cards", [sum(values)] if len(values) > 1 else []),
        ("below_zero", [v for v in reached if v < 0]),
        ("one_card_only", values),
    ]
    return _ask(
        "triplesmart_expression",
        params,
        difficulty,
        answer=NUMBER,
        allow=ALLOW_ADD_SUB,
        check=_expression_check(values, target, best_distance),
        misconceptions=_named(_is_best(target, best_distance), candidates),
        cards=[*card_ids, target_card],
        number_form=FRACTION,
    )


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
    """Every bracketing and choice of operations over ``numbers`` in this order: (value, values with one division turned round)."""
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
    """Type an expression with + - x / and brackets and your cards' top numbers, each at most once, as close to the target as possible."""
    values, target = _tops(card_ids, target_card)
    params, best_distance = _triple_params(values, target, FOUR_OPS)
    order, flipped = _four_ops_slips(tuple(sorted(values)), target)
    plus_minus_distance = closest(values, target, ADD_SUB)[0]
    plus_minus_best = [v for v in reachable(values, ADD_SUB) if abs(v - target) == plus_minus_distance]
    candidates = [
        ("order_of_operations", order),
        ("divided_wrong_way", flipped),
        ("only_add_sub", plus_minus_best),
    ]
    return _ask(
        "triplesmart_extreme_expression",
        params,
        difficulty,
        answer=NUMBER,
        allow=ALLOW_FOUR_OPS,
        check=_expression_check(values, target, best_distance),
        misconceptions=_named(_is_best(target, best_distance), candidates),
        cards=[*card_ids, target_card],
        number_form=FRACTION,
    )


def _distance(kind: str, card_ids: list[int], target_card: int, value, difficulty: int) -> Question | None:
    _, target = _tops(card_ids, target_card)
    value = Fraction(str(value))
    distance = abs(value - target)
    if distance == 0:
        return None  # a perfect hit: "how far from 9 to 9?" asks nothing
    bigger, smaller = max(value, Fraction(target)), min(value, Fraction(target))
    params = {
        "value": fraction_text(value, FRACTION),
        "target": target,
        "distance": fraction_text(distance, FRACTION),
        "bigger": fraction_text(bigger, FRACTION),
        "smaller": fraction_text(smaller, FRACTION),
    }
    right = _num(distance)
    candidates = [
        ("negative_distance", [-distance]),
        ("added_instead", [value + target]),
        ("gave_a_number", [value, target]),
        ("counted_on_wrong", [distance + 1] + ([distance - 1] if distance >= 1 else [])),
    ]
    return _ask(
        kind,
        params,
        difficulty,
        answer=NUMBER,
        check={"rule": "equals", "expected": right},
        misconceptions=_named(lambda v: v == right, candidates),
        cards=[*card_ids, target_card],
        number_form=FRACTION,
    )


def triplesmart_distance(card_ids: list[int], target_card: int, value, difficulty: int = 2) -> Question | None:
    """How far is the pupil's value (made with + and -) from the target? None after a perfect hit."""
    return _distance("triplesmart_distance", card_ids, target_card, value, difficulty)


def triplesmart_extreme_distance(card_ids: list[int], target_card: int, value, difficulty: int = 2) -> Question | None:
    """How far is the pupil's value (made with + - x /, maybe a fraction) from the target? None after a perfect hit."""
    return _distance("triplesmart_extreme_distance", card_ids, target_card, value, difficulty)


def _better(kind: str, search: str, card_ids: list[int], target_card: int, value, difficulty: int) -> Question | None:
    values, target = _tops(card_ids, target_card)
    value = Fraction(str(value))
    distance = abs(value - target)
    if distance == 0:
        return None  # a perfect hit: nothing is closer, so "can you get closer?" asks nothing
    params, best_distance = _triple_params(values, target, search)
    params.update(value=fraction_text(value, FRACTION), distance=fraction_text(distance, FRACTION))
    better = distance > best_distance
    right = YES if better else NO
    if better:
        candidates = [("missed_closer", [NO])]
    else:
        candidates = [("already_best", [YES])]
    return _ask(
        kind,
        params,
        difficulty,
        variants=("yes",) if better else ("no",),
        answer=CHOICE,
        check={"rule": "choice", "expected": [right]},
        misconceptions=_named(lambda v: v == right, candidates, show=str),
        choices=yes_no_choices(),
        cards=[*card_ids, target_card],
        number_form=FRACTION,
    )


def triplesmart_better(card_ids: list[int], target_card: int, value, difficulty: int = 2) -> Question | None:
    """Can + and - with these cards get closer to the target than the pupil's value? (yes/no; None after a perfect hit)"""
    return _better("triplesmart_better", ADD_SUB, card_ids, target_card, value, difficulty)


def triplesmart_extreme_better(card_ids: list[int], target_card: int, value, difficulty: int = 2) -> Question | None:
    """Can + - x / with these cards get closer to the target than the pupil's value? (yes/no; None after a perfect hit)"""
    return _better("triplesmart_extreme_better", FOUR_OPS, card_ids, target_card, value, difficulty)


# 29 (plain playing cards) -------------------------------------------------------------


def _pile(pile) -> list[tuple[int, str]]:
    """A 29 pile as (number card, face cards on it), checked."""
    cards = []
    for entry in pile:
        number, faces = (entry, "") if isinstance(entry, int) else tuple(entry) if len(entry) == 2 else (None, "")
        if (
            not isinstance(number, int)
            or not 2 <= number <= 10
            or not isinstance(faces, str)
            or set(faces) - {KING, QUEEN, JACK}
        ):
            raise ValueError(f"a 29 pile holds number cards 2-10 with K, Q or J on them, not {entry!r}")
        cards.append((number, faces))
    return cards


def pile_value(pile, king: int = 1, queen: int = -1) -> int:
    """What a 29 pile is worth: each King adds its card once more, each Queen takes its card away.

    ``king`` and ``queen`` say how much of its card each face card adds; other values give
    the totals of a pupil who reads the face cards wrongly.
    """
    return sum(n + n * (king * faces.count(KING) + queen * faces.count(QUEEN)) for n, faces in _pile(pile))


def _pile_expression(pile) -> dict:
    """The pile worked out into numbers: a King on a 10 is "10 + 10", a Queen on an 8 is "8 − 8"."""
    terms: list = []
    for n, faces in _pile(pile):
        terms += ["+", n]
        terms += [item for face in faces if face != JACK for item in ("+" if face == KING else "-", n)]
    return formula(*terms[1:]) if terms else formula(0)


def _face_params(pile) -> tuple[dict, str | None]:
    """The pile as its number cards and the cards that carry Kings and Queens, and the prompt variant that shows them."""
    cards = _pile(pile)
    kings = [n for n, faces in cards for face in faces if face == KING]
    queens = [n for n, faces in cards for face in faces if face == QUEEN]
    params = {
        "cards": ", ".join(str(n) for n, _ in cards),
        "kings": ", ".join(map(str, kings)),
        "queens": ", ".join(map(str, queens)),
    }
    variant = "kings_queens" if kings and queens else "kings" if kings else "queens" if queens else None
    return params, variant


def twentynine_pile_value(pile, play, difficulty: int = 2) -> Question:
    """What is a 29 pile worth after a play?

    ``pile`` is the pile before the play; ``play`` is a number card laid on it (``7``) or a
    face card put on one of its number cards, ``("K", i)`` or ``("Q", i)`` with ``i`` the
    position of that card in ``pile``.
    """
    before_pile = _pile(pile)
    before = pile_value(before_pile)
    params = {"pile": _pile_expression(before_pile), "before": before}
    if isinstance(play, int):
        _pile([play])
        kind, card, after = "twentynine_number_played", play, before + play
        candidates = [
            ("forgot_new_card", [before]),
            ("took_card_away", [before - card]),
            ("counted_on_wrong", [after - 1, after + 1]),
        ]
    else:
        face, position = play
        if face not in (KING, QUEEN) or not 0 <= position < len(before_pile):
            raise ValueError(f"a play is a number card or ('K' or 'Q', position of a card in the pile), not {play!r}")
        card = before_pile[position][0]
        if face == KING:
            kind, after = "twentynine_king_played", before + card
            candidates = [
                ("king_counted_once", [before]),
                ("king_took_away", [before - card]),
                ("king_as_ten", [before + 10]),
                ("king_counted_three_times", [before + 2 * card]),
            ]
        else:
            kind, after = "twentynine_queen_played", before - card
            candidates = [
                ("queen_added", [before + card]),
                ("queen_ignored", [before]),
                ("queen_as_ten", [before - 10]),
            ]
    params.update(card=card, after=after)
    right = _num(after)
    return _ask(
        kind,
        params,
        difficulty,
        answer=NUMBER,
        check={"rule": "equals", "expected": right},
        misconceptions=_named(lambda v: v == right, candidates),
    )


def _pile_question_params(pile, difficulty: int) -> tuple[dict, tuple]:
    total = pile_value(pile)
    faces, face_variant = _face_params(pile)
    params = {"pile": _pile_expression(pile), "total": total, **faces}
    return params, ((face_variant,) if difficulty == 3 and face_variant else ())


def _misread_totals(pile) -> list[int]:
    """What the pile is worth to a pupil who adds the Queens, ignores them, or counts a King's card once."""
    cards = _pile(pile)
    if not any(KING in faces or QUEEN in faces for _, faces in cards):
        return []
    return [pile_value(cards, queen=1), pile_value(cards, queen=0), pile_value(cards, king=0)]


def twentynine_missing_value(pile, difficulty: int = 2) -> Question:
    """How many more points bring this 29 pile to exactly 29? (the pile must be worth less than 29)"""
    params, variants = _pile_question_params(pile, difficulty)
    total = params["total"]
    if total >= GOAL:
        raise ValueError(f"the pile is worth {total}: nothing more is missing to make {GOAL}")
    missing = GOAL - total
    params["missing"] = missing
    right = _num(missing)
    candidates = [
        ("gave_pile_total", [total]),
        ("added_instead", [GOAL + total]),
        ("face_cards_misread", [GOAL - t for t in _misread_totals(pile)]),
        ("from_thirty", [30 - total]),
        ("from_twenty", [20 - total] if total <= 20 else []),
        ("off_by_one", [missing - 1, missing + 1]),
    ]
    return _ask(
        "twentynine_missing_value",
        params,
        difficulty,
        variants=variants,
        answer=NUMBER,
        check={"rule": "equals", "expected": right},
        misconceptions=_named(lambda v: v == right, candidates),
    )


def _label(kind: str, key: str, **params) -> Text:
    """A button label of ``kind`` (``[kind.labels] key`` in the content file)."""
    return Text(texts(kind)["labels"][key], params)


def _hand_label(card) -> Text:
    if card in (KING, QUEEN):
        return _label("twentynine_which_card", "king" if card == KING else "queen")
    return _label("twentynine_which_card", "number", value=card)


def twentynine_which_card(pile, hand: list, difficulty: int = 2, labels: dict[int, Text] | None = None) -> Question:
    """Which card of the pupil's (number cards 2-10, "K", "Q") makes this pile exactly 29? (buttons; "none of them" may be right)

    A King may go on any number card of the pile (that card then counts twice), a Queen
    on any number card (its value is taken away). Choice values are the positions in
    ``hand`` as text, and ``"none"``; ``labels`` may name hand positions (default: "7", "King").
    """
    if not hand:
        raise ValueError("the pupil has no cards to choose from")
    for card in hand:
        if card not in (KING, QUEEN) and not (isinstance(card, int) and 2 <= card <= 10):
            raise ValueError(f"a hand card here is a number card 2-10, 'K' or 'Q', not {card!r}")
    params, variants = _pile_question_params(pile, difficulty)
    total = params["total"]
    if total == GOAL:
        raise ValueError(f"the pile is already worth exactly {GOAL}")
    numbers = {n for n, _ in _pile(pile)}
    missing = GOAL - total
    params.update(missing=abs(missing))

    def makes_goal(card) -> bool:
        if card == KING:
            return missing in numbers
        if card == QUEEN:
            return -missing in numbers
        return card == missing

    right = {str(i) for i, card in enumerate(hand) if makes_goal(card)} or {NONE}
    if missing > 0:
        by_mistake = [
            ("queen_adds", [i for i, c in enumerate(hand) if c == QUEEN]),
            ("king_needs_matching_card", [i for i, c in enumerate(hand) if c == KING]),
            ("from_thirty", [i for i, c in enumerate(hand) if c == missing + 1]),
            ("off_by_one", [i for i, c in enumerate(hand) if c == missing - 1]),
            ("over_29", [i for i, c in enumerate(hand) if isinstance(c, int) and c > missing]),
        ]
    else:
        by_mistake = [
            ("adds_when_over", [i for i, c in enumerate(hand) if c != QUEEN]),
            ("queen_needs_matching_card", [i for i, c in enumerate(hand) if c == QUEEN]),
        ]
    by_mistake.append(("missed_a_card", [NONE]))
    variant = ("over" if missing < 0 else "under") + ("_none" if right == {NONE} else "")
    # No "card" key: these are ordinary playing cards, not Kids2 cards the page could draw.
    choices = [{"value": str(i), "label": (labels or {}).get(i) or _hand_label(card)} for i, card in enumerate(hand)]
    choices.append({"value": NONE, "label": _label("twentynine_which_card", NONE)})
    return _ask(
        "twentynine_which_card",
        params,
        difficulty,
        variants=(*variants, variant),
        answer=CHOICE,
        check={"rule": "choice", "expected": sorted(right)},
        misconceptions=_named(lambda v: v in right, by_mistake, show=str),
        choices=choices,
    )


# Războiul (plain playing cards) -------------------------------------------------------


def war_worth(rank) -> int:
    """How many cards each player lays in a Războiul war on this tied rank: its number, 10 for a picture."""
    if rank in PICTURES:
        return 10
    if isinstance(rank, int) and 2 <= rank <= 10:
        return rank
    raise ValueError(
        f"a Războiul war starts on a tie of 2-10 or J, Q, K, not {rank!r} (the ace is not decided in games.md)"
    )


def razboiul_war_cards(rank, players: int = 2, difficulty: int = 2, shortest: int | None = None) -> Question:
    """How many new cards go down in this Războiul war, all players together?

    ``rank`` is the tied card (2-10, "J", "Q", "K"), ``players`` how many take part, and
    ``shortest`` the fewest cards any of them holds (everyone lays only that many).
    """
    worth = war_worth(rank)
    if not 2 <= players <= 4:
        raise ValueError("a war has two to four players")
    if shortest is not None and shortest < 1:
        raise ValueError("a player with no cards loses instead of going to war")
    each = min(worth, shortest) if shortest is not None else worth
    total = each * players
    params = {
        "rank": rank,
        "worth": worth,
        "players": players,
        "each": each,
        "face_down": each - 1,
        "shortest": shortest or worth,
        "total": total,
        "product_question": formula(players, "*", each),
        "fact": formula(players, "*", each, "=", total),
    }
    if each < worth:
        kind = "razboiul_short_war_cards"
        first = [("shortest_ignored", [worth * players])]
    elif rank in PICTURES:
        kind = "razboiul_picture_war_cards"
        first = []
    else:
        kind = "razboiul_war_cards"
        first = []
    candidates = first + [
        ("one_player_only", [each]),
        ("face_up_card_forgotten", [(each - 1) * players]),
        ("tied_card_counted", [(each + 1) * players]),
        ("picture_as_rank", [r * players for r in (11, 12, 13)] if kind == "razboiul_picture_war_cards" else []),
        ("added_players", [each + players]),
    ]
    right = _num(total)
    return _ask(
        kind,
        params,
        difficulty,
        answer=NUMBER,
        check={"rule": "equals", "expected": right},
        misconceptions=_named(lambda v: v == right, candidates),
    )


GENERATORS = {
    "add_sub": [
        triplesmart_expression,
        triplesmart_distance,
        triplesmart_better,
        twentynine_pile_value,
        razboiul_war_cards,
    ],
    "four_ops": [triplesmart_extreme_expression, triplesmart_extreme_distance, triplesmart_extreme_better],
    "missing_addend": [twentynine_missing_value, twentynine_which_card],
}
