"""Home page (with a pupil's homework), language choice and the pupil's own progress page."""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, session, url_for
from sqlalchemy import select

from tutor import classroom, content
from tutor.engine import GAMES
from tutor.lessons import LESSONS
from tutor.models import LessonRunRecord, utcnow
from tutor.skill_model import skills
from tutor.skill_model.progress import right_after_retry, skill_records
from tutor.text import LOCALES
from tutor.web import db
from tutor.web.auth import current_pupil, current_teacher, pupil_required, safe_next

bp = Blueprint("main", __name__)


@bp.get("/")
def index():
    pupil = current_pupil()
    if pupil is None and current_teacher() is not None:
        return redirect(url_for("teacher.home"))
    unfinished, homework = {}, []
    if pupil:
        rows = db.session().scalars(
            select(LessonRunRecord)
            .where(
                LessonRunRecord.pupil_id == pupil.id,
                LessonRunRecord.finished_at.is_(None),
                LessonRunRecord.assignment_id.is_(None),
            )
            .order_by(LessonRunRecord.updated_at.desc())
        )
        for row in rows:
            unfinished.setdefault(row.game_id, row)
        homework = classroom.homework_of(db.session(), pupil)
    school_class = pupil.school_class if pupil else None
    games = [
        (content.load(f"games/{game_id}"), GAMES[game_id])
        for game_id in LESSONS
        if classroom.lesson_open(game_id, school_class, current_app.config["CASINO_WAR_FOR_GUESTS"])
    ]
    return render_template("index.html", games=games, unfinished=unfinished, homework=homework, now=utcnow())


@bp.post("/language")
def set_language():
    locale = request.form.get("locale", "")
    if locale in LOCALES:
        session["locale"] = locale
        person = current_pupil() or current_teacher()
        if person is not None:
            person.locale = locale
            db.session().commit()
    return redirect(safe_next(request.form.get("next"), url_for("main.index")))


@bp.get("/progress")
@pupil_required
def progress():
    """The pupil's skills: those their games practise, and any other they have answered."""
    records = skill_records(db.session(), current_pupil().id)
    catalogue = content.load("skills")
    practised = {skill for game_id in LESSONS for skill in classroom.game_skills(game_id)}
    rows = []
    for skill_id, info in catalogue.items():
        record = records.get(skill_id)
        if skill_id not in practised and record is None:
            continue
        status = skills.record_status(record, utcnow()) if record else skills.NOT_STARTED
        rows.append({"id": skill_id, "info": info, "record": record, "status": status})
    return render_template("progress.html", rows=rows, retried=right_after_retry(db.session(), current_pupil().id))
