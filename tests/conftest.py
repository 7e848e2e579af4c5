"""Fixtures built from the app factory: app, client, and helpers that sign in a guest, a teacher or a pupil."""

from __future__ import annotations

import re
import shutil
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from sqlalchemy import select

import tutor.web.auth
import tutor.web.lessons
from tutor import accounts, classroom
from tutor.app import create_app
from tutor.db import upgrade
from tutor.engine import GAMES
from tutor.lessons import LESSONS
from tutor.lessons.base import move_token
from tutor.lessons.runner import LessonRun
from tutor.models import LessonRunRecord, Pupil, SchoolClass, Teacher
from tutor.web import db

pytest_plugins = ["tests.postgres", "tests.mail_support", "tests.browser_support"]


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory):
    """One SQLite file brought to the newest schema by the real migrations, copied for each test."""
    path = tmp_path_factory.mktemp("template") / "migrated.db"
    upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture
def database_url(tmp_path, migrated_sqlite):
    """A fresh database at the newest schema (upgrading it again is a no-op, as on a real server)."""
    path = tmp_path / "test.db"
    shutil.copyfile(migrated_sqlite, path)
    return f"sqlite:///{path}"


@pytest.fixture
def app(database_url, tmp_path):
    app = create_app(
        {"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "test-secret", "WTF_CSRF_ENABLED": False}
    )
    yield app
    app.extensions["db_engine"].dispose()


@pytest.fixture
def client(app):
    return app.test_client()


class Guest:
    """Signs a guest in and drives a lesson through the same forms a pupil uses."""

    def __init__(self, client):
        self.client = client

    def sign_in(self, name="Ada", locale="en"):
        self.client.post("/language", data={"locale": locale})
        return self.client.post("/guest", data={"name": name}, follow_redirects=True)

    def start(self, game_id="calculation-war", **form):
        """Start a lesson: two players, or the fewest its lesson offers (Gnav's: 3), unless ``form`` says."""
        players = str(max(2, LESSONS[game_id].player_choices(GAMES[game_id])[0]))
        response = self.client.post(
            f"/lessons/{game_id}/start", data={"players": players, "strength": "beginner", **form}
        )
        assert response.status_code == 302, response.data[:500]
        return run_id_in(response.headers["Location"])

    def play_until(self, app, run_id: str, found, limit: int = 80):
        """Go on after questions and make the last legal move (draw, pass, turn) until ``found(state)``
        names something; return the run, its state and what was found."""
        for _ in range(limit):
            run = LessonRun.from_dict(run_record(app, run_id).data)
            if run.drill.question:
                self.client.post(f"/runs/{run_id}/go-on")
                continue
            state = run.game_state()
            what = found(state)
            if what is not None and what is not False:
                return run, state, what
            self.client.post(f"/runs/{run_id}/move", data={"move": move_token(state.legal_moves()[-1])})
        raise AssertionError(f"nothing found in {limit} steps of this deal")


class SignInClock:
    """The clock the sign-in reads (:func:`tutor.web.auth.utcnow`), moved on by the test."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def sign_in_clock(monkeypatch) -> SignInClock:
    """A hand-moved clock for sign-ins: a signed cookie is believed ``SESSION_CHECK_SECONDS`` after its last check."""
    clock = SignInClock()
    monkeypatch.setattr(tutor.web.auth, "utcnow", clock)
    return clock


@pytest.fixture
def fixed_deal(monkeypatch):
    """Fix the seed of every lesson started through the routes, so that a route test always plays one deal."""

    def fix(seed: int) -> None:
        monkeypatch.setattr(tutor.web.lessons, "secrets", SimpleNamespace(randbits=lambda bits: seed))

    return fix


def with_turn_clock(game_id: str) -> dict:
    """Start-form options that switch the game's turn clock on (30 s) when it has one, so its hourglass form shows."""
    has_clock = any(spec.key == "turn_seconds" for spec in GAMES[game_id].option_specs)
    return {"turn_seconds": "30"} if has_clock else {}


def run_id_in(location: str) -> str:
    """The public id of the run a redirect leads to."""
    return re.search(r"/runs/([\w-]+)", location).group(1)


def run_record(app, run_id: str) -> LessonRunRecord:
    with app.app_context():
        return db.session().scalar(select(LessonRunRecord).where(LessonRunRecord.public_id == run_id))


@pytest.fixture
def guest(client):
    return Guest(client)


PASSWORD = "a long enough password"


class Staff:
    """Creates teachers, classes and pupils in the database and signs people in through the forms."""

    def __init__(self, app):
        self.app = app

    def teacher(self, email="tove@school.example", name="Tove", password=PASSWORD, locale="en") -> str:
        """Create a teacher; returns the e-mail address."""
        with self.app.app_context():
            database = db.session()
            database.add(Teacher(email=email, name=name, password_hash=accounts.hash_password(password), locale=locale))
            database.commit()
        return email

    def sign_in(self, client, email="tove@school.example", password=PASSWORD):
        return client.post("/teacher/sign-in", data={"email": email, "password": password})

    def school_class(
        self,
        email="tove@school.example",
        name="4B",
        pupils=("Ada", "Ola", "Lise"),
        locale="en",
        sign_in="pictures",
        timezone="Europe/Oslo",
    ) -> SchoolClass:
        """A class taught by the teacher with ``email``, with pupils; returns the class (detached)."""
        with self.app.app_context():
            database = db.session()
            teacher = database.scalar(select(Teacher).where(Teacher.email == email))
            school_class = classroom.create_class(database, teacher, name, locale, timezone, sign_in)
            classroom.add_pupils(database, school_class, "\n".join(pupils))
            database.commit()
            database.refresh(school_class)
            return school_class

    def pupil(self, code: str, name: str) -> Pupil:
        with self.app.app_context():
            return db.session().scalar(
                select(Pupil).join(SchoolClass).where(SchoolClass.code == code, Pupil.name == name)
            )

    def sign_in_pupil(self, client, code: str, name: str):
        """Sign a pupil in as a child does: class code, own name, then the pictures one by one (or the PIN)."""
        pupil = self.pupil(code, name)
        with self.app.app_context():
            kind = db.session().scalar(select(SchoolClass.sign_in).where(SchoolClass.code == code))
        url = f"/class/{code}/{pupil.public_id}"
        if kind == "pin":
            return client.post(url, data={"pin": pupil.secret})
        picked, response = [], None
        for picture in pupil.secret.split():
            response = client.post(url, data={"picked": " ".join(picked), "pick": picture})
            picked.append(picture)
        return response


@pytest.fixture
def staff(app):
    return Staff(app)
