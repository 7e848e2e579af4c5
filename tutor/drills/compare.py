"""Skill ``compare``: which of two or more numbers or cards is the largest, or is it a tie, and by how much?

Calculation War asks which Kids2 card wins by its circled sum; MultiWar compares the
products of its cards; War, its variants and Casino War compare standard cards by rank
(card ids of :mod:`tutor.standard_deck`, suits ignored): which card is higher (buttons,
for the youngest), how much higher (typed: the queen counts 12), which card wins under
the game's own rule (P'yanitsa's six beats the ace), and in Strategy War which card of
the hand beats a card with the least waste; 29 compares a pile after a play with 29
(under, exactly, over: will it be thrown away?); Gnav compares two of its cards in the
game's low-card order. The questions about a round hide its
result until they are answered. A "tie" button is offered only when there is a tie at
difficulty 1, always from 2. Texts: ``content/drills/compare.toml``.
"""

from __future__ import annotations

from tutor.deck import kids2
from tutor.drills import CHOICE, NUMBER, Question
from tutor.drills.add_sub import pile_expression, pile_value, twentynine_play
from tutor.drills.common import (
    NONE,
    OFF_BY_ONE,
    ask,
    ask_with_support,
    build,
    check_difficulty,
    check_whole_numbers,
    claim,
    label,
    wrong_choice,
)
from tutor.drills.estimate_sum import sum_card_choices, sum_comparison_misconceptions
from tutor.drills.exact_sum import adding_lines
from tutor.gnav_deck import FOOL_LOWEST, SEED_ORDER, card_name, face_of, place
from tutor.gnav_deck import card as gnav_card
from tutor.gnav_deck import rank as gnav_rank
from tutor.signs import formula
from tutor.standard_deck import ACE, ACE_LOW, JACK, JOKER_RANK, KING, QUEEN, card, rank_corner
from tutor.text import Text

TIE = "tie"
#: The joker's choice value (the other ranks' are their letters and numbers: "A", "K", "10").
JOKER = "joker"
#: The ranks a button names in words (the kind's labels); the others show their number.
RANK_LABELS = {ACE: "ace", KING: "king", QUEEN: "queen", JACK: "jack", JOKER_RANK: "joker"}


