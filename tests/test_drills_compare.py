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
    said,
    std,
    twentynine,
)
from tutor.drills.common import DIFFICULTIES
from tutor.drills.compare import (
    SPECIAL_RULES,
    compare_gnav,
    compare_numbers,
    compare_ranks,
    least_waste_card,
    rank_difference,
    special_rank_rule,
    twentynine_bust,
    winning_card,
)
from tutor.drills.marking import RIGHT, UNREADABLE, mark
from tutor.gnav_deck import ORDERS, deck
from tutor.standard_deck import JOKER_RANK, card, card_id, copies
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
        for pair in [[Q, std("7H")], [A, std("9H")], [K, Q], [std("10S"), std("2H")], [std("5H"), J]]:
            found.append(rank_difference(pair, d))
        for cards, rule in [
            ([std("6S"), A], "six_beats_ace"),
            ([std("6S"), A, K], "six_beats_ace"),
            ([std("6S"), std("6H"), A], "six_beats_ace"),
            ([std("2S"), JOKER], "two_beats_joker"),
            ([JOKER, A], "joker_beats_ace"),
            ([std("2S"), A, std("9H")], "two_beats_ace"),
        ]:
            found.append(special_rank_rule(cards, rule, d))
        for hand, shown in [
            (spades(9, 12, 2, 14), std("8D")),
            (spades(9, 12, 2), std("AD")),
            (spades(3, 5, 8), std("KD")),
            (spades(8, 10, 13), std("8D")),
        ]:
            found.append(least_waste_card(hand, shown, d))
        found.append(least_waste_card(spades(9, 2), JOKER, d, top=JOKER_RANK))
        for pile, play in TWENTYNINE_PLAYS:
            found.append(twentynine_bust(*twentynine(pile, play), d))
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


#: 29 plays that show every mistake of the bust question: a 9 on 20 (exactly), a 3 on 30 (over), a King on the
#: 10 of 20 (over) or the 5 of 22 (under), a Queen on the 8 of 37 (exactly) or of 25 (under).
TWENTYNINE_PLAYS = [
    ([10, 8, 2], 9),
    ([10, 10, 10], 3),
    ([10, 8, 2], ("K", 0)),
    ([9, 8, 5], ("K", 2)),
    ([(10, "K"), 8, 2, 7], ("Q", 1)),
    ([10, 7, 8], ("Q", 2)),
]


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


def test_how_much_higher_is_typed_with_the_picture_cards_counted_11_to_14():
    question = rank_difference([Q, std("7H")], 2)
    assert question.answer == "number" and question.check == {"rule": "equals", "expected": "5"}
    assert question.prompt.params["high"] == "Q (12)" and question.prompt.params["low"] == "7"
    assert misconception_of(question, "3") == "face_cards_ten"
    assert misconception_of(question, "19") == "added"
    assert misconception_of(question, "6") == "off_by_one"
    assert misconception_of(rank_difference([A, std("9H")]), "8") == "ace_as_one"
    hard = rank_difference([Q, std("7H")], 3)
    assert hard.prompt.params["high"] == "Q"  # at the top level the pupil knows what the queen counts


def test_the_games_own_rule_decides_which_card_wins():
    question = special_rank_rule([std("6S"), A], "six_beats_ace", 2)
    assert question.check["expected"] == ["6"] and [c["value"] for c in question.choices] == ["6", "A", "tie"]
    assert misconception_of(question, "A") == "usual_order" and misconception_of(question, "tie") == "not_a_tie"
    assert misconception_of(special_rank_rule([std("6S"), A, K], "six_beats_ace"), "K") == "other_card"
    two_sixes = special_rank_rule([std("6S"), std("6H"), A], "six_beats_ace", 1)
    assert two_sixes.check["expected"] == ["tie"]
    assert special_rank_rule([std("2S"), A], "two_beats_ace").check["expected"] == ["2"]
    assert set(SPECIAL_RULES) == {"six_beats_ace", "two_beats_joker", "joker_beats_ace", "two_beats_ace"}


def test_the_lowest_card_that_wins_wastes_least_and_a_2_beats_the_ace():
    question = least_waste_card(spades(9, 12, 2, 14), std("8D"))
    assert question.check["expected"] == ["9"] and question.choices[1]["short"] == "9"
    assert [c["value"] for c in question.choices] == ["2", "9", "Q", "A", "none"]
    assert misconception_of(question, "A") == "highest_card"
    assert misconception_of(question, "2") == "does_not_beat"
    assert misconception_of(question, "none") == "none_beats"
    against_ace = least_waste_card(spades(9, 12, 2), std("AD"))
    assert against_ace.check["expected"] == ["2"] and misconception_of(against_ace, "none") == "missed_two"
    assert least_waste_card(spades(3, 5, 8), std("KD")).check["expected"] == ["none"]
    assert misconception_of(least_waste_card(spades(8, 10, 13), std("8D")), "8") == "equal_is_war"
    assert least_waste_card(spades(3, 14), std("KD"), top=None).check["expected"] == ["A"]


def test_with_jokers_the_2_beats_only_the_joker_when_the_least_waste_is_asked():
    against_joker = least_waste_card(spades(9, 2), JOKER, top=JOKER_RANK)
    assert against_joker.check["expected"] == ["2"] and misconception_of(against_joker, "none") == "missed_two_joker"
    against_ace = least_waste_card(spades(9, 2), std("AD"), top=JOKER_RANK)
    assert against_ace.check["expected"] == ["none"] and misconception_of(against_ace, "2") == "does_not_beat"


def test_a_29_pile_is_under_exactly_or_over_29_after_a_play():
    exactly = twentynine_bust(*twentynine([10, 8, 2], 9))
    assert exactly.check["expected"] == ["exactly"] and [c["value"] for c in exactly.choices] == [
        "under",
        "exactly",
        "over",
    ]
    assert misconception_of(exactly, "under") == "forgot_new_card" and misconception_of(exactly, "over") == "off_by_one"
    king = twentynine_bust(*twentynine([10, 8, 2], ("K", 0)))  # the source's 1b: 20 + 10 = 30
    assert king.check["expected"] == ["over"] and misconception_of(king, "under") == "king_counted_once"
    queen = twentynine_bust(*twentynine([(10, "K"), 8, 2, 7], ("Q", 1)), 1)  # 1c: 37 - 8 = 29
    assert queen.check["expected"] == ["exactly"] and misconception_of(queen, "over") == "queen_ignored"
    assert queen.prompt.msgid.startswith("Your pile is worth %(before)s. You put your Queen")
    assert said(queen.solution[-1], "en") == "Exactly 29: the pile is won!"


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
        lambda: rank_difference([std("7S"), std("7H")]),
        lambda: rank_difference([JOKER, std("7H")]),
        lambda: rank_difference([std("7S")]),
        lambda: special_rank_rule([std("6S"), K], "six_beats_ace"),
        lambda: special_rank_rule([std("6S"), A], "seven_beats_king"),
        lambda: least_waste_card([], A),
        lambda: least_waste_card([A, K], A),
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
    ranks = {card(c).rank for c in cards[:2]}
    if len(ranks) == 2 and JOKER_RANK not in ranks:
        assert_well_formed(rank_difference(cards[:2], difficulty), LOCALES)
    hand, shown = [c for c in cards[1:] if c != cards[0]], cards[0]
    if hand:
        assert_well_formed(least_waste_card(hand, shown, difficulty, ace_high), LOCALES)


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
