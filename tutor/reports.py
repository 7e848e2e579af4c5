"""What the teacher's dashboards read: class grid, assignment view, pupil page, misconceptions, CSV.

Plain SQLAlchemy, no Flask: the web pages and the ``kortmatte`` command share it. Every
report runs a fixed number of statements whatever the size of the class:

* class grid: the class's pupils, then all their skill records in one query;
* assignment view: the assigned pupils, their :class:`AssignmentWork` summaries (and, for a
  skill goal, their records in that skill): no answers are counted again;
* misconception report: one GROUP BY over the week's readable answers of the class, filtered
  on ``pupil_id IN (the class)`` and ``created_at`` within the week (the index
  ``attempt(pupil_id, created_at)`` serves it), then the few example answers read by id;
* pupil page: skill history (grouped per local day in SQL), current records, the last answers,
  lesson runs with their question counts, homework.

Texts are English source strings marked with :func:`tutor.text.N_` or :class:`Text` values;
the web layer translates them, the command line shows them in English.

CSV files: UTF-8 with a byte order mark (so Excel reads the accents), a header row, and the
delimiter that the teacher's spreadsheet expects by default: ``;`` where the decimal sign is a
comma (nb, sv, it), ``,`` for English. Any cell starting with ``= + - @`` (or a tab or carriage
return) gets a leading apostrophe, so a spreadsheet never runs it as a formula.
"""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone
from functools import lru_cache
from typing import Callable

from sqlalchemy import case, func, literal_column, select
from sqlalchemy.orm import Session

from tutor import accounts, classroom, content, skills
from tutor.drills import Question, Text, texts
from tutor.lessons import LESSONS
from tutor.models import (
    Assignment,
    AssignmentWork,
    AttemptRecord,
    ClassTeacher,
    LessonRunRecord,
    Pupil,
    SchoolClass,
    SkillRecord,
    Teacher,
)
from tutor.text import N_

Gettext = Callable[[str], str]


def _same(message: str) -> str:
    return message


# --- words ----------------------------------------------------------------------------------
#: Level words (the same source text as the web's LEVEL_NAMES, so one translation serves both).
LEVEL_WORDS = {
    "not_started": N_("not started"),
    "attempted": N_("attempted"),
    "familiar": N_("familiar"),
    "proficient": N_("proficient"),
    "mastered": N_("mastered"),
    "needs_help": N_("needs help"),
}
#: Homework statuses in words; a goal reached after the due time is "handed in late".
STATUS_WORDS = {
    "not_started": N_("not started"),
    "in_progress": N_("in progress"),
    "needs_help": N_("needs help"),
    "done": N_("done"),
    "late": N_("late"),
}
DONE_LATE = N_("handed in late")

#: A short description for the teacher of each reason an answer could not be read
#: (the codes of :data:`tutor.answers.MESSAGES`, and ``not_a_choice`` for buttons).
ERROR_DESCRIPTIONS = {
    "empty": N_("nothing typed"),
    "too_long": N_("too long to read"),
    "letters": N_("letters instead of numbers"),
    "other_digits": N_("digits from another script"),
    "equals_sign": N_("an = sign in the answer"),
    "power_not_allowed": N_("a power sign"),
    "factorial_not_allowed": N_("a factorial sign"),
    "percent_not_allowed": N_("a percent sign"),
    "bad_character": N_("a sign that is not allowed"),
    "hidden_character": N_("a hidden character"),
    "too_many_digits": N_("a number with too many digits"),
    "ambiguous_decimal": N_("unclear decimal or thousands sign"),
    "decimal_comma": N_("a decimal comma where a point is used"),
    "bad_number": N_("a number that could not be read"),
    "brackets_not_allowed": N_("brackets where one number was asked"),
    "unbalanced_brackets": N_("brackets that do not match"),
    "too_deep": N_("too many brackets inside brackets"),
    "too_many_operators": N_("too many signs"),
    "operator_not_allowed": N_("a sign that cannot be used here"),
    "missing_number": N_("a number missing next to a sign"),
    "empty_brackets": N_("empty brackets"),
    "missing_operator": N_("two numbers without a sign between"),
    "spaced_number": N_("a number with spaces in it"),
    "bad_fraction": N_("a fraction written the wrong way"),
    "bad_mixed_number": N_("a mixed number with too big a fraction"),
    "zero_denominator": N_("a fraction with 0 under the line"),
    "division_by_zero": N_("division by zero"),
    "not_a_choice": N_("not one of the buttons"),
}
UNKNOWN_ERROR = N_("an unknown reason")


