"""Fitting BKT parameters per skill by expectation-maximisation (tutor/skill_model/fitting.py).

Answers simulated from known parameters must give those parameters back, within stated
tolerances; the forward pass is pinned by a log-likelihood worked out by hand.
"""

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.skill_model import elo, fitting, forecast, skills, versions

TRUTH = fitting.Fitted(p_init=0.3, p_learn=0.15, p_slip=0.1, p_guess=0.2)
#: How far each fitted parameter may be from the truth with 300 pupils x 30 answers.
TOLERANCE = {"p_init": 0.08, "p_learn": 0.04, "p_slip": 0.04, "p_guess": 0.04}


def simulated(truth, pupils=300, length=30, seed=0):
    rng = random.Random(seed)
    return [fitting.simulate(truth, length, rng)[0] for _ in range(pupils)]


@pytest.fixture(scope="module")
def fitted():
    return fitting.fit(simulated(TRUTH), restarts=3, seed=0)


def test_em_recovers_the_parameters_the_answers_were_simulated_from(fitted):
    for name, tolerance in TOLERANCE.items():
        assert getattr(fitted, name) == pytest.approx(getattr(TRUTH, name), abs=tolerance), name
    assert fitted.p_forget == 0.0
    assert fitted.answers == 300 * 30


def test_the_fit_is_at_least_as_likely_as_the_truth_and_than_other_parameters(fitted):
    answers = simulated(TRUTH)
    assert fitted.log_likelihood == pytest.approx(fitting.log_likelihood(fitted, answers))
    assert fitted.log_likelihood >= fitting.log_likelihood(TRUTH, answers)
    assert fitted.log_likelihood >= fitting.log_likelihood(skills.DEFAULT_PARAMS, answers)
    assert (
        fitted.log_likelihood
        > fitting.log_likelihood(skills.Params(p_init=0.5, p_learn=0.3, p_slip=0.2, p_guess=0.1), answers) + 100
    )


def test_the_log_likelihood_follows_the_forward_pass_worked_out_by_hand():
    # right first: 0.2 * 0.9 + 0.8 * 0.15 = 0.3; P(known) after it 0.6, after learning 0.66
    # then wrong: 0.66 * 0.1 + 0.34 * 0.85 = 0.355
    expected = math.log(0.3) + math.log(0.355)
    assert fitting.log_likelihood(
        skills.Params(p_init=0.2, p_learn=0.15, p_slip=0.1, p_guess=0.15), [[True, False]]
    ) == pytest.approx(expected)


def test_fewer_answers_than_the_minimum_keep_the_defaults():
    answers = simulated(TRUTH, pupils=9, length=20)  # 180 answers
    assert fitting.fit(answers, min_answers=181) is None
    assert fitting.fit(answers, min_answers=180, restarts=1) is not None
    assert fitting.fit(simulated(TRUTH, pupils=4, length=20)) is None  # below MIN_ANSWERS
    assert fitting.fit([], min_answers=0) is None


def test_answers_with_their_own_guess_chance_do_not_pull_the_skills_guess():
    """Half the pupils tap one of two buttons (guess 0.5); the typed answers' guess 0.2 is what is fitted."""
    rng = random.Random(3)
    buttons = fitting.Fitted(p_init=0.3, p_learn=0.15, p_slip=0.1, p_guess=0.5)
    sequences = [[fitting.Answer(right, 0.5) for right in fitting.simulate(buttons, 30, rng)[0]] for _ in range(200)]
    sequences += [fitting.simulate(TRUTH, 30, rng)[0] for _ in range(200)]
    fitted = fitting.fit(sequences, restarts=2, seed=1)
    assert fitted.p_guess == pytest.approx(0.2, abs=0.04)
    assert fitted.p_slip == pytest.approx(0.1, abs=0.04)


def test_guess_and_slip_stay_within_their_bounds_when_the_data_would_pull_them_higher():
    """Answers that are right half the time whatever the pupil knows: an unbounded fit would put guess near 0.5."""
    lucky = fitting.Fitted(p_init=0.5, p_learn=0.1, p_slip=0.5, p_guess=0.5)
    fitted = fitting.fit(simulated(lucky, pupils=100, length=20), restarts=2, seed=2)
    assert fitted.p_guess <= fitting.MAX_GUESS
    assert fitted.p_slip <= fitting.MAX_SLIP
    assert max(fitted.p_guess, fitted.p_slip) == pytest.approx(0.3)


def test_forgetting_is_fitted_only_when_asked_for():
    forgetful = fitting.Fitted(p_init=0.3, p_learn=0.15, p_slip=0.1, p_guess=0.2, p_forget=0.1)
    answers = simulated(forgetful, pupils=250, length=30, seed=4)
    assert fitting.fit(answers, restarts=1, seed=0).p_forget == 0.0
    assert fitting.fit(answers, restarts=1, seed=0, forgets=True).p_forget == pytest.approx(0.1, abs=0.04)