def winning_card(table: list[int], labels: dict[int, Text], difficulty: int = 2) -> Question:
    """Which of the Kids2 cards on the table wins by its circled sum (card buttons; the result stays hidden).

    The worked solution adds each card's values, tens first, then ones.
    """
    sums = {card_id: kids2()[card_id].circled_sum for card_id in table}
    best_sum = max(sums.values())
    best = {card_id for card_id, total in sums.items() if total == best_sum}
    params = {"sums": ", ".join(str(sums[c]) for c in table), "best_sum": best_sum}
    question = build(
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
    question.solution = [*adding_lines("winning_card", table), *question.solution]
    return question


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


def rank_difference(cards: list[int], difficulty: int = 2) -> Question:
    """How much higher the higher of two standard cards is than the other, typed (J 11, Q 12, K 13, the ace 14).

    At difficulties 1 and 2 the prompt writes a picture card's or the ace's number beside
    it ("Q (12)"); at 3 the pupil knows it (a hint says it).
    """
    difficulty = check_difficulty(difficulty)
    ranks = sorted((card(card_id).rank for card_id in cards), reverse=True)
    if len(ranks) != 2 or ranks[0] == ranks[1] or JOKER_RANK in ranks:
        raise ValueError("a difference needs two cards of different ranks, no joker")
    high, low = ranks
    right = high - low

    def named(rank: int) -> str:
        return f"{rank_corner(rank)} ({rank})" if rank > 10 and difficulty < 3 else rank_corner(rank)

    def face_as_ten(rank: int) -> int:
        return 10 if JACK <= rank <= KING else rank

    def ace_as_one(rank: int) -> int:
        return ACE_LOW if rank == ACE else rank

    params = {
        "high": named(high),
        "low": named(low),
        "high_card": rank_corner(high),
        "high_value": high,
        "low_value": low,
        "question": formula(high, "-", low),
        "fact": formula(high, "-", low, "=", right),
        "difference": right,
    }
    candidates = [
        ("face_cards_ten", [face_as_ten(high) - face_as_ten(low)]),
        ("ace_as_one", [abs(ace_as_one(high) - ace_as_one(low))] if ACE in ranks else []),
        ("added", [high + low]),
        (OFF_BY_ONE, [right - 1, right + 1]),
    ]
    return ask(
        "rank_difference",
        params,
        ["pictures"] if high > 10 else [],
        answer=NUMBER,
        check={"rule": "equals", "expected": str(right)},
        misconceptions=claim(candidates, lambda v: v != right and v >= 0),
        cards=list(cards),
        difficulty=difficulty,
        hides_result=True,
    )


#: The games' own rules that upset the usual order: (the rank that wins, the rank it beats).
SPECIAL_RULES = {
    "six_beats_ace": (6, ACE),
    "two_beats_joker": (2, JOKER_RANK),
    "joker_beats_ace": (JOKER_RANK, ACE),
    "two_beats_ace": (2, ACE),
}


def special_rank_rule(cards: list[int], rule: str, difficulty: int = 2) -> Question:
    """Which standard card wins under the game's own rule (``rule``, a key of :data:`SPECIAL_RULES`), or a tie.

    The rule's winning rank and the rank it beats are both among ``cards``; when they meet,
    the winning rank counts above every card (P'yanitsa's six with an ace among the cards).
    """
    difficulty = check_difficulty(difficulty)
    if rule not in SPECIAL_RULES:
        raise ValueError(f"unknown rule {rule!r}")
    winner, beaten = SPECIAL_RULES[rule]
    ranks = [card(card_id).rank for card_id in cards]
    if winner not in ranks or beaten not in ranks:
        raise ValueError("the rule decides only when both of its ranks are on the table")
    kind = "special_rank_rule"
    right = TIE if ranks.count(winner) > 1 else rank_choice(winner)
    usual = _answer_under(ranks, lambda rank: rank)
    choices = [{"value": rank_choice(rank), "label": _rank_label(kind, rank)} for rank in dict.fromkeys(ranks)]
    if right == TIE or difficulty >= 2:
        choices.append({"value": TIE, "label": label(kind, TIE)})
    others = [rank_choice(rank) for rank in ranks if rank not in (winner, beaten)]
    candidates = [
        ("usual_order", [_rank_answer(usual)]),
        ("other_card", others),
        ("not_a_tie", [TIE]),
    ]
    params = {
        "cards": ", ".join(rank_corner(r) for r in ranks),
        "winner": rank_corner(winner),
        "beaten": rank_corner(beaten),
        "answer": (label(kind, TIE) if right == TIE else _rank_label(kind, winner)).to_dict(),
    }
    return ask(
        kind,
        params,
        [rule, *(["tie"] if right == TIE else [])],
        answer=CHOICE,
        check={"rule": "choice", "expected": [right]},
        misconceptions=claim(candidates, wrong_choice([right], choices)),
        choices=choices,
        cards=list(cards),
        difficulty=difficulty,
        hides_result=True,
    )


def beats(mine: int, theirs: int, top: int | None = ACE) -> bool:
    """Whether rank ``mine`` beats rank ``theirs`` when a 2 beats the rank ``top`` and loses to every other.

    ``top`` is the highest card: the ace, or the joker when jokers are in the game (Strategy War);
    ``None`` when a 2 is only a 2.
    """
    if top is not None and mine == 2 and theirs == top:
        return True
    if top is not None and theirs == 2 and mine == top:
        return False
    return mine > theirs


def least_waste_card(hand: list[int], shown: int, difficulty: int = 2, top: int | None = ACE) -> Question:
    """Which card of the hand beats the ``shown`` card and is the lowest that does (Strategy War), or none.

    A 2 beats the rank ``top`` (the ace; with jokers the joker; ``None``: no such rule).

    A card that wins by a lot is wasted: the lowest winner keeps the high cards for later.
    Buttons: each rank of the hand and "none of them".
    """
    difficulty = check_difficulty(difficulty)
    if not hand or shown in hand:
        raise ValueError("a hand of cards, and a shown card that is not in it")
    kind = "least_waste_card"
    target = card(shown).rank
    ranks = sorted({card(c).rank for c in hand})
    # the least waste first: a 2 that beats an ace is worth nothing against any other card
    winners = sorted((r for r in ranks if beats(r, target, top)), key=lambda r: (r != 2, r))
    lowest = winners[0] if winners else None
    right = rank_choice(lowest) if lowest is not None else NONE
    # One short button per rank ("J"), its whole name for screen readers: a big hand has a dozen ranks.
    choices = [{"value": rank_choice(r), "label": _rank_label(kind, r), "short": rank_corner(r)} for r in ranks]
    choices.append({"value": NONE, "label": label(kind, NONE)})
    missed_two = 2 in ranks and top is not None and target == top
    candidates = [
        ("missed_two" if top == ACE else "missed_two_joker", [NONE] if missed_two else []),
        ("equal_is_war", [rank_choice(target)] if target in ranks else []),
        ("does_not_beat", [rank_choice(r) for r in ranks if r not in winners]),
        ("highest_card", [rank_choice(r) for r in winners if r != lowest]),
        ("none_beats", [NONE] if winners else []),
    ]
    params = {
        "shown": rank_corner(target),
        "winners": ", ".join(rank_corner(r) for r in winners),
        "answer": (label(kind, NONE) if lowest is None else _rank_label(kind, lowest)).to_dict(),
    }
    two_rule = {ACE: ["two_rule"], JOKER_RANK: ["two_rule_jokers"]}.get(top, [])
    cases = [*two_rule, *([] if winners else ["none"])]
    return ask(
        kind,
        params,
        cases,
        answer=CHOICE,
        check={"rule": "choice", "expected": [right]},
        misconceptions=claim(candidates, wrong_choice([right], choices)),
        choices=choices,
        cards=[],  # the shown card lies on the table and the hand below the question
        difficulty=difficulty,
    )


#: 29's pile against the goal: the three answers.
UNDER, EXACTLY, OVER = "under", "exactly", "over"
GOAL = 29


def _against_goal(value: int) -> str:
    return UNDER if value < GOAL else EXACTLY if value == GOAL else OVER


def twentynine_bust(pile, play, difficulty: int = 2) -> Question:
    """After a play, is a 29 pile under 29, exactly 29, or over 29 (and so thrown away at the end of the turn)?

    ``pile`` and ``play`` as in :func:`tutor.drills.add_sub.twentynine_pile_value`: a number
    card laid on the pile, or a King or Queen put on one of its number cards. Three buttons.
    """
    before = pile_value(pile)
    laid, after, what = twentynine_play(pile, play)
    sign = "-" if what == "queen" else "+"
    right = _against_goal(after)
    params = {
        "pile": pile_expression(pile),
        "before": before,
        "card": laid,
        "after": after,
        "calculation": formula(before, sign, laid),
        "worked": formula(before, sign, laid, "=", after),
    }
    mistaken = {
        "number": [("forgot_new_card", before), ("took_card_away", before - laid)],
        "king": [("king_counted_once", before), ("king_as_ten", before + 10)],
        "queen": [("queen_ignored", before), ("queen_added", before + laid)],
    }[what]
    candidates = [(name, [_against_goal(value)]) for name, value in mistaken]
    candidates.append(("off_by_one", [_against_goal(after - 1), _against_goal(after + 1)]))
    kind = "twentynine_bust"
    cases = [*([what] if what != "number" else []), *([f"{what}_easy"] if what != "number" and difficulty == 1 else [])]
    return ask_with_support(
        kind,
        params,
        difficulty,
        (*cases, right),
        answer=CHOICE,
        check={"rule": "choice", "expected": [right]},
        misconceptions=claim(candidates, lambda answer: answer != right),
        choices=[{"value": value, "label": label(kind, value)} for value in (UNDER, EXACTLY, OVER)],
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


GENERATORS = [
    winning_card,
    compare_numbers,
    compare_ranks,
    rank_difference,
    special_rank_rule,
    least_waste_card,
    twentynine_bust,
    compare_gnav,
]