def error_description(code: str | None) -> str:
    """The English description of a refusal code (translate it where it is shown)."""
    return ERROR_DESCRIPTIONS.get(code or "", UNKNOWN_ERROR)


# --- shared pieces --------------------------------------------------------------------------
@dataclass(frozen=True)
class PupilRef:
    """What a dashboard shows of a pupil: the first name and the id for links."""

    id: int
    public_id: str
    name: str


@lru_cache(maxsize=1)
def _grid_skills() -> tuple[str, ...]:
    practised = {skill for game_id in LESSONS for skill in classroom.game_skills(game_id)}
    return tuple(skill for skill in skills.SKILLS if skill in practised)


def grid_skills() -> list[str]:
    """The skills the registered games practise, in ``content/skills.toml`` order."""
    return list(_grid_skills())


def _utc(moment: datetime | None) -> datetime | None:
    return accounts.as_utc(moment) if moment is not None else None


def _name_key(name: str) -> str:
    return name.casefold()


def question_prompt(question: dict | None) -> Text | None:
    """The prompt of a stored question, or None when the stored form cannot be read."""
    if not question:
        return None
    try:
        return Question.from_dict(question).prompt
    except (KeyError, TypeError, ValueError):
        try:
            return Text.from_dict(question["prompt"])
        except (KeyError, TypeError, ValueError):
            return None


def choice_label(question: dict | None, value: str | None) -> Text | None:
    """The label of the button a pupil chose (choice questions store the button's value)."""
    if not question or value is None or question.get("answer") != "choice":
        return None
    for choice in question.get("choices", []):
        if str(choice.get("value")) == str(value) and isinstance(choice.get("label"), dict):
            try:
                return Text.from_dict(choice["label"])
            except (KeyError, TypeError, ValueError):
                return None
    return None


def misconception_text(kind: str, misconception_id: str, question: dict | None) -> Text | None:
    """The misconception's feedback text from the drill content, with the question's first hint's fields."""
    try:
        msgid = texts(kind)["misconceptions"][misconception_id]
    except KeyError:
        return None
    params = {}
    hints = (question or {}).get("hints") or []
    if hints and isinstance(hints[0], dict):
        params = dict(hints[0].get("params") or {})
    return Text(msgid, params)


# --- class grid -----------------------------------------------------------------------------
SORT_HELP, SORT_NAME = "help", "name"
DEFAULT_SORT = SORT_HELP


@dataclass(frozen=True)
class Cell:
    """One pupil's level in one skill."""

    level: str
    needs_help: bool = False
    p_known: float | None = None
    attempts: int = 0

    @property
    def status(self) -> str:
        return "needs_help" if self.needs_help else self.level


EMPTY_CELL = Cell(skills.NOT_STARTED)


def cell_of(p_known: float | None, attempts: int, mastery: float) -> Cell:
    return Cell(skills.level(p_known, attempts, mastery), skills.needs_help(p_known, attempts), p_known, attempts)


@dataclass
class GridRow:
    pupil: PupilRef
    cells: dict[str, Cell]

    def cell(self, skill: str) -> Cell:
        return self.cells.get(skill, EMPTY_CELL)

    @property
    def needs_help(self) -> list[str]:
        """The skills this pupil needs help with."""
        return [skill for skill, cell in self.cells.items() if cell.needs_help]


@dataclass
class Grid:
    skills: list[str]
    rows: list[GridRow]
    sort: str  # the sort applied: "help", "name" or a skill id

    @property
    def pupils_needing_help(self) -> int:
        return sum(1 for row in self.rows if row.needs_help)

    def needs_help_count(self, skill: str) -> int:
        return sum(1 for row in self.rows if row.cell(skill).needs_help)

    def level_counts(self, skill: str) -> dict[str, int]:
        counts = dict.fromkeys(skills.LEVELS, 0)
        for row in self.rows:
            counts[row.cell(skill).level] += 1
        return counts


