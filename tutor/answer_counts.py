"""The per-day answer counts of each class, kept as answers are stored, so that the weekly report never counts answers.

:func:`count_answer` adds a stored answer to its row of :class:`tutor.models.AnswerDayCount`
in the same transaction (one INSERT ... ON CONFLICT DO UPDATE, on SQLite and PostgreSQL);
:func:`read_class` reads the pupil's class into the session beforehand, so that a lesson
step's write transaction only writes. An answer that could not be read, and a guest's
answer (no class), are not counted. Migration 0009 counted the answers stored before.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import func
from sqlalchemy.orm import Session

from tutor.models import AnswerDayCount, AttemptRecord, Pupil, SchoolClass, upsert

#: ``misconception`` and ``typed`` of a row that counts answers without a misconception.
NONE = ""


def local_day(moment: datetime, timezone_name: str) -> date:
    """The date of ``moment`` (UTC when naive) in the time zone ``timezone_name`` (UTC when it is unknown)."""
    try:
        zone = ZoneInfo(timezone_name)
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return aware.astimezone(zone).date()


def row_key(skill: str, kind: str, correct: bool, misconception: str | None, typed: str) -> tuple[str, str, str, str]:
    """The (skill, kind, misconception, typed) of the row that counts an answer: typed is kept only with a
    misconception shown by a wrong answer (the report's examples), so right answers share one row per kind."""
    if not correct and misconception:
        return skill, kind, misconception, typed
    return skill, kind, NONE, NONE


def read_class(db: Session, pupil_id: int) -> SchoolClass | None:
    """The pupil's class (with the pupil), read into the session: :func:`count_answer` then reads nothing."""
    pupil = db.get(Pupil, pupil_id)
    return pupil.school_class if pupil is not None else None


def count_answer(db: Session, row: AttemptRecord) -> None:
    """Add the stored answer ``row`` (flushed: it has its id) to its pupil's count of the day."""
    school_class = read_class(db, row.pupil_id)
    if school_class is None or not row.readable:
        return
    skill, kind, misconception, typed = row_key(row.skill, row.question_kind, row.correct, row.misconception, row.typed)
    wrong = 0 if row.correct else 1
    insert = upsert(
        db,
        AnswerDayCount,
        class_id=school_class.id,
        pupil_id=row.pupil_id,
        day=local_day(row.created_at, school_class.timezone),
        skill=skill,
        question_kind=kind,
        misconception=misconception,
        typed=typed,
        answers=1,
        wrong=wrong,
        last_wrong_id=row.id if wrong else None,
    )
    db.execute(
        insert.on_conflict_do_update(
            index_elements=["pupil_id", "day", "skill", "question_kind", "misconception", "typed"],
            set_={
                "answers": AnswerDayCount.answers + 1,
                "wrong": AnswerDayCount.wrong + wrong,
                "last_wrong_id": func.coalesce(insert.excluded.last_wrong_id, AnswerDayCount.last_wrong_id),
            },
        )
    )
