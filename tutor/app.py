"""The Flask application factory."""

from __future__ import annotations

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from tutor import ROOT, config
from tutor.skill_model.progress import SharedRows
from tutor.web import db, i18n, links, security


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app; configuration comes from the environment unless ``test_config`` is given."""
    app = Flask(__name__, instance_relative_config=True, template_folder=str(ROOT / "templates"))
    app.config.update(
        TRANSLATIONS_DIR=ROOT / "translations",
        BABEL_DEFAULT_LOCALE="en",
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        MAX_CONTENT_LENGTH=64 * 1024,
        # a form's token lives as long as the sign-in: a lesson left open over lunch still works
        WTF_CSRF_TIME_LIMIT=None,
        **config.DEFAULTS,
    )
    if test_config is None:
        app.config.update(config.from_environment(app.instance_path))
    else:
        app.config.update({"DATABASE_URL": config.database_url(app.instance_path), **test_config})
        app.config.setdefault("SECRET_KEY", config.instance_secret(app.instance_path))
    # The cookie may live as long as a sign-in can; the server decides when the sign-in has ended.
    app.config["PERMANENT_SESSION_LIFETIME"] = app.config["SESSION_LIFETIME_HOURS"] * 3600
    # Set at sign-in, the cookie already lasts as long as a sign-in may: signing it again on every answer is wasted
    # work.
    app.config["SESSION_REFRESH_EACH_REQUEST"] = False
    if app.config["SECURE_COOKIES"]:
        # Over HTTPS only, and named __Host- so the browser refuses it from plain HTTP or a sibling domain.
        app.config.update(SESSION_COOKIE_SECURE=True, SESSION_COOKIE_NAME="__Host-session")

    if app.config["PROXIES"]:
        proxied = ProxyFix(app.wsgi_app, x_for=app.config["PROXIES"], x_proto=app.config["PROXIES"])
        app.wsgi_app = security.ForwardedCheck(proxied, app.logger)
    db.init_app(app)
    app.extensions["shared_rows"] = SharedRows(app.config["SHARED_ROWS_SECONDS"])
    i18n.init_app(app)
    links.init_app(app)
    security.init_app(app)

    from tutor.web import (
        assets,
        audio,
        auth,
        dashboards,
        errors,
        lessons,
        lti,
        main,
        password_reset,
        present,
        replay,
        second_factor,
        sign_up,
        sso,
        teacher,
    )

    assets.init_app(app)
    audio.init_app(app)
    present.init_app(app)
    errors.init_app(app)
    sso.init_app(app)
    for blueprint in (
        auth.bp,
        main.bp,
        lessons.bp,
        teacher.bp,
        dashboards.bp,
        replay.bp,
        second_factor.bp,
        password_reset.bp,
        sign_up.bp,
        lti.bp,
        sso.bp,
        lti.picker,
    ):
        app.register_blueprint(blueprint)
    return app
