"""The pupil page: skill history and its chart, current levels, recent answers, runs, homework."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy import case, func, literal_column, select
from sqlalchemy.orm import Session

from tutor import accounts, classroom, homework_status
from tutor.models import (
    Assignment,
    AttemptRecord,
    LessonRunRecord,
    Pupil,
    SkillRecord,
    utcnow,
)
from tutor.reports.common import as_utc_or_none, choice_label, grid_skill_ids, question_prompt, teacher_description
from tutor.reports.grid import EMPTY_CELL, Cell, cell_of
from tutor.skill_model import skills
from tutor.text import Text

# --- pupil page -----------------------------------------------------------------------------
HISTORY_WEEKS = 8


@dataclass
class History:
    """The pupil's estimate per skill at the end of each day (local time) with answers."""

    first_day: date
    last_day: date
    values: dict[str, dict[date, float]]  # skill -> day -> P(known) after the day's last first try

    @property
    def skills(self) -> list[str]:
        order = {skill: i for i, skill in enumerate(skills.SKILLS)}
        return sorted(self.values, key=lambda s: (order.get(s, len(order)), s))

    @property
    def days(self) -> list[date]:
        """The days with any data, oldest first."""
        return sorted({day for by_day in self.values.values() for day in by_day})


def day_starts(first_day: date, days: int, timezone_name: str) -> list[datetime]:
    """The UTC instants at which each local day from ``first_day`` begins (``days + 1`` of them)."""
    zone = classroom.zone(timezone_name)
    return [
        datetime.combine(first_day + timedelta(days=i), time(0), tzinfo=zone).astimezone(UTC) for i in range(days + 1)
    ]


def _day_index(column, starts: list[datetime], low: int, high: int):
    """The index ``i`` (``low <= i < high``) with ``starts[i] <= column < starts[i + 1]``, as a CASE
    tree that halves the range at each step: about six comparisons per answer for 56 days."""
    if high - low == 1:
        return literal_column(str(int(low)))
    middle = (low + high) // 2
    return case(
        (column < starts[middle], _day_index(column, starts, low, middle)),
        else_=_day_index(column, starts, middle, high),
    )


def skill_history(db: Session, pupil_id: int, timezone_name: str, now: datetime, weeks: int = HISTORY_WEEKS) -> History:
    """P(known) per skill and local day over the last ``weeks`` weeks, from first tries' ``p_known_after``.

    Grouped in SQL (one statement, portable): each answer gets the index of its local day by
    comparing ``created_at`` with the days' UTC starts (so daylight saving time is right), and the
    day's latest answer per skill gives the value.
    """
    today = accounts.as_utc(now).astimezone(classroom.zone(timezone_name)).date()
    count = weeks * 7
    first = today - timedelta(days=count - 1)
    starts = day_starts(first, count, timezone_name)
    day = _day_index(AttemptRecord.created_at, starts, 0, count)
    numbered = (
        select(AttemptRecord.id, AttemptRecord.skill, day.label("day"))
        .where(
            AttemptRecord.pupil_id == pupil_id,
            AttemptRecord.created_at >= starts[0],
            AttemptRecord.created_at < starts[-1],
            AttemptRecord.first_try.is_(True),
            AttemptRecord.p_known_after.is_not(None),
        )
        .subquery()
    )
    last = (
        select(numbered.c.skill, numbered.c.day, func.max(numbered.c.id).label("last_id"))
        .group_by(numbered.c.skill, numbered.c.day)
        .subquery()
    )
    values: dict[str, dict[date, float]] = defaultdict(dict)
    for skill, index, p_known in db.execute(
        select(last.c.skill, last.c.day, AttemptRecord.p_known_after).join(
            AttemptRecord, AttemptRecord.id == last.c.last_id
        )
    ):
        if index is not None:
            values[skill][first + timedelta(days=int(index))] = p_known
    return History(first, today, dict(values))


@dataclass
class ChartLine:
    skill: str
    style: int
    points: list[tuple[float, float, date, float]]  # x, y, day, P(known)

    @property
    def path(self) -> str:
        return " ".join(f"{x:.1f},{y:.1f}" for x, y, _, _ in self.points)


@dataclass
class Chart:
    """Coordinates for the pupil page's SVG: one line per skill, days along, P(known) up."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    lines: list[ChartLine]
    x_ticks: list[tuple[float, date]]
    y_ticks: list[tuple[float, float, str]]  # y, value, level at that threshold

    @property
    def plot_right(self) -> int:
        return self.width - self.right

    @property
    def plot_bottom(self) -> int:
        return self.height - self.bottom


def chart(
    history: History, width: int = 720, height: int = 320, mastery: float = skills.DEFAULT_PARAMS.mastery
) -> Chart:
    left, right, top, bottom = 48, 110, 16, 40
    span = max(1, (history.last_day - history.first_day).days)
    plot_w, plot_h = width - left - right, height - top - bottom

    def x_of(day: date) -> float:
        return left + plot_w * (day - history.first_day).days / span

    def y_of(p: float) -> float:
        return top + plot_h * (1 - min(max(p, 0.0), 1.0))

    lines = []
    for style, skill in enumerate(history.skills):
        by_day = history.values[skill]
        lines.append(
            ChartLine(skill, style, [(x_of(day), y_of(by_day[day]), day, by_day[day]) for day in sorted(by_day)])
        )
    x_ticks = [
        (x_of(history.first_day + timedelta(days=d)), history.first_day + timedelta(days=d))
        for d in range(0, span + 1, 7)
    ]
    thresholds = [
        (0.0, skills.ATTEMPTED),
        (skills.FAMILIAR_FROM, skills.FAMILIAR),
        (skills.PROFICIENT_FROM, skills.PROFICIENT),
        (mastery, skills.MASTERED),
    ]
    y_ticks = [(y_of(p), p, level) for p, level in thresholds]
    return Chart(width, height, left, right, top, bottom, lines, x_ticks, y_ticks)


def pupil_skills(db: Session, pupil_id: int) -> list[tuple[str, Cell]]:
    """The pupil's current level in every skill the games practise, and in any other they answered."""
    records = {r.skill: r for r in db.scalars(select(SkillRecord).where(SkillRecord.pupil_id == pupil_id))}
    shown = [skill for skill in skills.SKILLS if skill in grid_skill_ids() or skill in records]
    shown += sorted(skill for skill in records if skill not in shown)
    now = utcnow()
    return [(skill, cell_of(records[skill], now) if skill in records else EMPTY_CELL) for skill in shown]


