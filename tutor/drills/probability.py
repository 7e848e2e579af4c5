"""Skill ``probability``: the chance of an event as a fraction, and the expected value of a bet.

War and Casino War ask it with plain counts from the position (cards in the deck, how
many beat yours, how many decks); Gnav from the cards the pupil has seen (how many of the
unseen cards beat theirs, a typed count, and the chance that the card they would get is one
of them). Any equivalent fraction counts at difficulties 1 and 2 (1 also says how many cards
there are, except in Casino War, whose prompts give no working: the hints do); difficulty 3
asks for the simplest form. Casino War asks the
chance of a tie, the house's edge on the stake (giving up on every tie), the tokens a
pupil can expect to lose in some hands, and what the side bet on a tie is worth.
Texts: ``content/drills/probability.toml``.
"""

from __future__ import annotations

from fractions import Fraction

from tutor.drills import NUMBER, Question
from tutor.drills.common import OFF_BY_ONE, ask, check_difficulty, claim, slips
from tutor.gnav_deck import SEED_ORDER, card, card_name, deck, face_of, rank
from tutor.signs import FRACTION, exact_text, formula, fraction_text
from tutor.text import N_, Text


def _steps(numerator: int, denominator: int) -> dict:
    """A fraction and, if it simplifies, its simplest form: "12/48 = 1/4", "6/41"."""
    simplest = Fraction(numerator, denominator)
    if (simplest.numerator, simplest.denominator) == (numerator, denominator):
        return formula((numerator, denominator), form=FRACTION)
    return formula((numerator, denominator), "=", simplest, form=FRACTION)


def _chance_check(chance: Fraction, difficulty: int) -> dict:
    """Any equivalent fraction counts at difficulties 1 and 2; simplest form is asked at 3 (the prompt says which)."""
    return {"rule": "equivalent_simplest" if difficulty == 3 else "equals", "expected": exact_text(chance)}


def _chance_cases(difficulty: int) -> list[str]:
    return {1: ["helped"], 2: [], 3: ["simplest"]}[difficulty]


def probability_card_beats(deck_size: int, higher: int, difficulty: int = 2) -> Question:
    """The chance that the next card from the rest of the deck beats yours, as a fraction.

    ``deck_size``: the cards the pupil knows of, their own card included (Gnav: 42, War:
    52); ``higher``: how many of the other cards beat theirs. The answer is
    higher / (deck_size - 1): the pupil's own card cannot come again. Difficulty 1 states
    how many other cards there are; difficulty 3 asks for the simplest form.
    """
    difficulty = check_difficulty(difficulty)
    if isinstance(deck_size, bool) or deck_size < 2 or not 0 <= higher <= deck_size - 1:
        raise ValueError("need a deck of at least 2 cards and 0 <= higher < deck_size")
    others = deck_size - 1
    not_higher = others - higher
    chance = Fraction(higher, others)
    params = {
        "deck_size": deck_size,
        "others": others,
        "higher": higher,
        "not_higher": not_higher,
        "chance": fraction_text(chance, FRACTION),
        "chance_steps": _steps(higher, others),
    }
    candidates = [
        ("odds", [Fraction(higher, not_higher) if not_higher else None]),
        ("own_card_kept", [Fraction(higher, deck_size)]),
        ("count_not_fraction", [Fraction(higher)]),
        ("inverted", [Fraction(others, higher) if higher else None]),
        ("complement", [Fraction(not_higher, others)]),
    ]
    return ask(
        "probability_card_beats",
        params,
        _chance_cases(difficulty),
        answer=NUMBER,
        check=_chance_check(chance, difficulty),
        misconceptions=claim(candidates, lambda v: v != chance, exact_text),
        difficulty=difficulty,
        number_form=FRACTION,
    )


MAX_DECKS = 8


def _tie_counts(decks: int) -> dict:
    if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= MAX_DECKS:
        raise ValueError(f"Casino War uses 1 to {MAX_DECKS} decks")
    cards, same = 52 * decks, 4 * decks
    return {
        "decks": decks,
        "cards": cards,
        "same": same,
        "same_left": same - 1,
        "left": cards - 1,
        "all_cards": formula(decks, "*", 52, "=", cards),
    }


