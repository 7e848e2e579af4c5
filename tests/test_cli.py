"""The kortmatte command and configuration from the environment."""

from __future__ import annotations

import io
import json
import os
import random
import stat
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from tutor import accounts, classroom, config, db, password_reset
from tutor.cli import main
from tutor.drills.marking import Attempt
from tutor.engine import GAMES
from tutor.models import (
    AttemptRecord,
    ClassTeacher,
    LessonRunRecord,
    PasswordReset,
    Pupil,
    QuestionDifficulty,
    SchoolClass,
    SignInSession,
    SignInThrottle,
    SkillParams,
    Teacher,
)
from tutor.skill_model import fitting, progress, skills


def run_cli(capsys, *args):
    code = main(list(args))
    return code, capsys.readouterr()


def test_simulate_reports_a_finished_game_with_every_card_accounted_for(capsys):
    code, out = run_cli(capsys, "simulate", "calculation-war", "--players", "2", "--seed", "1", "--json")
    report = json.loads(out.out)
    assert code == 0 and report["finished"] and report["cards_accounted_for"]
    assert report["winners"] and report["rounds"] > 0 and report["moves"] > report["rounds"]
    assert sum(report["card_counts"].values()) == 72


def test_simulate_takes_bots_and_options(capsys):
    code, out = run_cli(
        capsys,
        "simulate",
        "calculation-war",
        "--players",
        "4",
        "--seed",
        "9",
        "--bots",
        "beginner,strong",
        "--option",
        "round_limit=5",
        "--json",
    )
    report = json.loads(out.out)
    assert code == 0 and report["rounds"] == 5 and report["ended_by"] == "round_limit"
    assert report["bots"] == ["beginner", "strong"] and set(report["card_counts"]) == {"0+2", "1+3"}


@pytest.mark.parametrize(
    "args",
    [
        ("simulate", "no-such-game"),
        ("simulate", "calculation-war", "--players", "7"),
        ("simulate", "calculation-war", "--option", "round_limit=many"),
        ("simulate", "calculation-war", "--option", "no_such_option=1"),
        ("simulate", "calculation-war", "--bots", "genius"),
    ],
)
def test_bad_simulations_are_refused_clearly(capsys, args):
    code, out = run_cli(capsys, *args)
    assert code == 2 and out.err.strip()


def test_games_lists_every_registered_game_with_options(capsys):
    code, out = run_cli(capsys, "games", "--json")
    games = json.loads(out.out)
    assert code == 0 and [g["id"] for g in games] == sorted(GAMES)
    war = next(g for g in games if g["id"] == "calculation-war")
    assert {o["key"] for o in war["options"]} == {"turn_seconds", "round_limit", "time_limit_minutes"}


