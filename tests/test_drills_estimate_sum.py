"""Skill estimate_sum: estimate a card's circled sum within a stated tolerance, and pick the best card."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.drill_support import (
    DECK,
    NUMBER_CARDS,
    assert_content_complete,
    assert_well_formed,
    card_with,
)
from tutor.content import drill_texts
from tutor.drills import Question
from tutor.drills.common import TIMES_TEN
from tutor.drills.estimate_sum import best_card, estimate_card_sum, round_to_ten
from tutor.drills.marking import RIGHT, UNREADABLE, WRONG, mark
from tutor.text import LOCALES


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(NUMBER_CARDS), st.integers(1, 3), st.sampled_from(LOCALES))
def test_estimates_count_within_the_stated_tolerance_and_the_taught_rounding_always_counts(card_id, difficulty, locale):
    question = estimate_card_sum(card_id, difficulty)
    total, tolerance = DECK[card_id].circled_sum, int(question.check["tolerance"])
    assert mark(question, str(total - tolerance), locale).status == RIGHT
    assert mark(question, str(total + tolerance), locale).status == RIGHT
    assert mark(question, str(total + tolerance + 1), locale).status == WRONG
    assert mark(question, str(sum(round_to_ten(v) for v in DECK[card_id].circled)), locale).status == RIGHT
    assert Question.from_dict(question.to_dict()) == question


@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_every_question_is_well_formed(difficulty):
    for i, card_id in enumerate(NUMBER_CARDS[::4]):
        assert_well_formed(estimate_card_sum(card_id, difficulty), LOCALES, lists_every_mistake=True)
        assert_well_formed(best_card(NUMBER_CARDS[i : i + 5], difficulty), lists_every_mistake=True)
    assert_content_complete("estimate_sum", hints={"best_card": 2})


def test_truncating_instead_of_rounding_is_recognised():
    def truncation_is_far_off(card):
        return abs(sum(10 * (v // 10) for v in card.circled) - card.circled_sum) > 10

    card_id = card_with(truncation_is_far_off)
    question = estimate_card_sum(card_id, 2)
    truncated = sum(10 * (v // 10) for v in DECK[card_id].circled)
    marked = mark(question, str(truncated), "en")
    assert marked.status == WRONG and marked.misconception == "truncated"
    assert marked.feedback[-1].msgid == drill_texts()["estimate_card_sum"]["misconceptions"]["truncated"]


def test_best_card_is_answered_with_card_buttons_and_names_the_mistake():
    hand = NUMBER_CARDS[:5]
    question = best_card(hand)
    best = max(hand, key=lambda c: DECK[c].circled_sum)
    lowest = min(hand, key=lambda c: DECK[c].circled_sum)
    assert [choice["card"] for choice in question.choices] == hand
    assert mark(question, str(best), "en").status == RIGHT
    assert mark(question, str(lowest), "en").misconception in {"lowest_sum", "highest_top", "biggest_single_value"}
    assert mark(question, "17 + 3", "en").status == UNREADABLE
    assert mark(question, str(NUMBER_CARDS[30]), "en").status == UNREADABLE


def test_an_estimate_ten_times_too_big_is_named_and_one_out_is_still_right():
    card_id = NUMBER_CARDS[5]
    question = estimate_card_sum(card_id, 2)
    rounded = sum(round_to_ten(v) for v in DECK[card_id].circled)
    assert mark(question, str(rounded * 10), "en").misconception == TIMES_TEN
    assert mark(question, str(DECK[card_id].circled_sum + 1), "en").status == RIGHT
