"""The Alembic migrations go up and down on SQLite and PostgreSQL, keep data, and match the models."""

from __future__ import annotations

import pytest
from alembic import command
from sqlalchemy import inspect, text

from tutor import db

TEACHER_TABLES = {
    "rate_limit",
    "skill_params",
    "question_difficulty",
    "teacher",
    "school_class",
    "class_teacher",
    "assignment",
    "assignment_pupil",
    "assignment_work",
    "assignment_extension",
    "pupil_group",
    "group_member",
    "sign_in_session",
    "sign_in_throttle",
    "sign_in_link",
    "sign_in_group_link",
}


def up_down_up(url: str) -> None:
    config = db.alembic_config(url)
    command.upgrade(config, "0001")
    engine = db.make_engine(url)
    with engine.begin() as connection:  # a guest and a run from before classes existed
        connection.execute(
            text("INSERT INTO pupil (name, is_guest, locale, created_at) VALUES ('Ada', true, 'en', CURRENT_TIMESTAMP)")
        )
        pupil_id = connection.execute(text("SELECT id FROM pupil")).scalar()
        connection.execute(
            text(
                "INSERT INTO lesson_run (pupil_id, game_id, seed, stage, data, version, created_at, updated_at) VALUES "
                "(:p, 'calculation-war', 1, 'intro', '{}', 1, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
            ),
            {"p": pupil_id},
        )
    command.upgrade(config, "head")
    with engine.connect() as connection:
        ids = (
            connection.execute(text("SELECT public_id FROM pupil UNION ALL SELECT public_id FROM lesson_run"))
            .scalars()
            .all()
        )
    assert len(ids) == 2 and all(len(i) == 16 for i in ids) and len(set(ids)) == 2
    assert TEACHER_TABLES <= set(inspect(engine).get_table_names())
    command.downgrade(config, "base")
    assert not (TEACHER_TABLES | {"pupil"}) & set(inspect(engine).get_table_names())
    command.upgrade(config, "head")
    command.check(config)  # the models and the migrations describe the same schema
    engine.dispose()


def test_migrations_up_and_down_on_sqlite(tmp_path):
    up_down_up(f"sqlite:///{tmp_path / 'migrate.db'}")


@pytest.mark.postgres
def test_migrations_up_and_down_on_postgresql(postgres_url):
    up_down_up(postgres_url)
