"""The platforms' public key sets, kept in the database for a bounded time instead of fetched on every launch.

A launch's token names its signing key by ``kid``. A kept key set that is younger than
:data:`LIFETIME` and has that key answers at once; otherwise the set is fetched again and kept
(so a platform that rotated its key is seen at the first launch signed with the new one). The
rows are shared by every app server and survive restarts; they hold public keys only.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from tutor.accounts import as_utc
from tutor.models import LtiKeySetCache

LIFETIME = timedelta(hours=1)


def kept(db: Session, url: str, kid: str | None, now: datetime) -> dict | None:
    """The kept key set of ``url`` if it is fresh and has the key ``kid``; else None (fetch it)."""
    row = db.get(LtiKeySetCache, url)
    if row is None or now - as_utc(row.fetched_at) > LIFETIME:
        return None
    if not any(key.get("kid") == kid for key in (row.keys or {}).get("keys", [])):
        return None
    return row.keys


def keep(db: Session, url: str, keys: dict, now: datetime) -> None:
    """Keep a freshly fetched key set (another app server keeping it at the same moment is fine)."""
    if not isinstance(keys, dict) or len(url) > 1000:
        return
    try:
        with db.begin_nested():
            row = db.get(LtiKeySetCache, url)
            if row is None:
                db.add(LtiKeySetCache(url=url, keys=keys, fetched_at=now))
            else:
                row.keys, row.fetched_at = keys, now
    except IntegrityError:
        pass
