"""The teacher's side: classes, pupils, login cards and homework.

Every route takes public ids and looks them up through :mod:`tutor.classroom` together
with the signed-in teacher, so another teacher's class, pupil or assignment is a 404.
The dashboards that read a class's work are in :mod:`tutor.web.dashboards`.
"""

from __future__ import annotations

import functools
import json
import time
from datetime import timedelta
from urllib.parse import urlsplit
from zoneinfo import available_timezones

import segno
from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask_babel import force_locale, lazy_gettext, ngettext
from flask_babel import gettext as _
from sqlalchemy import func, select

from tutor import accounts, classroom, content, groups, guessing, roster
from tutor.engine import GAMES
from tutor.lessons import LESSONS
from tutor.models import Assignment, Pupil, PupilGroup, SchoolClass, utcnow
from tutor.reports import pupil_data
from tutor.skill_model import skills
from tutor.text import LOCALES
from tutor.web import db
from tutor.web.auth import current_teacher, safe_next, teacher_required
from tutor.web.i18n import format_locale
from tutor.web.present import percent, timezone_label

bp = Blueprint("teacher", __name__, url_prefix="/teacher")

#: What a teacher reads when :class:`classroom.Refused` names a problem.
REFUSALS = {
    "class_name": lazy_gettext("Please give the class a name of 1 to %(max)s characters."),
    "locale": lazy_gettext("Please choose one of the languages."),
    "timezone": lazy_gettext("Please choose a time zone from the list."),
    "sign_in": lazy_gettext("Please choose how pupils sign in: pictures or a PIN."),
    "target_success": lazy_gettext("Please choose a share of right answers from %(low)s to %(high)s."),
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
    "group": lazy_gettext("Please choose one of the class's groups."),
    "group_name": lazy_gettext("Please give the group a name of 1 to %(max)s characters."),
    "duplicate_group": lazy_gettext("There is already a group called %(name)s in this class."),
    "groups_max": lazy_gettext("A class can have at most %(max)s groups."),
    "due_not_later": lazy_gettext("The new date must be later than the homework's due date."),
}


def refusal_message(error: classroom.Refused) -> str:
    params = error.params
    if error.code == "target_success":  # whole per cents, written as the reader's language writes percentages
        params = {key: percent(value / 100) for key, value in params.items()}
    return str(REFUSALS[error.code]) % params if params else str(REFUSALS[error.code])


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


def group_or_404(group_id: str) -> PupilGroup:
    group = groups.group_for(db.session(), current_teacher(), group_id)
    if group is None:
        abort(404)
    return group


@functools.lru_cache(maxsize=8)
def zone_labels(locale: str) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """The schools' countries' zones, then every other current zone by its name, named in ``locale`` (read once per
    process: naming some 450 zones takes tens of milliseconds)."""
    first = tuple((zone, timezone_label(zone, locale)) for zone in classroom.SCHOOL_TIMEZONES)
    others = (zone for zone in classroom.timezones() if zone not in classroom.SCHOOL_TIMEZONES)
    rest = sorted(((zone, timezone_label(zone, locale)) for zone in others), key=lambda z: (z[1].casefold(), z[0]))
    return first, tuple(rest)


