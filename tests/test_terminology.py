"""The catalogues say one term for one concept, as the schools say it (content/terminology.toml).

For every catalogue entry whose English has a concept's term, the translation must have one of
the words the table requires, and none of the words it keeps for another concept; no translation
anywhere may have a word the table forbids. docs/translating.md explains the table.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache

import pytest
from babel.messages.pofile import read_po

from tutor import ROOT, signs

LOCALES = ("nb", "sv", "it")
TABLE = ROOT / "content" / "terminology.toml"
PLACEHOLDER = re.compile(r"%\(\w+\)s")
GAP = r"(?:\s+\S+){0,4}?\s+"  # what "…" in a term stands for: up to four words


def term_pattern(term: str) -> re.Pattern:
    """A term of the table as a regular expression (the syntax is described in the table's header)."""
    if term.startswith("re:"):
        return re.compile(term[3:], re.IGNORECASE)

    def word(text: str) -> str:
        return (
            (r"\w*" if text.startswith("*") else "")
            + re.escape(text.strip("*"))
            + (r"\w*" if text.endswith("*") else "")
        )

    body = GAP.join(r"\s+".join(word(w) for w in part.split()) for part in term.split("…"))
    left = r"(?<!\w)" if re.match(r"\w", term) else ""
    right = r"(?!\w)" if re.search(r"\w$", term) else ""
    return re.compile(left + body + right, re.IGNORECASE)


@dataclass(frozen=True)
class Concept:
    id: str
    english: tuple[re.Pattern, ...]
    other_senses: tuple[re.Pattern, ...]
    use: dict  # locale -> patterns the translation needs one of
    avoid: dict  # locale -> patterns never allowed
    not_here: dict  # locale -> patterns not allowed where this concept is meant

    def in_english(self, text: str) -> bool:
        for phrase in self.other_senses:
            text = phrase.sub(" ", text)
        return any(pattern.search(text) for pattern in self.english)


@cache
def table() -> dict:
    with open(TABLE, "rb") as handle:
        return tomllib.load(handle)


@cache
def concepts() -> tuple[Concept, ...]:
    def patterns(entry, locale, key):
        return tuple(term_pattern(term) for term in entry.get(locale, {}).get(key, []))

    return tuple(
        Concept(
            id=entry["id"],
            english=tuple(term_pattern(term) for term in entry["en"]),
            other_senses=tuple(re.compile(re.escape(phrase), re.IGNORECASE) for phrase in entry.get("en_other", [])),
            use={locale: patterns(entry, locale, "use") for locale in LOCALES},
            avoid={locale: patterns(entry, locale, "avoid") for locale in LOCALES},
            not_here={locale: patterns(entry, locale, "not_here") for locale in LOCALES},
        )
        for entry in table()["concept"]
    )


def masked(text: str) -> str:
    """The text with every %(placeholder)s as "<>", so a field's name is never read as a word."""
    return PLACEHOLDER.sub("<>", text)


@cache
def entries(locale: str) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """(msgid as written in the catalogue, English to match, each translated form) for every entry."""
    with open(ROOT / "translations" / locale / "LC_MESSAGES" / "messages.po", "rb") as handle:
        catalogue = read_po(handle, locale=locale)
    found = []
    for message in catalogue:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        found.append((ids[0], masked(" || ".join(ids)), tuple(masked(s) for s in strings if s)))
    return tuple(found)


@cache
def problems(locale: str) -> tuple[tuple[str, str, str], ...]:
    """Every (concept id, msgid, what is wrong) in one catalogue, before exceptions."""
    found = []
    for msgid, english, strings in entries(locale):
        meant = [concept for concept in concepts() if concept.in_english(english)]
        for string in strings:
            allowed = [m.span() for c in meant for p in c.use[locale] for m in p.finditer(string)]
            for concept in meant:
                if not any(pattern.search(string) for pattern in concept.use[locale]):
                    found.append(
                        (concept.id, msgid, f"needs one of {[p.pattern for p in concept.use[locale]]}: {string!r}")
                    )
                for pattern in concept.not_here[locale]:
                    for match in pattern.finditer(string):
                        if not any(start < match.end() and match.start() < end for start, end in allowed):
                            found.append(
                                (concept.id, msgid, f"{match.group()!r} is another concept's word here: {string!r}")
                            )
            for concept in concepts():
                for pattern in concept.avoid[locale]:
                    if match := pattern.search(string):
                        found.append((concept.id, msgid, f"{match.group()!r} is forbidden: {string!r}"))
    return tuple(found)


def exceptions(locale: str) -> set[tuple[str, str]]:
    return {(e["concept"], e["msgid"]) for e in table().get("exception", []) if e["locale"] == locale}


@pytest.mark.parametrize("locale", LOCALES)
def test_every_catalogue_entry_uses_the_terms_of_the_table(locale):
    excused = exceptions(locale)
    found = [
        f"{concept} in {msgid!r}: {what}"
        for concept, msgid, what in problems(locale)
        if (concept, msgid) not in excused
    ]
    assert not found, f"{locale}: {len(found)} entries break content/terminology.toml:\n" + "\n".join(found[:25])


@pytest.mark.parametrize("locale", LOCALES)
def test_every_exception_still_excuses_something(locale):
    needed = {(concept, msgid) for concept, msgid, _ in problems(locale)}
    stale = exceptions(locale) - needed
    assert not stale, (
        f"{locale}: these exceptions in content/terminology.toml excuse nothing now, remove them: {sorted(stale)}"
    )


def test_the_table_is_complete_and_consistent():
    """Every concept names its English terms and a required word per language; none is both required and forbidden."""
    ids = [entry["id"] for entry in table()["concept"]]
    assert len(ids) == len(set(ids)), "a concept id is used twice"
    for entry in table()["concept"]:
        assert entry["en"], entry["id"]
        for locale in LOCALES:
            words = entry.get(locale, {})
            assert words.get("use"), f"{entry['id']}: no required word for {locale}"
    for locale in LOCALES:
        required = {term.lower() for entry in table()["concept"] for term in entry.get(locale, {}).get("use", [])}
        forbidden = {term.lower() for entry in table()["concept"] for term in entry.get(locale, {}).get("avoid", [])}
        assert not required & forbidden, f"{locale}: both required and forbidden: {required & forbidden}"
    known = set(ids)
    for exception in table().get("exception", []):
        assert exception["concept"] in known and exception["locale"] in LOCALES and exception["reason"].strip(), (
            exception
        )


def test_the_table_writes_the_signs_as_the_pages_do():
    """The operator signs of the table are the ones tutor/signs.py writes into the pages."""
    words = {entry["id"]: entry for entry in table()["concept"]}
    for locale in LOCALES:
        written = signs.signs(locale)
        assert words["times_sign"][locale]["use"] == [written["times"]], locale
        assert words["divided_by_sign"][locale]["use"] == [written["divide"]], locale


def test_the_term_syntax_reads_as_the_table_says():
    assert term_pattern("tur").search("Din tur") and not term_pattern("tur").search("Turene")
    assert term_pattern("brøk*").search("brøkdelen") and not term_pattern("brøk*").search("tallbrøk")
    assert term_pattern("*bord*").search("Kortbordet")
    assert term_pattern("take … away").search("Take the smaller number away from it")
    assert not term_pattern("take … away").search("take one card, then two more cards, and then away")
    assert term_pattern("·").search("3 · 4") and term_pattern("turn <>").search(masked("Turn %(n)s of %(total)s"))
    round_ = next(concept for concept in concepts() if concept.id == "round")
    assert round_.in_english("Round %(n)s") and not round_.in_english("Round each value to the nearest ten.")


@pytest.mark.parametrize("locale", LOCALES)
def test_the_rules_page_shows_the_name_printed_on_the_cards(client, locale):
    """A game with a native name shows the deck's printed (English) name beside it, so a pupil holding the cards knows
    the game."""
    client.post("/language", data={"locale": locale})
    page = client.get("/games/multimatch/rules").get_data(as_text=True)
    native = next(entry[locale]["use"][0] for entry in table()["concept"] if entry["id"] == "game_multimatch")
    assert native in page and "MultiMatch" in page


def test_the_rules_page_shows_no_second_name_when_the_names_are_the_same(client):
    client.post("/language", data={"locale": "en"})
    page = client.get("/games/multimatch/rules").get_data(as_text=True)
    assert "MultiMatch" in page and "On the cards" not in page
