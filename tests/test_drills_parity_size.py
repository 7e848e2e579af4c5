"""Skill parity_size: odd or even, low or high, and the attributes two standard cards share (Three Traits)."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.drill_support import (
    JOKER,
    STANDARD_CARDS,
    assert_content_complete,
    assert_every_kind_and_misconception_used,
    assert_messages_use_only_fields_every_hint_has,
    assert_right_in_every_locale,
    assert_well_formed,
    misconception_of,
    std,
)
from tutor.drills.common import DIFFICULTIES
from tutor.drills.marking import RIGHT, UNREADABLE, mark
from tutor.drills.parity_size import CARD_BUTTONS, TRAIT_BUTTONS, playable_card, rank_parity, rank_size, shared_traits
from tutor.standard_deck import card_id
from tutor.text import LOCALES

SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)


@pytest.fixture(scope="module")
def questions():
    found = []
    for d in DIFFICULTIES:
        for c in STANDARD_CARDS[::3]:
            found.append(rank_parity(c, d))
            found.append(rank_size(c, d))
        for a, b in combinations(STANDARD_CARDS[::5], 2):
            found.append(shared_traits(a, b, d))
        for start in range(0, 48, 7):
            drawn = STANDARD_CARDS[start : start + 7]
            found.append(playable_card(drawn[2:], drawn[0], drawn[1], d))
            found.append(playable_card(drawn[2:], drawn[0], drawn[1], d, "at_least_one"))
        found.append(playable_card([std("3C"), std("QH"), std("AS"), std("KH"), std("2D")], std("5S"), std("JD"), d))
        found.append(playable_card([std("QH"), std("QD"), std("KH")], std("5S"), std("JD"), d))
        found.append(playable_card([std("QD"), std("KH")], std("5S"), std("JD"), d))
        found.append(playable_card([std("7S"), std("8H"), std("2D")], std("5S"), std("QH"), d))
    return found


def test_every_question_is_well_formed(questions):
    for question in questions:
        assert_well_formed(question, lists_every_mistake=True)


@pytest.mark.parametrize("locale", LOCALES)
def test_right_answers_are_right_in_every_locale(questions, locale):
    assert_right_in_every_locale(questions[::7], locale)


def test_every_kind_and_misconception_is_used_and_its_message_fills(questions):
    assert_every_kind_and_misconception_used(questions, "parity_size")
    assert_messages_use_only_fields_every_hint_has(questions)
    assert_content_complete("parity_size")


def test_odd_or_even_names_each_mistake():
    assert misconception_of(rank_parity(std("10H"), 2), "odd") == "parity_swapped"
    assert misconception_of(rank_parity(std("2C"), 2), "odd") == "parity_swapped"
    assert misconception_of(rank_parity(std("QH"), 2), "odd") == "face_value_unknown"
    assert misconception_of(rank_parity(std("KS"), 3), "neither") == "face_no_parity"
    ace = rank_parity(std("AS"), 1)
    assert [c["value"] for c in ace.choices] == ["odd", "even", "both"]
    assert mark(ace, "both", "it").status == RIGHT
    assert misconception_of(ace, "odd") == "ace_only_one"
    assert misconception_of(ace, "even") == "ace_only_fourteen"
    assert [c["value"] for c in rank_parity(std("7D"), 1).choices] == ["odd", "even"]


def test_low_or_high_names_each_mistake():
    assert misconception_of(rank_size(std("7D")), "high") == "boundary_7_8"
    assert misconception_of(rank_size(std("8D")), "low") == "boundary_7_8"
    assert misconception_of(rank_size(std("JC")), "low") == "face_cards_low"
    assert misconception_of(rank_size(std("AH")), "low") == "ace_only_one"
    assert misconception_of(rank_size(std("AH")), "high") == "ace_only_fourteen"
    assert misconception_of(rank_size(std("3S")), "high") == "size_swapped"
    assert mark(rank_size(std("AD")), "both", "sv").status == RIGHT


def test_a_card_is_written_with_its_suit_symbol():
    assert rank_parity(std("QH")).prompt.params["card"] == "Q♥"
    assert rank_size(std("10S")).prompt.params["card"] == "10♠"
    assert shared_traits(std("AD"), std("2C")).prompt.params["a"] == "A♦"


def test_shared_attributes_follow_the_source_example_and_name_each_mistake():
    # The source's example: after J♦ and 5♠, 3♣ shares odd and low with 5♠.
    assert shared_traits(std("5S"), std("3C")).check["expected"] == ["parity+size"]
    assert shared_traits(std("JD"), std("5S")).check["expected"] == ["parity"]
    # An ace counts as 1 or 14, whichever shares more; with a 2 either way shares one.
    assert shared_traits(std("AS"), std("QH")).check["expected"] == ["parity+size"]
    assert shared_traits(std("AS"), std("2H")).check["expected"] == ["parity", "size"]
    assert misconception_of(shared_traits(std("AS"), std("QH"), 3), "none") == "ace_only_one"
    assert misconception_of(shared_traits(std("QH"), std("2S"), 3), "none") == "face_no_parity"
    assert misconception_of(shared_traits(std("7H"), std("9S"), 3), "parity+size") == "boundary_7_8"
    assert misconception_of(shared_traits(std("3H"), std("8D"), 3), "suit") == "colour_not_suit"
    assert misconception_of(shared_traits(std("3H"), std("9H"), 3), "parity") == "forgot_suit"
    assert [len(shared_traits(std("3H"), std("9H"), d).choices) for d in DIFFICULTIES] == [4, 6, 8]


def test_which_cards_may_go_on_the_row_follows_the_source_example():
    # After J♦ and 5♠: 3♣ and A♠ fit; Q♥ shares nothing with 5♠ (allowed only when nothing fits); K♥ and 2♦ share one.
    hand = [std("3C"), std("QH"), std("AS"), std("KH"), std("2D")]
    question = playable_card(hand, last=std("5S"), before=std("JD"))
    assert sorted(question.check["expected"]) == sorted([str(std("3C")), str(std("AS"))])
    assert [c["card"] for c in question.choices if "card" in c] == sorted(hand)
    assert question.prompt.params["last"] == "5♠" and question.prompt.params["before"] == "J♦"
    assert misconception_of(question, str(std("QH"))) == "fallback_too_soon"
    assert misconception_of(question, str(std("KH"))) == "one_with_last"
    assert misconception_of(question, "none") == "missed_a_card"
    # Without 3♣ and A♠, Q♥ goes on by the fallback: it shares only "high" with J♦
    fallback = playable_card([std("QH"), std("KH"), std("2D")], std("5S"), std("JD"))
    assert fallback.check["expected"] == [str(std("QH"))] and "nothing" in fallback.solution[-1].msgid
    # Q♦ shares nothing with 5♠ but the diamond and "high" with J♦: the fallback refuses it, the alternative not
    close = playable_card([std("QD"), std("KH")], std("5S"), std("JD"))
    assert close.check["expected"] == ["none"] and misconception_of(close, str(std("QD"))) == "fallback_too_close"
    assert playable_card([std("QD"), std("KH")], std("5S"), std("JD"), 2, "at_least_one").check["expected"] == [
        str(std("QD"))
    ]
    # 7♠ shares the spade, odd and low with 5♠ but nothing with Q♥
    forgot = playable_card([std("7S"), std("8H"), std("2D")], std("5S"), std("QH"))
    assert misconception_of(forgot, str(std("7S"))) == "forgot_card_before"


def test_which_cards_offers_more_of_the_hand_the_harder_it_is():
    hand = [std(code) for code in ("2C", "4C", "6C", "8H", "10H", "QH", "KS")]
    sizes = [
        len([c for c in playable_card(hand, std("5S"), std("JD"), d).choices if "card" in c]) for d in DIFFICULTIES
    ]
    assert sizes == [CARD_BUTTONS[1], CARD_BUTTONS[2], len(hand)]


def test_unreadable_answers_are_not_wrong_answers():
    for question in (rank_parity(std("5H")), shared_traits(std("AS"), std("2H"))):
        for text in ["", "banana", "42", "ODD"]:
            assert mark(question, text, "en").status == UNREADABLE, text


@pytest.mark.parametrize(
    "make",
    [
        lambda: rank_parity(JOKER),
        lambda: rank_size(std("5H"), 4),
        lambda: shared_traits(JOKER, std("6H")),
        lambda: shared_traits(std("5H"), std("5H")),
        lambda: shared_traits(std("5H"), card_id(5, "H", copy=1)),  # the same card from a second deck
        lambda: rank_parity("QH"),  # cards are ids of tutor.standard_deck, not their letters
        lambda: playable_card([std("5S"), std("6S")], std("5S"), std("JD")),  # the last card in the hand too
        lambda: playable_card([], std("5S"), std("JD")),
        lambda: playable_card([JOKER], std("5S"), std("JD")),
    ],
)
def test_impossible_inputs_are_refused(make):
    with pytest.raises(ValueError):
        make()


@SETTINGS
@given(st.sampled_from(STANDARD_CARDS), st.sampled_from(STANDARD_CARDS), st.sampled_from(DIFFICULTIES))
def test_every_parity_and_size_question_is_answerable(a, b, difficulty):
    assert_well_formed(rank_parity(a, difficulty), LOCALES, lists_every_mistake=True)
    assert_well_formed(rank_size(b, difficulty), LOCALES, lists_every_mistake=True)
    assume(a != b)
    question = shared_traits(a, b, difficulty)
    assert_well_formed(question, LOCALES, lists_every_mistake=True)
    assert len(question.choices) == TRAIT_BUTTONS[difficulty]