def grid_sort(value: str | None) -> str:
    """The sort to apply for a query value; anything unknown sorts by "needs help"."""
    if value in (SORT_HELP, SORT_NAME) or value in _grid_skills():
        return value
    return DEFAULT_SORT


def sort_rows(rows: list[GridRow], sort: str) -> list[GridRow]:
    """Needs help: most skills needing help first. Name: A to Z. A skill: weakest first."""
    if sort == SORT_NAME:
        return sorted(rows, key=lambda r: (_name_key(r.pupil.name), r.pupil.id))
    if sort in _grid_skills():

        def weakest(row: GridRow):
            cell = row.cell(sort)
            return (not cell.needs_help, skills.LEVELS.index(cell.level), cell.p_known if cell.p_known is not None else -1.0, _name_key(row.pupil.name), row.pupil.id)

        return sorted(rows, key=weakest)
    return sorted(rows, key=lambda r: (-len(r.needs_help), _name_key(r.pupil.name), r.pupil.id))


def class_grid(db: Session, school_class: SchoolClass, sort: str | None = None) -> Grid:
    """Every pupil of the class by every skill the games practise (two queries)."""
    columns = grid_skills()
    pupils = db.execute(select(Pupil.id, Pupil.public_id, Pupil.name).where(Pupil.class_id == school_class.id)).all()
    rows = {pupil_id: GridRow(PupilRef(pupil_id, public_id, name), {}) for pupil_id, public_id, name in pupils}
    records = db.execute(
        select(SkillRecord.pupil_id, SkillRecord.skill, SkillRecord.p_known, SkillRecord.attempts, SkillRecord.mastery_threshold)
        .join(Pupil, Pupil.id == SkillRecord.pupil_id)
        .where(Pupil.class_id == school_class.id, SkillRecord.skill.in_(columns))
    )
    for pupil_id, skill, p_known, attempts, mastery in records:
        if pupil_id in rows:
            rows[pupil_id].cells[skill] = cell_of(p_known, attempts, mastery)
    chosen = grid_sort(sort)
    return Grid(columns, sort_rows(list(rows.values()), chosen), chosen)


# --- assignment view ------------------------------------------------------------------------
@dataclass
class WorkRow:
    pupil: PupilRef
    status: str  # one of classroom.WORK_STATUSES
    done_late: bool  # the goal was reached, but after the due time
    progress: float
    questions: int = 0
    first_try_right: int = 0
    games_finished: int = 0
    time_ms: int = 0
    started_at: datetime | None = None
    last_active_at: datetime | None = None
    done_at: datetime | None = None

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
        counts = dict.fromkeys(classroom.WORK_STATUSES, 0)
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
    work = {w.pupil_id: w for w in db.scalars(select(AssignmentWork).where(AssignmentWork.assignment_id == assignment.id))}
    levels: dict[int, str] = {}
    if assignment.goal == "skill" and assignment.goal_skill:
        for pupil_id, p_known, attempts, mastery in db.execute(
            select(SkillRecord.pupil_id, SkillRecord.p_known, SkillRecord.attempts, SkillRecord.mastery_threshold)
            .join(Pupil, Pupil.id == SkillRecord.pupil_id)
            .where(Pupil.class_id == assignment.class_id, SkillRecord.skill == assignment.goal_skill)
        ):
            levels[pupil_id] = skills.level(p_known, attempts, mastery)
    due = accounts.as_utc(assignment.due_at)
    rows = []
    for pupil in pupils:
        w = work.get(pupil.id)
        status = classroom.work_status(assignment, w, now)
        done_at = _utc(w.done_at) if w else None
        row = WorkRow(
            PupilRef(pupil.id, pupil.public_id, pupil.name),
            status,
            done_late=done_at is not None and done_at > due,
            progress=classroom.progress(assignment, w, levels.get(pupil.id, skills.NOT_STARTED)),
        )
        if w is not None:
            row.questions, row.first_try_right, row.games_finished, row.time_ms = w.questions, w.first_try_right, w.games_finished, w.time_ms
            row.started_at, row.last_active_at, row.done_at = _utc(w.started_at), _utc(w.last_active_at), done_at
        rows.append(row)
    rows.sort(key=lambda r: (_name_key(r.pupil.name), r.pupil.id))
    return AssignmentReport(assignment, rows, now)


