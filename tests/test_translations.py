"""The catalogues are complete: every text in code, templates and content is translated."""

from __future__ import annotations

import functools
import re

import pytest
from babel.messages.pofile import read_po

from tutor import ROOT, content
from tutor.cli import pybabel
from tutor.text import LOCALES, say

CATALOGUE_LOCALES = [locale for locale in LOCALES if locale != "en"]
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def content_files():
    """Every content file whose text a pupil reads."""
    games = sorted(path.stem for path in (ROOT / "content" / "games").glob("*.toml"))
    return (
        [content.load(name) for name in ("kids2_deck", "checks", "skills")]
        + [content.load(f"games/{game}") for game in games]
        + [content.drill_texts()]
    )


def catalogue(locale):
    with open(ROOT / "translations" / locale / "LC_MESSAGES" / "messages.po", "rb") as handle:
        return read_po(handle, locale=locale)


@pytest.fixture(scope="module")
def extracted(tmp_path_factory):
    """What `pybabel extract` finds in the code, templates and content right now."""
    pot = tmp_path_factory.mktemp("pot") / "messages.pot"
    pybabel("extract", pot)
    with open(pot, "rb") as handle:
        return {(message.context, message.id) for message in read_po(handle) if message.id}


@pytest.mark.parametrize("locale", CATALOGUE_LOCALES)
def test_no_entry_is_untranslated_or_fuzzy(locale):
    problems = []
    for message in catalogue(locale):
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(strings):
            problems.append(message.id)
    assert not problems, f"{locale}: {len(problems)} untranslated or fuzzy: {problems[:10]}"


@pytest.mark.parametrize("locale", CATALOGUE_LOCALES)
def test_every_extracted_text_is_in_the_catalogue(locale, extracted):
    ids = {
        (message.context, message.id) for message in catalogue(locale) if message.id
    }  # "Last round" with a context is another entry
    missing = sorted(f"{context}: {msgid}" if context else str(msgid) for context, msgid in extracted - ids)
    assert not missing, (
        f"{locale} lacks {len(missing)} texts (run `make translations` and translate them): {missing[:10]}"
    )


@pytest.mark.parametrize("locale", CATALOGUE_LOCALES)
def test_translations_keep_every_placeholder(locale):
    for message in catalogue(locale):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set(PLACEHOLDER.findall(" ".join(ids))) - {"num"}
        for string in strings:
            assert wanted <= set(PLACEHOLDER.findall(string)), f"{locale}: {message.id!r} -> {string!r}"


@pytest.mark.parametrize("locale", CATALOGUE_LOCALES)
def test_content_is_translated_when_read(locale):
    """Content reaches the pupil through the compiled catalogue (a translation may equal the
    English word, like Swedish "orange", so compare with the catalogue, not with the source)."""
    gettext = functools.partial(say, locale=locale)
    translated = {message.id: message.string for message in catalogue(locale) if message.id and message.string}
    for data in content_files():
        for text in content.translatable_strings(data):
            assert text in translated, f"{locale}: {text!r} is not in the catalogue"
            assert gettext(text) == translated[text], f"{locale}: {text!r} is not compiled"


def test_the_content_extractor_finds_the_colour_names_and_the_narration(extracted):
    ids = {msgid for _, msgid in extracted}
    assert {"purple", "blue", "green", "orange"} <= ids
    assert content.load("games/calculation-war")["narration"]["war"] in ids
