"""Storing a pupil's answers and skill records; plain SQLAlchemy, no Flask."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from tutor import skills
from tutor.lessons.runner import Attempt
from tutor.models import AttemptRecord, SkillRecord


def skill_levels(db: Session, pupil_id: int) -> dict[str, float]:
    """The model's current estimate per skill, which sets the next questions' difficulty."""
    rows = db.scalars(select(SkillRecord).where(SkillRecord.pupil_id == pupil_id))
    return {row.skill: row.p_known for row in rows}


def skill_records(db: Session, pupil_id: int) -> dict[str, SkillRecord]:
    return {row.skill: row for row in db.scalars(select(SkillRecord).where(SkillRecord.pupil_id == pupil_id))}


def record_attempt(db: Session, pupil_id: int, run_id: int | None, attempt: Attempt) -> AttemptRecord:
    """Store one answer; a readable first try also updates the pupil's skill record."""
    row = AttemptRecord(
        pupil_id=pupil_id,
        run_id=run_id,
        skill=attempt.skill,
        question_kind=attempt.kind,
        question=attempt.question,
        typed=attempt.typed,
        read_as=attempt.read_as,
        correct=attempt.correct,
        readable=attempt.readable,
        first_try=attempt.first_try,
        hints_used=attempt.hints_used,
        time_ms=attempt.time_ms,
    )
    db.add(row)
    if attempt.first_try:
        update_skill(db, pupil_id, attempt.skill, attempt.correct, 1 / attempt.choices if attempt.choices else None)
    return row


def update_skill(db: Session, pupil_id: int, skill: str, correct: bool, p_guess: float | None = None) -> SkillRecord:
    record = db.scalar(select(SkillRecord).where(SkillRecord.pupil_id == pupil_id, SkillRecord.skill == skill))
    if record is None:
        start = skills.fresh()
        record = SkillRecord(pupil_id=pupil_id, skill=skill, p_known=start.p_known, attempts=0, correct=0, streak=0, mastery_threshold=skills.DEFAULT_PARAMS.mastery)
        db.add(record)
    state = skills.SkillState(record.p_known, record.attempts, record.correct, record.streak)
    params = skills.Params(mastery=record.mastery_threshold)
    new = skills.update(state, correct, params, p_guess)
    record.p_known, record.attempts, record.correct, record.streak = new.p_known, new.attempts, new.correct, new.streak
    return record
