"""``kortmatte serve`` as an operator runs it: several worker processes that all answer, idle connections that stall no
one."""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.postgres import _free_port as free_port
from tutor import ROOT
from tutor.cli import build_parser

START_TIMEOUT_S = 60
IDLE_CONNECTIONS = 150  # waitress stopped accepting at 100


def get(port: int, path: str = "/", timeout: float = 10) -> tuple[int, http.client.HTTPConnection]:
    """GET ``path`` on a new connection, left open (kept alive) so the serving process still holds it."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    return response.status, connection


def children(pid: int) -> set[int]:
    return {
        int(child) for task in Path(f"/proc/{pid}/task").iterdir() for child in (task / "children").read_text().split()
    }


def pid_holding(connection: http.client.HTTPConnection, server_port: int, pids: set[int]) -> int | None:
    """Which of ``pids`` holds the server end of ``connection`` (from /proc/net/tcp and the processes' fds)."""
    client_port = connection.sock.getsockname()[1]
    inode = None
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].rsplit(":", 1)[1], 16) == server_port and int(fields[2].rsplit(":", 1)[1], 16) == client_port:
            inode = fields[9]
    for pid in pids:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                if os.readlink(fd) == f"socket:[{inode}]":
                    return pid
            except OSError:
                continue
    return None


@pytest.fixture
def serve(database_url):
    """Start ``kortmatte serve`` with the given options on a free port; returns (process, port) once / answers 200."""
    started = []

    def start(*options: str, database: str = database_url) -> tuple[subprocess.Popen, int]:
        port = free_port()
        env = {**os.environ, "DATABASE_URL": database, "SECRET_KEY": "test-serve"}
        kortmatte = Path(sys.executable).with_name("kortmatte")
        process = subprocess.Popen(
            [str(kortmatte), "serve", "--port", str(port), *options],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        started.append(process)
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            assert process.poll() is None, f"kortmatte serve exited with {process.returncode}"
            try:
                status, connection = get(port, timeout=2)
                connection.close()
                if status == 200:
                    return process, port
            except OSError:
                pass
            assert time.monotonic() < deadline, f"no HTTP 200 within {START_TIMEOUT_S} s"
            time.sleep(0.1)

    yield start
    for process in started:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def test_serve_migrates_then_runs_several_workers_that_all_answer_and_stop_cleanly(serve, tmp_path):
    database = tmp_path / "new.db"
    process, port = serve("--workers", "2", "--threads", "2", database=f"sqlite:///{database}")
    status, connection = get(port, "/class/BCDFGH")  # a query on the schema's tables: 404, not a 500
    connection.close()
    assert status == 404
    workers = children(process.pid)
    assert len(workers) == 2
    answered_by = set()
    with ThreadPoolExecutor(8) as pool:
        for _ in range(25):  # rounds of 8 requests at once, until both workers have answered
            for status, connection in pool.map(lambda _: get(port), range(8)):
                assert status == 200
                answered_by.add(pid_holding(connection, port, workers))
                connection.close()
            if answered_by == workers:
                break
    assert answered_by == workers
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)


def test_idle_connections_do_not_stall_the_pupils(serve):
    process, port = serve("--workers", "2", "--threads", "2")
    idle = []
    try:
        for _ in range(IDLE_CONNECTIONS):
            idle.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        time.sleep(0.5)  # the workers take up whatever they will
        status, connection = get(port, timeout=10)
        connection.close()
        assert status == 200
    finally:
        for sock in idle:
            sock.close()


@pytest.mark.parametrize("bad", ["0", "-2", "many"])
def test_bad_worker_and_thread_counts_are_refused(capsys, bad):
    for option in ("--workers", "--threads"):
        with pytest.raises(SystemExit) as exit_info:
            build_parser().parse_args(["serve", option, bad])
        assert exit_info.value.code == 2 and option in capsys.readouterr().err


NGINX_CONF = ROOT / "docs" / "nginx" / "kortmatte.conf"
NGINX_WRAPPER = """
pid {work}/nginx.pid;
error_log {work}/error.log;
events {{}}
http {{
    client_body_temp_path {work}/body;
    proxy_temp_path {work}/proxy;
    fastcgi_temp_path {work}/fastcgi;
    uwsgi_temp_path {work}/uwsgi;
    scgi_temp_path {work}/scgi;
    access_log off;
    include {work}/kortmatte.conf;
}}
"""


@pytest.mark.skipif(
    shutil.which("nginx") is None or shutil.which("openssl") is None,
    reason="needs nginx and openssl (Debian's nginx-light and openssl)",
)
def test_the_example_nginx_configuration_passes_nginx_t(tmp_path):
    """docs/nginx/kortmatte.conf, with a throw-away certificate and cache folder, inside a minimal nginx.conf."""
    key, certificate = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=kortmatte.school.example",
            "-keyout",
            str(key),
            "-out",
            str(certificate),
        ],
        check=True,
        capture_output=True,
    )
    conf = NGINX_CONF.read_text()
    for real, test in (
        ("/etc/letsencrypt/live/kortmatte.school.example/fullchain.pem", certificate),
        ("/etc/letsencrypt/live/kortmatte.school.example/privkey.pem", key),
        ("/var/cache/nginx/kortmatte", tmp_path / "cache"),
    ):
        assert real in conf
        conf = conf.replace(real, str(test))
    (tmp_path / "kortmatte.conf").write_text(conf)
    (tmp_path / "nginx.conf").write_text(NGINX_WRAPPER.format(work=tmp_path))
    checked = subprocess.run(
        [shutil.which("nginx"), "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stderr
    assert "warn" not in checked.stderr, checked.stderr


def test_each_worker_pools_a_postgresql_connection_per_thread(monkeypatch, tmp_path):
    """The pool is the worker's threads (and a little overflow): what PgBouncer must hold is workers x threads."""
    import tutor.cli
    import tutor.db

    served = {}
    monkeypatch.setenv("DATABASE_URL", "postgresql+psycopg://kortmatte:secret@db.invalid/kortmatte")
    monkeypatch.setattr(tutor.db, "upgrade", lambda url: None)
    monkeypatch.setattr(tutor.cli, "serve_wsgi", lambda app, *args: served.update(app=app, args=args))
    assert tutor.cli.cmd_serve(build_parser().parse_args(["serve", "--workers", "2", "--threads", "3"])) == 0
    pool = served["app"].extensions["db_engine"].pool
    assert served["args"][-2:] == (2, 3) and pool.size() == 3 and pool._max_overflow == tutor.db.POOL_OVERFLOW
