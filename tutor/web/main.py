"""Home page (with a pupil's homework), language choice and the pupil's own progress page."""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, session, url_for
from flask_babel import lazy_gettext
from sqlalchemy import select

from tutor import classroom, content, reports
from tutor.engine import GAMES
from tutor.lessons import LESSONS
from tutor.models import LessonRunRecord, utcnow
from tutor.skill_model import skills
from tutor.skill_model.progress import right_after_retry
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
        homework = classroom.homework_of(db.session(), pupil, utcnow())
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


#: What the pupil's page says about a skill at each level (and when the teacher should help), to a child of 6 to 13.
SKILL_SENTENCES = {
    skills.NOT_STARTED: lazy_gettext("You have not tried this yet."),
    skills.ATTEMPTED: lazy_gettext("You have made a start."),
    skills.FAMILIAR: lazy_gettext("You are getting better at this."),
    skills.PROFICIENT: lazy_gettext("You are good at this."),
    skills.MASTERED: lazy_gettext("You know this really well!"),
    "needs_help": lazy_gettext("This is hard right now, so ask a grown-up to help you."),
}


@bp.get("/progress")
@pupil_required
def progress():
    """The pupil's own page: a row of stars and one sentence per skill, in words a child reads (no numbers).

    The levels are the teacher's (:func:`tutor.reports.pupil_skills`: each record judged by its
    stored threshold), so the stars and the teacher's page always agree.
    """
    pupil_id = current_pupil().id
    catalogue = content.load("skills")
    rows = [
        {"id": skill_id, "name": catalogue[skill_id]["name"], "cell": cell, "stars": skills.LEVELS.index(cell.level)}
        for skill_id, cell in reports.pupil_skills(db.session(), pupil_id)
        if skill_id in catalogue
    ]
    return render_template(
        "progress.html",
        rows=rows,
        most_stars=len(skills.LEVELS) - 1,
        sentences=SKILL_SENTENCES,
        retried=right_after_retry(db.session(), pupil_id),
    )
