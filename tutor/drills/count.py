"""Skill ``count``: how many cards a player holds or takes after a round of War.

The War family asks it with plain counts from the position. The count is typed at every
difficulty (:func:`tutor.drills.common.number_answer`); the difficulty sets the support:
a tip in the prompt at 1, the plain question at 2, the last hint left out at 3. A typed
wrong count that a misconception lists is named. Texts: ``content/drills/count.toml``.
"""

from __future__ import annotations

from tutor.drills import Question
from tutor.drills.common import ask_with_support, check_difficulty, check_whole_numbers, claim, number_answer


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


GENERATORS = [cards_after_win, cards_after_loss, cards_on_table]
