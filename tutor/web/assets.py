"""What the browser downloads, and how: static files under content-hashed names, compressed pages, cache headers.

Templates link a static file with ``static_url("app.css")``, which names its content's hash
(``/static/app.1f3a9c0b2d4e.css``): browsers keep such a file for a year without asking again,
and a changed file gets a new name. Old un-hashed URLs still work, with a short cache. Each
static file is read, hashed and compressed (brotli and gzip) once per content and served
from memory; only a file's one normalised name finds it, so aliases cannot grow the cache or make
the server compress a file again. Pages and htmx fragments are gzipped per response when the browser accepts it.
Every page is personal (it carries the sign-in's CSRF token), so no cache may store one.
Each card's SVG is drawn once per process by the ``card_svg`` macro: a drawing depends only on
the card, its colour and the highlight, so drawing it again for every page was wasted work.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import re
import threading
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, Response, abort, current_app, request, url_for
from markupsafe import Markup
from werkzeug.security import safe_join

from tutor import gnav_deck, standard_deck
from tutor.web.i18n import current_locale

IMMUTABLE = "public, max-age=31536000, immutable"
SHORT_CACHE = "public, max-age=300"
PERSONAL = "no-store"
#: Compressing fewer bytes saves nothing: the gzip header and a packet are about that size.
MIN_COMPRESS_BYTES = 512
#: zlib's default level: about 0.3 ms for a 24 KB lesson page, an eighth of its size.
PAGE_GZIP_LEVEL = 6
COMPRESSIBLE = {
    "text/html",
    "text/css",
    "text/javascript",
    "application/javascript",
    "application/json",
    "image/svg+xml",
    "text/csv",
    "text/plain",
}
DIGEST_LENGTH = 12
HASHED_NAME = re.compile(rf"^(?P<stem>.+)\.(?P<digest>[0-9a-f]{{{DIGEST_LENGTH}}})(?P<suffix>\.[A-Za-z0-9]+)$")
_compressing = threading.Lock()
# A CSS string, or else a run of comments and white space.
CSS_NOISE = re.compile(r"(\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*')|(?:/\*.*?\*/|\s)+", re.S)


def minify_css(text: str) -> str:
    """The stylesheet without comments and with single spaces: a fifth fewer bytes after compression."""
    return CSS_NOISE.sub(lambda match: match.group(1) or " ", text).strip()


@dataclass
class Asset:
    """One static file as served: its body, the body's hash and its compressed forms (made on first request)."""

    body: bytes
    mimetype: str
    digest: str
    encoded: dict[str, bytes] | None = None

    def encodings(self) -> dict[str, bytes]:
        """Brotli and gzip bodies, in that order of preference, each only when it is smaller; made once per file."""
        if self.encoded is None:
            with _compressing:  # two threads asking at once for a new file compress it once
                if self.encoded is None:
                    self.encoded = self._compress()
        return self.encoded

    def _compress(self) -> dict[str, bytes]:
        packed = {}
        if self.mimetype in COMPRESSIBLE:
            import brotli  # here: only a static file's first request needs it

            packed = {"br": brotli.compress(self.body, quality=11), "gzip": gzip.compress(self.body, 9, mtime=0)}
        return {name: body for name, body in packed.items() if len(body) < len(self.body)}


def is_normalised(filename: str) -> bool:
    """A relative path in its one plain spelling: no empty, ``.`` or ``..`` part, no backslash or control character."""
    return (
        bool(filename)
        and all(part not in ("", ".", "..") for part in filename.split("/"))
        and not any(ord(ch) < 32 or ord(ch) == 127 or ch == "\\" for ch in filename)
    )


class StaticFiles:
    """The static folder's files, each read and hashed again only when its size or modification time changes."""

    def __init__(self, folder: str):
        self.folder = folder
        self._assets: dict[str, tuple[tuple[int, int], Asset]] = {}

    def get(self, filename: str) -> Asset | None:
        """The file under its one normalised name; an alias (``x/../app.css``, ``./app.css``, ``a//b``) is not found,
        so the cache holds one entry per file and no URL makes the server read or compress a file again."""
        if not is_normalised(filename):
            return None
        joined = safe_join(self.folder, filename)
        if joined is None:
            return None
        path = Path(joined)
        try:
            stat = path.stat()
        except OSError:
            return None
        version = (stat.st_mtime_ns, stat.st_size)
        cached = self._assets.get(filename)
        if cached and cached[0] == version:
            return cached[1]
        if not path.is_file():
            return None
        body = path.read_bytes()
        mimetype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        if mimetype == "text/css":
            body = minify_css(body.decode("utf-8")).encode("utf-8")
        asset = Asset(body, mimetype, hashlib.sha256(body).hexdigest()[:DIGEST_LENGTH])
        self._assets[filename] = (version, asset)
        return asset

    def hashed_name(self, filename: str) -> str:
        """``vendor/htmx.min.js`` as ``vendor/htmx.min.<hash>.js``; an unknown file keeps its name."""
        asset = self.get(filename)
        if asset is None or "." not in filename.rpartition("/")[2]:
            return filename
        stem, _, suffix = filename.rpartition(".")
        return f"{stem}.{asset.digest}.{suffix}"

    def find(self, filename: str) -> tuple[Asset, bool] | None:
        """The asset a static URL names, and whether the URL names its current content's hash."""
        asset = self.get(filename)
        if asset is not None:
            return asset, False
        named = HASHED_NAME.match(filename)
        asset = named and self.get(named["stem"] + named["suffix"])
        return (asset, named["digest"] == asset.digest) if asset else None


