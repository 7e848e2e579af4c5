"""The lesson pages: choose options, then play; every step is saved before it is shown.

Each POST loads the pupil's run, checks the step its form was drawn at, takes the step
with :func:`tutor.steps.take_step` (the runner acts, the step is saved with its answer,
skill update and homework count) and answers with the lesson fragment (htmx) or a
redirect (plain forms); 409 when the page was out of date, 503 when the database was busy.
"""

from __future__ import annotations

import secrets
import time

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    g,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from jinja2_fragments.flask import render_block
from markupsafe import Markup
from sqlalchemy import select

from tutor import classroom, content, limits, steps
from tutor.answers import AnswerError
from tutor.code_version import code_version
from tutor.deck import kids2
from tutor.engine import GAMES, InvalidOptions, InvalidState
from tutor.lessons import LESSONS
from tutor.lessons.base import MoveRefused
from tutor.lessons.runner import FINISHED, LessonError, LessonRun
from tutor.models import Assignment, LessonRunRecord, Pupil, utcnow
from tutor.web import db
from tutor.web.auth import current_pupil, pupil_required
from tutor.web.errors import error_page
from tutor.web.htmx import wants_fragment
from tutor.web.i18n import current_locale, say
from tutor.web.lesson_view import changed_parts, lesson_context, shown_parts

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
        if players not in lesson.player_choices(game):  # the game may take more than its lesson offers (Gnav)
            raise InvalidOptions(players)
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
        written_by=code_version(),  # started by this code: read back unchecked
    )
    database = db.session()
    limits.check(database, limits.LESSON_STARTS, record.pupil_id, time.time())
    database.add(record)
    database.commit()
    return record


@bp.post("/homework/<assignment_id>/start")
@pupil_required
def start_homework(assignment_id):
    """Go back to the homework's unfinished game, or start the pupil's next one.

    The home page's homework button and a finished homework game's "Play again" post here, also after the
    due date (late work counts) and once the goal is reached. The next game has the class deal's next
    seed (:func:`tutor.classroom.next_homework_seed`), the same for every pupil's game of that number,
    or without a class deal a fresh random one.
    """
    pupil = current_pupil()
    assignment = classroom.assignment_of_pupil(db.session(), pupil, assignment_id)
    if assignment is None:
        abort(404)
    return open_homework(pupil, assignment)


def open_homework(pupil: Pupil, assignment: Assignment):
    """The pupil's unfinished game of the homework, or their next one started (also for a platform's link)."""
    unfinished = classroom.unfinished_run(db.session(), assignment, pupil)
    if unfinished is not None:
        return redirect(url_for("lessons.play", run_id=unfinished.public_id))
    lesson = LESSONS[assignment.game_id]
    seed = classroom.next_homework_seed(db.session(), assignment, pupil)
    if seed is None:
        seed = secrets.randbits(48)
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
        return record, steps.read_run(record)
    except InvalidState:  # a stored run that cannot be played on (a bug or a bad edit): say so, never a 500
        current_app.logger.error(
            "lesson run %s could not be read back", record.id
        )  # the row id only: no names, no answers
        abort(make_response(*error_page(500, "broken_run")))


def finished_homework(record: LessonRunRecord, run: LessonRun) -> dict | None:
    """What "Play again" continues on a finished homework game: its assignment and whether it is done.

    None for any other game, and once the assignment is no longer set for the pupil (deleted).
    """
    if run.stage != FINISHED:
        return None
    pupil = current_pupil()
    assignment = classroom.homework_of_run(db.session(), pupil, record)
    if assignment is None:
        return None
    return {"assignment": assignment, "done": classroom.homework_state(db.session(), assignment, pupil, utcnow()).done}


def render_lesson(record: LessonRunRecord, run: LessonRun, block: str | None = None, shown: str = ""):
    """The lesson page, or its ``block`` for htmx; a step from a page that showed ``shown`` sends only what changed.

    The parts of the lesson the page already shows as they are now are left out: the others come as htmx
    out-of-band swaps (each part by its id) and the lesson itself is not swapped, so the page ends up exactly as
    if the whole lesson had been sent. A page that says nothing (no script, another tab) gets the whole of it.
    """
    typed_move = g.pop("typed_move", "") or session.pop("typed_move", "")
    context = lesson_context(run, current_pupil().name, now_ms(), typed_move, g.pop("unread_answer", ""))
    context["homework"] = finished_homework(record, run)
    school_class = current_pupil().school_class  # a guest's lessons stay silent until a speaker is pressed
    context["read_aloud"] = bool(school_class and school_class.read_aloud_on)
    context["shown"] = shown_parts(context, current_locale())
    changed = changed_parts(shown, context["shown"]) if block and shown else None
    if changed is not None:
        return render_parts(record, context, changed)
    if block:
        return render_block("lesson.html", block, record=record, **context)
    return render_template("lesson.html", record=record, **context)


def render_parts(record: LessonRunRecord, context: dict, changed: list[str]):
    """The parts in ``changed``, with the flash messages and what the page now shows, each swapped in by its id."""
    blocks = ["lesson_shown", "lesson_flashes"] + [f"lesson_{part}" for part in changed]
    app = current_app
    template = app.jinja_env.get_template("lesson.html")
    values = {"record": record, "oob": True, **context}
    app.update_template_context(values)
    page = template.new_context(values)  # one context for every part (each block only reads it)
    response = make_response("".join(app.jinja_env.concat(template.blocks[name](page)) for name in blocks))
    response.headers["HX-Reswap"] = "none"  # the lesson itself stays: only the parts above are swapped
    return response


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


def lesson_action(action: steps.Action):
    """A lesson POST: one step with ``action(run, lesson, levels, now)`` (:func:`~tutor.steps.take_step`), shown.

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
        outcome = steps.take_step(db.session(), record, run, action, now_ms(), current_app.extensions["shared_rows"])
        if outcome.taken is steps.Taken.OUT_OF_DATE:
            return out_of_date(run_id)
        if outcome.taken is steps.Taken.BUSY:
            return busy()
        if wants_fragment():
            return render_lesson(record, run, "lesson", request.form.get("shown", ""))
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
        flash(say(error.text), "error")
        # unreadable, so it may be any free text: back into the box in this response only, never into the cookie
        g.typed_move = request.form.get("expression", "")[:200]
        return None
    # the rules refused it (told in the coach box): keep the text to correct, also over a redirect without
    # JavaScript; it was read as a calculation, so it holds only numbers and signs
    if run.turn.told and not run.turn.told["correct"]:
        session["typed_move"] = request.form.get("expression", "")[:200]
    return attempt


@lesson_action
def hourglass(run, lesson, levels, now):
    run.hourglass_ran_out(lesson, levels, now)


@lesson_action
def answer(run, lesson, levels, now):
    attempt = run.answer(request.form.get("answer", ""), current_locale(), now)
    if not attempt.readable:  # back into the box to correct, in this response only: the run keeps its code alone
        g.unread_answer = request.form.get("answer", "")[:200]
    return attempt


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
    info = content.load(f"games/{game_id}")
    # Kids2 cards print the game's name; standard cards print none, so only a Kids2 game's page gives it
    printed_name = (
        Markup('<span lang="en">{}</span>').format(info["name"])
        if game_id in LESSONS and LESSONS[game_id].cards() is kids2()
        else None
    )
    return render_template("rules.html", info=info, game=GAMES[game_id], printed_name=printed_name)
