"""Configuration from the environment, with safe defaults for one machine.

``DATABASE_URL``: SQLAlchemy URL; default SQLite in the instance folder.
``SECRET_KEY``: signs sessions; when unset, one is generated once and kept in the
instance folder (several app servers behind one database must share one SECRET_KEY).
``ALLOW_SIGNUP`` (off): teachers may create their own accounts on the sign-up page.
``ALLOW_GUESTS`` (on): anyone may play under a name without a class.
``SESSION_IDLE_MINUTES`` (60) and ``SESSION_LIFETIME_HOURS`` (12): a sign-in ends after
this long without a request, and in any case this long after signing in.
``SESSION_CHECK_SECONDS`` (15, at most 30): the signed cookie vouches for its sign-in this long after the
database last did, so most requests read no sign-in rows; a sign-out elsewhere, a switched-off teacher or a
deleted pupil takes effect within this many seconds (0: every request asks the database).
``GUEST_RETENTION_DAYS`` (30): ``kortmatte purge`` deletes guests not seen for this long.
``WORK_RETENTION_MONTHS`` (12): ``kortmatte purge`` deletes the games and answers of class pupils who have not played
for this long (a pupil the teacher deletes goes at once, with everything).
``PROXIES`` (0): how many reverse proxies (nginx, a load balancer) stand in front of the app;
their X-Forwarded-For and X-Forwarded-Proto headers are then trusted, so sign-in throttling
sees each client's own address. Leave it at 0 when clients connect directly.
``SECURE_COOKIES`` (off): behind TLS, send the cookies over HTTPS only, under __Host- names.
``CASINO_WAR_FOR_GUESTS`` (off): guests may play Casino War (a teacher switches it on per class).
``MAIL_SERVER``, ``MAIL_PORT`` (587), ``MAIL_FROM``, ``MAIL_USERNAME``, ``MAIL_PASSWORD``, ``MAIL_STARTTLS`` (on) and
``SITE_URL``: with a mail server, a sender and the site's own address (such as ``https://kortmatte.school.example``,
for the links in the e-mails) all set, teachers may reset a forgotten password by an e-mailed link.
``FEIDE_CLIENT_ID`` and ``FEIDE_CLIENT_SECRET``, ``GOOGLE_CLIENT_ID`` and ``GOOGLE_CLIENT_SECRET`` (with
``GOOGLE_HOSTED_DOMAIN``, the school's Google Workspace domain), ``ENTRA_CLIENT_ID``, ``ENTRA_CLIENT_SECRET`` and
``ENTRA_TENANT``: each provider whose settings are all given signs teachers and pupils in with the school's account
(``*_METADATA_URL`` and ``FEIDE_GROUPS_URL`` point elsewhere than the providers' own addresses: docs/sign-in.md).
``AUDIO_DIR`` (``<instance>/audio``): the recorded speech ``kortmatte audio build`` makes for devices without a voice
of their own (tutor/speech/audio.py); without it there is none, and those devices stay silent.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

DEFAULTS = {
    "ALLOW_SIGNUP": False,
    "ALLOW_GUESTS": True,
    "SESSION_IDLE_MINUTES": 60,
    "SESSION_LIFETIME_HOURS": 12,
    "SESSION_CHECK_SECONDS": 15,
    "GUEST_RETENTION_DAYS": 30,
    "WORK_RETENTION_MONTHS": 12,
    "PROXIES": 0,
    "SECURE_COOKIES": False,
    "CASINO_WAR_FOR_GUESTS": False,
    "MAIL_SERVER": "",
    "MAIL_PORT": 587,
    "MAIL_FROM": "",
    "MAIL_USERNAME": "",
    "MAIL_PASSWORD": "",
    "MAIL_STARTTLS": True,
    # the links in e-mails start with this, never with the Host a request named (which anyone can choose)
    "SITE_URL": "",
    # single sign-on (tutor.sso.providers): a provider is switched on when its client id and secret are set
    "FEIDE_CLIENT_ID": "",
    "FEIDE_CLIENT_SECRET": "",
    "FEIDE_METADATA_URL": "",
    "FEIDE_GROUPS_URL": "",
    "GOOGLE_CLIENT_ID": "",
    "GOOGLE_CLIENT_SECRET": "",
    "GOOGLE_HOSTED_DOMAIN": "",
    "GOOGLE_METADATA_URL": "",
    "ENTRA_CLIENT_ID": "",
    "ENTRA_CLIENT_SECRET": "",
    "ENTRA_TENANT": "",
    "ENTRA_METADATA_URL": "",
    # the recorded speech (tutor.speech.audio); "" (the tests' apps): none
    "AUDIO_DIR": "",
    # how long a process keeps the fitted skill parameters and question difficulties before reading them again
    "SHARED_ROWS_SECONDS": 30,
}


def mail_configured(config) -> bool:
    """Whether e-mails can be sent, with links that lead back to this site."""
    return bool(config.get("MAIL_SERVER") and config.get("MAIL_FROM") and config.get("SITE_URL"))


def instance_secret(instance_path: str) -> str:
    """The secret kept in ``instance/secret_key``, created on first use (readable by the owner only)."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_hex(32))
    return path.read_text().strip()


def database_url(instance_path: str) -> str:
    return os.environ.get("DATABASE_URL") or f"sqlite:///{Path(instance_path) / 'kortmatte.db'}"


def flag(value: str) -> bool:
    return value.strip().lower() in ("1", "true", "yes", "on")


#: Settings that may be 0, and settings with a largest value.
MAY_BE_ZERO = ("PROXIES", "SHARED_ROWS_SECONDS", "SESSION_CHECK_SECONDS")
#: A sign-in the database has ended may go on being believed this long at most (tutor.web.auth).
LARGEST = {"SESSION_CHECK_SECONDS": 30}


def whole_number(name: str, value: str, least: int, most: int | None = None) -> int:
    try:
        number = int(value)
    except ValueError:
        raise SystemExit(f"{name} must be a whole number, not {value!r}") from None
    if number < least:
        raise SystemExit(f"{name} must be at least {least}, not {number}")
    if most is not None and number > most:
        raise SystemExit(f"{name} must be at most {most}, not {number}")
    return number


def from_environment(instance_path: str) -> dict:
    settings = {
        "DATABASE_URL": database_url(instance_path),
        "SECRET_KEY": os.environ.get("SECRET_KEY") or instance_secret(instance_path),
        "AUDIO_DIR": str(Path(instance_path) / "audio"),
    }
    for name, default in DEFAULTS.items():
        raw = os.environ.get(name)
        if raw is None or raw == "":
            continue
        if isinstance(default, str):
            settings[name] = raw.strip()
            continue
        settings[name] = (
            flag(raw)
            if isinstance(default, bool)
            else whole_number(name, raw, least=0 if name in MAY_BE_ZERO else 1, most=LARGEST.get(name))
        )
    return settings
