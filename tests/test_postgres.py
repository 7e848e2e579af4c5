"""The same app on a real PostgreSQL server: migrations, a lesson with answers, version checks."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect, select
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from tests.test_web import play_until_question, run_of, through_intro
from tutor.answer_key import right_answer
from tutor.app import create_app
from tutor.db import make_engine, upgrade
from tutor.models import AttemptRecord, LessonRunRecord, Pupil, SkillRecord
from tutor.web import db

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_app(postgres_url):
    upgrade(postgres_url)
    app = create_app({"TESTING": True, "DATABASE_URL": postgres_url, "SECRET_KEY": "pg", "WTF_CSRF_ENABLED": False})
    yield app
    app.extensions["db_engine"].dispose()


def test_migrations_create_every_table(postgres_url):
    upgrade(postgres_url)
    engine = make_engine(postgres_url)
    assert {"pupil", "lesson_run", "attempt", "skill_record", "alembic_version"} <= set(
        inspect(engine).get_table_names()
    )
    upgrade(postgres_url)  # running again is harmless
    engine.dispose()


def test_a_lesson_with_answers_on_postgres(pg_app):
    client = pg_app.test_client()
    client.post("/guest", data={"name": "Pia"})
    response = client.post("/lessons/calculation-war/start", data={"players": "4", "strength": "strong"})
    run_id = response.headers["Location"].rsplit("/", 1)[1]
    through_intro(client, run_id)
    question = play_until_question(client, pg_app, run_id)
    client.post(f"/runs/{run_id}/answer", data={"answer": right_answer(question, "en")})
    with pg_app.app_context():
        session = db.session()
        assert session.scalar(select(AttemptRecord)).correct
        assert session.scalar(select(SkillRecord)).attempts == 1
    assert run_of(pg_app, run_id).drill.open is False


def test_two_servers_saving_one_run_cannot_overwrite_each_other(pg_app, postgres_url):
    engine = make_engine(postgres_url)
    with Session(engine) as setup:
        pupil = Pupil(name="Ola")
        setup.add(pupil)
        setup.flush()
        setup.add(LessonRunRecord(pupil_id=pupil.id, game_id="calculation-war", seed=1, stage="intro", data={}))
        setup.commit()
    with Session(engine) as first, Session(engine) as second:
        a, b = first.scalar(select(LessonRunRecord)), second.scalar(select(LessonRunRecord))
        a.stage, b.stage = "play", "finished"
        first.commit()
        with pytest.raises(StaleDataError):
            second.commit()
    engine.dispose()


def test_parallel_guesses_at_one_pupil_all_count_on_postgres(pg_app):
    """Two app servers' worth of threads guess at once: the row lock of each count lets only five be checked."""
    from concurrent.futures import ThreadPoolExecutor

    from tests.conftest import Staff
    from tests.test_guessing import guess, wrong_secret
    from tutor import limits

    staff = Staff(pg_app)
    staff.teacher()
    school_class = staff.school_class(pupils=("Ada",))
    ada = staff.pupil(school_class.code, "Ada")
    url = f"/class/{school_class.code}/{ada.public_id}"
    with ThreadPoolExecutor(max_workers=8) as pool:
        codes = list(pool.map(lambda _: guess(pg_app, url, wrong_secret(ada)), range(24)))
    assert codes.count(302) == limits.PUPIL_TRIES.hits and codes.count(429) == 24 - limits.PUPIL_TRIES.hits