def status_word(row: WorkRow) -> str:
    """The English status of a row: "handed in late" for a goal reached after the due time."""
    return DONE_LATE if row.done_late else STATUS_WORDS[row.status]


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
    return [datetime.combine(first_day + timedelta(days=i), time(0), tzinfo=zone).astimezone(timezone.utc) for i in range(days + 1)]


def _day_index(column, starts: list[datetime], low: int, high: int):
    """The index ``i`` (``low <= i < high``) with ``starts[i] <= column < starts[i + 1]``, as a CASE
    tree that halves the range at each step: about six comparisons per answer for 56 days."""
    if high - low == 1:
        return literal_column(str(int(low)))
    middle = (low + high) // 2
    return case((column < starts[middle], _day_index(column, starts, low, middle)), else_=_day_index(column, starts, middle, high))


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
    last = select(numbered.c.skill, numbered.c.day, func.max(numbered.c.id).label("last_id")).group_by(numbered.c.skill, numbered.c.day).subquery()
    values: dict[str, dict[date, float]] = defaultdict(dict)
    for skill, index, p_known in db.execute(select(last.c.skill, last.c.day, AttemptRecord.p_known_after).join(AttemptRecord, AttemptRecord.id == last.c.last_id)):
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


def chart(history: History, width: int = 720, height: int = 320, mastery: float = skills.DEFAULT_PARAMS.mastery) -> Chart:
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
        lines.append(ChartLine(skill, style, [(x_of(day), y_of(by_day[day]), day, by_day[day]) for day in sorted(by_day)]))
    x_ticks = [(x_of(history.first_day + timedelta(days=d)), history.first_day + timedelta(days=d)) for d in range(0, span + 1, 7)]
    thresholds = [(0.0, skills.ATTEMPTED), (skills.FAMILIAR_FROM, skills.FAMILIAR), (skills.PROFICIENT_FROM, skills.PROFICIENT), (mastery, skills.MASTERED)]
    y_ticks = [(y_of(p), p, level) for p, level in thresholds]
    return Chart(width, height, left, right, top, bottom, lines, x_ticks, y_ticks)


def pupil_skills(db: Session, pupil_id: int) -> list[tuple[str, Cell]]:
    """The pupil's current level in every skill the games practise, and in any other they answered."""
    records = {r.skill: r for r in db.scalars(select(SkillRecord).where(SkillRecord.pupil_id == pupil_id))}
    shown = [skill for skill in skills.SKILLS if skill in _grid_skills() or skill in records]
    shown += sorted(skill for skill in records if skill not in shown)
    result = []
    for skill in shown:
        record = records.get(skill)
        result.append((skill, cell_of(record.p_known, record.attempts, record.mastery_threshold) if record else EMPTY_CELL))
    return result


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
    misconception: Text | None
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
                at=_utc(a.created_at),
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
                misconception=misconception_text(a.question_kind, a.misconception, a.question) if a.misconception else None,
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
    """The pupil's latest lesson runs (without their moves) with the questions answered in each, and how many runs there are."""
    runs = db.execute(
        select(LessonRunRecord.id, LessonRunRecord.public_id, LessonRunRecord.game_id, LessonRunRecord.stage, LessonRunRecord.created_at, LessonRunRecord.finished_at, LessonRunRecord.assignment_id)
        .where(LessonRunRecord.pupil_id == pupil_id)
        .order_by(LessonRunRecord.created_at.desc(), LessonRunRecord.id.desc())
        .limit(limit)
    ).all()
    total = db.scalar(select(func.count(LessonRunRecord.id)).where(LessonRunRecord.pupil_id == pupil_id)) or 0
    ids = [run.id for run in runs]
    questions = dict(
        db.execute(select(AttemptRecord.run_id, func.count(AttemptRecord.id)).where(AttemptRecord.run_id.in_(ids), AttemptRecord.first_try.is_(True)).group_by(AttemptRecord.run_id)).all()
    ) if ids else {}
    rows = [RunRow(r.public_id, r.game_id, r.stage, _utc(r.created_at), _utc(r.finished_at), questions.get(r.id, 0), r.assignment_id is not None) for r in runs]
    return rows, total


