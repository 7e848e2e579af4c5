"""A class that reads aloud (issue 28): its teacher switches it on, its pupils' lessons say so, guests' never do."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from tests.test_casino_switch import CLASS_SETTINGS
from tutor.models import SchoolClass
from tutor.web import db


@pytest.fixture
def school(app, staff):
    staff.teacher()
    teacher = app.test_client()
    assert staff.sign_in(teacher).status_code == 302
    school_class = staff.school_class()
    pupil = app.test_client()
    staff.sign_in_pupil(pupil, school_class.code, "Ada")
    return teacher, pupil, school_class


def reads_aloud(app, school_class) -> bool:
    with app.app_context():
        return db.session().scalar(select(SchoolClass.read_aloud_on).where(SchoolClass.id == school_class.id))


def lesson_page(client) -> str:
    start = client.post("/lessons/war/start", data={"players": "2", "strength": "beginner"})
    assert start.status_code == 302
    return client.get(start.headers["Location"]).get_data(as_text=True)


def lesson_reads_aloud(page: str) -> bool:
    return bool(re.search(r'<section id="lesson"[^>]* data-read-aloud[ >]', page))


def test_a_teacher_switches_reading_aloud_on_and_off_for_the_class(app, school, sign_in_clock):
    teacher, pupil, school_class = school
    settings = f"/teacher/classes/{school_class.public_id}/settings"
    page = teacher.get(settings).get_data(as_text=True)
    assert 'name="read_aloud"' in page and "checked" not in page.split('name="read_aloud"')[1].split(">")[0]
    assert not lesson_reads_aloud(lesson_page(pupil))
    assert teacher.post(settings, data={**CLASS_SETTINGS, "read_aloud": "on"}).status_code == 302
    assert reads_aloud(app, school_class) is True
    assert "checked" in teacher.get(settings).get_data(as_text=True).split('name="read_aloud"')[1].split(">")[0]
    sign_in_clock.advance(app.config["SESSION_CHECK_SECONDS"])  # the pupil's cookie knows the class until its check
    page = lesson_page(pupil)
    assert lesson_reads_aloud(page)
    assert re.search(r'class="speak" data-speak="[^"]+" data-speak-auto', page), "the intro's coach reads by itself"
    assert teacher.post(settings, data=CLASS_SETTINGS).status_code == 302  # an unticked box switches it off again
    assert reads_aloud(app, school_class) is False
    sign_in_clock.advance(app.config["SESSION_CHECK_SECONDS"])
    assert not lesson_reads_aloud(lesson_page(pupil))


def test_a_guests_lesson_never_reads_by_itself(guest, client):
    guest.sign_in("Ada")
    assert not lesson_reads_aloud(lesson_page(client))


def test_only_the_classes_own_teacher_may_switch_it(app, staff, school):
    _, pupil, school_class = school
    settings = f"/teacher/classes/{school_class.public_id}/settings"
    staff.teacher(email="other@school.example", name="Other")
    other = app.test_client()
    assert staff.sign_in(other, email="other@school.example").status_code == 302
    assert other.get(settings).status_code == 404
    assert other.post(settings, data={**CLASS_SETTINGS, "read_aloud": "on"}).status_code == 404
    for stranger in (pupil, app.test_client()):  # a pupil or nobody is sent to the teachers' sign-in
        response = stranger.post(settings, data={**CLASS_SETTINGS, "read_aloud": "on"})
        assert response.status_code == 302 and "/teacher/sign-in" in response.headers["Location"]
    assert reads_aloud(app, school_class) is False
