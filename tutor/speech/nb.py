"""Norwegian Bokmål as a teacher says it: "tjuesju", "tre firedeler", "sju ganger åtte er lik femtiseks".

num2words' Norwegian says "syv", "en hundre" and "en tusen"; the schools' current norm (LK20
textbooks) says "sju", and a teacher says "hundre", "tusen" and "ett hundre" inside a number.
Its ordinals are wrong for 13 ("trettførste"), so a fraction's denominator up to 20 is a word
of our own, and an ordinal beyond it gets the same corrections. One before a neuter noun is
"ett" ("ett kort", "tjueett poeng").
"""

from __future__ import annotations

import re

from num2words import num2words

from tutor.speech.reading import Speller

PARTS = {
    2: "halv",
    3: "tredjedel",
    4: "firedel",
    5: "femtedel",
    6: "sjettedel",
    7: "sjuendedel",
    8: "åttendedel",
    9: "niendedel",
    10: "tiendedel",
    11: "ellevtedel",
    12: "tolvtedel",
    13: "trettendedel",
    14: "fjortendedel",
    15: "femtendedel",
    16: "sekstendedel",
    17: "syttendedel",
    18: "attendedel",
    19: "nittendedel",
    20: "tjuendedel",
    100: "hundredel",
    1000: "tusendel",
}


#: Neuter nouns a sentence counts: one of them is "ett" ("ett kort", "tjueett poeng"); the others keep "en".
NEUTER_NOUNS = (
    "kort",
    "straffekort",
    "stikk",
    "poeng",
    "tegn",
    "år",
    "svar",
    "spill",
    "tall",
    "siffer",
    "sekund",
    "minutt",
    "forsøk",
    "spørsmål",
    "trekk",
    "steg",
    "bilde",
    "ord",
    "par",
)


def number(value: int) -> str:
    words = num2words(value, lang="no").replace("syv", "sju").replace("millard", "milliard")
    words = re.sub(r"^en (hundre|tusen)", r"\1", words)  # "hundre og en", "tusen"
    return re.sub(r"(?<= )en (hundre|tusen)", r"ett \1", words)  # "to tusen ett hundre"


def part(denominator: int) -> str:
    if denominator in PARTS:
        return PARTS[denominator]
    ordinal = num2words(denominator, lang="no", to="ordinal").replace("syv", "sju")
    return re.sub(r"^en ", "", ordinal) + "del"


def fraction(numerator: int, denominator: int) -> str:
    if numerator == 1:
        return f"en {part(denominator)}"
    plural = "halve" if denominator == 2 else part(denominator) + "er"
    return f"{number(numerator)} {plural}"


SPELLER = Speller(
    locale="nb",
    number=number,
    fraction=fraction,
    signs={
        "plus": "pluss",
        "minus": "minus",
        "times": "ganger",
        "divide": "delt på",
        "equals": "er lik",
        "less": "er mindre enn",
        "greater": "er større enn",
        "at_most": "er mindre enn eller lik",
        "at_least": "er større enn eller lik",
        "not_equal": "er ikke lik",
        "about": "er omtrent",
        "percent": "prosent",
        "or": "eller",
    },
    mixed="og",
    decimal_sign=",",
    decimal_word="komma",
    one_before=dict.fromkeys(NEUTER_NOUNS, "ett"),
)