def test_a_generated_secret_is_kept_private_and_reused(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    first = config.from_environment(str(tmp_path))["SECRET_KEY"]
    assert config.from_environment(str(tmp_path))["SECRET_KEY"] == first and len(first) >= 64
    assert stat.S_IMODE(os.stat(tmp_path / "secret_key").st_mode) == 0o600


def test_environment_configuration_wins(tmp_path, monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "from-env")
    monkeypatch.setenv("DATABASE_URL", "postgresql+psycopg://u@h/db")
    settings = config.from_environment(str(tmp_path))
    assert settings == {
        "SECRET_KEY": "from-env",
        "DATABASE_URL": "postgresql+psycopg://u@h/db",
        "AUDIO_DIR": str(tmp_path / "audio"),  # the recorded speech lives in the instance folder unless set
    }
    assert not (tmp_path / "secret_key").exists()
    monkeypatch.setenv("AUDIO_DIR", "/srv/kortmatte-audio")
    assert config.from_environment(str(tmp_path))["AUDIO_DIR"] == "/srv/kortmatte-audio"


# --- the database commands: demo, teacher, purge ------------------------------------------------
@pytest.fixture
def cli_database(tmp_path, monkeypatch):
    """The commands' database: DATABASE_URL in the environment, as an operator sets it."""
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("SECRET_KEY", "cli-test")
    for name in ("GUEST_RETENTION_DAYS", "SESSION_IDLE_MINUTES", "SESSION_LIFETIME_HOURS"):
        monkeypatch.delenv(name, raising=False)
    db.upgrade(url)
    engine = db.make_engine(url)
    yield engine
    engine.dispose()


def rows(engine, model) -> list:
    with Session(engine) as session:
        return list(session.scalars(select(model)))


def test_demo_prints_the_sign_in_and_class_codes_every_time(capsys, cli_database):
    code, out = run_cli(capsys, "demo", "--pupils", "1", "--days", "3")
    assert code == 0
    classes = rows(cli_database, SchoolClass)
    assert len(classes) == 4 and {c.locale for c in classes} == {"en", "nb", "sv", "it"}
    for text in (out.out, run_cli(capsys, "demo")[1].out):
        assert "/teacher/sign-in" in text and "demo@kortmatte.example" in text and "demo-teacher-1234" in text
        for school_class in classes:
            assert f"code {accounts.show_code(school_class.code)}" in text and school_class.locale in text
    assert "already present" in text
    assert len(rows(cli_database, Pupil)) == 4 and len(rows(cli_database, Teacher)) == 1


def test_demo_refuses_sizes_it_cannot_make(capsys, cli_database):
    code, out = run_cli(capsys, "demo", "--pupils", "99")
    assert code == 2 and "pupils" in out.err and rows(cli_database, Teacher) == []


def add_teacher(capsys, monkeypatch, password: str, *args):
    monkeypatch.setattr("sys.stdin", io.StringIO(password + "\n" + "second line is ignored\n"))
    return run_cli(capsys, "teacher", "add", *args)


def test_teacher_add_reads_the_password_from_stdin_and_never_prints_it(capsys, monkeypatch, cli_database):
    code, out = add_teacher(
        capsys,
        monkeypatch,
        "a long enough password",
        "--email",
        " Tove@School.Example ",
        "--name",
        "Tove  Berg",
        "--locale",
        "nb",
    )
    assert code == 0 and "tove@school.example" in out.out
    assert "a long enough password" not in out.out + out.err
    (teacher,) = rows(cli_database, Teacher)
    assert (teacher.email, teacher.name, teacher.locale) == ("tove@school.example", "Tove Berg", "nb")
    assert accounts.check_password(teacher.password_hash, "a long enough password")
    assert not accounts.check_password(teacher.password_hash, "second line is ignored")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    "typed, code",
    [
        (("a long enough password", "a long enough password"), 0),
        (("a long enough password", "a long enough passw0rd"), 2),
    ],
)
def test_teacher_add_at_a_terminal_asks_for_the_password_twice(capsys, monkeypatch, cli_database, typed, code):
    asked = iter(typed)
    monkeypatch.setattr("sys.stdin", Terminal(""))
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(asked))
    result, out = run_cli(capsys, "teacher", "add", "--email", "tove@school.example", "--name", "Tove")
    assert result == code and next(asked, None) is None and "a long enough" not in out.out + out.err
    assert len(rows(cli_database, Teacher)) == (1 if code == 0 else 0)
    assert code == 0 or "not the same" in out.err


def test_teacher_add_refuses_an_address_that_has_an_account(capsys, monkeypatch, cli_database):
    assert (
        add_teacher(capsys, monkeypatch, "a long enough password", "--email", "tove@school.example", "--name", "Tove")[
            0
        ]
        == 0
    )
    code, out = add_teacher(
        capsys, monkeypatch, "another long password", "--email", "TOVE@school.example", "--name", "Other Tove"
    )
    assert code == 2 and "already" in out.err and "another long password" not in out.err
    (teacher,) = rows(cli_database, Teacher)
    assert teacher.name == "Tove" and accounts.check_password(teacher.password_hash, "a long enough password")


