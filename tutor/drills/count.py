"""Skill ``count``: how many cards a player holds, takes or lays in a round of War, and who is ahead.

The War family asks it with plain counts from the position: how many cards you hold after
a round, how many the winner takes, how many cards a war puts on the table, how many
cards you are ahead or behind, and in Strategy War how many of the cards you cannot see
beat yours. Every count is typed at every difficulty (:func:`tutor.drills.common.number_answer`);
for the first three kinds the difficulty sets the support (a tip in the prompt at 1, the
plain question at 2, the last hint left out at 3), for the others it sets the question. A
typed wrong count that a misconception lists is named. Texts: ``content/drills/count.toml``.
"""

from __future__ import annotations

from tutor.drills import NUMBER, Question
from tutor.drills.common import (
    OFF_BY_ONE,
    ask,
    ask_with_support,
    check_difficulty,
    check_whole_numbers,
    claim,
    number_answer,
    summed,
)
from tutor.drills.compare import beats
from tutor.signs import formula
from tutor.standard_deck import ACE, JOKER_RANK, card, rank_corner


def _count_question(kind: str, right: int, params: dict, candidates: list, difficulty: int) -> Question:
    candidates = [(mid, [v for v in values if v >= 0]) for mid, values in candidates]
    misconceptions = claim(candidates, lambda v: v != right, keep_empty=True)
    return ask_with_support(
        kind, {**params, "right": right}, difficulty, **number_answer(right), misconceptions=misconceptions
    )


def cards_after_win(held: int, won: int, difficulty: int = 2) -> Question:
    """How many cards you hold now: ``held`` in your pile and ``won`` taken from the table (War)."""
    check_difficulty(difficulty)
    check_whole_numbers(held, won)
    if won < 1:
        raise ValueError("a win takes at least one card")
    right = held + won
    params = {"held": held, "won": won, "almost": right - 1}
    candidates = [
        ("forgot_held", [won]),
        ("pot_twice", [held + 2 * won]),
        ("subtracted", [held - won]),
        ("off_by_one", [right - 1, right + 1]),
    ]
    return _count_question("cards_after_win", right, params, candidates, difficulty)


def cards_after_loss(held: int, lost: int, difficulty: int = 2) -> Question:
    """How many cards you hold now: you had ``held`` and gave ``lost`` of them away (War)."""
    check_difficulty(difficulty)
    check_whole_numbers(held, lost)
    if not 1 <= lost <= held:
        raise ValueError("you can only lose cards you hold")
    right = held - lost
    params = {"held": held, "lost": lost, "almost": right + 1}
    candidates = [
        ("answered_lost", [lost]),
        ("added_instead", [held + lost]),
        ("off_by_one", [right - 1, right + 1]),
    ]
    return _count_question("cards_after_loss", right, params, candidates, difficulty)


def cards_on_table(laid: list[int], difficulty: int = 2) -> Question:
    """How many cards the winner takes: every card laid this round; ``laid[0]`` are yours (War)."""
    check_difficulty(difficulty)
    check_whole_numbers(*laid)
    if len(laid) < 2 or laid[0] < 1:
        raise ValueError("a battle has at least two players, and you laid a card")
    right = sum(laid)
    yours, others = laid[0], laid[1:]
    params = {
        "yours": yours,
        "others": " + ".join(map(str, others)),
        "others_total": sum(others),
        "expr": " + ".join(map(str, laid)),
    }
    candidates = [
        ("only_own", [yours]),
        ("forgot_own", [right - yours]),
        ("pot_twice", [2 * right]),
        ("off_by_one", [right - 1, right + 1]),
    ]
    return _count_question("cards_on_table", right, params, candidates, difficulty)


def _typed_count(
    kind: str, right: int, params: dict, candidates: list, difficulty: int, cases=(), **fields
) -> Question:
    """A count typed as a number; each listed mistake (a whole number, 0 or more) names its misconception."""
    return ask(
        kind,
        {**params, "right": right},
        cases,
        answer=NUMBER,
        check={"rule": "equals", "expected": str(right)},
        misconceptions=claim(candidates, lambda v: v != right and v >= 0),
        difficulty=difficulty,
        **fields,
    )


def winner_takes(laid: list[int], difficulty: int = 2) -> Question:
    """How many cards the winner of a round takes: every card each player laid (``laid``, one count per player)."""
    difficulty = check_difficulty(difficulty)
    check_whole_numbers(*laid)
    if len(laid) < 2 or not all(laid):
        raise ValueError("a round has at least two players, and each laid a card")
    right = sum(laid)
    params = {
        "counts": ", ".join(map(str, laid)),
        "expr": formula(*summed(laid)),
        "fact": formula(*summed(laid), "=", right),
        "players": len(laid),
    }
    candidates = [
        ("only_face_up", [len(laid)]),
        ("forgot_one_player", [right - n for n in laid]),
        ("pot_twice", [2 * right]),
        (OFF_BY_ONE, [right - 1, right + 1]),
    ]
    return _typed_count("winner_takes", right, params, candidates, difficulty)


