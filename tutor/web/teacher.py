"""The teacher's side: classes, pupils, login cards and homework.

Every route takes public ids and looks them up through :mod:`tutor.classroom` together
with the signed-in teacher, so another teacher's class, pupil or assignment is a 404.
The dashboards that read a class's work are in :mod:`tutor.web.dashboards`.
"""

from __future__ import annotations

import json
from datetime import timedelta

import segno
from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask_babel import force_locale, lazy_gettext, ngettext
from flask_babel import gettext as _
from sqlalchemy import func, select

from tutor import accounts, classroom, content
from tutor.engine import GAMES
from tutor.lessons import LESSONS
from tutor.models import Assignment, Pupil, SchoolClass, utcnow
from tutor.skill_model import skills
from tutor.text import LOCALES
from tutor.web import db
from tutor.web.auth import current_teacher, teacher_required

bp = Blueprint("teacher", __name__, url_prefix="/teacher")

#: What a teacher reads when :class:`classroom.Refused` names a problem.
REFUSALS = {
    "class_name": lazy_gettext("Please give the class a name of 1 to %(max)s characters."),
    "locale": lazy_gettext("Please choose one of the languages."),
    "timezone": lazy_gettext("Please choose a time zone from the list."),
    "sign_in": lazy_gettext("Please choose how pupils sign in: pictures or a PIN."),
    "target_success": lazy_gettext("Please choose a share of right answers from %(low)s %% to %(high)s %%."),
    "no_such_teacher": lazy_gettext("There is no teacher with that e-mail address. They need an account first."),
    "already_teaches": lazy_gettext("That teacher already teaches this class."),
    "pupil_name": lazy_gettext("Please type a first name or nickname of 1 to %(max)s characters."),
    "duplicate_pupil": lazy_gettext("There is already a pupil called %(name)s in this class."),
    "game": lazy_gettext("Please choose a game."),
    "options": lazy_gettext("Those settings do not work for this game. Please check them."),
    "goal": lazy_gettext("Please choose a goal."),
    "goal_count": lazy_gettext("Please choose a number from 1 to %(max)s for the goal."),
    "goal_skill": lazy_gettext("Please choose a skill this game practises and the level to reach."),
    "due_date": lazy_gettext("Please give the due date as a date and a time."),
    "due_past": lazy_gettext("The due date has already passed. Please choose a later one."),
    "due_far": lazy_gettext("The due date is more than a year away. Please choose an earlier one."),
    "pupils": lazy_gettext("Please choose at least one pupil of this class, or the whole class."),
}


def refusal_message(error: classroom.Refused) -> str:
    return str(REFUSALS[error.code]) % error.params if error.params else str(REFUSALS[error.code])


def class_or_404(class_id: str) -> SchoolClass:
    school_class = classroom.class_for(db.session(), current_teacher(), class_id)
    if school_class is None:
        abort(404)
    return school_class


def pupil_or_404(pupil_id: str) -> Pupil:
    pupil = classroom.pupil_for(db.session(), current_teacher(), pupil_id)
    if pupil is None:
        abort(404)
    return pupil


def assignment_or_404(assignment_id: str) -> Assignment:
    assignment = classroom.assignment_for(db.session(), current_teacher(), assignment_id)
    if assignment is None:
        abort(404)
    return assignment


# --- classes ---------------------------------------------------------------------------------
@bp.get("")
@teacher_required
def home():
    return render_template("teacher/home.html", classes=classroom.classes_of(db.session(), current_teacher()))


def class_form_context(school_class=None, **values) -> dict:
    teacher = current_teacher()
    locale = values.get("locale") or (school_class.locale if school_class else teacher.locale)
    return {
        "school_class": school_class,
        "values": {
            "name": values.get("name", school_class.name if school_class else ""),
            "locale": locale,
            "timezone": values.get("timezone")
            or (school_class.timezone if school_class else classroom.DEFAULT_TIMEZONES.get(locale, "UTC")),
            "sign_in": values.get("sign_in") or (school_class.sign_in if school_class else "pictures"),
            "target_percent": values.get("target_success")
            or str(round(school_class.target_success * 100) if school_class else 75),
            # a form sent back with an error shows what was sent; an unticked box is not sent at all
            "casino_war_on": values.get("casino_war") == "on"
            if values
            else bool(school_class and school_class.casino_war_on),
        },
        "target_percents": classroom.TARGET_PERCENTS,
        "timezones": classroom.timezones(),
        "locales": LOCALES,
    }


