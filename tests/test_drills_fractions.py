"""Skill fractions: inside an interval or not, which is larger, their order, equivalence, and one from your cards."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.drill_support import NUMBER_CARDS, assert_content_complete, assert_well_formed, kinds_of, lay
from tests.drill_support import misconception_of as named_by
from tutor.checks import exact
from tutor.drills import NO, YES, Question
from tutor.drills.common import NONE
from tutor.drills.fractions import (
    fraction_equivalent,
    fraction_from_hand,
    fraction_in_interval,
    fraction_larger,
    fraction_order,
    hand_fractions,
    table_fractions,
)
from tutor.drills.marking import RIGHT, UNREADABLE, WRONG, mark

MISCONCEPTIONS = {
    "fraction_in_interval": {"equivalent_fractions", "only_numerators", "only_denominators", "flipped"},
    "fraction_larger": {
        "only_numerators",
        "bigger_denominator",
        "only_denominators",
        "equivalent_fractions",
        "same_gap",
    },
    "fraction_order": {"only_numerators", "bigger_denominator", "only_denominators", "largest_first"},
    "fraction_equivalent": {"equivalent_fractions", "same_gap", "only_numerators", "only_denominators"},
    "fraction_from_hand": {"flipped", "only_numerators", "only_denominators", "equivalent_fractions"},
}


def table(interval_tops, hand_tops):
    cards = lay(*interval_tops, *hand_tops)
    return cards[:4], cards[4:]


def shows(question: Question, typed: str, misconception: str, locale: str = "en"):
    assert named_by(question, typed, locale) == misconception, (typed, question.misconceptions)
    return mark(question, typed, locale)


def well_formed(question: Question) -> None:
    assert_well_formed(question, ("nb",))


def test_every_kind_has_its_texts_and_each_misconception_its_message():
    kinds = kinds_of("fractions")
    assert {kind: set(entry["misconceptions"]) for kind, entry in kinds.items()} == MISCONCEPTIONS
    assert_content_complete("fractions")


def test_an_equivalent_end_counts_when_the_ends_count_and_the_feedback_says_why():
    interval, hand = table((1, 2, 3, 4), (2, 4))
    question = fraction_in_interval(interval, fraction=hand)  # 2/4 in [1/2, 3/4]
    assert question.check["expected"] == [YES]
    marked = shows(question, NO, "equivalent_fractions")
    assert "equivalent fractions" in marked.feedback[-1].msgid % marked.feedback[-1].params
    assert any("equivalent fractions" in step.msgid for step in question.solution)
    strict = fraction_in_interval(interval, fraction=hand, strict=True)
    assert strict.check["expected"] == [NO] and "strictly" in strict.prompt.msgid
    shows(strict, YES, "equivalent_fractions")


@pytest.mark.parametrize(
    "tops,strict,wrong,mistake",
    [
        ((1, 1), False, YES, "only_numerators"),  # 1/1 is outside [1/2, 3/4], but 1 lies between the numerators 1 and 3
        ((4, 3), False, YES, "only_denominators"),  # 4/3 is outside, but 3 lies between the denominators 2 and 4
        ((2, 3), False, NO, "flipped"),  # 2/3 is inside; read as 3/2 it is not
        ((2, 5), True, YES, "only_numerators"),
        ((1, 3), True, YES, "only_denominators"),
    ],
)
def test_is_it_inside_names_the_whole_number_mistakes(tops, strict, wrong, mistake):
    interval, hand = table((1, 2, 3, 4), tops)
    shows(fraction_in_interval(interval, fraction=hand, strict=strict), wrong, mistake)


@pytest.mark.parametrize(
    "first,second,wrong,mistake",
    [
        ((5, 9), (2, 3), "5/9", "only_numerators"),
        ((3, 4), (3, 8), "3/8", "bigger_denominator"),
        ((1, 2), (5, 6), "1/2", "only_denominators"),
        ((2, 3), (3, 4), "equal", "same_gap"),
        ((3, 8), (5, 8), "equal", "only_denominators"),
        ((1, 2), (3, 6), "3/6", "equivalent_fractions"),
    ],
)
def test_which_is_larger_names_the_mistake(first, second, wrong, mistake):
    cards = lay(*first, *second)
    question = fraction_larger(fractions=(cards[:2], cards[2:]))
    assert [c["value"] for c in question.choices] == [f"{first[0]}/{first[1]}", f"{second[0]}/{second[1]}", "equal"]
    shows(question, wrong, mistake)
    well_formed(question)


def test_ordering_three_fractions_with_buttons_of_orderings():
    cards = lay(3, 4, 1, 2, 5, 8)  # 3/4, 1/2, 5/8
    question = fraction_order(fractions=(cards[:2], cards[2:4], cards[4:]), difficulty=3)
    assert len(question.choices) == 6 and question.check["expected"] == ["120"]
    label = next(c["label"] for c in question.choices if c["value"] == "120")
    assert label.msgid % label.params == "1/2, 5/8, 3/4"
    assert mark(question, "120", "sv").status == RIGHT
    shows(question, "021", "largest_first")  # 3/4, 5/8, 1/2
    shows(question, "102", "only_numerators")  # numerators 1, 3, 5: 1/2, 3/4, 5/8
    shows(question, "201", "only_denominators")  # denominators 8, 4, 2: 5/8, 3/4, 1/2
    well_formed(question)


def test_ordering_by_bigger_denominators_is_recognised():
    cards = lay(1, 4, 1, 2, 1, 8)  # 1/4, 1/2, 1/8
    question = fraction_order(fractions=(cards[:2], cards[2:4], cards[4:]), difficulty=3)
    assert question.check["expected"] == ["201"]
    shows(question, "102", "bigger_denominator")  # 1/2, 1/4, 1/8: "8 is more than 2"


def test_equivalent_fractions_either_order_is_right():
    cards = lay(1, 2, 2, 4, 3, 4)
    question = fraction_order(fractions=(cards[:2], cards[2:4], cards[4:]))
    assert sorted(question.check["expected"]) == ["012", "102"]
    assert len(question.solution) == 3


@pytest.mark.parametrize(
    "first,second,wrong,mistake",
    [
        ((4, 6), (6, 9), NO, "equivalent_fractions"),
        ((2, 3), (3, 4), YES, "same_gap"),
        ((3, 4), (3, 5), YES, "only_numerators"),
        ((3, 8), (5, 8), YES, "only_denominators"),
    ],
)
def test_equivalent_or_not_names_the_mistake(first, second, wrong, mistake):
    cards = lay(*first, *second)
    question = fraction_equivalent(fractions=(cards[:2], cards[2:]))
    shows(question, wrong, mistake)
    well_formed(question)


def test_a_fraction_from_your_cards_is_picked_from_the_pairs_of_your_cards():
    interval, hand = table((1, 2, 3, 4), (3, 2, 5, 7))
    question = fraction_from_hand(interval, hand, 3)
    assert [c["value"] for c in question.choices] == [f.text for f in hand_fractions(hand)] + [NONE]
    assert sorted(question.check["expected"]) == ["2/3", "3/5", "5/7"]
    assert mark(question, "2/3", "it").status == RIGHT
    shows(question, "3/2", "flipped")
    shows(question, "2/7", "only_numerators")
    shows(question, "7/3", "only_denominators")
    assert mark(question, NONE, "en").status == WRONG
    assert mark(question, "1/2", "en").status == UNREADABLE  # not a fraction of your cards
    well_formed(question)


def test_none_fits_is_right_when_no_pair_of_your_cards_fits():
    interval, hand = table((1, 2, 3, 4), (9, 8))
    question = fraction_from_hand(interval, hand, 2)
    assert question.check["expected"] == [NONE]
    assert "keep your cards" in question.solution[-1].msgid
    strict, hand = table((1, 2, 3, 4), (2, 4))
    question = fraction_from_hand(strict, hand, 2, strict=True)  # 2/4 is the end 1/2: out when the ends do not count
    assert question.check["expected"] == [NONE]
    shows(question, "2/4", "equivalent_fractions")
    inclusive = fraction_from_hand(strict, hand, 2)
    assert inclusive.check["expected"] == ["2/4"]
    shows(inclusive, NONE, "equivalent_fractions")


def test_difficulty_picks_an_easier_or_harder_fraction_and_shows_fewer_or_more_buttons():
    interval, hand = table((1, 2, 3, 4), (3, 2, 5, 7, 6))
    easy, hard = fraction_from_hand(interval, hand, 1), fraction_from_hand(interval, hand, 3)
    assert len(easy.choices) == 4 < len(hard.choices) == len(hand_fractions(hand)) + 1
    distances = []
    for difficulty in (1, 3):
        question = fraction_in_interval(interval, hand, difficulty)
        x = exact(question.prompt.params["fraction"])
        distances.append(min(abs(x - Fraction(1, 2)), abs(x - Fraction(3, 4))))
    assert distances[0] > distances[1]
    assert len(fraction_order(interval, hand, 1).choices) == 3 and len(fraction_order(interval, hand, 3).choices) == 6


def test_unreadable_answers_are_not_wrong_answers():
    question = fraction_from_hand(*table((1, 2, 3, 4), (3, 5)))
    assert mark(question, "maybe", "en").status == UNREADABLE
    assert mark(question, "7", "en").status == UNREADABLE


def test_questions_survive_a_round_trip():
    interval, hand = table((1, 2, 3, 4), (3, 2, 5, 7))
    for question in [
        fraction_in_interval(interval, hand),
        fraction_larger(interval, hand),
        fraction_order(interval, hand),
        fraction_equivalent(interval, hand),
        fraction_from_hand(interval, hand, strict=True),
    ]:
        assert Question.from_dict(json.loads(json.dumps(question.to_dict()))) == question


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(NUMBER_CARDS), min_size=6, max_size=9, unique=True), st.integers(1, 3), st.booleans())
def test_fraction_questions_from_any_table_are_answerable(cards, difficulty, strict):
    interval, hand = cards[:4], cards[4:]
    well_formed(fraction_in_interval(interval, hand, difficulty, strict))
    well_formed(fraction_from_hand(interval, hand, difficulty, strict))
    fractions = table_fractions(interval, hand)
    for generator, needs in ((fraction_larger, 2), (fraction_order, 3), (fraction_equivalent, 2)):
        try:
            well_formed(generator(interval, hand, difficulty))
        except ValueError:  # only when the table makes too few different fractions
            assert len(fractions) < needs or len({f.value for f in fractions}) == 1
