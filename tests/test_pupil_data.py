"""The pupil's JSON export holds every row the database keeps about the pupil, and none about another pupil."""

from __future__ import annotations

import json
from datetime import date, timedelta

import pytest
from sqlalchemy import func, select

from tutor.models import (
    AnswerDayCount,
    Assignment,
    AssignmentExtension,
    AssignmentPupil,
    AssignmentWork,
    AttemptRecord,
    Base,
    GroupMember,
    LessonRunRecord,
    LtiGradeSent,
    LtiLineItem,
    LtiPlatform,
    LtiPupilLink,
    Pupil,
    PupilGroup,
    SignInLink,
    SkillRecord,
    utcnow,
)
from tutor.reports.pupil_data import SECTIONS
from tutor.web import db


def tables_about_a_pupil() -> dict[str, str]:
    """Each table with a foreign key to pupil.id, and that column's name."""
    return {
        table.name: key.parent.name
        for table in Base.metadata.sorted_tables
        for key in table.foreign_keys
        if key.column.table.name == "pupil"
    }


def test_every_table_that_refers_to_a_pupil_has_a_section_of_the_export():
    assert set(SECTIONS) == set(tables_about_a_pupil())


def add_everything(database, pupil: Pupil, school_class_id: int, group_name: str) -> None:
    """A row about ``pupil`` in every table that refers to pupils (two where a table may hold several)."""
    now = utcnow()
    assignment = Assignment(class_id=school_class_id, game_id="calculation-war", goal="games", due_at=now)
    group = PupilGroup(class_id=school_class_id, name=group_name)
    database.add_all([assignment, group])
    database.flush()
    for seed in (1, 2):
        run = LessonRunRecord(
            pupil_id=pupil.id,
            assignment_id=assignment.id if seed == 1 else None,
            game_id="calculation-war",
            seed=seed,
            stage="play",
            data={"moves": [["play", seed]]},
        )
        database.add(run)
        database.flush()
        database.add(
            AttemptRecord(
                pupil_id=pupil.id,
                run_id=run.id,
                skill="add_within_20",
                question_kind="sum",
                question={"prompt": "7 + 5"},
                typed="12",
                read_as="12",
                correct=True,
                move_index=3,
            )
        )
    database.add_all(
        [
            AnswerDayCount(
                class_id=school_class_id,
                pupil_id=pupil.id,
                day=date(2026, 11, 26),
                skill="add_within_20",
                question_kind="sum",
                misconception="",
                typed="",
                answers=2,
                wrong=0,
            ),
            SkillRecord(pupil_id=pupil.id, skill="add_within_20", p_known=0.4, mastery_threshold=0.95),
            SkillRecord(pupil_id=pupil.id, skill="compare", p_known=0.2, mastery_threshold=0.95),
            AssignmentWork(assignment_id=assignment.id, pupil_id=pupil.id, games_finished=1),
            AssignmentPupil(assignment_id=assignment.id, pupil_id=pupil.id),
            AssignmentExtension(assignment_id=assignment.id, pupil_id=pupil.id, due_at=now + timedelta(days=2)),
            GroupMember(group_id=group.id, pupil_id=pupil.id),
        ]
    )
    platform = LtiPlatform(
        issuer=f"https://{group_name.lower()}.example",
        client_id="1",
        deployment_ids=["1"],
        login_url="https://p.example/auth",
        token_url="https://p.example/token",
        keyset_url="https://p.example/jwks",
    )
    database.add(platform)
    database.flush()
    database.add(
        LtiPupilLink(platform_id=platform.id, subject=f"sub-{pupil.id}", class_id=school_class_id, pupil_id=pupil.id)
    )
    database.add(
        SignInLink(provider="feide", issuer="https://auth.dataporten.no", subject=f"feide-{pupil.id}", pupil=pupil)
    )
    line_item = LtiLineItem(platform_id=platform.id, assignment_id=assignment.id, url="https://p.example/lineitems/1")
    database.add(line_item)
    database.flush()
    database.add(LtiGradeSent(line_item_id=line_item.id, pupil_id=pupil.id, score=50, sent_at=now))
    database.flush()


@pytest.fixture
def teacher_client(app, staff):
    staff.teacher()
    client = app.test_client()
    assert staff.sign_in(client).status_code == 302
    return client


def test_the_export_holds_every_row_about_the_pupil_and_none_about_another(app, staff, teacher_client):
    school_class = staff.school_class(pupils=("Ada", "Ola"))
    staff.sign_in_pupil(app.test_client(), school_class.code, "Ada")  # a sign-in session
    with app.app_context():
        database = db.session()
        ada, ola = (staff.pupil(school_class.code, name) for name in ("Ada", "Ola"))
        add_everything(database, ada, school_class.id, "Tables")
        add_everything(database, ola, school_class.id, "Chairs")
        database.commit()
    response = teacher_client.get(f"/teacher/pupils/{ada.public_id}/export.json")
    exported = json.loads(response.get_data(as_text=True))
    with app.app_context():
        database = db.session()
        for table_name, column in tables_about_a_pupil().items():
            table = Base.metadata.tables[table_name]
            rows = database.scalar(select(func.count()).select_from(table).where(table.c[column] == ada.id))
            assert rows > 0, f"the test adds no row to {table_name}"
            assert len(exported[SECTIONS[table_name]]) == rows, table_name
    assert exported["pupil"]["name"] == "Ada" and exported["groups"] == [
        {"id": exported["groups"][0]["id"], "name": "Tables"}
    ]
    runs = {run["id"] for run in exported["lesson_runs"]}
    assert {answer["lesson_run"] for answer in exported["answers"]} == runs
    assert [bool(run["homework"]) for run in exported["lesson_runs"]] == [True, False]
    assert exported["answers"][0]["question"] == {"prompt": "7 + 5"}
    assert ada.secret not in response.get_data(as_text=True)  # the pictures stay on the teacher's card
