"""The teacher's dashboards: class grid, assignment view, pupil page, misconceptions, CSV.

(Being written: the routes below render the pages the class tabs link to.)
"""

from __future__ import annotations

from flask import Blueprint, render_template

from tutor.web.auth import teacher_required
from tutor.web.teacher import assignment_or_404, class_or_404, pupil_or_404

bp = Blueprint("dashboards", __name__, url_prefix="/teacher")


@bp.get("/classes/<class_id>")
@teacher_required
def class_grid(class_id):
    return render_template("teacher/class_grid.html", school_class=class_or_404(class_id))


@bp.get("/classes/<class_id>/misconceptions")
@teacher_required
def misconceptions(class_id):
    return render_template("teacher/misconceptions.html", school_class=class_or_404(class_id))


@bp.get("/assignments/<assignment_id>")
@teacher_required
def assignment(assignment_id):
    return render_template("teacher/assignment.html", assignment=assignment_or_404(assignment_id))


@bp.get("/pupils/<pupil_id>")
@teacher_required
def pupil(pupil_id):
    return render_template("teacher/pupil.html", chosen=pupil_or_404(pupil_id))
