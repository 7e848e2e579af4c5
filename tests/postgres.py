"""A real PostgreSQL server for the tests that need one, started and stopped by the test run.

The server binaries come from Debian's postgresql package (make test installs it when
missing). PostgreSQL refuses to run as root, so as root the cluster belongs to the
``postgres`` user. Set KORTMATTE_TEST_POSTGRES_URL to use a server you already run.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time

import pytest


def _bindir() -> str | None:
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.path.exists(os.path.join(candidate, "initdb")):
            return candidate
    found = shutil.which("initdb")
    return os.path.dirname(found) if found else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _as_server_user(command: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


@pytest.fixture(scope="session")
def postgres_server():
    """The base URL of a running PostgreSQL server (without a database name)."""
    given = os.environ.get("KORTMATTE_TEST_POSTGRES_URL")
    if given:
        yield given.rstrip("/")
        return
    if _bindir() is None:
        pytest.fail("PostgreSQL server binaries not found: `make test` installs Debian's postgresql package")
    with started_server() as url:
        yield url


@contextlib.contextmanager
def started_server():
    """A throw-away PostgreSQL server on a free port (also used by bench/load.py); yields its base URL."""
    bindir = _bindir()
    workdir = tempfile.mkdtemp(prefix="kortmatte-pg-")
    data, port = os.path.join(workdir, "data"), _free_port()
    if os.geteuid() == 0:
        shutil.chown(workdir, "postgres", "postgres")
        os.chmod(workdir, 0o700)
    subprocess.run(
        _as_server_user([f"{bindir}/initdb", "-D", data, "-U", "kortmatte", "--auth=trust", "-E", "UTF8", "--no-sync"]),
        check=True,
        capture_output=True,
    )
    log = os.path.join(workdir, "server.log")
    options = f"-p {port} -k {workdir} -c listen_addresses=127.0.0.1 -c fsync=off"
    subprocess.run(
        _as_server_user([f"{bindir}/pg_ctl", "-D", data, "-l", log, "-o", options, "-w", "start"]),
        check=True,
        capture_output=True,
    )
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if (
                subprocess.run(
                    [f"{bindir}/pg_isready", "-h", "127.0.0.1", "-p", str(port)], capture_output=True
                ).returncode
                == 0
            ):
                break
            time.sleep(0.2)
        yield f"postgresql+psycopg://kortmatte@127.0.0.1:{port}"
    finally:
        subprocess.run(
            _as_server_user([f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "stop"]), capture_output=True
        )
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server):
    """A fresh, empty database on the test server for one test."""
    import psycopg

    name = f"kortmatte_{os.getpid()}_{time.monotonic_ns()}"
    admin = postgres_server.replace("postgresql+psycopg://", "postgresql://") + "/postgres"
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    yield f"{postgres_server}/{name}"
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
