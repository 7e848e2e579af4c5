"""SQLite's durability trade: ``synchronous=NORMAL`` in WAL mode, and a killed app loses no acknowledged write."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

from sqlalchemy import text

from tutor import ROOT
from tutor.db import make_engine

ACKNOWLEDGED_BEFORE_KILL = 150

#: Commits rows one by one through the app's own write path (session, write gate, BEGIN IMMEDIATE, commit) and
#: prints each row's number once its commit has returned: what a lesson step acknowledges to the pupil.
WRITER = textwrap.dedent(
    """
    import sys
    from sqlalchemy import text
    from tutor.db import make_engine, make_sessions, writing
    engine = make_engine(sys.argv[1])
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE IF NOT EXISTS answers (n INTEGER PRIMARY KEY, typed TEXT)"))
    sessions = make_sessions(engine)
    n = 0
    while True:
        n += 1
        with sessions() as session, writing(session):
            session.execute(text("INSERT INTO answers (n, typed) VALUES (:n, :typed)"), {"n": n, "typed": "x" * 200})
        print(n, flush=True)
    """
)


def test_sqlite_runs_in_wal_mode_with_normal_synchronous(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'pragmas.db'}")
    with engine.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert connection.execute(text("PRAGMA synchronous")).scalar() == 1  # NORMAL (FULL is 2)
    engine.dispose()


def test_a_killed_app_loses_no_acknowledged_write(tmp_path):
    url = f"sqlite:///{tmp_path / 'killed.db'}"
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, url],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    acknowledged = 0
    try:
        for line in writer.stdout:
            acknowledged = int(line)
            if acknowledged >= ACKNOWLEDGED_BEFORE_KILL:
                break
    finally:
        os.kill(writer.pid, signal.SIGKILL)  # while it is writing the next rows
        writer.wait()
        writer.stdout.close()
    assert acknowledged >= ACKNOWLEDGED_BEFORE_KILL
    engine = make_engine(url)
    with engine.connect() as connection:
        stored = connection.execute(text("SELECT count(*), max(n) FROM answers")).one()
    engine.dispose()
    assert stored[0] == stored[1] >= acknowledged