def probability_tie(decks: int, difficulty: int = 2) -> Question:
    """Casino War with ``decks`` decks: the chance that the house's card ties with yours, (4n - 1)/(52n - 1).

    The hints count the cards left of your rank; difficulty 3 asks for the simplest form.
    """
    difficulty = check_difficulty(difficulty)
    counts = _tie_counts(decks)
    same, same_left, cards, left = counts["same"], counts["same_left"], counts["cards"], counts["left"]
    chance = Fraction(same_left, left)
    params = {**counts, "chance": fraction_text(chance, FRACTION), "chance_steps": _steps(same_left, left)}
    candidates = [
        ("odds", [Fraction(same_left, left - same_left)]),
        ("own_card_kept", [Fraction(same, cards), Fraction(same, left), Fraction(same_left, cards)]),
        ("count_not_fraction", [Fraction(same_left), Fraction(same)]),
        ("inverted", [Fraction(left, same_left)]),
    ]
    return ask(
        "probability_tie",
        params,
        ["simplest"] if difficulty == 3 else [],
        answer=NUMBER,
        check=_chance_check(chance, difficulty),
        misconceptions=claim(candidates, lambda v: v != chance, exact_text),
        difficulty=difficulty,
        number_form=FRACTION,
    )


def probability_tie_bet(decks: int, difficulty: int = 2, payout: int = 10) -> Question:
    """The expected value of Casino War's tie side bet paying ``payout`` to 1, per token staked.

    Win ``payout`` tokens (and keep the stake) with the chance of a tie, else lose the stake:
    payout × p − (1 − p), negative for the pupil (the house's edge). The hints give the
    chance of a tie; at difficulty 3 a wrong chance from keeping one's own card is named too.
    """
    difficulty = check_difficulty(difficulty)
    if isinstance(payout, bool) or not isinstance(payout, int) or payout < 1:
        raise ValueError("the payout is a whole number of tokens per token, at least 1")
    counts = _tie_counts(decks)
    chance = Fraction(counts["same_left"], counts["left"])
    lose = 1 - chance
    value = payout * chance - lose
    params = {
        **counts,
        "payout": payout,
        "chance": fraction_text(chance, FRACTION),
        "chance_steps": _steps(counts["same_left"], counts["left"]),
        "lose_chance": fraction_text(lose, FRACTION),
        "win_part": fraction_text(payout * chance, FRACTION),
        "win_product": formula(payout, "*", chance, form=FRACTION),
        "win_steps": formula(payout, "*", chance, "=", payout * chance, form=FRACTION),
        "loss_product": formula(1, "*", lose, form=FRACTION),
        "loss_steps": formula(1, "*", lose, "=", lose, form=FRACTION),
        "value_steps": formula(payout * chance, "-", lose, "=", value, form=FRACTION),
        "value": fraction_text(value, FRACTION),
        "loss": fraction_text(abs(value), FRACTION),
    }
    odds = Fraction(counts["same_left"], counts["left"] - counts["same_left"])
    careless = Fraction(counts["same"], counts["cards"])
    candidates = [
        ("ignored_loss", [payout * chance]),
        ("stake_always_lost", [payout * chance - 1]),
        ("sign_flipped", [-value]),
        ("odds", [payout * odds - (1 - odds)]),
    ]
    if difficulty == 3:
        candidates.append(("own_card_kept", [payout * careless - (1 - careless)]))
    return ask(
        "probability_tie_bet",
        params,
        ["no_loss"] if value >= 0 else [],
        answer=NUMBER,
        check={"rule": "equals", "expected": exact_text(value)},
        misconceptions=claim(candidates, lambda v: v != value, exact_text),
        difficulty=difficulty,
        number_form=FRACTION,
    )


