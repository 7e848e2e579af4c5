"""Recorded speech for a device without a voice of its own: which clips say a sentence, and the clips themselves.

``kortmatte audio build`` records the clips into ``AUDIO_DIR`` (:mod:`tutor.speech.audio`); a
speaker button lists the URLs of its sentence's clips, and the page plays them in turn when the
device has no voice for its language. The clips are named by their content's hash, so a browser
keeps each for a year without asking again. Without a built library there are no clips, and
such a device shows no speaker buttons.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, request, url_for

from tutor.speech import SPELLERS, audio
from tutor.web.assets import IMMUTABLE

bp = Blueprint("audio", __name__)
CLIP_NAME = re.compile(rf"[0-9a-f]{{{audio.DIGEST_LENGTH}}}")


class Recordings:
    """The libraries of ``AUDIO_DIR`` by locale, read again when ``kortmatte audio build`` has rewritten one."""

    def __init__(self, directory: str):
        self.directory = Path(directory) if directory else None
        self._libraries: dict[str, tuple[int, audio.Library | None]] = {}
        self._reading = threading.Lock()

    def library(self, locale: str) -> audio.Library | None:
        if self.directory is None:
            return None
        path = audio.manifest_path(self.directory, locale)
        try:
            version = path.stat().st_mtime_ns
        except OSError:
            return None
        cached = self._libraries.get(locale)
        if cached is None or cached[0] != version:
            with self._reading:
                cached = (version, audio.load_library(self.directory, locale))
                self._libraries[locale] = cached
        return cached[1]

    def clip_urls(self, lines: list[str], locale: str) -> list[str]:
        """The URLs of the clips that say ``lines`` in turn; none when a line has a piece without a recording."""
        library = self.library(locale)
        if library is None:
            return []
        speller = SPELLERS[locale]
        clips = library.recording(piece for line in lines for piece in speller.pieces(line))
        return [url_for("audio.clip", digest=digest) for digest in clips or ()]


@bp.get("/audio/<digest>.opus")
def clip(digest: str):
    """One recorded clip, to be kept for good (its name is its content's hash)."""
    directory = current_app.config["AUDIO_DIR"]
    path = Path(directory) / f"{digest}.opus"
    if not directory or not CLIP_NAME.fullmatch(digest) or not path.is_file():
        abort(404)
    body = path.read_bytes()  # a clip is a few kilobytes
    response = Response(body, mimetype="audio/ogg")
    response.headers["Cache-Control"] = IMMUTABLE
    response.set_etag(digest)
    return response.make_conditional(request, accept_ranges=True, complete_length=len(body))


def init_app(app) -> None:
    app.extensions["recordings"] = Recordings(app.config["AUDIO_DIR"])
    app.register_blueprint(bp)
