"""The answer key (tutor/answer_key.py) is right where it says right and wrong where it says wrong.

A property test over every question generator of the drill catalogue, with arguments
drawn across their whole range, marks the key's answers in every locale: the right answer
must be marked right, a wrong answer (plain, or one that shows a named misconception)
wrong and readable, whether the key is asked without a random generator or with one.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.drill_support import twentynine
from tutor import answer_key, gnav_deck, standard_deck
from tutor.answer_key import right_answer, wrong_answer
from tutor.checks import CHECKS
from tutor.deck import kids2
from tutor.drills import (
    Question,
    add_sub,
    compare,
    count,
    estimate_sum,
    exact_sum,
    factor_pairs,
    four_ops,
    fractions,
    mean,
    missing_addend,
    multiply,
    parity_size,
    primes,
    probability,
    tens_friends,
)
from tutor.drills.catalogue import generators
from tutor.drills.marking import RIGHT, WRONG, mark
from tutor.text import LOCALES, Text

DECK = kids2()
NUMBER_CARDS = list(DECK.number_card_ids)
ALL_CARDS = [card.id for card in DECK.cards]
STANDARD_CARDS = list(standard_deck.deck("full"))
WITH_JOKERS = list(standard_deck.deck("jokers"))

level = st.integers(1, 3)
number_card = st.sampled_from(NUMBER_CARDS)
gnav_card = st.sampled_from(gnav_deck.deck())
gnav_seen = st.lists(gnav_card, max_size=40, unique=True)
gnav_order = st.sampled_from(gnav_deck.ORDERS)


def cards(low: int, high: int, pool=NUMBER_CARDS):
    return st.lists(st.sampled_from(pool), min_size=low, max_size=high, unique=True)


def labelled(table: list[int]) -> tuple[list[int], dict[int, Text]]:
    return table, {card: Text("Player %(number)s", {"number": i + 1}) for i, card in enumerate(table)}


def discard_and_value():
    return number_card.flatmap(lambda discard: st.tuples(st.just(discard), st.sampled_from(DECK[discard].circled)))


#: A computer player's name, as the lessons pass it to a question.
OTHER = Text("Computer %(n)s", {"n": 2}).to_dict()


def rule_cards(rule: str) -> list[int]:
    """A card of each rank a game's own rule names: the six and the ace for P'yanitsa's."""
    by_rank = {standard_deck.rank(card): card for card in WITH_JOKERS}
    return [by_rank[rank] for rank in compare.SPECIAL_RULES[rule]]


twentynine_card = st.one_of(st.integers(2, 10), st.sampled_from(["K", "Q"]))
twentynine_pile = st.lists(
    st.one_of(st.integers(2, 10), st.tuples(st.integers(2, 10), st.sampled_from(["K", "Q"]))), min_size=1, max_size=5
)
twentynine_play = st.one_of(st.integers(2, 10), st.tuples(st.sampled_from(["K", "Q"]), st.integers(0, 4)))


def twentynine_position(with_play: bool):
    """A 29 pile as card ids (tests.drill_support.twentynine), with a play on it or a hand of the pupil's."""
    if with_play:
        return (
            st.tuples(twentynine_pile, twentynine_play)
            .filter(lambda drawn: isinstance(drawn[1], int) or drawn[1][1] < len(drawn[0]))
            .map(lambda drawn: twentynine(*drawn))
        )
    return st.tuples(twentynine_pile, st.lists(twentynine_card, min_size=1, max_size=4)).map(
        lambda drawn: twentynine(drawn[0], hand=drawn[1])
    )


interval_and_hand = cards(6, 10).map(lambda drawn: (drawn[:4], drawn[4:]))
pupil_value = st.one_of(st.integers(-20, 120), st.fractions(-20, 120, max_denominator=9).map(str))

