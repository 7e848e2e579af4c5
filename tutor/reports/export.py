"""Classes for the command line, and CSV files of the grid and of an assignment."""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

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


#: The CSV grid's columns for each skill (docs/teachers.md, "CSV files", explains them).
SKILL_COLUMNS = (
    N_("%(skill)s: level"),
    N_("%(skill)s: estimate (%%)"),
    N_("%(skill)s: first-try answers"),
    N_("%(skill)s: right at the first try (%%)"),
)


def whole_percent(value: float | None) -> int | str:
    return "" if value is None else round(value * 100)


def grid_table(
    grid: Grid,
    translate: Gettext = untranslated,
    skill_name: Callable[[str], str] | None = None,
    moment: Callable[[datetime], str] | None = None,
) -> list[list]:
    """The class grid as rows for a spreadsheet: a header, then a row per pupil.

    Per pupil: the first name and the last activity (``moment`` writes it; ISO 8601 in UTC by
    default), then for every skill its level in words (with "needs help" when the teacher should
    step in), the estimate that the pupil knows it, the first-try answers it rests on and the
    share of them right, as whole numbers (per cent) a spreadsheet reads in any language.
    """
    names = skill_name or (lambda skill: translate(skills_catalogue_name(skill)))
    written = moment or (lambda at: at.strftime("%Y-%m-%d %H:%M"))
    help_word = translate(LEVEL_WORDS["needs_help"])
    header: list = [translate(N_("Pupil")), translate(N_("Last active"))]
    for skill in grid.skills:
        header += [translate(column) % {"skill": names(skill)} for column in SKILL_COLUMNS]
    rows: list[list] = [header]
    for row in grid.rows:
        cells: list = [row.pupil.name, written(row.last_active) if row.last_active else ""]
        for skill in grid.skills:
            cell = row.cell(skill)
            word = translate(LEVEL_WORDS[cell.level])
            cells += [
                f"{word} ({help_word})" if cell.needs_help else word,
                whole_percent(cell.p_known) if cell.attempts else "",
                cell.attempts,
                whole_percent(cell.correct / cell.attempts) if cell.attempts else "",
            ]
        rows.append(cells)
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
