"""A teacher's own account (only when the operator sets ALLOW_SIGNUP): the sign-up page and, with mail, its link.

Without mail configured (MAIL_SERVER, MAIL_FROM and SITE_URL; see tutor/config.py) the page asks for name, address
and password and signs a new teacher in at once; an address that has an account gets a neutral refusal, so the
difference tells, at the sign-up limit's rate, which addresses have accounts. With mail the page asks for the
address only and answers the same for every address; the e-mail (sent after the answer) carries either a link to
finish the account or, for an address that has one, a note with links to sign in and to reset the password. The
link is the e-mail and language signed with the app's secret and a time stamp (valid one hour); it works once
because an address cannot be given a second account.
"""

from __future__ import annotations

import time

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, session, url_for
from flask_babel import force_locale
from flask_babel import gettext as _
from itsdangerous import BadSignature, URLSafeTimedSerializer
from sqlalchemy import select

from tutor import accounts, admin, config, limits, mail
from tutor.models import Teacher
from tutor.text import LOCALES
from tutor.web import db
from tutor.web.auth import address_key, common_password_message, password_length_message, start_session

bp = Blueprint("sign_up", __name__)

#: How long an e-mailed link to finish the account works, in seconds.
LINK_VALID_SECONDS = 3600
#: E-mails to one address, at most this many an hour (more would fill its inbox).
EMAILS_PER_ADDRESS = limits.Limit("sign-up-mail", 3, 3600)


def _signer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt="teacher-sign-up")


def _page_locale() -> str:
    return session.get("locale") if session.get("locale") in LOCALES else "en"


def _problems() -> dict[str, str]:
    return {
        "name": _("Please type your name (1 to %(max)s characters).", max=accounts.TEACHER_NAME_MAX),
        "email": _("Please type a valid e-mail address, such as name@school.example."),
        "password": password_length_message(),
        "mismatch": _("The two passwords are not the same. Please type them again."),
        "common": common_password_message(),
        # the same words whether or not the address has an account, so the page does not tell which addresses do
        "taken": _("We could not create an account with these details. If you already have one, please sign in."),
    }


def _add_teacher(email: str, locale: str) -> Teacher:
    """The new account from the form's name and passwords; raises :class:`admin.Refused` (the caller rolls back)."""
    password = request.form.get("password", "")
    if accounts.password_problem(password) is None and password != request.form.get("password_again", ""):
        raise admin.Refused("mismatch", "the passwords differ")
    return admin.add_teacher(db.session(), email, request.form.get("name", ""), password, locale)


def _welcome(teacher: Teacher, locale: str):
    db.session().commit()
    name = teacher.name
    start_session(teacher=teacher, locale=locale)
    flash(_("Welcome, %(name)s. Start by creating a class.", name=name), "success")
    return redirect(url_for("teacher.home"))


@bp.route("/teacher/sign-up", methods=["GET", "POST"])
def teacher_sign_up():
    if not current_app.config["ALLOW_SIGNUP"]:
        abort(404)
    by_mail = config.mail_configured(current_app.config)
    form = {"name": request.form.get("name", ""), "email": request.form.get("email", "")}
    page = {"form": form, "password_min": accounts.PASSWORD_MIN, "sent": False}
    if request.method == "GET":
        return render_template("teacher_sign_up.html", **page)
    database = db.session()
    limits.check(database, limits.SIGN_UPS, address_key(), time.time())
    database.commit()  # the try counts even when the form is refused below
    if by_mail:
        return _send_link(form, page)
    locale = _page_locale()
    try:
        teacher = _add_teacher(form["email"], locale)
    except admin.Refused as error:
        database.rollback()
        flash(_problems()[error.code], "error")
        return render_template("teacher_sign_up.html", **page), 400
    return _welcome(teacher, locale)


