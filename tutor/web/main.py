"""Home page, language choice, guest sign-in and the pupil's own progress page."""

from __future__ import annotations

import functools
import unicodedata

from flask import Blueprint, flash, g, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from sqlalchemy import select

from tutor import content, db, skills
from tutor.engine import GAMES
from tutor.lessons import LESSONS
from tutor.models import LessonRunRecord, Pupil
from tutor.progress import skill_records
from tutor.text import LOCALES

bp = Blueprint("main", __name__)

NAME_MAX = 40


def current_pupil() -> Pupil | None:
    if "pupil" not in g:
        pupil_id = session.get("pupil_id")
        g.pupil = db.session().get(Pupil, pupil_id) if pupil_id else None
    return g.pupil


def pupil_required(view):
    """Send visitors without a name to the home page to give one first."""

    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        if current_pupil() is None:
            flash(_("Please tell us your name first."), "info")
            return redirect(url_for("main.index"))
        return view(*args, **kwargs)

    return wrapped


@bp.app_context_processor
def inject_pupil():
    return {"pupil": current_pupil()}


def clean_name(raw: str) -> str | None:
    """A guest name: 1-40 printable characters, no control or formatting characters."""
    name = " ".join(raw.split())
    if not 1 <= len(name) <= NAME_MAX:
        return None
    if any(unicodedata.category(ch)[0] == "C" for ch in name):
        return None
    return name


@bp.get("/")
def index():
    pupil = current_pupil()
    unfinished = {}
    if pupil:
        rows = db.session().scalars(
            select(LessonRunRecord).where(LessonRunRecord.pupil_id == pupil.id, LessonRunRecord.finished_at.is_(None)).order_by(LessonRunRecord.updated_at.desc())
        )
        for row in rows:
            unfinished.setdefault(row.game_id, row)
    games = [(content.load(f"games/{game_id}"), GAMES[game_id]) for game_id in LESSONS]
    return render_template("index.html", games=games, unfinished=unfinished)


@bp.post("/language")
def set_language():
    locale = request.form.get("locale", "")
    if locale in LOCALES:
        session["locale"] = locale
        pupil = current_pupil()
        if pupil:
            pupil.locale = locale
            db.session().commit()
    return redirect(_safe_next(request.form.get("next")))


def _safe_next(target: str | None) -> str:
    """Only return to a page of this site."""
    if target and target.startswith("/") and not target.startswith("//"):
        return target
    return url_for("main.index")


@bp.post("/guest")
def guest_sign_in():
    name = clean_name(request.form.get("name", ""))
    if name is None:
        flash(_("Please type a name of 1 to %(max)s letters.", max=NAME_MAX), "error")
        return redirect(url_for("main.index"))
    pupil = Pupil(name=name, is_guest=True, locale=session.get("locale") or "en")
    database = db.session()
    database.add(pupil)
    database.commit()
    session.clear()
    session.permanent = True
    session["pupil_id"] = pupil.id
    session["locale"] = pupil.locale if pupil.locale in LOCALES else "en"
    flash(_("Hello, %(name)s! Choose a game to start.", name=name), "success")
    return redirect(url_for("main.index"))


@bp.post("/sign-out")
def sign_out():
    locale = session.get("locale")
    session.clear()
    if locale:
        session["locale"] = locale
    return redirect(url_for("main.index"))


@bp.get("/progress")
@pupil_required
def progress():
    records = skill_records(db.session(), current_pupil().id)
    catalogue = content.load("skills")
    rows = []
    for skill_id, info in catalogue.items():
        record = records.get(skill_id)
        state = skills.SkillState(record.p_known, record.attempts, record.correct, record.streak) if record else None
        rows.append({"id": skill_id, "info": info, "record": record, "status": skills.status(state)})
    return render_template("progress.html", rows=rows)
