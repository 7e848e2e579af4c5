"""``kortmatte serve`` with counts from inside each server process: SQL statements per answer, CPU per step kind.

    KORTMATTE_BENCH_COUNTS=DIR .venv/bin/python bench/counted_serve.py serve --port P [...]

bench/load.py starts the app this way to measure from outside the app: a SQLAlchemy listener
on every engine counts the statements sent while Flask serves ``lessons.answer``, and each
request's thread CPU time (``time.thread_time``, so other threads' work is not counted) is
added up by endpoint. After each successful answer and every ``WRITE_EVERY`` requests each
server process writes its running totals as JSON to ``DIR/<pid>``:
``{"statements": S, "answers": A, "cpu": {endpoint: [seconds, requests]}}``. Everything else
is ``kortmatte serve`` itself.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flask import has_request_context, request, request_finished, request_started  # noqa: E402
from sqlalchemy import event  # noqa: E402
from sqlalchemy.engine import Engine  # noqa: E402

from tutor.cli import main  # noqa: E402

ANSWER_ENDPOINT = "lessons.answer"
COUNTS_DIR = os.environ.get("KORTMATTE_BENCH_COUNTS")
#: Totals are written at least this often (in requests), so that load.py reads CPU figures between its windows.
WRITE_EVERY = 20
this_request = threading.local()
totals_lock = threading.Lock()
totals: dict = {"pid": None}


def answering() -> bool:
    return has_request_context() and request.endpoint == ANSWER_ENDPOINT


@event.listens_for(Engine, "before_cursor_execute")
def count_statement(*_args) -> None:
    if answering():
        this_request.statements = getattr(this_request, "statements", 0) + 1


def start_counting(_sender, **_extra) -> None:
    this_request.statements = 0
    this_request.cpu_started = time.thread_time()


def add_request(_sender, response, **_extra) -> None:
    if not COUNTS_DIR:
        return
    cpu = time.thread_time() - getattr(this_request, "cpu_started", time.thread_time())
    answered = answering() and response.status_code < 400
    with totals_lock:
        if totals["pid"] != os.getpid():  # a freshly forked worker starts from zero
            totals.update(pid=os.getpid(), statements=0, answers=0, requests=0, cpu={})
        seconds, requests = totals["cpu"].get(request.endpoint or "none", (0.0, 0))
        totals["cpu"][request.endpoint or "none"] = (seconds + cpu, requests + 1)
        totals["requests"] += 1
        if answered:
            totals["statements"] += getattr(this_request, "statements", 0)
            totals["answers"] += 1
        if answered or totals["requests"] % WRITE_EVERY == 0:
            record = {key: totals[key] for key in ("statements", "answers", "cpu")}
            with open(os.path.join(COUNTS_DIR, str(os.getpid())), "w") as out:
                json.dump(record, out)


request_started.connect(start_counting)
request_finished.connect(add_request)

if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