def _send_link(form: dict, page: dict):
    """E-mail the address a link to finish (or, when it has an account, a note); the page is the same either way."""
    email = accounts.clean_email(form["email"])
    if email is None:
        flash(_problems()["email"], "error")
        return render_template("teacher_sign_up.html", **page), 400
    database, locale = db.session(), _page_locale()
    teacher = database.scalar(select(Teacher).where(Teacher.email == email))
    mail_key = accounts.throttle_key("email", email, current_app.config["SECRET_KEY"])
    if limits.hit(database, EMAILS_PER_ADDRESS, mail_key, time.time()) is None:
        if teacher is None:
            _send_finish_link(email, locale)
        elif not teacher.disabled:
            _send_has_account(email, teacher.locale)
    database.commit()
    return render_template("teacher_sign_up.html", **(page | {"sent": True}))


def _site_link(endpoint: str, **values) -> str:
    return current_app.config["SITE_URL"].rstrip("/") + url_for(endpoint, **values)


def _send(to: str, subject: str, body: str) -> None:
    server = mail.MailServer.from_config(current_app.config)
    mail.send_later(server, to, subject, body, current_app.logger, "sign-up")


def _send_finish_link(email: str, locale: str) -> None:
    link = _site_link("sign_up.finish", signed=_signer().dumps({"email": email, "locale": locale}))
    with force_locale(locale):
        subject = _("Finish your Kortmatte account")
        body = _(
            "Someone asked for a Kortmatte teacher account with this e-mail address. "
            "To finish it, open this link within an hour and choose your name and password:\n\n%(link)s\n\n"
            "If it was not you, you can ignore this e-mail. No account is made.",
            link=link,
        )
    _send(email, subject, body)


def _send_has_account(email: str, locale: str) -> None:
    with force_locale(locale):
        subject = _("Your Kortmatte account")
        body = _(
            "Someone tried to make a Kortmatte account with this e-mail address, but it already has one. "
            "If it was you, you can sign in here:\n\n%(sign_in)s\n\n"
            "If you have forgotten your password, choose a new one here:\n\n%(forgot)s\n\n"
            "If it was not you, you can ignore this e-mail. Nothing has changed.",
            sign_in=_site_link("auth.teacher_sign_in"),
            forgot=_site_link("password_reset.forgot"),
        )
    _send(email, subject, body)


def _finish_details(signed: str) -> tuple[str, str] | None:
    """The e-mail and language a link was made for, or None when it is not ours or older than the hour."""
    try:
        details = _signer().loads(signed, max_age=LINK_VALID_SECONDS)
    except BadSignature:
        return None
    if not isinstance(details, dict) or not isinstance(details.get("email"), str):
        return None
    return details["email"], details.get("locale") if details.get("locale") in LOCALES else "en"


@bp.route("/teacher/sign-up/<signed>", methods=["GET", "POST"])
def finish(signed):
    """The e-mailed link: name and password (checked like every new password), then the teacher is signed in."""
    if not (current_app.config["ALLOW_SIGNUP"] and config.mail_configured(current_app.config)):
        abort(404)
    details = _finish_details(signed)
    if details is None:
        return render_template("teacher/finish_sign_up.html", state="broken"), 400
    email, locale = details
    database = db.session()
    if database.scalar(select(Teacher.id).where(Teacher.email == email)) is not None:
        return render_template("teacher/finish_sign_up.html", state="used"), 400
    page = {
        "state": "open",
        "email": email,
        "name": request.form.get("name", ""),
        "password_min": accounts.PASSWORD_MIN,
    }
    if request.method == "GET":
        return render_template("teacher/finish_sign_up.html", **page)
    try:
        teacher = _add_teacher(email, locale)
    except admin.Refused as error:
        database.rollback()
        if error.code == "taken":
            return render_template("teacher/finish_sign_up.html", state="used"), 400
        flash(_problems()[error.code], "error")
        return render_template("teacher/finish_sign_up.html", **page), 400
    return _welcome(teacher, locale)
