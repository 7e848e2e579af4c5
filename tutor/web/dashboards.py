"""The teacher's dashboards: class grid, assignment view, pupil page, misconceptions, CSV.

Thin: every query and computation is in :mod:`tutor.reports`; the routes look the public id
up through the signed-in teacher (another teacher's ids are a 404), call it and render.

The pages refresh themselves while open: their live part polls its own URL every
:data:`REFRESH_SECONDS` with htmx, and a request with ``HX-Request`` (not boosted, not a
history restore) gets only that block (jinja2_fragments), as the lesson page does.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from babel.dates import format_date, format_datetime, format_skeleton, format_time
from flask import Blueprint, Response, abort, make_response, render_template, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from jinja2_fragments.flask import render_block

from tutor import accounts, classroom, homework_status, reports
from tutor.drills.marking import refusal_description
from tutor.models import utcnow
from tutor.skill_model import skills
from tutor.web import db
from tutor.web.auth import teacher_required
from tutor.web.htmx import wants_fragment
from tutor.web.i18n import current_locale, format_locale, say
from tutor.web.present import LEVEL_NAMES, skill_name, timezone_label
from tutor.web.teacher import assignment_or_404, class_or_404, pupil_or_404

bp = Blueprint("dashboards", __name__, url_prefix="/teacher")

REFRESH_SECONDS = 30

#: How the class grid can be sorted (a skill id sorts by that skill, weakest first).
#: The two orders besides a skill's: the label of the link and the whole sentence that says which is in use.
SORT_NAMES = {
    reports.SORT_HELP: lazy_gettext("needs help first"),
    reports.SORT_NAME: lazy_gettext("name"),
}
SORTED_BY = {
    reports.SORT_HELP: lazy_gettext("Pupils who need help come first."),
    reports.SORT_NAME: lazy_gettext("Pupils are in order of name."),
}

#: The level thresholds, for the key under the grid (docs/skill-model.md explains them).
THRESHOLDS = {
    "familiar": skills.FAMILIAR_FROM,
    "proficient": skills.PROFICIENT_FROM,
    "mastered": skills.DEFAULT_PARAMS.mastery,
    "help_after": skills.NEEDS_HELP_AFTER,
    "help_below": skills.NEEDS_HELP_BELOW,
}


# --- helpers for the templates --------------------------------------------------------------
def format_moment(moment: datetime | None, timezone_name: str) -> str:
    """A stored UTC time in the class's time zone, short (date and time) in the reader's language."""
    if moment is None:
        return ""
    return format_datetime(
        accounts.as_utc(moment), "short", tzinfo=classroom.zone(timezone_name), locale=format_locale()
    )


def format_day(day, long: bool = False) -> str:
    """A day as the reader's language writes it: "17 Nov" (or "Mon 17 Nov" when long)."""
    return format_skeleton("MMMEd" if long else "MMMd", day, locale=format_locale())


def format_last_active(moment: datetime, timezone_name: str, now: datetime) -> str:
    """When a pupil last played, short enough for a grid column: the time today, else the day ("17 Nov")."""
    zone = classroom.zone(timezone_name)
    local = accounts.as_utc(moment).astimezone(zone)
    if local.date() == accounts.as_utc(now).astimezone(zone).date():
        return format_time(local, "short", locale=format_locale())
    return format_day(local.date())


def format_week_day(day) -> str:
    return format_date(day, "medium", locale=format_locale())