@bp.route("/classes/new", methods=["GET", "POST"])
@teacher_required
def new_class():
    if request.method == "GET":
        return render_template("teacher/class_form.html", **class_form_context())
    form = request.form
    database = db.session()
    try:
        school_class = classroom.create_class(
            database,
            current_teacher(),
            form.get("name", ""),
            form.get("locale", ""),
            form.get("timezone", ""),
            form.get("sign_in", ""),
            form.get("target_success"),
        )
    except classroom.Refused as error:
        database.rollback()
        flash(refusal_message(error), "error")
        return render_template("teacher/class_form.html", **class_form_context(**form.to_dict())), 400
    database.commit()
    flash(
        _(
            "The class %(name)s is ready. Its code is %(code)s. Now add the pupils.",
            name=school_class.name,
            code=accounts.show_code(school_class.code),
        ),
        "success",
    )
    return redirect(url_for("teacher.pupils", class_id=school_class.public_id))


@bp.route("/classes/<class_id>/settings", methods=["GET", "POST"])
@teacher_required
def class_settings(class_id):
    school_class = class_or_404(class_id)
    database = db.session()
    context = {"is_owner": classroom.is_owner(database, current_teacher(), school_class)}
    if request.method == "GET":
        return render_template("teacher/class_settings.html", **class_form_context(school_class), **context)
    form = request.form
    try:
        classroom.update_class(
            school_class,
            form.get("name", ""),
            form.get("locale", ""),
            form.get("timezone", ""),
            form.get("sign_in", ""),
            form.get("target_success"),
            form.get("casino_war") == "on",
        )
    except classroom.Refused as error:
        database.rollback()
        flash(refusal_message(error), "error")
        return render_template(
            "teacher/class_settings.html", **class_form_context(class_or_404(class_id), **form.to_dict()), **context
        ), 400
    database.commit()
    flash(_("The class settings are saved."), "success")
    return redirect(url_for("teacher.class_settings", class_id=school_class.public_id))


@bp.post("/classes/<class_id>/co-teachers")
@teacher_required
def add_co_teacher(class_id):
    school_class = class_or_404(class_id)
    database = db.session()
    try:
        added = classroom.add_co_teacher(database, school_class, request.form.get("email", ""))
    except classroom.Refused as error:
        flash(refusal_message(error), "error")
    else:
        database.commit()
        flash(_("%(name)s now teaches this class too.", name=added.name), "success")
    return redirect(url_for("teacher.class_settings", class_id=school_class.public_id))


@bp.post("/classes/<class_id>/co-teachers/<teacher_id>/remove")
@teacher_required
def remove_co_teacher(class_id, teacher_id):
    school_class = class_or_404(class_id)
    database = db.session()
    if not classroom.is_owner(database, current_teacher(), school_class):
        abort(404)
    try:
        classroom.remove_co_teacher(database, school_class, teacher_id)
    except classroom.Refused:
        abort(404)
    database.commit()
    flash(_("The co-teacher was removed from this class."), "success")
    return redirect(url_for("teacher.class_settings", class_id=school_class.public_id))


@bp.post("/classes/<class_id>/delete")
@teacher_required
def delete_class(class_id):
    school_class = class_or_404(class_id)
    database = db.session()
    if not classroom.is_owner(database, current_teacher(), school_class):
        abort(404)
    if request.form.get("confirm") != "yes":
        flash(_("Tick the box to confirm that the class and all its pupils' work should be deleted."), "error")
        return redirect(url_for("teacher.class_settings", class_id=school_class.public_id))
    name = school_class.name
    classroom.delete_class(database, school_class)
    database.commit()
    flash(_("The class %(name)s and all its pupils' work are deleted.", name=name), "success")
    return redirect(url_for("teacher.home"))


# --- pupils ----------------------------------------------------------------------------------
def class_pupils(school_class: SchoolClass) -> list[Pupil]:
    return (
        db.session()
        .scalars(select(Pupil).where(Pupil.class_id == school_class.id).order_by(func.lower(Pupil.name)))
        .all()
    )


