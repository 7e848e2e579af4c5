"""Skill compare: which number or card is the largest, or is it a tie? (Kids2 sums, products, standard ranks)"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.drill_support import (
    DECK,
    JOKER,
    NUMBER_CARDS,
    assert_content_complete,
    assert_every_kind_and_misconception_used,
    assert_messages_use_only_fields_every_hint_has,
    assert_right_in_every_locale,
    assert_well_formed,
    misconception_of,
    right_answers,
    std,
)
from tutor.drills.common import DIFFICULTIES
from tutor.drills.compare import compare_gnav, compare_numbers, compare_ranks, winning_card
from tutor.drills.marking import RIGHT, UNREADABLE, mark
from tutor.gnav_deck import ORDERS, deck
from tutor.standard_deck import card_id, copies
from tutor.text import LOCALES

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: Rank cards without a suit that counts: the spade of each rank.
A, K, Q, J = std("AS"), std("KS"), std("QS"), std("JS")


#: Gnav cards (tutor/gnav_deck.py: the first copy of each face, from the top; a second copy is 21 more).
CAT, HOUSE, TWELVE, SEVEN, ONE, FOOL, POT, OWL, ZERO = 2, 4, 5, 10, 16, 17, 18, 19, 20


def spades(*ranks: int) -> list[int]:
    return [card_id(rank, "S") for rank in ranks]


@pytest.fixture(scope="module")
def questions():
    found = []
    for d in DIFFICULTIES:
        for numbers in [[9, 12], [19, 21], [3, 8, 15], [7, 7], [12, 12, 5], [0, 100], [45, 54, 9]]:
            found.append(compare_numbers(numbers, d))
        for cards in [
            [A, K],
            [J, std("10S")],
            [std("9S"), J],
            spades(3, 5, 8),
            [Q, std("QH"), std("2S")],
            [A, std("AH")],
            [JOKER, A, std("2S")],
            [std("KH"), std("10S")],
        ]:
            found.append(compare_ranks(cards, d))
            found.append(compare_ranks(cards, d, ace_high=False))
        for i in range(0, len(NUMBER_CARDS) - 4, 7):
            found.append(winning_card(NUMBER_CARDS[i : i + 2 + i % 3], {}, d))
        for pair in [
            [CAT, SEVEN],
            [SEVEN, TWELVE],
            [TWELVE, HOUSE],
            [FOOL, ONE],
            [ONE, FOOL],
            [SEVEN, 31],
            [OWL, ZERO],
            [ZERO, POT],
        ]:
            for order in ORDERS:
                found.append(compare_gnav(pair, d, order))
    return found


def test_every_question_is_well_formed(questions):
    for question in questions:
        assert_well_formed(question, lists_every_mistake=True)


@pytest.mark.parametrize("locale", LOCALES)
def test_right_answers_are_right_in_every_locale(questions, locale):
    assert_right_in_every_locale(questions[::3], locale)


def test_every_kind_and_misconception_is_used_and_its_message_fills(questions):
    assert_every_kind_and_misconception_used(questions, "compare")
    assert_messages_use_only_fields_every_hint_has(questions)
    assert_content_complete("compare", hints={"winning_card": 2})


def test_winning_card_hides_the_result_until_answered():
    table = [NUMBER_CARDS[0], NUMBER_CARDS[40]]
    question = winning_card(table, {})
    assert question.hides_result and question.skill == "compare"
    best = max(table, key=lambda c: DECK[c].circled_sum)
    assert question.check["expected"] == [str(best)] and [c["card"] for c in question.choices] == table


def test_comparing_numbers_names_each_mistake():
    assert misconception_of(compare_numbers([9, 12]), "9") == "first_digit_only"
    assert misconception_of(compare_numbers([19, 21]), "19") == "last_digit_only"
    question = compare_numbers([3, 8, 15])
    assert misconception_of(question, "3") == "picked_smaller"
    assert misconception_of(question, "8") == "first_digit_only"
    assert mark(question, "15", "it").status == RIGHT
    tie = compare_numbers([7, 7], 1)
    assert tie.check["expected"] == ["tie"] and misconception_of(tie, "7") is None


def test_comparing_ranks_names_the_ace_and_picture_card_mistakes():
    assert misconception_of(compare_ranks([std("AH"), std("KS")]), "K") == "ace_as_one"
    ace_low = compare_ranks([A, K], ace_high=False)
    assert mark(ace_low, "K", "nb").status == RIGHT and misconception_of(ace_low, "A") == "ace_as_high"
    assert misconception_of(compare_ranks([J, std("10S")], 2), "tie") == "face_cards_ten"
    assert misconception_of(compare_ranks([std("9S"), J]), "9") == "face_cards_low"
    assert misconception_of(compare_ranks(spades(3, 5, 8)), "3") == "picked_smaller"
    assert mark(compare_ranks([Q, std("QD"), std("2S")]), "tie", "sv").status == RIGHT


def test_a_rank_question_stores_ranks_and_writes_the_cards_without_suits():
    question = compare_ranks([std("QH"), std("10D"), JOKER], 2)
    assert [c["value"] for c in question.choices] == ["Q", "10", "joker", "tie"]
    assert question.check["expected"] == ["joker"] and question.cards == []  # the lesson shows the cards
    assert question.prompt.params["cards"] == "Q, 10, 🃏"
    assert question.hints[0].params["ladder"].endswith("K A 🃏")
    two_decks = compare_ranks([card_id(7, "H"), card_id(7, "H", copy=1)], 1)
    assert two_decks.check["expected"] == ["tie"]


def test_a_tie_button_is_offered_from_difficulty_two_or_when_there_is_a_tie():
    assert [c["value"] for c in compare_ranks([J, std("10S")], 1).choices] == ["J", "10"]
    assert [c["value"] for c in compare_ranks([J, std("10S")], 2).choices] == ["J", "10", "tie"]
    assert [c["value"] for c in compare_ranks([J, std("JH")], 1).choices] == ["J", "tie"]


def test_unreadable_answers_are_not_wrong_answers():
    for question in (compare_ranks([A, K]), compare_numbers([3, 8])):
        for text in ["", "banana", "42", "ODD"]:
            assert mark(question, text, "en").status == UNREADABLE, text


@pytest.mark.parametrize(
    "make",
    [
        lambda: compare_numbers([4]),
        lambda: compare_numbers([-1, 3]),
        lambda: compare_numbers([3, 8], 0),
        lambda: compare_ranks([std("KH")]),
        lambda: compare_ranks([8 * 54, std("KH")]),
        lambda: compare_ranks(["2S", "KH"]),  # cards are ids of tutor.standard_deck, not their letters
    ],
)
def test_impossible_inputs_are_refused(make):
    with pytest.raises(ValueError):
        make()


@SETTINGS
@given(
    st.lists(st.integers(0, 120), min_size=2, max_size=5),
    st.lists(st.sampled_from(copies(2, jokers=2)), min_size=2, max_size=4),
    st.booleans(),
    st.sampled_from(DIFFICULTIES),
)
def test_every_compare_question_is_answerable(numbers, cards, ace_high, difficulty):
    question = compare_numbers(numbers, difficulty)
    assert_well_formed(question, LOCALES, lists_every_mistake=True)
    assert right_answers(question) == (["tie"] if numbers.count(max(numbers)) > 1 else [str(max(numbers))])
    assert_well_formed(compare_ranks(cards, difficulty, ace_high), LOCALES, lists_every_mistake=True)


def test_gnav_cards_rank_by_the_games_low_card_order():
    assert compare_gnav([CAT, SEVEN]).check["expected"] == ["cat"]
    assert compare_gnav([TWELVE, HOUSE]).check["expected"] == ["house"]
    assert compare_gnav([SEVEN, SEVEN + 21]).check["expected"] == ["tie"]  # two copies of the 7
    assert compare_gnav([ONE, FOOL]).check["expected"] == ["1"]
    assert compare_gnav([ZERO, POT]).check["expected"] == ["pot"]  # the seed's order: ... Fool, Pot, Owl, 0
    assert compare_gnav([ZERO, POT], low_order="fool_lowest").check["expected"] == ["0"]
    assert compare_gnav([FOOL, OWL], low_order="fool_lowest").check["expected"] == ["owl"]


def test_gnav_mixups_of_pictures_and_numbers_are_named():
    question = compare_gnav([TWELVE, HOUSE], 2)
    assert misconception_of(question, "12") == "numbers_above_pictures"
    low = compare_gnav([FOOL, SEVEN], 2)
    assert misconception_of(low, "fool") == "low_pictures_high"
    assert misconception_of(compare_gnav([SEVEN, ONE], 2), "1") == "picked_smaller"
    assert compare_gnav([CAT, SEVEN], 1).choices == [
        c for c in compare_gnav([CAT, SEVEN], 2).choices if c["value"] != "tie"
    ]
    places = question.hints[-1].params
    assert (places["first_place"], places["second_place"]) == (6, 5)  # the 12 and the House, counted from the top


def test_gnav_compares_two_cards_only():
    for cards in ([CAT], [CAT, SEVEN, ONE]):
        with pytest.raises(ValueError):
            compare_gnav(cards)


@SETTINGS
@given(
    st.lists(st.sampled_from(deck()), min_size=2, max_size=2, unique=True), st.sampled_from(ORDERS), st.integers(1, 3)
)
def test_every_gnav_compare_question_is_answerable(cards, order, difficulty):
    assert_well_formed(compare_gnav(cards, difficulty, order), LOCALES, lists_every_mistake=True)
