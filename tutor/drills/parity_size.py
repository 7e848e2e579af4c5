"""Skill ``parity_size``: is a card odd or even, low or high, which attributes do two cards share, and which
of your cards may go on the row?

Three Traits (:mod:`tutor.engine.three_traits`) asks it about standard cards, given as card ids of
:mod:`tutor.standard_deck`: J counts 11, Q 12, K 13, and the ace both 1 and 14, so it is
odd and even, low and high; A-7 are low, 8-A high; a joker has no place in the game.
Difficulty: odd/even and low/high offer "both" (the ace) from difficulty 2 and "neither"
at 3; shared attributes offer 4, 6 or all 8 answers; "which of your cards" offers 3, 5 or
all of the pupil's cards and "none of them". Button labels and the sentence pieces
that fill another text (``[kind.phrases]``, key ``text``) are in ``content/drills/parity_size.toml``.
"""

from __future__ import annotations

from itertools import product

from tutor.drills import CHOICE, Question, texts
from tutor.drills.common import NONE, ask, build, check_difficulty, claim, label, pick, round_robin
from tutor.engine.three_traits import FEWER_THAN_TWO, compare, meets_main_rule, playable_cards
from tutor.standard_deck import ACE, ACE_LOW, RED, StandardCard, card
from tutor.text import Text

ODD, EVEN, BOTH, NEITHER = "odd", "even", "both", "neither"
LOW, HIGH = "low", "high"
#: The highest low card in Three Traits (A-7 low, 8-A high).
LOW_MAX = 7
#: How many answers "which attributes do they share?" offers, by difficulty.
TRAIT_BUTTONS = {1: 4, 2: 6, 3: 8}
#: The answers to "which attributes do they share?", in the order the buttons show them.
TRAIT_SETS = ("none", "suit", "parity", "size", "suit+parity", "suit+size", "parity+size", "suit+parity+size")
#: How many of the pupil's cards "which of your cards may go on the row?" offers, by difficulty.
CARD_BUTTONS = {1: 3, 2: 5, 3: 9}
#: The phrase that names each suit in words (``[shared_traits.phrases]``): a symbol alone is no word to read or hear.
SUIT_PHRASES = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}


def _phrase(kind: str, key: str, **params) -> dict:
    """A translated piece for another text's field (``[kind.phrases] key.text``)."""
    return Text(texts(kind)["phrases"][key]["text"], params).to_dict()


def _three_traits_card(card_id: int) -> StandardCard:
    """A card of Three Traits: any standard card but a joker."""
    found = card(card_id)
    if found.is_joker:
        raise ValueError("Three Traits has no jokers")
    return found


def _values(found: StandardCard) -> tuple[int, ...]:
    """What a card counts as in Three Traits: the ace both 1 and 14."""
    return (ACE_LOW, ACE) if found.rank == ACE else (found.rank,)


def _parity(value: int) -> str:
    return EVEN if value % 2 == 0 else ODD


def _size(value: int, low_max: int = LOW_MAX) -> str:
    return LOW if value <= low_max else HIGH


def _counts_as(kind: str, found: StandardCard) -> object:
    return _phrase(kind, "ace_values") if found.rank == ACE else str(found.rank)


def _trait_question(
    kind: str, found: StandardCard, right: str, options: list[str], candidates: list, difficulty: int
) -> Question:
    params = {
        "card": found.corner,
        "values": _counts_as(kind, found),
        "answer": label(kind, right).to_dict(),
    }
    return build(
        kind,
        params,
        answer=CHOICE,
        check={"rule": "choice", "expected": [right]},
        misconceptions=claim(candidates, lambda answer: answer != right, keep_empty=True),
        choices=[{"value": option, "label": label(kind, option)} for option in options],
        difficulty=difficulty,
    )


