"""Casino War stays off until it is switched on: by a teacher for a class, by the operator for guests."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from sqlalchemy import func, select

from tests.conftest import Guest
from tutor.models import Assignment, SchoolClass
from tutor.web import db

CLASS_SETTINGS = {
    "name": "4B",
    "locale": "en",
    "timezone": "Europe/Oslo",
    "sign_in": "pictures",
    "target_success": "75",
}


def casino_homework():
    due = (date.today() + timedelta(days=5)).isoformat()
    return {
        "game": "casino-war",
        "casino-war-players": "1",
        "casino-war-bots": "beginner",
        "goal": "games",
        "goal_count": "1",
        "due_date": due,
        "due_time": "18:00",
        "target": "class",
    }


@pytest.fixture
def school(app, staff):
    staff.teacher()
    teacher = app.test_client()
    assert staff.sign_in(teacher).status_code == 302
    school_class = staff.school_class()
    pupil = app.test_client()
    staff.sign_in_pupil(pupil, school_class.code, "Ada")
    return teacher, pupil, school_class


def assignments(app) -> int:
    with app.app_context():
        return db.session().scalar(select(func.count()).select_from(Assignment))


def test_a_class_does_not_see_casino_war_until_its_teacher_switches_it_on(app, school):
    teacher, pupil, school_class = school
    assert "casino-war" not in pupil.get("/").get_data(as_text=True)
    assert pupil.get("/lessons/casino-war").status_code == 404
    assert pupil.post("/lessons/casino-war/start", data={"players": "1", "strength": "beginner"}).status_code == 404
    assert pupil.get("/lessons/war").status_code == 200  # the rest of the family is on
    settings = f"/teacher/classes/{school_class.public_id}/settings"
    assert 'name="casino_war"' in teacher.get(settings).get_data(as_text=True)
    assert teacher.post(settings, data={**CLASS_SETTINGS, "casino_war": "on"}).status_code == 302
    assert "checked" in teacher.get(settings).get_data(as_text=True).split('name="casino_war"')[1].split(">")[0]
    assert "casino-war" in pupil.get("/").get_data(as_text=True)
    assert pupil.get("/lessons/casino-war").status_code == 200
    assert pupil.post("/lessons/casino-war/start", data={"players": "1", "strength": "beginner"}).status_code == 302
    assert teacher.post(settings, data=CLASS_SETTINGS).status_code == 302  # an unticked box switches it off again
    assert pupil.get("/lessons/casino-war").status_code == 404
    with app.app_context():
        assert db.session().scalar(select(SchoolClass.casino_war_on).where(SchoolClass.id == school_class.id)) is False


def test_casino_war_can_be_set_as_homework_only_where_it_is_on(app, school):
    teacher, _, school_class = school
    form_url = f"/teacher/classes/{school_class.public_id}/homework/new"
    assert 'value="casino-war"' not in teacher.get(form_url).get_data(as_text=True)
    assert teacher.post(form_url, data=casino_homework()).status_code == 400
    assert assignments(app) == 0
    teacher.post(f"/teacher/classes/{school_class.public_id}/settings", data={**CLASS_SETTINGS, "casino_war": "on"})
    assert 'value="casino-war"' in teacher.get(form_url).get_data(as_text=True)
    assert teacher.post(form_url, data=casino_homework()).status_code == 302
    assert assignments(app) == 1


def test_guests_get_casino_war_only_when_the_operator_allows_it(app, client):
    guest = Guest(client)
    guest.sign_in()
    assert "casino-war" not in client.get("/").get_data(as_text=True)
    assert client.get("/lessons/casino-war").status_code == 404
    app.config["CASINO_WAR_FOR_GUESTS"] = True
    assert "casino-war" in client.get("/").get_data(as_text=True)
    assert client.get("/lessons/casino-war").status_code == 200


def test_the_operator_switch_is_read_from_the_environment(monkeypatch, tmp_path):
    from tutor.config import from_environment

    monkeypatch.setenv("CASINO_WAR_FOR_GUESTS", "1")
    assert from_environment(str(tmp_path))["CASINO_WAR_FOR_GUESTS"] is True
    monkeypatch.setenv("CASINO_WAR_FOR_GUESTS", "off")
    assert from_environment(str(tmp_path))["CASINO_WAR_FOR_GUESTS"] is False
