"""The lesson pages: choose options, then play; every step is saved before it is shown.

Each POST loads the run from the database, asks the pure lesson runner to act, saves
the run and answers with the lesson fragment (htmx) or a redirect (plain forms).
"""

from __future__ import annotations

import secrets
import time

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from jinja2_fragments.flask import render_block
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

from tutor import classroom, content, db, limits
from tutor.answers import AnswerError
from tutor.drills import Text
from tutor.engine import GAMES, InvalidOptions, InvalidState
from tutor.i18n import current_locale, say
from tutor.lessons import LESSONS
from tutor.lessons.base import MoveRefused
from tutor.lessons.runner import FINISHED, LessonError, LessonRun
from tutor.models import LessonRunRecord, utcnow
from tutor.progress import LazyLevels, levels_for, load_model, record_attempt, target_success
from tutor.web.auth import current_pupil, pupil_required
from tutor.web.errors import error_page
from tutor.web.htmx import wants_fragment
from tutor.web.lesson_view import lesson_context

bp = Blueprint("lessons", __name__)


def now_ms() -> int:
    return int(time.time() * 1000)


def lesson_or_404(game_id: str):
    """The lesson, if the signed-in pupil may start it (Casino War only where switched on); else 404."""
    lesson = LESSONS.get(game_id)
    if lesson is None or not classroom.lesson_open(
        game_id, current_pupil().school_class, current_app.config["CASINO_WAR_FOR_GUESTS"]
    ):
        abort(404)
    return lesson


@bp.get("/lessons/<game_id>")
@pupil_required
def start_page(game_id):
    lesson = lesson_or_404(game_id)
    game = GAMES[game_id]
    defaults = {spec.key: lesson.lesson_options.get(spec.key, spec.default) for spec in game.option_specs}
    return render_template("lesson_start.html", game=game, lesson=lesson, info=lesson.content(), defaults=defaults)


@bp.post("/lessons/<game_id>/start")
@pupil_required
def start(game_id):
    lesson = lesson_or_404(game_id)
    game = GAMES[game_id]
    form = request.form
    strength = form.get("strength", "beginner")
    try:
        players = int(form.get("players", "2"))
        options = {spec.key: form[spec.key] for spec in game.option_specs if spec.key in form}
        if strength not in game.bots:
            raise InvalidOptions(strength)
        run = LessonRun.start(lesson, players, options, [strength], secrets.randbits(48), now_ms())
    except (InvalidOptions, ValueError):
        flash(_("Those settings do not work for this game. Please check them."), "error")
        return redirect(url_for("lessons.start_page", game_id=game_id))
    return redirect(url_for("lessons.play", run_id=save_new_run(run).public_id))


def save_new_run(run: LessonRun, assignment_id: int | None = None) -> LessonRunRecord:
    record = LessonRunRecord(
        pupil_id=current_pupil().id,
        assignment_id=assignment_id,
        game_id=run.game_id,
        seed=run.seed,
        stage=run.stage,
        data=run.to_dict(),
    )
    database = db.session()
    limits.check(database, limits.LESSON_STARTS, record.pupil_id, time.time())
    database.add(record)
    database.commit()
    return record


@bp.post("/homework/<assignment_id>/start")
@pupil_required
def start_homework(assignment_id):
    """Start (or go back to) the lesson a teacher assigned, with the class deal when there is one."""
    pupil = current_pupil()
    assignment = classroom.assignment_of_pupil(db.session(), pupil, assignment_id)
    if assignment is None:
        abort(404)
    unfinished = db.session().scalar(
        select(LessonRunRecord).where(
            LessonRunRecord.pupil_id == pupil.id,
            LessonRunRecord.assignment_id == assignment.id,
            LessonRunRecord.finished_at.is_(None),
        )
    )
    if unfinished is not None:
        return redirect(url_for("lessons.play", run_id=unfinished.public_id))
    lesson = LESSONS[assignment.game_id]
    seed = assignment.seed if assignment.seed is not None else secrets.randbits(48)
    run = LessonRun.start(lesson, assignment.players, assignment.options, [assignment.bots], seed, now_ms())
    record = save_new_run(run, assignment.id)
    classroom.note_step(db.session(), record, utcnow())
    db.session().commit()
    return redirect(url_for("lessons.play", run_id=record.public_id))


def load(run_id: str) -> tuple[LessonRunRecord, LessonRun]:
    """The signed-in pupil's run with this public id (404 for anyone else's)."""
    record = db.session().scalar(
        select(LessonRunRecord).where(
            LessonRunRecord.public_id == str(run_id), LessonRunRecord.pupil_id == current_pupil().id
        )
    )
    if record is None:
        abort(404)
    try:
        return record, LessonRun.from_dict(record.data)
    except InvalidState:  # a stored run that cannot be played on (a bug or a bad edit): say so, never a 500
        current_app.logger.error(
            "lesson run %s could not be read back", record.id
        )  # the row id only: no names, no answers
        abort(make_response(*error_page(500, "broken_run")))


def render_lesson(record: LessonRunRecord, run: LessonRun, block: str | None = None):
    context = lesson_context(run, current_pupil().name, now_ms(), session.pop("typed_move", ""))
    if block:
        return render_block("lesson.html", block, record=record, **context)
    return render_template("lesson.html", record=record, **context)


@bp.get("/runs/<run_id>")
@pupil_required
def play(run_id):
    record, run = load(run_id)
    if wants_fragment():
        return render_lesson(record, run, "lesson")
    return render_lesson(record, run)


