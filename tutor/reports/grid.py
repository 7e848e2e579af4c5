"""The class grid: pupils by skills, each cell a level in words, sortable, needs help first."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from tutor.models import (
    Pupil,
    SchoolClass,
    SkillRecord,
    utcnow,
)
from tutor.reports.common import PupilRef, grid_skill_ids, grid_skills, name_key
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
    attempts: int = 0

    @property
    def status(self) -> str:
        return "needs_help" if self.needs_help else self.level


EMPTY_CELL = Cell(skills.NOT_STARTED)


def cell_of(record, now: datetime) -> Cell:
    """The cell of a skill record (or a row with its columns) as it stands at ``now`` (:func:`skills.record_level`)."""
    return Cell(
        skills.record_level(record, now),
        skills.needs_help(record.p_known, record.attempts),
        record.p_known,
        record.attempts,
    )


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


def class_grid(db: Session, school_class: SchoolClass, sort: str | None = None) -> Grid:
    """Every pupil of the class by every skill the games practise (two queries)."""
    columns = grid_skills()
    pupils = db.execute(select(Pupil.id, Pupil.public_id, Pupil.name).where(Pupil.class_id == school_class.id)).all()
    rows = {pupil_id: GridRow(PupilRef(pupil_id, public_id, name), {}) for pupil_id, public_id, name in pupils}
    records = db.execute(
        select(
            SkillRecord.pupil_id,
            SkillRecord.skill,
            SkillRecord.p_known,
            SkillRecord.attempts,
            SkillRecord.mastery_threshold,
            SkillRecord.evidence,
            SkillRecord.typed_right,
            SkillRecord.practised_at,
        )
        .join(Pupil, Pupil.id == SkillRecord.pupil_id)
        .where(Pupil.class_id == school_class.id, SkillRecord.skill.in_(columns))
    )
    now = utcnow()
    for record in records:
        if record.pupil_id in rows:
            rows[record.pupil_id].cells[record.skill] = cell_of(record, now)
    chosen = grid_sort(sort)
    return Grid(columns, sort_rows(list(rows.values()), chosen), chosen)
