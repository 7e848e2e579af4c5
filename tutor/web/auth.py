"""Signing in and out: teachers with a password, pupils with class code, name and pictures, and guests.

The cookie carries a random session token; the session itself is a database row (see
:mod:`tutor.accounts`), so signing out ends it on every app server. Signing in always
starts a new session. So that a lesson step reads no sign-in rows, the signed cookie also
holds what the database said at its last check: who is signed in, and for a pupil the
few facts a step needs about them and their class. For ``SESSION_CHECK_SECONDS`` after
that check the cookie is believed; then the database is asked again. So a sign-out on
another device, a switched-off teacher, a deleted pupil, a changed password or an
idle or too old sign-in takes effect within that many seconds (docs/deployment.md).
"""

from __future__ import annotations

import functools
import hashlib
import secrets
import time
from datetime import timedelta
from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, flash, g, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import func, select
from sqlalchemy.orm import Session, make_transient_to_detached
from sqlalchemy.orm.attributes import set_committed_value

from tutor import accounts, admin, classroom, guessing, limits
from tutor.code_version import code_version
from tutor.config import mail_configured
from tutor.models import Pupil, SchoolClass, Teacher, utcnow
from tutor.text import LOCALES
from tutor.web import db, teacher_device

bp = Blueprint("auth", __name__)

DEVICE_COOKIE = "kortmatte_device"


def device_cookie() -> str:
    """The guest device cookie's name: with a __Host- prefix when cookies are sent over HTTPS only."""
    return f"__Host-{DEVICE_COOKIE}" if current_app.config["SECURE_COOKIES"] else DEVICE_COOKIE


# --- who is signed in -----------------------------------------------------------------------
def session_limits() -> accounts.SessionLimits:
    config = current_app.config
    return accounts.SessionLimits(
        idle=timedelta(minutes=config["SESSION_IDLE_MINUTES"]),
        lifetime=timedelta(hours=config["SESSION_LIFETIME_HOURS"]),
    )


#: The cookie's key for what the database last said about its sign-in (:func:`_signed_in`).
CHECKED = "checked"
#: What the cookie keeps of a pupil and their class: what a lesson step reads, never a secret.
#: Any other column is read from the database when a page asks for it.
PUPIL_FACTS = ("id", "public_id", "name", "is_guest", "class_id")
CLASS_FACTS = ("id", "public_id", "name", "locale", "timezone", "target_success", "read_aloud_on")


def _signed_in() -> dict | None:
    """Who is signed in, from the cookie while its check is recent: ``{"at", "by", "teacher", "pupil", "class"}``.

    Otherwise the database is asked (an idle, too old or deleted session ends here) and the
    answer is kept in the cookie with the time it was given.
    """
    if "signed_in" not in g:
        token, now = session.get("sid"), utcnow()
        checked = session.get(CHECKED)
        if not token or not _recent(checked, now):
            checked = _check(token, now) if token else None
        g.signed_in = checked
    return g.signed_in


def _recent(checked, now) -> bool:
    """Whether the database's last word on this cookie's sign-in is recent enough to believe without asking.

    Only a word this very code kept counts: another release may have kept other facts.
    """
    if not isinstance(checked, dict) or not isinstance(checked.get("at"), int) or checked.get("by") != code_version():
        return False
    return 0 <= now.timestamp() - checked["at"] < current_app.config["SESSION_CHECK_SECONDS"]


def _check(token: str, now) -> dict | None:
    """Ask the database about the sign-in, and keep its answer in the cookie."""
    row = accounts.find_session(db.session(), token, now, session_limits())
    if row is None:
        session.pop("sid", None)
        session.pop(CHECKED, None)
        g.session_ended = True
        return None
    pupil = row.pupil
    checked = {
        "at": int(now.timestamp()),
        "by": code_version(),
        "teacher": row.teacher_id,
        "pupil": {name: getattr(pupil, name) for name in PUPIL_FACTS} if pupil else None,
        "class": {name: getattr(pupil.school_class, name) for name in CLASS_FACTS}
        if pupil and pupil.school_class
        else None,
    }
    session[CHECKED] = checked
    return checked


