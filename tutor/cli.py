"""The ``kortmatte`` command: serve the app, simulate games, manage the database and catalogues."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import sys
import time
from pathlib import Path

from tutor import ROOT
from tutor.text import LOCALES

#: Threads per worker process: one overlaps the other's database waits; more cost CPU in switching (bench/load.py).
SERVE_THREADS = 2
#: Workers when --workers is not given: one per core (a lesson step is CPU-bound), at least 2, at most 8.
SERVE_WORKERS_MIN, SERVE_WORKERS_MAX = 2, 8
#: Connections the kernel may queue before they are accepted; past it new ones are refused at once.
SERVE_BACKLOG = 1024
#: Seconds an idle kept-alive connection stays open: longer than a pupil's pause between two clicks.
SERVE_KEEPALIVE_S = 5
#: A worker silent this long (a request stuck in a loop) is killed and replaced.
SERVE_TIMEOUT_S = 30
#: Seconds the kernel holds a new connection that has sent nothing before handing it to a worker.
SERVE_DEFER_ACCEPT_S = 30


def default_workers() -> int:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(SERVE_WORKERS_MIN, min(SERVE_WORKERS_MAX, cores))


def _defer_accept(arbiter) -> None:
    """Accept a connection only once its first bytes have arrived (Linux), before any worker forks.

    A gthread worker gives every accepted connection a thread that waits up to 5 s for the
    request, so a few hundred idle connections (browsers' speculative preconnects, or
    someone holding sockets open) would otherwise keep every thread waiting.
    """
    if hasattr(socket, "TCP_DEFER_ACCEPT"):
        for listener in arbiter.LISTENERS:
            with contextlib.suppress(OSError):  # not a TCP socket
                listener.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_DEFER_ACCEPT, SERVE_DEFER_ACCEPT_S)


def serve_wsgi(app, host: str, port: int, workers: int | None = None, threads: int | None = None) -> None:
    """Serve ``app`` under gunicorn: worker processes forked from this one, each with a pool of threads.

    The gthread worker keeps idle and kept-alive connections in a poller rather than a thread,
    so open connections that send nothing cannot stall the pupils who click. The app is built
    before the fork, so workers start at once and share its imported modules.
    """
    from gunicorn.app.base import BaseApplication

    settings = {
        "bind": [f"[{host}]:{port}" if ":" in host else f"{host}:{port}"],
        "workers": workers or default_workers(),
        "threads": threads or SERVE_THREADS,
        "worker_class": "gthread",
        "backlog": SERVE_BACKLOG,
        "keepalive": SERVE_KEEPALIVE_S,
        "timeout": SERVE_TIMEOUT_S,
        "graceful_timeout": SERVE_TIMEOUT_S,
        "secure_scheme_headers": {},  # only the app's PROXIES setting decides which forwarded headers to trust
        "proc_name": "kortmatte",
        "accesslog": None,  # no per-request log: it would hold pupils' addresses and cost CPU on every click
        "errorlog": "-",
        "control_socket_disable": True,  # one fixed socket path per user would clash between two servers
        "when_ready": _defer_accept,
    }

    class Server(BaseApplication):
        def load_config(self):
            for key, value in settings.items():
                self.cfg.set(key, value)

        def load(self):
            return app

    Server(prog="kortmatte serve").run()


def cmd_serve(args) -> int:
    from tutor import db
    from tutor.app import create_app
    from tutor.web import db as web_db

    app = create_app()
    db.upgrade(app.config["DATABASE_URL"])  # once, before any worker starts
    app.extensions["db_engine"].dispose()  # no pooled connection may be shared across the fork
    workers = args.workers or default_workers()
    threads = args.threads or SERVE_THREADS
    web_db.use_engine(app, pool_size=threads)  # a connection for each thread of a worker, opened after the fork
    print(
        f"Kortmatte is serving on http://{args.host}:{args.port}/ with {workers} workers of {threads} threads "
        f"(database: {_redacted(app.config['DATABASE_URL'])})",
        flush=True,
    )
    serve_wsgi(app, args.host, args.port, workers, threads)
    return 0


def positive_int(text: str) -> int:
    number = int(text)
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {number}")
    return number


def _redacted(url: str) -> str:
    """A database URL without its password, for logs."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def parse_options(pairs: list[str]) -> dict:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SystemExit(f"--option needs KEY=VALUE, not {pair!r}")
        options[key] = value
    return options


