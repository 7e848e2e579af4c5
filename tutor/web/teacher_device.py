"""Device cookies for teachers' sign-in, so a stranger at the school's address cannot lock a colleague out.

OWASP's "Slow down online guessing attacks with device cookies": after a teacher signs in, the browser keeps a
long-lived cookie that names the account (its public id) and this device (a random nonce), signed with the app's
secret. A sign-in that brings a valid device cookie for the account it names is limited per device only, so wrong
passwords typed by someone else, even behind the same school address, never make it wait; a sign-in without one
is limited per account and address as before. The cookie also carries a keyed hash of the account's password
hash, so a new password (the teacher's, the administrator's or a reset link's) ends every device cookie of the
account. It holds nothing personal and nothing that is stored.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from flask import Response, current_app, request
from itsdangerous import BadSignature, URLSafeTimedSerializer

from tutor import accounts
from tutor.models import Teacher

COOKIE = "kortmatte_teacher_device"
#: A device cookie is trusted for a year after the sign-in that gave it (each sign-in gives a fresh one).
DAYS = 365


def cookie_name() -> str:
    """With a __Host- prefix when cookies are sent over HTTPS only (no sibling domain can plant one)."""
    return f"__Host-{COOKIE}" if current_app.config["SECURE_COOKIES"] else COOKIE


def _signer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt="teacher-device")


def _password_mark(teacher: Teacher) -> str:
    """A keyed hash of the account's password hash: it changes with the password, and tells nothing about it."""
    secret = current_app.config["SECRET_KEY"].encode()
    return hmac.new(secret, f"device:{teacher.password_hash}".encode(), hashlib.sha256).hexdigest()[:32]


def remember(response: Response, teacher: Teacher) -> Response:
    """The teacher has just signed in on this browser: give it a fresh device cookie for the account."""
    signed = _signer().dumps([teacher.public_id, secrets.token_urlsafe(16), _password_mark(teacher)])
    secure = current_app.config["SECURE_COOKIES"]
    response.set_cookie(
        cookie_name(),
        signed,
        max_age=DAYS * 86_400,
        httponly=True,
        samesite="Lax",
        secure=secure or request.is_secure,
    )
    return response


def throttle_key(teacher: Teacher | None) -> str | None:
    """The failure count's key for this browser's device cookie when it is valid for ``teacher``'s account (signed
    by this app, less than a year old, made under the account's present password); None otherwise."""
    signed = request.cookies.get(cookie_name(), "")
    if teacher is None or not signed or len(signed) > 300:
        return None
    try:
        found = _signer().loads(signed, max_age=DAYS * 86_400)
    except BadSignature:
        return None
    if not (isinstance(found, list) and len(found) == 3 and all(isinstance(part, str) for part in found)):
        return None
    public_id, nonce, mark = found
    if public_id != teacher.public_id or not hmac.compare_digest(mark, _password_mark(teacher)):
        return None
    return accounts.throttle_key("device", f"{public_id} {nonce}", current_app.config["SECRET_KEY"])
