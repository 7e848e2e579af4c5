"""A class list pasted or uploaded: read as a spreadsheet writes it, checked whole, added whole or not at all."""

from __future__ import annotations

import pytest

from tutor import classroom, roster
from tutor.models import Teacher
from tutor.web import db


@pytest.fixture
def school_class(app):
    with app.app_context():
        database = db.session()
        teacher = Teacher(email="tove@school.example", name="Tove", password_hash="x", locale="en")
        database.add(teacher)
        database.flush()
        created = classroom.create_class(database, teacher, "4B", "nb", "Europe/Oslo", "pictures")
        classroom.add_pupils(database, created, "Ada\nOla")
        database.flush()
        yield database, created


def test_a_spreadsheets_first_column_is_read_and_its_heading_skipped():
    assert roster.lines_of("Navn;Klasse\nÅse;4B\nOla;4B") == ["", "Åse", "Ola"]
    assert roster.lines_of("Name,Class\r\nAda,4B\r\n") == ["", "Ada"]
    assert roster.lines_of("Ada\tx\nBo\ty") == ["Ada", "Bo"]  # no heading: every row counts
    assert roster.lines_of("Ada\nBo Li\n") == ["Ada", "Bo Li"]  # a plain list stays as it is
    assert roster.read_upload("Åse\n".encode("utf-8-sig")) == "Åse\n"
    assert roster.read_upload("Åse\n".encode("cp1252")) == "Åse\n"  # as Excel saves a CSV in Norway
    for bad in (b"\x00\x01PK", b"x" * (roster.UPLOAD_MAX_BYTES + 1)):
        with pytest.raises(roster.UploadRefused):
            roster.read_upload(bad)


def test_every_line_is_checked_and_reported_with_its_number(school_class):
    _, created = school_class
    check = roster.check_roster(created, "Åse\n\n ada \n" + "X" * 41 + "\nåse\nLi")
    assert check.names == ["Åse", "Li"] and check.already == ["ada"]
    assert [(p.line, p.problem) for p in check.problems] == [(4, roster.NOT_A_NAME), (5, roster.TWICE)]
    assert not check.ok and check.over_limit == 0
    crowded = roster.check_roster(created, "\n".join(f"P{n}" for n in range(classroom.PUPILS_MAX - 1)))
    assert crowded.over_limit == 1 and not crowded.ok  # 2 in the class + 59 = 61


def test_a_list_with_a_bad_line_adds_nobody_and_a_good_one_adds_everyone(school_class):
    database, created = school_class
    check, added = roster.import_roster(database, created, "Åse\nLi\nLi")
    assert not check.ok and added == []
    assert sorted(p.name for p in created.pupils) == ["Ada", "Ola"]  # nothing half-imported
    check, added = roster.import_roster(database, created, "Åse\nLi\nOla")
    assert check.ok and [p.name for p in added] == ["Åse", "Li"] and check.already == ["Ola"]
    assert sorted(p.name for p in created.pupils) == ["Ada", "Li", "Ola", "Åse"]