@bp.route("/classes/<class_id>/pupils", methods=["GET", "POST"])
@teacher_required
def pupils(class_id):
    school_class = class_or_404(class_id)
    if request.method == "POST":
        database = db.session()
        result = classroom.add_pupils(database, school_class, request.form.get("names", ""))
        database.commit()
        if result.added:
            flash(ngettext("%(num)s pupil added.", "%(num)s pupils added.", len(result.added)), "success")
        if result.duplicates:
            flash(_("Already in the class, so not added again: %(names)s.", names=", ".join(result.duplicates)), "info")
        if result.refused:
            flash(
                ngettext(
                    "%(num)s line was not a name of 1 to %(max)s characters and was left out.",
                    "%(num)s lines were not names of 1 to %(max)s characters and were left out.",
                    len(result.refused),
                    max=accounts.NAME_MAX,
                ),
                "error",
            )
        if result.over_limit:
            flash(
                ngettext(
                    "A class can have at most %(max)s pupils; %(num)s name was left out.",
                    "A class can have at most %(max)s pupils; %(num)s names were left out.",
                    result.over_limit,
                    max=classroom.PUPILS_MAX,
                ),
                "error",
            )
        if not (result.added or result.duplicates or result.refused or result.over_limit):
            flash(_("Type or paste the pupils' first names or nicknames, one per line."), "error")
            return render_template(
                "teacher/pupils.html", school_class=school_class, pupils=class_pupils(school_class)
            ), 400
        return redirect(url_for("teacher.pupils", class_id=school_class.public_id))
    return render_template("teacher/pupils.html", school_class=school_class, pupils=class_pupils(school_class))


@bp.post("/pupils/<pupil_id>/reset-secret")
@teacher_required
def reset_secret(pupil_id):
    pupil = pupil_or_404(pupil_id)
    database = db.session()
    classroom.reset_secret(database, pupil)
    database.commit()
    message = (
        _("%(name)s has new pictures. Print a new login card for them.")
        if pupil.school_class.sign_in == "pictures"
        else _("%(name)s has a new PIN. Print a new login card for them.")
    )
    flash(message % {"name": pupil.name}, "success")
    return redirect(url_for("teacher.pupils", class_id=pupil.school_class.public_id))


@bp.post("/pupils/<pupil_id>/rename")
@teacher_required
def rename_pupil(pupil_id):
    pupil = pupil_or_404(pupil_id)
    database = db.session()
    try:
        classroom.rename_pupil(database, pupil, request.form.get("name", ""))
    except classroom.Refused as error:
        database.rollback()
        flash(refusal_message(error), "error")
    else:
        database.commit()
        flash(_("The name is changed to %(name)s.", name=pupil.name), "success")
    return redirect(url_for("teacher.pupils", class_id=pupil_or_404(pupil_id).school_class.public_id))


@bp.post("/pupils/<pupil_id>/delete")
@teacher_required
def delete_pupil(pupil_id):
    pupil = pupil_or_404(pupil_id)
    class_public_id, name = pupil.school_class.public_id, pupil.name
    if request.form.get("confirm") != "yes":
        flash(_("Tick the box to confirm that %(name)s and all their work should be deleted.", name=name), "error")
        return redirect(url_for("teacher.pupils", class_id=class_public_id))
    database = db.session()
    classroom.delete_pupil(database, pupil)
    database.commit()
    flash(_("%(name)s and all their work are deleted.", name=name), "success")
    return redirect(url_for("teacher.pupils", class_id=class_public_id))


@bp.get("/pupils/<pupil_id>/export.json")
@teacher_required
def export_pupil(pupil_id):
    pupil = pupil_or_404(pupil_id)
    body = json.dumps(classroom.export_pupil(db.session(), pupil), ensure_ascii=False, indent=2)
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="kortmatte-pupil-{pupil.public_id}.json"'
    return response


@bp.get("/classes/<class_id>/cards")
@teacher_required
def login_cards(class_id):
    """One printable page: a card per pupil with the class code, the name, the pictures and a QR code."""
    school_class = class_or_404(class_id)
    address = url_for("auth.class_names", code=school_class.code, _external=True)
    qr = segno.make(address, error="m").svg_data_uri(scale=3, border=2)
    with force_locale(school_class.locale):  # the children read the cards in their class's language
        card = {
            "code": _("Class code: %(code)s", code=accounts.show_code(school_class.code)),
            "pictures": _("My pictures, in this order:"),
            "pin": _("PIN: %(pin)s", pin="{pin}"),
            "qr": _("QR code for %(address)s", address=address),
            "picture_names": {name: _(label) for name, label in content.load("pictures")["labels"].items()},
        }
    return render_template(
        "teacher/cards.html", school_class=school_class, pupils=class_pupils(school_class), qr=qr, card=card
    )


