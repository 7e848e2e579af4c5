"""Number facts: times tables, factor pairs, tens-friends, counting, comparing, odd/even and low/high.

The Kids2 games (MultiWar, MultiMatch, Crazy Banana: Tiervenner) pass card ids; the
standard-deck games that have no engine yet (War and its variants, Gnav, Three Traits)
pass plain numbers or cards written as their corner index and suit: ``"QH"``, ``"10S"``,
``"A♦"`` (a suit is optional where it does not count; ``1``/``14`` and ``11``-``13`` also
name the ace and the picture cards). Every generator takes a difficulty 1..3:

- typed number answers come as 3 buttons (1), 5 buttons (2) or a typed answer (3); the
  wrong buttons are the wrong answers that show a misconception, so a wrong click says why;
- card and pair buttons: fewer of your cards at 1, more at 3;
- compare: a "tie" button only when there is a tie at 1, always from 2;
- odd/even and low/high: "both" (the ace) always offered from 2, "neither" at 3;
  shared attributes: 4, 6 or all 8 answers.

Each wrong answer names at most one misconception: when the same answer could show two,
the first listed (the more telling one) claims it. Button labels and sentence pieces are
texts in ``content/drills/number_facts.toml`` under the kind's ``labels`` and ``phrases``
(key ``text``), so that they are extracted for translation; pieces that are themselves
translated travel inside a text's fields as ``{"msgid", "params"}`` dicts (JSON as stored).
"""

from __future__ import annotations

from itertools import combinations, product

from tutor.deck import Card, kids2
from tutor.drills import CHOICE, NUMBER, OFF_BY_ONE, TIMES_TEN, Question, Text, build, misconception, slips, texts
from tutor.signs import formula, listing
from tutor.text import COLOUR_ADJECTIVE

DIFFICULTIES = (1, 2, 3)
#: How many number buttons a question offers, by difficulty; at 3 the answer is typed.
NUMBER_BUTTONS = {1: 3, 2: 5}
#: How many of the pupil's cards (or pairs of cards) are offered as buttons, by difficulty.
CARD_BUTTONS = {1: 3, 2: 5, 3: 9}
PAIR_BUTTONS = {1: 2, 2: 3, 3: 5}
TRAIT_BUTTONS = {1: 4, 2: 6, 3: 8}

NONE, TIE = "none", "tie"
ODD, EVEN, BOTH, NEITHER = "odd", "even", "both", "neither"
LOW, HIGH = "low", "high"

# ---------------------------------------------------------------- standard cards

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER = "joker"
FACES = {"J": 11, "Q": 12, "K": 13}
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = {"H", "D"}
#: The highest low card in Three Traits (A-7 low, 8-A high).
LOW_MAX = 7
ACE_LOW, ACE_HIGH = 1, 14
_SUIT_OF_SYMBOL = {symbol: letter for letter, symbol in SUITS.items()}
_RANK_OF_NUMBER = {1: "A", 14: "A", 11: "J", 12: "Q", 13: "K", **{n: str(n) for n in range(2, 11)}}


def parse_card(card) -> tuple[str, str | None]:
    """A standard card as (rank, suit or None): ``"QH"`` -> ("Q", "H"); ``12`` -> ("Q", None); ``"14"`` -> ("A", None)."""
    if isinstance(card, bool):
        raise ValueError(f"not a card: {card!r}")
    if isinstance(card, int):
        if card not in _RANK_OF_NUMBER:
            raise ValueError(f"not a card rank: {card!r}")
        return _RANK_OF_NUMBER[card], None
    text = str(card).strip().upper()
    if text in ("JOKER", "JK"):
        return JOKER, None
    suit = None
    if text and (text[-1] in SUITS or text[-1] in _SUIT_OF_SYMBOL):
        suit = _SUIT_OF_SYMBOL.get(text[-1], text[-1])
        text = text[:-1]
    if text.isdigit() and int(text) in _RANK_OF_NUMBER:
        text = _RANK_OF_NUMBER[int(text)]
    if text not in RANKS:
        raise ValueError(f"not a card: {card!r}")
    return text, suit


