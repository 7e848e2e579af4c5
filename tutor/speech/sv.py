"""Swedish as a teacher says it: "tjugosju", "tre fjärdedelar", "3:ans tabell" as "treans tabell".

num2words' Swedish writes 40 "förtio" (it is "fyrtio"), "etttusen" with three t's (Swedish
drops one: "ettusen") and the ordinal of 20 as "tjugode" (it is "tjugonde"), so all three are
corrected; a fraction's denominator up to 20 is a word of our own. One before a common-gender
noun is "en" ("en spelmark"), the counting word "ett" elsewhere ("ett kort", "Runda ett").
"""

from __future__ import annotations

import re

from num2words import num2words

from tutor.speech.reading import Speller

PARTS = {
    2: "halv",
    3: "tredjedel",
    4: "fjärdedel",
    5: "femtedel",
    6: "sjättedel",
    7: "sjundedel",
    8: "åttondedel",
    9: "niondedel",
    10: "tiondedel",
    11: "elftedel",
    12: "tolftedel",
    13: "trettondedel",
    14: "fjortondedel",
    15: "femtondedel",
    16: "sextondedel",
    17: "sjuttondedel",
    18: "artondedel",
    19: "nittondedel",
    20: "tjugondel",
    100: "hundradel",
    1000: "tusendel",
}
#: A number with the ending "an" said as a noun: "3:an" is "trean", "3:ans tabell" "treans tabell".
NAMED = {1: "ettan", 2: "tvåan", 3: "trean", 4: "fyran", 5: "femman", 6: "sexan", 7: "sjuan", 8: "åttan"}
NAMED |= {9: "nian", 10: "tian", 11: "elvan", 12: "tolvan"}


#: Common-gender nouns a sentence counts: one of them is "en" ("en spelmark"), as the others keep the counting
#: word "ett" ("ett kort", "tjugoett kort").
COMMON_NOUNS = (
    "spelmark",
    "runda",
    "poäng",
    "sekund",
    "minut",
    "spelare",
    "elev",
    "fråga",
    "gång",
    "hand",
    "bild",
    "vecka",
    "dag",
    "tärning",
    "färg",
    "grupp",
    "läxa",
)


def number(value: int) -> str:
    return num2words(value, lang="sv").replace("förtio", "fyrtio").replace("ttt", "tt")


def part(denominator: int) -> str:
    if denominator in PARTS:
        return PARTS[denominator]
    ordinal = num2words(denominator, lang="sv", to="ordinal").replace("förtio", "fyrtio").replace("ttt", "tt")
    ordinal = re.sub(r"(tio|tjugo)de$", r"\1nde", ordinal)
    return re.sub(r"^ett(?=hundra|tusen)", "", ordinal) + "del"


def fraction(numerator: int, denominator: int) -> str:
    if numerator == 1:
        return f"en {part(denominator)}"
    plural = "halvor" if denominator == 2 else part(denominator) + "ar"
    return f"{number(numerator)} {plural}"


def named_number(value: int, ending: str) -> str:
    """ "3:ans" as "treans": the number's name with the rest of the written ending."""
    if value in NAMED and ending.startswith("an"):
        return NAMED[value] + ending[2:]
    return f"{number(value)}{ending}"


SPELLER = Speller(
    locale="sv",
    number=number,
    fraction=fraction,
    signs={
        "plus": "plus",
        "minus": "minus",
        "times": "gånger",
        "divide": "delat med",
        "equals": "är lika med",
        "less": "är mindre än",
        "greater": "är större än",
        "at_most": "är mindre än eller lika med",
        "at_least": "är större än eller lika med",
        "not_equal": "är inte lika med",
        "about": "är ungefär",
        "percent": "procent",
        "or": "eller",
    },
    mixed="och",
    decimal_sign=",",
    decimal_word="komma",
    named_number=named_number,
    one_before=dict.fromkeys(COMMON_NOUNS, "en"),
)