@pytest.mark.parametrize(
    "password, args, problem",
    [
        ("Xy7-pw", ("--email", "tove@school.example", "--name", "Tove"), "password is too short"),
        ("", ("--email", "tove@school.example", "--name", "Tove"), "password"),
        ("a long enough password", ("--email", "not an address", "--name", "Tove"), "e-mail"),
        ("a long enough password", ("--email", "tove@school.example", "--name", "   "), "name"),
        ("a long enough password", ("--email", "tove@school.example", "--name", "Tove", "--locale", "de"), "language"),
    ],
)
def test_teacher_add_refuses_bad_input_and_stores_nothing(capsys, monkeypatch, cli_database, password, args, problem):
    code, out = add_teacher(capsys, monkeypatch, password, *args)
    assert code == 2 and problem in out.err and out.out == ""
    assert not password or password not in out.err
    assert rows(cli_database, Teacher) == []


def test_teacher_list_shows_each_teacher_with_their_classes(capsys, monkeypatch, cli_database):
    add_teacher(capsys, monkeypatch, "a long enough password", "--email", "tove@school.example", "--name", "Tove")
    with Session(cli_database) as session:
        teacher = session.scalar(select(Teacher))
        classroom.create_class(session, teacher, "4B", "nb", "Europe/Oslo", "pin")
        session.commit()
    code, out = run_cli(capsys, "teacher", "list", "--json")
    assert code == 0 and json.loads(out.out) == [
        {"email": "tove@school.example", "name": "Tove", "locale": "en", "classes": 1}
    ]
    code, out = run_cli(capsys, "teacher", "list")
    assert code == 0 and "tove@school.example" in out.out and "1 classes" in out.out


def test_purge_deletes_old_guests_sessions_and_throttles_and_keeps_the_rest(capsys, cli_database):
    now = datetime.now(UTC)
    with Session(cli_database) as session:
        teacher = Teacher(email="tove@school.example", name="Tove", password_hash="x")
        session.add(teacher)
        school_class = classroom.create_class(session, teacher, "4B", "en", "Europe/London", "pictures")
        (pupil,) = classroom.add_pupils(session, school_class, "Old Pupil").added
        pupil.created_at = now - timedelta(days=400)
        gone = Pupil(name="Gone", is_guest=True, created_at=now - timedelta(days=40))
        lately = Pupil(name="Played lately", is_guest=True, created_at=now - timedelta(days=40))
        fresh = Pupil(name="Fresh", is_guest=True, created_at=now - timedelta(days=3))
        session.add_all([gone, lately, fresh])
        session.flush()
        for guest, when in ((gone, now - timedelta(days=35)), (lately, now - timedelta(days=2))):
            run = LessonRunRecord(
                pupil_id=guest.id,
                game_id="calculation-war",
                seed=1,
                stage="play",
                data={},
                created_at=when,
                updated_at=when,
            )
            session.add(run)
            session.flush()
            session.add(
                AttemptRecord(
                    pupil_id=guest.id,
                    run_id=run.id,
                    skill="exact_sum",
                    question_kind="k",
                    question={},
                    typed="1",
                    correct=True,
                    created_at=when,
                )
            )
        session.add_all(
            [
                SignInSession(
                    token_hash="old",
                    teacher_id=teacher.id,
                    created_at=now - timedelta(hours=3),
                    last_seen_at=now - timedelta(hours=2),
                ),
                SignInSession(
                    token_hash="live",
                    teacher_id=teacher.id,
                    created_at=now - timedelta(hours=1),
                    last_seen_at=now - timedelta(minutes=5),
                ),
                SignInThrottle(key="old", failures=3, window_started_at=now - timedelta(days=3)),
                SignInThrottle(
                    key="locked",
                    failures=9,
                    window_started_at=now - timedelta(days=3),
                    locked_until=now + timedelta(minutes=30),
                ),
                SignInThrottle(key="recent", failures=1, window_started_at=now - timedelta(minutes=3)),
            ]
        )
        session.commit()
    code, out = run_cli(capsys, "purge")
    assert (
        code == 0
        and "deleted 1 guests" in out.out
        and "1 ended sign-in sessions" in out.out
        and "1 old sign-in throttles" in out.out
    )
    assert sorted(p.name for p in rows(cli_database, Pupil)) == ["Fresh", "Old Pupil", "Played lately"]
    assert len(rows(cli_database, LessonRunRecord)) == 1 and len(rows(cli_database, AttemptRecord)) == 1
    assert [s.token_hash for s in rows(cli_database, SignInSession)] == ["live"]
    assert sorted(t.key for t in rows(cli_database, SignInThrottle)) == ["locked", "recent"]
    # --days overrides GUEST_RETENTION_DAYS: guests not seen for 2 and 3 days go with --days 1; a class's pupil never
    code, out = run_cli(capsys, "purge", "--days", "1")
    assert code == 0 and "deleted 2 guests not seen for 1 days" in out.out
    assert [p.name for p in rows(cli_database, Pupil)] == ["Old Pupil"]


