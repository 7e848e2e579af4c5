"""Words and dates for pages that pupils and teachers both read: goals, levels, statuses, due times."""

from __future__ import annotations

from datetime import datetime

from babel import Locale
from babel.core import get_global
from babel.dates import format_date, format_time, get_datetime_format, get_timezone_location
from babel.numbers import format_percent
from flask_babel import gettext as _
from flask_babel import lazy_gettext, lazy_pgettext, ngettext

from tutor import accounts, classroom, content
from tutor.models import Assignment
from tutor.skill_model import skills
from tutor.web.i18n import format_locale, say

#: The skill model's level words (one scale per school system), the same on every page, goal and export.
LEVEL_NAMES = {level: lazy_pgettext(*marked) for level, marked in skills.LEVEL_WORDS.items()}

STATUS_NAMES = {
    "not_started": lazy_gettext("not started"),
    "in_progress": lazy_gettext("in progress"),
    "needs_help": lazy_gettext("needs help"),
    "done": lazy_gettext("done"),
    "late": lazy_gettext("late"),
}


def game_info(game_id: str) -> dict:
    return content.load(f"games/{game_id}")


def skill_name(skill_id: str) -> str:
    info = content.load("skills").get(skill_id)
    return say(info["name"]) if info else skill_id


def goal_text(assignment: Assignment) -> str:
    """The goal as one sentence, such as "Finish 2 games." or "Reach the level “proficient” in Tens friends."."""
    if assignment.goal == "games":
        return ngettext("Finish %(num)s game.", "Finish %(num)s games.", assignment.goal_count)
    if assignment.goal == "questions":
        return ngettext("Answer %(num)s question.", "Answer %(num)s questions.", assignment.goal_count)
    return _(
        "Reach the level “%(level)s” in %(skill)s.",
        level=LEVEL_NAMES[assignment.goal_level],
        skill=skill_name(assignment.goal_skill),
    )


def format_due(moment: datetime, timezone_name: str) -> str:
    """A stored UTC time in the class's time zone, as the reader's language writes a weekday, date and time."""
    locale = format_locale()
    local = accounts.as_utc(moment).astimezone(classroom.zone(timezone_name))
    day = format_date(local, format="full", locale=locale)
    clock = format_time(local, format="short", locale=locale)
    return get_datetime_format("medium", locale=locale).format(clock, day)


def timezone_label(zone: str, locale: str | None = None) -> str:
    """A time zone as the reader's language names it: "Oslo (Norge)", "Roma (Italia)"."""
    locale = locale or format_locale()
    city = get_timezone_location(zone, locale=locale, return_city=True)
    territory = get_global("zone_territories").get(zone)
    country = Locale.parse(locale).territories.get(territory) if territory else None
    return f"{city} ({country})" if country and country != city else city


def percent(value: float | None) -> str:
    """A share as the reader's language writes a whole percentage ("25%" in English and Italian, "25 %" in
    Norwegian and Swedish); "–" for none."""
    return "–" if value is None else format_percent(value, locale=format_locale())


def init_app(app) -> None:
    app.jinja_env.filters["utc"] = accounts.as_utc
    app.jinja_env.globals.update(
        item_info=game_info,
        goal_text=goal_text,
        format_due=format_due,
        percent=percent,
        zone_label=timezone_label,
        skill_name=skill_name,
        LEVEL_NAMES=LEVEL_NAMES,
        STATUS_NAMES=STATUS_NAMES,
        picture_names=content.load("pictures")["labels"],  # picture id -> English name, for alt text
        show_code=accounts.show_code,
    )