@dataclass
class HomeworkRow:
    assignment: Assignment
    status: str
    done_late: bool
    progress: float
    questions: int
    first_try_right: int


def pupil_homework(db: Session, pupil: Pupil, now: datetime) -> list[HomeworkRow]:
    result = []
    for item in classroom.homework_of(db, pupil):
        work = item.work
        done_at = _utc(work.done_at) if work and work.done_at else None
        result.append(
            HomeworkRow(
                item.assignment,
                classroom.work_status(item.assignment, work, now),
                done_at is not None and done_at > accounts.as_utc(item.assignment.due_at),
                item.progress(),
                work.questions if work else 0,
                work.first_try_right if work else 0,
            )
        )
    return result


# --- misconception report -------------------------------------------------------------------
WEEK_PATTERN = re.compile(r"^\s*([0-9]{4})-?W([0-9]{1,2})\s*$", re.IGNORECASE)
TOP_MISCONCEPTIONS = 5  # per skill
TOP_QUESTIONS = 10
EXAMPLES = 3


def week_of(moment: datetime, timezone_name: str) -> tuple[int, int]:
    year, week, _ = accounts.as_utc(moment).astimezone(classroom.zone(timezone_name)).isocalendar()
    return year, week


def parse_week(value: str | None) -> tuple[int, int] | None:
    """``2026-W47`` (or ``2026W47``) as (year, week); None for anything else or a week that does not exist."""
    match = WEEK_PATTERN.match(str(value or ""))
    if not match:
        return None
    year, week = int(match.group(1)), int(match.group(2))
    if not 1900 <= year <= 9998:
        return None
    try:
        date.fromisocalendar(year, week, 1)
    except ValueError:
        return None
    return year, week


def week_label(year: int, week: int) -> str:
    return f"{year:04d}-W{week:02d}"


@dataclass
class Example:
    prompt: Text | None
    typed: str
    read_as: str | None
    chosen: Text | None


@dataclass
class MisconceptionRow:
    skill: str
    kind: str
    misconception: str
    count: int
    text: Text | None
    examples: list[Example] = field(default_factory=list)


@dataclass
class QuestionRow:
    skill: str
    kind: str
    answers: int
    wrong: int
    example: Text | None

    @property
    def wrong_rate(self) -> float:
        return self.wrong / self.answers if self.answers else 0.0


@dataclass
class MisconceptionReport:
    year: int
    week: int
    valid: bool  # False when the asked week could not be read and the current week is shown
    monday: date
    start: datetime
    end: datetime
    by_skill: list[tuple[str, list[MisconceptionRow]]]
    questions: list[QuestionRow]
    answers: int
    wrong: int

    @property
    def label(self) -> str:
        return week_label(self.year, self.week)

    @property
    def sunday(self) -> date:
        return self.monday + timedelta(days=6)

    @property
    def previous(self) -> str:
        return week_label(*(self.monday - timedelta(days=7)).isocalendar()[:2])

    @property
    def next(self) -> str | None:
        later = self.monday + timedelta(days=7)
        return week_label(*later.isocalendar()[:2]) if later.year <= 9998 else None


