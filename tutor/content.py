"""Domain content kept as TOML data in ``content/``, and the Babel extractor for it.

Game names, rule texts, lesson narration, drill prompts, hints and misconception
feedback are data, not code. Their human-readable fields are English source text;
:func:`extract_toml` pulls them into the same ``.po`` catalogues as the code (with the
file path as the translator's comment), and the text is translated when shown.

A text about a number of things has a singular and a plural form, written as a small
table with the field that counts: ``text.one = "... %(rounds)s round"``, ``text.other =
"... %(rounds)s rounds"``, ``text.count = "rounds"`` (see :func:`tutor.text.plural_forms`). A
comment line ``# Translators: ...`` right above a text reaches the translators, and so
does the file's ``[placeholders]`` table, which says what each ``%(field)s`` holds.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from tutor import ROOT
from tutor.text import COLOUR_ADJECTIVE, COLOUR_NOUN, plural_forms

CONTENT_DIR = ROOT / "content"
PLACEHOLDER = re.compile(r"%\((\w+)\)s")

#: Keys whose string values (or lists of strings) are shown to people.
TRANSLATABLE_KEYS = frozenset(
    {
        "name",
        "title",
        "text",
        "prompt",
        "hints",
        "solution",
        "narration",
        "description",
        "label",
        "right",
        "wrong",
        "summary",
        "feedback",
        "rules",
        "text_without_limit",
    }
)
#: Tables whose every string value is shown to people (keyed by an id).
TRANSLATABLE_TABLES = frozenset(
    {"misconceptions", "teacher_descriptions", "narration", "moves", "bots", "labels", "option_values"}
)
#: Tables for the translators only: what each ``%(field)s`` of the file's texts holds.
NOTES_TABLES = frozenset({"placeholders"})
#: The comment tag that brings a content file's comment line to the translators.
TRANSLATORS_TAG = "Translators:"


@cache
def load(name: str) -> dict:
    """The parsed content file ``content/<name>.toml``."""
    with open(CONTENT_DIR / f"{name}.toml", "rb") as handle:
        return tomllib.load(handle)


@cache
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
    """Every human-readable string in a parsed content file, in file order.

    Texts with a plural form come apart: :func:`translatable_plurals`.
    """
    if plural_forms(data):
        return
    if isinstance(data, dict):
        for child_key, value in data.items():
            if child_key not in NOTES_TABLES:
                yield from translatable_strings(value, child_key, in_table or child_key in TRANSLATABLE_TABLES)
    elif isinstance(data, list):
        for item in data:
            yield from translatable_strings(item, key, in_table)
    elif isinstance(data, str) and (key in TRANSLATABLE_KEYS or in_table) and data.strip():
        yield data


def translatable_plurals(data: Any) -> Iterator[tuple[str, str, str]]:
    """Every text with a plural form in a parsed content file, as (singular, plural, counting field)."""
    forms = plural_forms(data)
    if forms:
        yield forms
    elif isinstance(data, dict):
        for child_key, value in data.items():
            if child_key not in NOTES_TABLES:
                yield from translatable_plurals(value)
    elif isinstance(data, list):
        for item in data:
            yield from translatable_plurals(item)


def extract_toml(fileobj, keywords, comment_tags, options):
    """Babel extractor: yield (line, funcname, message, comments) for a content file.

    Texts with a plural form come as ``ngettext`` pairs, and the colours' names once more
    under each context they are said in (:data:`tutor.text.COLOUR_NOUN`, ``COLOUR_ADJECTIVE``).
    """
    raw = fileobj.read().decode("utf-8")
    data = tomllib.loads(raw)
    path = Path(getattr(fileobj, "name", "content"))
    path = path.relative_to(ROOT) if path.is_absolute() and path.is_relative_to(ROOT) else path
    lines = raw.splitlines()
    fields = data.get("placeholders", {})

    def found(message: str, *more: str) -> tuple[int, list[str]]:
        """The line of ``message`` and its comments: the file, a Translators: line above it, its fields."""
        first_line = message.split("\n", 1)[0]
        unescaped = [line.replace('\\"', '"') for line in lines]
        needles = (f'"{first_line}"', f'"{first_line}', first_line[:40])  # the whole quoted text first
        lineno = next((n for needle in needles for n, line in enumerate(unescaped, 1) if needle in line), 1)
        above = []
        for line in reversed(lines[: lineno - 1]):
            if not line.lstrip().startswith("#"):
                break
            above.insert(0, line.lstrip()[1:].strip())
        start = next((i for i, line in enumerate(above) if line.startswith(TRANSLATORS_TAG)), len(above))
        used = dict.fromkeys(PLACEHOLDER.findall(" ".join((message, *more))))
        notes = [f"{TRANSLATORS_TAG} %({name})s is {fields[name]}" for name in used if name in fields]
        return lineno, [f"content: {path}", *above[start:], *notes]

    seen: set = set()
    for message in translatable_strings(data):
        if message not in seen:
            seen.add(message)
            lineno, comments = found(message)
            yield lineno, None, message, comments
    for singular, plural, _ in translatable_plurals(data):
        if (singular, plural) not in seen:
            seen.add((singular, plural))
            lineno, comments = found(singular, plural)
            yield lineno, "ngettext", (singular, plural), comments
    for colour in data.get("colours", []):
        lineno, comments = found(colour["name"])
        for context in (COLOUR_NOUN, COLOUR_ADJECTIVE):
            yield lineno, "pgettext", (context, colour["name"]), comments
