"""Server time of one lesson step: the answer POST, measured in-process with the Flask test client.

Plays Calculation War lessons as a pupil would (skip the intro, lay cards, answer every
question, go on) against a fresh SQLite database (or DATABASE_URL if set) and times each
answer POST from request to response (wall time, and the serving thread's CPU time, which
other work on the machine disturbs much less): routing, loading the run, marking, storing the
attempt and skill record, saving the run and rendering the htmx answer. Like htmx, every POST
sends back the parts the page shows (``shown``), so a step renders only what changed. Also counts
the SQL statements each kind of step sends to the database and the bytes of each answer (unzipped).

    .venv/bin/python bench/lesson_step.py [--answers 300]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import event, select  # noqa: E402

from tutor import limits  # noqa: E402
from tutor.answer_key import right_answer  # noqa: E402
from tutor.app import create_app  # noqa: E402
from tutor.db import upgrade  # noqa: E402
from tutor.lessons.base import move_token  # noqa: E402
from tutor.lessons.runner import LessonRun  # noqa: E402
from tutor.models import LessonRunRecord  # noqa: E402
from tutor.web import db  # noqa: E402

HTMX = {"HX-Request": "true"}
#: What the page shows, part by part, as every lesson answer gives it (the lesson or its changed parts).
SHOWN = re.compile(r'name="shown" value="([^"]*)"')


def shown_in(response) -> str:
    """The parts the page now shows (empty from code that sends the whole lesson every step)."""
    found = SHOWN.search(response.get_data(as_text=True))
    return found[1] if found else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=300)
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="kortmatte-bench-")
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{workdir}/bench.db"
    upgrade(url)
    app = create_app({"TESTING": False, "DATABASE_URL": url, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    limits.LESSON_STEPS = limits.LESSON_STARTS = limits.Limit("bench", 10**9, 60)  # one pupil at machine speed
    client.post("/guest", data={"name": "Bench"})
    statements = []
    event.listen(app.extensions["db_engine"], "before_cursor_execute", lambda *args: statements.append(1))
    answer_times, other_times, answer_statements, other_statements = [], [], [], []
    answer_cpu, other_cpu = [], []  # this thread's CPU time: what the step costs, whatever else the machine runs
    run_id, shown, answer_bytes, other_bytes = None, "", [], []
    while len(answer_times) < args.answers:
        if run_id is None:
            location = client.post(
                "/lessons/calculation-war/start", data={"players": "2", "strength": "beginner", "round_limit": "0"}
            ).headers["Location"]
            run_id = re.search(r"/runs/([\w-]+)", location).group(1)
            shown = shown_in(client.post(f"/runs/{run_id}/skip-intro", headers=HTMX))
        with app.app_context():
            run = LessonRun.from_dict(
                db.session().scalar(select(LessonRunRecord.data).where(LessonRunRecord.public_id == run_id))
            )
        if run.stage == "finished":
            run_id = None
            continue
        question = run.current_question()
        statements.clear()
        started, cpu_started = time.perf_counter(), time.thread_time()
        if question and run.drill.open:
            response = client.post(
                f"/runs/{run_id}/answer", data={"answer": right_answer(question, "en"), "shown": shown}, headers=HTMX
            )
            answer_times.append(time.perf_counter() - started)
            answer_cpu.append(time.thread_time() - cpu_started)
            answer_statements.append(len(statements))
        elif question:
            response = client.post(f"/runs/{run_id}/go-on", data={"shown": shown}, headers=HTMX)
            other_times.append(time.perf_counter() - started)
            other_cpu.append(time.thread_time() - cpu_started)
            other_statements.append(len(statements))
        else:
            response = client.post(
                f"/runs/{run_id}/move",
                data={"move": move_token(run.game_state().legal_moves()[0]), "shown": shown},
                headers=HTMX,
            )
            other_times.append(time.perf_counter() - started)
            other_cpu.append(time.thread_time() - cpu_started)
            other_statements.append(len(statements))
        assert response.status_code == 200, response.status_code
        (answer_bytes if question and run.drill.open else other_bytes).append(len(response.data))
        shown = shown_in(response)

    def figures(times):
        ms = sorted(t * 1000 for t in times)
        return (
            f"median {statistics.median(ms):.2f} ms, p90 {ms[int(len(ms) * 0.9)]:.2f} ms, max {ms[-1]:.2f} ms "
            f"(n={len(ms)})"
        )

    print(f"database: {url.split('://')[0]}")
    print(f"answer POST (mark, store attempt + skill, save run, render fragment): {figures(answer_times)}")
    print(f"other steps (lay a card with computer moves, or go on):                {figures(other_times)}")
    print(f"answer POST, CPU of the serving thread:                                {figures(answer_cpu)}")
    print(f"other steps, CPU of the serving thread:                                {figures(other_cpu)}")
    print(
        f"SQL statements per answer POST: median {statistics.median(answer_statements):.0f}, max "
        f"{max(answer_statements)}; "
        f"per other step: median {statistics.median(other_statements):.0f}, max {max(other_statements)}"
    )
    print(
        f"bytes per answer POST: median {statistics.median(answer_bytes):.0f}; "
        f"per other step: median {statistics.median(other_bytes):.0f}"
    )
    app.extensions["db_engine"].dispose()


if __name__ == "__main__":
    main()
