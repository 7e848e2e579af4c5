"""Rate limits shared through the database: counted per key and window, 429 with Retry-After, nothing kept from a
refused request."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from sqlalchemy import func, select

from tests.conftest import run_record
from tutor import limits
from tutor.limits import Limit
from tutor.models import LessonRunRecord, Pupil, RateLimit
from tutor.web import db

THREE_A_MINUTE = Limit("test", 3, 60)


@pytest.fixture
def database(app):
    with app.app_context():
        yield db.session()


def test_a_limit_counts_per_key_and_window_and_says_how_long_to_wait(database):
    # the window of 60 s holding 1000.5 runs from 960 to 1020
    assert [limits.hit(database, THREE_A_MINUTE, "ada", t) for t in (960, 1000.5, 1010)] == [None, None, None]
    assert limits.hit(database, THREE_A_MINUTE, "ada", 1015.2) == 5  # the fourth: wait until 1020
    assert limits.hit(database, THREE_A_MINUTE, "ola", 1016) is None  # someone else counts apart
    assert limits.hit(database, THREE_A_MINUTE, "ada", 1020) is None  # a new window starts from one
    assert database.scalar(select(RateLimit.hits).where(RateLimit.key == "test:ada")) == 1


def test_old_counts_are_purged_after_a_day(database):
    limits.hit(database, THREE_A_MINUTE, "ada", 1000)
    limits.hit(database, THREE_A_MINUTE, "ola", 90_000)
    assert (
        limits.purge(database, 1000 + 86_400 + 60) == 1
        and database.scalar(select(func.count()).select_from(RateLimit)) == 1
    )


def test_too_many_guests_from_one_address_get_a_429_page_and_no_guest_is_made(app, client, monkeypatch):
    monkeypatch.setattr(limits, "GUESTS", Limit("guest", 2, 600))
    for name in ("Ada", "Ola"):
        assert client.post("/guest", data={"name": name}).status_code == 302
    client.post("/language", data={"locale": "nb"})
    response = client.post("/guest", data={"name": "Kari"})
    assert response.status_code == 429 and 0 < int(response.headers["Retry-After"]) <= 600
    assert "Vent et øyeblikk" in response.get_data(as_text=True)  # in the child's language
    with app.app_context():
        assert db.session().scalars(select(Pupil.name).order_by(Pupil.name)).all() == ["Ada", "Ola"]


def test_a_school_behind_one_address_signs_in_but_one_browser_makes_few_guests(app, client, monkeypatch):
    """The address lets a whole school through; one browser bringing its device cookie is held to its own limit."""
    assert limits.GUESTS.hits >= 500 and limits.GUESTS_PER_DEVICE.hits < limits.GUESTS.hits
    monkeypatch.setattr(limits, "GUESTS_PER_DEVICE", Limit("guest-device", 2, 600))
    for name in ("Ada", "Ola"):
        assert client.post("/guest", data={"name": name}).status_code == 302
    assert client.post("/guest", data={"name": "Kari"}).status_code == 429  # the same browser, a third guest
    for name in ("Kari", "Liv", "Nils"):  # other browsers behind the same address
        assert app.test_client().post("/guest", data={"name": name}).status_code == 302
    with app.app_context():
        assert db.session().scalar(select(func.count()).select_from(Pupil)) == 5


def test_too_many_lesson_steps_or_starts_get_a_429_and_change_nothing(app, guest, client, monkeypatch):
    monkeypatch.setattr(limits, "LESSON_STEPS", Limit("step", 2, 60))
    monkeypatch.setattr(limits, "LESSON_STARTS", Limit("start", 1, 600))
    guest.sign_in()
    run_id = guest.start()
    assert client.post(f"/runs/{run_id}/next-step").status_code == 302
    assert client.post(f"/runs/{run_id}/next-step").status_code == 302
    step = run_record(app, run_id).data["step"]
    response = client.post(f"/runs/{run_id}/next-step", headers={"HX-Request": "true"})
    assert response.status_code == 429 and "Retry-After" in response.headers
    assert run_record(app, run_id).data["step"] == step
    assert (
        client.post("/lessons/calculation-war/start", data={"players": "2", "strength": "beginner"}).status_code == 429
    )
    with app.app_context():
        assert db.session().scalar(select(func.count()).select_from(LessonRunRecord)) == 1


def test_lesson_steps_are_counted_on_the_run_row_per_window():
    run = SimpleNamespace(steps_window_start=0, steps_in_window=0)
    for t in (960, 1000.5, 1010):
        limits.count_step(run, t, THREE_A_MINUTE)
    with pytest.raises(limits.Exceeded) as over:
        limits.count_step(run, 1015.2, THREE_A_MINUTE)
    assert over.value.wait == 5  # the window of 60 s holding 1015.2 ends at 1020
    limits.count_step(run, 1020, THREE_A_MINUTE)  # a new window starts from one
    assert (run.steps_window_start, run.steps_in_window) == (1020, 1)
