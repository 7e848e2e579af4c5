"""Operator tasks behind ``kortmatte teacher`` and ``kortmatte purge``; plain SQLAlchemy, no Flask.

The command line only reads its arguments (and a password) and calls these.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from tutor import accounts, classroom
from tutor import limits as rate_limits
from tutor.models import ClassTeacher, PasswordReset, SignInThrottle, Teacher
from tutor.text import LOCALES

#: A throttle row whose window and lock both ended this long ago counts for nothing any more
#: (the longest window is 15 minutes and the longest lock an hour; see accounts.Throttle).
THROTTLE_KEPT = timedelta(days=1)


class Refused(ValueError):
    """Input to correct: ``code`` names the problem ("email", "name", "locale", "taken",
    "password") for a localised message; the English text is for the operator (and never
    repeats a password)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def check_new_teacher(db: Session, email: str, name: str, locale: str = "en") -> tuple[str, str]:
    """The cleaned e-mail address and name for a new account (asked before the password is);
    raises :class:`Refused` for a bad or taken address, a bad name or an unknown language."""
    clean_email = accounts.clean_email(email)
    if clean_email is None:
        raise Refused("email", f"not a valid e-mail address: {str(email)[:80]!r}")
    clean_name = accounts.clean_name(name, accounts.TEACHER_NAME_MAX)
    if clean_name is None:
        raise Refused("name", f"the name must be 1 to {accounts.TEACHER_NAME_MAX} printable characters")
    if locale not in LOCALES:
        raise Refused("locale", f"unknown language {locale!r}; choose from {', '.join(LOCALES)}")
    if db.scalar(select(Teacher.id).where(Teacher.email == clean_email)) is not None:
        raise Refused("taken", f"there is already a teacher with the e-mail address {clean_email}")
    return clean_email, clean_name


def add_teacher(db: Session, email: str, name: str, password: str, locale: str = "en") -> Teacher:
    """A new teacher account (the caller commits); raises :class:`Refused` as
    :func:`check_new_teacher` does, and for a password of the wrong length."""
    clean_email, clean_name = check_new_teacher(db, email, name, locale)
    check_new_password(password)
    teacher = Teacher(email=clean_email, name=clean_name, password_hash=accounts.hash_password(password), locale=locale)
    db.add(teacher)
    db.flush()
    return teacher


def check_new_password(password: str) -> None:
    """Raises :class:`Refused` ("password" for the length, "common" for a password found early by guessing)."""
    problem = accounts.password_problem(password)
    if problem == "common":
        raise Refused("common", "the password is a common one (or a common one with digits added): choose another")
    if problem is not None:
        raise Refused(
            "password",
            f"the password is too {problem}: it needs {accounts.PASSWORD_MIN} to {accounts.PASSWORD_MAX} characters",
        )


def teacher_by_email(db: Session, email: str) -> Teacher:
    teacher = db.scalar(select(Teacher).where(Teacher.email == (accounts.clean_email(email) or "")))
    if teacher is None:
        raise Refused("no_such_teacher", f"there is no teacher with the e-mail address {str(email)[:80]!r}")
    return teacher


def set_password(db: Session, teacher: Teacher, password: str) -> None:
    """A new password (by the teacher, the school's administrator or a reset link): every sign-in of the account and
    every reset link still open for it end, so an older link cannot undo the change."""
    check_new_password(password)
    teacher.password_hash = accounts.hash_password(password)
    accounts.close_sessions_of(db, teacher_id=teacher.id)
    db.execute(delete(PasswordReset).where(PasswordReset.teacher_id == teacher.id))


def disable_teacher(db: Session, teacher: Teacher, disabled: bool = True) -> None:
    """Switch an account off (it signs out everywhere and cannot sign in; its classes stay) or on again."""
    teacher.disabled = disabled
    if disabled:
        accounts.close_sessions_of(db, teacher_id=teacher.id)


def delete_teacher(db: Session, teacher: Teacher) -> list[str]:
    """Delete an account; each class it owns goes to its longest-serving co-teacher. Returns the classes handed on.

    Raises :class:`Refused` ("sole_teacher") when a class it owns has no co-teacher: add one, or delete the class.
    """
    owned = db.scalars(
        select(ClassTeacher).where(ClassTeacher.teacher_id == teacher.id, ClassTeacher.role == "owner")
    ).all()
    heirs = []
    for membership in owned:
        heir = db.scalar(
            select(ClassTeacher)
            .where(ClassTeacher.class_id == membership.class_id, ClassTeacher.teacher_id != teacher.id)
            .order_by(ClassTeacher.teacher_id)
        )
        if heir is None:
            raise Refused(
                "sole_teacher",
                f"the class {membership.school_class.name!r} (code {membership.school_class.code}) has no other "
                "teacher: add a co-teacher to it first, or delete the class",
            )
        heirs.append((membership, heir))
    handed = []
    for membership, heir in heirs:
        heir.role = "owner"
        handed.append(f"{membership.school_class.name} → {heir.teacher.email}")
    accounts.close_sessions_of(db, teacher_id=teacher.id)
    db.delete(teacher)
    db.flush()
    return handed


def list_teachers(db: Session) -> list[dict]:
    """Every teacher: e-mail address, name, language and how many classes they teach, by e-mail."""
    classes = select(ClassTeacher.teacher_id, func.count().label("n")).group_by(ClassTeacher.teacher_id).subquery()
    rows = db.execute(
        select(Teacher, func.coalesce(classes.c.n, 0))
        .outerjoin(classes, classes.c.teacher_id == Teacher.id)
        .order_by(Teacher.email)
    )
    return [
        {"email": teacher.email, "name": teacher.name, "locale": teacher.locale, "classes": count}
        for teacher, count in rows
    ]


@dataclass
class Purged:
    guests: int
    sessions: int
    throttles: int
    old_work: int = 0  # class pupils whose games and answers were deleted
    resets: int = 0  # password reset links past their hour


def delete_old_throttles(db: Session, now: datetime) -> int:
    """Delete failed sign-in counts that no longer hold anyone back."""
    cutoff = now - THROTTLE_KEPT
    result = db.execute(
        delete(SignInThrottle).where(
            SignInThrottle.window_started_at < cutoff,
            SignInThrottle.locked_until.is_(None) | (SignInThrottle.locked_until < cutoff),
        )
    )
    return result.rowcount or 0


def delete_expired_resets(db: Session, now: datetime) -> int:
    """Delete password reset links past their hour (a used link is deleted when it is used)."""
    return db.execute(delete(PasswordReset).where(PasswordReset.expires_at < now)).rowcount or 0


def purge(db: Session, now: datetime, guest_days: int, limits: accounts.SessionLimits, work_months: int = 12) -> Purged:
    """The daily clean-up: guests not seen for ``guest_days`` days (with all their work), the games and answers of
    class pupils who have not played for ``work_months`` months, sign-in sessions that have ended, old throttle
    and rate-limit rows, and expired password reset links. The caller commits."""
    if guest_days < 1:
        raise Refused("days", "the number of days must be at least 1")
    if work_months < 1:
        raise Refused("months", "the number of months must be at least 1")
    return Purged(
        guests=classroom.purge_guests(db, now, guest_days),
        sessions=accounts.delete_old_sessions(db, now, limits),
        throttles=delete_old_throttles(db, now) + rate_limits.purge(db, now.timestamp()),
        old_work=classroom.purge_old_work(db, now, work_months),
        resets=delete_expired_resets(db, now),
    )