def rank_parity(card_id: int, difficulty: int = 2) -> Question:
    """Is this card odd or even? J 11, Q 12, K 13; the ace is both (1 odd, 14 even) (Three Traits)."""
    check_difficulty(difficulty)
    found = _three_traits_card(card_id)
    values = _values(found)
    right = BOTH if len(values) == 2 else _parity(values[0])
    options = (
        [ODD, EVEN] + ([BOTH] if difficulty >= 2 or right == BOTH else []) + ([NEITHER] if difficulty == 3 else [])
    )
    swapped = [ODD if right == EVEN else EVEN] if right != BOTH else []
    ace = found.rank == ACE
    candidates = [
        ("ace_only_one", [ODD] if ace else []),
        ("ace_only_fourteen", [EVEN] if ace else []),
        ("face_no_parity", [NEITHER] if found.is_picture else []),
        ("face_value_unknown", swapped if found.is_picture else []),
        ("parity_swapped", swapped if not found.is_picture else []),
    ]
    return _trait_question("rank_parity", found, right, options, candidates, difficulty)


def rank_size(card_id: int, difficulty: int = 2) -> Question:
    """Is this card low (A-7) or high (8-A)? The ace is both (1 low, 14 high) (Three Traits)."""
    check_difficulty(difficulty)
    found = _three_traits_card(card_id)
    values = _values(found)
    right = BOTH if len(values) == 2 else _size(values[0])
    options = [LOW, HIGH] + ([BOTH] if difficulty >= 2 or right == BOTH else [])
    swapped = [LOW if right == HIGH else HIGH] if right != BOTH else []
    ace = found.rank == ACE
    candidates = [
        ("ace_only_one", [LOW] if ace else []),
        ("ace_only_fourteen", [HIGH] if ace else []),
        ("boundary_7_8", swapped if found.rank in (7, 8) else []),
        ("face_cards_low", swapped if found.is_picture else []),
        ("size_swapped", swapped),
    ]
    return _trait_question("rank_size", found, right, options, candidates, difficulty)


def _shared(
    a: StandardCard,
    b: StandardCard,
    *,
    ace=(ACE_LOW, ACE),
    face_parity=True,
    low_max=LOW_MAX,
    suit_of=lambda s: s,
) -> set[str]:
    """The attribute sets two cards can share with the most attributes, each ace counting 1 or 14.

    The keywords describe a way of seeing the cards: the rules' way by default, or a mistaken one.
    """

    def readings(found: StandardCard):
        for value in ace if found.rank == ACE else (found.rank,):
            parity = None if found.is_picture and not face_parity else _parity(value)
            yield suit_of(found.suit), parity, _size(value, low_max)

    shared: dict[int, set[str]] = {}
    for first, second in product(readings(a), readings(b)):
        names = [name for name, x, y in zip(("suit", "parity", "size"), first, second) if x is not None and x == y]
        shared.setdefault(len(names), set()).add("+".join(names) or "none")
    return shared[max(shared)]


def _trait_description(kind: str, found: StandardCard) -> dict:
    """What a card is: its suit in words, odd or even, low or high ("a heart, even and high")."""
    suit_name = _phrase(kind, SUIT_PHRASES[found.suit])
    if found.rank == ACE:
        return _phrase(kind, "ace_traits", suit=suit_name)
    return _phrase(
        kind,
        "traits",
        suit=suit_name,
        parity=_phrase(kind, _parity(found.rank)),
        size=_phrase(kind, _size(found.rank)),
    )


