"""A forgotten teacher password, reset by a link sent by e-mail: plain SQLAlchemy, no Flask.

The link carries a random token (256 bits) that the database keeps only as a hash, with the hour it is valid for.
Using it sets the new password (checked as every new password is), signs the account out everywhere and deletes
every reset token of the account, so a link works once.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from tutor import accounts, admin
from tutor.models import PasswordReset, Teacher

VALID_FOR = timedelta(hours=1)


def _token_hash(token: str) -> str:
    return hashlib.sha256(f"reset:{token}".encode()).hexdigest()


def start(db: Session, email: str, now: datetime) -> tuple[Teacher, str] | None:
    """A token to e-mail to the account with ``email``, or None when there is no such account or it is switched
    off (the page says the same either way). Expired tokens are deleted here."""
    admin.delete_expired_resets(db, now)
    teacher = db.scalar(select(Teacher).where(Teacher.email == (accounts.clean_email(email) or "")))
    if teacher is None or teacher.disabled:
        return None
    token = secrets.token_urlsafe(32)
    db.add(PasswordReset(teacher_id=teacher.id, token_hash=_token_hash(token), expires_at=now + VALID_FOR))
    return teacher, token


def teacher_for(db: Session, token: str, now: datetime) -> Teacher | None:
    """The account a token resets, or None when the token is unknown, used or expired."""
    if not isinstance(token, str) or len(token) > 100:
        return None
    row = db.scalar(select(PasswordReset).where(PasswordReset.token_hash == _token_hash(token)))
    if row is None or accounts.as_utc(row.expires_at) < now or row.teacher.disabled:
        return None
    return row.teacher


def finish(db: Session, token: str, password: str, now: datetime) -> Teacher:
    """Set the new password; raises :class:`admin.Refused` ("token" for a link that does not work, or the
    password's problem)."""
    teacher = teacher_for(db, token, now)
    if teacher is None:
        raise admin.Refused("token", "the link is unknown, used or more than an hour old")
    admin.set_password(db, teacher, password)  # ends every sign-in and every reset link of the account
    return teacher
