"""Storing answers and skill records, checked against figures worked out by hand.

The answers come from a real lesson run (so the runner's marks of a first try, a tap's
buttons and the hints shown are what is stored) and go through ``record_attempt`` into the
database. The figures use the earlier defaults, set as the defaults for these tests
(:func:`hand_worked_defaults`): P(known) 0.2 at the start, slip 0.1, guess 0.15, learning
0.15, each hint closing 30 % of the gap.
"""

from __future__ import annotations

import re
from datetime import datetime

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from tutor import reports
from tutor.answer_key import right_answer, wrong_answer
from tutor.drills.marking import Attempt
from tutor.lessons import LESSONS
from tutor.lessons.runner import LessonRun
from tutor.models import (
    AttemptRecord,
    DifficultyChange,
    Pupil,
    QuestionDifficulty,
    SkillParams,
    SkillRecord,
    utcnow,
)
from tutor.reports.pupil_data import export_pupil
from tutor.skill_model import elo, progress, skills, versions
from tutor.skill_model.progress import choose_levels, record_attempt, right_after_retry, skill_records
from tutor.web import db

LESSON = LESSONS["calculation-war"]
#: P(known) after one answer from 0.2, worked out in tests/test_skills.py.
RIGHT_TYPED, WRONG_TYPED = 0.66, 0.174286  # 0.18 / 0.30 = 0.6, + 0.4 * 0.15; 0.02 / 0.70 = 0.028571, + 0.971429 * 0.15
RIGHT_TYPED_TWICE = 0.932791  # 0.594 / (0.594 + 0.34 * 0.15) = 0.920930, + 0.079070 * 0.15
RIGHT_TYPED_THRICE = 0.989914  # 0.839512 / (0.839512 + 0.067209 * 0.15) = 0.988134, + 0.011866 * 0.15
RIGHT_TYPED_FOUR_TIMES = 0.998559  # 0.890923 / (0.890923 + 0.010086 * 0.15) = 0.998305, + 0.001695 * 0.15


@pytest.fixture(autouse=True)
def hand_worked_defaults(monkeypatch):
    monkeypatch.setattr(skills, "DEFAULT_PARAMS", skills.Params(p_init=0.2, p_learn=0.15))


@pytest.fixture
def database(app):
    with app.app_context():
        yield db.session()


def new_pupil(database, name: str = "Ada") -> int:
    pupil = Pupil(name=name)
    database.add(pupil)
    database.flush()
    return pupil.id


def open_question(kind: str, seed: int = 7) -> LessonRun:
    """A Calculation War run with a question of ``kind`` open; every earlier question answered right."""
    run = LessonRun.start(LESSON, 2, {}, ["beginner"], seed, now_ms=0)
    run.skip_intro(LESSON, {}, 0)
    for _ in range(500):
        question = run.current_question()
        if question and run.drill.open:
            if question.kind == kind:
                return run
            run.answer(right_answer(question.to_dict(), "en"), "en", 0)
        elif question:
            run.close_question(LESSON, {}, 0)
        else:
            run.move(f"play:{min(run.game_state().hands[0])}:", LESSON, {}, 0)
    raise AssertionError(f"no {kind} question in the game of seed {seed}")


def right(run: LessonRun) -> str:
    return right_answer(run.drill.question, "en")


def wrong(run: LessonRun) -> str:
    return wrong_answer(run.drill.question, "en")


def store(database, pupil_id: int, *attempts: Attempt, at: datetime | None = None) -> SkillRecord:
    """Record the attempts in order (at ``at``, else as the clock goes); the skill record of the last one."""
    for attempt in attempts:
        record_attempt(database, pupil_id, None, attempt, at)
    database.flush()
    return skill_records(database, pupil_id)[attempts[-1].skill]


def typed(correct: bool, skill: str = "multiply", hints: int = 0) -> Attempt:
    """A typed first answer to a level-2 question, as the runner reports one."""
    return Attempt(skill, "multiply_top_numbers", {"difficulty": 2}, "42", "42", correct, True, True, hints, 3000, 0)


