"""Who is signed in: teacher passwords, class codes, pupils' pictures and PINs, sessions, throttles.

Plain Python and SQLAlchemy, no Flask: the web layer passes in the clock, the cookie's
token and the configured limits. A session lives in the database (only the hash of its
token is stored), so signing out on one app server signs out everywhere, and a copied
cookie stops working. Failed sign-ins are counted in the database for the same reason.
"""

from __future__ import annotations

import gzip
import hashlib
import hmac
import random
import re
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, joinedload

from tutor import ROOT
from tutor.models import Pupil, SchoolClass, SignInSession, SignInThrottle

NAME_MAX = 40
TEACHER_NAME_MAX = 80
EMAIL_MAX = 254
PASSWORD_MIN, PASSWORD_MAX = 10, 200

#: The twelve pictures of a picture password, and the pupils' avatars (Twemoji, see static/pictures). Secrets made
#: when there were nine use the first nine, so they stay valid.
PICTURES = ("sun", "star", "apple", "cat", "fish", "car", "tree", "house", "ball", "flower", "umbrella", "key")
AVATARS = (
    "dog",
    "fox",
    "lion",
    "tiger",
    "frog",
    "panda",
    "koala",
    "bear",
    "rabbit",
    "mouse",
    "pig",
    "cow",
    "monkey",
    "chicken",
    "penguin",
    "owl",
    "turtle",
    "octopus",
    "whale",
    "butterfly",
    "bee",
    "ladybug",
    "snail",
    "unicorn",
    "hedgehog",
    "elephant",
    "giraffe",
    "zebra",
    "dolphin",
    "crab",
    "parrot",
    "hamster",
)
#: Four pictures in order from twelve: 12 · 11 · 10 · 9 = 11,880 secrets (four of nine gave 3,024, three 504).
#: Secrets made before keep their pictures until the teacher makes new ones.
PICTURES_IN_SECRET = 4
PIN_DIGITS = 4
SIGN_IN_KINDS = ("pictures", "pin")

#: Class codes are read aloud and typed by children: no 0/O, 1/I/L, and no vowels that spell words.
CODE_ALPHABET = "BCDFGHJKMNPQRSTVWXZ23456789"
CODE_LENGTH = 6

#: Argon2id with OWASP's recommended minimum (19 MiB, 2 passes): about 50 ms per sign-in on a small server.
_hasher = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


# --- names, e-mail addresses and passwords --------------------------------------------------
def clean_name(raw: str, limit: int = NAME_MAX) -> str | None:
    """A name of 1..limit printable characters with single spaces, or None."""
    name = " ".join(str(raw or "").split())
    if not 1 <= len(name) <= limit:
        return None
    if any(unicodedata.category(ch)[0] == "C" for ch in name):
        return None
    return name


def clean_email(raw: str) -> str | None:
    email = str(raw or "").strip().lower()
    if len(email) > EMAIL_MAX or not _EMAIL.match(email):
        return None
    return email


def password_problem(password: str) -> str | None:
    """Why a new password cannot be used ("short", "long", "common"), or None."""
    if len(password) < PASSWORD_MIN:
        return "short"
    if len(password) > PASSWORD_MAX:
        return "long"
    if is_common(password):
        return "common"
    return None


@cache
def _common_passwords() -> frozenset[str]:
    """The 10,000 most common passwords, lower-cased (content/common_passwords.LICENSE says where from)."""
    with gzip.open(ROOT / "content" / "common_passwords.txt.gz", "rt", encoding="utf-8") as lines:
        return frozenset(line.strip() for line in lines if line.strip())


def is_common(password: str) -> bool:
    """Whether a password is guessed early from lists: on the list, a listed word with digits or signs around it
    ("Password2024!", "123qwerty"), or made of fewer than five different characters ("aaaaaaaaaa")."""
    lowered = password.lower()
    bare = lowered.strip("0123456789!?.,#@*_-+ ")
    common = _common_passwords()
    return lowered in common or (len(bare) >= 4 and bare in common) or len(set(lowered)) < 5