def casino_house_edge(decks: int, difficulty: int = 2) -> Question:
    """What the house wins on average per token staked in Casino War when the pupil gives up on every tie.

    Apart from ties, winning and losing a token are equally likely, so they cancel out; a
    tie (chance p) costs half the token: the house's edge is p/2 (1/34 with one deck).
    Any equivalent fraction counts, except at difficulty 3 (the simplest form).
    """
    difficulty = check_difficulty(difficulty)
    counts = _tie_counts(decks)
    chance = Fraction(counts["same_left"], counts["left"])
    edge = chance / 2
    params = {
        **counts,
        "chance": fraction_text(chance, FRACTION),
        "chance_steps": _steps(counts["same_left"], counts["left"]),
        "edge_question": formula(chance, "*", Fraction(1, 2), form=FRACTION),
        "edge_steps": formula(chance, "*", Fraction(1, 2), "=", edge, form=FRACTION),
        "edge": fraction_text(edge, FRACTION),
    }
    careless = Fraction(counts["same"], counts["cards"])
    candidates = [
        ("forgot_half", [chance]),
        ("half_not_chance", [Fraction(1, 2)]),
        ("own_card_kept", [careless / 2]),
        ("sign_flipped", [-edge]),
    ]
    return ask(
        "casino_house_edge",
        params,
        ["simplest"] if difficulty == 3 else [],
        answer=NUMBER,
        check=_chance_check(edge, difficulty),
        misconceptions=claim(candidates, lambda v: v != edge, exact_text),
        difficulty=difficulty,
        number_form=FRACTION,
    )


def casino_expected_loss(decks: int, stake: int, hands: int, difficulty: int = 2) -> Question:
    """How many tokens a pupil who stakes ``stake`` a hand and gives up on every tie expects to lose in ``hands`` hands.

    One hand costs on average the chance of a tie times half the stake; ``hands`` of them
    cost that many times as much (:func:`casino_house_edge` per token).
    """
    difficulty = check_difficulty(difficulty)
    if any(isinstance(n, bool) or not isinstance(n, int) or n < 2 for n in (stake, hands)) or stake % 2:
        raise ValueError("an even stake of at least 2 tokens, and at least two hands")
    counts = _tie_counts(decks)
    chance = Fraction(counts["same_left"], counts["left"])
    half = stake // 2
    per_hand = chance * half
    loss = per_hand * hands
    params = {
        **counts,
        "stake": stake,
        "hands": hands,
        "half": half,
        "chance": fraction_text(chance, FRACTION),
        # half of a stake of 2 is 1 token: then one hand costs the chance of a tie itself
        "per_hand_steps": formula(*([chance, "*", half, "="] if half > 1 else []), per_hand, form=FRACTION),
        "total_question": formula(hands, "*", per_hand, form=FRACTION),
        "total_steps": formula(hands, "*", per_hand, "=", loss, form=FRACTION),
        "loss": fraction_text(loss, FRACTION),
    }
    candidates = [
        ("forgot_half", [chance * stake * hands]),
        ("one_hand_only", [per_hand]),
        ("every_stake_lost", [stake * hands]),
        ("sign_flipped", [-loss]),
    ]
    return ask(
        "casino_expected_loss",
        params,
        answer=NUMBER,
        check={"rule": "equals", "expected": exact_text(loss)},
        misconceptions=claim(candidates, lambda v: v != loss, exact_text),
        difficulty=difficulty,
        number_form=FRACTION,
    )


def _gnav_counts(card_id: int, seen: list[int], low_order: str) -> dict:
    """What the pupil knows in Gnav: their card, the cards they have seen (their own too) and those they have not."""
    mine = card(card_id)
    known = set(seen) | {card_id}
    if not known <= set(deck()):
        raise ValueError("the cards seen must be Gnav cards")
    unseen = [c for c in deck() if c not in known]
    if not unseen:
        raise ValueError("some card must be unseen")
    above = {face_of(c) for c in deck() if rank(c, low_order) > rank(card_id, low_order)}
    higher = [c for c in unseen if rank(c, low_order) > rank(card_id, low_order)]
    return {
        "card_id": mine.id,
        "kinds": len(above),
        "higher_total": 2 * len(above),
        "seen_higher": sum(rank(c, low_order) > rank(card_id, low_order) for c in known),
        "higher": len(higher),
        "lower": sum(rank(c, low_order) < rank(card_id, low_order) for c in unseen),
        "twin_unseen": any(face_of(c) == face_of(card_id) for c in unseen),
        "seen": len(known),
        "unseen": len(unseen),
        "all": len(deck()),
    }


