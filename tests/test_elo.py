"""Elo ability and difficulty ratings (tutor/skill_model/elo.py), checked against figures worked out by hand."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.skill_model import elo

LOGITS = st.floats(-1e4, 1e4, allow_nan=False)  # far past where e^x overflows
MODERATE = st.floats(-10, 10, allow_nan=False)
GUESSES = st.floats(0, 0.99)


def test_the_expected_score_is_the_logistic_of_ability_minus_difficulty_above_the_guess():
    assert elo.expected(0.0, 0.0) == 0.5
    assert elo.expected(1.0, 0.0) == pytest.approx(0.731059, abs=1e-6)  # 1 / (1 + e^-1)
    assert elo.expected(0.0, 1.0) == pytest.approx(0.268941, abs=1e-6)
    # a tap on one of four buttons: 0.25 + 0.75 * 0.731059
    assert elo.expected(1.0, 0.0, guess=0.25) == pytest.approx(0.798294, abs=1e-6)


def test_two_updates_move_both_ratings_by_the_hand_worked_figures():
    # a right answer, both new: K = 1 for the ability and 0.1 for the shared difficulty, surprise 1 - 0.5
    ability, difficulty = elo.update(elo.Rating(), elo.Rating(), True)
    assert (ability, difficulty) == (elo.Rating(0.5, 1), elo.Rating(-0.05, 1))
    # a wrong answer: expected 1 / (1 + e^-0.55) = 0.634136; K = 1 / (1 + 0.05) = 0.952381 moves the ability
    # by 0.603939, the difficulty's K = 0.1 / 1.05 = 0.095238 by 0.060394
    ability, difficulty = elo.update(ability, difficulty, False)
    assert ability.value == pytest.approx(-0.103939, abs=1e-6)
    assert difficulty.value == pytest.approx(0.010394, abs=1e-6)
    assert (ability.count, difficulty.count) == (2, 2)


def test_a_weak_pupils_wrong_answers_move_a_shared_difficulty_a_tenth_as_far_as_their_ability():
    ability, difficulty = elo.Rating(), elo.Rating(-1.1)
    for _ in range(20):
        ability, difficulty = elo.update(ability, difficulty, False)
    assert ability.value < -2.5  # the pupil's ability falls fast
    assert difficulty.value < -0.6  # level 1 stays easy: it moved by a tenth of that


def test_a_right_tap_among_buttons_raises_the_ability_less_than_a_right_typed_answer():
    # guess 0.5: expected 0.75, so the ability rises by 0.25 instead of 0.5
    typed, _ = elo.update(elo.Rating(), elo.Rating(), True)
    tapped, _ = elo.update(elo.Rating(), elo.Rating(), True, guess=0.5)
    assert tapped.value == pytest.approx(0.25)
    assert tapped.value < typed.value


def test_k_falls_with_the_number_of_answers():
    assert elo.k_factor(0) == elo.K0 == 1.0
    assert elo.k_factor(20) == pytest.approx(0.5)  # 1 / (1 + 0.05 * 20)
    factors = [elo.k_factor(n) for n in range(200)]
    assert all(later < earlier for earlier, later in zip(factors, factors[1:]))
    # a settled question moves less than a new one for the same answer
    _, settled = elo.update(elo.Rating(), elo.Rating(0.0, 400), False)
    _, new = elo.update(elo.Rating(), elo.Rating(), False)
    assert 0 < settled.value < new.value


LEVELS = {1: -1.0, 2: 0.0, 3: 1.0}


def test_choose_difficulty_picks_the_level_whose_expected_success_is_nearest_three_quarters():
    # ability 0: expected 0.731, 0.5, 0.269 -> level 1
    assert elo.choose_difficulty(0.0, LEVELS) == 1
    # ability 1.1: 0.891, 0.750, 0.525 -> level 2
    assert elo.choose_difficulty(1.1, LEVELS) == 2
    # ability 2.1: 0.957, 0.891, 0.750 -> level 3
    assert elo.choose_difficulty(2.1, LEVELS) == 3
    # another target: at 0.5 the ability-0 pupil gets level 2
    assert elo.choose_difficulty(0.0, LEVELS, target=0.5) == 2
    # a guess chance raises every expected score: 0.5 + 0.5 * 0.5 = 0.75 at level 2
    assert elo.choose_difficulty(0.0, LEVELS, guess=0.5) == 2


def test_choose_difficulty_breaks_a_tie_by_the_order_given_and_needs_levels():
    assert elo.choose_difficulty(0.0, {"b": 0.0, "a": 0.0}) == "b"
    with pytest.raises(ValueError):
        elo.choose_difficulty(0.0, {})


def test_a_new_skill_starts_from_the_abilities_in_the_skills_practised():
    assert elo.start([]) == elo.Rating(0.0, 0)
    assert elo.start([elo.Rating(1.0, 5), elo.Rating(2.0, 3), elo.Rating(-9.0, 0)]) == elo.Rating(1.5, 0)


def test_a_rating_round_trips_as_a_dict_and_refuses_nonsense():
    rating = elo.Rating(0.75, 12)
    assert elo.Rating.from_dict(rating.to_dict()) == rating
    assert elo.Rating.from_dict({"value": 1, "count": 0}) == elo.Rating(1.0, 0)
    for bad in (
        {"value": math.nan, "count": 1},
        {"value": 0.1, "count": -1},
        {"value": True, "count": 1},
        {"value": 0.1, "count": 1.5},
    ):
        with pytest.raises(ValueError):
            elo.Rating.from_dict(bad)


@settings(max_examples=300, deadline=None)
@given(LOGITS, LOGITS, GUESSES)
def test_the_expected_score_is_a_probability_for_any_ratings(ability, difficulty, guess):
    assert guess <= elo.expected(ability, difficulty, guess) <= 1.0


@settings(max_examples=300, deadline=None)
@given(LOGITS, st.integers(0, 10_000), LOGITS, st.integers(0, 10_000), st.booleans(), GUESSES)
def test_an_answer_moves_ability_and_difficulty_the_right_way(
    ability, ability_count, difficulty, difficulty_count, correct, guess
):
    new_ability, new_difficulty = elo.update(
        elo.Rating(ability, ability_count), elo.Rating(difficulty, difficulty_count), correct, guess
    )
    if correct:
        assert new_ability.value >= ability and new_difficulty.value <= difficulty
    else:
        assert new_ability.value <= ability and new_difficulty.value >= difficulty
    assert 0.0 <= elo.expected(new_ability.value, new_difficulty.value, guess) <= 1.0


@settings(max_examples=200, deadline=None)
@given(MODERATE, st.floats(0, 10, allow_nan=False), st.dictionaries(st.integers(), MODERATE, min_size=1, max_size=8))
def test_a_higher_ability_never_gets_an_easier_question(ability, rise, levels):
    """Within +-10 logits, so that no two levels' expected scores both round to 1."""
    easier = levels[elo.choose_difficulty(ability, levels)]
    harder = levels[elo.choose_difficulty(ability + rise, levels)]
    assert harder >= easier or math.isclose(
        harder, easier, abs_tol=1e-9
    )  # levels a rounding error apart may tie either way
