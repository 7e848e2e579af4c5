"""Skill ``tens_friends``: the number that makes ten with a card's top number, 3 + ? = 10.

Crazy Banana: Tiervenner asks it about Kids2 cards given by id. The number is typed at
every difficulty, which sets the support (a tip in the prompt at 1, the last hint left out
at 3); the card is chosen from 3, 5 or 9 of the pupil's cards as buttons and "none".
Texts: ``content/drills/tens_friends.toml``.
"""

from __future__ import annotations

from tutor.deck import kids2
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

#: How many of the pupil's cards are offered as buttons, by difficulty.
CARD_BUTTONS = {1: 3, 2: 5, 3: 9}


def _tens_misconceptions(n: int) -> list[tuple[str, list[int]]]:
    friend = 10 - n
    return [
        ("same_number", [n]),
        ("added_ten", [10 + n]),
        ("counting_slip", [friend - 1, friend + 1]),
        ("friend_of_100", [100 - n]),
    ]


def tens_friend_number(card_id: int, difficulty: int = 2) -> Question:
    """The tens-friend of the top number of a card: n + ? = 10 (Crazy Banana: Tiervenner)."""
    check_difficulty(difficulty)
    kind = "tens_friend_number"
    n = number_card(card_id).top
    friend = 10 - n
    params = {"n": n, "friend": friend, "almost": friend - 1, "count_up": ", ".join(str(k) for k in range(n + 1, 11))}
    misconceptions = claim(_tens_misconceptions(n), lambda v: v != friend, keep_empty=True)
    return ask_with_support(
        kind, params, difficulty, **number_answer(friend), misconceptions=misconceptions, cards=[card_id]
    )


def tens_friend_card(hand: list[int], top_card: int, difficulty: int = 2) -> Question:
    """Which of your cards is a tens-friend of the top card: the top numbers make 10 (or none)."""
    check_difficulty(difficulty)
    kind = "tens_friend_card"
    top = number_card(top_card)
    n, friend = top.top, 10 - top.top
    if len(set(hand)) != len(hand):
        raise ValueError("a card is twice in the hand")
    cards, seen = [], set()
    for card in (kids2()[c] for c in hand):
        if not card.is_special and (card.colour, card.top) not in seen:
            seen.add((card.colour, card.top))
            cards.append(card)
    if not cards:
        raise ValueError("the hand has no number card")
    right = [c for c in cards if c.top == friend]
    candidates = [
        ("same_number", [c for c in cards if c.top == n]),
        ("counting_slip", [c for c in cards if c.top in (friend - 1, friend + 1)]),
        ("same_colour", [c for c in cards if c.colour == top.colour]),
    ]
    ranked = round_robin([[c for c in group if c not in right] for _, group in candidates])
    offered = pick(right, ranked, cards, CARD_BUTTONS[difficulty])
    choices = [
        {"value": str(c.id), "card": c.id, "label": card_label(kind, c), "describes_card": True} for c in offered
    ]
    choices.append({"value": NONE, "label": label(kind, NONE)})
    expected = sorted(str(c.id) for c in right if c in offered) or [NONE]
    answer = card_label(kind, right[0]) if right else label(kind, NONE)
    params = {"n": n, "friend": friend, "answer": answer.to_dict()}
    return build(
        kind,
        params,
        answer=CHOICE,
        check={"rule": "choice", "expected": expected},
        misconceptions=claim(
            [(mid, [c.id for c in group]) for mid, group in candidates],
            lambda card_id: str(card_id) not in expected,
            keep_empty=True,
        ),
        choices=choices,
        cards=[top_card, *(c.id for c in offered)],
        difficulty=difficulty,
    )


GENERATORS = [tens_friend_number, tens_friend_card]
