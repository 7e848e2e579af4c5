"""The database connection: engine per app, a session per request, migrations on demand.

SQLite is the embedded default (WAL journal, a busy timeout, foreign keys on);
PostgreSQL works by changing ``DATABASE_URL``. Nothing here is SQLite-only SQL.
Engines hide statement parameters in errors and logs: they hold pupils' names and answers.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from flask import Flask, current_app, g
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

if TYPE_CHECKING:
    from alembic.config import Config  # alembic is imported only when migrating: it slows start-up

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
SQLITE_BUSY_TIMEOUT_MS = 5000


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        database = url.split("///", 1)[-1]
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000}, hide_parameters=True)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True, hide_parameters=True)


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def alembic_config(url: str) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str) -> None:
    """Bring the database at ``url`` to the newest schema."""
    from alembic import command

    command.upgrade(alembic_config(url), "head")


def init_app(app: Flask) -> None:
    engine = make_engine(app.config["DATABASE_URL"])
    app.extensions["db_engine"] = engine
    app.extensions["db_sessions"] = sessionmaker(engine, expire_on_commit=False)
    app.teardown_appcontext(_close_session)


def begin_write(db_session: Session) -> None:
    """Start the step's writes: on SQLite take the write lock now (BEGIN IMMEDIATE).

    Called after everything is read and computed, so the lock is held only for the writes;
    other writers wait for it in SQLite's busy handler rather than failing halfway through
    a transaction that read first. PostgreSQL needs nothing: row locks are taken as rows are written.
    """
    connection = db_session.connection()
    if connection.dialect.name == "sqlite" and not connection.connection.dbapi_connection.in_transaction:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def is_locked(error: Exception) -> bool:
    """Whether a database error means SQLite stayed locked past the busy timeout (try again later)."""
    return "database is locked" in str(getattr(error, "orig", error))


def session() -> Session:
    """The request's database session (opened on first use, closed at teardown)."""
    if "db_session" not in g:
        g.db_session = current_app.extensions["db_sessions"]()
    return g.db_session


def _close_session(_error=None) -> None:
    db_session = g.pop("db_session", None)
    if db_session is not None:
        db_session.close()
