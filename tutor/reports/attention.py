"""The class page's "needs attention" panel: pupils stuck on a skill, not playing, or behind on homework.

Three rules, each a reason a teacher can act on today:

* **stuck**: the pupil's latest :data:`STUCK_WRONG` first tries in one skill were all wrong (among
  their latest :data:`LATEST_FIRST_TRIES` first tries of the last :data:`STUCK_DAYS` days), with a
  link to the replay of the last of them;
* **inactive**: no lesson step for :data:`INACTIVE_DAYS` days or more (a pupil who has never played
  counts once they have been in the class that long);
* **behind**: homework whose due time (the pupil's own, if they were given a later one) has passed
  within the last :data:`DUE_WINDOW_DAYS` days without the goal reached: the status "late" of
  :mod:`tutor.homework_status`.

A fixed number of statements whatever the size of the class: the latest answers of every pupil
come in one statement (a UNION ALL of one small indexed read per pupil), the last activity in
one GROUP BY over the runs, the homework from the running summaries (:func:`class_homework`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import func, select, union_all
from sqlalchemy.orm import Session

from tutor import accounts, classroom, homework_status
from tutor.models import (
    Assignment,
    AssignmentExtension,
    AssignmentPupil,
    AssignmentWork,
    AttemptRecord,
    GroupMember,
    LessonRunRecord,
    Pupil,
    SchoolClass,
    SkillRecord,
)
from tutor.reports.common import PupilRef, as_utc_or_none, name_key

STUCK_WRONG = 3
LATEST_FIRST_TRIES = 30
STUCK_DAYS = 14
INACTIVE_DAYS = 7
DUE_WINDOW_DAYS = 14


# --- the class's homework, per pupil ---------------------------------------------------------
@dataclass(frozen=True)
class PupilHomework:
    """One assignment of one pupil, with its status."""

    assignment: Assignment
    state: homework_status.WorkState


def class_homework(
    db: Session, school_class: SchoolClass, pupil_ids: list[int], now: datetime, window_days: int = DUE_WINDOW_DAYS
) -> dict[int, list[PupilHomework]]:
    """Each pupil's current homework (due in the future, or within ``window_days`` days ago), soonest due first.

    Six statements whatever the class: the assignments, who chosen or grouped ones are for, the
    pupils' own due times, the work summaries and the records of the level goals' skills.
    """
    since = now - timedelta(days=window_days)
    extended_since = select(AssignmentExtension.assignment_id).where(AssignmentExtension.due_at >= since)
    assignments = list(
        db.scalars(
            select(Assignment)
            .where(
                Assignment.class_id == school_class.id,
                (Assignment.due_at >= since) | Assignment.id.in_(extended_since),
            )
            .order_by(Assignment.due_at, Assignment.id)
        )
    )
    result: dict[int, list[PupilHomework]] = {pupil_id: [] for pupil_id in pupil_ids}
    if not assignments:
        return result
    ids = [a.id for a in assignments]
    chosen: dict[int, set[int]] = defaultdict(set)
    for assignment_id, pupil_id in db.execute(
        select(AssignmentPupil.assignment_id, AssignmentPupil.pupil_id).where(AssignmentPupil.assignment_id.in_(ids))
    ):
        chosen[assignment_id].add(pupil_id)
    group_ids = {a.group_id for a in assignments if a.group_id is not None}
    members: dict[int, set[int]] = defaultdict(set)
    if group_ids:
        for group_id, pupil_id in db.execute(
            select(GroupMember.group_id, GroupMember.pupil_id).where(GroupMember.group_id.in_(group_ids))
        ):
            members[group_id].add(pupil_id)
    own_due = classroom.extensions_of(db, ids)
    work = {
        (w.assignment_id, w.pupil_id): w
        for w in db.scalars(select(AssignmentWork).where(AssignmentWork.assignment_id.in_(ids)))
    }
    goal_skills = {a.goal_skill for a in assignments if a.goal == "skill" and a.goal_skill}
    levels: dict[tuple[int, str], homework_status.SkillNow] = {}
    if goal_skills:
        for record in db.scalars(
            select(SkillRecord)
            .join(Pupil, Pupil.id == SkillRecord.pupil_id)
            .where(Pupil.class_id == school_class.id, SkillRecord.skill.in_(goal_skills))
        ):
            levels[(record.pupil_id, record.skill)] = homework_status.skill_now(record, now)
    for assignment in assignments:
        if assignment.everyone:
            reached = pupil_ids
        elif assignment.group_id is not None:
            reached = [p for p in pupil_ids if p in members[assignment.group_id]]
        else:
            reached = [p for p in pupil_ids if p in chosen[assignment.id]]
        for pupil_id in reached:
            due = own_due.get((assignment.id, pupil_id))
            if (due or accounts.as_utc(assignment.due_at)) < since:
                continue
            skill = levels.get((pupil_id, assignment.goal_skill), homework_status.NO_ANSWERS)
            state = homework_status.state(assignment, work.get((assignment.id, pupil_id)), now, skill, due)
            result[pupil_id].append(PupilHomework(assignment, state))
    for items in result.values():
        items.sort(key=lambda item: (item.state.due_at, item.assignment.id))
    return result


# --- last activity ---------------------------------------------------------------------------
def last_active(db: Session, school_class: SchoolClass) -> dict[int, datetime]:
    """Each pupil's last lesson step (a run is saved at every step), in one GROUP BY."""
    return {
        pupil_id: accounts.as_utc(moment)
        for pupil_id, moment in db.execute(
            select(LessonRunRecord.pupil_id, func.max(LessonRunRecord.updated_at))
            .join(Pupil, Pupil.id == LessonRunRecord.pupil_id)
            .where(Pupil.class_id == school_class.id)
            .group_by(LessonRunRecord.pupil_id)
        )
        if moment is not None
    }