#: Each generator of the catalogue and a strategy for its arguments, over the range its games use.
ARGUMENTS = {
    estimate_sum.estimate_card_sum: st.tuples(number_card, level),
    estimate_sum.best_card: st.tuples(cards(2, 6), level),
    exact_sum.exact_card_sum: st.tuples(number_card, level),
    compare.winning_card: cards(2, 4).map(labelled).flatmap(lambda table: st.tuples(*map(st.just, table), level)),
    compare.compare_numbers: st.tuples(st.lists(st.integers(0, 100), min_size=2, max_size=4), level),
    compare.twentynine_bust: st.tuples(twentynine_position(True), level).map(lambda d: (*d[0], d[1])),
    compare.compare_gnav: st.tuples(st.lists(gnav_card, min_size=2, max_size=2, unique=True), level, gnav_order),
    compare.compare_ranks: st.tuples(
        st.lists(st.sampled_from(WITH_JOKERS), min_size=2, max_size=4), level, st.booleans()
    ),
    compare.rank_difference: st.tuples(cards(2, 2, STANDARD_CARDS), level),
    compare.special_rank_rule: st.sampled_from(sorted(compare.SPECIAL_RULES)).flatmap(
        lambda rule: st.tuples(
            st.lists(st.sampled_from(WITH_JOKERS), min_size=0, max_size=2).map(
                lambda others, rule=rule: [*rule_cards(rule), *others]
            ),
            st.just(rule),
            level,
        )
    ),
    compare.least_waste_card: st.tuples(cards(1, 6, WITH_JOKERS), st.sampled_from(WITH_JOKERS), level, st.booleans()),
    multiply.multiply_top_numbers: cards(2, 2).flatmap(lambda pair: st.tuples(*map(st.just, pair), level)),
    factor_pairs.factor_pair_cards: st.tuples(cards(2, 7, ALL_CARDS), number_card, level),
    factor_pairs.factor_pair_for_value: st.tuples(cards(2, 7, ALL_CARDS), discard_and_value(), level).map(
        lambda drawn: (drawn[0], drawn[1][1], drawn[2], drawn[1][0])
    ),
    factor_pairs.missing_factor: st.tuples(number_card, number_card, level),
    tens_friends.tens_friend_number: st.tuples(number_card, level),
    tens_friends.tens_friend_card: st.tuples(cards(1, 7, ALL_CARDS), number_card, level),
    count.cards_after_win: st.tuples(st.integers(0, 52), st.integers(1, 20), level),
    count.cards_after_loss: st.tuples(st.integers(1, 52), st.integers(1, 20), level),
    count.cards_on_table: st.tuples(st.lists(st.integers(1, 10), min_size=2, max_size=4), level),
    count.winner_takes: st.tuples(st.lists(st.integers(1, 12), min_size=2, max_size=4), level),
    count.war_cards: st.tuples(st.integers(2, 4), st.integers(1, 10), level, st.integers(2, 30)),
    count.cards_ahead: st.tuples(st.integers(0, 52), st.integers(0, 52), st.just(OTHER), level),
    count.unseen_beat_count: st.tuples(st.sampled_from(WITH_JOKERS), cards(0, 10, WITH_JOKERS), st.booleans(), level),
    parity_size.rank_parity: st.tuples(st.sampled_from(STANDARD_CARDS), level),
    parity_size.rank_size: st.tuples(st.sampled_from(STANDARD_CARDS), level),
    parity_size.shared_traits: st.tuples(st.sampled_from(STANDARD_CARDS), st.sampled_from(STANDARD_CARDS), level),
    parity_size.playable_card: st.tuples(
        st.lists(st.sampled_from(STANDARD_CARDS), min_size=3, max_size=12, unique=True),
        level,
        st.sampled_from(["fewer_than_two", "at_least_one"]),
    ).map(lambda drawn: (drawn[0][2:], drawn[0][0], drawn[0][1], drawn[1], drawn[2])),
    fractions.fraction_in_interval: st.tuples(interval_and_hand, level, st.booleans()).map(
        lambda drawn: (*drawn[0], drawn[1], drawn[2])
    ),
    fractions.fraction_larger: st.tuples(interval_and_hand, level).map(lambda drawn: (*drawn[0], drawn[1])),
    fractions.fraction_order: st.tuples(interval_and_hand, level).map(lambda drawn: (*drawn[0], drawn[1])),
    fractions.fraction_equivalent: st.tuples(interval_and_hand, level).map(lambda drawn: (*drawn[0], drawn[1])),
    fractions.fraction_from_hand: st.tuples(interval_and_hand, level, st.booleans()).map(
        lambda drawn: (*drawn[0], drawn[1], drawn[2])
    ),
    primes.prime_is_prime: st.tuples(st.integers(1, 200), level),
    primes.prime_card_sum: st.tuples(number_card, level),
    primes.prime_which_sum: st.tuples(number_card, level),
    mean.mean_estimate: st.tuples(number_card, level),
    mean.mean_exact: st.tuples(number_card, level),
    probability.probability_card_beats: st.integers(10, 60).flatmap(
        lambda size: st.tuples(st.just(size), st.integers(0, size - 1), level)
    ),
    probability.probability_tie: st.tuples(st.integers(1, 8), level),
    probability.probability_tie_bet: st.tuples(st.integers(1, 8), level, st.integers(2, 12)),
    probability.casino_house_edge: st.tuples(st.integers(1, 8), level),
    probability.casino_expected_loss: st.tuples(
        st.integers(1, 8), st.integers(1, 5).map(lambda half: 2 * half), st.integers(2, 400), level
    ),
    probability.gnav_unseen_higher: st.tuples(gnav_card, gnav_seen, level, gnav_order),
    probability.gnav_chance_higher: st.tuples(gnav_card, gnav_seen, level, gnav_order, st.booleans()),
    add_sub.triplesmart_expression: st.tuples(cards(3, 3), number_card, level),
    add_sub.triplesmart_distance: st.tuples(cards(3, 3), number_card, st.integers(-20, 120), level),
    add_sub.triplesmart_better: st.tuples(cards(3, 3), number_card, st.integers(-20, 120), level),
    add_sub.twentynine_pile_value: st.tuples(twentynine_position(True), level).map(lambda d: (*d[0], d[1])),
    add_sub.razboiul_war_cards: st.tuples(
        st.sampled_from([card for card in STANDARD_CARDS if standard_deck.rank(card) != standard_deck.ACE]),
        st.integers(2, 4),
        level,
        st.one_of(st.none(), st.integers(1, 12)),
    ),
    four_ops.triplesmart_extreme_expression: st.tuples(cards(3, 4), number_card, level),
    four_ops.triplesmart_extreme_distance: st.tuples(cards(3, 4), number_card, pupil_value, level),
    four_ops.triplesmart_extreme_better: st.tuples(cards(3, 4), number_card, pupil_value, level),
    missing_addend.twentynine_missing_value: st.tuples(twentynine_pile.map(lambda pile: twentynine(pile)[0]), level),
    missing_addend.twentynine_which_card: st.tuples(twentynine_position(False), level).map(lambda d: (*d[0], d[1])),
}
GENERATORS = [make for makers in generators().values() for make in makers]