def format_minutes(time_ms: int) -> str:
    minutes = round((time_ms or 0) / 60000)
    if minutes >= 60:
        return _("%(hours)s h %(minutes)s min", hours=minutes // 60, minutes=minutes % 60)
    return _("%(minutes)s min", minutes=minutes)


@bp.record_once
def _template_helpers(state) -> None:
    state.app.jinja_env.globals.update(
        refusal_description=refusal_description,
        format_moment=format_moment,
        format_day=format_day,
        format_last_active=format_last_active,
        kind_name=reports.kind_name,
        format_minutes=format_minutes,
        REFRESH_SECONDS=REFRESH_SECONDS,
    )


def page(template: str, blocks: str | tuple[str, ...], **context) -> Response:
    """The whole page, or only a live block for an htmx request (a refresh or a sort link).

    A page with several live blocks sends the one htmx targets (its ``HX-Target`` is the
    block's element id, which is the block's name); the first one otherwise.
    """
    names = (blocks,) if isinstance(blocks, str) else blocks
    if wants_fragment():
        target = request.headers.get("HX-Target")
        body = render_block(template, target if target in names else names[0], **context)
    else:
        body = render_template(template, **context)
    response = make_response(body)
    response.vary.add("HX-Request")
    response.headers["Cache-Control"] = "no-store"
    return response


def csv_response(rows: list[list], *name_parts: str) -> Response:
    """A CSV download in the teacher's language: UTF-8 with BOM, ``;`` or ``,`` as :mod:`tutor.reports` explains."""
    body = reports.to_csv(rows, reports.csv_delimiter(current_locale()))
    response = Response(body.encode("utf-8"), content_type="text/csv; charset=utf-8; header=present")
    response.headers["Content-Disposition"] = f'attachment; filename="{reports.safe_filename(*name_parts)}"'
    response.headers["Cache-Control"] = "no-store"
    return response


def local_today(timezone_name: str) -> str:
    return utcnow().astimezone(classroom.zone(timezone_name)).date().isoformat()


# --- class grid -----------------------------------------------------------------------------
GRID_BLOCKS = ("grid", "attention")


@bp.get("/classes/<class_id>")
@teacher_required
def class_grid(class_id):
    """The class page: the needs-attention panel and the grid of pupils by skills, each refreshing itself."""
    school_class = class_or_404(class_id)
    database = db.session()
    now = utcnow()
    grid = reports.class_grid(database, school_class, request.args.get("sort"), now=now, practised_only=True)
    only = request.headers.get("HX-Target") if wants_fragment() else None
    panel = None
    if only != "grid":
        active = {row.pupil.id: row.last_active for row in grid.rows if row.last_active}
        homework = {row.pupil.id: row.homework for row in grid.rows}
        panel = reports.attention_panel(database, school_class, now, active, homework)
    return page(
        "teacher/class_grid.html",
        GRID_BLOCKS,
        school_class=school_class,
        grid=grid,
        panel=panel,
        sort_names=SORT_NAMES,
        sorted_by=SORTED_BY,
        thresholds=THRESHOLDS,
        level_words={key: str(word) for key, word in LEVEL_NAMES.items()},
        now=now,
    )


@bp.get("/classes/<class_id>/grid.csv")
@teacher_required
def class_grid_csv(class_id):
    school_class = class_or_404(class_id)
    grid = reports.class_grid(db.session(), school_class, request.args.get("sort"), now=utcnow())
    zone = classroom.zone(school_class.timezone)
    rows = reports.grid_table(grid, say, skill_name, lambda at: at.astimezone(zone).strftime("%Y-%m-%d %H:%M"))
    return csv_response(rows, "kortmatte", school_class.code, "progress", local_today(school_class.timezone))


# --- misconceptions -------------------------------------------------------------------------
@bp.get("/classes/<class_id>/misconceptions")
@teacher_required
def misconceptions(class_id):
    school_class = class_or_404(class_id)
    now = utcnow()
    report = reports.misconception_report(db.session(), school_class, request.args.get("week"), now)
    current = reports.week_label(*reports.week_of(now, school_class.timezone))
    return page(
        "teacher/misconceptions.html",
        "report",
        school_class=school_class,
        report=report,
        current_week=current,
        live=report.label == current,
        format_week_day=format_week_day,
        asked_week=request.args.get("week", "")[:20],
        opened=set(request.args.getlist("open")),  # rows shown whole (the refresh keeps those the teacher opened)
    )


@bp.get("/classes/<class_id>/misconceptions/<skill>/<kind>/<misconception>")
@teacher_required
def misconception(class_id, skill, kind, misconception):
    """Every pupil who showed one misconception in a week: its own page, or for htmx the list that replaces the
    report's first few names in its row."""
    school_class = class_or_404(class_id)
    found = reports.misconception_page(
        db.session(), school_class, request.args.get("week"), (skill, kind, misconception), utcnow()
    )
    if found is None:
        abort(404)
    return page(
        "teacher/misconception.html",
        "seen",
        school_class=school_class,
        found=found,
        format_week_day=format_week_day,
        fragment=wants_fragment(),
    )


# --- assignment view ------------------------------------------------------------------------
@bp.get("/assignments/<assignment_id>")
@teacher_required
def assignment(assignment_id):
    chosen = assignment_or_404(assignment_id)
    report = reports.assignment_report(db.session(), chosen, utcnow())
    return page(
        "teacher/assignment.html",
        "work",
        assignment=chosen,
        school_class=chosen.school_class,
        report=report,
        needs_help_questions=homework_status.NEEDS_HELP_QUESTIONS,
        **extension_defaults(chosen),
    )


def extension_defaults(assignment) -> dict:
    """The later-date form's first values: three days after the due date (or after today, once it has passed)."""
    timezone_name = assignment.school_class.timezone
    zone = classroom.zone(timezone_name)
    due = accounts.as_utc(assignment.due_at).astimezone(zone)
    later = max(due, utcnow().astimezone(zone)) + timedelta(days=3)
    return {
        "extend_date": later.date().isoformat(),
        "extend_time": due.strftime("%H:%M"),
        "zone_name": timezone_label(timezone_name),
    }


@bp.get("/assignments/<assignment_id>/export.csv")
@teacher_required
def assignment_csv(assignment_id):
    chosen = assignment_or_404(assignment_id)
    report = reports.assignment_report(db.session(), chosen, utcnow())
    school_class = chosen.school_class
    due = accounts.as_utc(chosen.due_at).astimezone(classroom.zone(school_class.timezone)).date().isoformat()
    return csv_response(
        reports.assignment_table(report, _), "kortmatte", school_class.code, "homework", chosen.game_id, due
    )


# --- pupil page -----------------------------------------------------------------------------
@bp.get("/pupils/<pupil_id>")
@teacher_required
def pupil(pupil_id):
    chosen = pupil_or_404(pupil_id)
    school_class = chosen.school_class
    database = db.session()
    now = utcnow()
    history = reports.skill_history(database, chosen.id, school_class.timezone, now)
    runs, run_count = reports.lesson_runs(database, chosen.id)
    return page(
        "teacher/pupil.html",
        ("levels", "activity"),
        chosen=chosen,
        school_class=school_class,
        levels=reports.pupil_skills(database, chosen.id),
        history=history,
        chart=reports.chart(history),
        answers=reports.recent_answers(database, chosen.id),
        weeks=reports.HISTORY_WEEKS,
        runs=runs,
        run_count=run_count,
        homework=reports.pupil_homework(database, chosen, now),
        now=now,
    )
