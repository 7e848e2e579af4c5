"""A teacher's second factor: turning it on and off, and the sign-in's second step (the code after the password).

Between the two steps the signed session cookie holds only which teacher gave the right password, when, and
where to go next; the sign-in itself starts only after the code.
"""

from __future__ import annotations

import time

import segno
from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from sqlalchemy import select

from tutor import accounts, limits, second_factor
from tutor.models import Teacher, utcnow
from tutor.web import db, teacher_device
from tutor.web.auth import (
    PASSWORD_GIVEN,
    client_address,
    current_teacher,
    start_session,
    teacher_required,
    wait_message,
)

bp = Blueprint("second_factor", __name__)

#: The password step is forgotten after this long without the code.
PENDING_SECONDS = 300


def _pending_teacher() -> tuple[Teacher | None, str]:
    """The teacher who gave the right password in the last minutes on this browser, and where to go next."""
    pending = session.get(PASSWORD_GIVEN)
    if not isinstance(pending, dict) or time.time() - pending.get("at", 0) > PENDING_SECONDS:
        return None, ""
    database = db.session()
    teacher = database.scalar(select(Teacher).where(Teacher.public_id == str(pending.get("teacher"))))
    if teacher is None or teacher.disabled or not teacher.totp_on:
        return None, ""
    return teacher, str(pending.get("next") or url_for("teacher.home"))


def _count_try(teacher: Teacher) -> int | None:
    """Count one code typed for the account: the seconds to wait when over the limit (nothing counted then)."""
    database = db.session()
    wait = limits.hit(database, limits.SECOND_FACTOR_TRIES, teacher.id, time.time())
    if wait:
        database.rollback()
        return wait
    database.commit()  # a wrong code counts even when nothing else is written
    return None


@bp.route("/teacher/sign-in/code", methods=["GET", "POST"])
def code():
    """The sign-in's second step: a code from the authenticator app, or one of the recovery codes."""
    teacher, next_page = _pending_teacher()
    if teacher is None:
        session.pop(PASSWORD_GIVEN, None)
        flash(_("Please sign in with your e-mail address and password first."), "info")
        return redirect(url_for("auth.teacher_sign_in"))
    if request.method == "GET":
        return render_template("teacher/second_factor_code.html")
    wait = _count_try(teacher)
    if wait:
        flash(wait_message(wait), "error")
        return render_template("teacher/second_factor_code.html"), 429
    database = db.session()
    if not second_factor.check(database, teacher, request.form.get("code", ""), time.time()):
        database.rollback()
        flash(_("That code is not right, or it was used already. Please type the newest code."), "error")
        return render_template("teacher/second_factor_code.html"), 400
    limits.give_back(database, limits.SECOND_FACTOR_TRIES, teacher.id, time.time())  # only wrong codes count
    start_session(teacher=teacher, locale=teacher.locale)
    flash(_("Welcome, %(name)s.", name=teacher.name), "success")
    return teacher_device.remember(redirect(next_page), teacher)


@bp.route("/teacher/second-factor", methods=["GET", "POST"])
@teacher_required
def settings():
    """Turn the second factor on (the app's first code confirms it) or off (with the password)."""
    teacher, database = current_teacher(), db.session()
    if teacher.password_hash is None:  # signed in by a learning platform (tutor.lti): it guards the account
        abort(404)
    if request.method == "POST" and request.form.get("action") == "off":
        return _turn_off(teacher)
    if teacher.totp_on:
        return render_template("teacher/second_factor.html", left=second_factor.recovery_codes_left(database, teacher))
    secret = second_factor.start(database, teacher)
    database.commit()
    if request.method == "GET":
        return _setup_page(teacher, secret)
    wait = _count_try(teacher)
    if wait:
        flash(wait_message(wait), "error")
        return _setup_page(teacher, secret, 429)
    codes = second_factor.turn_on(database, teacher, request.form.get("code", ""), time.time())
    if codes is None:
        database.rollback()
        flash(_("That code is not right. Please type the newest code from the app."), "error")
        return _setup_page(teacher, secret, 400)
    limits.give_back(database, limits.SECOND_FACTOR_TRIES, teacher.id, time.time())
    database.commit()
    return render_template("teacher/recovery_codes.html", codes=codes)


def _setup_page(teacher: Teacher, secret: str, status: int = 200):
    address = second_factor.setup_address(secret, teacher.email)
    page = render_template(
        "teacher/second_factor_setup.html",
        secret=second_factor.show_secret(secret),
        address=address,
        qr=segno.make(address, error="m").svg_data_uri(scale=4, border=2),
    )
    return page, status


def _turn_off(teacher: Teacher):
    """Off with the current password, whose wrong tries count as on the password page."""
    database, now = db.session(), utcnow()
    key = accounts.throttle_key("account", f"{teacher.email} {client_address()}", current_app.config["SECRET_KEY"])
    wait = accounts.wait_seconds(database, key, now)
    if wait:
        flash(wait_message(wait), "error")
        return redirect(url_for("second_factor.settings"))
    if not accounts.check_password(teacher.password_hash, request.form.get("password", "")):
        accounts.note_failure(database, key, accounts.ACCOUNT, now)
        database.commit()
        flash(_("That is not your current password. Please try again."), "error")
        return redirect(url_for("second_factor.settings"))
    second_factor.turn_off(database, teacher)
    database.commit()
    flash(_("Signing in with a code from an app is off."), "success")
    return redirect(url_for("second_factor.settings"))
