"""The ``kortmatte`` command: serve the app, simulate games, manage the database and catalogues."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from tutor import ROOT


def cmd_serve(args) -> int:
    from waitress import serve

    from tutor import db
    from tutor.app import create_app

    app = create_app()
    db.upgrade(app.config["DATABASE_URL"])
    print(f"Kortmatte is serving on http://{args.host}:{args.port}/ (database: {_redacted(app.config['DATABASE_URL'])})", flush=True)
    serve(app, host=args.host, port=args.port, threads=args.threads, ident="kortmatte")
    return 0


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
    report = {**result.report(), "seed": args.seed, "bots": bots or ["strong"], "seconds": round(time.perf_counter() - started, 4)}
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
            print(f"{game['id']}: {game['title']} ({game['min_players']}-{game['max_players']} players; bots: {', '.join(game['bots'])})")
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
    print(create_demo_data(url))
    return 0


POT = ROOT / "translations" / "messages.pot"


def pybabel(step: str, pot: Path = POT) -> None:
    """Run one pybabel step with the project's settings (extract also reads content/ via our extractor)."""
    from babel.messages.frontend import CommandLineInterface

    translations = str(ROOT / "translations")
    commands = {
        "extract": ["extract", "-F", str(ROOT / "babel.cfg"), "-k", "N_", "-k", "NP_:1,2", "-k", "lazy_gettext", "--no-location", "--sort-output", "--project", "Kortmatte", "-o", str(pot), str(ROOT)],
        "update": ["update", "-i", str(pot), "-d", translations, "--no-fuzzy-matching", "--ignore-obsolete"],
        "compile": ["compile", "-d", translations, "--statistics"],
    }
    CommandLineInterface().run(["pybabel", "-q", *commands[step]])


def cmd_i18n(args) -> int:
    for step in ["extract", "update", "compile"] if args.action == "all" else [args.action]:
        pybabel(step)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kortmatte", description="Card games as guided maths lessons.")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="migrate the database and serve the app under a production WSGI server (waitress)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--threads", type=int, default=8)
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

    demo = sub.add_parser("demo", help="add demo pupils with progress (idempotent)")
    demo.set_defaults(func=cmd_demo)

    i18n = sub.add_parser("i18n", help="pybabel extract / update / compile for the catalogues")
    i18n.add_argument("action", choices=["extract", "update", "compile", "all"])
    i18n.set_defaults(func=cmd_i18n)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