def test_purge_deletes_expired_password_reset_links_and_a_used_link_leaves_none(capsys, cli_database):
    now = datetime.now(UTC)
    with Session(cli_database) as session:
        tove = Teacher(email="tove@school.example", name="Tove", password_hash="x")
        per = Teacher(email="per@school.example", name="Per", password_hash="x")
        session.add_all([tove, per])
        session.flush()
        _teacher, live = password_reset.start(session, "tove@school.example", now)
        _teacher, used = password_reset.start(session, "per@school.example", now)
        session.add_all(
            [
                PasswordReset(teacher_id=tove.id, token_hash="expired", expires_at=now - timedelta(minutes=1)),
                PasswordReset(teacher_id=per.id, token_hash="long gone", expires_at=now - timedelta(days=30)),
            ]
        )
        password_reset.finish(session, used, "a new password for Per", now)  # deletes Per's links, the old one too
        session.add(PasswordReset(teacher_id=per.id, token_hash="expired 2", expires_at=now - timedelta(hours=2)))
        session.commit()
    code, out = run_cli(capsys, "purge")
    assert code == 0 and "2 expired password reset links" in out.out, out.out
    assert len(rows(cli_database, PasswordReset)) == 1  # Tove's link within its hour
    with Session(cli_database) as session:
        assert password_reset.teacher_for(session, live, now).email == "tove@school.example"
    assert "0 expired password reset links" in run_cli(capsys, "purge")[1].out


def test_purge_deletes_the_games_and_answers_of_class_pupils_who_have_not_played_for_a_year(
    capsys, monkeypatch, cli_database
):
    now = datetime.now(UTC)
    with Session(cli_database) as session:
        teacher = Teacher(email="tove@school.example", name="Tove", password_hash="x")
        session.add(teacher)
        school_class = classroom.create_class(session, teacher, "4B", "en", "Europe/London", "pictures")
        left, playing = classroom.add_pupils(session, school_class, "Left\nPlaying").added
        for pupil, days_ago in ((left, 380), (left, 370), (playing, 400), (playing, 20)):
            when = now - timedelta(days=days_ago)
            run = LessonRunRecord(
                pupil_id=pupil.id, game_id="war", seed=1, stage="play", data={}, created_at=when, updated_at=when
            )
            session.add(run)
            session.flush()
            session.add(
                AttemptRecord(
                    pupil_id=pupil.id,
                    run_id=run.id,
                    skill="compare",
                    question_kind="k",
                    question={},
                    typed="1",
                    correct=True,
                    created_at=when,
                )
            )
        session.commit()
    code, out = run_cli(capsys, "purge")
    assert code == 0 and "the games and answers of 1 class pupils who have not played for 12 months" in out.out
    assert sorted(p.name for p in rows(cli_database, Pupil)) == ["Left", "Playing"]  # the pupils stay
    with Session(cli_database) as session:
        kept = session.scalars(select(LessonRunRecord.pupil_id)).all()
        assert len(kept) == 2 and len(rows(cli_database, AttemptRecord)) == 2  # all of Playing's, none of Left's
        assert set(kept) == {session.scalar(select(Pupil.id).where(Pupil.name == "Playing"))}
    monkeypatch.setenv("WORK_RETENTION_MONTHS", "24")
    assert "of 0 class pupils who have not played for 24 months" in run_cli(capsys, "purge")[1].out
    assert run_cli(capsys, "purge", "--months", "0")[0] == 2