def cmd_simulate(args) -> int:
    from tutor.engine import GAMES, InvalidOptions, make_game
    from tutor.engine.play import simulate

    if args.game not in GAMES:
        print(f"unknown game {args.game!r}; choose from {', '.join(sorted(GAMES))}", file=sys.stderr)
        return 2
    try:
        game = make_game(args.game, args.players, parse_options(args.option))
        bots = [name for name in (args.bots or "").split(",") if name]
        started = time.perf_counter()
        result = simulate(game, args.seed, bots)
    except (InvalidOptions, KeyError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    report = {
        **result.report(),
        "seed": args.seed,
        "bots": bots or ["strong"],
        "seconds": round(time.perf_counter() - started, 4),
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for key, value in report.items():
            print(f"{key}: {value}")
    return 0 if result.state.is_over and result.accounted else 1


def cmd_games(args) -> int:
    from tutor.engine import GAMES, make_game

    games = [make_game(game_id, GAMES[game_id].min_players).describe() for game_id in sorted(GAMES)]
    if args.json:
        print(json.dumps(games, indent=2))
    else:
        for game in games:
            print(
                f"{game['id']}: {game['title']} ({game['min_players']}-{game['max_players']} players; "
                f"bots: {', '.join(game['bots'])})"
            )
            for option in game["options"]:
                print(f"    {option['key']} = {option['default']!r}: {option['label']}")
    return 0


def _app_database_url() -> str:
    from tutor.app import create_app

    return create_app().config["DATABASE_URL"]


def cmd_db(args) -> int:
    from tutor import db

    url = _app_database_url()
    db.upgrade(url)
    print(f"database is up to date ({_redacted(url)})")
    return 0


def cmd_demo(args) -> int:
    from tutor import db
    from tutor.demo import create_demo_data

    url = _app_database_url()
    db.upgrade(url)
    try:
        report = create_demo_data(
            url, pupils_per_class=args.pupils, days=args.days, log=lambda line: print(line, flush=True)
        )
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(report)
    return 0


def read_password() -> str:
    """A new password: asked twice at a terminal, else the first line of stdin (for scripts)."""
    import getpass

    from tutor.admin import Refused

    if sys.stdin is not None and sys.stdin.isatty():
        password = getpass.getpass("Password: ")
        if getpass.getpass("Password again: ") != password:
            raise Refused("mismatch", "the two passwords are not the same")
        return password
    return (sys.stdin.readline() if sys.stdin is not None else "").rstrip("\r\n")


def cmd_teacher(args) -> int:
    from sqlalchemy.orm import Session

    from tutor import admin, db

    url = _app_database_url()
    db.upgrade(url)
    engine = db.make_engine(url)
    try:
        with Session(engine) as session:
            if args.action == "list":
                teachers = admin.list_teachers(session)
                if args.json:
                    print(json.dumps(teachers, indent=2, ensure_ascii=False))
                else:
                    for teacher in teachers:
                        print(
                            f"{teacher['email']}  {teacher['name']}  "
                            f"({teacher['locale']}; {teacher['classes']} classes)"
                        )
                return 0
            if args.action in ("password", "disable", "enable", "delete", "disable-2fa"):
                return _change_teacher(session, args.action, args.email)
            try:
                admin.check_new_teacher(session, args.email, args.name, args.locale)
                teacher = admin.add_teacher(session, args.email, args.name, read_password(), args.locale)
            except admin.Refused as error:
                print(f"error: {error}", file=sys.stderr)
                return 2
            session.commit()
            print(
                f"teacher added: {teacher.email} ({teacher.name}, language {teacher.locale}); "
                "they sign in at /teacher/sign-in"
            )
            return 0
    finally:
        engine.dispose()


def _change_teacher(session, action: str, email: str) -> int:
    """``kortmatte teacher password|disable|enable|delete|disable-2fa EMAIL``."""
    from tutor import admin, second_factor

    try:
        teacher = admin.teacher_by_email(session, email)
        if action == "password":
            admin.set_password(session, teacher, read_password())
            done = f"new password for {teacher.email}; they are signed out everywhere"
        elif action == "disable-2fa":
            second_factor.turn_off(session, teacher)
            done = f"{teacher.email} signs in with the password alone until they turn the code from an app on again"
        elif action in ("disable", "enable"):
            admin.disable_teacher(session, teacher, action == "disable")
            done = f"{teacher.email} is {action}d" + ("; signed out everywhere" if action == "disable" else "")
        else:
            handed = admin.delete_teacher(session, teacher)
            done = f"deleted {email}" + "".join(f"\nclass handed on: {line}" for line in handed)
    except admin.Refused as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    session.commit()
    print(done)
    return 0


def cmd_lti(args) -> int:
    """``kortmatte lti add-platform|list|remove-platform|rotate-key|send-grades``: the learning platforms that launch
    Kortmatte, and the homework scores that go back to their gradebooks."""
    from sqlalchemy.orm import Session

    from tutor import db
    from tutor.lti import platforms

    url = _app_database_url()
    db.upgrade(url)
    engine = db.make_engine(url)
    try:
        with Session(engine) as session:
            try:
                if args.action == "list":
                    found = platforms.list_platforms(session)
                    if args.json:
                        print(json.dumps([p.to_dict() for p in found], indent=2, ensure_ascii=False))
                    for p in [] if args.json else found:
                        print(
                            f"{p.issuer}  client id {p.client_id}  deployments {', '.join(p.deployment_ids)}\n"
                            f"  login {p.login_url}\n  token {p.token_url}\n  key set {p.keyset_url}\n"
                            f"  the tool's keys (newest signs): {', '.join(p.key_ids)}"
                        )
                    return 0
                if args.action == "send-grades":
                    from tutor.lti import grades
                    from tutor.models import utcnow

                    sent, failed = grades.send_scores(session, utcnow())
                    print(f"scores sent: {sent}; not sent (tried again next time): {failed}")
                    return 1 if failed else 0
                if args.action == "add-platform":
                    platforms.add_platform(
                        session,
                        args.issuer,
                        args.client_id,
                        args.deployment_id,
                        args.login_url,
                        args.token_url,
                        args.keyset_url,
                    )
                    done = f"platform added: {args.issuer} (client id {args.client_id})"
                elif args.action == "remove-platform":
                    platforms.remove_platform(session, args.issuer, args.client_id)
                    done = f"platform removed: {args.issuer}; its teachers, classes and pupils stay, unlinked"
                elif args.remove_old:
                    removed = platforms.remove_old_keys(session, args.issuer, args.client_id)
                    done = f"no longer published: {', '.join(removed) or 'no older keys'}"
                else:
                    key = platforms.rotate_key(session, args.issuer, args.client_id)
                    done = f"new signing key {key.kid}; the older keys stay published until --remove-old"
            except platforms.Refused as error:
                print(f"error: {error}", file=sys.stderr)
                return 2
            session.commit()
    finally:
        engine.dispose()
    print(done)
    return 0


def cmd_purge(args) -> int:
    from datetime import timedelta

    from sqlalchemy.orm import Session

    from tutor import accounts, admin, db
    from tutor.app import create_app
    from tutor.models import utcnow

    config = create_app().config
    days = config["GUEST_RETENTION_DAYS"] if args.days is None else args.days
    months = config["WORK_RETENTION_MONTHS"] if args.months is None else args.months
    limits = accounts.SessionLimits(
        idle=timedelta(minutes=config["SESSION_IDLE_MINUTES"]),
        lifetime=timedelta(hours=config["SESSION_LIFETIME_HOURS"]),
    )
    engine = db.make_engine(config["DATABASE_URL"])
    try:
        with Session(engine) as session:
            try:
                purged = admin.purge(session, utcnow(), days, limits, months)
            except admin.Refused as error:
                print(f"error: {error}", file=sys.stderr)
                return 2
            session.commit()
    finally:
        engine.dispose()
    print(
        f"deleted {purged.guests} guests not seen for {days} days (with their work), "
        f"{purged.sessions} ended sign-in sessions, {purged.throttles} old sign-in throttles and rate-limit counts, "
        f"{purged.resets} expired password reset links; "
        f"deleted the games and answers of {purged.old_work} class pupils who have not played for {months} months"
    )
    return 0


def cmd_classes(args) -> int:
    from sqlalchemy.orm import Session

    from tutor import db, reports

    engine = db.make_engine(_app_database_url())
    try:
        with Session(engine) as session:
            classes = reports.all_classes(session)
    finally:
        engine.dispose()
    if args.json:
        print(json.dumps([c.to_dict() for c in classes], indent=2, ensure_ascii=False))
    else:
        for c in classes:
            print(f"{c.code}  {c.name}  ({', '.join(c.teachers) or '-'}; {c.pupils} pupils)")
    return 0


def cmd_skills(args) -> int:
    """Fit the skill model to the stored answers as a new parameter version, or show the versions in use."""
    from sqlalchemy.orm import Session

    from tutor import db
    from tutor.skill_model import versions
    from tutor.skill_model.progress import newest_params
    from tutor.skill_model.skills import SKILLS

    engine = db.make_engine(_app_database_url())
    try:
        with Session(engine) as session:
            if args.action == "fit":
                due = versions.due_skills(session, args.min_answers) if args.when_due else None
                if due is not None and not due:
                    print("No skill is due for a fit: every skill keeps its parameters.")
                    return 0
                answers = versions.stored_answers(session)
                difficulties = versions.calibrate(answers, due)
                results = versions.fit_all(
                    answers, seed=args.seed, min_answers=args.min_answers, only=due, difficulties=difficulties
                )
                version = versions.save_version(session, results)
                versions.save_difficulties(session, difficulties)
                judged = versions.rejudge(session, answers, due)
                session.commit()
                print(f"{len(answers)} first answers read; {judged} skill records judged again.")
                if version is None:
                    print(f"No skill has {args.min_answers} first answers yet: every skill keeps its parameters.")
                    return 0
                print(f"Version {version} written for {len(results)} skills:")
            newest = newest_params(session)
            rows = [newest[skill] for skill in SKILLS if skill in newest]
            if not rows and args.action == "show":
                print("No fitted parameters yet: every skill uses the defaults.")
            for row in rows:
                print(
                    f"  {row.skill:<16} version {row.version}, {row.answers} answers: "
                    f"start {row.p_init:.3f}, learn {row.p_learn:.3f}, slip {row.p_slip:.3f}, guess {row.p_guess:.3f}; "
                    f"forecast {row.blend_bkt:+.2f} bkt {row.blend_elo:+.2f} elo {row.blend_bias:+.2f} "
                    f"{row.blend_right:+.3f} right {row.blend_wrong:+.3f} wrong"
                )
    finally:
        engine.dispose()
    return 0


def cmd_report(args) -> int:
    """The class grid as CSV on stdout: one row per pupil, one column per skill, level words in English."""
    from sqlalchemy.orm import Session

    from tutor import classroom, db, reports

    engine = db.make_engine(_app_database_url())
    try:
        with Session(engine) as session:
            school_class = classroom.class_by_code(session, args.code)
            if school_class is None:
                print(f"no class with the code {args.code!r} (see: kortmatte classes)", file=sys.stderr)
                return 2
            rows = reports.grid_table(reports.class_grid(session, school_class, args.sort))
    finally:
        engine.dispose()
    if args.csv:
        sys.stdout.write(reports.to_csv(rows, ",", bom=False))
    else:
        widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
        for row in rows:
            print("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)).rstrip())
    return 0


POT = ROOT / "translations" / "messages.pot"


def pybabel(step: str, pot: Path = POT, locations: bool = False) -> None:
    """Run one pybabel step with the project's settings (extract also reads content/ via our extractor).

    Extraction knows the core's markers (``N_``, ``NP_``, and ``NC_``/``NPC_`` with a context
    first) and brings ``# Translators:`` comments along. The catalogue leaves out where each
    text is used, unless ``locations`` (for tests that check texts by where they are written).
    """
    from babel.messages.frontend import CommandLineInterface

    translations = str(ROOT / "translations")
    where = [] if locations else ["--no-location"]
    commands = {
        "extract": [
            "extract",
            "-F",
            str(ROOT / "babel.cfg"),
            "-k",
            "N_",
            "-k",
            "NP_:1,2",
            "-k",
            "NC_:1c,2",
            "-k",
            "NPC_:1c,2,3",
            "-k",
            "lazy_gettext",
            "-c",
            "Translators:",
            *where,
            "--sort-output",
            "--project",
            "Kortmatte",
            "-o",
            str(pot),
            str(ROOT),
        ],
        "update": ["update", "-i", str(pot), "-d", translations, "--no-fuzzy-matching", "--ignore-obsolete"],
        "compile": ["compile", "-d", translations, "--statistics"],
    }
    CommandLineInterface().run(["pybabel", "-q", *commands[step]])


def cmd_say(args) -> int:
    from tutor.speech import speakable

    print(speakable(" ".join(args.text), args.locale))
    return 0


def cmd_audio(args) -> int:
    """Record the speech of every pupil's text for devices without a voice (tutor/speech/audio.py)."""
    import tempfile

    from babel.messages.pofile import read_po

    from tutor.app import create_app
    from tutor.speech import audio

    if not audio.Espeak.available():
        print("no pre-rendered speech: espeak-ng and opusenc are not installed (scripts/system-packages.sh)")
        return 0
    directory = Path(args.dir or create_app().config["AUDIO_DIR"])
    with tempfile.TemporaryDirectory() as scratch:
        pot = Path(scratch) / "pupil.pot"
        pybabel("extract", pot=pot, locations=True)
        with pot.open("rb") as handle:
            template = read_po(handle)
    sizes = audio.build(
        directory,
        audio.Espeak(),
        lambda locale: audio.pupil_texts(template, locale),
        locales=args.locale or LOCALES,
        workers=os.cpu_count() or 1,
    )
    for locale, (clips, size) in sizes.items():
        print(f"{locale}: {clips} clips, {size / 1e6:.1f} MB in {directory}")
    return 0


def cmd_i18n(args) -> int:
    for step in ["extract", "update", "compile"] if args.action == "all" else [args.action]:
        pybabel(step)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kortmatte", description="Card games as guided maths lessons.")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser(
        "serve", help="migrate the database, then serve the app with several worker processes (gunicorn)"
    )
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=positive_int, help="worker processes (default: one per core, 2 to 8)")
    serve.add_argument("--threads", type=positive_int, help=f"threads per worker (default {SERVE_THREADS})")
    serve.set_defaults(func=cmd_serve)

    simulate = sub.add_parser("simulate", help="play a whole game between computer players and report the result")
    simulate.add_argument("game")
    simulate.add_argument("--players", type=int, default=2)
    simulate.add_argument("--seed", type=int, default=1)
    simulate.add_argument("--bots", help="computer players by seat, comma separated (e.g. beginner,strong)")
    simulate.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    simulate.add_argument("--json", action="store_true")
    simulate.set_defaults(func=cmd_simulate)

    games = sub.add_parser("games", help="list the registered games with their options and defaults")
    games.add_argument("--json", action="store_true")
    games.set_defaults(func=cmd_games)

    database = sub.add_parser("db", help="database tasks")
    database.add_argument("action", choices=["upgrade"])
    database.set_defaults(func=cmd_db)

    demo = sub.add_parser(
        "demo",
        help="add a demo teacher, four classes and three weeks of simulated play (idempotent); "
        "prints the sign-in and class codes",
    )
    demo.add_argument("--pupils", type=int, default=24, help="pupils per class (1-24)")
    demo.add_argument("--days", type=int, default=21, help="days of history (3 or more)")
    demo.set_defaults(func=cmd_demo)

    teacher = sub.add_parser(
        "teacher", help="teacher accounts: add, list, new password, disable, enable, delete, disable-2fa"
    )
    teacher_sub = teacher.add_subparsers(dest="action", required=True)
    teacher_add = teacher_sub.add_parser(
        "add", help="add a teacher; the password is asked twice, or read from the first line of stdin"
    )
    teacher_add.add_argument("--email", required=True)
    teacher_add.add_argument("--name", required=True)
    teacher_add.add_argument("--locale", default="en", help="en, nb, sv or it (default en)")
    teacher_list = teacher_sub.add_parser("list", help="list the teachers: e-mail, name, language, number of classes")
    teacher_list.add_argument("--json", action="store_true")
    for action, text in (
        ("password", "give a teacher a new password (asked twice, or the first line of stdin); they are signed out"),
        ("disable", "switch an account off: signed out everywhere, cannot sign in, the classes stay"),
        ("enable", "switch an account on again"),
        ("delete", "delete an account; each class it owns goes to its co-teacher (refused if a class has none)"),
        ("disable-2fa", "turn off a teacher's second factor (a lost phone): the password alone signs in again"),
    ):
        teacher_sub.add_parser(action, help=text).add_argument("email")
    teacher.set_defaults(func=cmd_teacher)

    lti = sub.add_parser(
        "lti", help="LTI 1.3 learning platforms (itslearning, Canvas, Moodle): add, list, remove, rotate the tool's key"
    )
    lti_sub = lti.add_subparsers(dest="action", required=True)
    lti_add = lti_sub.add_parser("add-platform", help="register a platform (its values are in its tool registration)")
    lti_add.add_argument(
        "--issuer", required=True, help="the platform's issuer (iss), e.g. https://canvas.instructure.com"
    )
    lti_add.add_argument("--client-id", required=True, help="the client id the platform gave Kortmatte")
    lti_add.add_argument("--deployment-id", required=True, action="append", help="a deployment id (repeat for several)")
    lti_add.add_argument("--login-url", required=True, help="the platform's OIDC authorisation (auth login) URL")
    lti_add.add_argument("--token-url", required=True, help="the platform's OAuth 2 access token URL")
    lti_add.add_argument("--keyset-url", required=True, help="the platform's public key set (JWKS) URL")
    lti_list = lti_sub.add_parser("list", help="list the registered platforms and the tool's key ids")
    lti_list.add_argument("--json", action="store_true")
    for action, text in (
        ("remove-platform", "unregister a platform: its links go, its teachers, classes, pupils and their work stay"),
        ("rotate-key", "give a platform a new signing key; the old public keys stay published until --remove-old"),
    ):
        parser_ = lti_sub.add_parser(action, help=text)
        parser_.add_argument("--issuer", required=True)
        parser_.add_argument("--client-id", help="needed when the issuer has several client ids")
        if action == "rotate-key":
            parser_.add_argument(
                "--remove-old", action="store_true", help="stop publishing every key but the newest (no new key)"
            )
    lti_sub.add_parser(
        "send-grades", help="send the changed homework scores to the platforms' gradebooks (run it from cron)"
    )
    lti.set_defaults(func=cmd_lti)

    purge = sub.add_parser(
        "purge",
        help="delete guests not seen for GUEST_RETENTION_DAYS days, the games and answers of class pupils who have "
        "not played for WORK_RETENTION_MONTHS months, ended sign-in sessions and old throttles (run nightly)",
    )
    purge.add_argument(
        "--days", type=int, help="delete guests not seen for this many days (default: GUEST_RETENTION_DAYS, 30)"
    )
    purge.add_argument(
        "--months",
        type=int,
        help="delete the games and answers of class pupils who have not played for this many months "
        "(default: WORK_RETENTION_MONTHS, 12)",
    )
    purge.set_defaults(func=cmd_purge)

    classes = sub.add_parser("classes", help="list the classes: code, name, teachers, pupil count")
    classes.add_argument("--json", action="store_true")
    classes.set_defaults(func=cmd_classes)

    report = sub.add_parser("report", help="a class's skill grid (one row per pupil, one column per skill)")
    report.add_argument("code", help="the class code")
    report.add_argument("--csv", action="store_true", help="comma-separated, UTF-8 without BOM")
    report.add_argument("--sort", default="name", help="name (default), help, or a skill id")
    report.set_defaults(func=cmd_report)

    skills = sub.add_parser(
        "skills",
        help="the skill model: fit its parameters to the stored answers as a new version, or show the versions in use",
    )
    skills.add_argument("action", choices=["fit", "show"])
    skills.add_argument("--seed", type=int, default=0, help="the seed of EM's random restarts (default 0)")
    skills.add_argument(
        "--min-answers", type=int, default=200, help="first answers a skill needs to be fitted (default 200)"
    )
    skills.add_argument(
        "--when-due",
        action="store_true",
        help="fit only the skills with 200 new first answers since their last fit (run it nightly)",
    )
    skills.set_defaults(func=cmd_skills)

    say = sub.add_parser(
        "say", help="print the speakable form of a text: its numbers, fractions, signs and cards in words"
    )
    say.add_argument("--locale", default="en", help="en, nb, sv or it (default en)")
    say.add_argument("text", nargs="+", help='the text as a page shows it, e.g. "27 + 3/4"')
    say.set_defaults(func=cmd_say)

    audio = sub.add_parser("audio", help="recorded speech for devices without a voice of their own")
    audio_sub = audio.add_subparsers(dest="action", required=True)
    audio_build = audio_sub.add_parser(
        "build", help="record every pupil's text with espeak-ng once (a text recorded before is kept)"
    )
    audio_build.add_argument("--locale", action="append", choices=LOCALES, help="only this language (repeatable)")
    audio_build.add_argument("--dir", help="where the clips go (default: AUDIO_DIR, instance/audio)")
    audio.set_defaults(func=cmd_audio)

    i18n = sub.add_parser("i18n", help="pybabel extract / update / compile for the catalogues")
    i18n.add_argument("action", choices=["extract", "update", "compile", "all"])
    i18n.set_defaults(func=cmd_i18n)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