# --- homework --------------------------------------------------------------------------------
def game_choices(school_class: SchoolClass) -> list[dict]:
    """The lessons a teacher may give the class as homework (Casino War only when switched on for it)."""
    result = []
    for game_id in LESSONS:
        if not classroom.lesson_open(game_id, school_class, False):
            continue
        info = LESSONS[game_id].content()  # with the family's shared texts (computer players, moves)
        game = GAMES[game_id]
        result.append(
            {
                "id": game_id,
                "info": info,
                "game": game,
                "lesson": LESSONS[game_id],
                "skills": classroom.game_skills(game_id),
            }
        )
    return result


@bp.get("/classes/<class_id>/homework")
@teacher_required
def homework(class_id):
    school_class = class_or_404(class_id)
    assignments = (
        db.session()
        .scalars(select(Assignment).where(Assignment.class_id == school_class.id).order_by(Assignment.due_at.desc()))
        .all()
    )
    return render_template("teacher/homework.html", school_class=school_class, assignments=assignments, now=utcnow())


def homework_form_context(school_class: SchoolClass, values: dict) -> dict:
    return {
        "school_class": school_class,
        "pupils": class_pupils(school_class),
        "games": game_choices(school_class),
        "skills_catalogue": content.load("skills"),
        "levels": skills.LEVELS[2:],
        "values": values,
        "goal_max": classroom.GOAL_COUNT_MAX,
    }


@bp.route("/classes/<class_id>/homework/new", methods=["GET", "POST"])
@teacher_required
def new_homework(class_id):
    school_class = class_or_404(class_id)
    if request.method == "GET":
        game_id = (
            request.args.get("game")
            if request.args.get("game") in LESSONS and classroom.lesson_open(request.args["game"], school_class, False)
            else next(iter(LESSONS))
        )
        local_now = utcnow().astimezone(classroom.zone(school_class.timezone))
        values = {
            "game": game_id,
            "players": "2",
            "bots": "beginner",
            "goal": "games",
            "goal_count": "1",
            "due_date": (local_now + timedelta(days=7)).date().isoformat(),
            "due_time": "18:00",
            "everyone": "yes",
        }
        return render_template("teacher/homework_form.html", **homework_form_context(school_class, values))
    form = request.form
    game_id = form.get("game", "")
    option_specs = GAMES[game_id].option_specs if game_id in GAMES else []
    prefix = f"{game_id}-"
    assignment_form = classroom.AssignmentForm(
        game_id=game_id,
        players=form.get(f"{prefix}players", "2"),
        bots=form.get(f"{prefix}bots", "beginner"),
        options={spec.key: form[f"{prefix}{spec.key}"] for spec in option_specs if f"{prefix}{spec.key}" in form},
        goal=form.get("goal", ""),
        goal_count=form.get("goal_count", ""),
        goal_skill=form.get(f"{prefix}goal_skill", ""),
        goal_level=form.get("goal_level", ""),
        due_date=form.get("due_date", ""),
        due_time=form.get("due_time", ""),
        class_deal=form.get("class_deal") == "yes",
        everyone=form.get("everyone", "yes") == "yes",
        pupil_ids=tuple(form.getlist("pupils")),
    )
    database = db.session()
    try:
        assignment = classroom.create_assignment(database, school_class, current_teacher(), assignment_form, utcnow())
    except classroom.Refused as error:
        database.rollback()
        flash(refusal_message(error), "error")
        values = {**form.to_dict(), "pupils": form.getlist("pupils")}
        return render_template(
            "teacher/homework_form.html", **homework_form_context(class_or_404(class_id), values)
        ), 400
    database.commit()
    flash(_("The homework is set."), "success")
    return redirect(url_for("dashboards.assignment", assignment_id=assignment.public_id))


@bp.post("/assignments/<assignment_id>/delete")
@teacher_required
def delete_homework(assignment_id):
    assignment = assignment_or_404(assignment_id)
    class_public_id = assignment.school_class.public_id
    database = db.session()
    database.delete(assignment)
    database.commit()
    flash(_("The homework is deleted. The games the pupils played stay in their progress."), "success")
    return redirect(url_for("teacher.homework", class_id=class_public_id))
