"""Server time and SQL statements of the teacher's dashboards on a big class.

Builds a SQLite database (or uses DATABASE_URL if set) with two classes of the same
teacher, one of 30 pupils and one of 10, each pupil with 10,000 answers over the last
3 weeks (bulk inserted: real drill questions from the lessons, right or wrong by the
pupil's ability, misconceptions, unreadable answers, ``p_known_after`` from the skill
model, lesson runs of which some belong to an assignment, AssignmentWork summaries, skill
records and the per-day answer counts that the misconception report reads). Then, signed in
as the teacher with the Flask test client, it requests each dashboard page many times and
prints the median and 90th percentile server time and the number of SQL statements per page
(counted with a ``before_cursor_execute`` listener on the app's engine) for both classes: the
counts must be the same, whatever the size.

Goals (30 pupils): median at most 50 ms for the class grid (the grid's own htmx refresh) and
the assignment view; at most 100 ms for the needs-attention panel (its own refresh) and the
misconception report of a whole week.

    .venv/bin/python bench/dashboard.py [--quick] [--requests 30]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import event, select  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

from tutor import accounts, answer_counts, classroom, reports  # noqa: E402
from tutor.answer_key import right_answer, wrong_answer  # noqa: E402
from tutor.app import create_app  # noqa: E402
from tutor.db import make_engine, upgrade  # noqa: E402
from tutor.lessons import LESSONS  # noqa: E402
from tutor.lessons.base import move_token  # noqa: E402
from tutor.lessons.runner import FINISHED, LessonRun  # noqa: E402
from tutor.models import (
    AnswerDayCount,
    Assignment,
    AssignmentWork,
    AttemptRecord,
    LessonRunRecord,
    SkillRecord,
    Teacher,
    new_public_id,
    utcnow,
)  # noqa: E402
from tutor.skill_model import skills  # noqa: E402

EMAIL, PASSWORD = (
    f"bench-{random.getrandbits(32):08x}@school.example",
    "a long enough password",
)  # new each run (DATABASE_URL may be reused)
ANSWERS_PER_RUN = 50
ERROR_CODES = ("letters", "empty", "bad_character", "decimal_comma", "missing_number")


def simulated_answer(question, rng: random.Random, skill: float) -> str:
    """Right with chance ``skill``, else wrong (the answer key's; right when every button is)."""
    wrong = wrong_answer(question, "en", rng) if rng.random() >= skill else None
    return wrong or right_answer(question, "en", rng)


@dataclass(frozen=True)
class Asked:
    """A question as the lessons store it, with the answer key's right and wrong answer (worked out once)."""

    question: dict
    right: str
    wrong: str


def question_pool(seeds: int = 3, steps: int = 80) -> list[Asked]:
    """Real questions, as the lessons store them, from a few simulated lessons of every game."""
    pool = []
    for lesson in LESSONS.values():
        for seed in range(seeds):
            now, rng = 0, random.Random(seed)
            run = LessonRun.start(lesson, 2, {}, ["beginner"], seed, now)
            run.skip_intro(lesson, {}, now)
            for _ in range(steps):
                if run.stage == FINISHED:
                    break
                question, now = run.current_question(), now + 5000
                if question and run.drill.open:
                    stored = run.answer(simulated_answer(question, rng, 0.5), "en", now).question
                    right = right_answer(stored, "en")
                    pool.append(Asked(stored, right, wrong_answer(stored, "en") or right))
                elif question:
                    run.close_question(lesson, {}, now)
                else:
                    run.move(move_token(run.game_state().legal_moves()[0]), lesson, {}, now)
    return pool


def answered_wrong(asked: Asked, rng: random.Random) -> tuple[str, str | None]:
    """A wrong answer and the misconception it shows: a misconception's value most of the time, else the key's."""
    named = [m for m in asked.question["misconceptions"] if m["values"]]
    if named and rng.random() < 0.7:
        chosen = rng.choice(named)
        return rng.choice(chosen["values"]), chosen["id"]
    return asked.wrong, None


def build_class(
    database: Session,
    teacher: Teacher,
    name: str,
    pupils: int,
    answers: int,
    pool: list[Asked],
    now: datetime,
    rng: random.Random,
) -> tuple[str, str, list[str]]:
    """A class with ``pupils`` pupils of ``answers`` answers each; returns its public id, its assignment's and its
    pupils'."""
    school_class = classroom.create_class(database, teacher, name, "en", "Europe/Oslo", "pictures")
    names = [f"{rng.choice(['Ada', 'Ola', 'Lise', 'Emil', 'Nora', 'Jonas', 'Sofie'])}{i:02d}" for i in range(pupils)]
    classroom.add_pupils(database, school_class, "\n".join(names))
    start = now - timedelta(days=21)
    assignment = Assignment(
        class_id=school_class.id,
        created_by=teacher.id,
        game_id="calculation-war",
        players=2,
        bots="beginner",
        options={},
        goal="questions",
        goal_count=1500,
        due_at=now + timedelta(days=5),
        everyone=True,
        created_at=start,
    )
    database.add(assignment)
    database.flush()
    next_run_id = (database.scalar(select(LessonRunRecord.id).order_by(LessonRunRecord.id.desc()).limit(1)) or 0) + 1
    next_attempt_id = (database.scalar(select(AttemptRecord.id).order_by(AttemptRecord.id.desc()).limit(1)) or 0) + 1
    by_skill = defaultdict(list)
    for asked in pool:
        by_skill[asked.question["skill"]].append(asked)
    skill_ids = sorted(by_skill)
    span = (now - start).total_seconds()
    for pupil in school_class.pupils:
        ability = rng.uniform(0.15, 0.95)
        favourite = rng.sample(skill_ids, k=min(6, len(skill_ids)))
        states = {}
        runs, attempts = [], []
        counts: dict[tuple, list] = defaultdict(lambda: [0, 0, None])  # as tutor.answer_counts keeps them
        work = {
            "questions": 0,
            "first_try_right": 0,
            "time_ms": 0,
            "games_finished": 0,
            "started_at": None,
            "last_active_at": None,
        }
        for index in range(answers):
            at = start + timedelta(seconds=span * (index + rng.random()) / answers)
            if index % ANSWERS_PER_RUN == 0:
                homework = len(runs) % 4 == 0
                runs.append(
                    {
                        "id": next_run_id,
                        "public_id": new_public_id(),
                        "pupil_id": pupil.id,
                        "assignment_id": assignment.id if homework else None,
                        "game_id": "calculation-war",
                        "seed": rng.getrandbits(48),
                        "stage": "finished",
                        "data": {"moves": []},
                        "version": 1,
                        "created_at": at,
                        "updated_at": at,
                        "finished_at": at + timedelta(minutes=10),
                    }
                )
                next_run_id += 1
                if homework:
                    work["games_finished"] += 1
                    work["started_at"] = work["started_at"] or at
            run = runs[-1]
            skill = rng.choice(favourite)
            asked = rng.choice(by_skill[skill])
            question = asked.question
            first_try = rng.random() < 0.8
            readable = rng.random() > 0.03
            correct = readable and rng.random() < ability
            typed, misconception = (asked.right, None) if correct else answered_wrong(asked, rng)
            p_after = None
            if readable and first_try:
                state = skills.update(states.get(skill) or skills.fresh(), correct)
                states[skill] = state
                p_after = state.p_known
            time_ms = rng.randint(3000, 40000)
            attempts.append(
                {
                    "id": next_attempt_id,
                    "pupil_id": pupil.id,
                    "run_id": run["id"],
                    "skill": skill,
                    "question_kind": question["kind"],
                    "question": question,
                    "typed": typed if readable else "",
                    "read_as": typed if readable else None,
                    "correct": correct,
                    "readable": readable,
                    "first_try": readable and first_try,
                    "hints_used": rng.choice((0, 0, 0, 1, 2)),
                    "time_ms": time_ms,
                    "error_code": None if readable else rng.choice(ERROR_CODES),
                    "misconception": misconception if readable else None,
                    "feedback": None,
                    "move_index": index % ANSWERS_PER_RUN,
                    "p_known_after": p_after,
                    "created_at": at,
                }
            )
            if readable:
                key = answer_counts.row_key(skill, question["kind"], correct, misconception, typed)
                count = counts[(answer_counts.local_day(at, school_class.timezone), *key)]
                count[0] += 1
                if not correct:
                    count[1] += 1
                    count[2] = next_attempt_id
            next_attempt_id += 1
            if run["assignment_id"] is not None and readable and first_try:
                work["questions"] += 1
                work["first_try_right"] += int(correct)
                work["time_ms"] += time_ms
                work["last_active_at"] = at
        database.execute(LessonRunRecord.__table__.insert(), runs)
        for chunk in range(0, len(attempts), 5000):
            database.execute(AttemptRecord.__table__.insert(), attempts[chunk : chunk + 5000])
        database.execute(
            AnswerDayCount.__table__.insert(),
            [
                {
                    "class_id": school_class.id,
                    "pupil_id": pupil.id,
                    "day": day,
                    "skill": skill,
                    "question_kind": kind,
                    "misconception": misconception,
                    "typed": typed,
                    "answers": answers_counted,
                    "wrong": wrong,
                    "last_wrong_id": last_wrong,
                }
                for (day, skill, kind, misconception, typed), (answers_counted, wrong, last_wrong) in counts.items()
            ],
        )
        database.add_all(
            SkillRecord(
                pupil_id=pupil.id,
                skill=skill,
                p_known=state.p_known,
                attempts=state.attempts,
                correct=state.correct,
                streak=state.streak,
                mastery_threshold=skills.DEFAULT_PARAMS.mastery,
            )
            for skill, state in states.items()
        )
        if work["started_at"] is not None:
            done = work["questions"] >= assignment.goal_count
            database.add(
                AssignmentWork(
                    assignment_id=assignment.id,
                    pupil_id=pupil.id,
                    started_at=work["started_at"],
                    last_active_at=work["last_active_at"] or work["started_at"],
                    games_finished=work["games_finished"],
                    questions=work["questions"],
                    first_try_right=work["first_try_right"],
                    time_ms=work["time_ms"],
                    done_at=work["last_active_at"] if done else None,
                )
            )
        database.flush()
    return school_class.public_id, assignment.public_id, [p.public_id for p in school_class.pupils]


def build(url: str, sizes: list[int], answers: int) -> dict[int, tuple[str, str, list[str]]]:
    upgrade(url)
    engine = make_engine(url)
    rng, now, pool = random.Random(7), utcnow(), question_pool()
    built = {}
    with Session(engine) as database:
        teacher = Teacher(email=EMAIL, name="Bench", password_hash=accounts.hash_password(PASSWORD), locale="en")
        database.add(teacher)
        database.flush()
        for size in sizes:
            built[size] = build_class(database, teacher, f"Bench {size}", size, answers, pool, now, rng)
        database.commit()
    engine.dispose()
    return built


class StatementCounter:
    def __init__(self, engine):
        self.count = 0
        event.listen(engine, "before_cursor_execute", self._count)

    def _count(self, *_args):
        self.count += 1


def measure(
    client, counter: StatementCounter, url: str, requests: int, headers: dict | None = None
) -> tuple[float, float, int]:
    """Median and 90th percentile milliseconds, and statements per request (the same every time, or it says so)."""
    for _ in range(2):  # warm caches (templates, content files)
        assert client.get(url, headers=headers).status_code == 200, url
    times, counts = [], set()
    for _ in range(requests):
        counter.count = 0
        started = time.perf_counter()
        response = client.get(url, headers=headers)
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, url
        counts.add(counter.count)
    times.sort()
    p90 = times[min(len(times) - 1, int(round(0.9 * (len(times) - 1))))]
    return statistics.median(times), p90, max(counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1,000 answers per pupil and 10 requests per page")
    parser.add_argument("--answers", type=int, help="answers per pupil (default 10,000; 1,000 with --quick)")
    parser.add_argument("--requests", type=int, help="requests per page (default 30; 10 with --quick)")
    parser.add_argument("--keep", action="store_true", help="keep the SQLite database (it is deleted after the run)")
    args = parser.parse_args()
    answers = args.answers or (1000 if args.quick else 10_000)
    requests = args.requests or (10 if args.quick else 30)
    sizes = [10, 30]
    workdir = None if os.environ.get("DATABASE_URL") else tempfile.mkdtemp(prefix="kortmatte-bench-")
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{workdir}/dashboard.db"

    started = time.perf_counter()
    built = build(url, sizes, answers)
    print(
        f"built {sum(sizes)} pupils x {answers:,} answers = {sum(sizes) * answers:,} answers in "
        f"{time.perf_counter() - started:.1f} s ({url.split('///')[-1]})"
    )

    app = create_app({"TESTING": False, "DATABASE_URL": url, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    assert client.post("/teacher/sign-in", data={"email": EMAIL, "password": PASSWORD}).status_code == 302
    counter = StatementCounter(app.extensions["db_engine"])
    htmx = {"HX-Request": "true"}
    last_week = reports.week_label(
        *reports.week_of(utcnow() - timedelta(days=7), "Europe/Oslo")
    )  # a whole week of answers
    results: dict[str, dict[int, tuple[float, float, int]]] = defaultdict(dict)
    for size, (class_id, assignment_id, pupil_ids) in built.items():
        pages = {
            "class grid": (f"/teacher/classes/{class_id}", None),
            "class grid (htmx refresh)": (f"/teacher/classes/{class_id}?sort=help", {**htmx, "HX-Target": "grid"}),
            "needs attention (htmx)": (f"/teacher/classes/{class_id}", {**htmx, "HX-Target": "attention"}),
            "class grid CSV": (f"/teacher/classes/{class_id}/grid.csv", None),
            "assignment view": (f"/teacher/assignments/{assignment_id}", None),
            "assignment CSV": (f"/teacher/assignments/{assignment_id}/export.csv", None),
            "pupil page": (f"/teacher/pupils/{pupil_ids[0]}", None),
            "misconceptions (this week)": (f"/teacher/classes/{class_id}/misconceptions", None),
            "misconceptions (last week)": (f"/teacher/classes/{class_id}/misconceptions?week={last_week}", None),
        }
        for name, (page_url, headers) in pages.items():
            results[name][size] = measure(client, counter, page_url, requests, headers)
    app.extensions["db_engine"].dispose()
    if workdir and not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)  # 400,000 answers with their questions take over a gigabyte

    print(f"\n{requests} requests per page, server time in the Flask test client (ms); SQL statements per request")
    print(f"{'page':<30}{'median 30':>11}{'p90 30':>9}{'median 10':>11}{'p90 10':>9}{'SQL 10':>8}{'SQL 30':>8}")
    for name, by_size in results.items():
        m30, p30, s30 = by_size[30]
        m10, p10, s10 = by_size[10]
        same = "" if s10 == s30 else "  <- grows with the class!"
        print(f"{name:<30}{m30:>11.1f}{p30:>9.1f}{m10:>11.1f}{p10:>9.1f}{s10:>8}{s30:>8}{same}")
    goals = {
        "class grid (htmx refresh)": 50,
        "assignment view": 50,
        "needs attention (htmx)": 100,
        "misconceptions (last week)": 100,
    }
    for name, goal in goals.items():
        median = results[name][30][0]
        print(f"goal: {name} median {median:.1f} ms <= {goal} ms: {'met' if median <= goal else 'NOT met'}")


if __name__ == "__main__":
    main()