def card_index(rank: str, suit: str | None = None) -> str:
    """How the card is written in its corner: "Q♥", "10", "A♠" (the same in every language)."""
    if rank == JOKER:
        return "🃏"
    return rank + (SUITS[suit] if suit else "")


def rank_value(rank: str, ace_high: bool = True) -> int:
    """The rank as a number: 2-10 as printed, J 11, Q 12, K 13, the ace 14 (or 1), a joker above all."""
    if rank == JOKER:
        return 15
    if rank == "A":
        return ACE_HIGH if ace_high else ACE_LOW
    return FACES.get(rank) or int(rank)


def _three_traits_values(rank: str) -> tuple[int, ...]:
    """What a rank counts as in Three Traits: the ace both 1 and 14."""
    if rank == JOKER:
        raise ValueError("Three Traits has no jokers")
    return (ACE_LOW, ACE_HIGH) if rank == "A" else (rank_value(rank),)


# ---------------------------------------------------------------- shared helpers


def _check_difficulty(difficulty: int) -> None:
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"difficulty must be 1, 2 or 3, not {difficulty!r}")


def _number_card(card_id: int) -> Card:
    card = kids2()[card_id]
    if card.is_special:
        raise ValueError(f"card {card_id} is a special card without a top number")
    return card


def _label(kind: str, key: str, **params) -> Text:
    """A button label of ``kind`` (``[kind.labels] key`` in the content file)."""
    return Text(texts(kind)["labels"][key], params)


def _phrase(kind: str, key: str, **params) -> dict:
    """A translated piece for another text's field (``[kind.phrases] key.text``)."""
    return Text(texts(kind)["phrases"][key]["text"], params).to_dict()


def _colour_name(card: Card) -> dict:
    """The card's colour describing it ("the green 7"), as the cards' names for screen readers say it."""
    return Text.in_context((COLOUR_ADJECTIVE, kids2().colour(card.colour).name)).to_dict()


def _card_label(kind: str, card: Card) -> Text:
    return _label(kind, "card", colour=_colour_name(card), top=card.top)


def _claim(right, candidates: list[tuple[str, object]]) -> list[dict]:
    """Misconceptions in order; a wrong answer belongs to the first that lists it, a right one to none."""
    claimed = {str(v) for v in right}
    result = []
    for misconception_id, values in candidates:
        mine = [str(v) for v in values if str(v) not in claimed]
        claimed.update(mine)
        result.append(misconception(misconception_id, mine))
    return result


def _number_answer(kind: str, right: int, misconceptions: list[dict], difficulty: int) -> dict:
    """A typed answer (difficulty 3) or number buttons whose wrong ones each show a misconception."""
    if difficulty == 3:
        return {"answer": NUMBER, "check": {"rule": "equals", "expected": str(right)}}
    wanted = NUMBER_BUTTONS[difficulty]
    pools = [sorted((int(v) for v in m["values"]), key=lambda v: (abs(v - right), v)) for m in misconceptions]
    picked = [right]
    while len(picked) < wanted and any(pools):
        for pool in pools:  # one from each misconception in turn, nearest first
            if pool and len(picked) < wanted:
                picked.append(pool.pop(0))
    step = 1
    while len(picked) < wanted:
        for candidate in (right + step, right - step):
            if candidate >= 0 and candidate not in picked and len(picked) < wanted:
                picked.append(candidate)
        step += 1
    return {
        "answer": CHOICE,
        "check": {"rule": "choice", "expected": [str(right)]},
        "choices": [{"value": str(n), "label": _label(kind, "number", number=n)} for n in sorted(picked)],
    }


def _pick(right: list, ranked: list, everything: list, limit: int) -> list:
    """Up to ``limit`` items, right ones and then misconception ones first, in ``everything``'s order."""
    chosen: list = []
    for item in [*right, *ranked, *everything]:
        if item not in chosen and len(chosen) < limit:
            chosen.append(item)
    return [item for item in everything if item in chosen]


