"""The Bayesian Knowledge Tracing skill model."""

from hypothesis import given, strategies as st

from tutor import skills


@given(st.floats(0.01, 0.99), st.booleans(), st.floats(0.01, 0.5))
def test_updates_stay_probabilities_and_move_the_right_way(p_known, correct, guess):
    before = skills.SkillState(p_known)
    after = skills.update(before, correct, p_guess=guess)
    assert 0.0 <= after.p_known <= 1.0
    assert after.attempts == 1 and after.correct == int(correct)
    if correct:
        assert after.p_known >= p_known


def test_a_run_of_right_answers_reaches_mastery_and_wrong_answers_need_help():
    state = skills.fresh()
    for _ in range(8):
        state = skills.update(state, True)
    assert state.mastered and skills.status(state) == "mastered" and state.streak == 8
    state = skills.fresh()
    for _ in range(5):
        state = skills.update(state, False)
    assert skills.status(state) == "needs_help" and state.streak == 0
    assert skills.status(None) == "not_started"


def test_a_lucky_guess_among_two_buttons_counts_for_less_than_a_typed_answer():
    typed = skills.update(skills.fresh(), True, p_guess=0.05)
    guessed = skills.update(skills.fresh(), True, p_guess=0.5)
    assert typed.p_known > guessed.p_known


def test_all_fifteen_skills_are_listed():
    assert len(skills.SKILLS) == 15
