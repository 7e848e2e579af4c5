"""Skill ``missing_addend``: what brings this 29 pile to exactly 29?

29 (no engine yet) will ask it. A pile is a list of number cards 2-10 with the face cards
lying on them, as in :mod:`tutor.drills.add_sub`, which says what a pile is worth; a hand
card is a number 2-10, "K" or "Q". Difficulty 1 gives a tip in the prompt, 3 leaves out
the last hint and shows the pile as number cards with their Kings and Queens, so that the
pupil applies the face-card rules. Texts: ``content/drills/missing_addend.toml``.
"""

from __future__ import annotations

from tutor.drills import CHOICE, NUMBER, Question
from tutor.drills.add_sub import KING, QUEEN, pile_cards, pile_expression, pile_value
from tutor.drills.common import NONE, ask_with_support, claim, label
from tutor.signs import exact_text
from tutor.text import Text

#: The exact value every 29 pile is built up to.
GOAL = 29


def _face_params(pile) -> tuple[dict, str | None]:
    """The pile as its number cards and the cards that carry Kings and Queens, and the case that shows them."""
    cards = pile_cards(pile)
    kings = [n for n, faces in cards for face in faces if face == KING]
    queens = [n for n, faces in cards for face in faces if face == QUEEN]
    params = {
        "cards": ", ".join(str(n) for n, _ in cards),
        "kings": ", ".join(map(str, kings)),
        "queens": ", ".join(map(str, queens)),
    }
    case = "kings_queens" if kings and queens else "kings" if kings else "queens" if queens else None
    return params, case


def _pile_question_params(pile, difficulty: int) -> tuple[dict, tuple]:
    total = pile_value(pile)
    faces, face_case = _face_params(pile)
    params = {"pile": pile_expression(pile), "total": total, **faces}
    return params, ((face_case,) if difficulty == 3 and face_case else ())


def _misread_totals(pile) -> list[int]:
    """What the pile is worth to a pupil who adds the Queens, ignores them, or counts a King's card once."""
    cards = pile_cards(pile)
    if not any(KING in faces or QUEEN in faces for _, faces in cards):
        return []
    return [pile_value(cards, queen=1), pile_value(cards, queen=0), pile_value(cards, king=0)]


def twentynine_missing_value(pile, difficulty: int = 2) -> Question:
    """How many more points bring this 29 pile to exactly 29? (the pile must be worth less than 29)"""
    params, cases = _pile_question_params(pile, difficulty)
    total = params["total"]
    if total >= GOAL:
        raise ValueError(f"the pile is worth {total}: nothing more is missing to make {GOAL}")
    missing = GOAL - total
    params["missing"] = missing
    candidates = [
        ("gave_pile_total", [total]),
        ("added_instead", [GOAL + total]),
        ("face_cards_misread", [GOAL - t for t in _misread_totals(pile)]),
        ("from_thirty", [30 - total]),
        ("from_twenty", [20 - total] if total <= 20 else []),
        ("off_by_one", [missing - 1, missing + 1]),
    ]
    return ask_with_support(
        "twentynine_missing_value",
        params,
        difficulty,
        cases,
        answer=NUMBER,
        check={"rule": "equals", "expected": exact_text(missing)},
        misconceptions=claim(candidates, lambda v: v != missing, exact_text),
    )


def _hand_label(hand_card) -> Text:
    if hand_card in (KING, QUEEN):
        return label("twentynine_which_card", "king" if hand_card == KING else "queen")
    return label("twentynine_which_card", "number", value=hand_card)


def twentynine_which_card(pile, hand: list, difficulty: int = 2, labels: dict[int, Text] | None = None) -> Question:
    """Which card of the pupil's (number cards 2-10, "K", "Q") makes this pile exactly 29? (buttons; "none of
    them" may be right)

    A King may go on any number card of the pile (that card then counts twice), a Queen
    on any number card (its value is taken away). Choice values are the positions in
    ``hand`` as text, and ``"none"``; ``labels`` may name hand positions (default: "7", "King").
    """
    if not hand:
        raise ValueError("the pupil has no cards to choose from")
    for hand_card in hand:
        if hand_card not in (KING, QUEEN) and not (isinstance(hand_card, int) and 2 <= hand_card <= 10):
            raise ValueError(f"a hand card here is a number card 2-10, 'K' or 'Q', not {hand_card!r}")
    params, cases = _pile_question_params(pile, difficulty)
    total = params["total"]
    if total == GOAL:
        raise ValueError(f"the pile is already worth exactly {GOAL}")
    numbers = {n for n, _ in pile_cards(pile)}
    missing = GOAL - total
    params.update(missing=abs(missing))

    def makes_goal(hand_card) -> bool:
        if hand_card == KING:
            return missing in numbers
        if hand_card == QUEEN:
            return -missing in numbers
        return hand_card == missing

    right = {str(i) for i, hand_card in enumerate(hand) if makes_goal(hand_card)} or {NONE}
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
    case = ("over" if missing < 0 else "under") + ("_none" if right == {NONE} else "")
    # No "card" key: these are ordinary playing cards, not Kids2 cards the page could draw.
    choices = [
        {"value": str(i), "label": (labels or {}).get(i) or _hand_label(hand_card)} for i, hand_card in enumerate(hand)
    ]
    choices.append({"value": NONE, "label": label("twentynine_which_card", NONE)})
    return ask_with_support(
        "twentynine_which_card",
        params,
        difficulty,
        (*cases, case),
        answer=CHOICE,
        check={"rule": "choice", "expected": sorted(right)},
        misconceptions=claim(by_mistake, lambda answer: str(answer) not in right),
        choices=choices,
    )


GENERATORS = [twentynine_missing_value, twentynine_which_card]