# --- stuck -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Stuck:
    """Wrong first tries in a row in one skill, and where the last of them was asked."""

    skill: str
    wrong: int
    run_public_id: str | None
    move_index: int | None
    at: datetime


def latest_first_tries(db: Session, pupil_ids: list[int], since: datetime, limit: int = LATEST_FIRST_TRIES):
    """Each pupil's latest ``limit`` first tries since ``since``, newest first, in one statement.

    One small read per pupil on the index ``attempt(pupil_id, created_at)``, joined by UNION ALL:
    a window function over the week would read every answer of the class instead.
    """
    if not pupil_ids:
        return []
    parts = []
    for pupil_id in pupil_ids:
        latest = (
            select(
                AttemptRecord.id,
                AttemptRecord.pupil_id,
                AttemptRecord.skill,
                AttemptRecord.correct,
                AttemptRecord.run_id,
                AttemptRecord.move_index,
                AttemptRecord.created_at,
            )
            .where(
                AttemptRecord.pupil_id == pupil_id,
                AttemptRecord.created_at >= since,
                AttemptRecord.first_try.is_(True),
                AttemptRecord.readable.is_(True),
            )
            .order_by(AttemptRecord.created_at.desc(), AttemptRecord.id.desc())
            .limit(limit)
            .subquery()
        )
        parts.append(select(latest))
    answers = union_all(*parts).subquery()
    return db.execute(
        select(answers, LessonRunRecord.public_id)
        .outerjoin(LessonRunRecord, LessonRunRecord.id == answers.c.run_id)
        .order_by(answers.c.pupil_id, answers.c.created_at.desc(), answers.c.id.desc())
    ).all()


def stuck_skills(rows) -> dict[int, list[Stuck]]:
    """Per pupil, the skills whose latest first tries (newest first in ``rows``) are STUCK_WRONG or more wrong."""
    streaks: dict[tuple[int, str], list] = {}
    closed: set[tuple[int, str]] = set()
    for row in rows:
        key = (row.pupil_id, row.skill)
        if key in closed:
            continue
        if row.correct:
            closed.add(key)
            continue
        streaks.setdefault(key, []).append(row)
    result: dict[int, list[Stuck]] = defaultdict(list)
    for (pupil_id, skill), wrong in streaks.items():
        if len(wrong) >= STUCK_WRONG:
            last = wrong[0]
            result[pupil_id].append(
                Stuck(skill, len(wrong), last.public_id, last.move_index, accounts.as_utc(last.created_at))
            )
    for found in result.values():
        found.sort(key=lambda s: (-s.wrong, s.skill))
    return result


# --- the panel -------------------------------------------------------------------------------
@dataclass
class Attention:
    """One pupil who needs the teacher's attention, and why."""

    pupil: PupilRef
    stuck: list[Stuck] = field(default_factory=list)
    inactive_days: int | None = None  # days since the last step; None when not inactive
    never_played: bool = False
    behind: list[PupilHomework] = field(default_factory=list)

    @property
    def reasons(self) -> int:
        return len(self.stuck) + (self.inactive_days is not None or self.never_played) + len(self.behind)


@dataclass
class Panel:
    pupils: list[Attention]
    inactive_days: int
    stuck_wrong: int


def attention_panel(
    db: Session,
    school_class: SchoolClass,
    now: datetime,
    active: dict[int, datetime] | None = None,
    homework: dict[int, list[PupilHomework]] | None = None,
) -> Panel:
    """The pupils who need attention, most reasons first; the grid passes the activity and homework it has read."""
    pupils = db.execute(
        select(Pupil.id, Pupil.public_id, Pupil.name, Pupil.created_at).where(Pupil.class_id == school_class.id)
    ).all()
    ids = [pupil.id for pupil in pupils]
    active = last_active(db, school_class) if active is None else active
    homework = class_homework(db, school_class, ids, now) if homework is None else homework
    stuck = stuck_skills(latest_first_tries(db, ids, now - timedelta(days=STUCK_DAYS)))
    result = []
    for pupil_id, public_id, name, joined_at in pupils:
        entry = Attention(PupilRef(pupil_id, public_id, name), stuck=stuck.get(pupil_id, []))
        last = active.get(pupil_id)
        if last is not None and now - last >= timedelta(days=INACTIVE_DAYS):
            entry.inactive_days = (now - last).days
        joined_at = as_utc_or_none(joined_at)
        if last is None and joined_at is not None and now - joined_at >= timedelta(days=INACTIVE_DAYS):
            entry.never_played = True
        entry.behind = [item for item in homework.get(pupil_id, []) if item.state.late]
        if entry.reasons:
            result.append(entry)
    result.sort(key=lambda a: (-a.reasons, name_key(a.pupil.name), a.pupil.id))
    return Panel(result, INACTIVE_DAYS, STUCK_WRONG)
