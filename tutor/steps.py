"""One lesson step, from the loaded run to the saved result: the write half of every lesson page.

:func:`take_step` is the only place that plays a step and keeps its books; the lesson pages
(:mod:`tutor.web.lessons`), the demo's simulated pupils (:mod:`tutor.demo`) and the benches
all call it. A step reads and computes first, with nothing written: the runner acts, the
pupil's skill model is read when the step needs it (levels for a new question, the update
of a first answer), and the homework rows are read. Then it writes in one short
transaction under the write gate (:func:`tutor.db.writing`): the run first, so that its
version check stops a second copy of the same step before anything else is written, then
the answer with its skill update, then the homework's running total. Plain SQLAlchemy, no Flask.

A saved run carries the fingerprint of the code that wrote it (:mod:`tutor.code_version`), so
:func:`read_run` trusts what this code wrote and checks everything else through.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import Enum

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from tutor import answer_counts, classroom, db, limits
from tutor.code_version import code_version
from tutor.drills.marking import Attempt
from tutor.engine import InvalidState
from tutor.lessons import LESSONS
from tutor.lessons.base import Lesson
from tutor.lessons.runner import FINISHED, LessonError, LessonRun
from tutor.models import LessonRunRecord, SkillRecord
from tutor.skill_model.progress import (
    PupilModel,
    PupilPitch,
    SharedRows,
    load_model,
    record_attempt,
    target_success,
)

#: What a step does to the run: one runner call, given the lesson, the pupil's levels (read
#: only if the call asks a question) and the clock; it returns the answer to store, if any.
#: Raising :class:`~tutor.lessons.runner.LessonError` means the step does not fit the run.
Action = Callable[[LessonRun, Lesson, Mapping[str, int], int], Attempt | None]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class Taken(Enum):
    """What became of a step."""

    SAVED = "saved"
    #: Nothing was changed: the step did not fit the run (a stale page) or another request saved this step first.
    OUT_OF_DATE = "out_of_date"
    #: Nothing was saved: the database stayed locked past its timeout; the same step may simply be tried again.
    BUSY = "busy"


@dataclass(frozen=True)
class StepOutcome:
    taken: Taken
    attempt: Attempt | None = None  # the answer stored with a saved step
    skill_record: SkillRecord | None = None  # the skill record the answer updated (a first try)


def read_run(record: LessonRunRecord) -> LessonRun:
    """The run stored in ``record``: taken as it is when this code wrote it, else checked through.

    A run written by other code (an older release, or before runs had fingerprints) may hold
    what this code refuses: it is checked as :meth:`LessonRun.from_dict` checks it. Raises
    :class:`~tutor.engine.InvalidState` for a run that cannot occur.
    """
    if record.written_by != code_version():
        return LessonRun.from_dict(record.data)
    try:
        return LessonRun.unchecked(record.data)
    except (KeyError, TypeError) as error:  # only an edit in the database itself gets here
        raise InvalidState(f"lesson run: malformed ({error!r})") from error


def save_run(database: Session, record: LessonRunRecord, **values) -> None:
    """Write ``values`` into the run's row in one UPDATE over the version it was read at; ``record`` then holds them.

    One Core statement rather than the ORM's flush, which costs more than the statement
    itself. Raises :class:`StaleDataError` when another request saved the run meanwhile.
    """
    values["version"] = record.version + 1
    table = LessonRunRecord.__table__
    with database.no_autoflush:
        saved = database.execute(
            update(table).where(table.c.id == record.id, table.c.version == record.version).values(**values)
        )
    if saved.rowcount != 1:
        raise StaleDataError("the run was saved by another request meanwhile")
    for name, value in values.items():
        set_committed_value(record, name, value)  # as saved: nothing left for the ORM to write


def moment(now_ms: int) -> datetime:
    """The UTC time of a clock reading in Unix milliseconds, exactly."""
    return _EPOCH + timedelta(milliseconds=now_ms)


class PupilModelOnDemand:
    """The pupil's skill model, read at most once a step and only when needed: most steps ask nothing."""

    def __init__(self, database: Session, record: LessonRunRecord, shared_rows: SharedRows | None) -> None:
        self.database, self.record, self.shared_rows = database, record, shared_rows
        self.model: PupilModel | None = None

    def get(self) -> PupilModel:
        if self.model is None:
            self.model = load_model(self.database, self.record.pupil_id, self.shared_rows)
        return self.model

    def target(self) -> float:
        """The success the pupil's questions are aimed at: their class's setting."""
        return target_success(self.record.pupil)


def take_step(
    database: Session,
    record: LessonRunRecord,
    run: LessonRun,
    action: Action,
    now_ms: int,
    shared_rows: SharedRows | None = None,
) -> StepOutcome:
    """Play ``action`` on ``run`` (loaded from ``record``) at ``now_ms`` and save the step with everything it changed.

    Saved, the run's step count has moved on and ``record`` holds the run; out of date or
    busy, nothing is written and ``run`` must not be shown (read the stored one again).
    ``shared_rows``: the process's cache of the rows every pupil shares (None: read them
    now). Raises :class:`tutor.limits.Exceeded`, with nothing written, when the run has
    taken more steps in a minute than a child can.
    """
    pupil_model = PupilModelOnDemand(database, record, shared_rows)
    with database.no_autoflush:  # reading and computing: nothing is written before the write gate
        try:
            attempt = action(run, LESSONS[run.game_id], PupilPitch(pupil_model.get, pupil_model.target), now_ms)
        except LessonError:
            database.rollback()
            return StepOutcome(Taken.OUT_OF_DATE)
        if attempt is not None:
            answer_counts.read_class(database, record.pupil_id)  # the answer is counted in the class's day
            if attempt.first_try:
                pupil_model.get()  # the skill update needs the model
        classroom.read_for_step(database, record)
    run.step += 1
    data, now = run.to_dict(), moment(now_ms)
    try:
        with db.writing(database):
            limits.count_step(record, now_ms / 1000)
            finished = run.stage == FINISHED and record.finished_at is None
            # The run first: its version check stops a second copy of this step before it writes anything else.
            save_run(
                database,
                record,
                data=data,
                stage=run.stage,
                updated_at=now,
                finished_at=now if finished else record.finished_at,
                written_by=code_version(),  # it read the run checked (or trusted) and changed it itself
                steps_window_start=record.steps_window_start,
                steps_in_window=record.steps_in_window,
            )
            skill_record = None
            if attempt is not None:
                skill_record = record_attempt(
                    database, record.pupil_id, record.id, attempt, at=now, model=pupil_model.model
                )[1]
            classroom.note_step(
                database,
                record,
                now,
                first_try_right=attempt.correct if attempt is not None and attempt.first_try else None,
                finished=finished,
                skill_record=skill_record,
            )
    except (StaleDataError, IntegrityError):
        # The same step (or the pupil's first answer in a skill) was saved meanwhile by another request.
        database.rollback()
        return StepOutcome(Taken.OUT_OF_DATE)
    except db.Busy:
        return StepOutcome(Taken.BUSY)
    except OperationalError as error:
        database.rollback()
        if not db.is_locked(error):
            raise
        return StepOutcome(Taken.BUSY)
    return StepOutcome(Taken.SAVED, attempt, skill_record)