def out_of_date(run_id: str):
    """The page the pupil acted on was out of date (another tab, a double click): nothing was changed.

    Answers 409 with the lesson as it is now, which htmx swaps in like any step.
    """
    flash(_("This page was out of date, so nothing was changed. Here is where the lesson is now."), "info")
    record, run = load(run_id)
    if wants_fragment():
        return render_lesson(record, run, "lesson"), 409
    return render_lesson(record, run), 409


#: Seconds a pupil's browser is asked to wait before trying a step again when the database is busy.
BUSY_RETRY_SECONDS = 2


def busy():
    """The database stayed busy past its timeout: nothing was saved, so the pupil may simply try again."""
    response = make_response(*error_page(503))
    response.headers["Retry-After"] = str(BUSY_RETRY_SECONDS)
    return response


def lesson_action(action):
    """Run ``action(run, lesson, levels, now)``, store any answer it returns, save the run, show the result.

    Every lesson form carries the step it was drawn at (``run.step``); a form from another
    step is refused before anything happens, so an answer cannot land on a later question
    and a double submit counts once. A form without a step (a page from before steps
    existed) is judged by the runner alone. Two requests for the same step at once: the
    run's version column lets only the first save, the other is refused the same way.
    """

    def handler(run_id):
        record, run = load(run_id)
        posted = request.form.get("step")
        if posted is not None and posted != str(run.step):
            return out_of_date(run_id)
        lesson = LESSONS[run.game_id]
        database = db.session()
        model = None

        def levels():
            nonlocal model
            model = load_model(database, record.pupil_id, current_app.extensions["shared_rows"])
            return levels_for(model, target_success(record.pupil))

        with database.no_autoflush:  # reading and computing: nothing is written before the write gate
            lazy_levels = LazyLevels(levels)
            try:
                attempt = action(run, lesson, lazy_levels, now_ms())
            except LessonError:
                database.rollback()
                return out_of_date(run_id)
            if attempt is not None and attempt.first_try and model is None:
                lazy_levels.get(attempt.skill)  # the skill update needs the model
            classroom.read_for_step(database, record)
        run.step += 1
        data, now = run.to_dict(), utcnow()
        try:
            with db.writing(database):
                limits.count_step(record, time.time())
                record.data, record.stage = data, run.stage
                finished = run.stage == FINISHED and record.finished_at is None
                if finished:
                    record.finished_at = now
                database.flush()  # the run first: its version check stops a second copy of this step before it writes anything else
                first_try_right, skill_record = None, None
                if attempt is not None:
                    skill_record = record_attempt(database, record.pupil_id, record.id, attempt, model=model)[1]
                    first_try_right = attempt.correct if attempt.first_try else None
                classroom.note_step(
                    database, record, now, first_try_right=first_try_right, finished=finished, skill_record=skill_record
                )
        except (
            StaleDataError,
            IntegrityError,
        ):  # the same step (or the pupil's first answer in a skill) was saved by another request meanwhile
            database.rollback()
            return out_of_date(run_id)
        except db.Busy:
            return busy()
        except OperationalError as error:
            database.rollback()
            if not db.is_locked(error):
                raise
            return busy()
        if wants_fragment():
            return render_lesson(record, run, "lesson")
        return redirect(url_for("lessons.play", run_id=run_id))

    handler.__name__ = action.__name__
    return bp.post(f"/runs/<run_id>/{action.__name__.replace('_', '-')}")(pupil_required(handler))


@lesson_action
def next_step(run, lesson, levels, now):
    run.next_intro(lesson, levels, now)


@lesson_action
def skip_intro(run, lesson, levels, now):
    run.skip_intro(lesson, levels, now)


@lesson_action
def move(run, lesson, levels, now):
    return run.move(request.form.get("move", ""), lesson, levels, now)


@lesson_action
def pick(run, lesson, levels, now):
    try:
        card_id = int(request.form.get("card", "")[:6])
    except ValueError:
        raise LessonError("not a card") from None
    run.pick(card_id, lesson)


@lesson_action
def play_picked(run, lesson, levels, now):
    return run.play_picked(lesson, levels, now)


@lesson_action
def show_playable(run, lesson, levels, now):
    run.show_what_I_can_play()


@lesson_action
def typed_move(run, lesson, levels, now):
    try:
        attempt = run.typed_move(request.form.get("expression", ""), current_locale(), lesson, levels, now)
    except (AnswerError, MoveRefused) as error:
        flash(say(Text(error.msgid, error.params)), "error")
        session["typed_move"] = request.form.get("expression", "")[:200]
        return None
    # the rules refused it (told in the coach box): keep the text to correct
    if run.turn.told and not run.turn.told["correct"]:
        session["typed_move"] = request.form.get("expression", "")[:200]
    return attempt


@lesson_action
def hourglass(run, lesson, levels, now):
    run.hourglass_ran_out(lesson, levels, now)


@lesson_action
def answer(run, lesson, levels, now):
    return run.answer(request.form.get("answer", ""), current_locale(), now)


@lesson_action
def hint(run, lesson, levels, now):
    run.hint()


@lesson_action
def solution(run, lesson, levels, now):
    run.show_solution()


@lesson_action
def go_on(run, lesson, levels, now):
    run.close_question(lesson, levels, now)


@bp.get("/games/<game_id>/rules")
def rules(game_id):
    if game_id not in GAMES:
        abort(404)
    return render_template("rules.html", info=content.load(f"games/{game_id}"), game=GAMES[game_id])
