"""Skill tens_friends: the number that makes ten with a card's top number, typed or as one of your cards."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.drill_support import (
    ALL_CARDS,
    DECK,
    NUMBER_CARDS,
    SPECIAL_CARDS,
    assert_content_complete,
    assert_every_kind_and_misconception_used,
    assert_messages_use_only_fields_every_hint_has,
    assert_right_in_every_locale,
    assert_well_formed,
    card,
    misconception_of,
    right_answers,
)
from tutor.drills.common import DIFFICULTIES
from tutor.drills.marking import RIGHT, UNREADABLE, mark
from tutor.drills.tens_friends import tens_friend_card, tens_friend_number
from tutor.text import LOCALES

SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)


@pytest.fixture(scope="module")
def questions():
    """Both kinds at every difficulty: every top number, and hands from all over the deck."""
    hands = [NUMBER_CARDS[i : i + 6] for i in range(0, len(NUMBER_CARDS) - 6, 5)] + [
        [*NUMBER_CARDS[:3], *SPECIAL_CARDS[:3]]
    ]
    found = []
    for d in DIFFICULTIES:
        for top in range(1, 10):
            found.append(tens_friend_number(card(top), d))
        for i, hand in enumerate(hands):
            found.append(tens_friend_card(hand, NUMBER_CARDS[(7 * i) % len(NUMBER_CARDS)], d))
    return found


def test_every_question_is_well_formed(questions):
    for question in questions:
        assert_well_formed(question, lists_every_mistake=True)


@pytest.mark.parametrize("locale", LOCALES)
def test_right_answers_are_right_in_every_locale(questions, locale):
    assert_right_in_every_locale(questions[::7], locale)


def test_every_kind_and_misconception_is_used_and_its_message_fills(questions):
    assert_every_kind_and_misconception_used(questions, "tens_friends")
    assert_messages_use_only_fields_every_hint_has(questions)
    assert_content_complete("tens_friends")


def test_tens_friend_of_a_number_names_each_mistake():
    question = tens_friend_number(card(3), 3)
    for locale in LOCALES:
        assert mark(question, "7", locale).status == RIGHT
    assert misconception_of(question, "3") == "same_number"
    assert misconception_of(question, "13") == "added_ten"
    assert misconception_of(question, "6") == misconception_of(question, "8") == "counting_slip"
    assert misconception_of(question, "97") == "friend_of_100"
    five = tens_friend_number(card(5), 3)
    assert mark(five, "5", "en").status == RIGHT  # 5 is its own tens-friend, not a mistake


def test_tens_friend_card_names_the_same_number_a_slip_and_the_same_colour():
    top = card(3, "purple")
    friend, same, slip, colour = card(7, "blue"), card(3, "green"), card(6, "orange"), card(2, "purple")
    question = tens_friend_card([same, slip, friend, colour], top, 3)
    assert [c["value"] for c in question.choices] == [str(same), str(slip), str(friend), str(colour), "none"]
    assert mark(question, str(friend), "it").status == RIGHT
    assert misconception_of(question, str(same)) == "same_number"
    assert misconception_of(question, str(slip)) == "counting_slip"
    assert misconception_of(question, str(colour)) == "same_colour"
    assert misconception_of(question, "none") is None
    without = tens_friend_card([same, slip, *SPECIAL_CARDS[:2]], top, 1)
    assert without.check["expected"] == ["none"] and mark(without, "none", "nb").status == RIGHT


def test_unreadable_answers_are_not_wrong_answers():
    question = tens_friend_number(card(4), 3)
    for text in ["", "abc", "7 + 3", "2^3", "1.234"]:
        marked = mark(question, text, "nb")
        assert marked.status == UNREADABLE and marked.misconception is None, text


@pytest.mark.parametrize(
    "make",
    [
        lambda: tens_friend_number(card(3), 0),
        lambda: tens_friend_number(SPECIAL_CARDS[0]),
        lambda: tens_friend_card(SPECIAL_CARDS[:2], card(3)),
        lambda: tens_friend_card([card(7), card(7)], card(3)),
    ],
)
def test_impossible_inputs_are_refused(make):
    with pytest.raises(ValueError):
        make()


@SETTINGS
@given(
    st.sampled_from(NUMBER_CARDS),
    st.lists(st.sampled_from(ALL_CARDS), min_size=2, max_size=8, unique=True),
    st.sampled_from(DIFFICULTIES),
)
def test_every_tens_friend_question_is_answerable(top, hand, difficulty):
    assert_well_formed(tens_friend_number(top, difficulty), LOCALES, lists_every_mistake=True)
    assume(any(not DECK[c].is_special for c in hand))
    question = tens_friend_card(hand, top, difficulty)
    assert_well_formed(question, LOCALES, lists_every_mistake=True)
    friends = [c for c in hand if not DECK[c].is_special and DECK[c].top + DECK[top].top == 10]
    assert (right_answers(question) == ["none"]) == (not friends)
