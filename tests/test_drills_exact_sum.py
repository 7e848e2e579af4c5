"""Skill exact_sum: add a card's four circled values exactly, with the slips and mistakes named."""

from __future__ import annotations

import pytest

from tests.drill_support import DECK, NUMBER_CARDS, assert_content_complete, assert_well_formed, card_with
from tutor.content import drill_texts
from tutor.drills.common import OFF_BY_ONE, PLACE_VALUE, TIMES_TEN
from tutor.drills.exact_sum import exact_card_sum
from tutor.drills.marking import RIGHT, UNREADABLE, WRONG, mark
from tutor.text import LOCALES


@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_every_question_is_well_formed(difficulty):
    for card_id in NUMBER_CARDS[::4]:
        assert_well_formed(exact_card_sum(card_id, difficulty), LOCALES, lists_every_mistake=True)
    assert_content_complete("exact_sum", hints={"exact_card_sum": 2})


def test_adding_the_top_number_and_leaving_a_value_out_are_recognised():
    card_id = card_with(lambda c: c.top >= 9 and min(c.circled) > 30)
    question = exact_card_sum(card_id)
    card = DECK[card_id]
    assert mark(question, str(card.circled_sum + card.top), "en").misconception == "added_top"
    assert mark(question, str(card.circled_sum - card.circled[0]), "en").misconception == "left_out_value"
    assert mark(question, str(card.circled_sum), "en").status == RIGHT


def test_a_lost_carry_is_recognised():
    card_id = card_with(lambda c: sum(v % 10 for v in c.circled) >= 10)
    question = exact_card_sum(card_id)
    marked = mark(question, str(DECK[card_id].circled_sum - 10), "nb")
    assert marked.status == WRONG and marked.misconception == "carry_forgotten"


def test_unreadable_answers_are_not_wrong_answers():
    question = exact_card_sum(NUMBER_CARDS[3])
    for text in ["", "abc", "2^3", "1.234", "((1))"]:
        marked = mark(question, text, "nb")
        assert marked.status == UNREADABLE and marked.error_code and marked.read_as is None


def test_exact_sum_slips_get_their_own_feedback():
    card_id = card_with(
        lambda c: (
            c.circled_sum >= 100
            and len(set(str(c.circled_sum))) == 3
            and sum(v % 10 for v in c.circled) < 10
            and c.top > 1
        )
    )
    total = DECK[card_id].circled_sum
    question = exact_card_sum(card_id)
    swapped = str(total)[0] + str(total)[2] + str(total)[1]
    for typed, slip in (
        (total + 1, OFF_BY_ONE),
        (total - 1, OFF_BY_ONE),
        (total * 10, TIMES_TEN),
        (swapped, PLACE_VALUE),
    ):
        marked = mark(question, str(typed), "en")
        assert marked.status == WRONG and marked.misconception == slip, typed
        assert marked.feedback[-1].msgid == drill_texts()["exact_card_sum"]["misconceptions"][slip]
    assert mark(question, str(total + 50), "en").misconception is None
    assert (
        mark(question, str(total - DECK[card_id].circled[0]), "en").misconception == "left_out_value"
    )  # the telling mistake comes first
