"""Rate limits shared by every worker and app server: counts per key and time window, in the database.

A fixed window per key (for example "start:" + a pupil's id): one upsert counts a use and
returns the count so far in the window, so a limit costs one statement and no lock held
across requests. Lesson steps are counted on the run's own row instead
(:func:`count_step`): the run is written on every step anyway, so that limit costs no
statement at all. Over the limit, the caller answers 429 with the seconds until the window
ends. Flask-Limiter would need Redis or memcached for a store that several servers share;
the database is already shared.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import case, delete, select, update
from sqlalchemy.orm import Session

from tutor.models import RateLimit, upsert


@dataclass(frozen=True)
class Limit:
    name: str
    hits: int  # allowed in one window
    seconds: int  # the window


#: Guests made from one address: a whole school (or a district's network) behind one address signs in together,
#: so the address alone lets many through; what one browser makes is bounded by the next limit.
GUESTS = Limit("guest", 600, 600)
#: Guests made in one browser that brings its device cookie (a class's shared tablet: a pupil after a pupil).
GUESTS_PER_DEVICE = Limit("guest-device", 20, 600)
#: Lessons a pupil starts.
LESSON_STARTS = Limit("start", 30, 600)
#: Lesson steps (answers, moves, hints, going on) in one lesson: far above a child's pace.
#: A pupil's lessons together are bounded by this times the lessons started (LESSON_STARTS).
LESSON_STEPS = Limit("step", 120, 60)

# Guessing a pupil's pictures or PIN (docs/teachers.md works out what they allow). Every try is counted before it
# is checked, so parallel guesses all count; a right one is given back.
#: Tries at one pupil.
PUPIL_TRIES = Limit("pupil", 5, 600)
#: Wrong tries in one class, whoever makes them and from wherever: a class of 30 may each tap wrong once an hour.
CLASS_TRIES_HOUR = Limit("class-hour", 30, 3600)
#: ... and 50 a day: this limit alone bounds a stranger who has the class code to 50 guesses a day.
CLASS_TRIES_DAY = Limit("class-day", 50, 86_400)
#: Wrong pictures or PINs from one address: a school behind one address has many classes.
ADDRESS_SECRET_TRIES = Limit("secret-address", 300, 3600)
#: Wrong class codes typed from one address: a whole school mistyping codes makes far fewer.
ADDRESS_CODE_TRIES = Limit("code-address", 50, 3600)
#: Teacher accounts made from one address.
SIGN_UPS = Limit("sign-up", 10, 3600)
#: Second-factor codes typed for one teacher account (after the right password, or to turn it on): 5 in 10 minutes,
#: so one who has the password guesses six digits (three steps accepted) with about 1 chance in 460 a day.
SECOND_FACTOR_TRIES = Limit("second-factor", 5, 600)


class Exceeded(Exception):
    """Over a limit: try again after ``wait`` seconds."""

    def __init__(self, limit: Limit, wait: int) -> None:
        super().__init__(limit.name)
        self.limit, self.wait = limit, wait


def check(db: Session, limit: Limit, who: str | int, now: float) -> None:
    """Count one use, raising :class:`Exceeded` when it is one too many (rolled back with the request then)."""
    wait = hit(db, limit, who, now)
    if wait is not None:
        raise Exceeded(limit, wait)


def hit(db: Session, limit: Limit, who: str | int, now: float) -> int | None:
    """Count one use of ``limit`` by ``who`` at ``now`` (Unix seconds): the seconds to wait when over it, else None."""
    window = int(now) // limit.seconds * limit.seconds
    insert = upsert(db, RateLimit, key=f"{limit.name}:{who}"[:80], window_start=window, hits=1)
    counted = insert.on_conflict_do_update(
        index_elements=["key"],
        set_={
            "hits": case((RateLimit.window_start == insert.excluded.window_start, RateLimit.hits + 1), else_=1),
            "window_start": insert.excluded.window_start,
        },
    ).returning(RateLimit.hits)
    hits = db.execute(counted).scalar_one()
    return max(1, window + limit.seconds - int(now)) if hits > limit.hits else None


def give_back(db: Session, limit: Limit, who: str | int, now: float) -> None:
    """Uncount one use of ``limit`` by ``who`` in the window holding ``now`` (a try that turned out right)."""
    window = int(now) // limit.seconds * limit.seconds
    db.execute(
        update(RateLimit)
        .where(RateLimit.key == f"{limit.name}:{who}"[:80], RateLimit.window_start == window, RateLimit.hits > 0)
        .values(hits=RateLimit.hits - 1)
    )


def waiting(db: Session, limit: Limit, who: str | int, now: float) -> int:
    """The seconds ``who`` must wait because ``limit`` is used up in this window (0: not used up), counting nothing."""
    window = int(now) // limit.seconds * limit.seconds
    hits = db.scalar(
        select(RateLimit.hits).where(RateLimit.key == f"{limit.name}:{who}"[:80], RateLimit.window_start == window)
    )
    return max(1, window + limit.seconds - int(now)) if hits is not None and hits >= limit.hits else 0


def forget(db: Session, limit: Limit, who: str | int) -> None:
    """Start ``who``'s count of ``limit`` again (a teacher lets the class sign in again)."""
    db.execute(delete(RateLimit).where(RateLimit.key == f"{limit.name}:{who}"[:80]))


def count_step(run, now: float, limit: Limit | None = None) -> None:
    """Count one step of the lesson run ``run`` (a row with ``steps_window_start`` and ``steps_in_window``), raising
    :class:`Exceeded` when it is one too many.

    The count is saved with the run in the step's single write; a refused step is rolled back with it.
    """
    limit = limit or LESSON_STEPS
    window = int(now) // limit.seconds * limit.seconds
    if run.steps_window_start != window:
        run.steps_window_start, run.steps_in_window = window, 0
    run.steps_in_window += 1
    if run.steps_in_window > limit.hits:
        raise Exceeded(limit, max(1, window + limit.seconds - int(now)))


def purge(db: Session, now: float) -> int:
    """Delete the counts of windows that ended a day ago or more."""
    return db.execute(delete(RateLimit).where(RateLimit.window_start < int(now) - 86_400)).rowcount
