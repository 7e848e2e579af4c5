"""Skill ``add_sub``: add and subtract small numbers to reach a target (TripleSmart, 29, Războiul).

TripleSmart questions take Kids2 card ids (the pupil's number cards and the target card;
only top numbers count); TripleSmart: Extreme (:mod:`tutor.drills.four_ops`) asks the same
questions with + - x / and builds on them here. 29 and Războiul take standard card ids
(:mod:`tutor.standard_deck`). A 29 pile is a list of number cards 2-10, each given as its
card id alone or as ``(card id, [ids of the face cards on it])`` (a King: the card counts
twice, a Queen: its value is taken away, a Jack: no effect on the value); the pile is shown
as its total at difficulty 1 and worked out into numbers at 2 ("10 + 10 + 8 - 8" for a King
on the 10 and a Queen on the 8). Războiul's question takes the tied card.

Difficulty works the same way in every kind (:func:`tutor.drills.common.ask_with_support`):
1 gives a helping tip in the prompt, 2 is the plain question, 3 leaves out the last hint.
Misconception values never include a right answer, and each wrong value names only the
first misconception that lists it. Texts: ``content/drills/add_sub.toml``.
"""

from __future__ import annotations

from fractions import Fraction

from tutor.answers import ALLOW_ADD_SUB
from tutor.deck import kids2
from tutor.drills import CHOICE, NO, NUMBER, YES, Question
from tutor.drills.common import ask_with_support, claim, yes_no_choices
from tutor.expressions import ADD_SUB, closest, reachable
from tutor.signs import FRACTION, exact_text, formula, fraction_text, plain_formula
from tutor.standard_deck import JACK, KING, QUEEN, RANK_LETTERS, card

# TripleSmart (Kids2 cards) ------------------------------------------------------------


def card_tops(card_ids: list[int], target_card: int) -> tuple[list[int], int]:
    """The top numbers of the pupil's number cards and of the target card."""
    deck = kids2()
    if not 1 <= len(card_ids) <= 4:
        raise ValueError("TripleSmart questions need one to four of the pupil's number cards")
    cards = [deck[c] for c in [*card_ids, target_card]]
    if any(found.is_special for found in cards):
        raise ValueError("banana and Kocha cards have no top number")
    return [found.top for found in cards[:-1]], cards[-1].top


def triplesmart_params(
    values: list[int], target: int, search: str, fields: dict | None = None
) -> tuple[dict, Fraction]:
    """The texts' fields of a TripleSmart question (the numbers by the fraction rule, then ``fields``),
    and the best distance that ``search`` (:mod:`tutor.expressions`: + and -, or all four operations) reaches."""
    best_distance, best_value, best_expression = closest(values, target, search)
    params = {
        "values": ", ".join(map(str, values)),
        "target": target,
        "best_distance": fraction_text(best_distance, FRACTION),
        "best_value": fraction_text(best_value, FRACTION),
        "best_expression": plain_formula(best_expression, FRACTION),
    }
    return {**params, **(fields or {})}, best_distance


def expression_check(values: list[int], target: int, best_distance) -> dict:
    """The named check of a typed expression: as close to the target as the best, with the cards' numbers only."""
    return {
        "rule": "closest_to_target",
        "target": str(target),
        "numbers": [str(v) for v in values],
        "best_distance": exact_text(best_distance),
    }


def is_not_best(target: int, best_distance):
    """Whether a value is further from the target than the best distance: a wrong expression's value."""
    best = Fraction(str(best_distance))
    return lambda value: abs(Fraction(value) - target) > best


def triplesmart_expression(card_ids: list[int], target_card: int, difficulty: int = 2) -> Question:
    """Type an expression with + and - and your cards' top numbers, each at most once, as close to the target
    as possible."""
    values, target = card_tops(card_ids, target_card)
    params, best_distance = triplesmart_params(values, target, ADD_SUB)
    params["all_sum"] = sum(values)
    reached = reachable(values, ADD_SUB)
    candidates = [
        ("added_all_cards", [sum(values)] if len(values) > 1 else []),
        ("below_zero", [v for v in reached if v < 0]),
        ("one_card_only", values),
    ]
    return ask_with_support(
        "triplesmart_expression",
        params,
        difficulty,
        answer=NUMBER,
        allow=ALLOW_ADD_SUB,
        check=expression_check(values, target, best_distance),
        misconceptions=claim(candidates, is_not_best(target, best_distance), exact_text),
        cards=[*card_ids, target_card],
        number_form=FRACTION,
    )


