"""The demo data: a teacher, four classes and a history made by pupils playing real lessons.

One small demo (4 pupils a class, 7 days, a fixed clock) is built once for the module;
the tests read it back and check that it looks like real play, because it was made the
way the web layer makes it.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tutor import accounts, classroom, db, demo, groups, homework_status
from tutor.accounts import as_utc
from tutor.drills.marking import USED_OTHER_NUMBERS
from tutor.engine import Move, make_game
from tutor.engine.play import replay
from tutor.lessons.runner import FINISHED, LessonRun
from tutor.models import (
    Assignment,
    AssignmentWork,
    AttemptRecord,
    ClassTeacher,
    LessonRunRecord,
    Pupil,
    SchoolClass,
    SkillRecord,
    Teacher,
)

NOW = datetime(2026, 3, 18, 11, 30, tzinfo=UTC)  # a Wednesday
DAYS, PUPILS = 7, 4


def build(url: str, **kwargs) -> demo.DemoReport:
    db.upgrade(url)
    return demo.create_demo_data(url, **{"pupils_per_class": PUPILS, "days": DAYS, "now": NOW, **kwargs})


def test_a_pupil_who_must_lay_the_interval_by_picking_cards_plays_on(tmp_path):
    """On this clock Fraction Master deals an interval whose cards as they lie make two equal fractions, so
    the lesson offers no button and the simulated pupil must pick the cards (the demo once stopped there)."""
    report = build(
        f"sqlite:///{tmp_path / 'lay.db'}", pupils_per_class=1, days=3, now=datetime(2026, 11, 27, 23, 52, tzinfo=UTC)
    )
    assert len(report.classes) == 4


@pytest.fixture(scope="module")
def demo_url(tmp_path_factory):
    return f"sqlite:///{tmp_path_factory.mktemp('demo') / 'demo.db'}"


@pytest.fixture(scope="module")
def built(demo_url):
    return build(demo_url)


@pytest.fixture
def database(demo_url, built):
    engine = db.make_engine(demo_url)
    with Session(engine) as session:
        yield session
    engine.dispose()


@pytest.fixture
def database_url(demo_url, built):
    """The app fixture (conftest) serves the demo database."""
    return demo_url


def counts(session: Session) -> dict:
    return {
        model.__name__: session.scalar(select(func.count()).select_from(model))
        for model in (
            Teacher,
            SchoolClass,
            Pupil,
            Assignment,
            AssignmentWork,
            LessonRunRecord,
            AttemptRecord,
            SkillRecord,
        )
    }


def test_the_report_names_the_sign_in_and_every_class_code(built, database):
    text = str(built)
    assert built.created and built.email == demo.DEMO_EMAIL and built.password == demo.DEMO_PASSWORD
    assert demo.SIGN_IN_PATH in text and demo.DEMO_EMAIL in text and demo.DEMO_PASSWORD in text
    codes = database.scalars(select(SchoolClass.code)).all()
    assert len(codes) == 4 and all(accounts.show_code(code) in text for code in codes)
    assert built.pupils == 4 * PUPILS
    assert (built.runs, built.attempts) == (
        database.scalar(select(func.count(LessonRunRecord.id))),
        database.scalar(select(func.count(AttemptRecord.id))),
    )


def test_the_demo_teacher_signs_in_with_the_printed_password_and_sees_the_classes(client, built):
    response = client.post(demo.SIGN_IN_PATH, data={"email": built.email, "password": built.password})
    assert response.status_code == 302
    home = client.get("/teacher").get_data(as_text=True)
    for school_class in built.classes:
        assert school_class.name in home and accounts.show_code(school_class.code) in home
    assert (
        client.post(demo.SIGN_IN_PATH, data={"email": built.email, "password": "not the password"}).status_code == 400
    )


def test_four_classes_one_per_language_with_pupils_ready_to_sign_in(database):
    teacher = database.scalar(select(Teacher).where(Teacher.email == demo.DEMO_EMAIL))
    classes = database.scalars(
        select(SchoolClass).join(ClassTeacher).where(ClassTeacher.teacher_id == teacher.id)
    ).all()
    assert sorted((c.locale, c.timezone) for c in classes) == [
        ("en", "Europe/London"),
        ("it", "Europe/Rome"),
        ("nb", "Europe/Oslo"),
        ("sv", "Europe/Stockholm"),
    ]
    assert sorted(c.sign_in for c in classes) == ["pictures", "pictures", "pictures", "pin"]
    for school_class in classes:
        plan = next(p for p in demo.CLASSES if p.locale == school_class.locale)
        assert school_class.name == plan.name
        assert sorted(p.name for p in school_class.pupils) == sorted(plan.names[:PUPILS])
        for pupil in school_class.pupils:
            assert not pupil.is_guest and pupil.locale == school_class.locale and pupil.avatar in accounts.AVATARS
            if school_class.sign_in == "pin":
                assert accounts.pin_secret(pupil.secret) == pupil.secret
            else:
                assert accounts.picture_secret(pupil.secret.split()) == pupil.secret


def test_every_class_has_its_homework_with_statuses_that_differ_between_pupils(database):
    assignments = database.scalars(select(Assignment).where(Assignment.group_id.is_(None))).all()
    assert len(assignments) == 12
    statuses = Counter()
    for school_class in database.scalars(select(SchoolClass)):
        mine = sorted((a for a in assignments if a.class_id == school_class.id), key=lambda a: a.due_at)
        assert {a.goal for a in mine} == {"games", "questions", "skill"}
        past, soon, later = mine
        assert (
            as_utc(past.due_at)
            < NOW
            < as_utc(soon.due_at)
            < NOW + timedelta(days=7)
            < NOW + timedelta(days=12)
            < as_utc(later.due_at)
        )
        assert all(as_utc(a.created_at) < as_utc(a.due_at) and as_utc(a.created_at) < NOW for a in mine)
        local_due = [as_utc(a.due_at).astimezone(ZoneInfo(school_class.timezone)) for a in mine]
        assert all(due.weekday() < 5 and due.hour == 18 for due in local_due)
        assert sum(a.seed is not None for a in mine) == 1  # one class deal
        for assignment in mine:
            for pupil in school_class.pupils:
                statuses[classroom.homework_state(database, assignment, pupil, NOW).status] += 1
    assert {homework_status.DONE, homework_status.LATE, homework_status.NOT_STARTED} <= set(statuses)
    assert set(statuses) & {homework_status.IN_PROGRESS, homework_status.NEEDS_HELP}


def test_every_class_has_two_groups_and_homework_for_the_group_that_needs_practice(database):
    """A teacher trying the demo sees groups and homework set for a group, in the class's language."""
    for school_class in database.scalars(select(SchoolClass)):
        plan = next(plan for plan in demo.CLASSES if plan.locale == school_class.locale)
        found = groups.groups_of(database, school_class)
        assert sorted(group.name for group in found) == sorted(plan.groups)
        practice = next(group for group in found if group.name == plan.groups[0])
        members = {member.pupil_id for member in practice.members}
        assert members and all(group.members for group in found)
        [homework] = database.scalars(select(Assignment).where(Assignment.group_id == practice.id)).all()
        assert not homework.everyone and as_utc(homework.created_at) < NOW < as_utc(homework.due_at)
        assigned = {pupil.id for pupil in classroom.assigned_pupils(database, homework)}
        assert assigned == members < {pupil.id for pupil in school_class.pupils}