def test_every_named_check_has_its_right_and_its_wrong_answer():
    assert set(answer_key.RIGHT) == set(CHECKS) == set(answer_key.WRONG)


def test_every_generator_of_the_catalogue_has_arguments_to_draw():
    assert set(ARGUMENTS) == set(GENERATORS)


def question_from(make, args) -> Question:
    """The generator's question, or a rejected example when the arguments do not fit it (the generator says so)."""
    try:
        question = make(*args)
    except ValueError:
        assume(False)
    assume(question is not None)
    return question


@pytest.mark.parametrize("make", GENERATORS, ids=lambda make: make.__name__)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(data=st.data(), rng=st.randoms(use_true_random=False))
def test_the_key_is_right_and_wrong_in_every_locale(make, data, rng):
    question = question_from(make, data.draw(ARGUMENTS[make], label="arguments"))
    stored = question.to_dict()
    for locale in LOCALES:
        for given_rng in (None, rng):
            right = right_answer(question, locale, given_rng)
            assert mark(question, right, locale).status == RIGHT, (question.kind, question.check, right, locale)
            for misconception in (False, True):
                wrong = wrong_answer(question, locale, given_rng, misconception)
                if wrong is None:  # a tie between all the cards: every button is right
                    assert {c["value"] for c in question.choices} <= set(question.check["expected"])
                    continue
                marked = mark(question, wrong, locale)
                assert marked.status == WRONG, (question.kind, question.check, wrong, locale, marked.error_code)
        assert right_answer(stored, locale) == right_answer(question, locale)  # a stored question is answered alike


def test_without_a_generator_the_key_answers_the_same_every_time():
    question = estimate_sum.best_card(NUMBER_CARDS[:5])
    assert right_answer(question, "en") == question.check["expected"][0]
    assert {wrong_answer(question, "en") for _ in range(5)} == {wrong_answer(question, "en")}
    varied = {wrong_answer(question, "en", random.Random(seed)) for seed in range(20)}
    assert len(varied) > 1


def test_a_wrong_answer_may_show_a_named_misconception():
    card = next(c for c in NUMBER_CARDS if DECK[c].top >= 9 and min(DECK[c].circled) > 30)
    question = exact_sum.exact_card_sum(card)
    marked = mark(question, wrong_answer(question, "nb", misconception=True), "nb")
    assert marked.status == WRONG and marked.misconception is not None


def test_an_estimate_is_typed_as_a_round_number_and_an_expression_in_the_pupils_keys():
    estimate = next(
        q
        for q in (estimate_sum.estimate_card_sum(c, 2) for c in NUMBER_CARDS)
        if int(q.check["expected"]) % 10 not in (0, 5)
    )
    assert right_answer(estimate, "en").endswith("0")
    extreme = four_ops.triplesmart_extreme_expression(NUMBER_CARDS[:3], NUMBER_CARDS[-1], 3)
    for locale in LOCALES:
        typed = right_answer(extreme, locale)
        assert "×" not in typed and "÷" not in typed and "·" not in typed


def test_a_wrong_count_is_not_below_zero_when_the_right_one_is_not():
    nothing_left = count.cards_after_loss(3, 3)  # 3 − 3 = 0 cards
    for seed in range(40):
        wrong = wrong_answer(nothing_left, "nb", random.Random(seed))
        marked = mark(nothing_left, wrong, "nb")
        assert marked.status == WRONG and not wrong.startswith(("-", "−")), wrong
