"""The class grid: pupils by skills, each cell a level in words, sortable, needs help first."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from tutor.homework_status import DONE, IN_PROGRESS, LATE, NEEDS_HELP, NOT_STARTED
from tutor.models import (
    Pupil,
    SchoolClass,
    SkillRecord,
    utcnow,
)
from tutor.reports.attention import PupilHomework, class_homework, last_active
from tutor.reports.common import LEVEL_COLUMNS, PupilRef, grid_skill_ids, grid_skills, name_key
from tutor.skill_model import skills

# --- class grid -----------------------------------------------------------------------------
SORT_HELP, SORT_NAME = "help", "name"
DEFAULT_SORT = SORT_HELP


@dataclass(frozen=True)
class Cell:
    """One pupil's level in one skill."""

    level: str
    needs_help: bool = False
    p_known: float | None = None
    attempts: int = 0  # first tries the estimate rests on
    correct: int = 0  # of them right

    @property
    def status(self) -> str:
        return "needs_help" if self.needs_help else self.level


EMPTY_CELL = Cell(skills.NOT_STARTED)


def cell_of(record, now: datetime | None) -> Cell:
    """The cell of a skill record (or a row with its columns) as it stands at ``now`` (:func:`skills.record_level`)."""
    return Cell(
        skills.record_level(record, now),
        skills.needs_help(record.p_known, record.attempts),
        record.p_known,
        record.attempts,
        record.correct,
    )


@dataclass
class GridRow:
    pupil: PupilRef
    cells: dict[str, Cell]
    last_active: datetime | None = None
    homework: list[PupilHomework] = field(default_factory=list)

    def cell(self, skill: str) -> Cell:
        return self.cells.get(skill, EMPTY_CELL)

    @property
    def needs_help(self) -> list[str]:
        """The skills this pupil needs help with."""
        return [skill for skill, cell in self.cells.items() if cell.needs_help]

    @property
    def homework_done(self) -> int:
        return sum(1 for item in self.homework if item.state.done)

    @property
    def homework_status(self) -> str | None:
        """The status of the pupil's homework that most needs acting on (late first, done last); None without any."""
        order = (LATE, NEEDS_HELP, NOT_STARTED, IN_PROGRESS, DONE)
        statuses = {item.state.status for item in self.homework}
        return next((status for status in order if status in statuses), None)


@dataclass
class Grid:
    skills: list[str]  # the columns: every skill the games practise, or (on the page) those the class has answered in
    rows: list[GridRow]
    sort: str  # the sort applied: "help", "name" or a skill id
    unpractised: list[str] = field(default_factory=list)  # the games' skills nobody in the class has answered in yet

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
    if value in (SORT_HELP, SORT_NAME) or value in grid_skill_ids():
        return value
    return DEFAULT_SORT


def sort_rows(rows: list[GridRow], sort: str) -> list[GridRow]:
    """Needs help: most skills needing help first. Name: A to Z. A skill: weakest first."""
    if sort == SORT_NAME:
        return sorted(rows, key=lambda r: (name_key(r.pupil.name), r.pupil.id))
    if sort in grid_skill_ids():

        def weakest(row: GridRow):
            cell = row.cell(sort)
            return (
                not cell.needs_help,
                skills.LEVELS.index(cell.level),
                cell.p_known if cell.p_known is not None else -1.0,
                name_key(row.pupil.name),
                row.pupil.id,
            )

        return sorted(rows, key=weakest)
    return sorted(rows, key=lambda r: (-len(r.needs_help), name_key(r.pupil.name), r.pupil.id))


def class_grid(
    db: Session,
    school_class: SchoolClass,
    sort: str | None = None,
    now: datetime | None = None,
    practised_only: bool = False,
) -> Grid:
    """Every pupil of the class by every skill the games practise (two statements).

    With ``now``, each row also has the pupil's last activity and current homework
    (:func:`tutor.reports.attention.class_homework`). With ``practised_only``, the columns are
    the skills someone in the class has answered in (the others are listed in ``unpractised``).
    """
    columns = grid_skills()
    pupils = db.execute(select(Pupil.id, Pupil.public_id, Pupil.name).where(Pupil.class_id == school_class.id)).all()
    rows = {pupil_id: GridRow(PupilRef(pupil_id, public_id, name), {}) for pupil_id, public_id, name in pupils}
    records = db.execute(
        select(*LEVEL_COLUMNS, SkillRecord.correct)
        .join(Pupil, Pupil.id == SkillRecord.pupil_id)
        .where(Pupil.class_id == school_class.id, SkillRecord.skill.in_(columns))
    )
    answered = set()
    at = now or utcnow()
    for record in records:
        if record.pupil_id in rows:
            rows[record.pupil_id].cells[record.skill] = cell_of(record, at)
            if record.attempts:
                answered.add(record.skill)
    if now is not None:
        active = last_active(db, school_class)
        homework = class_homework(db, school_class, list(rows), now)
        for pupil_id, row in rows.items():
            row.last_active, row.homework = active.get(pupil_id), homework.get(pupil_id, [])
    unpractised = []
    if practised_only:
        unpractised = [skill for skill in columns if skill not in answered]
        columns = [skill for skill in columns if skill in answered]
    chosen = grid_sort(sort)
    return Grid(columns, sort_rows(list(rows.values()), chosen), chosen, unpractised)
