"""Skill multiply: the product of two cards' top numbers, typed at every difficulty, each typed mistake named."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.drill_support import (
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
    said,
)
from tutor.drills import NUMBER
from tutor.drills.common import DIFFICULTIES
from tutor.drills.marking import RIGHT, UNREADABLE, mark
from tutor.drills.multiply import GENERATORS, multiply_top_numbers
from tutor.text import LOCALES

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def questions():
    """Every product of two top numbers, and of a top number with itself, at every difficulty."""
    one_per_top = {top: card(top) for top in range(1, 10)}
    found = []
    for d in DIFFICULTIES:
        for a, b in combinations(range(1, 10), 2):
            found.append(multiply_top_numbers(one_per_top[a], one_per_top[b], d))
        for top in range(1, 10):
            found.append(multiply_top_numbers(one_per_top[top], card(top, skip=1), d))
    return found


def test_every_question_is_well_formed(questions):
    for question in questions:
        assert_well_formed(question, lists_every_mistake=True)


@pytest.mark.parametrize("locale", LOCALES)
def test_right_answers_are_right_in_every_locale(questions, locale):
    assert_right_in_every_locale(questions[::7], locale)


def test_every_misconception_is_used_and_its_message_fills(questions):
    assert_every_kind_and_misconception_used(questions, "multiply")
    assert_messages_use_only_fields_every_hint_has(questions)
    assert_content_complete("multiply")


def test_the_generator_is_listed_under_its_skill():
    question = multiply_top_numbers(card(3), card(4))
    assert question.skill == "multiply" and GENERATORS == [multiply_top_numbers]


def test_multiply_is_typed_when_hard_and_names_each_mistake():
    question = multiply_top_numbers(card(7), card(8), 3)
    assert question.answer == NUMBER and question.check == {"rule": "equals", "expected": "56"}
    for locale in LOCALES:
        assert mark(question, "56", locale).status == RIGHT
    assert misconception_of(question, "15") == "added"
    for neighbour in ("49", "63", "48", "64"):
        assert misconception_of(question, neighbour, "nb") == "neighbour_fact"
    assert misconception_of(question, "65") == "digits_swapped"
    assert misconception_of(question, "57") == misconception_of(question, "55") == "off_by_one"
    assert misconception_of(question, "560") == "times_ten"
    assert misconception_of(question, "58") is None
    assert question.hides_result and question.cards == [card(7), card(8)]


def test_every_difficulty_is_typed_and_sets_only_the_support():
    easy, middle, hard = (multiply_top_numbers(card(7), card(8), d) for d in DIFFICULTIES)
    for question in (easy, middle, hard):
        assert question.answer == NUMBER and not question.choices
        assert question.check == {"rule": "equals", "expected": "56"}
        assert misconception_of(question, "15", "it") == "added"
        assert misconception_of(question, "49", "sv") == "neighbour_fact"
    assert "Tip:" in said(easy.prompt, "en") and "Tip:" not in said(middle.prompt, "en")
    assert easy.hints == middle.hints and hard.hints == middle.hints[:-1]


def test_unreadable_answers_are_not_wrong_answers():
    question = multiply_top_numbers(card(6), card(7), 3)
    for text in ["", "abc", "7 + 3", "2^3", "1.234"]:
        marked = mark(question, text, "nb")
        assert marked.status == UNREADABLE and marked.misconception is None, text


@pytest.mark.parametrize(
    "make",
    [
        lambda: multiply_top_numbers(SPECIAL_CARDS[0], card(3)),
        lambda: multiply_top_numbers(card(3), card(4), 4),
        lambda: multiply_top_numbers(card(3), card(4), True),
        lambda: multiply_top_numbers(len(DECK), card(4)),
    ],
)
def test_impossible_inputs_are_refused(make):
    with pytest.raises(ValueError):
        make()


@SETTINGS
@given(st.sampled_from(NUMBER_CARDS), st.sampled_from(NUMBER_CARDS), st.sampled_from(DIFFICULTIES))
def test_every_product_question_is_answerable(a, b, difficulty):
    assume(a != b)
    question = multiply_top_numbers(a, b, difficulty)
    assert_well_formed(question, LOCALES, lists_every_mistake=True)
    assert right_answers(question) == [str(DECK[a].top * DECK[b].top)]