def static_url(filename: str) -> str:
    """The URL of a static file under its content's hash, for templates."""
    return url_for("static", filename=current_app.extensions["static_files"].hashed_name(filename))


def serve_static(filename: str) -> Response:
    """A static file from memory, compressed as the browser accepts; immutable when the URL names its hash."""
    found = current_app.extensions["static_files"].find(filename)
    if found is None:
        abort(404)
    asset, current = found
    encodings = asset.encodings()
    encoding = next((name for name in encodings if request.accept_encodings[name]), None)
    response = Response(encodings[encoding] if encoding else asset.body, mimetype=asset.mimetype)
    if encoding:
        response.headers["Content-Encoding"] = encoding
    if encodings:
        response.vary.add("Accept-Encoding")
    response.headers["Cache-Control"] = IMMUTABLE if current else SHORT_CACHE
    response.set_etag(f"{asset.digest}-{encoding or 'identity'}")
    return response.make_conditional(request)


def personal(response: Response) -> Response:
    """Keep every answer but a static file out of caches (a missing one too), unless its view said otherwise."""
    if request.endpoint != "static" or response.status_code >= 400:
        response.headers.setdefault("Cache-Control", PERSONAL)
    return response


def compress_page(response: Response) -> Response:
    """Gzip a page or fragment when the browser accepts it; say that responses vary by what it accepts."""
    if request.endpoint == "static" or response.mimetype not in COMPRESSIBLE:
        return response
    if response.direct_passthrough or response.is_streamed or "Content-Encoding" in response.headers:
        return response
    response.vary.add("Accept-Encoding")
    body = response.get_data()
    if len(body) < MIN_COMPRESS_BYTES or not request.accept_encodings["gzip"] or response.status_code in (204, 304):
        return response
    packed = gzip.compress(body, PAGE_GZIP_LEVEL, mtime=0)
    if len(packed) < len(body):
        response.set_data(packed)
        response.headers["Content-Encoding"] = "gzip"
    return response


def card_drawing(card, colours: dict, highlight: str = "") -> Markup:
    """A card's SVG (``card`` None: face down), drawn by the ``card_svg`` macro only the first time.

    A standard card has no colour (``card.colour`` is None) and is drawn the same in every copy
    of the deck, so all copies of the ace of hearts share the first copy's drawing; so do the
    two copies of each Gnav card.
    """
    app = current_app
    if card is not None and card.kind == "standard":
        card = standard_deck.card(card.id % standard_deck.COPY_SIZE)
    elif card is not None and card.kind == "gnav":
        card = gnav_deck.card(card.id % gnav_deck.face_count())
    key = (card, colours.get(card.colour) if card is not None else None, highlight)
    drawings = app.extensions["card_drawings"]
    drawing = drawings.get(key)
    if drawing is None:
        macro = app.jinja_env.get_template("macros/cards.html").module.card_svg
        drawing = macro(card, colours, highlight)
        if not app.jinja_env.auto_reload:  # a template being edited must show at once
            drawings[key] = drawing
    return drawing


def card_name(card, colours: dict) -> Markup:
    """A card's name for screen readers in the reader's language, put into words by the ``card_label`` macro only the
    first time in each language (a lesson step names a dozen cards)."""
    app = current_app
    key = (current_locale(), card, colours.get(card.colour) if card is not None else None)
    names = app.extensions["card_names"]
    name = names.get(key)
    if name is None:
        name = app.jinja_env.get_template("macros/cards.html").module.card_label(card, colours)
        if not app.jinja_env.auto_reload:  # a template being edited must show at once
            names[key] = name
    return name


def init_app(app: Flask) -> None:
    app.extensions["static_files"] = StaticFiles(app.static_folder)
    app.extensions["card_drawings"] = {}
    app.extensions["card_names"] = {}
    app.view_functions["static"] = serve_static
    app.jinja_env.globals.update(static_url=static_url, card_drawing=card_drawing, card_name=card_name)
    app.after_request(personal)
    app.after_request(compress_page)