def test_a_wrong_first_try_updates_the_skill_and_only_the_right_retry_is_counted_apart(database):
    ada = new_pupil(database)
    run = open_question("estimate_card_sum")
    first, wrong_retry = run.answer(wrong(run), "en", 1000), run.answer(wrong(run), "en", 1500)
    retry = run.answer(right(run), "en", 2000)
    record = store(database, ada, first, wrong_retry, retry)
    assert (record.attempts, record.correct, record.streak) == (1, 0, 0)
    assert record.p_known == pytest.approx(WRONG_TYPED, abs=1e-6)
    rows = database.scalars(select(AttemptRecord).where(AttemptRecord.pupil_id == ada).order_by(AttemptRecord.id)).all()
    assert [(r.correct, r.first_try) for r in rows] == [(False, True), (False, False), (True, False)]
    assert (
        rows[0].p_known_after == pytest.approx(WRONG_TYPED, abs=1e-6)
        and rows[1].p_known_after is rows[2].p_known_after is None
    )
    assert right_after_retry(database, ada) == {"estimate_sum": 1}  # the right retry, not the wrong one


def test_an_unreadable_answer_is_stored_as_its_refusal_and_the_next_readable_one_is_the_first_try(database):
    ada = new_pupil(database)
    run = open_question("estimate_card_sum")
    record = store(database, ada, run.answer("my phone is seventeen", "en", 1000), run.answer(right(run), "en", 2000))
    assert (record.attempts, record.correct, record.streak) == (1, 1, 1)
    assert record.p_known == pytest.approx(RIGHT_TYPED)
    refused = database.scalars(
        select(AttemptRecord).where(AttemptRecord.pupil_id == ada).order_by(AttemptRecord.id)
    ).first()
    assert refused.typed == "" and refused.error_code and not refused.first_try and refused.p_known_after is None
    assert right_after_retry(database, ada) == {}


def test_a_tap_counts_with_the_guess_chance_of_one_button_in_so_many(database):
    run = open_question("winning_card")
    assert len(run.drill.question["choices"]) == 2  # you or the computer: a lucky tap is right half the time
    # right: 0.18 / (0.18 + 0.8 * 0.5) = 0.310345, + 0.689655 * 0.15 = 0.413793
    assert store(database, new_pupil(database, "Ada"), run.answer(right(run), "en", 1000)).p_known == pytest.approx(
        0.413793, abs=1e-6
    )
    run = open_question("winning_card")
    # wrong: 0.02 / (0.02 + 0.8 * 0.5) = 0.047619, + 0.952381 * 0.15 = 0.190476
    assert store(database, new_pupil(database, "Ola"), run.answer(wrong(run), "en", 1000)).p_known == pytest.approx(
        0.190476, abs=1e-6
    )


def test_hints_shown_before_a_right_answer_are_stored_and_make_it_count_for_less(database):
    ada = new_pupil(database)
    run = open_question("estimate_card_sum")
    run.hint()
    run.hint()
    attempt = run.answer(right(run), "en", 1000)
    # guess after two hints: 1 - 0.85 * 0.7 ** 2 = 0.5835; 0.18 / (0.18 + 0.8 * 0.5835) = 0.278293, + 0.721707 * 0.15 =
    # 0.386549
    assert store(database, ada, attempt).p_known == pytest.approx(0.386549, abs=1e-6)
    assert database.scalar(select(AttemptRecord.hints_used).where(AttemptRecord.pupil_id == ada)) == 2


def test_the_stored_streak_grows_with_right_first_tries_and_a_wrong_one_resets_it(database):
    ada = new_pupil(database)
    seen = []
    for correct in (True, True, False, True):
        record = store(database, ada, typed(correct))
        seen.append((record.attempts, record.correct, record.streak))
    assert seen == [(1, 1, 1), (2, 2, 2), (3, 2, 0), (4, 3, 1)]


def test_a_record_keeps_the_mastery_threshold_it_was_started_with_when_the_default_changes(database, monkeypatch):
    monkeypatch.setattr(skills, "DEFAULT_PARAMS", skills.Params(p_init=0.2, p_learn=0.15, mastery=0.9))
    ada = new_pupil(database, "Ada")
    moment = utcnow()  # every answer at once: the evidence does not age between them, however slow the machine
    assert store(database, ada, typed(True), at=moment).mastery_threshold == 0.9
    monkeypatch.setattr(skills, "DEFAULT_PARAMS", skills.Params(p_init=0.2, p_learn=0.15, mastery=0.999))
    ola = new_pupil(database, "Ola")
    for pupil in (ada, ada, ada, ola, ola, ola, ola):
        store(database, pupil, typed(True), at=moment)
    records = {pupil: skill_records(database, pupil)["multiply"] for pupil in (ada, ola)}
    assert {pupil: (r.mastery_threshold, r.attempts) for pupil, r in records.items()} == {
        ada: (0.9, 4),
        ola: (0.999, 4),
    }
    assert records[ada].p_known == records[ola].p_known == pytest.approx(RIGHT_TYPED_FOUR_TIMES, abs=1e-6)
    # 4 x ln(0.9 / 0.15) = 4 x 1.791759: 300 to 1
    assert records[ada].evidence == pytest.approx(7.167038, abs=1e-6)
    # the same 0.9986 is mastered for the record judged by 0.9, proficient for the one judged by 0.999
    assert dict(reports.pupil_skills(database, ada))["multiply"].level == "mastered"
    assert dict(reports.pupil_skills(database, ola))["multiply"].level == "proficient"
    exported = {pupil: export_pupil(database, database.get(Pupil, pupil))["skills"] for pupil in (ada, ola)}
    assert [s["level"] for s in exported[ada]] == ["mastered"] and [s["level"] for s in exported[ola]] == ["proficient"]


