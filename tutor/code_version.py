"""A fingerprint of this code and its content: stored runs it wrote itself are trusted without checking them again.

A lesson run is checked through and through when it is read back (every move, question and
the game position), which costs more than the rest of loading it. A run this very code wrote
needs no such check: it was checked when it was read, or started fresh, and changed only by
this code since. Any other code (an older or newer release, an edited file) may have written
something this code refuses, so its runs are checked as before. The fingerprint is the hash
of every Python module of the package and every content file, worked out once per process.
"""

from __future__ import annotations

import functools
import hashlib

from tutor import ROOT

#: Stored with each run it writes (``lesson_run.written_by``): 16 hex digits of the hash.
LENGTH = 16


@functools.cache
def code_version() -> str:
    """This code's fingerprint: it changes with any change to a module or content file."""
    digest = hashlib.sha256()
    files = sorted((ROOT / "tutor").rglob("*.py")) + sorted((ROOT / "content").rglob("*.toml"))
    for path in files:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:LENGTH]