def gnav_unseen_higher(card_id: int, seen: list[int], difficulty: int = 2, low_order: str = SEED_ORDER) -> Question:
    """Gnav: how many of the cards the pupil has not seen beat their card (a count, typed).

    Two cards of every kind: the kinds above the card, twice, less the higher cards the pupil
    has seen (on the discard pile, shown by a call, in their own trades). Difficulty 1 says how
    many kinds are higher and how many higher cards were seen; 2 says how many were seen; 3
    leaves the counting of the seen cards to the pupil.
    """
    difficulty = check_difficulty(difficulty)
    counts = _gnav_counts(card_id, seen, low_order)
    answer = counts["higher"]
    params = {
        "card": card_name(card_id).to_dict(),
        "kinds": counts["kinds"],
        "higher_total": counts["higher_total"],
        "seen_higher": counts["seen_higher"],
        "two_each": formula(counts["kinds"], "*", 2, "=", counts["higher_total"]),
        "left_steps": formula(counts["higher_total"], "-", counts["seen_higher"], "=", answer),
    }
    candidates = [
        ("seen_not_taken_away", [counts["higher_total"]]),
        ("kinds_not_cards", [counts["kinds"] - counts["seen_higher"], counts["kinds"]]),
        ("twin_counted", [answer + 1] if counts["twin_unseen"] else []),
        ("counted_lower", [counts["lower"]]),
        *slips(answer, which=(OFF_BY_ONE,)),
    ]
    return ask(
        "gnav_unseen_higher",
        params,
        {1: ["helped"], 2: [], 3: ["plain"]}[difficulty],
        answer=NUMBER,
        check={"rule": "equals", "expected": str(answer)},
        misconceptions=claim(candidates, lambda v: v != answer and v >= 0, exact_text),
        cards=[card_id],
        difficulty=difficulty,
    )


#: Whose card the pupil would get by trading: the left neighbour's, or (the dealer) the deck's top card.
WHOSE_CARD = {
    False: N_("the card of the player on your left"),
    True: N_("the top card of the deck"),
}


def gnav_chance_higher(
    card_id: int, seen: list[int], difficulty: int = 2, low_order: str = SEED_ORDER, from_deck: bool = False
) -> Question:
    """Gnav: the chance that the card the pupil would trade for beats theirs, as a fraction.

    That card is one of the cards the pupil has not seen, each as likely: the higher ones out
    of all unseen ones. ``from_deck``: the pupil deals and would draw the deck's top card.
    Difficulty 1 gives both counts; 2 gives the cards seen and the higher ones unseen; 3 asks
    for the simplest form too.
    """
    difficulty = check_difficulty(difficulty)
    counts = _gnav_counts(card_id, seen, low_order)
    higher, unseen, total = counts["higher"], counts["unseen"], counts["all"]
    chance = Fraction(higher, unseen)
    params = {
        "card": card_name(card_id).to_dict(),
        "whose": Text(WHOSE_CARD[bool(from_deck)]).to_dict(),
        "all": total,
        "seen": counts["seen"],
        "unseen": unseen,
        "higher": higher,
        "unseen_steps": formula(total, "-", counts["seen"], "=", unseen),
        "chance": fraction_text(chance, FRACTION),
        "chance_steps": _steps(higher, unseen),
    }
    candidates = [
        ("odds", [Fraction(higher, unseen - higher) if unseen > higher else None]),
        ("seen_counted", [Fraction(higher, total), Fraction(higher, total - 1)]),
        ("count_not_fraction", [Fraction(higher)]),
        ("inverted", [Fraction(unseen, higher) if higher else None]),
        ("complement", [Fraction(unseen - higher, unseen)]),
    ]
    return ask(
        "gnav_chance_higher",
        params,
        _chance_cases(difficulty),
        answer=NUMBER,
        check=_chance_check(chance, difficulty),
        misconceptions=claim(candidates, lambda v: v != chance, exact_text),
        cards=[card_id],
        difficulty=difficulty,
        number_form=FRACTION,
    )


GENERATORS = [
    probability_card_beats,
    probability_tie,
    probability_tie_bet,
    casino_house_edge,
    casino_expected_loss,
    gnav_unseen_higher,
    gnav_chance_higher,
]
