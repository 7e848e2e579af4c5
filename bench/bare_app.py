"""A bare Flask app for bench/load.py's baseline: one small template, served as ``kortmatte serve`` serves Kortmatte.

    .venv/bin/python bench/bare_app.py --port P [--workers N] [--threads N]

Without ``--workers`` it is served the way ``kortmatte serve`` serves by default, so the
baseline always runs under the same server, worker and thread counts as the app.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from flask import Flask, render_template
from jinja2 import DictLoader

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

HELLO = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{ title }}</title></head>
<body><h1>{{ title }}</h1>
<ul>{% for card in cards %}<li>{{ card.name }}: {{ card.value }}</li>{% endfor %}</ul>
<form method="post" action="/answer"><input type="hidden" name="step" value="{{ step }}">
<input name="answer"><button type="submit">Check my answer</button></form>
</body></html>
"""
CARDS = [{"name": f"card {n}", "value": n * 7 % 13} for n in range(8)]


def create_bare_app() -> Flask:
    app = Flask(__name__)
    app.jinja_loader = DictLoader({"hello.html": HELLO})

    @app.get("/")
    def hello():
        return render_template("hello.html", title="Hello", cards=CARDS, step=1)

    return app


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--workers", type=int)
    parser.add_argument("--threads", type=int)
    args = parser.parse_args(argv)
    from tutor import cli

    if hasattr(cli, "serve_wsgi"):
        cli.serve_wsgi(create_bare_app(), args.host, args.port, args.workers, args.threads)
    else:  # a tree from before ``kortmatte serve --workers``: waitress, one process, as it served then
        from waitress import serve

        serve(create_bare_app(), host=args.host, port=args.port, threads=args.threads or 8)


if __name__ == "__main__":
    main()
