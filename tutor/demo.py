"""Demo data for a first look: a few pupils who have played and answered questions."""

from __future__ import annotations

import random
import time

from sqlalchemy import select
from sqlalchemy.orm import Session

from tutor.db import make_engine
from tutor.drills import CHOICE
from tutor.checks import exact
from tutor.lessons import LESSONS
from tutor.lessons.base import move_token
from tutor.lessons.runner import FINISHED, LessonRun
from tutor.models import LessonRunRecord, Pupil, utcnow
from tutor.progress import record_attempt, skill_levels

DEMO_PUPILS = (("Demo Ada", "en", 0.8), ("Demo Ola", "nb", 0.55), ("Demo Elsa", "sv", 0.35))


def simulated_answer(question, rng: random.Random, skill: float) -> str:
    """What a pupil of the given skill might answer: right with that chance, else a near miss."""
    if question.answer == CHOICE:
        right = question.check["expected"]
        pool = right if rng.random() < skill else [c["value"] for c in question.choices]
        return rng.choice(pool)
    expected = exact(question.check["expected"])
    return str(expected if rng.random() < skill else expected + rng.choice((-30, -10, 10, 20)))


def play_demo_lesson(db: Session, pupil: Pupil, skill: float, seed: int, steps: int) -> None:
    lesson = LESSONS["calculation-war"]
    now = int(time.time() * 1000)
    run = LessonRun.start(lesson, 2, {}, ["beginner"], seed, now)
    record = LessonRunRecord(pupil=pupil, game_id=run.game_id, seed=seed, stage=run.stage, data=run.to_dict())
    db.add(record)
    db.flush()
    rng = random.Random(seed)
    run.skip_intro(lesson, {}, now)
    for _ in range(steps):
        if run.stage == FINISHED:
            break
        levels = skill_levels(db, pupil.id)
        question = run.current_question()
        now += rng.randint(4000, 20000)
        if question and run.question_open:
            record_attempt(db, pupil.id, record.id, run.answer(simulated_answer(question, rng, skill), pupil.locale, now))
            db.flush()
        elif question:
            run.close_question(lesson, levels, now)
        else:
            run.move(move_token(run.game_state().legal_moves()[0]), lesson, levels, now)
    record.data, record.stage = run.to_dict(), run.stage
    if run.stage == FINISHED:
        record.finished_at = utcnow()


def create_demo_data(url: str) -> str:
    """Add the demo pupils unless they are there already; say what was done."""
    engine = make_engine(url)
    added = []
    with Session(engine) as db:
        for index, (name, locale, skill) in enumerate(DEMO_PUPILS):
            if db.scalar(select(Pupil).where(Pupil.name == name)):
                continue
            pupil = Pupil(name=name, is_guest=True, locale=locale)
            db.add(pupil)
            db.flush()
            play_demo_lesson(db, pupil, skill, seed=1000 + index, steps=40)
            added.append(name)
        db.commit()
    engine.dispose()
    return f"demo pupils added: {', '.join(added)}" if added else "demo data already present"