def test_homework_work_rows_count_exactly_what_the_pupils_did(database):
    """The summary rows come from note_step after every step, as in the web layer."""
    works = database.scalars(select(AssignmentWork)).all()
    assert works
    for work in works:
        assignment = database.get(Assignment, work.assignment_id)
        runs = database.scalars(
            select(LessonRunRecord).where(
                LessonRunRecord.assignment_id == assignment.id, LessonRunRecord.pupil_id == work.pupil_id
            )
        ).all()
        firsts = database.scalars(
            select(AttemptRecord).where(
                AttemptRecord.run_id.in_([r.id for r in runs]), AttemptRecord.first_try.is_(True)
            )
        ).all()
        assert runs and work.questions == len(firsts) and work.first_try_right == sum(a.correct for a in firsts)
        assert work.games_finished == sum(r.finished_at is not None for r in runs)
        assert as_utc(work.started_at) == min(as_utc(r.created_at) for r in runs) and as_utc(work.started_at) >= as_utc(
            assignment.created_at
        )
        assert 0 < work.time_ms < 3 * 3600 * 1000
        if work.done_at is not None:
            assert assignment.goal != "games" or work.games_finished >= assignment.goal_count
            assert assignment.goal != "questions" or work.questions >= assignment.goal_count
        elif assignment.goal in ("games", "questions"):
            assert (work.games_finished if assignment.goal == "games" else work.questions) < assignment.goal_count
        if assignment.seed is not None:  # the class deals in order: every pupil's n-th game has the same deal
            in_order = sorted(runs, key=lambda r: (as_utc(r.created_at), r.id))
            assert [r.seed for r in in_order] == [
                classroom.class_deal(assignment.seed, n) for n in range(1, len(runs) + 1)
            ]