def hash_password(password: str) -> str:
    return _hasher.hash(password)


@cache
def _dummy_hash() -> str:
    """A hash to check against when there is no account; made on first use, since hashing at import slows start-up."""
    return _hasher.hash("not a password of anyone")


def check_password(password_hash: str | None, password: str) -> bool:
    """True when ``password`` matches; an unknown account costs the same time as a known one."""
    try:
        return _hasher.verify(password_hash or _dummy_hash(), password[:PASSWORD_MAX]) and password_hash is not None
    except (VerificationError, InvalidHashError):
        return False


# --- classes and pupils' secrets ------------------------------------------------------------
def new_class_code(db: Session, rng: random.Random | None = None) -> str:
    """A class code not used yet, such as ``KX4-M9Q`` without the dash."""
    pick = (rng or secrets.SystemRandom()).choice
    while True:
        code = "".join(pick(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if db.scalar(select(SchoolClass.id).where(SchoolClass.code == code)) is None:
            return code


def normalise_code(raw: str) -> str:
    """A typed class code in the stored form: capitals, without spaces or dashes."""
    return re.sub(r"[\s\-–]", "", str(raw or ""))[:20].upper()


def show_code(code: str) -> str:
    """A class code as printed: two halves, easier to read aloud (``KX4 M9Q``)."""
    half = len(code) // 2
    return f"{code[:half]} {code[half:]}"


def new_secret(kind: str, rng: random.Random | None = None) -> str:
    """A fresh picture password (four different pictures, in order) or PIN."""
    rng = rng or secrets.SystemRandom()
    if kind == "pin":
        return "".join(rng.choice("0123456789") for _ in range(PIN_DIGITS))
    return " ".join(rng.sample(PICTURES, PICTURES_IN_SECRET))


def secret_matches(stored: str | None, given: str) -> bool:
    return stored is not None and hmac.compare_digest(stored.encode(), str(given).encode())


def pictures_in(secret: str | None) -> int:
    """How many pictures a pupil taps: as many as their secret has (older secrets have three)."""
    return len(secret.split()) if secret else PICTURES_IN_SECRET


def picture_secret(picks: list[str], count: int = PICTURES_IN_SECRET) -> str | None:
    """The picked pictures as a stored secret, or None when one is not a picture."""
    if len(picks) != count or any(p not in PICTURES for p in picks):
        return None
    return " ".join(picks)


def pin_secret(raw: str) -> str | None:
    pin = "".join(str(raw or "").split())
    return pin if len(pin) == PIN_DIGITS and pin.isascii() and pin.isdigit() else None


# --- sessions -------------------------------------------------------------------------------
def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def as_utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; every stored time is UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class SessionLimits:
    idle: timedelta = timedelta(minutes=60)
    lifetime: timedelta = timedelta(hours=12)
    #: last_seen_at is written at most this often, so most requests only read.
    touch_every: timedelta = timedelta(minutes=1)


def open_session(db: Session, now: datetime, teacher_id: int | None = None, pupil_id: int | None = None) -> str:
    """Start a session and return the token for the cookie (the database keeps only its hash)."""
    token = secrets.token_urlsafe(32)
    db.add(
        SignInSession(
            token_hash=_token_hash(token), teacher_id=teacher_id, pupil_id=pupil_id, created_at=now, last_seen_at=now
        )
    )
    return token


def find_session(db: Session, token: str | None, now: datetime, limits: SessionLimits) -> SignInSession | None:
    """The live session for ``token``; an idle or too old one is deleted and gives None."""
    if not token or not isinstance(token, str) or len(token) > 100:
        return None
    signed_in = select(SignInSession).where(SignInSession.token_hash == _token_hash(token))
    row = db.scalar(
        signed_in.options(
            joinedload(SignInSession.teacher), joinedload(SignInSession.pupil).joinedload(Pupil.school_class)
        )
    )
    if row is None:
        return None
    if now - as_utc(row.last_seen_at) > limits.idle or now - as_utc(row.created_at) > limits.lifetime:
        db.delete(row)
        db.commit()
        return None
    if now - as_utc(row.last_seen_at) > limits.touch_every:
        row.last_seen_at = now
        db.commit()
    return row


def close_session(db: Session, token: str | None) -> None:
    if token and isinstance(token, str):
        db.execute(delete(SignInSession).where(SignInSession.token_hash == _token_hash(token)))


def close_sessions_of(db: Session, teacher_id: int | None = None, pupil_id: int | None = None) -> None:
    """Sign a person out everywhere (a new picture password, a deleted account)."""
    if teacher_id is not None:
        db.execute(delete(SignInSession).where(SignInSession.teacher_id == teacher_id))
    if pupil_id is not None:
        db.execute(delete(SignInSession).where(SignInSession.pupil_id == pupil_id))


def delete_old_sessions(db: Session, now: datetime, limits: SessionLimits) -> int:
    result = db.execute(
        delete(SignInSession).where(
            (SignInSession.last_seen_at < now - limits.idle) | (SignInSession.created_at < now - limits.lifetime)
        )
    )
    return result.rowcount or 0


# --- throttling failed sign-ins -------------------------------------------------------------
@dataclass(frozen=True)
class Throttle:
    """After ``allowed`` failures within ``window``, wait ``first_wait``; each further failure doubles it."""

    allowed: int
    window: timedelta
    first_wait: timedelta
    longest_wait: timedelta


#: A teacher's account from one address: five tries, then 5 minutes, up to an hour. Counted per account and
#: address, so a stranger elsewhere cannot make a teacher wait.
ACCOUNT = Throttle(5, timedelta(minutes=15), timedelta(minutes=5), timedelta(hours=1))
#: One address, all accounts: only against trying password lists (each try costs 50 ms of hashing), so far above
#: what a school's teachers behind one address mistype: 500 failures in an hour.
ADDRESS = Throttle(500, timedelta(hours=1), timedelta(minutes=5), timedelta(hours=1))


def throttle_key(kind: str, value: str, secret: str) -> str:
    """A key that names an account or address without storing it (a keyed hash)."""
    digest = hmac.new(secret.encode(), f"{kind}:{value}".encode(), hashlib.sha256).hexdigest()
    return f"{kind}:{digest[:40]}"


def wait_seconds(db: Session, key: str, now: datetime) -> int:
    """How long ``key`` must wait before it may try again (0: it may try now)."""
    locked_until = db.scalar(select(SignInThrottle.locked_until).where(SignInThrottle.key == key))
    if locked_until is None:
        return 0
    left = (as_utc(locked_until) - now).total_seconds()
    return max(0, int(left + 0.999))


def note_failure(db: Session, key: str, rule: Throttle, now: datetime) -> None:
    """Count one failure for ``key`` (an atomic update, so app servers never lose a count)."""
    row = db.scalar(select(SignInThrottle).where(SignInThrottle.key == key))
    if row is None:
        try:
            with db.begin_nested():
                db.add(SignInThrottle(key=key, failures=1, window_started_at=now))
            return
        except IntegrityError:
            row = db.scalar(select(SignInThrottle).where(SignInThrottle.key == key))
    if now - as_utc(row.window_started_at) > rule.window and not (
        row.locked_until and as_utc(row.locked_until) > now - rule.window
    ):
        db.execute(
            update(SignInThrottle)
            .where(SignInThrottle.key == key)
            .values(failures=1, window_started_at=now, locked_until=None)
        )
        return
    db.execute(update(SignInThrottle).where(SignInThrottle.key == key).values(failures=SignInThrottle.failures + 1))
    db.refresh(row)
    over = row.failures - rule.allowed
    if over >= 0:
        wait = min(rule.first_wait * (2 ** min(over, 20)), rule.longest_wait)
        row.locked_until = now + wait


def clear_failures(db: Session, *keys: str) -> None:
    db.execute(delete(SignInThrottle).where(SignInThrottle.key.in_(keys)))