def _known_row(model, facts: dict):
    """The row the cookie describes, put into the database session as it is (no SELECT); other columns load on use.

    A row the session holds already is taken as it is.
    """
    database = db.session()
    held = database.identity_map.get(Session.identity_key(model, facts["id"]))
    if held is not None:
        return held
    row = model(**facts)
    make_transient_to_detached(row)  # as if read from the database: nothing to write
    database.add(row)
    return row


def current_teacher() -> Teacher | None:
    checked = _signed_in()
    if checked is None or checked["teacher"] is None:
        return None
    if "teacher" not in g:
        g.teacher = db.session().get(Teacher, checked["teacher"])
    return g.teacher


def current_pupil() -> Pupil | None:
    checked = _signed_in()
    if checked is None or checked["pupil"] is None:
        return None
    if "pupil" not in g:
        pupil = _known_row(Pupil, checked["pupil"])
        # the class as the pupil's own (its known row is kept alive by the pupil: the session holds rows weakly)
        school_class = _known_row(SchoolClass, checked["class"]) if checked["class"] is not None else None
        set_committed_value(pupil, "school_class", school_class)
        g.pupil = pupil
    return g.pupil


def _ended_or(message: str) -> str:
    return (
        _("You were signed out because the time ran out. Please sign in again.") if g.get("session_ended") else message
    )


def pupil_required(view):
    """Send visitors who are not signed in as a pupil or guest to the home page."""

    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        if current_pupil() is None:
            flash(_ended_or(_("Please sign in first.")), "info")
            return redirect(url_for("main.index"))
        return view(*args, **kwargs)

    return wrapped


def teacher_required(view):
    """Send visitors who are not signed in as a teacher to the teacher sign-in page."""

    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        if current_teacher() is None:
            flash(_ended_or(_("Please sign in as a teacher first.")), "info")
            return redirect(
                url_for("auth.teacher_sign_in", next=request.full_path if request.method == "GET" else None)
            )
        return view(*args, **kwargs)

    return wrapped


@bp.app_context_processor
def inject_people():
    return {
        "pupil": current_pupil(),
        "teacher": current_teacher(),
        "allow_guests": current_app.config["ALLOW_GUESTS"],
        "allow_signup": current_app.config["ALLOW_SIGNUP"],
        "mail_configured": mail_configured(current_app.config),
    }


#: Longer than any page of ours: a huge Location header only breaks proxies.
NEXT_MAX = 1000


def safe_next(target: str | None, default: str) -> str:
    """Only ever go back to a path on this site (no scheme, no host, no control characters, not huge)."""
    target = str(target or "")
    if (
        len(target) > NEXT_MAX
        or not target.startswith("/")
        or target.startswith("//")
        or "\\" in target
        or any(ord(ch) < 32 or ord(ch) == 127 for ch in target)
    ):
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return default
    return target


def start_session(teacher: Teacher | None = None, pupil: Pupil | None = None, locale: str | None = None) -> None:
    """Sign in: end any old session, then begin a new one (so a fixed cookie cannot be planted).

    A language chosen on this device before signing in wins over the stored one (and is
    stored), so the pages do not switch language under the reader's feet.
    """
    database = db.session()
    accounts.close_session(database, session.get("sid"))
    chosen = session.get("locale")
    locale = chosen if chosen in LOCALES else locale
    person = teacher or pupil
    if person is not None and locale in LOCALES:
        person.locale = locale
    session.clear()
    session.permanent = True
    session["sid"] = accounts.open_session(
        database, utcnow(), teacher_id=teacher.id if teacher else None, pupil_id=pupil.id if pupil else None
    )
    if locale in LOCALES:
        session["locale"] = locale
    database.commit()
    g.pop("signed_in", None)


def end_session() -> None:
    database = db.session()
    accounts.close_session(database, session.get("sid"))
    database.commit()
    locale = session.get("locale")
    session.clear()
    if locale:
        session["locale"] = locale