def _round_robin(groups: list[list]) -> list:
    """The first of each group, then the second of each, and so on."""
    out: list = []
    for layer in range(max((len(g) for g in groups), default=0)):
        out.extend(g[layer] for g in groups if layer < len(g))
    return out


def _times_steps(step: int, count: int) -> str:
    return ", ".join(str(step * k) for k in range(1, count + 1))


# ---------------------------------------------------------------- multiply


def multiply_top_numbers(card_a: int, card_b: int, difficulty: int = 2) -> Question:
    """The product of two cards' top numbers (MultiWar, MultiMatch)."""
    _check_difficulty(difficulty)
    kind = "multiply_top_numbers"
    a, b = _number_card(card_a).top, _number_card(card_b).top
    right = a * b
    big, small = max(a, b), min(a, b)
    params = {
        "a": a,
        "b": b,
        "big": big,
        "small": small,
        "sum": a + b,
        "steps": _times_steps(big, small),
        "before": small - 1,
        "before_product": big * (small - 1),
        "before_fact": formula(small - 1, "*", big, "=", big * (small - 1)),
        "product": right,
        "product_question": formula(a, "*", b),
        "fact": formula(a, "*", b, "=", right),
        "small_times_ten": formula(small, "*", 10),
    }
    neighbours = {x * y for x, y in ((a, b - 1), (a, b + 1), (a - 1, b), (a + 1, b)) if x >= 1 and y >= 1}
    swapped = [int(str(right)[::-1])] if right >= 10 and right % 10 else []
    one_or_ten_out = [(mid, [int(v) for v in values]) for mid, values in slips(right, which=(OFF_BY_ONE, TIMES_TEN))]
    misconceptions = _claim(
        [right],
        [("added", [a + b]), ("neighbour_fact", sorted(neighbours)), ("digits_swapped", swapped), *one_or_ten_out],
    )
    return build(
        kind,
        params,
        **_number_answer(kind, right, misconceptions, difficulty),
        misconceptions=misconceptions,
        cards=[card_a, card_b],
        difficulty=difficulty,
        hides_result=True,
    )


# ---------------------------------------------------------------- factor pairs


def _distinct_pairs(hand: list[int]) -> list[tuple[Card, Card]]:
    """Pairs of the hand's number cards, in hand order; two pairs that look the same are offered once."""
    if len(set(hand)) != len(hand):
        raise ValueError("a card is twice in the hand")
    cards = [kids2()[c] for c in hand if not kids2()[c].is_special]
    if len(cards) < 2:
        raise ValueError("a pair needs two number cards in the hand")
    seen, pairs = set(), []
    for first, second in combinations(cards, 2):
        looks = tuple(sorted([(first.colour, first.top), (second.colour, second.top)]))
        if looks not in seen:
            seen.add(looks)
            pairs.append((first, second))
    return pairs


def _pair_value(pair: tuple[Card, Card]) -> str:
    return f"{pair[0].id},{pair[1].id}"


