"""The Bayesian Knowledge Tracing skill model, checked against figures worked out by hand.

The hand-worked figures use the parameters of the earlier docs (P(known) 0.2 at the start,
slip 0.1, guess 0.15, learning 0.15, one hint closing 30 % of the gap), passed in explicitly,
so they stay true when the defaults change; the cautious defaults are checked apart.
"""

import math
import random
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tutor.skill_model import skills

DOCUMENTED = skills.Params(p_init=0.2, p_learn=0.15, p_slip=0.1, p_guess=0.15, mastery=0.95, p_hint=0.3)
START = skills.SkillState(p_known=0.2)


def after(correct: bool, p_guess: float | None = None, hints: int = 0, state: skills.SkillState = START) -> float:
    return skills.update(state, correct, DOCUMENTED, p_guess, hints).p_known


def test_a_right_typed_answer_raises_p_known_to_the_hand_worked_figure():
    # evidence: 0.2 * 0.9 / (0.2 * 0.9 + 0.8 * 0.15) = 0.18 / 0.30 = 0.6
    # learning: 0.6 + (1 - 0.6) * 0.15 = 0.66
    assert after(True) == pytest.approx(0.66)


def test_a_wrong_typed_answer_lowers_p_known_to_the_hand_worked_figure():
    # evidence: 0.2 * 0.1 / (0.2 * 0.1 + 0.8 * 0.85) = 0.02 / 0.70 = 0.028571
    # learning: 0.028571 + (1 - 0.028571) * 0.15 = 0.174286
    assert after(False) == pytest.approx(0.174286, abs=1e-6)
    assert after(False) < START.p_known


def test_a_right_tap_on_one_of_two_buttons_counts_for_less_than_a_typed_answer():
    # evidence: 0.18 / (0.18 + 0.8 * 0.5) = 0.18 / 0.58 = 0.310345
    # learning: 0.310345 + 0.689655 * 0.15 = 0.413793
    assert after(True, p_guess=0.5) == pytest.approx(0.413793, abs=1e-6)
    # a wrong tap: 0.02 / (0.02 + 0.8 * 0.5) = 0.047619, then + 0.952381 * 0.15 = 0.190476
    assert after(False, p_guess=0.5) == pytest.approx(0.190476, abs=1e-6)


def test_each_hint_raises_the_guess_chance_by_the_documented_share():
    # 1 - (1 - 0.15) * 0.7 ** k: 0.15, 0.405, 0.5835, 0.70845
    figures = [skills.hinted_guess(0.15, k, DOCUMENTED) for k in range(4)]
    assert figures == pytest.approx([0.15, 0.405, 0.5835, 0.70845])
    # a tap on one of three buttons after one hint: 1 - (2/3) * 0.7 = 0.533333
    assert skills.hinted_guess(1 / 3, 1, DOCUMENTED) == pytest.approx(0.533333, abs=1e-6)


def test_a_right_answer_after_hints_counts_for_less_and_a_wrong_one_as_without_them():
    # one hint, guess 0.405: 0.18 / (0.18 + 0.8 * 0.405) = 0.357143, then + 0.642857 * 0.15 = 0.453571
    assert after(True, hints=1) == pytest.approx(0.453571, abs=1e-6)
    # two hints, guess 0.5835: 0.18 / (0.18 + 0.8 * 0.5835) = 0.278293, then + 0.721707 * 0.15 = 0.386549
    assert after(True, hints=2) == pytest.approx(0.386549, abs=1e-6)
    # a tap among three after one hint, guess 0.533333: 0.18 / 0.606667 = 0.296703, then + 0.703297 * 0.15 = 0.402198
    assert after(True, p_guess=1 / 3, hints=1) == pytest.approx(0.402198, abs=1e-6)
    assert after(False, hints=2) == after(False)


def test_the_answers_and_the_streak_are_counted_and_a_wrong_answer_ends_the_streak():
    state, seen = START, []
    for correct in (True, True, False, True):
        state = skills.update(state, correct, DOCUMENTED)
        seen.append((state.attempts, state.correct, state.streak))
    assert seen == [(1, 1, 1), (2, 2, 2), (3, 2, 0), (4, 3, 1)]