def distance_question(
    kind: str, card_ids: list[int], target_card: int, value, difficulty: int, maker: dict | None = None
) -> Question | None:
    """How far the pupil's value (or the value of ``maker``, another player's name as a text's field) is from the
    target card's top number; None after a perfect hit."""
    _, target = card_tops(card_ids, target_card)
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
        "maker": maker or "",  # another player's name, for the "other" case (every case's texts fill)
    }
    candidates = [
        ("negative_distance", [-distance]),
        ("added_instead", [value + target]),
        ("gave_a_number", [value, target]),
        ("counted_on_wrong", [distance + 1] + ([distance - 1] if distance >= 1 else [])),
    ]
    return ask_with_support(
        kind,
        params,
        difficulty,
        ["other"] if maker else [],
        answer=NUMBER,
        check={"rule": "equals", "expected": exact_text(distance)},
        misconceptions=claim(candidates, lambda v: v != distance, exact_text),
        cards=[*card_ids, target_card],
        number_form=FRACTION,
    )


def triplesmart_distance(
    card_ids: list[int], target_card: int, value, difficulty: int = 2, maker: dict | None = None
) -> Question | None:
    """How far is the pupil's value (made with + and -), or ``maker``'s, from the target? None after a perfect hit."""
    return distance_question("triplesmart_distance", card_ids, target_card, value, difficulty, maker)


def better_question(
    kind: str,
    search: str,
    card_ids: list[int],
    target_card: int,
    value,
    difficulty: int,
    fields: dict | None = None,
) -> Question | None:
    """Can ``search`` with these cards get closer to the target than the pupil's value? (yes/no; None after
    a perfect hit, where nothing is closer); ``fields`` are more fields for the texts."""
    values, target = card_tops(card_ids, target_card)
    value = Fraction(str(value))
    distance = abs(value - target)
    if distance == 0:
        return None  # a perfect hit: nothing is closer, so "can you get closer?" asks nothing
    params, best_distance = triplesmart_params(values, target, search, fields)
    params.update(value=fraction_text(value, FRACTION), distance=fraction_text(distance, FRACTION))
    better = distance > best_distance
    right = YES if better else NO
    candidates = [("missed_closer", [NO])] if better else [("already_best", [YES])]
    return ask_with_support(
        kind,
        params,
        difficulty,
        ["yes"] if better else ["no"],
        answer=CHOICE,
        check={"rule": "choice", "expected": [right]},
        misconceptions=claim(candidates, lambda answer: answer != right),
        choices=yes_no_choices(),
        cards=[*card_ids, target_card],
        number_form=FRACTION,
    )


def triplesmart_better(card_ids: list[int], target_card: int, value, difficulty: int = 2) -> Question | None:
    """Can + and - with these cards get closer to the target than the pupil's value? (yes/no; None after a
    perfect hit)"""
    return better_question("triplesmart_better", ADD_SUB, card_ids, target_card, value, difficulty)


# 29 (standard cards) -------------------------------------------------------------------


def pile_entries(pile) -> list[tuple[int, list[int]]]:
    """A 29 pile as (number card id, the face card ids on it), checked: number cards 2-10, Kings, Queens, Jacks."""
    entries = []
    for entry in pile:
        number, faces = (entry, []) if isinstance(entry, int) else tuple(entry) if len(entry) == 2 else (None, [])
        try:
            fits = 2 <= card(number).rank <= 10 and all(card(face).rank in (JACK, QUEEN, KING) for face in faces)
        except (TypeError, ValueError):
            fits = False
        if not fits:
            raise ValueError(f"a 29 pile holds number cards 2-10 with Kings, Queens or Jacks on them, not {entry!r}")
        entries.append((number, list(faces)))
    return entries


def pile_cards(pile) -> list[tuple[int, str]]:
    """A 29 pile as (number card's value, the face cards on it as letters: "K", "Q", "J"), checked."""
    return [
        (card(number).rank, "".join(RANK_LETTERS[card(face).rank] for face in faces))
        for number, faces in pile_entries(pile)
    ]


def pile_value(pile, king: int = 1, queen: int = -1) -> int:
    """What a 29 pile is worth: each King adds its card once more, each Queen takes its card away.

    ``king`` and ``queen`` say how much of its card each face card adds; other values give
    the totals of a pupil who reads the face cards wrongly.
    """
    return sum(n + n * (king * faces.count("K") + queen * faces.count("Q")) for n, faces in pile_cards(pile))


