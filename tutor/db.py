"""The database connection: engines, sessions that carry their write gate, the write path, migrations.

SQLite is the embedded default (WAL journal, a busy timeout, foreign keys on);
PostgreSQL works by changing ``DATABASE_URL``. Nothing here is SQLite-only SQL.
Engines hide statement parameters in errors and logs: they hold pupils' names and answers.
Plain SQLAlchemy, no Flask: the web layer keeps one session per request (:mod:`tutor.web.db`).
"""

from __future__ import annotations

import fcntl
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

if TYPE_CHECKING:
    from alembic.config import Config  # alembic is imported only when migrating: it slows start-up

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
SQLITE_BUSY_TIMEOUT_MS = 5000


def sqlite_file(url: str) -> Path | None:
    """The database file of a SQLite URL (None for another database or one in memory)."""
    if not url.startswith("sqlite"):
        return None
    database = url.split("///", 1)[-1]
    return Path(database) if database and database != ":memory:" else None


#: Connections a PostgreSQL pool may open beyond its size, for a moment (its size is the worker's threads).
POOL_OVERFLOW = 2


def make_engine(url: str, pool_size: int | None = None) -> Engine:
    """The engine of ``url``; ``pool_size``: the connections a PostgreSQL pool keeps (a server's threads), else
    SQLAlchemy's default of 5. Every thread holds at most one connection at a time, so a pool of the threads
    (and :data:`POOL_OVERFLOW` more for a moment) is what a worker needs, and the sum over all workers and
    servers is what PgBouncer must hold (docs/deployment.md)."""
    if url.startswith("sqlite"):
        database = sqlite_file(url)
        if database is not None:
            database.parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000}, hide_parameters=True)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    pool = {"pool_size": pool_size, "max_overflow": POOL_OVERFLOW} if pool_size else {}
    return create_engine(url, pool_pre_ping=True, hide_parameters=True, **pool)


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    """WAL with ``synchronous=NORMAL``: a commit is in the WAL file (the OS's cache) when it returns, so a killed or
    crashed app loses nothing; only a power cut or an OS crash may lose the last commits (docs/deployment.md). The
    write lock is then held for the statements, not for a disk flush per commit."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
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


#: The key of a session's ``info`` that holds its write gate (None: writers meet the database's own locks only).
WRITE_GATE = "write_gate"


def make_sessions(engine: Engine) -> sessionmaker[Session]:
    """Sessions on ``engine``; on SQLite each carries the gate its writing steps queue at (:func:`writing`)."""
    gate = WriteGate(sqlite_file(str(engine.url))) if engine.dialect.name == "sqlite" else None
    return sessionmaker(engine, expire_on_commit=False, info={WRITE_GATE: gate})


def begin_write(db_session: Session) -> None:
    """Start the step's writes: on SQLite take the write lock now (BEGIN IMMEDIATE).

    Called after everything is read and computed, so the lock is held only for the writes;
    other writers wait for it in SQLite's busy handler rather than failing halfway through
    a transaction that read first. PostgreSQL needs nothing: row locks are taken as rows are written.
    """
    connection = db_session.connection()
    if connection.dialect.name == "sqlite" and not connection.connection.dbapi_connection.in_transaction:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


class Busy(Exception):
    """Another step held the write gate past the busy timeout: nothing was written, try again."""


class WriteGate:
    """One writing step at a time on a SQLite file, across threads and processes, in arrival order.

    SQLite lets one writer in; the others poll in its busy handler, sleeping 1, 2, 5 ... up to
    100 ms between tries, so under load a step waits far longer than the writes ahead of it
    take. Here the waiting is done by a thread lock (for the threads of one process) and
    ``flock`` on ``<database>.write-lock`` (for the processes): the kernel wakes the next
    writer the moment the lock is free, and frees it if a process dies. Writers that do not
    pass the gate (sign-in, teachers' pages) still meet SQLite's own lock and busy timeout.
    """

    def __init__(self, database: Path | None) -> None:
        self.lock_path = database.with_name(database.name + ".write-lock") if database is not None else None
        self.thread_lock = threading.Lock()
        self.fd: int | None = None
        self.fd_pid: int | None = None

    def _lock_file(self) -> int | None:
        """The lock file, opened once per process: a descriptor inherited over fork would share the lock."""
        if self.lock_path is not None and self.fd_pid != os.getpid():
            self.fd, self.fd_pid = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o600), os.getpid()
        return self.fd

    @contextmanager
    def held(self) -> Iterator[None]:
        if not self.thread_lock.acquire(timeout=SQLITE_BUSY_TIMEOUT_MS / 1000):
            raise Busy
        try:
            fd = self._lock_file()
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                if fd is not None:
                    fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            self.thread_lock.release()


@contextmanager
def writing(db_session: Session) -> Iterator[None]:
    """A step's writes as one short transaction: through the session's write gate, BEGIN IMMEDIATE, commit.

    Any error rolls the transaction back. A session without a gate (PostgreSQL) writes at once.
    """
    gate = db_session.info.get(WRITE_GATE)
    with gate.held() if gate is not None else nullcontext():
        try:
            begin_write(db_session)
            yield
            db_session.commit()
        except BaseException:
            db_session.rollback()
            raise


def is_locked(error: Exception) -> bool:
    """Whether a database error means SQLite stayed locked past the busy timeout (try again later)."""
    return "database is locked" in str(getattr(error, "orig", error))
