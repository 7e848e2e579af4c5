"""Skill ``missing_addend``: what brings this 29 pile to exactly 29?

29's lesson asks it. A pile is a list of number cards 2-10 with the face cards lying on
them, as standard card ids (:mod:`tutor.drills.add_sub` says how, and what a pile is worth);
a hand card is the id of a number card 2-10, a King or a Queen. Difficulty 1 gives a tip
in the prompt, 3 leaves out the last hint and shows the pile as number cards with their
Kings and Queens, so that the pupil applies the face-card rules. Texts:
``content/drills/missing_addend.toml``.
"""

from __future__ import annotations

from tutor.drills import CHOICE, NUMBER, Question
from tutor.drills.add_sub import pile_cards, pile_entries, pile_expression, pile_value
from tutor.drills.common import NONE, ask_with_support, claim, label
from tutor.signs import exact_text
from tutor.standard_deck import KING, QUEEN, card
from tutor.text import Text

#: The exact value every 29 pile is built up to.
GOAL = 29


def _face_params(pile) -> tuple[dict, str | None]:
    """The pile as its number cards and the cards that carry Kings and Queens, and the case that shows them."""
    cards = pile_cards(pile)
    kings = [n for n, faces in cards for face in faces if face == "K"]
    queens = [n for n, faces in cards for face in faces if face == "Q"]
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
    if not any("K" in faces or "Q" in faces for _, faces in cards):
        return []
    return [pile_value(pile, queen=1), pile_value(pile, queen=0), pile_value(pile, king=0)]


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


def _hand_value(card_id: int) -> int | str:
    """A hand card as the question counts it: a number card's value, or "K" or "Q"; any other card is refused."""
    try:
        found = card(card_id)
    except (TypeError, ValueError):
        found = None
    if found is None or not (2 <= found.rank <= 10 or found.rank in (KING, QUEEN)):
        raise ValueError(f"a hand card here is a number card 2-10, a King or a Queen, not {card_id!r}")
    return {KING: "K", QUEEN: "Q"}.get(found.rank, found.rank)


def _hand_label(value: int | str) -> Text:
    if value in ("K", "Q"):
        return label("twentynine_which_card", "king" if value == "K" else "queen")
    return label("twentynine_which_card", "number", value=value)


def twentynine_which_card(pile, hand: list, difficulty: int = 2, labels: dict[int, Text] | None = None) -> Question:
    """Which of the pupil's cards (number cards 2-10, Kings, Queens) makes this pile exactly 29? (the cards are
    the buttons; "none of them" may be right)

    A King may go on any number card of the pile (that card then counts twice), a Queen
    on any number card (its value is taken away). Choice values are the hand's card ids as
    text, and ``"none"``; ``labels`` may name cards by id (default: "7", "King").
    """
    if not hand:
        raise ValueError("the pupil has no cards to choose from")
    values = [_hand_value(card_id) for card_id in hand]
    params, cases = _pile_question_params(pile, difficulty)
    total = params["total"]
    if total == GOAL:
        raise ValueError(f"the pile is already worth exactly {GOAL}")
    numbers = {card(n).rank for n, _ in pile_entries(pile)}
    missing = GOAL - total
    params.update(missing=abs(missing))

    def makes_goal(value) -> bool:
        if value == "K":
            return missing in numbers
        if value == "Q":
            return -missing in numbers
        return value == missing

    def cards_that(test) -> list[str]:
        return [str(card_id) for card_id, value in zip(hand, values) if test(value)]

    right = set(cards_that(makes_goal)) or {NONE}
    if missing > 0:
        by_mistake = [
            ("queen_adds", cards_that(lambda v: v == "Q")),
            ("king_needs_matching_card", cards_that(lambda v: v == "K")),
            ("from_thirty", cards_that(lambda v: v == missing + 1)),
            ("off_by_one", cards_that(lambda v: v == missing - 1)),
            ("over_29", cards_that(lambda v: isinstance(v, int) and v > missing)),
        ]
    else:
        by_mistake = [
            ("adds_when_over", cards_that(lambda v: v != "Q")),
            ("queen_needs_matching_card", cards_that(lambda v: v == "Q")),
        ]
    by_mistake.append(("missed_a_card", [NONE]))
    case = ("over" if missing < 0 else "under") + ("_none" if right == {NONE} else "")
    choices = [
        {"value": str(card_id), "label": (labels or {}).get(card_id) or _hand_label(value), "card": card_id}
        for card_id, value in zip(hand, values)
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