def shared_traits(card_a: int, card_b: int, difficulty: int = 2) -> Question:
    """Which attributes two cards share: suit, odd/even, low/high (Three Traits); the ace counts as 1 or 14."""
    check_difficulty(difficulty)
    kind = "shared_traits"
    a, b = _three_traits_card(card_a), _three_traits_card(card_b)
    if (a.rank, a.suit) == (b.rank, b.suit):
        raise ValueError("two different cards are compared")
    right = [s for s in TRAIT_SETS if s in _shared(a, b)]
    candidates = [
        ("ace_only_one", _shared(a, b, ace=(ACE_LOW,))),
        ("face_no_parity", _shared(a, b, face_parity=False)),
        ("boundary_7_8", _shared(a, b, low_max=LOW_MAX - 1) | _shared(a, b, low_max=LOW_MAX + 1)),
        ("colour_not_suit", _shared(a, b, suit_of=lambda s: s in RED)),
        ("forgot_suit", {"+".join(p for p in s.split("+") if p != "suit") or "none" for s in right}),
    ]
    misconceptions = claim(
        [(mid, sorted(values)) for mid, values in candidates], lambda answer: answer not in right, keep_empty=True
    )
    ranked = round_robin([m["values"] for m in misconceptions])
    offered = pick(right, ranked, list(TRAIT_SETS), TRAIT_BUTTONS[difficulty])
    answers = [label(kind, s).to_dict() for s in right]
    params = {
        "a": a.corner,
        "b": b.corner,
        "a_traits": _trait_description(kind, a),
        "b_traits": _trait_description(kind, b),
        "count": len(right[0].split("+")) if right[0] != "none" else 0,
        "answer": answers[0] if len(answers) == 1 else _phrase(kind, "either", first=answers[0], second=answers[1]),
    }
    return build(
        kind,
        params,
        answer=CHOICE,
        check={"rule": "choice", "expected": right},
        misconceptions=misconceptions,
        choices=[{"value": s, "label": label(kind, s)} for s in offered],
        difficulty=difficulty,
    )


def playable_card(
    hand: list[int], last: int, before: int, difficulty: int = 2, fallback_rule: str = FEWER_THAN_TWO
) -> Question:
    """Which of your cards may go on the row after ``before`` and ``last`` (Three Traits), or none of them.

    A card fits when it shares two attributes with the last card and one with the card before;
    only when none of the hand does, one that shares nothing with the last card and (by
    ``fallback_rule``) fewer than two, or at least one, with the card before. The buttons are the
    pupil's cards, the fitting ones and those that show a mistake first.
    """
    check_difficulty(difficulty)
    kind = "playable_card"
    if len(set(hand)) != len(hand) or not hand or last in hand or before in hand or last == before:
        raise ValueError("the hand and the row's last two cards are different cards")
    for card_id in (*hand, last, before):
        _three_traits_card(card_id)
    right = set(playable_cards(hand, last, before, fallback_rule))
    main = [c for c in hand if meets_main_rule(c, last, before)]
    with_last = {c: compare(c, last).count for c in hand}
    nothing_with_last = [c for c in hand if compare(c, last, most=False).count == 0]
    candidates = [
        ("forgot_card_before", [c for c in hand if with_last[c] >= 2 and compare(c, before).count == 0]),
        ("fallback_too_soon", nothing_with_last if main else []),
        ("fallback_too_close", [] if main else [c for c in nothing_with_last if c not in right]),
        ("one_with_last", [c for c in hand if with_last[c] == 1]),
    ]
    ranked = round_robin([[c for c in group if c not in right] for _, group in candidates])
    offered = pick(sorted(right), ranked, sorted(hand), CARD_BUTTONS[difficulty])
    expected = [str(c) for c in offered if c in right] or [NONE]
    corners = [card(c).corner for c in offered if c in right]
    params = {
        "last": card(last).corner,
        "before": card(before).corner,
        "last_traits": _trait_description(kind, card(last)),
        "before_traits": _trait_description(kind, card(before)),
        "answer": ", ".join(corners) if corners else label(kind, NONE).to_dict(),
    }
    choices = [{"value": str(c), "card": c, "label": label(kind, "card", card=card(c).corner)} for c in offered]
    choices.append({"value": NONE, "label": label(kind, NONE)})
    misconceptions = claim(
        [*candidates, ("missed_a_card", [NONE])],
        lambda value: str(value) not in expected,
        keep_empty=True,
    )
    return ask(
        kind,
        params,
        [] if main or not right else ["fallback"],
        answer=CHOICE,
        check={"rule": "choice", "expected": expected},
        misconceptions=misconceptions,
        choices=choices,
        cards=[before, last],
        difficulty=difficulty,
    )


GENERATORS = [rank_parity, rank_size, shared_traits, playable_card]
