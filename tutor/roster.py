"""A class list pasted or uploaded by the teacher: every name checked first, then all added or none.

A list is one first name or nickname per line; a file may be plain text or a spreadsheet's CSV
export (the first column is read, and a first row that only says "Name" in one of our languages
is taken as its heading). Blank lines are skipped, and so are names already in the class (the
teacher may paste the same list again after adding a few). Anything else that cannot be added
(a line that is not a name, the same name twice in the list, more pupils than a class may have)
is reported with its line number and nothing at all is added, so a class never ends up with half
a list.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from tutor import accounts, classroom
from tutor.models import Pupil, SchoolClass

#: An uploaded list may be this long (a class list is a few hundred bytes).
UPLOAD_MAX_BYTES = 64 * 1024
#: Lines read at most (a class has at most PUPILS_MAX pupils; the rest would only be reported).
LINES_MAX = classroom.PUPILS_MAX * 4
#: A CSV file's first row is its heading when its first cell is one of these words.
HEADINGS = frozenset({"name", "names", "first name", "navn", "fornavn", "namn", "förnamn", "nome", "nomi"})
NOT_A_NAME, TWICE = PROBLEMS = ("not_a_name", "twice")


class UploadRefused(ValueError):
    """A file that cannot be read as a list of names (too big, or not text)."""


@dataclass(frozen=True)
class Problem:
    line: int  # 1 for the first line
    text: str  # what the line says, shortened
    problem: str  # one of PROBLEMS


@dataclass
class RosterCheck:
    """What adding a list would do: the names to add, those in the class already, and what stops it."""

    names: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    over_limit: int = 0  # names beyond the class's limit

    @property
    def ok(self) -> bool:
        return not self.problems and not self.over_limit


def read_upload(data: bytes) -> str:
    """An uploaded file as text: UTF-8 (with or without a byte order mark), else Windows-1252 as Excel writes it."""
    if len(data) > UPLOAD_MAX_BYTES:
        raise UploadRefused("too_big")
    if b"\x00" in data:
        raise UploadRefused("not_text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def lines_of(text: str) -> list[str]:
    """The first cell of each line: a CSV export's first column (split at ``;``, tab or ``,``, whichever the list
    uses most), or a plain list's lines as they are."""
    lines = str(text or "").splitlines()[:LINES_MAX]
    sample = "\n".join(lines[:20])
    delimiter = max(";\t,", key=sample.count)
    if not sample.count(delimiter):
        return lines
    cells = [row[0] if row else "" for row in csv.reader(lines, delimiter=delimiter)]
    if cells and cells[0].strip().casefold() in HEADINGS:
        cells[0] = ""
    return cells


def check_roster(school_class: SchoolClass, text: str) -> RosterCheck:
    """Every line of a class list checked against the class; nothing is stored."""
    existing = {pupil.name.casefold() for pupil in school_class.pupils}
    seen: dict[str, int] = {}
    result = RosterCheck()
    for number, line in enumerate(lines_of(text), start=1):
        if not line.strip():
            continue
        name = accounts.clean_name(line)
        if name is None:
            result.problems.append(Problem(number, line.strip()[:20], NOT_A_NAME))
        elif name.casefold() in existing:
            result.already.append(name)
        elif name.casefold() in seen:
            result.problems.append(Problem(number, name, TWICE))
        else:
            seen[name.casefold()] = number
            result.names.append(name)
    room = classroom.PUPILS_MAX - len(existing)
    result.over_limit = max(0, len(result.names) - room)
    return result


def import_roster(db: Session, school_class: SchoolClass, text: str) -> tuple[RosterCheck, list[Pupil]]:
    """Add a class list's new names when the whole list is fine; otherwise add nothing. Returns the check and the
    pupils added."""
    check = check_roster(school_class, text)
    if not check.ok or not check.names:
        return check, []
    added = classroom.add_pupils(db, school_class, "\n".join(check.names))
    return check, added.added