@dataclass
class AnswerRow:
    at: datetime
    skill: str
    kind: str
    prompt: Text | None
    typed: str
    read_as: str | None
    chosen: Text | None  # the button's label, for a choice question
    readable: bool
    error_code: str | None
    correct: bool
    first_try: bool
    hints_used: int
    time_ms: int
    misconception: Text | None  # described for the teacher, not the feedback sentence the child saw
    run_public_id: str | None


RECENT_ANSWERS = 30


def recent_answers(db: Session, pupil_id: int, limit: int = RECENT_ANSWERS) -> list[AnswerRow]:
    """The pupil's last answers, newest first. An unreadable answer has only its refusal code."""
    rows = db.execute(
        select(AttemptRecord, LessonRunRecord.public_id)
        .outerjoin(LessonRunRecord, LessonRunRecord.id == AttemptRecord.run_id)
        .where(AttemptRecord.pupil_id == pupil_id)
        .order_by(AttemptRecord.created_at.desc(), AttemptRecord.id.desc())
        .limit(limit)
    )
    result = []
    for a, run_public_id in rows:
        readable = bool(a.readable)
        result.append(
            AnswerRow(
                at=as_utc_or_none(a.created_at),
                skill=a.skill,
                kind=a.question_kind,
                prompt=question_prompt(a.question),
                typed=a.typed if readable else "",
                read_as=a.read_as if readable else None,
                chosen=choice_label(a.question, a.typed) if readable else None,
                readable=readable,
                error_code=None if readable else (a.error_code or ""),
                correct=bool(a.correct),
                first_try=bool(a.first_try),
                hints_used=a.hints_used or 0,
                time_ms=a.time_ms or 0,
                misconception=teacher_description(a.question_kind, a.misconception) if a.misconception else None,
                run_public_id=run_public_id,
            )
        )
    return result


@dataclass
class RunRow:
    public_id: str
    game_id: str
    stage: str
    started_at: datetime
    finished_at: datetime | None
    questions: int
    homework: bool


RECENT_RUNS = 20


def lesson_runs(db: Session, pupil_id: int, limit: int = RECENT_RUNS) -> tuple[list[RunRow], int]:
    """The pupil's latest lesson runs (without moves) with the questions answered in each, and how many there are."""
    runs = db.execute(
        select(
            LessonRunRecord.id,
            LessonRunRecord.public_id,
            LessonRunRecord.game_id,
            LessonRunRecord.stage,
            LessonRunRecord.created_at,
            LessonRunRecord.finished_at,
            LessonRunRecord.assignment_id,
        )
        .where(LessonRunRecord.pupil_id == pupil_id)
        .order_by(LessonRunRecord.created_at.desc(), LessonRunRecord.id.desc())
        .limit(limit)
    ).all()
    total = db.scalar(select(func.count(LessonRunRecord.id)).where(LessonRunRecord.pupil_id == pupil_id)) or 0
    ids = [run.id for run in runs]
    questions = (
        dict(
            db.execute(
                select(AttemptRecord.run_id, func.count(AttemptRecord.id))
                .where(AttemptRecord.run_id.in_(ids), AttemptRecord.first_try.is_(True))
                .group_by(AttemptRecord.run_id)
            ).all()
        )
        if ids
        else {}
    )
    rows = [
        RunRow(
            r.public_id,
            r.game_id,
            r.stage,
            as_utc_or_none(r.created_at),
            as_utc_or_none(r.finished_at),
            questions.get(r.id, 0),
            r.assignment_id is not None,
        )
        for r in runs
    ]
    return rows, total


@dataclass
class HomeworkRow:
    assignment: Assignment
    state: homework_status.WorkState
    questions: int
    first_try_right: int

    @property
    def status(self) -> str:
        return self.state.status

    @property
    def done_late(self) -> bool:
        return self.state.done_late

    @property
    def progress(self) -> float:
        return self.state.progress


def pupil_homework(db: Session, pupil: Pupil, now: datetime) -> list[HomeworkRow]:
    """The pupil's homework with its status, as the assignment page shows it."""
    return [
        HomeworkRow(
            item.assignment,
            item.state,
            item.work.questions if item.work else 0,
            item.work.first_try_right if item.work else 0,
        )
        for item in classroom.homework_of(db, pupil, now)
    ]
