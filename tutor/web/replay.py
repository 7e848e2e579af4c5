"""Replay: a teacher steps through a pupil's lesson run move by move.

The run is rebuilt from its stored moves on every request (see
:mod:`tutor.reports.replay`); only the frame asked for is described. A run is found
only through the class of its pupil, so another teacher's pupil, a guest's run or an
unknown id is a 404. Previous and Next are plain links; with htmx they swap only the
frame and push the address, so the back button and a reload show the same frame.
"""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request, url_for
from jinja2_fragments.flask import render_block
from sqlalchemy import select

from tutor import classroom
from tutor.lessons import LESSONS
from tutor.models import AttemptRecord
from tutor.reports.replay import frame_count, frame_of, pupil_move_indices, replay
from tutor.web import db
from tutor.web.auth import current_teacher, teacher_required
from tutor.web.htmx import wants_fragment

bp = Blueprint("replay", __name__, url_prefix="/teacher")


def whole_number(raw: str | None) -> int | None:
    try:
        return int(str(raw)[:12])
    except ValueError:
        return None


def requested_step(total: int, moves: list[dict]) -> int:
    """The frame to show, from 1 to ``total`` (anything else is clamped): the ``step`` query value, or the frame of
    an answer given after ``at`` moves (the links of the misconception report and the needs-attention panel)."""
    at = whole_number(request.args.get("at")) if "step" not in request.args else None
    if at is not None:
        step = frame_of(at, pupil_move_indices(moves))
    else:
        step = whole_number(request.args.get("step", "1")) or 1
    return min(max(step, 1), total)


@bp.get("/runs/<run_id>/replay")
@teacher_required
def run(run_id):
    database = db.session()
    record = classroom.run_for(database, current_teacher(), run_id)
    if record is None:
        abort(404)
    attempts = list(
        database.scalars(select(AttemptRecord).where(AttemptRecord.run_id == record.id).order_by(AttemptRecord.id))
    )
    step = requested_step(frame_count(record.data), record.data.get("moves", []))
    shown = replay(record.data, attempts, step)
    deck = LESSONS[record.game_id].cards()
    htmx = wants_fragment()
    context = {
        "record": record,
        "pupil": record.pupil,
        "lesson_content": LESSONS[record.game_id].content(),
        "replay": shown,
        "frame": shown.frame,
        "step": step,
        "deck": deck,
        "colours": {c.id: c for c in deck.colours},
        "nav": request.args.get("nav", ""),
        "step_url": lambda n: url_for("replay.run", run_id=record.public_id, step=n),
        "htmx": htmx,
    }
    if htmx:
        return render_block("teacher/replay.html", "frame", **context)
    return render_template("teacher/replay.html", **context)
