"""Configuration from the environment, with safe defaults for one machine.

``DATABASE_URL``: SQLAlchemy URL; default SQLite in the instance folder.
``SECRET_KEY``: signs sessions; when unset, one is generated once and kept in the
instance folder (several app servers behind one database must share one SECRET_KEY).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path


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


def from_environment(instance_path: str) -> dict:
    return {
        "DATABASE_URL": database_url(instance_path),
        "SECRET_KEY": os.environ.get("SECRET_KEY") or instance_secret(instance_path),
    }
