"""The launches' nonces in the database: shared by every app server, kept over restarts, each taken once.

pylti1p3 keeps a login's nonce in its session service until the launch brings it back. The
Flask session would lose it in a browser that blocks the platform's frame's cookies, and a
process's memory would lose it on another app server, so the nonce is a row. Checking a
nonce deletes its row: the same launch sent again finds none and is refused as a replay.
The state travels in pylti1p3's own cookie (SameSite=None; Secure; Partitioned over HTTPS).
Nothing else of a launch is stored: its claims (names, e-mail addresses) are used once and dropped.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from pylti1p3.launch_data_storage.base import LaunchDataStorage
from pylti1p3.session import SessionService
from sqlalchemy import delete
from sqlalchemy.orm import Session

from tutor.models import LtiNonce

#: How long a platform may take between the login and the launch (its sign-in page included).
NONCE_LIFETIME = timedelta(minutes=10)


class NonceStorage(LaunchDataStorage):
    """pylti1p3's launch data storage with rows of :class:`LtiNonce`; it holds nonces and nothing else.

    No session cookie: a nonce is random and used once, so it needs no browser to be found by.
    """

    _session_cookie_name = None

    def __init__(self, db: Session, now: datetime) -> None:
        super().__init__()
        self.db, self.now = db, now

    def can_set_keys_expiration(self) -> bool:
        return True

    def set_value(self, key: str, value, exp: int | None = None) -> None:
        self.db.execute(delete(LtiNonce).where(LtiNonce.expires_at < self.now))  # the ones never brought back
        lifetime = timedelta(seconds=exp) if exp else NONCE_LIFETIME
        self.db.add(LtiNonce(key=self._prepare_key(key)[:200], expires_at=self.now + lifetime))
        self.db.flush()

    def get_value(self, key: str):
        raise NotImplementedError("only nonces are stored, and they are taken, not read")

    def check_value(self, key: str) -> bool:
        return self.take_value(key)

    def take_value(self, key: str) -> bool:
        """Delete the key's row; True when it was there and not expired (one app server wins a race)."""
        gone = self.db.execute(
            delete(LtiNonce).where(LtiNonce.key == self._prepare_key(key)[:200], LtiNonce.expires_at >= self.now)
        )
        return gone.rowcount == 1


class NonceService(SessionService):
    """pylti1p3's session service over :class:`NonceStorage`: saves a login's nonce, takes it back at the launch."""

    def __init__(self, db: Session, now: datetime) -> None:
        self.data_storage = NonceStorage(db, now)
        self._launch_data_lifetime = int(NONCE_LIFETIME.total_seconds())

    def check_nonce(self, nonce: str) -> bool:
        return self.data_storage.take_value(self._get_key("nonce", nonce))

    def check_state_is_valid(self, state: str, id_token_hash: str) -> bool:
        return False  # the state is checked against its cookie only: no launch is stored to match it again

    def save_state_params(self, state: str, params) -> None:
        raise NotImplementedError("no parameters are passed from the login to the launch")
