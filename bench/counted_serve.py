"""``kortmatte serve`` with a count of the SQL statements each acknowledged answer step sends.

    KORTMATTE_BENCH_COUNTS=DIR .venv/bin/python bench/counted_serve.py serve --port P [...]

bench/load.py starts the app this way to count from outside the app: a SQLAlchemy listener on
every engine counts the statements sent while Flask serves ``lessons.answer``; when such a
request is answered with success, each server process writes its running totals
(statements, answers) as two 64-bit numbers to ``DIR/<pid>``. Everything else is
``kortmatte serve`` itself.
"""

from __future__ import annotations

import os
import struct
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flask import has_request_context, request, request_finished, request_started  # noqa: E402
from sqlalchemy import event  # noqa: E402
from sqlalchemy.engine import Engine  # noqa: E402

from tutor.cli import main  # noqa: E402

ANSWER_ENDPOINT = "lessons.answer"
COUNTS_DIR = os.environ.get("KORTMATTE_BENCH_COUNTS")
this_request = threading.local()
totals_lock = threading.Lock()
totals = {"pid": None, "statements": 0, "answers": 0}


def answering() -> bool:
    return has_request_context() and request.endpoint == ANSWER_ENDPOINT


@event.listens_for(Engine, "before_cursor_execute")
def count_statement(*_args) -> None:
    if answering():
        this_request.statements = getattr(this_request, "statements", 0) + 1


def start_counting(_sender, **_extra) -> None:
    this_request.statements = 0


def add_answer(_sender, response, **_extra) -> None:
    if not answering() or response.status_code >= 400 or not COUNTS_DIR:
        return
    with totals_lock:
        if totals["pid"] != os.getpid():  # a freshly forked worker starts from zero
            totals.update(pid=os.getpid(), statements=0, answers=0)
        totals["statements"] += getattr(this_request, "statements", 0)
        totals["answers"] += 1
        record = struct.pack("<qq", totals["statements"], totals["answers"])
        with open(os.path.join(COUNTS_DIR, str(os.getpid())), "wb") as out:
            out.write(record)


request_started.connect(start_counting)
request_finished.connect(add_answer)

if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