def _pair_question(
    kind: str,
    hand: list[int],
    targets: list[int],
    wrong_targets: tuple[str, list[int]],
    difficulty: int,
    params: dict,
    cards: list[int],
) -> Question:
    """Which offered pair of the hand's cards multiplies (top numbers) to one of ``targets``; or none."""
    pairs = _distinct_pairs(hand)

    def product_of(pair):
        return pair[0].top * pair[1].top

    def off_by_a_step(pair):
        x, y = pair[0].top, pair[1].top
        return any(v in targets for v in ((x - 1) * y, (x + 1) * y, x * (y - 1), x * (y + 1)))

    right = [p for p in pairs if product_of(p) in targets]
    wrong_id, wrong_values = wrong_targets
    candidates = [
        ("sum_not_product", [p for p in pairs if p[0].top + p[1].top in targets]),
        ("table_step_off", [p for p in pairs if off_by_a_step(p)]),
        (wrong_id, [p for p in pairs if product_of(p) in wrong_values(p)]),
    ]
    ranked = _round_robin([[p for p in group if p not in right] for _, group in candidates])
    offered = _pick(right, ranked, pairs, PAIR_BUTTONS[difficulty])
    labels = {
        _pair_value(p): _label(
            kind, "pair", first=_card_label(kind, p[0]).to_dict(), second=_card_label(kind, p[1]).to_dict()
        )
        for p in offered
    }
    choices = [{"value": value, "label": label} for value, label in labels.items()]
    choices.append({"value": NONE, "label": _label(kind, NONE)})
    expected = sorted(_pair_value(p) for p in right if p in offered) or [NONE]
    answer = labels[expected[0]] if right else _label(kind, NONE)
    in_pairs = {card.id for pair in offered for card in pair}
    cards = [c for c in cards if c not in hand or c in in_pairs]  # the top card and the cards on the buttons
    params = {
        **params,
        "tops": ", ".join(str(kids2()[c].top) for c in hand if not kids2()[c].is_special),
        "products": listing([formula(p[0].top, "*", p[1].top, "=", product_of(p)) for p in offered]),
        "answer": answer.to_dict(),
    }
    return build(
        kind,
        params,
        answer=CHOICE,
        check={"rule": "choice", "expected": expected},
        misconceptions=_claim(expected, [(mid, [_pair_value(p) for p in group]) for mid, group in candidates]),
        choices=choices,
        cards=cards,
        difficulty=difficulty,
    )


def factor_pair_cards(hand: list[int], discard: int, difficulty: int = 2) -> Question:
    """Which two of your cards multiply (top numbers) to one of the top discard's circled values (MultiMatch)."""
    _check_difficulty(difficulty)
    top = _number_card(discard)
    targets = list(top.circled)
    params = {"values": ", ".join(map(str, targets))}
    # Looking at the pair's own circled values instead of the top discard's.
    own = ("own_card_value", lambda pair: [*pair[0].circled, *pair[1].circled])
    return _pair_question("factor_pair_cards", hand, targets, own, difficulty, params, [discard, *hand])


def factor_pair_for_value(hand: list[int], value: int, difficulty: int = 2, discard: int | None = None) -> Question:
    """Which two of your cards multiply (top numbers) to ``value`` (one circled value of the top discard)."""
    _check_difficulty(difficulty)
    others = [v for v in _number_card(discard).circled if v != value] if discard is not None else []
    params = {"target": value}
    other = ("other_circled_value", lambda pair: others)
    cards = ([discard] if discard is not None else []) + list(hand)
    return _pair_question("factor_pair_for_value", hand, [value], other, difficulty, params, cards)


