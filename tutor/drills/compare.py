"""Skill ``compare``: which of two or more numbers or cards is the largest, or is it a tie?

Calculation War asks which Kids2 card wins by its circled sum; MultiWar compares the
products of its cards; War, its variants and Casino War compare standard cards by rank
(card ids of :mod:`tutor.standard_deck`, suits ignored). Every question is answered with
buttons and hides the round's result until it is answered. A "tie" button is offered only
when there is a tie at difficulty 1, always from 2. Texts: ``content/drills/compare.toml``.
"""

from __future__ import annotations

from tutor.deck import kids2
from tutor.drills import CHOICE, Question
from tutor.drills.common import ask, build, check_difficulty, check_whole_numbers, claim, label
from tutor.drills.estimate_sum import sum_card_choices, sum_comparison_misconceptions
from tutor.gnav_deck import FOOL_LOWEST, SEED_ORDER, card_name, face_of, place
from tutor.gnav_deck import card as gnav_card
from tutor.gnav_deck import rank as gnav_rank
from tutor.standard_deck import ACE, ACE_LOW, JACK, JOKER_RANK, KING, QUEEN, card, rank_corner
from tutor.text import Text

TIE = "tie"
#: The joker's choice value (the other ranks' are their letters and numbers: "A", "K", "10").
JOKER = "joker"
#: The ranks a button names in words (the kind's labels); the others show their number.
RANK_LABELS = {ACE: "ace", KING: "king", QUEEN: "queen", JACK: "jack", JOKER_RANK: "joker"}


def winning_card(table: list[int], labels: dict[int, Text], difficulty: int = 2) -> Question:
    """Which of the Kids2 cards on the table wins by its circled sum (card buttons; the result stays hidden)."""
    sums = {card_id: kids2()[card_id].circled_sum for card_id in table}
    best_sum = max(sums.values())
    best = {card_id for card_id, total in sums.items() if total == best_sum}
    params = {"sums": ", ".join(str(sums[c]) for c in table), "best_sum": best_sum}
    return build(
        "winning_card",
        params,
        answer=CHOICE,
        check={"rule": "choice", "expected": sorted(str(c) for c in best)},
        misconceptions=sum_comparison_misconceptions(table, best),
        choices=sum_card_choices(table, labels),
        cards=list(table),
        difficulty=difficulty,
        hides_result=True,
    )


def _answer_under(items: list, value) -> object:
    """The item with the largest ``value``, or TIE when two or more share it."""
    values = [value(item) for item in items]
    best = max(values)
    winners = {item for item, v in zip(items, values) if v == best}
    return TIE if values.count(best) > 1 else winners.pop()


def _compare_misconceptions(items: list, right, value, views: list[tuple[str, object, bool]], show=str) -> list[dict]:
    """Each view (id, a mistaken value of an item, whether a tie it predicts counts) names the answer
    it would give; "picked the smaller" names the lowest item, unless all are equal. An answer is
    stored as ``show(answer)``."""
    candidates = []
    for misconception_id, mistaken, ties_count in views:
        answer = _answer_under(items, mistaken)
        candidates.append((misconception_id, [answer] if answer != TIE or ties_count else []))
    lowest = min(items, key=value)
    candidates.append(("picked_smaller", [lowest] if value(lowest) < max(map(value, items)) else []))
    return claim(candidates, lambda answer: answer != right, show, keep_empty=True)


def compare_numbers(numbers: list[int], difficulty: int = 2, cards: list[int] = ()) -> Question:
    """Which of two or more whole numbers is the largest (or a tie); answered with buttons.

    ``cards``: the Kids2 cards the numbers come from (MultiWar's products), shown with the question.
    """
    check_difficulty(difficulty)
    check_whole_numbers(*numbers)
    if len(numbers) < 2:
        raise ValueError("compare needs two numbers or more")
    kind = "compare_numbers"
    right = _answer_under(numbers, lambda n: n)
    views = [
        ("first_digit_only", lambda n: int(str(n)[0]), False),
        ("last_digit_only", lambda n: n % 10, False),
    ]
    misconceptions = _compare_misconceptions(numbers, right, lambda n: n, views)
    choices = [{"value": str(n), "label": label(kind, "number", number=n)} for n in dict.fromkeys(numbers)]
    if right == TIE or difficulty >= 2:
        choices.append({"value": TIE, "label": label(kind, TIE)})
    ordered = sorted(numbers)
    params = {
        "numbers": ", ".join(map(str, numbers)),
        "ordered": str(ordered[0]) + "".join(f" {'=' if x == y else '<'} {y}" for x, y in zip(ordered, ordered[1:])),
        "answer": (label(kind, TIE) if right == TIE else label(kind, "number", number=right)).to_dict(),
    }
    return build(
        kind,
        params,
        answer=CHOICE,
        check={"rule": "choice", "expected": [str(right)]},
        misconceptions=misconceptions,
        choices=choices,
        cards=list(cards),
        difficulty=difficulty,
        hides_result=True,
    )


def rank_choice(rank: int) -> str:
    """A rank as a button's value, stored with the pupil's answer: "A", "K", "10", "joker"."""
    return JOKER if rank == JOKER_RANK else rank_corner(rank)