def test_purge_reads_the_retention_and_session_limits_from_the_environment(capsys, monkeypatch, cli_database):
    now = datetime.now(UTC)
    with Session(cli_database) as session:
        session.add(Pupil(name="Ten days", is_guest=True, created_at=now - timedelta(days=10)))
        session.add(
            SignInSession(
                token_hash="two hours idle", created_at=now - timedelta(hours=2), last_seen_at=now - timedelta(hours=2)
            )
        )
        session.commit()
    monkeypatch.setenv("SESSION_IDLE_MINUTES", "180")
    assert run_cli(capsys, "purge")[1].out.startswith("deleted 0 guests not seen for 30 days")
    assert len(rows(cli_database, SignInSession)) == 1
    monkeypatch.setenv("GUEST_RETENTION_DAYS", "7")
    monkeypatch.setenv("SESSION_IDLE_MINUTES", "60")
    assert "deleted 1 guests not seen for 7 days" in run_cli(capsys, "purge")[1].out
    assert rows(cli_database, Pupil) == [] and rows(cli_database, SignInSession) == []
    code, out = run_cli(capsys, "purge", "--days", "0")
    assert code == 2 and out.err.strip()


def test_skills_fit_writes_a_new_version_from_the_stored_answers_and_new_answers_are_judged_by_it(capsys, cli_database):
    """120 pupils answer multiply 12 times under known BKT parameters; compare has too few answers to fit."""
    truth = skills.Params(p_init=0.3, p_learn=0.2, p_slip=0.1, p_guess=0.2)
    rng, start = random.Random(5), datetime(2026, 11, 2, 8, 0, tzinfo=UTC)
    with Session(cli_database) as session:
        pupils = [Pupil(name=f"P{n}") for n in range(120)]
        session.add_all(pupils)
        session.flush()
        for number, pupil in enumerate(pupils):
            answers, _ = fitting.simulate(truth, 12, rng)
            for t, correct in enumerate(answers):
                session.add(
                    AttemptRecord(
                        pupil_id=pupil.id,
                        skill="multiply",
                        question_kind="multiply_top_numbers",
                        question={"difficulty": 1 + t % 3, "answer": "number"},
                        typed="1",
                        correct=correct,
                        readable=True,
                        first_try=True,
                        created_at=start + timedelta(minutes=number + 200 * t),
                    )
                )
        session.add(
            AttemptRecord(
                pupil_id=pupils[0].id,
                skill="compare",
                question_kind="compare_numbers",
                question={"difficulty": 1},
                typed="1",
                correct=True,
                created_at=start,
            )
        )
        for pupil in pupils[:60]:  # retries and unreadable answers are not fitted
            session.add(
                AttemptRecord(
                    pupil_id=pupil.id,
                    skill="multiply",
                    question_kind="multiply_top_numbers",
                    question={"difficulty": 1},
                    typed="1",
                    correct=True,
                    first_try=False,
                    created_at=start,
                )
            )
            session.add(
                AttemptRecord(
                    pupil_id=pupil.id,
                    skill="multiply",
                    question_kind="multiply_top_numbers",
                    question={"difficulty": 1},
                    typed="",
                    correct=False,
                    readable=False,
                    first_try=False,
                    created_at=start,
                )
            )
        session.commit()
        second = pupils[1].id
    code, out = run_cli(capsys, "skills", "fit")
    assert code == 0 and "1441 first answers read" in out.out and "Version 1 written for 1 skills" in out.out
    (fitted,) = rows(cli_database, SkillParams)
    assert (fitted.version, fitted.skill, fitted.answers) == (1, "multiply", 1440)
    assert fitted.p_init == pytest.approx(0.3, abs=0.1) and fitted.p_learn == pytest.approx(0.2, abs=0.1)
    assert fitted.p_slip == pytest.approx(0.1, abs=0.06) and fitted.p_guess == pytest.approx(0.2, abs=0.1)
    assert fitted.blend_bkt > 0.5  # in a BKT world knowledge tracing carries the forecast
    # each multiply level is calibrated from its 480 answers; compare's one answer is too few
    calibrated = {(r.skill, r.kind, r.level): r.count for r in rows(cli_database, QuestionDifficulty)}
    assert calibrated == {("multiply", "multiply_top_numbers", level): 480 for level in (1, 2, 3)}
    with Session(cli_database) as session:
        record = progress.update_skill(session, second, "multiply", True)
        assert record.params_version == 1 and record.p_known != pytest.approx(0.66)
    assert run_cli(capsys, "skills", "fit")[1].out.count("Version 2 written") == 1 and {
        r.version for r in rows(cli_database, SkillParams)
    } == {1, 2}
    assert "multiply         version 2, 1440 answers" in run_cli(capsys, "skills", "show")[1].out


