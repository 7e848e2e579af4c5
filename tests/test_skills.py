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


def test_a_right_answer_after_hints_counts_for_less_and_each_hint_for_less_again():
    start = skills.fresh()
    raised = [skills.update(start, True, hints=k).p_known for k in range(4)]
    assert raised[0] > raised[1] > raised[2] > raised[3] > start.p_known  # still evidence, only weaker
    assert round(raised[1], 2) == 0.45 and round(skills.hinted_guess(0.15, 1), 2) == 0.41  # the figures in docs/skill-model.md
    tapped = [skills.update(start, True, p_guess=1 / 3, hints=k).p_known for k in range(2)]
    assert tapped[0] > tapped[1]
    assert skills.update(start, False, hints=2) == skills.update(start, False)  # a wrong answer counts as without hints


def test_the_stored_skill_record_counts_the_hints_of_the_answer(app):
    from tutor import db
    from tutor.lessons.runner import Attempt
    from tutor.models import Pupil
    from tutor.progress import record_attempt

    def stored_p_known(hints: int) -> float:
        with app.app_context():
            database = db.session()
            pupil = Pupil(name=f"Hints {hints}")
            database.add(pupil)
            database.flush()
            attempt = Attempt("multiply", "multiply_top_numbers", {}, "42", "42", True, True, True, hints, 3000, 0)
            _, record = record_attempt(database, pupil.id, None, attempt)
            database.commit()
            return record.p_known

    assert stored_p_known(2) < stored_p_known(0)
