"""The assignment view: each assigned pupil's status and work, from the running summaries."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from tutor import accounts, classroom, homework_status
from tutor.models import (
    Assignment,
    AssignmentWork,
    Pupil,
    SkillRecord,
)
from tutor.reports.common import DONE_LATE, STATUS_WORDS, PupilRef, as_utc_or_none, name_key


# --- assignment view ------------------------------------------------------------------------
@dataclass
class WorkRow:
    pupil: PupilRef
    state: homework_status.WorkState
    questions: int = 0
    first_try_right: int = 0
    games_finished: int = 0
    time_ms: int = 0
    started_at: datetime | None = None
    last_active_at: datetime | None = None
    done_at: datetime | None = None
    level: str | None = None  # the pupil's level in a level goal's skill

    @property
    def status(self) -> str:
        return self.state.status

    @property
    def done_late(self) -> bool:
        """The goal was reached, but after the due time."""
        return self.state.done_late

    @property
    def progress(self) -> float:
        return self.state.progress

    @property
    def accuracy(self) -> float | None:
        """Right at the first try, of the questions answered (None before any)."""
        return self.first_try_right / self.questions if self.questions else None


@dataclass
class AssignmentReport:
    assignment: Assignment
    rows: list[WorkRow]
    now: datetime

    @property
    def counts(self) -> dict[str, int]:
        counts = dict.fromkeys(homework_status.STATUSES, 0)
        for row in self.rows:
            counts[row.status] += 1
        return counts

    @property
    def done_late(self) -> int:
        return sum(1 for row in self.rows if row.done_late)

    @property
    def past_due(self) -> bool:
        return self.now > accounts.as_utc(self.assignment.due_at)


def assignment_report(db: Session, assignment: Assignment, now: datetime) -> AssignmentReport:
    """Each assigned pupil's status and work, from the AssignmentWork summaries (no answers are scanned)."""
    pupils = classroom.assigned_pupils(db, assignment)
    work = {
        w.pupil_id: w for w in db.scalars(select(AssignmentWork).where(AssignmentWork.assignment_id == assignment.id))
    }
    levels: dict[int, homework_status.SkillNow] = {}
    if assignment.goal == "skill" and assignment.goal_skill:
        for record in db.scalars(
            select(SkillRecord)
            .join(Pupil, Pupil.id == SkillRecord.pupil_id)
            .where(Pupil.class_id == assignment.class_id, SkillRecord.skill == assignment.goal_skill)
        ):
            levels[record.pupil_id] = homework_status.skill_now(record, now)
    own_due = classroom.extensions_of(db, [assignment.id])
    rows = []
    for pupil in pupils:
        w = work.get(pupil.id)
        skill = levels.get(pupil.id, homework_status.NO_ANSWERS)
        row = WorkRow(
            PupilRef(pupil.id, pupil.public_id, pupil.name),
            homework_status.state(assignment, w, now, skill, own_due.get((assignment.id, pupil.id))),
            level=skill.level if assignment.goal == "skill" else None,
        )
        if w is not None:
            row.questions, row.first_try_right, row.games_finished, row.time_ms = (
                w.questions,
                w.first_try_right,
                w.games_finished,
                w.time_ms,
            )
            row.started_at, row.last_active_at, row.done_at = (
                as_utc_or_none(w.started_at),
                as_utc_or_none(w.last_active_at),
                as_utc_or_none(w.done_at),
            )
        rows.append(row)
    rows.sort(key=lambda r: (name_key(r.pupil.name), r.pupil.id))
    return AssignmentReport(assignment, rows, now)


def status_word(row: WorkRow) -> str:
    """The English status of a row: "handed in late" for a goal reached after the due time."""
    return DONE_LATE if row.done_late else STATUS_WORDS[row.status]