def test_skills_fit_when_due_fits_a_skill_once_it_has_enough_answers_and_judges_the_records_again(capsys, cli_database):
    """24 pupils answer multiply (typed, level 2) 10 times each through the app's own record_attempt."""
    truth = fitting.Fitted(p_init=0.3, p_learn=0.2, p_slip=0.1, p_guess=0.2)
    rng, start = random.Random(7), datetime(2026, 11, 2, 8, 0, tzinfo=UTC)

    def answer(session, pupil_id: int, correct: bool, at: datetime) -> None:
        question = {"difficulty": 2, "answer": "number"}
        attempt = Attempt("multiply", "multiply_top_numbers", question, "1", "1", correct, True, True, 0, 900, 0)
        progress.record_attempt(session, pupil_id, None, attempt, at=at)

    with Session(cli_database) as session:
        pupils = [Pupil(name=f"P{n}") for n in range(24)]
        session.add_all(pupils)
        session.flush()
        ids = [pupil.id for pupil in pupils]
        for number, pupil_id in enumerate(ids[:12]):
            for t, correct in enumerate(fitting.simulate(truth, 10, rng)[0]):
                answer(session, pupil_id, correct, start + timedelta(minutes=number + 60 * t))
        session.commit()
    assert "No skill is due" in run_cli(capsys, "skills", "fit", "--when-due")[1].out  # 120 answers: too few
    with Session(cli_database) as session:
        for number, pupil_id in enumerate(ids[12:]):
            for t, correct in enumerate(fitting.simulate(truth, 10, rng)[0]):
                answer(session, pupil_id, correct, start + timedelta(days=1, minutes=number + 60 * t))
        session.commit()
    code, out = run_cli(capsys, "skills", "fit", "--when-due")
    assert code == 0 and "Version 1 written for 1 skills" in out.out and "24 skill records judged again" in out.out
    (fitted,) = rows(cli_database, SkillParams)
    params = progress.params_of(fitted)
    with Session(cli_database) as session:
        for pupil_id in ids[:3]:
            record = progress.skill_records(session, pupil_id)["multiply"]
            answers = session.scalars(
                select(AttemptRecord).where(AttemptRecord.pupil_id == pupil_id).order_by(AttemptRecord.id)
            ).all()
            state = skills.fresh(params)
            for row, before in zip(answers, [None, *answers]):
                days = skills.idle_days(before.created_at if before else None, row.created_at)
                state = skills.update(state, row.correct, params, drill_level=2, days=days)
            assert record.params_version == 1 and record.p_known == pytest.approx(state.p_known)
            assert record.evidence == pytest.approx(state.evidence) and record.typed_right == state.typed_right
    assert "No skill is due" in run_cli(capsys, "skills", "fit", "--when-due")[1].out  # no 200 new answers yet