def test_answers_look_like_real_pupils(database):
    attempts = database.scalars(select(AttemptRecord)).all()
    assert len(attempts) > 100
    first = [a for a in attempts if a.first_try]
    assert all(a.p_known_after is not None for a in first) and all(
        a.p_known_after is None for a in attempts if not a.first_try
    )
    wrong = [a for a in attempts if a.readable and not a.correct]
    named = [a for a in wrong if a.misconception]
    assert len({a.misconception for a in named}) >= 5 and len(named) > 0.7 * len(
        wrong
    )  # mostly a listed misconception value
    for attempt in named:
        listed = {m["id"] for m in attempt.question["misconceptions"]} | {USED_OTHER_NUMBERS}
        assert attempt.misconception in listed
    unreadable = [a for a in attempts if not a.readable]
    assert unreadable and all(a.error_code and a.typed == "" and not a.first_try for a in unreadable)
    assert any(a.hints_used for a in attempts)
    assert all(0 <= a.time_ms < 120_000 for a in attempts)
    assert all(NOW - timedelta(days=DAYS) <= as_utc(a.created_at) <= NOW for a in attempts)
    # pupils differ: some get most first tries right, some few
    rates = [sum(a.correct for a in mine) / len(mine) for mine in grouped(first).values() if len(mine) >= 8]
    assert max(rates) - min(rates) > 0.3


def grouped(attempts) -> dict[int, list]:
    by_pupil = defaultdict(list)
    for attempt in attempts:
        by_pupil[attempt.pupil_id].append(attempt)
    return by_pupil


def test_play_happens_on_school_days_and_in_the_evening_in_the_class_time_zone(database):
    for school_class in database.scalars(select(SchoolClass)):
        zone = ZoneInfo(school_class.timezone)
        runs = database.scalars(select(LessonRunRecord).join(Pupil).where(Pupil.class_id == school_class.id)).all()
        starts = [as_utc(r.created_at).astimezone(zone) for r in runs]
        assert starts and all(8 <= start.hour <= 20 for start in starts)
        assert all(
            start.weekday() < 5 and start.hour < 15 or start.hour >= 16 or start.weekday() >= 5 for start in starts
        )


def test_skill_records_follow_the_first_tries(database):
    firsts = Counter(
        (a.pupil_id, a.skill) for a in database.scalars(select(AttemptRecord).where(AttemptRecord.first_try.is_(True)))
    )
    records = database.scalars(select(SkillRecord)).all()
    assert {(r.pupil_id, r.skill): r.attempts for r in records} == dict(firsts)
    last = {}
    for attempt in database.scalars(
        select(AttemptRecord).where(AttemptRecord.first_try.is_(True)).order_by(AttemptRecord.id)
    ):
        last[(attempt.pupil_id, attempt.skill)] = attempt.p_known_after
    assert all(last[(r.pupil_id, r.skill)] == pytest.approx(r.p_known) for r in records)


