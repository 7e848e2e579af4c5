"""Skill count: how many cards a player holds or takes after a round of War."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.drill_support import (
    assert_content_complete,
    assert_every_kind_and_misconception_used,
    assert_messages_use_only_fields_every_hint_has,
    assert_right_in_every_locale,
    assert_well_formed,
    misconception_of,
)
from tutor.drills.common import DIFFICULTIES
from tutor.drills.count import cards_after_loss, cards_after_win, cards_on_table
from tutor.drills.marking import RIGHT, UNREADABLE, mark
from tutor.text import LOCALES

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def questions():
    found = []
    for d in DIFFICULTIES:
        for held, change in [(0, 2), (12, 2), (5, 10), (26, 1), (9, 4)]:
            found.append(cards_after_win(held, change, d))
        for held, change in [(2, 2), (12, 2), (10, 3), (26, 1), (13, 10)]:
            found.append(cards_after_loss(held, change, d))
        for laid in [[1, 1], [4, 4], [4, 5], [1, 1, 1, 1], [10, 10], [5, 3, 2]]:
            found.append(cards_on_table(laid, d))
    return found


def test_every_question_is_well_formed(questions):
    for question in questions:
        assert_well_formed(question, lists_every_mistake=True)


@pytest.mark.parametrize("locale", LOCALES)
def test_right_answers_are_right_in_every_locale(questions, locale):
    assert_right_in_every_locale(questions, locale)


def test_every_kind_and_misconception_is_used_and_its_message_fills(questions):
    assert_every_kind_and_misconception_used(questions, "count")
    assert_messages_use_only_fields_every_hint_has(questions)
    assert_content_complete("count")


def test_counting_won_cards_names_each_mistake():
    question = cards_after_win(12, 2, 3)
    assert mark(question, "14", "sv").status == RIGHT
    assert misconception_of(question, "2") == "forgot_held"
    assert misconception_of(question, "16") == "pot_twice"
    assert misconception_of(question, "10") == "subtracted"
    assert misconception_of(question, "13") == misconception_of(question, "15") == "off_by_one"


def test_counting_lost_cards_names_each_mistake():
    question = cards_after_loss(10, 3, 3)
    assert mark(question, "7", "it").status == RIGHT
    assert misconception_of(question, "3") == "answered_lost"
    assert misconception_of(question, "13") == "added_instead"
    assert misconception_of(question, "6") == "off_by_one"


def test_counting_the_cards_on_the_table_names_each_mistake():
    question = cards_on_table([4, 5], 3)
    assert mark(question, "9", "nb").status == RIGHT
    assert misconception_of(question, "4") == "only_own"
    assert misconception_of(question, "5") == "forgot_own"
    assert misconception_of(question, "18") == "pot_twice"
    assert misconception_of(question, "10") == "off_by_one"


def test_unreadable_answers_are_not_wrong_answers():
    question = cards_after_win(3, 2, 3)
    for text in ["", "abc", "7 + 3", "2^3", "1.234"]:
        marked = mark(question, text, "nb")
        assert marked.status == UNREADABLE and marked.misconception is None, text


@pytest.mark.parametrize(
    "make",
    [
        lambda: cards_after_win(3, 0),
        lambda: cards_after_win(-1, 2),
        lambda: cards_after_loss(2, 3),
        lambda: cards_on_table([3]),
        lambda: cards_on_table([0, 3]),
    ],
)
def test_impossible_inputs_are_refused(make):
    with pytest.raises(ValueError):
        make()


@SETTINGS
@given(
    st.integers(0, 60),
    st.integers(1, 30),
    st.lists(st.integers(0, 12), min_size=1, max_size=3),
    st.sampled_from(DIFFICULTIES),
)
def test_every_count_question_is_answerable(held, change, others, difficulty):
    assert_well_formed(cards_after_win(held, change, difficulty), LOCALES, lists_every_mistake=True)
    if change <= held:
        assert_well_formed(cards_after_loss(held, change, difficulty), LOCALES, lists_every_mistake=True)
    assert_well_formed(cards_on_table([change, *others], difficulty), LOCALES, lists_every_mistake=True)