def test_the_progress_page_judges_a_record_by_its_stored_threshold(app, guest, client):
    guest.sign_in("Ada")
    with app.app_context():
        database = db.session()
        ada = database.scalar(select(Pupil.id).where(Pupil.name == "Ada"))
        for skill, threshold in (("multiply", 0.9), ("estimate_sum", 0.99)):
            database.add(
                SkillRecord(
                    pupil_id=ada,
                    skill=skill,
                    p_known=RIGHT_TYPED_TWICE,
                    attempts=2,
                    correct=2,
                    streak=2,
                    mastery_threshold=threshold,
                    evidence=skills.MASTERY_EVIDENCE,
                    typed_right=1,
                )
            )
        database.commit()
    page = client.get("/progress").get_data(as_text=True)
    cards = {
        re.search(r"<h2>([^<]+)</h2>", card).group(1): card
        for card in re.findall(r'<li class="skill-card.*?</li>', page, re.S)
    }
    assert "status-mastered" in cards["Times tables"] and 'aria-label="4 stars of 4"' in cards["Times tables"]
    assert "status-proficient" in cards["Estimate a sum"] and 'aria-label="3 stars of 4"' in cards["Estimate a sum"]


# --- fitted parameters, Elo ability and question difficulty ----------------------------------------


def asked(correct: bool, level: int = 2, skill: str = "multiply", choices: int = 0, hints: int = 0) -> Attempt:
    """A first answer to a question of a known kind and level (``choices``: buttons, one right), as the runner
    reports one."""
    question = {"difficulty": level}
    if choices:
        values = [str(n) for n in range(choices)]
        question |= {"answer": "choice", "choices": [{"value": v} for v in values], "check": {"expected": values[:1]}}
    return Attempt(skill, "multiply_top_numbers", question, "42", "42", correct, True, True, hints, 3000, choices)


def difficulty(database, level: int = 2) -> tuple[float, int]:
    rating = progress.read_difficulties(database)[("multiply", "multiply_top_numbers", level)]
    return rating.value, rating.count


def test_a_first_answer_moves_the_pupils_ability_and_the_questions_difficulty_by_the_hand_worked_elo_step(database):
    ada, ola = new_pupil(database, "Ada"), new_pupil(database, "Ola")
    # Ada, right: expected 1 / (1 + e^0) = 0.5, K = 1 for her ability, 0.1 for the shared difficulty:
    # ability 0 + 0.5, difficulty 0 - 0.05
    record = store(database, ada, asked(True))
    assert (record.ability, record.ability_count) == (pytest.approx(0.5), 1) and difficulty(database) == (
        pytest.approx(-0.05),
        1,
    )
    # Ola, wrong: expected 1 / (1 + e^-0.05) = 0.512497; ability 0 - 0.512497; difficulty, K = 0.1 / 1.05:
    # -0.05 + 0.095238 * 0.512497 = -0.001191
    record = store(database, ola, asked(False))
    assert record.ability == pytest.approx(-0.512497, abs=1e-6) and difficulty(database) == (
        pytest.approx(-0.001191, abs=1e-6),
        2,
    )
    store(
        database,
        ola,
        Attempt("multiply", "multiply_top_numbers", {"difficulty": 2}, "42", "42", True, True, False, 0, 3000, 0),
    )
    assert (
        difficulty(database)[1] == 2 and skill_records(database, ola)["multiply"].ability_count == 1
    )  # a retry moves neither


def test_a_lucky_tap_or_a_hinted_answer_moves_the_ratings_less(database):
    moved = {}
    for name, attempt in (
        ("typed", asked(True)),
        ("tap", asked(True, skill="compare", choices=2)),
        ("hinted", asked(True, skill="exact_sum", hints=1)),
    ):
        moved[name] = store(database, new_pupil(database, name), attempt).ability
    # expected with a guess g: g + (1 - g) * 0.5; typed 0.5, a tap of two buttons 0.75, one hint 1 - 0.7 = 0.3: 0.65
    assert moved == {"typed": pytest.approx(0.5), "tap": pytest.approx(0.25), "hinted": pytest.approx(0.35)}