def test_skills_fit_keeps_the_defaults_while_no_skill_has_enough_answers(capsys, cli_database):
    assert "every skill keeps its parameters" in run_cli(capsys, "skills", "fit")[1].out
    assert "every skill uses the defaults" in run_cli(capsys, "skills", "show")[1].out and not rows(
        cli_database, SkillParams
    )


@pytest.mark.parametrize(
    ("locale", "spoken"),
    [
        ("nb", "tjuesju pluss tre firedeler"),
        ("sv", "tjugosju plus tre fjärdedelar"),
        ("it", "ventisette più tre quarti"),
        ("en", "twenty-seven plus three quarters"),
    ],
)
def test_say_prints_the_speakable_form_of_a_text(capsys, locale, spoken):
    code, out = run_cli(capsys, "say", "--locale", locale, "27 + 3/4")
    assert code == 0 and out.out == spoken + "\n"


def test_teacher_password_disable_enable_and_delete_hand_classes_to_the_co_teacher(capsys, monkeypatch, cli_database):
    with Session(cli_database) as session:
        tove, cora, solo = (
            Teacher(email=f"{name}@school.example", name=name.title(), password_hash=accounts.hash_password("x" * 12))
            for name in ("tove", "cora", "solo")
        )
        session.add_all([tove, cora, solo])
        shared = classroom.create_class(session, tove, "4B", "en", "Europe/London", "pictures")
        classroom.add_co_teacher(session, shared, "cora@school.example")
        classroom.create_class(session, solo, "5A", "en", "Europe/London", "pictures")
        session.add(SignInSession(token_hash="tove's", teacher_id=tove.id))
        session.commit()

    def teacher_row(email):
        return next(t for t in rows(cli_database, Teacher) if t.email == email)

    monkeypatch.setattr("sys.stdin", io.StringIO("qwerty123456\n"))
    code, out = run_cli(capsys, "teacher", "password", "tove@school.example")
    assert code == 2 and "common" in out.err
    monkeypatch.setattr("sys.stdin", io.StringIO("seven green apples\n"))
    code, out = run_cli(capsys, "teacher", "password", "TOVE@school.example")
    assert code == 0 and "seven" not in out.out + out.err
    assert accounts.check_password(teacher_row("tove@school.example").password_hash, "seven green apples")
    assert rows(cli_database, SignInSession) == []  # signed out everywhere
    assert run_cli(capsys, "teacher", "disable", "cora@school.example")[0] == 0
    assert teacher_row("cora@school.example").disabled
    assert run_cli(capsys, "teacher", "enable", "cora@school.example")[0] == 0
    assert not teacher_row("cora@school.example").disabled
    code, out = run_cli(capsys, "teacher", "delete", "solo@school.example")
    assert code == 2 and "5A" in out.err and "co-teacher" in out.err  # the class would have no teacher
    code, out = run_cli(capsys, "teacher", "delete", "tove@school.example")
    assert code == 0 and "4B → cora@school.example" in out.out
    assert sorted(t.email for t in rows(cli_database, Teacher)) == ["cora@school.example", "solo@school.example"]
    with Session(cli_database) as session:
        [membership] = session.scalars(select(ClassTeacher).join(SchoolClass).where(SchoolClass.name == "4B")).all()
        assert membership.teacher.email == "cora@school.example" and membership.role == "owner"
    assert run_cli(capsys, "teacher", "disable", "nobody@school.example")[0] == 2