def test_four_right_typed_answers_at_level_two_reach_mastery_and_four_wrong_ones_need_help():
    # right: 0.66; then 0.594 / (0.594 + 0.34 * 0.15) = 0.920930, + 0.079070 * 0.15 = 0.932791;
    # then 0.839512 / (0.839512 + 0.067209 * 0.15) = 0.988134, + 0.011866 * 0.15 = 0.989914;
    # then 0.890923 / (0.890923 + 0.010086 * 0.15) = 0.998305, + 0.001695 * 0.15 = 0.998559
    # evidence: ln(0.9 / 0.15) = 1.791759 each: 1.79 (below 10 to 1), 3.58 (10 to 1), 5.38 (below 300 to 1), 7.17
    state, figures, statuses = START, [], []
    for _ in range(4):
        state = skills.update(state, True, DOCUMENTED, drill_level=2)
        figures += [state.p_known, state.evidence]
        statuses.append(skills.status(state, DOCUMENTED, "multiply"))
    assert figures == pytest.approx(
        [0.66, 1.791759, 0.932791, 3.583519, 0.989914, 5.375278, 0.998559, 7.167038], abs=1e-6
    )
    assert statuses == ["familiar", "proficient", "proficient", "mastered"]
    assert state.typed_right == 4
    state, statuses = START, []
    for _ in range(4):
        state = skills.update(state, False, DOCUMENTED, drill_level=2)
        statuses.append(skills.status(state, DOCUMENTED))
    assert statuses == ["attempted"] * 3 + ["needs_help"]
    assert state.p_known == pytest.approx(0.170011, abs=1e-6)  # each wrong answer settles lower, towards 0.17


@given(st.floats(0.01, 0.99), st.floats(0.01, 0.5), st.integers(0, 3))
def test_updates_stay_probabilities_and_a_right_answer_never_counts_less_than_a_wrong_one(p_known, guess, hints):
    before = skills.SkillState(p_known)
    right = skills.update(before, True, DOCUMENTED, guess, hints)
    wrong = skills.update(before, False, DOCUMENTED, guess, hints)
    assert 0.0 <= wrong.p_known <= right.p_known <= 1.0
    assert right.p_known >= p_known
    assert (right.attempts, right.correct, wrong.attempts, wrong.correct) == (1, 1, 1, 0)


def test_levels_follow_the_documented_thresholds():
    enough = skills.MASTERY_EVIDENCE
    assert skills.level(None, 0) == skills.level(0.99, 0, evidence=enough) == "not_started"
    assert [skills.level(p, 1, evidence=enough) for p in (0.0, 0.49, 0.5, 0.79, 0.8, 0.949, 0.95)] == [
        "attempted",
        "attempted",
        "familiar",
        "familiar",
        "proficient",
        "proficient",
        "mastered",
    ]


def test_the_mastery_threshold_a_record_is_judged_by_decides_mastered():
    enough = skills.MASTERY_EVIDENCE
    assert skills.level(0.92, 3, mastery=0.9, evidence=enough) == "mastered"
    assert skills.level(0.92, 3, mastery=0.95, evidence=enough) == "proficient"
    state = skills.SkillState(0.92, attempts=3, correct=3, streak=3, evidence=enough)
    assert skills.status(state, skills.Params(mastery=0.9)) == "mastered"
    assert skills.status(state, skills.Params(mastery=0.95)) == "proficient"


def test_needs_help_after_four_answers_below_three_tenths():
    assert skills.needs_help(0.29, 4) and skills.needs_help(0.0, 9)
    assert not skills.needs_help(0.29, 3) and not skills.needs_help(0.3, 4) and not skills.needs_help(None, 5)
    assert skills.status(skills.SkillState(0.29, attempts=4)) == "needs_help"
    assert skills.status(skills.SkillState(0.29, attempts=3)) == "attempted"
    assert skills.status(None) == "not_started"


def test_the_defaults_are_the_documented_cautious_parameters():
    assert skills.DEFAULT_PARAMS == skills.Params(
        p_init=0.1, p_learn=0.1, p_slip=0.1, p_guess=0.15, p_forget=0.0, mastery=0.95, p_hint=0.3
    )
    assert skills.fresh().p_known == 0.1


def test_a_fitted_chance_of_forgetting_takes_its_share_of_what_was_known():
    forgetful = skills.Params(p_init=0.2, p_learn=0.15, p_slip=0.1, p_guess=0.15, p_forget=0.1)
    # seen right: 0.6; then 0.6 * (1 - 0.1) + 0.4 * 0.15 = 0.54 + 0.06 = 0.6
    assert skills.update(START, True, forgetful).p_known == pytest.approx(0.6)


def test_a_taps_guess_chance_is_the_share_of_right_buttons_and_never_below_a_typed_answers():
    assert skills.guess_chance(DOCUMENTED) == 0.15
    assert skills.guess_chance(DOCUMENTED, 0.5) == 0.5  # one of two buttons
    assert skills.guess_chance(DOCUMENTED, 7 / 11) == pytest.approx(7 / 11)  # 7 right cards of 11
    assert skills.guess_chance(DOCUMENTED, 1 / 8) == 0.15  # one of eight buttons: not below typing
    assert skills.guess_chance(DOCUMENTED, 0.5, 1) == pytest.approx(1 - 0.5 * 0.7)


