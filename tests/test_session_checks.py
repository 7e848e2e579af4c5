"""The sign-in costs no database read per step, yet every way a sign-in ends takes effect within SESSION_CHECK_SECONDS.

The signed cookie keeps what the database last said about its sign-in (:mod:`tutor.web.auth`)
and is believed for ``SESSION_CHECK_SECONDS`` after that check. These tests move the sign-in's
clock by hand (``sign_in_clock``): just before the check is due the old answer stands, at the
moment it is due the database decides: a sign-out on another device, a changed password, a
switched-off teacher, a deleted pupil, an idle or too old sign-in.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import event, select

from tests.conftest import PASSWORD, run_id_in, run_record
from tutor import admin
from tutor.answer_key import right_answer
from tutor.config import from_environment
from tutor.lessons.base import move_token
from tutor.lessons.runner import FINISHED, LessonRun
from tutor.models import Teacher
from tutor.web import db
from tutor.web.auth import CHECKED, CLASS_FACTS, PUPIL_FACTS

HTMX = {"HX-Request": "true"}


@pytest.fixture
def sign_in_reads(app) -> list[str]:
    """The statements that read sign-in sessions, as the app sends them."""
    statements: list[str] = []

    def note(_connection, _cursor, statement, *_args):
        if "sign_in_session" in statement:
            statements.append(statement)

    event.listen(app.extensions["db_engine"], "before_cursor_execute", note)
    yield statements
    event.remove(app.extensions["db_engine"], "before_cursor_execute", note)


def check_seconds(app) -> int:
    return app.config["SESSION_CHECK_SECONDS"]


def cookie(app, client) -> dict:
    """The client's session cookie, read as the app reads it."""
    return app.session_interface.get_signing_serializer(app).loads(client.get_cookie("session").value)


def teacher_signed_in(app, staff) -> object:
    client = app.test_client()
    assert staff.sign_in(client).status_code == 302
    assert client.get("/teacher").status_code == 200
    return client


def test_lesson_steps_read_no_sign_in_rows_until_the_check_is_due(app, guest, sign_in_clock, sign_in_reads):
    guest.sign_in()
    run_id = guest.start()
    sign_in_reads.clear()
    assert guest.client.post(f"/runs/{run_id}/next-step", headers=HTMX).status_code == 200
    sign_in_clock.advance(check_seconds(app) - 1)
    assert guest.client.post(f"/runs/{run_id}/next-step", headers=HTMX).status_code == 200
    assert sign_in_reads == []
    sign_in_clock.advance(1)
    assert guest.client.post(f"/runs/{run_id}/next-step", headers=HTMX).status_code == 200
    assert len(sign_in_reads) == 1  # checked with the database once, then believed again
    assert guest.client.post(f"/runs/{run_id}/next-step", headers=HTMX).status_code == 200
    assert len(sign_in_reads) == 1


def test_a_class_pupils_answer_reads_neither_the_sign_in_nor_the_pupil_nor_the_class(app, staff, sign_in_clock):
    staff.teacher()
    school_class = staff.school_class(pupils=("Ada",))
    ada = app.test_client()
    staff.sign_in_pupil(ada, school_class.code, "Ada")
    run_id = run_id_in(
        ada.post("/lessons/calculation-war/start", data={"players": "2", "strength": "beginner"}).headers["Location"]
    )
    ada.post(f"/runs/{run_id}/skip-intro")
    tables: list[str] = []
    event.listen(
        app.extensions["db_engine"], "before_cursor_execute", lambda _c, _k, statement, *_a: tables.append(statement)
    )
    answered = 0
    for _ in range(40):
        run = LessonRun.from_dict(run_record(app, run_id).data)
        if run.stage == FINISHED:
            break
        question = run.current_question()
        if question and run.drill.open:
            response = ada.post(f"/runs/{run_id}/answer", data={"answer": right_answer(question, "en")}, headers=HTMX)
            answered += 1
        elif question:
            response = ada.post(f"/runs/{run_id}/go-on", headers=HTMX)
        else:
            move = move_token(run.game_state().legal_moves()[0])
            response = ada.post(f"/runs/{run_id}/move", data={"move": move}, headers=HTMX)
        assert response.status_code == 200
    assert "Sign out (Ada)" in ada.get(f"/runs/{run_id}").get_data(as_text=True)  # the whole page, too
    read = " ".join(tables)
    assert answered and "answer_day_count" in read  # counted in the class's day, from the class the cookie knows
    assert "FROM sign_in_session" not in read and "FROM pupil" not in read and "FROM school_class" not in read


def test_signing_out_on_one_device_ends_the_sign_in_on_the_others_within_the_check(app, guest, sign_in_clock):
    guest.sign_in()
    run_id = guest.start()
    other_device = app.test_client()
    other_device.set_cookie("session", guest.client.get_cookie("session").value)
    assert other_device.get(f"/runs/{run_id}").status_code == 200  # checked now
    assert guest.client.post("/sign-out").status_code == 302
    sign_in_clock.advance(check_seconds(app) - 1)
    assert other_device.get(f"/runs/{run_id}").status_code == 200  # the trade: believed until the check is due
    sign_in_clock.advance(1)
    assert other_device.post(f"/runs/{run_id}/skip-intro").status_code == 302
    assert other_device.get(f"/runs/{run_id}").status_code == 302  # signed out: sent to the home page