def test_a_new_skill_starts_from_the_pupils_ability_in_the_others(database):
    ada = new_pupil(database)
    store(database, ada, asked(True, skill="multiply"))
    record = store(
        database, ada, Attempt("compare", "compare_numbers", {"difficulty": 2}, "1", "1", False, True, True, 0, 3000, 0)
    )
    # starts at 0.5 (multiply's), wrong at a new level-2 difficulty 0: expected 0.622459, 0.5 - 0.622459
    assert record.ability == pytest.approx(-0.122459, abs=1e-6)


def test_fitted_parameters_judge_the_next_answers_and_the_records_keep_their_version(database):
    database.add(
        SkillParams(
            version=3,
            skill="multiply",
            p_init=0.5,
            p_learn=0.1,
            p_slip=0.2,
            p_guess=0.25,
            blend_bkt=1,
            blend_elo=0,
            blend_bias=0,
            answers=400,
            log_likelihood=-200.0,
        )
    )
    database.add(
        SkillParams(
            version=2,
            skill="multiply",
            p_init=0.9,
            p_learn=0.1,
            p_slip=0.2,
            p_guess=0.25,
            blend_bkt=1,
            blend_elo=0,
            blend_bias=0,
            answers=300,
            log_likelihood=-150.0,
        )
    )
    ada = new_pupil(database)
    # starts at the fitted 0.5: 0.5 * 0.8 / (0.4 + 0.5 * 0.25) = 0.761905, + 0.238095 * 0.1 = 0.785714
    record = store(database, ada, asked(True))
    assert record.p_known == pytest.approx(0.785714, abs=1e-6) and record.params_version == 3
    assert database.scalar(select(AttemptRecord.params_version).where(AttemptRecord.pupil_id == ada)) == 3
    other = store(database, ada, Attempt("compare", "compare_numbers", {}, "1", "1", True, True, True, 0, 3000, 0))
    assert (
        other.p_known == pytest.approx(RIGHT_TYPED) and other.params_version is None
    )  # compare has no fitted version: the defaults


def test_a_card_choice_moves_knowledge_tracing_but_neither_elo_nor_the_evidence(database):
    ada = new_pupil(database)
    question = {
        "difficulty": 2,
        "answer": "choice",
        "choices": [{"value": f"play:{card}:", "card": card} for card in range(4)],
        "check": {"rule": "choice", "expected": ["play:0:", "play:1:", "play:2:"]},
    }
    attempt = Attempt("multiply", "choice:product_match", question, "play:0:", "play:0:", True, True, True, 0, 900, 4)
    record = store(database, ada, attempt)
    # three right cards of four: guess 0.75; 0.18 / (0.18 + 0.8 * 0.75) = 0.230769, + 0.769231 * 0.15 = 0.346154
    assert record.p_known == pytest.approx(0.346154, abs=1e-6)
    assert (record.evidence, record.typed_right, record.ability_count) == (0.0, 0, 0)
    assert database.scalar(select(QuestionDifficulty)) is None and database.scalar(select(DifficultyChange)) is None


def test_the_level_difficulties_stay_ordered_and_leave_card_choices_out():
    learnt = {
        ("compare", "compare_numbers", 1): elo.Rating(1.8, 40),  # one weak pupil's run pushed it up
        ("compare", "compare_numbers", 3): elo.Rating(0.9, 40),
        ("compare", "choice:higher_card", 2): elo.Rating(-3.0, 400),  # the pupil's hand, not a drill level
    }
    table = progress.level_difficulties(learnt)["compare"]
    assert table == {1: pytest.approx(-0.5), 2: 0.0, 3: pytest.approx(0.9)}
    assert progress.level_difficulties({})["compare"] == progress.PRIOR_DIFFICULTY


@pytest.mark.parametrize(
    "ability, target, level",
    [(-3.0, 0.75, 1), (0.0, 0.75, 1), (1.1, 0.75, 2), (2.2, 0.75, 3), (1.1, 0.9, 1), (1.1, 0.5, 3)],
)
def test_the_next_level_is_the_one_expected_nearest_the_target_success(database, ability, target, level):
    ada = new_pupil(database)
    database.add(
        SkillRecord(
            pupil_id=ada,
            skill="multiply",
            p_known=0.5,
            attempts=9,
            correct=5,
            streak=0,
            mastery_threshold=0.95,
            ability=ability,
            ability_count=9,
        )
    )
    database.flush()
    # prior difficulties -1.1, 0, 1.1: at ability 1.1 the expected successes are 0.90, 0.75, 0.5
    assert choose_levels(database, ada, target)["multiply"] == level


