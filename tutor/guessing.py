"""Limits on guessing a way in as a pupil: pictures or PIN per pupil, per class and per address, class codes per
address.

Every try is counted before it is checked, in one atomic statement per limit (:func:`tutor.limits.hit`), so a
hundred guesses sent at once are all counted and only the first few are checked. A right try is given back, so
only wrong ones use up a class's or an address's allowance. docs/teachers.md works out how long guessing takes.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from tutor import limits
from tutor.models import Pupil, SchoolClass


def class_limits() -> tuple[limits.Limit, ...]:
    """The limits a class's wrong tries count against (read when used, so a test may set smaller ones)."""
    return (limits.CLASS_TRIES_HOUR, limits.CLASS_TRIES_DAY)


def take_secret_try(db: Session, pupil: Pupil, address_key: str, now: float) -> int:
    """Count one try at ``pupil``'s secret: the seconds to wait before any try is checked (0: check this one)."""
    waits = [
        limits.hit(db, limits.PUPIL_TRIES, pupil.public_id, now),
        *(limits.hit(db, limit, pupil.class_id, now) for limit in class_limits()),
        limits.hit(db, limits.ADDRESS_SECRET_TRIES, address_key, now),
    ]
    return max((wait or 0) for wait in waits)


def secret_was_right(db: Session, pupil: Pupil, address_key: str, now: float) -> None:
    """A right try costs the class and the address nothing, and the pupil starts afresh."""
    limits.forget(db, limits.PUPIL_TRIES, pupil.public_id)
    for limit in class_limits():
        limits.give_back(db, limit, pupil.class_id, now)
    limits.give_back(db, limits.ADDRESS_SECRET_TRIES, address_key, now)


def take_code_try(db: Session, address_key: str, now: float) -> int:
    """Count one class code typed from an address: the seconds to wait before it is looked up (0: look it up)."""
    return limits.hit(db, limits.ADDRESS_CODE_TRIES, address_key, now) or 0


def code_was_right(db: Session, address_key: str, now: float) -> None:
    limits.give_back(db, limits.ADDRESS_CODE_TRIES, address_key, now)


def class_paused(db: Session, school_class: SchoolClass, now: float) -> int:
    """The seconds until the class's pupils may try their pictures or PIN again (0: they may now)."""
    return max(limits.waiting(db, limit, school_class.id, now) for limit in class_limits())


def let_class_try_again(db: Session, school_class: SchoolClass) -> None:
    """The teacher has seen the message: the class's allowance of wrong tries starts again."""
    for limit in class_limits():
        limits.forget(db, limit, school_class.id)


def forget_pupil(db: Session, pupil: Pupil) -> None:
    """New pictures or a deleted pupil: no wait is left behind."""
    limits.forget(db, limits.PUPIL_TRIES, pupil.public_id)
