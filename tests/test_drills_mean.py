"""Skill mean: the mean of a card's four circled values, estimated within a tolerance and exact."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.drill_support import DECK, NUMBER_CARDS, assert_content_complete, assert_well_formed, card_with, kinds_of
from tests.drill_support import misconception_of as named_by
from tutor.answers import describe
from tutor.checks import exact
from tutor.drills import NUMBER, Question
from tutor.drills.marking import RIGHT, UNREADABLE, WRONG, mark
from tutor.drills.mean import mean_estimate, mean_exact
from tutor.text import LOCALES, say

MISCONCEPTIONS = {
    "mean_estimate": {"forgot_to_divide", "wrong_count", "median_like", "times_ten", "place_value"},
    "mean_exact": {
        "forgot_to_divide",
        "wrong_count",
        "rounded_mean",
        "remainder_as_decimal",
        "median_like",
        "off_by_one",
        "times_ten",
        "place_value",
    },
}
QUARTER_CARD = card_with(lambda c: c.circled_sum % 4 == 3)  # mean ends in .75


def shows(question: Question, typed: str, misconception: str, locale: str = "en") -> None:
    assert named_by(question, typed, locale) == misconception, (typed, question.misconceptions)


def well_formed(question: Question) -> None:
    assert_well_formed(question, LOCALES)


def test_every_kind_has_its_texts_and_each_misconception_its_message():
    kinds = kinds_of("mean")
    assert {kind: set(entry["misconceptions"]) for kind, entry in kinds.items()} == MISCONCEPTIONS
    assert_content_complete("mean")


@pytest.mark.parametrize("locale", LOCALES)
def test_an_exact_mean_may_be_a_decimal_in_the_pupils_notation_a_fraction_or_a_mixed_number(locale):
    total = DECK[QUARTER_CARD].circled_sum
    mean = sympy.Rational(total, 4)
    question = mean_exact(QUARTER_CARD, 2)
    decimal = describe(mean, locale)
    assert decimal.endswith(",75" if locale != "en" else ".75")
    for typed in (decimal, f"{total}/4", f"{total // 4} 3/4"):  # {total}/4 is in simplest form: a fraction answer
        assert mark(question, typed, locale).status == RIGHT, typed
    estimate = mean_estimate(QUARTER_CARD, 2)
    assert mark(estimate, decimal, locale).status == RIGHT


def test_exact_mean_mistakes_are_named():
    card = DECK[QUARTER_CARD]
    total, question = card.circled_sum, mean_exact(QUARTER_CARD, 1)
    assert str(total) in question.prompt.msgid % question.prompt.params  # difficulty 1 gives the sum
    shows(question, str(total), "forgot_to_divide")
    shows(question, f"{total}/3", "wrong_count")
    shows(question, f"{total}/2", "wrong_count")
    shows(question, str(total // 4), "rounded_mean")
    shows(question, str(total // 4 + 1), "rounded_mean")
    shows(question, f"{total // 4}.3", "remainder_as_decimal")
    well_formed(question)
    card_id = card_with(
        lambda c: c.circled_sum % 4 and all(abs(v - c.circled_sum / 4) > 2 for v in sorted(c.circled)[1:3])
    )
    middle = sorted(DECK[card_id].circled)[1]
    shows(mean_exact(card_id), str(middle), "median_like")


def test_estimated_mean_counts_within_the_stated_tolerance_and_names_mistakes():
    def middle_far_from_mean(card):
        mean = Fraction(card.circled_sum, 4)
        return card.circled_sum > 150 and abs(sorted(card.circled)[1] - mean) > 8

    card_id = card_with(middle_far_from_mean)
    card = DECK[card_id]
    question = mean_estimate(card_id, 3)
    tolerance, mean = exact(question.check["tolerance"]), Fraction(card.circled_sum, 4)
    assert f"within {tolerance} " in question.prompt.msgid % question.prompt.params
    assert mark(question, str(mean + int(tolerance) + 1), "en").status == WRONG
    shows(question, str(card.circled_sum), "forgot_to_divide")
    shows(question, str(card.circled_sum // 3), "wrong_count")
    shows(question, str(sorted(card.circled)[1]), "median_like")


def test_estimate_tolerance_is_never_tighter_than_the_taught_rounding():
    for card_id in NUMBER_CARDS:
        question = mean_estimate(card_id, 3)
        rounded = sum(10 * ((v + 5) // 10) for v in DECK[card_id].circled)
        for typed in (str(rounded // 4), str(-(-rounded // 4))):
            assert mark(question, typed, "en").status == RIGHT, (card_id, typed)


@pytest.mark.parametrize("locale", LOCALES)
def test_the_mean_question_typed_back_is_refused_kindly_not_marked(locale):
    card_id = card_with(lambda c: c.circled_sum % 4 == 0)  # the "224/4" of the issue: the mean is 56
    total = DECK[card_id].circled_sum
    rounded = sum(10 * ((v + 5) // 10) for v in DECK[card_id].circled)
    exact_mean, estimate = mean_exact(card_id, 2), mean_estimate(card_id, 2)
    for question, typed in (
        (exact_mean, f"{total}/4"),
        (exact_mean, f" {total} / 4"),
        (exact_mean, f"{total}⁄4"),
        (estimate, f"{total}/4"),
        (estimate, f"{rounded}/4"),
    ):
        marked = mark(question, typed, locale)
        assert marked.status == UNREADABLE and marked.error_code == "type_the_result", (question.kind, typed)
        assert "type the result" in marked.feedback[0].msgid and marked.feedback[0].params["division"] == typed.replace(
            " ", ""
        ).replace("⁄", "/")
    assert mark(exact_mean, f"-{total}/4", locale).status == WRONG  # a minus makes it another number: simply wrong
    assert mark(exact_mean, f"{total // 2}/2", locale).status == RIGHT  # halved once: worked on, and right
    assert mark(exact_mean, describe(sympy.Rational(total, 4), locale), locale).status == RIGHT
    half = card_with(lambda c: c.circled_sum % 4 == 2)  # 226/4 can still be halved: 113/2 is a result
    assert mark(mean_exact(half), f"{DECK[half].circled_sum}/4", locale).error_code == "type_the_result"
    assert mark(mean_exact(half), f"{DECK[half].circled_sum // 2}/2", locale).status == RIGHT


def test_exact_mean_slips_get_their_own_feedback():
    card_id = card_with(
        lambda c: (
            c.circled_sum % 4 == 0
            and c.circled_sum // 4 >= 12
            and 0 != (c.circled_sum // 4) % 10 != (c.circled_sum // 40) % 10
        )
    )
    mean = DECK[card_id].circled_sum // 4
    question = mean_exact(card_id, 2)
    shows(question, str(mean * 10), "times_ten")
    shows(question, str(mean)[::-1], "place_value")
    estimate = mean_estimate(card_id, 2)
    shows(estimate, str(mean * 10), "times_ten")


@pytest.mark.parametrize("locale", LOCALES)
def test_a_mean_is_written_one_way_on_the_whole_screen(locale):
    """The solution and the feedback write the mean alike, as a mixed number, whatever form the pupil typed."""
    card_id = next(c for c in NUMBER_CARDS if DECK[c].circled_sum % 4 == 1)
    question = mean_exact(card_id, 2)
    total = DECK[card_id].circled_sum
    mixed = f"{total // 4} 1/4"
    marked = mark(question, describe(sympy.Rational(total, 4), locale), locale)  # typed as a decimal
    assert marked.status == RIGHT and marked.read_as == describe(sympy.Rational(total, 4), locale)
    assert say(marked.feedback[0], locale).count(mixed) == 1
    assert mixed in say(question.solution[-1], locale)
    assert mark(mean_estimate(card_id, 2), "1", locale).feedback[0].params["expected"] == mixed  # the estimate's too


def test_unreadable_answers_are_not_wrong_answers():
    for question in [mean_exact(QUARTER_CARD), mean_estimate(QUARTER_CARD)]:
        for text in ["", "abc", "2^3", "1,5 + 2", "3/0"]:
            marked = mark(question, text, "en")
            assert marked.status == UNREADABLE and marked.error_code and marked.misconception is None, text
        assert mark(question, "0,5", "en").status == UNREADABLE  # a comma decimal in English


def test_questions_survive_a_round_trip():
    for question in [mean_estimate(NUMBER_CARDS[9]), mean_exact(NUMBER_CARDS[9])]:
        assert Question.from_dict(json.loads(json.dumps(question.to_dict()))) == question


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(NUMBER_CARDS), st.integers(1, 3))
def test_card_questions_are_answerable(card_id, difficulty):
    for generator in (mean_estimate, mean_exact):
        question = generator(card_id, difficulty)
        well_formed(question)
        assert question.answer == NUMBER