def misconception_report(db: Session, school_class: SchoolClass, week: str | None, now: datetime) -> MisconceptionReport:
    """The week's most frequent misconceptions per skill and the questions most often answered wrong.

    Two statements. A GROUP BY over the week's readable answers of the class (by skill, question
    kind, misconception and, for a misconception, the value typed) counts answers and wrong
    answers and keeps each group's latest wrong answer; then the few answers shown as examples
    (per misconception its most frequent values typed, per question kind its latest wrong
    answer) are read by their ids.
    """
    parsed = parse_week(week)
    valid = parsed is not None or not week
    year, number = parsed or week_of(now, school_class.timezone)
    monday = date.fromisocalendar(year, number, 1)
    starts = day_starts(monday, 7, school_class.timezone)
    start, end = starts[0], starts[-1]
    in_class = select(Pupil.id).where(Pupil.class_id == school_class.id).scalar_subquery()
    wrong = AttemptRecord.correct.is_(False)
    typed = case((AttemptRecord.misconception.is_not(None), AttemptRecord.typed))  # no parameters: the same SQL in SELECT and GROUP BY
    groups = db.execute(
        select(
            AttemptRecord.skill,
            AttemptRecord.question_kind,
            AttemptRecord.misconception,
            func.count(AttemptRecord.id),
            func.sum(case((wrong, 1), else_=0)),
            func.max(case((wrong, AttemptRecord.id))),
        )
        .where(AttemptRecord.pupil_id.in_(in_class), AttemptRecord.created_at >= start, AttemptRecord.created_at < end, AttemptRecord.readable.is_(True))
        .group_by(AttemptRecord.skill, AttemptRecord.question_kind, AttemptRecord.misconception, typed)
    ).all()
    kinds: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])  # answers, wrong, latest wrong answer's id
    found: dict[tuple[str, str, str], MisconceptionRow] = {}
    typed_values: dict[tuple[str, str, str], list[tuple[int, int]]] = defaultdict(list)  # (wrong answers, latest id) per value typed
    for skill, kind, misconception, answers, wrong_count, latest_wrong in groups:
        wrong_count = int(wrong_count or 0)
        totals = kinds[(skill, kind)]
        totals[0] += int(answers)
        totals[1] += wrong_count
        totals[2] = max(totals[2], latest_wrong or 0)
        if misconception and wrong_count:
            key = (skill, kind, misconception)
            found.setdefault(key, MisconceptionRow(skill, kind, misconception, 0, None)).count += wrong_count
            typed_values[key].append((wrong_count, latest_wrong))
    by_skill_all: dict[str, list[MisconceptionRow]] = defaultdict(list)
    for row in found.values():
        by_skill_all[row.skill].append(row)
    order = {skill: i for i, skill in enumerate(skills.SKILLS)}
    by_skill = [
        (skill, sorted(by_skill_all[skill], key=lambda r: (-r.count, r.kind, r.misconception))[:TOP_MISCONCEPTIONS])
        for skill in sorted(by_skill_all, key=lambda s: (order.get(s, len(order)), s))
    ]
    questions = sorted(
        (QuestionRow(skill, kind, answers, wrong_count, None) for (skill, kind), (answers, wrong_count, _) in kinds.items() if wrong_count),
        key=lambda q: (-q.wrong, -q.wrong_rate, q.kind),
    )[:TOP_QUESTIONS]

    example_ids = {
        id(row): [attempt_id for _, attempt_id in sorted(typed_values[(row.skill, row.kind, row.misconception)], key=lambda v: (-v[0], -v[1]))[:EXAMPLES]]
        for _, rows in by_skill
        for row in rows
    }
    wanted = {attempt_id for ids in example_ids.values() for attempt_id in ids} | {kinds[(q.skill, q.kind)][2] for q in questions}
    if wanted:
        stored = {
            row.id: row
            for row in db.execute(
                select(AttemptRecord.id, AttemptRecord.question_kind, AttemptRecord.misconception, AttemptRecord.question, AttemptRecord.typed, AttemptRecord.read_as).where(AttemptRecord.id.in_(sorted(wanted)))
            )
        }
        for _, rows in by_skill:
            for row in rows:
                for attempt_id in example_ids[id(row)]:
                    example = stored.get(attempt_id)
                    if example is None:
                        continue
                    if row.text is None:
                        row.text = misconception_text(row.kind, row.misconception, example.question)
                    row.examples.append(Example(question_prompt(example.question), example.typed, example.read_as, choice_label(example.question, example.typed)))
        for q in questions:
            example = stored.get(kinds[(q.skill, q.kind)][2])
            q.example = question_prompt(example.question) if example is not None else None
    return MisconceptionReport(year, number, valid, monday, start, end, by_skill, questions, sum(t[0] for t in kinds.values()), sum(t[1] for t in kinds.values()))


# --- classes (for the command line) ---------------------------------------------------------
@dataclass
class ClassSummary:
    code: str
    name: str
    teachers: list[str]
    pupils: int

    def to_dict(self) -> dict:
        return {"code": self.code, "name": self.name, "teachers": self.teachers, "pupils": self.pupils}


