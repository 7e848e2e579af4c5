"""A forgotten teacher password: the page that asks for the e-mail address, and the e-mailed link's page.

Only when mail is configured (MAIL_SERVER, MAIL_FROM and SITE_URL; see tutor/config.py); otherwise the school's
administrator sets a new password with ``kortmatte teacher password EMAIL``. The first page answers the same
whatever the address, and the e-mail is sent after the answer, so neither the words nor the time tell which
addresses have an account. The link's token is signed with the app's secret (so a token is only looked up when
this server made it) and is kept in the database as a hash.
"""

from __future__ import annotations

import time

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import force_locale
from flask_babel import gettext as _
from itsdangerous import BadSignature, URLSafeTimedSerializer

from tutor import accounts, admin, config, limits, mail, password_reset
from tutor.models import utcnow
from tutor.web import db
from tutor.web.auth import address_key, refused_password_message

bp = Blueprint("password_reset", __name__)

#: A link e-mailed to one account, at most this many an hour (more would fill the teacher's inbox).
EMAILS_PER_ACCOUNT = limits.Limit("reset-account", 3, 3600)
#: The form sent from one address: a school's teachers forget far fewer.
FORMS_PER_ADDRESS = limits.Limit("reset-address", 20, 3600)


def _mail_or_404() -> None:
    if not config.mail_configured(current_app.config):
        abort(404)


def _signer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt="password-reset")


def _token_in(signed: str) -> str | None:
    """The token inside a link's signed part, or None when it is not ours or older than the hour."""
    try:
        token = _signer().loads(signed, max_age=int(password_reset.VALID_FOR.total_seconds()))
    except BadSignature:
        return None
    return token if isinstance(token, str) else None


@bp.route("/teacher/forgot-password", methods=["GET", "POST"])
def forgot():
    """Ask for the address; e-mail a link when it has an account. The answer is the same either way."""
    _mail_or_404()
    if request.method == "GET":
        return render_template("teacher/forgot_password.html")
    database, now = db.session(), time.time()
    limits.check(database, FORMS_PER_ADDRESS, address_key(), now)
    started = password_reset.start(database, request.form.get("email", ""), utcnow())
    if started is not None:
        teacher, token = started
        if limits.hit(database, EMAILS_PER_ACCOUNT, teacher.id, now) is None:
            _send_later(teacher.email, teacher.locale, _signer().dumps(token))
    database.commit()
    flash(
        _("If an account has this address, we have sent it an e-mail with a link. The link works for one hour."),
        "info",
    )
    return render_template("teacher/forgot_password.html")


def _send_later(to: str, locale: str, signed: str) -> None:
    """Write the e-mail in the teacher's language and send it from a thread, after the page has answered."""
    link = current_app.config["SITE_URL"].rstrip("/") + url_for("password_reset.new_password", signed=signed)
    with force_locale(locale):
        subject = _("Your new Kortmatte password")
        body = _(
            "Someone asked for a new password for your Kortmatte account. "
            "To choose one, open this link within an hour:\n\n%(link)s\n\n"
            "If it was not you, you can ignore this e-mail. Your password stays as it is.",
            link=link,
        )
    mail.send_later(
        mail.MailServer.from_config(current_app.config), to, subject, body, current_app.logger, "password reset"
    )


@bp.route("/teacher/new-password/<signed>", methods=["GET", "POST"])
def new_password(signed):
    """The e-mailed link: choose a new password (checked like every new one); every sign-in of the account ends."""
    _mail_or_404()
    database, now = db.session(), utcnow()
    token = _token_in(signed)
    if token is None or password_reset.teacher_for(database, token, now) is None:
        return render_template("teacher/new_password.html", link_works=False), 400
    if request.method == "GET":
        return render_template("teacher/new_password.html", link_works=True, password_min=accounts.PASSWORD_MIN)
    problem = None
    if request.form.get("password", "") != request.form.get("password_again", ""):
        problem = _("The two passwords are not the same. Please type them again.")
    else:
        try:
            password_reset.finish(database, token, request.form.get("password", ""), now)
        except admin.Refused as error:
            database.rollback()
            problem = refused_password_message(error)
    if problem:
        flash(problem, "error")
        page = render_template("teacher/new_password.html", link_works=True, password_min=accounts.PASSWORD_MIN)
        return page, 400
    database.commit()
    flash(_("Your password is changed, and you are signed out everywhere. Please sign in."), "success")
    return redirect(url_for("auth.teacher_sign_in"))