def reachable_values(card_id: int, discard: int) -> list[int]:
    """The discard's circled values that the card's top number times a top number 1-9 makes."""
    n = _number_card(card_id).top
    return sorted({v for v in _number_card(discard).circled if v % n == 0 and 1 <= v // n <= 9})


def missing_factor(card_id: int, discard: int, difficulty: int = 2, value: int | None = None) -> Question:
    """What times your card's top number makes a circled value of the top discard (typed or buttons)."""
    _check_difficulty(difficulty)
    kind = "missing_factor"
    n = _number_card(card_id).top
    reachable = reachable_values(card_id, discard)
    if value is None:
        if not reachable:
            raise ValueError(f"no circled value of card {discard} is {n} times a top number")
        value = reachable[{1: 0, 2: len(reachable) // 2, 3: -1}[difficulty]]
    if value % n or not 1 <= value // n <= 9:
        raise ValueError(f"{value} is not {n} times a top number 1-9")
    right = value // n
    params = {
        "n": n,
        "value": value,
        "steps_start": _times_steps(n, min(2, right)),
        "before": right - 1,
        "before_product": n * (right - 1),
        "before_fact": formula(right - 1, "*", n, "=", n * (right - 1)),
        "quotient": right,
        "fact": formula(right, "*", n, "=", value),
        "all_steps": _times_steps(n, right),
    }
    others = [v // n for v in reachable if v != value]
    misconceptions = _claim(
        [right],
        [
            ("subtracted", [value - n] if value > n else []),
            ("table_step_off", [q for q in (right - 1, right + 1) if q >= 1]),
            ("other_circled_value", others),
        ],
    )
    return build(
        kind,
        params,
        **_number_answer(kind, right, misconceptions, difficulty),
        misconceptions=misconceptions,
        cards=[card_id, discard],
        difficulty=difficulty,
    )


# ---------------------------------------------------------------- tens friends


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
    _check_difficulty(difficulty)
    kind = "tens_friend_number"
    n = _number_card(card_id).top
    friend = 10 - n
    params = {"n": n, "friend": friend, "almost": friend - 1, "count_up": ", ".join(str(k) for k in range(n + 1, 11))}
    misconceptions = _claim([friend], _tens_misconceptions(n))
    return build(
        kind,
        params,
        **_number_answer(kind, friend, misconceptions, difficulty),
        misconceptions=misconceptions,
        cards=[card_id],
        difficulty=difficulty,
    )


def tens_friend_card(hand: list[int], top_card: int, difficulty: int = 2) -> Question:
    """Which of your cards is a tens-friend of the top card: the top numbers make 10 (or none)."""
    _check_difficulty(difficulty)
    kind = "tens_friend_card"
    top = _number_card(top_card)
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
    ranked = _round_robin([[c for c in group if c not in right] for _, group in candidates])
    offered = _pick(right, ranked, cards, CARD_BUTTONS[difficulty])
    choices = [{"value": str(c.id), "card": c.id, "label": _card_label(kind, c)} for c in offered]
    choices.append({"value": NONE, "label": _label(kind, NONE)})
    expected = sorted(str(c.id) for c in right if c in offered) or [NONE]
    answer = _card_label(kind, right[0]) if right else _label(kind, NONE)
    params = {"n": n, "friend": friend, "answer": answer.to_dict()}
    return build(
        kind,
        params,
        answer=CHOICE,
        check={"rule": "choice", "expected": expected},
        misconceptions=_claim(expected, [(mid, [c.id for c in group]) for mid, group in candidates]),
        choices=choices,
        cards=[top_card, *(c.id for c in offered)],
        difficulty=difficulty,
    )


# ---------------------------------------------------------------- count


def _check_counts(*counts: int) -> None:
    if any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in counts):
        raise ValueError(f"card counts are whole numbers, 0 or more: {counts!r}")


def _count_question(kind: str, right: int, params: dict, candidates: list, difficulty: int) -> Question:
    candidates = [(mid, [v for v in values if v >= 0]) for mid, values in candidates]
    misconceptions = _claim([right], candidates)
    return build(
        kind,
        {**params, "right": right},
        **_number_answer(kind, right, misconceptions, difficulty),
        misconceptions=misconceptions,
        difficulty=difficulty,
    )


def cards_after_win(held: int, won: int, difficulty: int = 2) -> Question:
    """How many cards you hold now: ``held`` in your pile and ``won`` taken from the table (War)."""
    _check_difficulty(difficulty)
    _check_counts(held, won)
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
    _check_difficulty(difficulty)
    _check_counts(held, lost)
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
    _check_difficulty(difficulty)
    _check_counts(*laid)
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


# ---------------------------------------------------------------- compare


def _answer_under(items: list, value) -> object:
    """The item with the largest ``value``, or TIE when two or more share it."""
    values = [value(item) for item in items]
    best = max(values)
    winners = {item for item, v in zip(items, values) if v == best}
    return TIE if values.count(best) > 1 else winners.pop()


def _compare_misconceptions(items: list, right, value, views: list[tuple[str, object, bool]]) -> list[dict]:
    """Each view (id, a mistaken value of an item, whether a tie it predicts counts) names the answer
    it would give; "picked the smaller" names the lowest item, unless all are equal."""
    candidates = []
    for misconception_id, mistaken, ties_count in views:
        answer = _answer_under(items, mistaken)
        candidates.append((misconception_id, [answer] if answer != TIE or ties_count else []))
    lowest = min(items, key=value)
    candidates.append(("picked_smaller", [lowest] if value(lowest) < max(map(value, items)) else []))
    return _claim([right], candidates)


def compare_numbers(numbers: list[int], difficulty: int = 2, cards: list[int] = ()) -> Question:
    """Which of two or more whole numbers is the largest (or a tie); answered with buttons.

    ``cards``: the Kids2 cards the numbers come from (MultiWar's products), shown with the question.
    """
    _check_difficulty(difficulty)
    _check_counts(*numbers)
    if len(numbers) < 2:
        raise ValueError("compare needs two numbers or more")
    kind = "compare_numbers"
    right = _answer_under(numbers, lambda n: n)
    views = [
        ("first_digit_only", lambda n: int(str(n)[0]), False),
        ("last_digit_only", lambda n: n % 10, False),
    ]
    misconceptions = _compare_misconceptions(numbers, right, lambda n: n, views)
    choices = [{"value": str(n), "label": _label(kind, "number", number=n)} for n in dict.fromkeys(numbers)]
    if right == TIE or difficulty >= 2:
        choices.append({"value": TIE, "label": _label(kind, TIE)})
    ordered = sorted(numbers)
    params = {
        "numbers": ", ".join(map(str, numbers)),
        "ordered": str(ordered[0]) + "".join(f" {'=' if x == y else '<'} {y}" for x, y in zip(ordered, ordered[1:])),
        "answer": (_label(kind, TIE) if right == TIE else _label(kind, "number", number=right)).to_dict(),
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


def _rank_label(kind: str, rank: str) -> Text:
    names = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", JOKER: JOKER}
    return _label(kind, names[rank]) if rank in names else _label(kind, "number_rank", rank=rank)


def compare_ranks(cards: list, difficulty: int = 2, ace_high: bool = True) -> Question:
    """Which card is higher by rank, suits ignored (War, Gnav); the ace is high unless the game says low."""
    _check_difficulty(difficulty)
    if len(cards) < 2:
        raise ValueError("compare needs two cards or more")
    kind = "compare_ranks"
    ranks = [parse_card(card)[0] for card in cards]
    right = _answer_under(ranks, lambda r: rank_value(r, ace_high))

    def face_as(value):
        return lambda r: value if r in FACES else rank_value(r, ace_high)

    views = [
        ("ace_as_one", lambda r: rank_value(r, False), False)
        if ace_high
        else ("ace_as_high", lambda r: rank_value(r, True), False),
        ("face_cards_ten", face_as(10), True),
        ("face_cards_low", face_as(0), False),
    ]
    misconceptions = _compare_misconceptions(ranks, right, lambda r: rank_value(r, ace_high), views)
    distinct = list(dict.fromkeys(ranks))
    choices = [{"value": rank, "label": _rank_label(kind, rank)} for rank in distinct]
    if right == TIE or difficulty >= 2:
        choices.append({"value": TIE, "label": _label(kind, TIE)})
    ladder = sorted([*RANKS, *([JOKER] if JOKER in ranks else [])], key=lambda r: rank_value(r, ace_high))
    ordered = sorted(ranks, key=lambda r: rank_value(r, ace_high))
    signs = ["=" if rank_value(x, ace_high) == rank_value(y, ace_high) else "<" for x, y in zip(ordered, ordered[1:])]
    params = {
        "cards": ", ".join(card_index(r) for r in ranks),
        "ladder": " ".join(card_index(r) for r in ladder),
        "ordered": card_index(ordered[0]) + "".join(f" {s} {card_index(r)}" for s, r in zip(signs, ordered[1:])),
        "answer": (_label(kind, TIE) if right == TIE else _rank_label(kind, right)).to_dict(),
    }
    return build(
        kind,
        params,
        answer=CHOICE,
        check={"rule": "choice", "expected": [right]},
        misconceptions=misconceptions,
        choices=choices,
        difficulty=difficulty,
        hides_result=True,
    )


# ---------------------------------------------------------------- parity and size (Three Traits)


def _parity(value: int) -> str:
    return EVEN if value % 2 == 0 else ODD


def _size(value: int, low_max: int = LOW_MAX) -> str:
    return LOW if value <= low_max else HIGH


def _counts_as(kind: str, rank: str) -> object:
    return _phrase(kind, "ace_values") if rank == "A" else str(rank_value(rank))


def _trait_question(kind: str, card, right: str, options: list[str], candidates: list, difficulty: int) -> Question:
    rank, suit = parse_card(card)
    params = {
        "card": card_index(rank, suit),
        "values": _counts_as(kind, rank),
        "answer": _label(kind, right).to_dict(),
    }
    return build(
        kind,
        params,
        answer=CHOICE,
        check={"rule": "choice", "expected": [right]},
        misconceptions=_claim([right], candidates),
        choices=[{"value": option, "label": _label(kind, option)} for option in options],
        difficulty=difficulty,
    )


def rank_parity(card, difficulty: int = 2) -> Question:
    """Is this card odd or even? J 11, Q 12, K 13; the ace is both (1 odd, 14 even) (Three Traits)."""
    _check_difficulty(difficulty)
    rank, _ = parse_card(card)
    values = _three_traits_values(rank)
    right = BOTH if len(values) == 2 else _parity(values[0])
    options = (
        [ODD, EVEN] + ([BOTH] if difficulty >= 2 or right == BOTH else []) + ([NEITHER] if difficulty == 3 else [])
    )
    swapped = [ODD if right == EVEN else EVEN] if right != BOTH else []
    candidates = [
        ("ace_only_one", [ODD] if rank == "A" else []),
        ("ace_only_fourteen", [EVEN] if rank == "A" else []),
        ("face_no_parity", [NEITHER] if rank in FACES else []),
        ("face_value_unknown", swapped if rank in FACES else []),
        ("parity_swapped", swapped if rank not in FACES else []),
    ]
    return _trait_question("rank_parity", card, right, options, candidates, difficulty)


def rank_size(card, difficulty: int = 2) -> Question:
    """Is this card low (A-7) or high (8-A)? The ace is both (1 low, 14 high) (Three Traits)."""
    _check_difficulty(difficulty)
    rank, _ = parse_card(card)
    values = _three_traits_values(rank)
    right = BOTH if len(values) == 2 else _size(values[0])
    options = [LOW, HIGH] + ([BOTH] if difficulty >= 2 or right == BOTH else [])
    swapped = [LOW if right == HIGH else HIGH] if right != BOTH else []
    candidates = [
        ("ace_only_one", [LOW] if rank == "A" else []),
        ("ace_only_fourteen", [HIGH] if rank == "A" else []),
        ("boundary_7_8", swapped if rank in ("7", "8") else []),
        ("face_cards_low", swapped if rank in FACES else []),
        ("size_swapped", swapped),
    ]
    return _trait_question("rank_size", card, right, options, candidates, difficulty)


#: The answers to "which attributes do they share?", in the order the buttons show them.
TRAIT_SETS = ("none", "suit", "parity", "size", "suit+parity", "suit+size", "parity+size", "suit+parity+size")


def _shared(
    a: tuple[str, str],
    b: tuple[str, str],
    *,
    ace=(ACE_LOW, ACE_HIGH),
    face_parity=True,
    low_max=LOW_MAX,
    suit_of=lambda s: s,
) -> set[str]:
    """The attribute sets two cards can share with the most attributes, each ace counting 1 or 14.

    The keywords describe a way of seeing the cards: the rules' way by default, or a mistaken one.
    """

    def readings(card):
        rank, suit = card
        for value in ace if rank == "A" else (rank_value(rank),):
            parity = None if rank in FACES and not face_parity else _parity(value)
            yield suit_of(suit), parity, _size(value, low_max)

    found: dict[int, set[str]] = {}
    for first, second in product(readings(a), readings(b)):
        names = [name for name, x, y in zip(("suit", "parity", "size"), first, second) if x is not None and x == y]
        found.setdefault(len(names), set()).add("+".join(names) or "none")
    return found[max(found)]


#: The phrase that names each suit in words (``[shared_traits.phrases]``): a symbol alone is no word to read or hear.
SUIT_PHRASES = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}


def _trait_description(kind: str, rank: str, suit: str) -> dict:
    """What a card is: its suit in words, odd or even, low or high ("a heart, even and high")."""
    suit_name = _phrase(kind, SUIT_PHRASES[suit])
    if rank == "A":
        return _phrase(kind, "ace_traits", suit=suit_name)
    value = rank_value(rank)
    return _phrase(
        kind, "traits", suit=suit_name, parity=_phrase(kind, _parity(value)), size=_phrase(kind, _size(value))
    )


def shared_traits(card_a, card_b, difficulty: int = 2) -> Question:
    """Which attributes two cards share: suit, odd/even, low/high (Three Traits); the ace counts as 1 or 14."""
    _check_difficulty(difficulty)
    kind = "shared_traits"
    a, b = parse_card(card_a), parse_card(card_b)
    if a[1] is None or b[1] is None:
        raise ValueError("shared attributes need cards with suits, such as 'QH'")
    if a == b:
        raise ValueError("two different cards are compared")
    for rank, _ in (a, b):
        _three_traits_values(rank)  # no jokers in Three Traits
    right = [s for s in TRAIT_SETS if s in _shared(a, b)]
    candidates = [
        ("ace_only_one", _shared(a, b, ace=(ACE_LOW,))),
        ("face_no_parity", _shared(a, b, face_parity=False)),
        ("boundary_7_8", _shared(a, b, low_max=LOW_MAX - 1) | _shared(a, b, low_max=LOW_MAX + 1)),
        ("colour_not_suit", _shared(a, b, suit_of=lambda s: s in RED_SUITS)),
        ("forgot_suit", {"+".join(p for p in s.split("+") if p != "suit") or "none" for s in right}),
    ]
    misconceptions = _claim(right, [(mid, sorted(values)) for mid, values in candidates])
    ranked = _round_robin([m["values"] for m in misconceptions])
    offered = _pick(right, ranked, list(TRAIT_SETS), TRAIT_BUTTONS[difficulty])
    answers = [_label(kind, s).to_dict() for s in right]
    params = {
        "a": card_index(*a),
        "b": card_index(*b),
        "a_traits": _trait_description(kind, *a),
        "b_traits": _trait_description(kind, *b),
        "count": len(right[0].split("+")) if right[0] != "none" else 0,
        "answer": answers[0] if len(answers) == 1 else _phrase(kind, "either", first=answers[0], second=answers[1]),
    }
    return build(
        kind,
        params,
        answer=CHOICE,
        check={"rule": "choice", "expected": right},
        misconceptions=misconceptions,
        choices=[{"value": s, "label": _label(kind, s)} for s in offered],
        difficulty=difficulty,
    )


#: The generators of each skill (skill ids as in shared/games.md), for the drill catalogue.
GENERATORS = {
    "multiply": [multiply_top_numbers],
    "factor_pairs": [factor_pair_cards, factor_pair_for_value, missing_factor],
    "tens_friends": [tens_friend_number, tens_friend_card],
    "count": [cards_after_win, cards_after_loss, cards_on_table],
    "compare": [compare_numbers, compare_ranks],
    "parity_size": [rank_parity, rank_size, shared_traits],
}