def all_classes(db: Session) -> list[ClassSummary]:
    """Every class with its teachers (owner first) and pupil count, by code."""
    counts = dict(db.execute(select(Pupil.class_id, func.count(Pupil.id)).where(Pupil.class_id.is_not(None)).group_by(Pupil.class_id)).all())
    teachers: dict[int, list[str]] = defaultdict(list)
    for class_id, name in db.execute(
        select(ClassTeacher.class_id, Teacher.name).join(Teacher, Teacher.id == ClassTeacher.teacher_id).order_by(ClassTeacher.class_id, case((ClassTeacher.role == "owner", 0), else_=1), Teacher.name)
    ):
        teachers[class_id].append(name)
    return [ClassSummary(c.code, c.name, teachers.get(c.id, []), counts.get(c.id, 0)) for c in db.scalars(select(SchoolClass).order_by(SchoolClass.code))]


# --- CSV ------------------------------------------------------------------------------------
BOM = "\ufeff"
#: Excel and LibreOffice split a CSV by the list separator of the reader's region: a
#: semicolon where the decimal sign is a comma (Norway, Sweden, Italy), a comma in English.
CSV_DELIMITERS = {"en": ",", "nb": ";", "sv": ";", "it": ";"}
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_delimiter(locale: str) -> str:
    return CSV_DELIMITERS.get(locale, ",")


def safe_cell(value) -> str:
    """A cell as text; text a spreadsheet would run as a formula gets a leading apostrophe."""
    if value is None:
        return ""
    if isinstance(value, bool):
        value = int(value)
    text = str(value)
    if isinstance(value, (int, float)):
        return text
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def to_csv(rows: list[list], delimiter: str = ",", bom: bool = True) -> str:
    """Rows (the first is the header) as CSV text with CRLF line ends."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, quoting=csv.QUOTE_MINIMAL, lineterminator="\r\n")
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    return (BOM if bom else "") + out.getvalue()


def grid_table(grid: Grid, translate: Gettext = _same, skill_name: Callable[[str], str] | None = None) -> list[list]:
    """The class grid as rows: a header (pupil, then one column per skill), then a row per pupil."""
    names = skill_name or (lambda skill: translate(skills_catalogue_name(skill)))
    help_word = translate(LEVEL_WORDS["needs_help"])
    rows: list[list] = [[translate(N_("Pupil")), *(names(skill) for skill in grid.skills)]]
    for row in grid.rows:
        cells = []
        for skill in grid.skills:
            cell = row.cell(skill)
            word = translate(LEVEL_WORDS[cell.level])
            cells.append(f"{word} ({help_word})" if cell.needs_help else word)
        rows.append([row.pupil.name, *cells])
    return rows


def assignment_table(report: AssignmentReport, translate: Gettext = _same) -> list[list]:
    """The assignment view as rows: a header, then a row per assigned pupil (whole numbers only)."""
    header = [
        N_("Pupil"),
        N_("Status"),
        N_("Progress (%)"),
        N_("Questions answered"),
        N_("Right at the first try"),
        N_("First-try accuracy (%)"),
        N_("Games finished"),
        N_("Time spent (minutes)"),
    ]
    rows: list[list] = [[translate(h) for h in header]]
    for row in report.rows:
        accuracy = row.accuracy
        rows.append(
            [
                row.pupil.name,
                translate(status_word(row)),
                round(row.progress * 100),
                row.questions,
                row.first_try_right,
                "" if accuracy is None else round(accuracy * 100),
                row.games_finished,
                round(row.time_ms / 60000),
            ]
        )
    return rows


def skills_catalogue_name(skill: str) -> str:
    """A skill's English name from content/skills.toml (its id if unknown)."""
    info = content.load("skills").get(skill)
    return info["name"] if info else skill


def safe_filename(*parts: str) -> str:
    """A download name of ASCII letters, digits, dots, dashes and underscores only."""
    name = "-".join(re.sub(r"[^A-Za-z0-9_.-]+", "-", str(part)).strip("-.") for part in parts if part)
    return (name or "kortmatte")[:120] + ".csv"