def pile_expression(pile) -> dict:
    """The pile worked out into numbers: a King on a 10 is "10 + 10", a Queen on an 8 is "8 − 8"."""
    terms: list = []
    for n, faces in pile_cards(pile):
        terms += ["+", n]
        terms += [item for face in faces if face != "J" for item in ("+" if face == "K" else "-", n)]
    return formula(*terms[1:]) if terms else formula(0)


def twentynine_play(pile, play) -> tuple[int, int, str]:
    """What a play does to a 29 pile: (the value it adds or takes away, the pile's value after, the card laid).

    ``play`` is a number card laid on the pile (its id), or a King or Queen put on one of the
    pile's number cards, ``(face card id, number card id)``; the third value is "number",
    "king" or "queen".
    """
    before = pile_value(pile)
    if isinstance(play, int):
        (laid, _), *_ = pile_cards([play])
        return laid, before + laid, "number"
    face, number = play if isinstance(play, tuple | list) and len(play) == 2 else (None, None)
    numbers = [n for n, _ in pile_entries(pile)]
    try:
        face_rank = card(face).rank
    except (TypeError, ValueError):
        face_rank = None
    if face_rank not in (KING, QUEEN) or number not in numbers:
        raise ValueError(f"a play is a number card, or (a King or Queen, a number card of the pile), not {play!r}")
    laid = card(number).rank
    return (laid, before + laid, "king") if face_rank == KING else (laid, before - laid, "queen")


def twentynine_pile_value(pile, play, difficulty: int = 2) -> Question:
    """What is a 29 pile worth after a play?

    ``pile`` is the pile before the play; ``play`` is a number card laid on it, or a King or
    Queen put on one of its number cards (:func:`twentynine_play`).
    """
    before = pile_value(pile)
    laid, after, what = twentynine_play(pile, play)
    params = {"pile": pile_expression(pile), "before": before}
    if what == "number":
        kind = "twentynine_number_played"
        candidates = [
            ("forgot_new_card", [before]),
            ("took_card_away", [before - laid]),
            ("counted_on_wrong", [after - 1, after + 1]),
        ]
    elif what == "king":
        kind = "twentynine_king_played"
        candidates = [
            ("king_counted_once", [before]),
            ("king_took_away", [before - laid]),
            ("king_as_ten", [before + 10]),
            ("king_counted_three_times", [before + 2 * laid]),
        ]
    else:
        kind = "twentynine_queen_played"
        candidates = [
            ("queen_added", [before + laid]),
            ("queen_ignored", [before]),
            ("queen_as_ten", [before - 10]),
        ]
    params.update(card=laid, after=after)
    return ask_with_support(
        kind,
        params,
        difficulty,
        answer=NUMBER,
        check={"rule": "equals", "expected": exact_text(after)},
        misconceptions=claim(candidates, lambda v: v != after, exact_text),
    )


# Războiul (standard cards) --------------------------------------------------------------


def war_worth(card_id: int) -> int:
    """How many cards each player lays in a Războiul war on this tied card: its number, 10 for a picture."""
    tied = card(card_id)
    if tied.is_picture:
        return 10
    if 2 <= tied.rank <= 10:
        return tied.rank
    raise ValueError(
        f"a Războiul war starts on a tie of 2-10 or J, Q, K, not {tied.code} (the ace is not decided in games.md)"
    )


def razboiul_war_cards(card_id: int, players: int = 2, difficulty: int = 2, shortest: int | None = None) -> Question:
    """How many new cards go down in this Războiul war, all players together?

    ``card_id`` is the tied card (2-10, J, Q, K), ``players`` how many take part, and
    ``shortest`` the fewest cards any of them holds (everyone lays only that many).
    """
    worth = war_worth(card_id)
    if not 2 <= players <= 4:
        raise ValueError("a war has two to four players")
    if shortest is not None and shortest < 1:
        raise ValueError("a player with no cards loses instead of going to war")
    tied = card(card_id)
    each = min(worth, shortest) if shortest is not None else worth
    total = each * players
    params = {
        "rank": tied.rank_text if tied.is_picture else tied.rank,
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
    elif tied.is_picture:
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
    return ask_with_support(
        kind,
        params,
        difficulty,
        answer=NUMBER,
        check={"rule": "equals", "expected": exact_text(total)},
        misconceptions=claim(candidates, lambda v: v != total, exact_text),
    )


GENERATORS = [
    triplesmart_expression,
    triplesmart_distance,
    triplesmart_better,
    twentynine_pile_value,
    razboiul_war_cards,
]