def test_the_same_seed_gives_the_same_fit():
    answers = simulated(TRUTH, pupils=40, length=10)
    assert fitting.fit(answers, restarts=2, seed=5) == fitting.fit(answers, restarts=2, seed=5)


def test_fitted_parameters_become_the_skill_models_params_and_round_trip_as_a_dict(fitted):
    params = fitted.params(skills.Params(mastery=0.9, p_hint=0.4))
    assert (params.p_init, params.p_learn, params.p_slip, params.p_guess) == (
        fitted.p_init,
        fitted.p_learn,
        fitted.p_slip,
        fitted.p_guess,
    )
    assert (params.mastery, params.p_hint) == (0.9, 0.4)
    assert fitting.Fitted.from_dict(fitted.to_dict()) == fitted
    assert fitting.Fitted(0.3, 0.1, 0.1, 0.2, p_forget=0.05).params().p_forget == 0.05
    with pytest.raises(ValueError):
        fitting.Fitted.from_dict({**fitted.to_dict(), "p_guess": 1.5})
    with pytest.raises(ValueError):
        fitting.Fitted.from_dict({**fitted.to_dict(), "colour": "red"})


def test_simulate_follows_the_parameters():
    # never known at the start, always learned after one answer, no slips or guesses
    sure = fitting.Fitted(p_init=0.0, p_learn=1.0, p_slip=0.0, p_guess=0.0)
    assert fitting.simulate(sure, 3, random.Random(0)) == ([False, True, True], [False, True, True, True])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.booleans(), min_size=1, max_size=8), min_size=1, max_size=6), st.integers(0, 100))
def test_fitted_parameters_are_probabilities_within_their_bounds(sequences, seed):
    fitted = fitting.fit(sequences, restarts=1, seed=seed, min_answers=1, max_iterations=15)
    for name in ("p_init", "p_learn", "p_slip", "p_guess", "p_forget"):
        assert 0.0 <= getattr(fitted, name) <= 1.0
    assert fitted.p_guess <= fitting.MAX_GUESS and fitted.p_slip <= fitting.MAX_SLIP
    assert math.isfinite(fitted.log_likelihood) and fitted.log_likelihood <= 0


def test_calibration_finds_the_question_difficulties_the_answers_were_simulated_from():
    """300 pupils of known ability (normal, sd 1) answer three questions of one skill in random order."""
    rng = random.Random(11)
    truth = {("compare", "compare_numbers", 1): -1.5, ("compare", "compare_numbers", 2): 0.3}
    truth[("compare", "compare_numbers", 3)] = 1.4
    answers = []
    for pupil in range(300):
        ability = rng.gauss(0, 1)
        for _ in range(12):
            key = rng.choice(list(truth))
            correct = rng.random() < elo.expected(ability, truth[key])
            answers.append(versions.StoredAnswer(pupil, "compare", key[1:], correct, None, 0))
    table = versions.calibrate(answers)
    assert {key: rating.count for key, rating in table.items()} == {
        key: sum(1 for a in answers if ("compare", *a.question) == key) for key in truth
    }
    for key, difficulty in truth.items():
        assert table[key].value == pytest.approx(difficulty, abs=0.35)
    # no pass, or no answers in the skills asked for: nothing is calibrated
    assert versions.calibrate(answers, passes=0) == {}
    assert versions.calibrate(answers, only={"multiply"}) == {}


def test_the_forecast_keeps_the_blend_only_where_it_predicts_held_out_pupils_better_than_one_part():
    """Answers drawn from knowledge tracing's chance alone, then from a blend of both parts' chances."""
    rng = random.Random(3)
    chances = [
        (pupil, rng.uniform(0.05, 0.95), rng.uniform(0.05, 0.95), rng.randrange(9), rng.randrange(9))
        for pupil in range(400)
        for _ in range(10)
    ]
    bkt_world = [(*row, rng.random() < row[1]) for row in chances]
    assert forecast.choose_blend(bkt_world) == forecast.BKT_ONLY
    truth = forecast.Blend(bkt=0.6, elo=1.2, bias=-0.3, right=0.05, wrong=-0.05)
    both_world = [(*row, rng.random() < truth.chance(*row[1:])) for row in chances]
    chosen = forecast.choose_blend(both_world)
    assert chosen not in (forecast.BKT_ONLY, forecast.ELO_ONLY) and chosen.elo == pytest.approx(1.2, abs=0.2)
    assert forecast.choose_blend(both_world[:199]) is None
