"""Error pages in the reader's language and the site's layout, for people and for htmx.

One template (``error.html``) serves every status; htmx does not swap an error
response, ``app.js`` shows the page's own message instead. Nothing here logs what a
request carried: forms hold children's names and answers.
"""

from __future__ import annotations

from flask import Flask, make_response, render_template
from flask_babel import lazy_gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError

from tutor import limits
from tutor.web import db

#: status -> (heading, what to do), whole sentences for translators
MESSAGES = {
    400: (
        lazy_gettext("That did not work"),
        lazy_gettext("The page sent something we could not use. Go back, reload the page and try again."),
    ),
    404: (
        lazy_gettext("Page not found"),
        lazy_gettext("There is no page here. The link may be wrong, or the page is not yours to see."),
    ),
    405: (
        lazy_gettext("That did not work"),
        lazy_gettext("This page cannot be used that way. Go back and use the buttons on the page."),
    ),
    413: (
        lazy_gettext("That was too much"),
        lazy_gettext("What you sent is too long for us. Please send something shorter."),
    ),
    429: (
        lazy_gettext("Please wait a moment"),
        lazy_gettext("There were too many tries in a short time. Wait a little, then try again."),
    ),
    503: (
        lazy_gettext("Very busy just now"),
        lazy_gettext(
            "Many pupils are playing at once, so your last step was not saved. Wait a moment and try it again."
        ),
    ),
    500: (
        lazy_gettext("Something went wrong"),
        lazy_gettext(
            "We could not finish that step. Everything up to your last step is saved: reload the page or go to the "
            "home page."
        ),
    ),
    "broken_run": (
        lazy_gettext("This game cannot go on"),
        lazy_gettext(
            "Something in this saved game is broken, so it cannot be played on. Your answers so far are kept. Start a "
            "new game from the home page."
        ),
    ),
    "csrf": (
        lazy_gettext("This page is too old"),
        lazy_gettext(
            "This page was opened before you last signed in or out, so it cannot be sent. Reload the page and try "
            "again."
        ),
    ),
}


def error_page(status: int, kind=None):
    heading, advice = MESSAGES.get(kind or status) or MESSAGES[500 if status >= 500 else 400]
    return render_template("error.html", heading=heading, advice=advice, status=status), status


def http_error(error: HTTPException):
    return error_page(error.code or 500)


def csrf_error(error: CSRFError):
    return error_page(400, "csrf")


def server_error(error: InternalServerError):
    """The 500 page; if even the layout cannot be drawn (the database is gone), a plain one."""
    try:
        db.session().rollback()
        return error_page(500)
    except Exception:  # noqa: BLE001 - the last resort must not fail
        heading, advice = MESSAGES[500]
        return f"<!doctype html><title>{heading}</title><h1>{heading}</h1><p>{advice}</p>", 500


def over_limit(error: limits.Exceeded):
    """429 with the seconds to wait; the use that was one too many is not kept."""
    db.session().rollback()
    response = make_response(*error_page(429))
    response.headers["Retry-After"] = str(error.wait)
    return response


def init_app(app: Flask) -> None:
    app.register_error_handler(limits.Exceeded, over_limit)
    app.register_error_handler(CSRFError, csrf_error)  # before HTTPException: CSRFError is a 400
    app.register_error_handler(InternalServerError, server_error)
    app.register_error_handler(HTTPException, http_error)
