"""Seconds from launching ``kortmatte serve`` to its first HTTP 200, with a database that already exists.

Migrates a temporary SQLite database once, then launches ``.venv/bin/kortmatte serve --port P``
with ``DATABASE_URL`` pointing at it, polls ``/`` until it answers 200, and stops the server;
prints each run and the median. Also times ``import tutor.app`` plus ``create_app()`` in a fresh
interpreter, the part of start-up that imports decide.

A server keeps compiled bytecode of its modules between starts, so the runs do too (in a
temporary ``PYTHONPYCACHEPREFIX``, after one launch that is not counted), even where
``PYTHONDONTWRITEBYTECODE`` is set; ``--cold`` keeps the environment as it is.

    .venv/bin/python bench/startup.py [--runs 5] [--cold] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tutor import db  # noqa: E402

KORTMATTE = ROOT / ".venv" / "bin" / "kortmatte"
POLL_SECONDS = 0.01
GIVE_UP_SECONDS = 60
STOP_SECONDS = 10
IMPORT_AND_CREATE = (
    "import time; t = time.perf_counter(); import tutor.app; tutor.app.create_app(); print(time.perf_counter() - t)"
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers_200(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as response:
            return response.status == 200
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


def first_200_seconds(env: dict) -> float:
    """Launch the server, wait for a 200 on /, stop it; the seconds from launch to that 200."""
    port = free_port()
    started = time.perf_counter()
    server = subprocess.Popen(
        [str(KORTMATTE), "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        while not answers_200(f"http://127.0.0.1:{port}/"):
            if server.poll() is not None:
                raise SystemExit(f"kortmatte serve exited with {server.returncode} before answering")
            if time.perf_counter() - started > GIVE_UP_SECONDS:
                raise SystemExit(f"no 200 within {GIVE_UP_SECONDS} s")
            time.sleep(POLL_SECONDS)
        return time.perf_counter() - started
    finally:
        stop(server)


def stop(server: subprocess.Popen) -> None:
    """Stop the server and any workers it started; kill them if they are still shutting down after a while."""
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=STOP_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


def import_seconds(env: dict) -> float:
    out = subprocess.run(
        [sys.executable, "-c", IMPORT_AND_CREATE],
        env=env,
        cwd=tempfile.gettempdir(),
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return float(out.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--cold",
        action="store_true",
        help="keep PYTHONDONTWRITEBYTECODE as set: every start compiles the app's modules",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="kortmatte-startup-")
    url = f"sqlite:///{workdir}/startup.db"
    db.upgrade(url)
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "bench-startup"}
    if not args.cold:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = f"{workdir}/pycache"
        first_200_seconds(env)  # fills the bytecode cache
    runs = [first_200_seconds(env) for _ in range(args.runs)]
    imports = [import_seconds(env) for _ in range(args.runs)]
    result = {
        "bytecode_cache": not args.cold,
        "first_200_s": statistics.median(runs),
        "runs_s": [round(r, 3) for r in runs],
        "import_and_create_app_s": statistics.median(imports),
    }
    if args.json:
        print(json.dumps(result))
        return
    print("first 200 after launch (s): " + ", ".join(f"{r:.2f}" for r in runs))
    print(
        f"median first 200: {result['first_200_s']:.2f} s; import tutor.app + create_app: "
        f"{result['import_and_create_app_s']:.2f} s (median of {args.runs}, bytecode "
        f"{'not ' if args.cold else ''}cached)"
    )


if __name__ == "__main__":
    main()