def test_a_lucky_run_of_taps_raises_p_known_but_is_not_evidence_enough_for_mastery():
    # nine right taps of two buttons at level 2: P(known) passes 0.95, evidence 9 * ln(0.9 / 0.5) = 5.29 < ln 300
    state = START
    for _ in range(9):
        state = skills.update(state, True, DOCUMENTED, 0.5, drill_level=2)
    assert state.p_known > 0.95
    assert state.evidence == pytest.approx(9 * math.log(1.8))
    assert skills.status(state, DOCUMENTED, "compare") == "proficient"
    # one more right tap: 10 * 0.588 = 5.88, 300 to 1
    for _ in range(1):
        state = skills.update(state, True, DOCUMENTED, 0.5, drill_level=2)
    assert skills.status(state, DOCUMENTED, "compare") == "mastered"


def test_card_choices_and_level_one_questions_add_no_evidence():
    state = START
    for _ in range(10):
        state = skills.update(state, True, DOCUMENTED, 0.4)  # a card chosen in the game
        state = skills.update(state, True, DOCUMENTED, drill_level=1)
    assert state.p_known > 0.99 and state.evidence == 0.0 and state.typed_right == 0
    assert skills.status(state, DOCUMENTED, "multiply") == "familiar"


def test_mastered_needs_a_right_typed_answer_where_the_skill_has_typed_questions():
    state = START
    for _ in range(12):
        state = skills.update(state, True, DOCUMENTED, 0.5, drill_level=2)
    assert state.evidence >= skills.MASTERY_EVIDENCE and state.typed_right == 0
    assert "multiply" in skills.TYPED_SKILLS and "compare" not in skills.TYPED_SKILLS
    assert skills.status(state, DOCUMENTED, "compare") == "mastered"
    assert skills.status(state, DOCUMENTED, "multiply") == "proficient"
    state = skills.update(state, True, DOCUMENTED, drill_level=3)
    assert skills.status(state, DOCUMENTED, "multiply") == "mastered"


def test_evidence_stays_within_its_bounds_and_halves_every_two_weeks_without_practice():
    state = START
    for _ in range(10):
        state = skills.update(state, False, DOCUMENTED, drill_level=3)
    assert state.evidence == skills.EVIDENCE_FLOOR
    for _ in range(20):
        state = skills.update(state, True, DOCUMENTED, drill_level=3)
    assert state.evidence == skills.EVIDENCE_CAP
    assert skills.aged_evidence(4.0, 14) == pytest.approx(2.0)
    assert skills.aged_evidence(4.0, 28) == pytest.approx(1.0)
    assert skills.status(state, DOCUMENTED, "multiply", days=13) == "mastered"
    # the cap is 2 ln 300 = 11.41: below ln 300 = 5.70 after 14 days, below ln 10 = 2.30 after 32.3 days
    assert skills.status(state, DOCUMENTED, "multiply", days=15) == "proficient"
    assert skills.status(state, DOCUMENTED, "multiply", days=32) == "proficient"
    assert skills.status(state, DOCUMENTED, "multiply", days=33) == "familiar"


def test_a_stored_record_is_judged_by_the_same_rule_and_ages_from_its_last_practice():
    practised = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    record = SimpleNamespace(
        skill="multiply",
        p_known=0.99,
        attempts=9,
        mastery_threshold=0.95,
        evidence=skills.MASTERY_EVIDENCE + 0.5,
        typed_right=1,
        practised_at=practised.replace(tzinfo=None),  # SQLite gives it back without its zone
    )
    assert skills.record_level(record, practised + timedelta(days=1)) == "mastered"
    assert skills.record_level(record, practised + timedelta(days=3)) == "proficient"
    assert skills.record_level(SimpleNamespace(**{**vars(record), "typed_right": 0}), practised) == "proficient"
    assert skills.record_level(
        SimpleNamespace(**{**vars(record), "skill": "compare", "typed_right": 0}), practised
    ) == ("mastered")
    assert skills.record_status(SimpleNamespace(**{**vars(record), "p_known": 0.2}), practised) == "needs_help"


def test_a_random_tapper_on_two_buttons_is_shown_mastered_in_at_most_one_run_in_a_hundred():
    rng, mastered = random.Random(1), 0
    for _ in range(1000):
        state = skills.fresh()
        for _ in range(200):
            state = skills.update(state, rng.random() < 0.5, skills.DEFAULT_PARAMS, 0.5, drill_level=2, days=0.5)
            if skills.status(state, skills.DEFAULT_PARAMS, "compare") == "mastered":
                mastered += 1
                break
    assert mastered <= 10


def test_all_fifteen_skills_are_listed():
    assert len(skills.SKILLS) == 15
