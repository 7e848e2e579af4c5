"""The step service (tutor/steps.py) on its own: no app, no request, a clock passed in.

A homework lesson is played from its intro to its end with take_step, and everything a
step keeps is checked in the database: the run, the answers, the skill records, the
homework's running total. A step that does not fit the stored run any more is "out of
date" and a database that stays locked is "busy": either way nothing is written, and the
same step works afterwards.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select

import tutor
from tests.answer_key import accepted_move
from tutor import classroom, steps
from tutor.answer_key import right_answer, wrong_answer
from tutor.db import WRITE_GATE, make_engine, make_sessions
from tutor.lessons import LESSONS
from tutor.lessons.base import move_token
from tutor.lessons.runner import FINISHED, LessonRun
from tutor.models import AssignmentWork, AttemptRecord, LessonRunRecord, SkillRecord, Teacher
from tutor.skill_model.progress import SharedRows
from tutor.steps import Taken, take_step

NOW = datetime(2026, 3, 16, 9, 0, tzinfo=UTC)  # a Monday
LESSON = LESSONS["calculation-war"]


def ms(moment: datetime) -> int:
    return (moment - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(milliseconds=1)


@pytest.fixture
def sessions(database_url):
    engine = make_engine(database_url)
    yield make_sessions(engine)
    engine.dispose()


def homework_run(sessions, seed: int = 7) -> int:
    """A class with one pupil and homework (one game of Calculation War), started as the homework page starts it."""
    with sessions() as database:
        teacher = Teacher(email="tove@school.example", name="Tove", password_hash="x")
        database.add(teacher)
        database.flush()
        school_class = classroom.create_class(database, teacher, "4A", "en", "Europe/Oslo", "pictures")
        pupil = classroom.add_pupils(database, school_class, "Ada").added[0]
        form = classroom.AssignmentForm("calculation-war", options={"round_limit": 2}, due_date="2026-03-20")
        assignment = classroom.create_assignment(database, school_class, teacher, form, NOW)
        run = LessonRun.start(LESSON, 2, {"round_limit": 2}, ["beginner"], seed, ms(NOW))
        record = LessonRunRecord(
            pupil_id=pupil.id,
            assignment_id=assignment.id,
            game_id=run.game_id,
            seed=seed,
            stage=run.stage,
            data=run.to_dict(),
        )
        database.add(record)
        database.flush()
        classroom.note_step(database, record, NOW)
        database.commit()
        return record.id


def loaded(database, record_id: int) -> tuple[LessonRunRecord, LessonRun]:
    record = database.get(LessonRunRecord, record_id)
    return record, LessonRun.from_dict(record.data)


def skip_intro(run, lesson, levels, now):
    run.skip_intro(lesson, levels, now)


def go_on(run, lesson, levels, now):
    run.close_question(lesson, levels, now)


def answering(typed: str) -> steps.Action:
    return lambda run, lesson, levels, now: run.answer(typed, "en", now)


def next_action(run: LessonRun) -> steps.Action:
    """What a pupil does next: answer an open question (wrong at the first try, then right), go on, or move."""
    if run.drill.question is not None and run.drill.open:
        wrong = wrong_answer(run.drill.question, "en") if run.drill.tries == 0 else None
        return answering(wrong or right_answer(run.drill.question, "en"))
    if run.drill.question is not None:
        return go_on
    token = move_token(accepted_move(LESSON, run.game_state()))
    return lambda run, lesson, levels, now: run.move(token, lesson, levels, now)


def to_open_question(sessions, record_id: int, clock: datetime) -> datetime:
    """Take steps until a question is open; the clock after them."""
    with sessions() as database:
        record, run = loaded(database, record_id)
        if run.stage != "play":
            assert take_step(database, record, run, skip_intro, ms(clock)).taken is Taken.SAVED
        for _ in range(80):
            if run.drill.question is not None and run.drill.open:
                return clock
            clock += timedelta(seconds=5)
            assert take_step(database, record, run, next_action(run), ms(clock)).taken is Taken.SAVED
    raise AssertionError("no question came up")


def stored_answers(sessions) -> int:
    with sessions() as database:
        return database.scalar(select(func.count()).select_from(AttemptRecord))


def test_a_homework_lesson_played_from_its_intro_to_its_end_keeps_every_step(sessions):
    record_id = homework_run(sessions)
    clock, taken, answers = NOW + timedelta(seconds=20), 0, []
    with sessions() as database:
        record, run = loaded(database, record_id)
        action = skip_intro
        shared_rows = SharedRows(30)
        for _ in range(300):
            outcome = take_step(database, record, run, action, ms(clock), shared_rows)
            assert outcome.taken is Taken.SAVED
            taken += 1
            if outcome.attempt is not None:
                answers.append(outcome.attempt)
                assert outcome.skill_record is not None or not outcome.attempt.first_try
            if run.stage == FINISHED:
                break
            clock += timedelta(seconds=7)
            action = next_action(run)
    assert run.stage == FINISHED and any(not a.correct for a in answers) and any(a.correct for a in answers)
    with sessions() as database:
        record, stored = loaded(database, record_id)
        assert stored.to_dict() == run.to_dict() and stored.step == taken
        assert record.stage == FINISHED and record.finished_at is not None and record.updated_at is not None
        rows = database.scalars(select(AttemptRecord).order_by(AttemptRecord.id)).all()
        assert [(r.skill, r.correct, r.first_try, r.run_id) for r in rows] == [
            (a.skill, a.correct, a.first_try, record_id) for a in answers
        ]
        first_tries = [a for a in answers if a.first_try]
        records = {r.skill: r for r in database.scalars(select(SkillRecord))}
        assert {skill: r.attempts for skill, r in records.items()} == {
            skill: sum(a.skill == skill for a in first_tries) for skill in {a.skill for a in first_tries}
        }
        work = database.scalar(select(AssignmentWork))
        assert work.questions == len(first_tries) and work.first_try_right == sum(a.correct for a in first_tries)
        assert work.games_finished == 1 and work.done_at is not None  # the goal: one game
        assert work.time_ms == (taken - 1) * 7000 + 20_000  # every step counted, at the clock passed in
        assert record.steps_in_window >= 1


def test_a_step_saved_meanwhile_by_another_request_leaves_the_second_copy_out_of_date(sessions):
    record_id = homework_run(sessions)
    clock = to_open_question(sessions, record_id, NOW)
    before = stored_answers(sessions)
    with sessions() as first, sessions() as second:
        mine, theirs = loaded(first, record_id), loaded(second, record_id)  # both read the same step
        typed = wrong_answer(mine[1].drill.question, "en")
        saved = take_step(first, *mine, answering(typed), ms(clock))
        again = take_step(second, *theirs, answering(typed), ms(clock))
    assert saved.taken is Taken.SAVED and saved.attempt is not None
    assert again == steps.StepOutcome(Taken.OUT_OF_DATE)
    with sessions() as database:
        record, run = loaded(database, record_id)
        assert run.to_dict() == mine[1].to_dict() and run.drill.tries == 1
        assert stored_answers(sessions) == before + 1
        assert database.scalar(select(AssignmentWork.questions)) == 1  # the homework counted the answer once


def test_a_step_that_does_not_fit_the_run_is_out_of_date_and_writes_nothing(sessions):
    record_id = homework_run(sessions)
    with sessions() as database:
        record, run = loaded(database, record_id)
        version, data = record.version, record.data
        outcome = take_step(database, record, run, answering("12"), ms(NOW))  # no question is open in the intro
    assert outcome.taken is Taken.OUT_OF_DATE
    with sessions() as database:
        record = database.get(LessonRunRecord, record_id)
        assert (record.version, record.data) == (version, data) and stored_answers(sessions) == 0


def test_a_database_locked_past_its_timeout_is_busy_and_the_same_step_works_afterwards(
    database_url, monkeypatch, sessions
):
    record_id = homework_run(sessions)
    clock = to_open_question(sessions, record_id, NOW)
    monkeypatch.setattr(tutor.db, "SQLITE_BUSY_TIMEOUT_MS", 200)
    engine = make_engine(database_url)  # its connections give up after 0.2 s
    impatient = make_sessions(engine)
    other = sqlite3.connect(database_url.split("///", 1)[1], isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer holds SQLite's lock
    try:
        with impatient() as database:
            record, run = loaded(database, record_id)
            step, typed = run.step, wrong_answer(run.drill.question, "en")
            assert take_step(database, record, run, answering(typed), ms(clock)) == steps.StepOutcome(Taken.BUSY)
    finally:
        other.execute("ROLLBACK")
        other.close()
    with impatient() as database:
        record, run = loaded(database, record_id)
        assert run.step == step and stored_answers(sessions) == 0  # nothing saved, nothing half-saved
        assert take_step(database, record, run, answering(typed), ms(clock)).taken is Taken.SAVED
    assert stored_answers(sessions) == 1
    engine.dispose()


def test_a_step_that_waits_at_the_write_gate_past_the_timeout_is_busy(monkeypatch, sessions):
    record_id = homework_run(sessions)
    monkeypatch.setattr(tutor.db, "SQLITE_BUSY_TIMEOUT_MS", 200)
    with sessions() as database:
        gate = database.info[WRITE_GATE]
        record, run = loaded(database, record_id)
        held = threading.Event()
        release = threading.Event()

        def another_step():
            with gate.held():
                held.set()
                release.wait(5)

        holder = threading.Thread(target=another_step)
        holder.start()
        held.wait(5)
        try:
            assert take_step(database, record, run, skip_intro, ms(NOW)).taken is Taken.BUSY
        finally:
            release.set()
            holder.join()
    with sessions() as database:
        record, run = loaded(database, record_id)
        assert run.stage == "intro" and take_step(database, record, run, skip_intro, ms(NOW)).taken is Taken.SAVED


@pytest.mark.parametrize("module", ["tutor/steps.py", "tutor/db.py", "tutor/answer_key.py"])
def test_the_step_service_and_the_database_core_do_not_import_flask(module):
    source = (Path(tutor.__file__).parent.parent / module).read_text(encoding="utf-8")
    assert not re.search(r"^\s*(from|import) (flask|tutor\.web)\b", source, re.M)