def _rank_answer(answer) -> str:
    return answer if answer == TIE else rank_choice(answer)


def _rank_label(kind: str, rank: int) -> Text:
    return label(kind, RANK_LABELS[rank]) if rank in RANK_LABELS else label(kind, "number_rank", rank=str(rank))


def compare_ranks(cards: list[int], difficulty: int = 2, ace_high: bool = True) -> Question:
    """Which standard card is higher by rank, suits ignored (War, Casino War, Gnav); the ace is high unless
    the game says low, and a joker is above the ace. ``cards`` are standard card ids."""
    check_difficulty(difficulty)
    if len(cards) < 2:
        raise ValueError("compare needs two cards or more")
    kind = "compare_ranks"
    ranks = [card(card_id).rank for card_id in cards]

    def value(rank: int) -> int:
        return ACE_LOW if rank == ACE and not ace_high else rank

    def face_as(face_value):
        return lambda rank: face_value if JACK <= rank <= KING else value(rank)

    views = [
        ("ace_as_one", lambda rank: ACE_LOW if rank == ACE else rank, False)
        if ace_high
        else ("ace_as_high", lambda rank: rank, False),
        ("face_cards_ten", face_as(10), True),
        ("face_cards_low", face_as(0), False),
    ]
    right = _answer_under(ranks, value)
    misconceptions = _compare_misconceptions(ranks, right, value, views, _rank_answer)
    choices = [{"value": rank_choice(rank), "label": _rank_label(kind, rank)} for rank in dict.fromkeys(ranks)]
    if right == TIE or difficulty >= 2:
        choices.append({"value": TIE, "label": label(kind, TIE)})
    ladder = sorted([*range(2, ACE + 1), *([JOKER_RANK] if JOKER_RANK in ranks else [])], key=value)
    ordered = sorted(ranks, key=value)
    signs = ["=" if value(x) == value(y) else "<" for x, y in zip(ordered, ordered[1:])]
    params = {
        "cards": ", ".join(rank_corner(r) for r in ranks),
        "ladder": " ".join(rank_corner(r) for r in ladder),
        "ordered": rank_corner(ordered[0]) + "".join(f" {s} {rank_corner(r)}" for s, r in zip(signs, ordered[1:])),
        "answer": (label(kind, TIE) if right == TIE else _rank_label(kind, right)).to_dict(),
    }
    return build(
        kind,
        params,
        answer=CHOICE,
        check={"rule": "choice", "expected": [_rank_answer(right)]},
        misconceptions=misconceptions,
        choices=choices,
        difficulty=difficulty,
        hides_result=True,
    )


#: A mistaken value that puts a group of Gnav cards above every other card.
ABOVE_ALL = 100


def compare_gnav(cards: list[int], difficulty: int = 2, low_order: str = SEED_ORDER) -> Question:
    """Which of two Gnav cards is higher in the game's low-card order (or a tie: two of the same card).

    The buttons name the cards ("the Cat", "the 7"); the misconceptions are the two ways a
    pupil mixes pictures and numbers: every number above the top pictures, or the low pictures
    (the Fool, the Pot, the Owl) above the numbers, as pictures are in a standard deck.
    """
    check_difficulty(difficulty)
    if len(cards) != 2:
        raise ValueError("compare_gnav compares two cards")
    kind = "compare_gnav"

    def value(card_id: int) -> int:
        return gnav_rank(card_id, low_order)

    def numbers_first(card_id: int) -> int:
        number = gnav_card(card_id).face.number
        return ABOVE_ALL + number if number is not None else value(card_id)

    def pictures_first(card_id: int) -> int:
        return value(card_id) + (0 if gnav_card(card_id).is_number else ABOVE_ALL)

    views = [("numbers_above_pictures", numbers_first, False), ("low_pictures_high", pictures_first, False)]
    right = _answer_under(cards, value)
    show = lambda answer: answer if answer == TIE else face_of(answer)  # noqa: E731 - a one-line view
    misconceptions = _compare_misconceptions(cards, right, value, views, show)
    choices = [
        {"value": face, "label": card_name(card_id)}
        for face, card_id in {face_of(card_id): card_id for card_id in cards}.items()
    ]
    if right == TIE or difficulty >= 2:
        choices.append({"value": TIE, "label": label(kind, TIE)})
    first, second = cards
    params = {
        "first": card_name(first).to_dict(),
        "second": card_name(second).to_dict(),
        "first_place": place(first, low_order),
        "second_place": place(second, low_order),
        "answer": (label(kind, TIE) if right == TIE else card_name(right)).to_dict(),
    }
    return ask(
        kind,
        params,
        [*(["fool_lowest"] if low_order == FOOL_LOWEST else []), *(["tie"] if right == TIE else [])],
        answer=CHOICE,
        check={"rule": "choice", "expected": [show(right)]},
        misconceptions=misconceptions,
        choices=choices,
        cards=list(cards),
        difficulty=difficulty,
        hides_result=True,
    )


GENERATORS = [winning_card, compare_numbers, compare_ranks, compare_gnav]