def test_a_changed_password_ends_the_other_sign_ins_within_the_check(app, staff, sign_in_clock):
    staff.teacher()
    elsewhere, here = teacher_signed_in(app, staff), teacher_signed_in(app, staff)
    changed = here.post(
        "/teacher/password",
        data={"current": PASSWORD, "password": "another long password", "password_again": "another long password"},
    )
    assert changed.status_code == 302
    assert here.get("/teacher").status_code == 200  # this device goes on with its new sign-in
    assert elsewhere.get("/teacher").status_code == 200
    sign_in_clock.advance(check_seconds(app))
    assert elsewhere.get("/teacher").status_code == 302
    assert here.get("/teacher").status_code == 200


def test_a_switched_off_teacher_is_signed_out_within_the_check(app, staff, sign_in_clock):
    staff.teacher()
    client = teacher_signed_in(app, staff)
    with app.app_context():
        database = db.session()
        admin.disable_teacher(database, database.scalar(select(Teacher)))
        database.commit()
    sign_in_clock.advance(check_seconds(app) - 1)
    assert client.get("/teacher").status_code == 200
    sign_in_clock.advance(1)
    assert client.get("/teacher").status_code == 302


def test_a_deleted_pupil_is_signed_out_within_the_check(app, staff, sign_in_clock):
    staff.teacher()
    teacher = teacher_signed_in(app, staff)
    school_class = staff.school_class(pupils=("Ada", "Ola"))
    ada = app.test_client()
    staff.sign_in_pupil(ada, school_class.code, "Ada")
    run_id = ada.post("/lessons/calculation-war/start", data={"players": "2", "strength": "beginner"}).headers[
        "Location"
    ]
    assert ada.get(run_id).status_code == 200
    deleted = teacher.post(
        f"/teacher/pupils/{staff.pupil(school_class.code, 'Ada').public_id}/delete", data={"confirm": "yes"}
    )
    assert deleted.status_code == 302
    assert ada.get(run_id).status_code == 404  # her games went with her at once
    sign_in_clock.advance(check_seconds(app))
    assert ada.get("/progress").status_code == 302


def test_an_idle_sign_in_ends_with_its_message_and_an_active_one_does_not(app, guest, sign_in_clock):
    guest.sign_in()
    run_id = guest.start()
    idle = timedelta(minutes=app.config["SESSION_IDLE_MINUTES"])
    for _ in range(3):  # active for longer than the idle limit, a click now and then: still signed in
        sign_in_clock.advance(idle.total_seconds() / 2)
        assert guest.client.get(f"/runs/{run_id}").status_code == 200
    sign_in_clock.advance(idle.total_seconds() + 1)
    page = guest.client.get(f"/runs/{run_id}", follow_redirects=True).get_data(as_text=True)
    assert "signed out because the time ran out" in page


def test_a_sign_in_ends_after_its_lifetime_even_when_active(app, guest, sign_in_clock):
    guest.sign_in()
    lifetime = app.config["SESSION_LIFETIME_HOURS"] * 3600
    steps = 20
    for _ in range(steps):
        sign_in_clock.advance(lifetime / steps)
        assert guest.client.get("/progress").status_code == 200
    sign_in_clock.advance(check_seconds(app) + 1)
    assert guest.client.get("/progress").status_code == 302


def test_with_no_check_seconds_every_request_asks_the_database(app, guest, sign_in_reads):
    app.config["SESSION_CHECK_SECONDS"] = 0
    guest.sign_in()
    sign_in_reads.clear()
    for _ in range(3):
        assert guest.client.get("/progress").status_code == 200
    assert len(sign_in_reads) == 3


def test_the_cookie_keeps_only_the_facts_a_step_needs_never_a_secret(app, staff):
    staff.teacher()
    school_class = staff.school_class(pupils=("Ada",))
    ada = app.test_client()
    staff.sign_in_pupil(ada, school_class.code, "Ada")
    assert ada.get("/progress").status_code == 200
    checked = cookie(app, ada)[CHECKED]
    assert set(checked["pupil"]) == set(PUPIL_FACTS) and set(checked["class"]) == set(CLASS_FACTS)
    assert checked["teacher"] is None and checked["pupil"]["name"] == "Ada"
    kept = str(checked)
    assert staff.pupil(school_class.code, "Ada").secret not in kept and school_class.code not in kept
    teacher = teacher_signed_in(app, staff)
    assert cookie(app, teacher)[CHECKED]["pupil"] is None  # a teacher's: only who it is
    assert set(cookie(app, teacher)[CHECKED]) == {"at", "by", "teacher", "pupil", "class"}


def test_a_cookie_checked_by_other_code_is_checked_again(app, guest, sign_in_reads):
    guest.sign_in()
    assert guest.client.get("/progress").status_code == 200
    with guest.client.session_transaction() as kept:
        kept[CHECKED] = {**kept[CHECKED], "by": "0123456789abcdef"}  # an older release's, with its own facts
    sign_in_reads.clear()
    assert guest.client.get("/progress").status_code == 200
    assert guest.client.get("/progress").status_code == 200
    assert len(sign_in_reads) == 1


@pytest.mark.parametrize("value,accepted", [("0", True), ("30", True), ("31", False), ("-1", False)])
def test_the_check_seconds_are_at_most_thirty(monkeypatch, tmp_path, value, accepted):
    monkeypatch.setenv("SECRET_KEY", "s")
    monkeypatch.setenv("SESSION_CHECK_SECONDS", value)
    if accepted:
        assert from_environment(str(tmp_path))["SESSION_CHECK_SECONDS"] == int(value)
    else:
        with pytest.raises(SystemExit):
            from_environment(str(tmp_path))
