"""The request's database session: the Flask side of :mod:`tutor.db`.

One engine and session factory per app (``app.extensions["db_engine"]`` and
``["db_sessions"]``); a request opens its session on first use and closes it at teardown.
"""

from __future__ import annotations

from flask import Flask, current_app, g
from sqlalchemy.orm import Session

from tutor.db import make_engine, make_sessions


def init_app(app: Flask) -> None:
    use_engine(app)
    app.teardown_appcontext(_close_session)


def use_engine(app: Flask, pool_size: int | None = None) -> None:
    """The app's engine and sessions, with a PostgreSQL pool of ``pool_size`` (``kortmatte serve``: its threads)."""
    engine = make_engine(app.config["DATABASE_URL"], pool_size)
    app.extensions["db_engine"] = engine
    app.extensions["db_sessions"] = make_sessions(engine)


def session() -> Session:
    """The request's database session (opened on first use, closed at teardown)."""
    if "db_session" not in g:
        g.db_session = current_app.extensions["db_sessions"]()
    return g.db_session


def _close_session(_error=None) -> None:
    db_session = g.pop("db_session", None)
    if db_session is not None:
        db_session.close()
