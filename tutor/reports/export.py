"""Classes for the command line, and CSV files of the grid and of an assignment."""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from tutor import content
from tutor.models import (
    ClassTeacher,
    Pupil,
    SchoolClass,
    Teacher,
)
from tutor.reports.common import LEVEL_WORDS, Gettext, untranslated
from tutor.reports.grid import Grid
from tutor.reports.homework import AssignmentReport, status_word
from tutor.text import N_


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
    counts = dict(
        db.execute(
            select(Pupil.class_id, func.count(Pupil.id)).where(Pupil.class_id.is_not(None)).group_by(Pupil.class_id)
        ).all()
    )
    teachers: dict[int, list[str]] = defaultdict(list)
    for class_id, name in db.execute(
        select(ClassTeacher.class_id, Teacher.name)
        .join(Teacher, Teacher.id == ClassTeacher.teacher_id)
        .order_by(ClassTeacher.class_id, case((ClassTeacher.role == "owner", 0), else_=1), Teacher.name)
    ):
        teachers[class_id].append(name)
    return [
        ClassSummary(c.code, c.name, teachers.get(c.id, []), counts.get(c.id, 0))
        for c in db.scalars(select(SchoolClass).order_by(SchoolClass.code))
    ]


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


def grid_table(
    grid: Grid, translate: Gettext = untranslated, skill_name: Callable[[str], str] | None = None
) -> list[list]:
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


def assignment_table(report: AssignmentReport, translate: Gettext = untranslated) -> list[list]:
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
