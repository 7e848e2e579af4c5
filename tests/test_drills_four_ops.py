"""Skill four_ops: TripleSmart: Extreme with + - x / and brackets, where a value may be a fraction."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.drill_support import DECK, NUMBER_CARDS, assert_content_complete, assert_well_formed, misconception_of
from tutor.answers import MESSAGES
from tutor.checks import exact
from tutor.drills.four_ops import (
    GENERATORS,
    triplesmart_extreme_better,
    triplesmart_extreme_distance,
    triplesmart_extreme_expression,
)
from tutor.drills.marking import RIGHT, UNREADABLE, USED_OTHER_NUMBERS, mark
from tutor.expressions import FOUR_OPS, closest, reachable
from tutor.signs import FRACTION, plain_formula, write
from tutor.text import LOCALES


def cards(*tops: int) -> list[int]:
    """Kids2 number cards with these top numbers (a repeated top gets another copy)."""
    ids = []
    for top in tops:
        ids.append(next(c for c in NUMBER_CARDS if DECK[c].top == top and c not in ids))
    return ids


def target(top: int) -> int:
    return next(c for c in reversed(NUMBER_CARDS) if DECK[c].top == top)


def examples() -> list[tuple[object, object]]:
    """(generator, question): every kind at every difficulty."""
    hand = cards(3, 5, 7)
    calls = [
        (make, args)
        for d in (1, 2, 3)
        for make, args in (
            (triplesmart_extreme_expression, (hand, target(2), d)),
            (triplesmart_extreme_distance, (hand, target(2), "7/2", d)),
            (triplesmart_extreme_better, (hand, target(2), 3, d)),
        )
    ]
    return [(make, make(*args)) for make, args in calls]


EXAMPLES = examples()


@pytest.mark.parametrize("locale", LOCALES)
def test_right_answers_are_right_in_every_locale(locale):
    for _, question in EXAMPLES:
        assert_well_formed(question, (locale,))


def test_every_generator_is_listed_and_the_skill_knows_three_misconceptions():
    assert set(GENERATORS) == {make for make, _ in EXAMPLES}
    assert all(question.skill == "four_ops" for _, question in EXAMPLES)
    assert_content_complete("four_ops", fewest={"triplesmart_extreme_better": 2})


def test_four_ops_expression_misconceptions():
    question = triplesmart_extreme_expression(cards(3, 5, 7), target(2))
    assert question.allow == "four_ops"
    assert misconception_of(question, "3 + 7 ÷ 5") == "order_of_operations"  # meant (3 + 7) ÷ 5 = 2; read as 22/5
    assert misconception_of(question, "5 ÷ (7 + 3)") == "divided_wrong_way"  # (7 + 3) ÷ 5 = 2 turned round
    assert mark(question, "(3 + 7) / 5", "it").status == RIGHT
    six = triplesmart_extreme_expression(cards(3, 5, 7), target(6))  # + and - reach 5 or 7 at best; (7 - 5) × 3 = 6
    assert misconception_of(six, "3 + 7 - 5") == "only_add_sub"
    assert misconception_of(six, "7 - 5 × 3") == "order_of_operations"  # meant (7 - 5) × 3
    assert misconception_of(six, "(7 - 5) × 3 × 1") == USED_OTHER_NUMBERS
    assert misconception_of(six, "3 × 2") == USED_OTHER_NUMBERS
    assert mark(six, "(7 − 5) * 3", "sv").status == RIGHT


def test_division_by_zero_is_unreadable_with_a_clear_message():
    question = triplesmart_extreme_expression(cards(2, 2, 8), target(6))
    for typed in ("8 ÷ (2 - 2)", "8 / 0", "8 : (2 − 2)"):
        marked = mark(question, typed, "en")
        assert marked.status == UNREADABLE and marked.error_code == "division_by_zero"
        assert marked.feedback[0].msgid == MESSAGES["division_by_zero"] and marked.feedback[0].params["text"] == typed


def test_a_distance_may_be_a_fraction_in_any_form():
    fraction = triplesmart_extreme_distance(cards(3, 5, 7), target(2), Fraction(7, 2))
    assert [
        mark(fraction, typed, locale).status
        for typed, locale in [("3/2", "en"), ("1,5", "nb"), ("1 1/2", "it"), ("1.5", "en")]
    ] == [RIGHT] * 4
    assert misconception_of(fraction, "-1,5", "sv") == "negative_distance"
    assert misconception_of(fraction, "11/2") == "added_instead"
    assert misconception_of(fraction, "5/2") == "counted_on_wrong"
    assert misconception_of(fraction, "7/2") == "gave_a_number"


def test_is_there_a_better_one_with_all_four_operations():
    extreme = triplesmart_extreme_better(cards(3, 5, 7), target(6), 5)
    assert extreme.check["expected"] == ["yes"] and misconception_of(extreme, "no") == "missed_closer"
    assert "×" in write(extreme.solution[1].params["best_expression"], "en")
    assert "·" in write(extreme.solution[1].params["best_expression"], "nb")


def test_a_perfect_hit_asks_neither_how_far_nor_whether_closer():
    hand, goal = cards(3, 5, 7), target(9)  # 5 + 7 - 3 = 9
    for value in (9, "9", Fraction(9)):
        assert triplesmart_extreme_distance(hand, goal, value) is None
        assert triplesmart_extreme_better(hand, goal, value) is None


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.sampled_from(NUMBER_CARDS), min_size=1, max_size=4, unique=True
    ),  # four when a Kocha card was among three
    st.sampled_from(NUMBER_CARDS),
    st.integers(1, 3),
    st.sampled_from(LOCALES),
    st.data(),
)
def test_every_question_is_answerable_and_consistent(hand, goal, difficulty, locale, data):
    values, aim = [DECK[c].top for c in hand], DECK[goal].top
    question = triplesmart_extreme_expression(hand, goal, difficulty)
    assert question.hints[0].params["best_expression"] == plain_formula(closest(values, aim, FOUR_OPS)[2], FRACTION)
    assert_well_formed(question, (locale,))
    reached = {str(exact(str(v))) for v in reachable(values, FOUR_OPS)}
    assert all(v in reached for named in question.misconceptions for v in named["values"])  # typed with the cards alone
    value = data.draw(st.sampled_from(sorted(reachable(values, FOUR_OPS))))
    if value == aim:  # a perfect hit asks neither
        assert triplesmart_extreme_distance(hand, goal, value, difficulty) is None
        assert triplesmart_extreme_better(hand, goal, value, difficulty) is None
        return
    assert_well_formed(triplesmart_extreme_distance(hand, goal, value, difficulty), (locale,))
    assert_well_formed(triplesmart_extreme_better(hand, goal, value, difficulty), (locale,))