def client_address() -> str:
    """The address a request came from (behind reverse proxies, set PROXIES so this is the client's)."""
    return request.remote_addr or "unknown"


def address_key() -> str:
    """The request's address as a rate-limit key: a keyed hash, so addresses are not stored."""
    return accounts.throttle_key("address", client_address(), current_app.config["SECRET_KEY"])


def wait_message(seconds: int) -> str:
    minutes = max(1, (seconds + 59) // 60)
    if seconds < 60:
        return ngettext(
            "Too many tries. Please wait %(num)s second and try again.",
            "Too many tries. Please wait %(num)s seconds and try again.",
            seconds,
        )
    return ngettext(
        "Too many tries. Please wait %(num)s minute and try again.",
        "Too many tries. Please wait %(num)s minutes and try again.",
        minutes,
    )


def common_password_message() -> str:
    return _("That password is one of the most common ones, which are guessed first. Please choose another.")


def password_length_message() -> str:
    return _(
        "Please choose a password of %(min)s to %(max)s characters.",
        min=accounts.PASSWORD_MIN,
        max=accounts.PASSWORD_MAX,
    )


def refused_password_message(error: admin.Refused) -> str:
    """Why a new password was refused: too common, or not of an allowed length."""
    return common_password_message() if error.code == "common" else password_length_message()


# --- teachers ---------------------------------------------------------------------------------
@bp.route("/teacher/sign-in", methods=["GET", "POST"])
def teacher_sign_in():
    next_page = safe_next(request.values.get("next"), url_for("teacher.home"))
    if request.method == "GET":
        return render_template("teacher_sign_in.html", next_page=next_page, email="")
    database, now = db.session(), utcnow()
    email = accounts.clean_email(request.form.get("email", "")) or ""
    secret = current_app.config["SECRET_KEY"]
    teacher = database.scalar(select(Teacher).where(Teacher.email == email)) if email else None
    # A browser this account signed in on before is counted on its own (teacher_device): nobody else's failures make
    # it wait. Any other is counted per account and address, so a stranger elsewhere cannot make a teacher wait.
    device_key = teacher_device.throttle_key(teacher)
    account_key = accounts.throttle_key("account", f"{email or '-'} {client_address()}", secret)
    address_key = accounts.throttle_key("address", client_address(), secret)
    if device_key:
        counted = [(device_key, accounts.ACCOUNT)]
    else:
        counted = [(account_key, accounts.ACCOUNT), (address_key, accounts.ADDRESS)]
    wait = max(accounts.wait_seconds(database, key, now) for key, _rule in counted)
    if wait:
        flash(wait_message(wait), "error")
        return render_template("teacher_sign_in.html", next_page=next_page, email=email), 429
    if not accounts.check_password(teacher.password_hash if teacher else None, request.form.get("password", "")):
        for key, rule in counted:
            accounts.note_failure(database, key, rule, now)
        database.commit()
        flash(_("That e-mail address and password do not match. Please try again."), "error")
        return render_template("teacher_sign_in.html", next_page=next_page, email=email), 400
    accounts.clear_failures(database, counted[0][0])
    if teacher.disabled:
        database.commit()
        flash(_("This account is switched off. Please ask the school's administrator."), "error")
        return render_template("teacher_sign_in.html", next_page=next_page, email=email), 403
    database.commit()
    if teacher.totp_on:
        return _ask_for_code(teacher, next_page)
    start_session(teacher=teacher, locale=teacher.locale)
    flash(_("Welcome, %(name)s.", name=teacher.name), "success")
    return teacher_device.remember(redirect(next_page), teacher)


#: The session key that holds, between the password and the second factor's code, who gave the right password, when
#: and where to go next (tutor.web.second_factor).
PASSWORD_GIVEN = "password_given"


def _ask_for_code(teacher: Teacher, next_page: str):
    """The right password of an account with a second factor: the sign-in begins only after the code."""
    end_session()  # any old sign-in on this browser ends now
    session[PASSWORD_GIVEN] = {"teacher": teacher.public_id, "at": int(time.time()), "next": next_page}
    return redirect(url_for("second_factor.code"))


@bp.route("/teacher/password", methods=["GET", "POST"])
@teacher_required
def change_password():
    """A teacher's new password: the current one first (a browser left signed in is not enough)."""
    if current_teacher().password_hash is None:  # signed in by a learning platform (tutor.lti): no password here
        abort(404)
    if request.method == "GET":
        return render_template("teacher/password.html", password_min=accounts.PASSWORD_MIN)
    database, now, teacher = db.session(), utcnow(), current_teacher()
    key = accounts.throttle_key("account", f"{teacher.email} {client_address()}", current_app.config["SECRET_KEY"])
    wait = accounts.wait_seconds(database, key, now)
    problem = None
    if wait:
        problem, status = wait_message(wait), 429
    elif not accounts.check_password(teacher.password_hash, request.form.get("current", "")):
        accounts.note_failure(database, key, accounts.ACCOUNT, now)
        database.commit()
        problem, status = _("That is not your current password. Please try again."), 400
    elif request.form.get("password", "") != request.form.get("password_again", ""):
        problem, status = _("The two passwords are not the same. Please type them again."), 400
    else:
        try:
            admin.set_password(database, teacher, request.form.get("password", ""))
        except admin.Refused as error:
            database.rollback()
            problem, status = refused_password_message(error), 400
    if problem:
        flash(problem, "error")
        return render_template("teacher/password.html", password_min=accounts.PASSWORD_MIN), status
    accounts.clear_failures(database, key)
    start_session(teacher=teacher, locale=teacher.locale)  # every other sign-in of the account has ended
    flash(_("Your password is changed. You are signed out everywhere else."), "success")
    # the new password ended every device cookie of the account; this browser gets one under the new password
    return teacher_device.remember(redirect(url_for("teacher.home")), teacher)


@bp.post("/sign-out")
def sign_out():
    was_teacher = current_teacher() is not None
    end_session()
    flash(_("You are signed out."), "info")
    return redirect(url_for("auth.teacher_sign_in") if was_teacher else url_for("main.index"))


# --- pupils of a class ------------------------------------------------------------------------
@bp.route("/class", methods=["GET", "POST"])
def class_code():
    """Step 1 for a pupil: the class code."""
    if request.method == "POST":
        database, now, address = db.session(), time.time(), address_key()
        wait = guessing.take_code_try(database, address, now)
        if wait:
            database.rollback()
            flash(wait_message(wait), "error")
            return render_template("class_code.html", code=request.form.get("code", "")[:20]), 429
        school_class = classroom.class_by_code(database, request.form.get("code", ""))
        if school_class is not None:
            guessing.code_was_right(database, address, now)
            database.commit()
            return redirect(url_for("auth.class_names", code=school_class.code))
        database.commit()
        flash(_("We could not find a class with that code. Check the code on your card and try again."), "error")
        return render_template("class_code.html", code=request.form.get("code", "")[:20]), 400
    return render_template("class_code.html", code="")


def class_or_404(code: str) -> SchoolClass:
    """The class with this code; its pages speak its language unless the reader chose another."""
    school_class = classroom.class_by_code(db.session(), code)
    if school_class is None:
        abort(404)
    g.class_locale = school_class.locale
    return school_class


@bp.get("/class/<code>")
def class_names(code):
    """Step 2: tap your own name (each name has its picture)."""
    school_class = class_or_404(code)
    pupils = (
        db.session()
        .scalars(select(Pupil).where(Pupil.class_id == school_class.id).order_by(func.lower(Pupil.name)))
        .all()
    )
    return render_template("class_names.html", school_class=school_class, pupils=pupils)


def pupil_of_class_or_404(school_class: SchoolClass, pupil_id: str) -> Pupil:
    pupil = db.session().scalar(
        select(Pupil).where(Pupil.class_id == school_class.id, Pupil.public_id == str(pupil_id))
    )
    if pupil is None:
        abort(404)
    return pupil


@bp.route("/class/<code>/<pupil_id>", methods=["GET", "POST"])
def pupil_secret(code, pupil_id):
    """Step 3: the pupil's pictures, tapped one by one (or their PIN)."""
    school_class = class_or_404(code)
    pupil = pupil_of_class_or_404(school_class, pupil_id)
    needed = accounts.pictures_in(pupil.secret)

    def pad(picked: list[str], status: int = 200):
        page = render_template(
            "class_secret.html",
            school_class=school_class,
            chosen=pupil,
            picked=picked,
            needed=needed,
            pictures=accounts.PICTURES,
        )
        return page, status

    if request.method == "GET":
        return pad([])
    if school_class.sign_in == "pin":
        given = accounts.pin_secret(request.form.get("pin", ""))
        if given is None:
            flash(_("Please type the %(n)s digits of your PIN.", n=accounts.PIN_DIGITS), "error")
            return pad([], 400)
    else:
        picked = [p for p in request.form.get("picked", "").split() if p in accounts.PICTURES][:needed]
        pick = request.form.get("pick", "")
        if pick in accounts.PICTURES and len(picked) < needed:
            picked.append(pick)
        if len(picked) < needed:  # not all pictures yet: show the ones picked, wait for the next
            return pad(picked)
        given = accounts.picture_secret(picked, needed)
    database, now, address = db.session(), time.time(), address_key()
    wait = guessing.take_secret_try(database, pupil, address, now)  # counted before it is checked
    if wait:
        database.rollback()
        flash(wait_message(wait), "error")
        return pad([], 429)
    if given is None or not accounts.secret_matches(pupil.secret, given):
        database.commit()
        message = (
            _("Those are not your pictures. Try again!")
            if school_class.sign_in == "pictures"
            else _("That is not your PIN. Try again!")
        )
        flash(message, "error")
        return redirect(url_for("auth.pupil_secret", code=school_class.code, pupil_id=pupil.public_id))
    guessing.secret_was_right(database, pupil, address, now)
    start_session(pupil=pupil, locale=pupil.locale)
    flash(_("Hello, %(name)s!", name=pupil.name), "success")
    return redirect(url_for("main.index"))


# --- guests -----------------------------------------------------------------------------------
def _device_hash(token: str) -> str:
    return hashlib.sha256(f"device:{token}".encode()).hexdigest()


@bp.post("/guest")
def guest_sign_in():
    """Play without a class. The same name on the same device finds the same games again."""
    if not current_app.config["ALLOW_GUESTS"]:
        abort(404)
    name = accounts.clean_name(request.form.get("name", ""))
    if name is None:
        flash(_("Please type a name of 1 to %(max)s letters.", max=accounts.NAME_MAX), "error")
        return redirect(url_for("main.index"))
    database = db.session()
    limits.check(database, limits.GUESTS, address_key(), time.time())
    device = request.cookies.get(device_cookie(), "")
    if not (16 <= len(device) <= 64 and device.replace("-", "").replace("_", "").isalnum()):
        device = secrets.token_urlsafe(24)  # a new browser; one that drops its cookies is bounded by its address
    device_hash = _device_hash(device)
    limits.check(database, limits.GUESTS_PER_DEVICE, device_hash, time.time())
    pupil = database.scalar(
        select(Pupil).where(
            Pupil.is_guest.is_(True),
            Pupil.class_id.is_(None),
            Pupil.device_hash == device_hash,
            func.lower(Pupil.name) == name.lower(),
        )
    )
    locale = session.get("locale") if session.get("locale") in LOCALES else "en"
    if pupil is None:
        pupil = Pupil(name=name, is_guest=True, locale=locale, device_hash=device_hash)
        database.add(pupil)
        database.flush()
    else:
        pupil.locale = locale
    start_session(pupil=pupil, locale=locale)
    flash(_("Hello, %(name)s! Choose a game to start.", name=name), "success")
    response = redirect(url_for("main.index"))
    secure = current_app.config["SECURE_COOKIES"]
    response.set_cookie(
        device_cookie(),
        device,
        max_age=60 * 60 * 24 * 365,
        httponly=True,
        samesite="Lax",
        secure=secure or request.is_secure,
    )
    return response