def test_learnt_difficulties_move_the_choice_and_an_unpractised_skill_follows_the_others(database):
    ada = new_pupil(database)
    database.add(
        SkillRecord(
            pupil_id=ada,
            skill="multiply",
            p_known=0.5,
            attempts=9,
            correct=5,
            streak=0,
            mastery_threshold=0.95,
            ability=1.1,
            ability_count=9,
        )
    )
    database.flush()
    assert choose_levels(database, ada)["compare"] == 2  # starts from multiply's 1.1
    for kind, value in (("multiply_top_numbers", 3.0), ("factor_pair_cards", 1.0)):  # level 2 is hard: a mean of 2.0
        database.add(QuestionDifficulty(skill="multiply", kind=kind, level=2, value=value, count=50))
    database.flush()
    assert choose_levels(database, ada)["multiply"] == 1 and choose_levels(database, ada)["compare"] == 2


def test_shared_rows_are_read_once_per_interval_and_survive_a_rollback(database, monkeypatch):
    database.add(
        SkillParams(
            version=1,
            skill="multiply",
            p_init=0.5,
            p_learn=0.1,
            p_slip=0.2,
            p_guess=0.25,
            blend_bkt=1,
            blend_elo=0,
            blend_bias=0,
            answers=400,
            log_likelihood=-200.0,
        )
    )
    database.add(QuestionDifficulty(skill="multiply", kind="multiply_top_numbers", level=2, value=0.5, count=3))
    database.commit()
    clock = [100.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    shared = progress.SharedRows(seconds=30)
    with Session(database.get_bind()) as first_request:
        params, difficulties = shared.read(first_request)
        first_request.rollback()  # a refused step: would expire the rows if that session still held them
    database.add(QuestionDifficulty(skill="multiply", kind="multiply_top_numbers", level=3, value=1.5, count=1))
    database.commit()
    clock[0] += 29
    assert (
        shared.read(database) == (params, difficulties) and params["multiply"].p_init == 0.5
    )  # within the interval: no new read
    clock[0] += 1
    assert ("multiply", "multiply_top_numbers", 3) in shared.read(database)[1]  # the interval is over: read again


def test_levels_are_worked_out_only_when_a_question_asks_for_one():
    calls = []
    lazy = progress.PupilPitch(lambda: calls.append(1) or progress.PupilModel(1, {}, {}, {}))
    assert calls == []
    assert lazy.get("multiply") == 1 and lazy.get("no_such_skill", 2) == 2 and calls == [1]


def test_a_district_answering_one_question_spreads_its_changes_over_shards_and_the_total_stays_exact(
    database, monkeypatch
):
    """Each pupil's change goes to the shard of their id; read back, the shards add up to exactly what one shared
    row gets from the same answers (one skill stored in shards, another in one row, by alike pupils)."""
    right_or_wrong = [n % 3 != 0 for n in range(2 * progress.DIFFICULTY_SHARDS + 3)]
    for correct in right_or_wrong:
        store(database, new_pupil(database), asked(correct, skill="multiply"))
    assert sorted(database.scalars(select(DifficultyChange.shard)).all()) == list(range(progress.DIFFICULTY_SHARDS))
    monkeypatch.setattr(progress, "DIFFICULTY_SHARDS", 1)
    for correct in right_or_wrong:
        store(database, new_pupil(database), asked(correct, skill="compare"))
    difficulties = progress.read_difficulties(database)
    sharded, one_row = (difficulties[(skill, "multiply_top_numbers", 2)] for skill in ("multiply", "compare"))
    assert sharded.count == one_row.count == len(right_or_wrong)
    assert sharded.value == pytest.approx(one_row.value, abs=1e-12) and sharded.value != progress.PRIOR_DIFFICULTY[2]
    # a calibration replaces the value and every change since
    versions.save_difficulties(database, {("multiply", "multiply_top_numbers", 2): elo.Rating(0.3, 500)})
    assert progress.read_difficulties(database)[("multiply", "multiply_top_numbers", 2)] == elo.Rating(0.3, 500)
    assert database.scalar(select(DifficultyChange.id).where(DifficultyChange.skill == "multiply")) is None
