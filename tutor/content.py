"""Domain content kept as TOML data in ``content/``, and the Babel extractor for it.

Game names, rule texts, lesson narration, drill prompts, hints and misconception
feedback are data, not code. Their human-readable fields are English source text;
:func:`extract_toml` pulls them into the same ``.po`` catalogues as the code (with the
file path as the translator's comment), and the text is translated when shown.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from functools import lru_cache
from typing import Any, Iterator

from tutor import ROOT

CONTENT_DIR = ROOT / "content"

#: Keys whose string values (or lists of strings) are shown to people.
TRANSLATABLE_KEYS = frozenset(
    {"name", "title", "text", "prompt", "hints", "solution", "narration", "description", "label", "right", "wrong", "summary", "feedback", "rules"}
)
#: Tables whose every string value is shown to people (keyed by an id).
TRANSLATABLE_TABLES = frozenset({"misconceptions", "narration", "moves", "bots", "labels", "option_values"})


@lru_cache(maxsize=None)
def load(name: str) -> dict:
    """The parsed content file ``content/<name>.toml``."""
    with open(CONTENT_DIR / f"{name}.toml", "rb") as handle:
        return tomllib.load(handle)


@lru_cache(maxsize=None)
def drill_texts() -> dict:
    """Every drill question kind's texts, from all files in ``content/drills/``."""
    merged: dict = {}
    for path in sorted((CONTENT_DIR / "drills").glob("*.toml")):
        with open(path, "rb") as handle:
            for kind, entry in tomllib.load(handle).items():
                if kind in merged:
                    raise ValueError(f"question kind {kind!r} is defined twice ({path.name})")
                merged[kind] = entry
    return merged


def translatable_strings(data: Any, key: str = "", in_table: bool = False) -> Iterator[str]:
    """Every human-readable string in a parsed content file, in file order."""
    if isinstance(data, dict):
        for child_key, value in data.items():
            yield from translatable_strings(value, child_key, in_table or child_key in TRANSLATABLE_TABLES)
    elif isinstance(data, list):
        for item in data:
            yield from translatable_strings(item, key, in_table)
    elif isinstance(data, str) and (key in TRANSLATABLE_KEYS or in_table) and data.strip():
        yield data


def extract_toml(fileobj, keywords, comment_tags, options):
    """Babel extractor: yield (line, funcname, message, comments) for a content file."""
    raw = fileobj.read().decode("utf-8")
    data = tomllib.loads(raw)
    path = Path(getattr(fileobj, "name", "content"))
    path = path.relative_to(ROOT) if path.is_absolute() and path.is_relative_to(ROOT) else path
    lines = raw.splitlines()
    seen: set[str] = set()
    for message in translatable_strings(data):
        if message in seen:
            continue
        seen.add(message)
        needle = message.split("\n", 1)[0][:40]
        lineno = next((n for n, line in enumerate(lines, 1) if needle in line.replace('\\"', '"')), 1)
        yield lineno, None, message, [f"content: {path}"]
