"""Replay: a teacher steps through a pupil's lesson run move by move (being written)."""

from __future__ import annotations

from flask import Blueprint, abort

from tutor.web.auth import teacher_required

bp = Blueprint("replay", __name__, url_prefix="/teacher")


@bp.get("/runs/<run_id>/replay")
@teacher_required
def run(run_id):
    abort(404)
