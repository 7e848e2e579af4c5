"""A teacher's optional second factor: a code from an authenticator app (TOTP, RFC 6238) or a one-time recovery code.

Plain Python and SQLAlchemy, no Flask. pyotp makes the codes; this module decides which are accepted: one step
either side of now (a phone's clock may be half a minute off), each step once only (the last one accepted is
stored and checked in the same UPDATE, so two parallel sign-ins cannot both use one code), and each recovery code
once (deleted when used; only its hash is stored).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

import pyotp
from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from tutor.models import RecoveryCode, Teacher

#: The name the authenticator app shows beside the account.
ISSUER = "Kortmatte"
CODE_DIGITS = 6
RECOVERY_CODES = 10
#: Four groups of four from 31 letters and digits without 0/O, 1/I/L: 79 bits, so the stored hashes are not worth
#: guessing offline.
RECOVERY_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
RECOVERY_GROUPS, RECOVERY_GROUP = 4, 4


def new_secret() -> str:
    """A fresh TOTP secret (160 bits, base32) for the teacher to put in an authenticator app."""
    return pyotp.random_base32(32)


def show_secret(secret: str) -> str:
    """The secret in groups of four, easier to type into an app by hand."""
    return " ".join(secret[i : i + 4] for i in range(0, len(secret), 4))


def setup_address(secret: str, email: str) -> str:
    """The otpauth:// address an authenticator app reads from the QR code."""
    return pyotp.TOTP(secret).provisioning_uri(name=email, issuer_name=ISSUER)


def start(db: Session, teacher: Teacher) -> str:
    """The secret being set up: kept while the teacher has not confirmed it yet, so reloading the page keeps it."""
    if teacher.totp_on:
        raise ValueError("the second factor is already on")
    if teacher.totp_secret is None:
        teacher.totp_secret = new_secret()
        db.flush()
    return teacher.totp_secret


def _code_digits(code: str) -> str | None:
    digits = "".join(str(code or "").split())
    return digits if len(digits) == CODE_DIGITS and digits.isascii() and digits.isdigit() else None


def accept_code(db: Session, teacher: Teacher, code: str, now: float) -> bool:
    """Whether ``code`` is the app's code at ``now`` (Unix seconds) and not used before; an accepted code's step is
    stored, so it and every earlier one are refused from then on."""
    digits = _code_digits(code)
    if digits is None or teacher.totp_secret is None:
        return False
    totp = pyotp.TOTP(teacher.totp_secret)
    current = int(now) // totp.interval
    for step in (current - 1, current, current + 1):
        if hmac.compare_digest(totp.generate_otp(step), digits):
            taken = db.execute(
                update(Teacher)
                .where(
                    Teacher.id == teacher.id,
                    (Teacher.totp_last_step.is_(None)) | (Teacher.totp_last_step < step),
                )
                .values(totp_last_step=step)
            )
            return taken.rowcount == 1
    return False


def turn_on(db: Session, teacher: Teacher, code: str, now: float) -> list[str] | None:
    """Switch the second factor on when ``code`` confirms the app has the secret: the new recovery codes (shown
    once), or None for a wrong code."""
    if teacher.totp_on or not accept_code(db, teacher, code, now):
        return None
    teacher.totp_on = True
    return new_recovery_codes(db, teacher)


def turn_off(db: Session, teacher: Teacher) -> None:
    """Switch the second factor off (by the teacher, or by the school's administrator when the phone is lost)."""
    teacher.totp_on, teacher.totp_secret, teacher.totp_last_step = False, None, None
    db.execute(delete(RecoveryCode).where(RecoveryCode.teacher_id == teacher.id))


def _recovery_hash(code: str) -> str:
    bare = "".join(ch for ch in str(code or "").upper() if ch.isalnum())
    return hashlib.sha256(f"recovery:{bare}".encode()).hexdigest()


def new_recovery_codes(db: Session, teacher: Teacher) -> list[str]:
    """Ten fresh one-time codes, replacing any older ones; only their hashes are stored."""
    db.execute(delete(RecoveryCode).where(RecoveryCode.teacher_id == teacher.id))
    codes = []
    for _ in range(RECOVERY_CODES):
        letters = "".join(secrets.choice(RECOVERY_ALPHABET) for _ in range(RECOVERY_GROUPS * RECOVERY_GROUP))
        codes.append("-".join(letters[i : i + RECOVERY_GROUP] for i in range(0, len(letters), RECOVERY_GROUP)))
    db.add_all(RecoveryCode(teacher_id=teacher.id, code_hash=_recovery_hash(code)) for code in codes)
    db.flush()
    return codes


def use_recovery_code(db: Session, teacher: Teacher, code: str) -> bool:
    """Whether ``code`` is one of the teacher's unused recovery codes; it is used up (deleted) if so."""
    if len(str(code or "")) > 40:
        return False
    found = (RecoveryCode.teacher_id == teacher.id, RecoveryCode.code_hash == _recovery_hash(code))
    used = db.execute(delete(RecoveryCode).where(*found))
    return used.rowcount == 1


def recovery_codes_left(db: Session, teacher: Teacher) -> int:
    return db.scalar(select(func.count()).select_from(RecoveryCode).where(RecoveryCode.teacher_id == teacher.id))


def check(db: Session, teacher: Teacher, code: str, now: float) -> bool:
    """The sign-in's second step: an app code (six digits) or else a recovery code."""
    if _code_digits(code) is not None:
        return accept_code(db, teacher, code, now)
    return use_recovery_code(db, teacher, code)