def test_every_run_replays_from_its_seed_and_moves(database):
    records = database.scalars(select(LessonRunRecord)).all()
    assert {r.stage for r in records} >= {FINISHED, "play"}
    assert any(r.assignment_id for r in records) and any(r.assignment_id is None for r in records)
    per_pupil = Counter(r.pupil_id for r in records)
    assert max(per_pupil.values()) <= 8
    for record in records:
        run = LessonRun.from_dict(record.data)
        assert (run.game_id, run.seed, run.stage) == (record.game_id, record.seed, record.stage)
        assert (record.finished_at is not None) == (run.stage == FINISHED)
        game = make_game(run.game_id, run.players, run.options)
        assert (
            replay(game, [Move.from_dict(m) for m in run.moves]).to_dict() == game.state_from_dict(run.state).to_dict()
        )
        moves = len(run.moves)
        for attempt in record.attempts:
            assert 0 <= attempt.move_index <= moves


def test_running_it_again_adds_nothing_and_reports_the_same_sign_in(demo_url, built, database):
    before = counts(database)
    again = build(demo_url)
    assert not again.created and "already present" in str(again)
    assert [(c.name, c.code) for c in again.classes] == [(c.name, c.code) for c in built.classes]
    assert (again.pupils, again.runs, again.attempts) == (built.pupils, built.runs, built.attempts)
    database.expire_all()
    assert counts(database) == before


def history(url: str) -> list[tuple]:
    engine = db.make_engine(url)
    with Session(engine) as session:
        rows = session.execute(
            select(
                Pupil.name, AttemptRecord.skill, AttemptRecord.typed, AttemptRecord.correct, AttemptRecord.created_at
            )
            .join(Pupil, Pupil.id == AttemptRecord.pupil_id)
            .order_by(AttemptRecord.id)
        ).all()
    engine.dispose()
    return [tuple(row) for row in rows]


def test_the_same_seed_makes_the_same_history(tmp_path):
    first, second = f"sqlite:///{tmp_path / 'a.db'}", f"sqlite:///{tmp_path / 'b.db'}"
    build(first, pupils_per_class=1, days=3)
    build(second, pupils_per_class=1, days=3)
    assert history(first) == history(second) and history(first)


def test_an_interrupted_demo_is_removed_and_built_again(tmp_path):
    url = f"sqlite:///{tmp_path / 'demo.db'}"
    db.upgrade(url)
    engine = db.make_engine(url)
    with Session(engine) as session:
        pending = Teacher(email=demo.PENDING_EMAIL, name=demo.DEMO_NAME, password_hash="x")
        session.add(pending)
        classroom.add_pupils(
            session, classroom.create_class(session, pending, "Half built", "en", "Europe/London", "pictures"), "Ada"
        )
        session.commit()
    report = build(url, pupils_per_class=1, days=3)
    with Session(engine) as session:
        assert report.created and session.scalar(select(func.count(Teacher.id))) == 1
        assert sorted(session.scalars(select(SchoolClass.name))) == sorted(p.name for p in demo.CLASSES)
        assert session.scalar(select(func.count(Pupil.id))) == 4
    engine.dispose()


@pytest.mark.parametrize("kwargs", [{"pupils_per_class": 0}, {"pupils_per_class": 25}, {"days": 2}])
def test_sizes_out_of_range_are_refused(tmp_path, kwargs):
    with pytest.raises(ValueError):
        demo.create_demo_data(f"sqlite:///{tmp_path / 'never.db'}", **kwargs)


def test_the_demo_module_does_not_import_flask():
    source = Path(demo.__file__).read_text(encoding="utf-8")
    assert not re.search(r"^\s*(from|import) flask", source, re.M)
