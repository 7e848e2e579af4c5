"""Storing a pupil's answers and skill records; plain SQLAlchemy, no Flask."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tutor import skills
from tutor.lessons.runner import Attempt
from tutor.models import AttemptRecord, SkillRecord, utcnow


def skill_levels(db: Session, pupil_id: int) -> dict[str, float]:
    """The model's current estimate per skill, which sets the next questions' difficulty."""
    rows = db.scalars(select(SkillRecord).where(SkillRecord.pupil_id == pupil_id))
    return {row.skill: row.p_known for row in rows}


def skill_records(db: Session, pupil_id: int) -> dict[str, SkillRecord]:
    return {row.skill: row for row in db.scalars(select(SkillRecord).where(SkillRecord.pupil_id == pupil_id))}


def right_after_retry(db: Session, pupil_id: int) -> dict[str, int]:
    """Per skill, the answers that were right at a second or later try (apart from first tries).

    The skill record counts only first tries; these show the pupil who corrects a mistake.
    """
    rows = db.execute(
        select(AttemptRecord.skill, func.count(AttemptRecord.id))
        .where(AttemptRecord.pupil_id == pupil_id, AttemptRecord.correct.is_(True), AttemptRecord.readable.is_(True), AttemptRecord.first_try.is_(False))
        .group_by(AttemptRecord.skill)
    )
    return {skill: count for skill, count in rows}


def record_attempt(db: Session, pupil_id: int, run_id: int | None, attempt: Attempt, at: datetime | None = None) -> tuple[AttemptRecord, SkillRecord | None]:
    """Store one answer; a readable first try also updates the pupil's skill record.

    An answer that could not be read is stored as its refusal code, not as what was typed:
    children type names and phone numbers into answer boxes.
    """
    row = AttemptRecord(
        pupil_id=pupil_id,
        run_id=run_id,
        skill=attempt.skill,
        question_kind=attempt.kind,
        question=attempt.question,
        typed=attempt.typed if attempt.readable else "",
        read_as=attempt.read_as if attempt.readable else None,
        correct=attempt.correct,
        readable=attempt.readable,
        first_try=attempt.first_try,
        hints_used=attempt.hints_used,
        time_ms=attempt.time_ms,
        error_code=None if attempt.readable else attempt.error_code,
        misconception=attempt.misconception,
        feedback=attempt.feedback or None,
        move_index=attempt.move_index,
        created_at=at or utcnow(),
    )
    db.add(row)
    record = None
    if attempt.first_try:
        record = update_skill(db, pupil_id, attempt.skill, attempt.correct, 1 / attempt.choices if attempt.choices else None, attempt.hints_used)
        row.p_known_after = record.p_known
    return row, record


def update_skill(db: Session, pupil_id: int, skill: str, correct: bool, p_guess: float | None = None, hints: int = 0) -> SkillRecord:
    """Update the pupil's record of ``skill`` with one first answer (``hints``: hints shown before it)."""
    record = db.scalar(select(SkillRecord).where(SkillRecord.pupil_id == pupil_id, SkillRecord.skill == skill))
    if record is None:
        start = skills.fresh()
        record = SkillRecord(pupil_id=pupil_id, skill=skill, p_known=start.p_known, attempts=0, correct=0, streak=0, mastery_threshold=skills.DEFAULT_PARAMS.mastery)
        db.add(record)
    state = skills.SkillState(record.p_known, record.attempts, record.correct, record.streak)
    params = skills.Params(mastery=record.mastery_threshold)
    new = skills.update(state, correct, params, p_guess, hints)
    record.p_known, record.attempts, record.correct, record.streak = new.p_known, new.attempts, new.correct, new.streak
    return record
