"""The per-day answer counts the misconception report reads equal a count over the stored answers.

A pupil of a class plays a lesson through the app's routes, answering with misconceptions, right
answers and unreadable ones; then the counts are compared with a count over the ``attempt`` rows,
and migration 0009 (run again after a downgrade) counts the stored answers into the same rows.
On SQLite and on PostgreSQL.
"""

from __future__ import annotations

from collections import defaultdict

import pytest
from alembic import command
from sqlalchemy import select

from tests.conftest import Staff, run_id_in, run_record
from tests.test_teacher import take_a_step
from tutor import answer_counts
from tutor.answer_key import right_answer, wrong_answer
from tutor.app import create_app
from tutor.db import alembic_config, upgrade
from tutor.lessons.runner import FINISHED, LessonRun
from tutor.models import AnswerDayCount, AttemptRecord, Pupil, SchoolClass
from tutor.web import db

#: A class far east of UTC, so that a class's day is mostly not the UTC date.
TIMEZONE = "Pacific/Kiritimati"
GAME = "crazy-banana-tiervenner"


def play_with_mistakes(app, client, answers: int = 24) -> None:
    """Start a lesson and play it until ``answers`` answers are stored: by turns a misconception's value, the right
    answer, an unreadable one and another wrong value."""
    response = client.post(f"/lessons/{GAME}/start", data={"players": "2", "strength": "beginner"})
    run_id = run_id_in(response.headers["Location"])
    client.post(f"/runs/{run_id}/skip-intro")
    given = 0
    for _ in range(400):
        run = LessonRun.from_dict(run_record(app, run_id).data)
        if run.stage == FINISHED or given >= answers:
            return
        answer = None
        if run.drill.question and run.drill.open:
            question = run.current_question()
            answer = (
                wrong_answer(question, "en", misconception=True),
                right_answer(question, "en"),
                "abc",
                wrong_answer(question, "en"),
            )[given % 4]
            given += 1
        take_a_step(client, run_id, run, answer)


def counted_from_answers(database) -> dict:
    """The rows :mod:`tutor.answer_counts` should hold, counted over the stored answers of the class pupils."""
    rows: dict = defaultdict(lambda: [0, 0, None])
    for answer, class_id, timezone in database.execute(
        select(AttemptRecord, Pupil.class_id, SchoolClass.timezone)
        .join(Pupil, Pupil.id == AttemptRecord.pupil_id)
        .join(SchoolClass, SchoolClass.id == Pupil.class_id)
        .where(AttemptRecord.readable.is_(True))
    ):
        key = (
            class_id,
            answer.pupil_id,
            answer_counts.local_day(answer.created_at, timezone),
            *answer_counts.row_key(
                answer.skill, answer.question_kind, answer.correct, answer.misconception, answer.typed
            ),
        )
        row = rows[key]
        row[0] += 1
        if not answer.correct:
            row[1] += 1
            row[2] = max(row[2] or 0, answer.id)
    return {key: tuple(value) for key, value in rows.items()}


def kept_counts(database) -> dict:
    return {
        (r.class_id, r.pupil_id, r.day, r.skill, r.question_kind, r.misconception, r.typed): (
            r.answers,
            r.wrong,
            r.last_wrong_id,
        )
        for r in database.scalars(select(AnswerDayCount))
    }


def check_counts_after_a_lesson(app, url: str) -> None:
    staff = Staff(app)
    staff.teacher()
    school_class = staff.school_class(pupils=("Ada", "Ola"), timezone=TIMEZONE)
    for name in ("Ada", "Ola"):
        client = app.test_client()
        staff.sign_in_pupil(client, school_class.code, name)
        play_with_mistakes(app, client)
    with app.app_context():
        database = db.session()
        expected, kept = counted_from_answers(database), kept_counts(database)
        shown = {key for key in kept if key[5] != answer_counts.NONE}
        unreadable = database.scalar(select(AttemptRecord.id).where(AttemptRecord.readable.is_(False)).limit(1))
    assert kept == expected
    assert shown and unreadable is not None  # misconceptions were counted, the unreadable answers were not
    assert sum(answers for answers, _, _ in kept.values()) >= 6
    app.extensions["db_engine"].dispose()
    # migration 0009 counts the stored answers into the same rows
    config = alembic_config(url)
    command.downgrade(config, "0008")
    command.upgrade(config, "head")
    with app.app_context():
        assert kept_counts(db.session()) == expected


def test_the_counts_equal_a_count_over_the_answers_after_a_lesson(app, database_url):
    check_counts_after_a_lesson(app, database_url)


@pytest.mark.postgres
def test_the_counts_equal_a_count_over_the_answers_after_a_lesson_on_postgres(postgres_url):
    upgrade(postgres_url)
    app = create_app({"TESTING": True, "DATABASE_URL": postgres_url, "SECRET_KEY": "pg", "WTF_CSRF_ENABLED": False})
    try:
        check_counts_after_a_lesson(app, postgres_url)
    finally:
        app.extensions["db_engine"].dispose()