def war_cards(players: int, down: int, difficulty: int = 2, on_table: int = 0) -> Question:
    """How many cards a war puts on the table: each of ``players`` lays ``down`` cards face down and turns one.

    Difficulty 1 asks only for the pupil's own cards; 2 for every player's; 3 for the
    cards on the table after the war, the ``on_table`` already there included.
    """
    difficulty = check_difficulty(difficulty)
    check_whole_numbers(players, down, on_table)
    if players < 2 or down < 1:
        raise ValueError("a war has at least two players, and each lays a card face down")
    each = down + 1
    if difficulty == 3 and on_table < players:
        raise ValueError("before a war every player in it has a card on the table")
    right = {1: each, 2: players * each, 3: on_table + players * each}[difficulty]
    params = {
        "players": players,
        "down": down,
        "each": each,
        "on_table": on_table,
        "each_question": formula(down, "+", 1),
        "each_fact": formula(down, "+", 1, "=", each),
        "all_question": formula(players, "*", each),
        "all_fact": formula(players, "*", each, "=", players * each),
        "table_question": formula(on_table, "+", players * each),
        "table_fact": formula(on_table, "+", players * each, "=", on_table + players * each),
    }
    candidates = [
        ("forgot_face_up", [{1: down, 2: players * down, 3: on_table + players * down}[difficulty]]),
        ("only_yours", {1: [], 2: [each], 3: [on_table + each]}[difficulty]),
        ("added_not_multiplied", [players + each] if difficulty == 2 else []),
        ("forgot_table", [players * each] if difficulty == 3 else []),
        (OFF_BY_ONE, [right - 1, right + 1]),
    ]
    return _typed_count(
        "war_cards", right, params, candidates, difficulty, [{1: "yours", 2: "all", 3: "table"}[difficulty]]
    )


def cards_ahead(mine: int, theirs: int, other: dict, difficulty: int = 2, won: bool = False) -> Question:
    """How many cards the leader is ahead: you hold ``mine``, the other player (``other``, a name) ``theirs``.

    ``other`` is the player's name as a text's field (a :class:`tutor.text.Text` as a dict);
    with ``won`` the counts are the cards won this round (Tod und Leben), not the cards held.
    """
    difficulty = check_difficulty(difficulty)
    check_whole_numbers(mine, theirs)
    if mine == theirs:
        raise ValueError("nobody is ahead when the counts are equal")
    right = abs(mine - theirs)
    params = {
        "mine": mine,
        "theirs": theirs,
        "other": other,
        "question": formula(max(mine, theirs), "-", min(mine, theirs)),
        "fact": formula(max(mine, theirs), "-", min(mine, theirs), "=", right),
    }
    candidates = [
        ("answered_count", [max(mine, theirs), min(mine, theirs)]),
        ("added", [mine + theirs]),
        (OFF_BY_ONE, [right - 1, right + 1]),
    ]
    cases = [*(["won"] if won else []), *([] if mine > theirs else ["won_behind" if won else "behind"])]
    return _typed_count("cards_ahead", right, params, candidates, difficulty, cases)


def unseen_beat_count(mine: int, seen: list[int], jokers: bool = False, difficulty: int = 2) -> Question:
    """Strategy War: how many of the cards the pupil cannot see beat the card ``mine`` (the 2 beats the ace).

    ``seen`` are the other cards the pupil sees (the rest of the hand, face-up cards on the
    table); the deck is 52 cards, with two jokers when ``jokers``. Four cards of each rank.
    """
    difficulty = check_difficulty(difficulty)
    target = card(mine).rank
    if mine in seen or target == JOKER_RANK and not jokers:
        raise ValueError("the card is not among the others seen, and a joker needs the jokers")
    ranks = [*range(2, 15), *([JOKER_RANK] if jokers else [])]
    beating = [r for r in ranks if beats(r, target, JOKER_RANK if jokers else ACE)]
    per_rank = {r: 2 if r == JOKER_RANK else 4 for r in beating}
    total = sum(per_rank.values())
    seen_beating = [c for c in seen if card(c).rank in per_rank]
    right = total - len(seen_beating)
    plain = [r for r in beating if r != JOKER_RANK]
    total_fact = formula(len(plain), "*", 4, *(["+", 2] if JOKER_RANK in beating else []), "=", total)
    params = {
        "card": rank_corner(target),
        "ranks": ", ".join(rank_corner(r) for r in beating),
        "rank_count": len(beating),
        "total": total,
        "total_fact": total_fact,
        "seen_count": len(seen_beating),
        "seen": ", ".join(rank_corner(card(c).rank) for c in seen_beating) or "0",
        "fact": formula(total, "-", len(seen_beating), "=", right),
    }
    same_rank = 4 - 1 - sum(1 for c in seen if card(c).rank == target)
    candidates = [
        ("forgot_seen", [total] if seen_beating else []),
        ("counted_ranks", [len(beating)]),
        ("counted_equal", [right + same_rank] if same_rank else []),
        (OFF_BY_ONE, [right - 1, right + 1]),
    ]
    return _typed_count(
        "unseen_beat_count",
        right,
        params,
        candidates,
        difficulty,
        [] if seen_beating else ["none_seen"],
        cards=[mine],  # the seen cards are in the hand and on the table already
    )


GENERATORS = [
    cards_after_win,
    cards_after_loss,
    cards_on_table,
    winner_takes,
    war_cards,
    cards_ahead,
    unseen_beat_count,
]