def timezone_options(current: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The schools' countries' time zones first, then every other current one, each with its name in the reader's
    language (the other zones in alphabetical order of their names). A class keeps an old zone name it has."""
    locale = format_locale()
    first, rest = zone_labels(locale)
    known = {zone for zone, _ in first} | {zone for zone, _ in rest}
    if current in available_timezones() and current not in known:
        return list(first), [*rest, (current, timezone_label(current, locale))]
    return list(first), list(rest)


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
            "read_aloud_on": values.get("read_aloud") == "on"
            if values
            else bool(school_class and school_class.read_aloud_on),
        },
        "target_percents": classroom.TARGET_PERCENTS,
        "timezones": timezone_options(values.get("timezone") or (school_class.timezone if school_class else "")),
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
            form.get("read_aloud") == "on",
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


@bp.post("/classes/<class_id>/sign-in-again")
@teacher_required
def let_class_sign_in(class_id):
    """The class was paused after many wrong pictures or PINs: the teacher lets it sign in again."""
    school_class = class_or_404(class_id)
    database = db.session()
    guessing.let_class_try_again(database, school_class)
    database.commit()
    flash(_("The pupils can sign in again."), "success")
    return redirect(
        safe_next(request.referrer and urlsplit(request.referrer).path, url_for("teacher.pupils", class_id=class_id))
    )


@bp.post("/classes/<class_id>/new-code")
@teacher_required
def new_class_code(class_id):
    """A class code that got out (or was guessed at) is replaced: the old one stops working at once."""
    school_class = class_or_404(class_id)
    database = db.session()
    school_class.code = accounts.new_class_code(database)
    database.commit()
    flash(
        _("The class has a new code: %(code)s. Print new login cards.", code=accounts.show_code(school_class.code)),
        "success",
    )
    return redirect(url_for("teacher.class_settings", class_id=school_class.public_id))


@bp.app_template_global()
def sign_in_pause(school_class: SchoolClass) -> int:
    """The minutes the class's pupils must wait after many wrong tries (0: none), for the class's pages."""
    seconds = guessing.class_paused(db.session(), school_class, time.time())
    return (seconds + 59) // 60


@bp.post("/classes/<class_id>/co-teachers")
@teacher_required
def add_co_teacher(class_id):
    school_class = class_or_404(class_id)
    database = db.session()
    try:
        classroom.add_co_teacher(database, school_class, request.form.get("email", ""))
    except classroom.Refused as error:
        if error.code != "no_such_teacher":
            flash(refusal_message(error), "error")
            return redirect(url_for("teacher.class_settings", class_id=school_class.public_id))
    database.commit()
    # the same words whether or not the address has an account, so the page does not tell which addresses do
    flash(
        _(
            "If %(email)s has a Kortmatte account, they now teach this class too. If not, ask them to get one first.",
            email=accounts.clean_email(request.form.get("email", "")) or request.form.get("email", "")[:254],
        ),
        "info",
    )
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


#: What a teacher reads about a line of a class list that stops the list from being added.
ROSTER_PROBLEMS = {
    roster.NOT_A_NAME: lazy_gettext("not a first name or nickname of 1 to %(max)s characters"),
    roster.TWICE: lazy_gettext("the same name as an earlier line: add a letter or a nickname to tell them apart"),
}


def pupils_page(school_class: SchoolClass, check: roster.RosterCheck | None = None, names: str = ""):
    return render_template(
        "teacher/pupils.html",
        school_class=school_class,
        pupils=class_pupils(school_class),
        check=check,
        names=names,
        roster_problems={key: str(text) % {"max": accounts.NAME_MAX} for key, text in ROSTER_PROBLEMS.items()},
        pupils_max=classroom.PUPILS_MAX,
    )


@bp.route("/classes/<class_id>/pupils", methods=["GET", "POST"])
@teacher_required
def pupils(class_id):
    """The class's pupils; a POST adds a pasted or uploaded list, all of it or nothing."""
    school_class = class_or_404(class_id)
    if request.method == "GET":
        return pupils_page(school_class)
    text = request.form.get("names", "")
    upload = request.files.get("file")
    if upload is not None and upload.filename:
        try:
            text = roster.read_upload(upload.stream.read(roster.UPLOAD_MAX_BYTES + 1))
        except roster.UploadRefused:
            flash(
                _("That file cannot be read as a list of names. Please use a text or CSV file of at most %(kb)s KB.")
                % {"kb": roster.UPLOAD_MAX_BYTES // 1024},
                "error",
            )
            return pupils_page(school_class, names=request.form.get("names", "")), 400
    database = db.session()
    check, added = roster.import_roster(database, school_class, text)
    if not check.ok:
        database.rollback()
        flash(_("Nothing was added yet. Please correct the lines below, then add the list again."), "error")
        return pupils_page(class_or_404(class_id), check, text), 400
    database.commit()
    if added:
        flash(ngettext("%(num)s pupil added.", "%(num)s pupils added.", len(added)), "success")
    if check.already:
        flash(_("Already in the class, so not added again: %(names)s.", names=", ".join(check.already)), "info")
    if not (added or check.already):
        flash(_("Type or paste the pupils' first names or nicknames, one per line."), "error")
        return pupils_page(school_class), 400
    return redirect(url_for("teacher.pupils", class_id=school_class.public_id))


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
    body = json.dumps(pupil_data.export_pupil(db.session(), pupil), ensure_ascii=False, indent=2)
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


def homework_form_context(school_class: SchoolClass, values: dict, assignment: Assignment | None = None) -> dict:
    return {
        "school_class": school_class,
        "assignment": assignment,
        "pupils": class_pupils(school_class),
        "groups": groups.groups_of(db.session(), school_class),
        "games": game_choices(school_class),
        "skills_catalogue": content.load("skills"),
        "levels": skills.LEVELS[2:],
        "values": values,
        "goal_max": classroom.GOAL_COUNT_MAX,
    }


def chosen_game(school_class: SchoolClass, game_id: str | None) -> str:
    """The game a homework form starts with: the one asked for, if the class may play it, else the first."""
    if game_id in LESSONS and classroom.lesson_open(game_id, school_class, False):
        return game_id
    return next(iter(LESSONS))


def new_homework_values(school_class: SchoolClass, query) -> dict:
    """A new homework form's values: a week from now at 18:00 for the whole class, or what a link asks for (the
    misconception report suggests a lesson, a level and its pupils)."""
    game_id = chosen_game(school_class, query.get("game"))
    local_now = utcnow().astimezone(classroom.zone(school_class.timezone))
    values = {
        "game": game_id,
        "goal": query.get("goal") if query.get("goal") in ("games", "questions", "skill") else "games",
        "goal_count": "1",
        f"{game_id}-goal_skill": query.get("goal_skill", ""),
        "goal_level": query.get("goal_level", ""),
        "due_date": (local_now + timedelta(days=7)).date().isoformat(),
        "due_time": "18:00",
        "target": query.get("target") if query.get("target") in classroom.TARGETS else classroom.CLASS,
        "group": query.get("group", ""),
        "pupils": query.getlist("pupils"),
    }
    return values


def assignment_values(assignment: Assignment) -> dict:
    """The form values of a set homework, for the teacher to change."""
    school_class = assignment.school_class
    local = accounts.as_utc(assignment.due_at).astimezone(classroom.zone(school_class.timezone))
    prefix = f"{assignment.game_id}-"
    options = {
        prefix + key: ("yes" if value else "no") if isinstance(value, bool) else value
        for key, value in assignment.options.items()
    }
    target = classroom.CLASS if assignment.everyone else classroom.GROUP if assignment.group else classroom.PUPILS
    chosen_ids = {c.pupil_id for c in assignment.chosen}
    return {
        "game": assignment.game_id,
        prefix + "players": str(assignment.players),
        prefix + "bots": assignment.bots,
        **options,
        "goal": assignment.goal,
        "goal_count": str(assignment.goal_count),
        prefix + "goal_skill": assignment.goal_skill or "",
        "goal_level": assignment.goal_level or "",
        "due_date": local.date().isoformat(),
        "due_time": local.strftime("%H:%M"),
        "class_deal": "yes" if assignment.seed is not None else "",
        "target": target,
        "group": assignment.group.public_id if assignment.group else "",
        "pupils": [p.public_id for p in school_class.pupils if p.id in chosen_ids],
    }


def assignment_form(form) -> classroom.AssignmentForm:
    """The homework form as sent (its game's fields have the game's id as a prefix)."""
    game_id = form.get("game", "")
    option_specs = GAMES[game_id].option_specs if game_id in GAMES else []
    prefix = f"{game_id}-"
    return classroom.AssignmentForm(
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
        target=form.get("target", classroom.CLASS),
        group_id=form.get("group", ""),
        pupil_ids=tuple(form.getlist("pupils")),
    )


def sent_values(form) -> dict:
    return {**form.to_dict(), "pupils": form.getlist("pupils")}


@bp.route("/classes/<class_id>/homework/new", methods=["GET", "POST"])
@teacher_required
def new_homework(class_id):
    school_class = class_or_404(class_id)
    if request.method == "GET":
        values = new_homework_values(school_class, request.args)
        return render_template("teacher/homework_form.html", **homework_form_context(school_class, values))
    database = db.session()
    try:
        assignment = classroom.create_assignment(
            database, school_class, current_teacher(), assignment_form(request.form), utcnow()
        )
    except classroom.Refused as error:
        database.rollback()
        flash(refusal_message(error), "error")
        return render_template(
            "teacher/homework_form.html", **homework_form_context(class_or_404(class_id), sent_values(request.form))
        ), 400
    database.commit()
    flash(_("The homework is set."), "success")
    return redirect(url_for("dashboards.assignment", assignment_id=assignment.public_id))


@bp.route("/assignments/<assignment_id>/edit", methods=["GET", "POST"])
@teacher_required
def edit_homework(assignment_id):
    """Change a set homework: its lesson, goal, due time and pupils. The pupils see the change at once."""
    assignment = assignment_or_404(assignment_id)
    school_class = assignment.school_class
    if request.method == "GET":
        values = assignment_values(assignment)
        if request.args.get("game"):  # the form asked for another game's settings
            values["game"] = chosen_game(school_class, request.args["game"])
        return render_template("teacher/homework_form.html", **homework_form_context(school_class, values, assignment))
    database = db.session()
    try:
        classroom.update_assignment(database, assignment, assignment_form(request.form), utcnow())
    except classroom.Refused as error:
        database.rollback()
        flash(refusal_message(error), "error")
        chosen = assignment_or_404(assignment_id)
        return render_template(
            "teacher/homework_form.html",
            **homework_form_context(chosen.school_class, sent_values(request.form), chosen),
        ), 400
    database.commit()
    flash(_("The homework is changed. Its pupils see the change now."), "success")
    return redirect(url_for("dashboards.assignment", assignment_id=assignment.public_id))


@bp.post("/assignments/<assignment_id>/due")
@teacher_required
def extend_homework(assignment_id):
    """Give one pupil (chosen in the form) a later due date of their own."""
    assignment = assignment_or_404(assignment_id)
    pupil = pupil_or_404(request.form.get("pupil", ""))
    if pupil.class_id != assignment.class_id or not classroom.set_for(assignment, pupil):
        abort(404)
    database = db.session()
    try:
        classroom.extend_due(
            database, assignment, pupil, request.form.get("due_date", ""), request.form.get("due_time", ""), utcnow()
        )
    except classroom.Refused as error:
        database.rollback()
        flash(refusal_message(error), "error")
    else:
        database.commit()
        flash(_("%(name)s has a new due date for this homework.", name=pupil.name), "success")
    return redirect(url_for("dashboards.assignment", assignment_id=assignment.public_id) + f"#work-{pupil.public_id}")


@bp.post("/assignments/<assignment_id>/pupils/<pupil_id>/due/remove")
@teacher_required
def unextend_homework(assignment_id, pupil_id):
    """A pupil's due date is the homework's again."""
    assignment = assignment_or_404(assignment_id)
    pupil = pupil_or_404(pupil_id)
    if pupil.class_id != assignment.class_id:
        abort(404)
    database = db.session()
    try:
        classroom.remove_extension(database, assignment, pupil)
    except classroom.Refused:
        abort(404)
    database.commit()
    flash(_("%(name)s has the homework's due date again.", name=pupil.name), "success")
    return redirect(url_for("dashboards.assignment", assignment_id=assignment.public_id) + f"#work-{pupil.public_id}")


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


# --- groups ----------------------------------------------------------------------------------
@bp.route("/classes/<class_id>/groups", methods=["GET", "POST"])
@teacher_required
def class_groups(class_id):
    """The class's groups; a POST makes a new one."""
    school_class = class_or_404(class_id)
    database = db.session()
    values = {"name": "", "pupils": []}
    if request.method == "POST":
        values = {"name": request.form.get("name", ""), "pupils": request.form.getlist("pupils")}
        try:
            group = groups.create_group(database, school_class, values["name"], values["pupils"])
        except classroom.Refused as error:
            database.rollback()
            flash(refusal_message(error), "error")
            school_class = class_or_404(class_id)
        else:
            database.commit()
            flash(_("The group %(name)s is made.", name=group.name), "success")
            return redirect(url_for("teacher.class_groups", class_id=school_class.public_id))
    status = 400 if request.method == "POST" else 200
    return render_template(
        "teacher/groups.html",
        school_class=school_class,
        groups=groups.groups_of(database, school_class),
        pupils=class_pupils(school_class),
        values=values,
        groups_max=groups.GROUPS_MAX,
    ), status


@bp.route("/groups/<group_id>", methods=["GET", "POST"])
@teacher_required
def edit_group(group_id):
    """A group's name and pupils; its homework follows whoever is in it."""
    group = group_or_404(group_id)
    school_class = db.session().get(SchoolClass, group.class_id)
    members = {m.pupil_id for m in group.members}
    values = {"name": group.name, "pupils": [p.public_id for p in school_class.pupils if p.id in members]}
    status = 200
    if request.method == "POST":
        database = db.session()
        values = {"name": request.form.get("name", ""), "pupils": request.form.getlist("pupils")}
        try:
            groups.update_group(database, group, values["name"], values["pupils"])
        except classroom.Refused as error:
            database.rollback()
            flash(refusal_message(error), "error")
            group = group_or_404(group_id)
            school_class = database.get(SchoolClass, group.class_id)
            status = 400
        else:
            database.commit()
            flash(_("The group %(name)s is saved.", name=group.name), "success")
            return redirect(url_for("teacher.class_groups", class_id=school_class.public_id))
    return render_template(
        "teacher/group.html",
        school_class=school_class,
        group=group,
        pupils=class_pupils(school_class),
        values=values,
    ), status


@bp.post("/groups/<group_id>/delete")
@teacher_required
def delete_group(group_id):
    group = group_or_404(group_id)
    class_public_id = db.session().get(SchoolClass, group.class_id).public_id
    if request.form.get("confirm") != "yes":
        flash(_("Tick the box to confirm that the group %(name)s should be deleted.", name=group.name), "error")
        return redirect(url_for("teacher.edit_group", group_id=group.public_id))
    name = group.name
    database = db.session()
    kept = groups.delete_group(database, group)
    database.commit()
    if kept:
        flash(
            ngettext(
                "The group %(name)s is deleted. Its homework stays with the pupils who were in it.",
                "The group %(name)s is deleted. Its %(num)s homework assignments stay with the pupils who were in it.",
                kept,
                name=name,
            ),
            "success",
        )
    else:
        flash(_("The group %(name)s is deleted.", name=name), "success")
    return redirect(url_for("teacher.class_groups", class_id=class_public_id))
