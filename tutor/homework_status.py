"""What one pupil's work on one homework amounts to: one definition of each status per goal kind.

The assignment page, the class grid's homework column, the needs-attention panel, the pupil's
homework list, the teacher's pupil page and the CSV all ask :func:`state`, so they cannot
disagree. The counts are the homework's own (:class:`tutor.models.AssignmentWork`: the games
finished and the first tries in lessons started from it); a level is the pupil's level in the
skill as the class grid shows it (:func:`tutor.skill_model.skills.level` with the record's own
threshold, and :func:`~tutor.skill_model.skills.needs_help`).

=========  =============================  =================================  ==============================
goal       progress                       done                               needs help
=========  =============================  =================================  ==============================
games      games finished / goal          games finished >= goal             6 or more first tries in the
                                                                             homework, fewer than half right
questions  questions answered / goal      questions answered >= goal         as for games
skill      level / goal level (levels     the level is at least the goal     the skill model says the pupil
           counted from "not started")    level now, or it was reached in    needs help in the goal skill
                                          a game of the homework             (the grid's mark)
=========  =============================  =================================  ==============================

A pupil who is done has progress 1. Not started: no step in the homework yet and, for a level
goal, no answer in its skill anywhere (so "not started" always has progress 0). Late: not done
and the pupil's due time has passed (their own, when the teacher gave them a later one). Done
outranks late, and late outranks the others. Done after the due time is "handed in late"; a
level reached outside the homework's games has no known moment, so it is never marked late.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from tutor import accounts
from tutor.models import Assignment, AssignmentWork
from tutor.skill_model import skills

NOT_STARTED, IN_PROGRESS, NEEDS_HELP, DONE, LATE = STATUSES = (
    "not_started",
    "in_progress",
    "needs_help",
    "done",
    "late",
)
GOALS = ("games", "questions", "skill")
#: A games or questions goal "needs help" once this many first tries are in and fewer than half were right.
NEEDS_HELP_QUESTIONS, NEEDS_HELP_ACCURACY = 6, 0.5


@dataclass(frozen=True)
class SkillNow:
    """A pupil's level in one skill now, and whether the skill model says they need help with it."""

    level: str = skills.NOT_STARTED
    needs_help: bool = False
    attempts: int = 0


NO_ANSWERS = SkillNow()


def skill_now(record, now: datetime | None) -> SkillNow:
    """The level and the needs-help mark of a skill record at ``now``, as the class grid shows them
    (:func:`tutor.skill_model.skills.record_level`: evidence ages, mastered may wait for a typed answer)."""
    return SkillNow(
        skills.record_level(record, now), skills.needs_help(record.p_known, record.attempts), record.attempts
    )


@dataclass(frozen=True)
class WorkState:
    """One pupil's homework as a teacher acts on it."""

    status: str  # one of STATUSES
    progress: float  # 0..1 towards the goal
    done_late: bool  # done, and the goal was reached after the due time
    due_at: datetime  # the pupil's due time (UTC)
    extended: bool  # the pupil has a due time of their own

    @property
    def done(self) -> bool:
        return self.status == DONE

    @property
    def late(self) -> bool:
        """Not done and past the due time."""
        return self.status == LATE


def progress(assignment: Assignment, work: AssignmentWork | None, skill: SkillNow) -> float:
    """How far towards the goal, 0..1, from the counts or the level (done or not)."""
    if assignment.goal == "skill":
        target = skills.LEVELS.index(assignment.goal_level)
        return min(1.0, skills.LEVELS.index(skill.level) / target)
    done = 0 if work is None else (work.games_finished if assignment.goal == "games" else work.questions)
    return min(1.0, done / max(1, assignment.goal_count))


def reached(assignment: Assignment, work: AssignmentWork | None, skill: SkillNow) -> bool:
    """Whether the goal is reached: the count, or the level now (a level reached in the homework also stays)."""
    if assignment.goal == "skill":
        now_there = skills.LEVELS.index(skill.level) >= skills.LEVELS.index(assignment.goal_level)
        return now_there or (work is not None and work.done_at is not None)
    return work is not None and progress(assignment, work, skill) >= 1.0


def needs_help(assignment: Assignment, work: AssignmentWork | None, skill: SkillNow) -> bool:
    """The goal kind's sign that the teacher should step in (see the module's table)."""
    if assignment.goal == "skill":
        return skill.needs_help
    return (
        work is not None
        and work.questions >= NEEDS_HELP_QUESTIONS
        and work.first_try_right < NEEDS_HELP_ACCURACY * work.questions
    )


def started(assignment: Assignment, work: AssignmentWork | None, skill: SkillNow) -> bool:
    return work is not None or (assignment.goal == "skill" and skill.attempts > 0)


def state(
    assignment: Assignment,
    work: AssignmentWork | None,
    now: datetime,
    skill: SkillNow = NO_ANSWERS,
    due_at: datetime | None = None,
) -> WorkState:
    """The status and progress of one pupil's work; ``due_at`` is the pupil's own due time, if they have one."""
    due = accounts.as_utc(due_at or assignment.due_at)
    extended = due_at is not None
    if reached(assignment, work, skill):
        done_at = work.done_at if work is not None else None
        late = done_at is not None and accounts.as_utc(done_at) > due
        return WorkState(DONE, 1.0, late, due, extended)
    share = progress(assignment, work, skill)
    if accounts.as_utc(now) > due:
        status = LATE
    elif not started(assignment, work, skill):
        status = NOT_STARTED
    elif needs_help(assignment, work, skill):
        status = NEEDS_HELP
    else:
        status = IN_PROGRESS
    return WorkState(status, share, False, due, extended)
