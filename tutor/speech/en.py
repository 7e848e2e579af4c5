"""English as a teacher says it: "twenty-seven", "three quarters", "seven times eight equals fifty-six"."""

from __future__ import annotations

import re

from num2words import num2words

from tutor.speech.reading import Speller

PARTS = {2: ("half", "halves"), 4: ("quarter", "quarters")}


def number(value: int) -> str:
    return num2words(value, lang="en")


def fraction(numerator: int, denominator: int) -> str:
    ordinal = re.sub(r"^one ", "", num2words(denominator, lang="en", to="ordinal"))
    one, many = PARTS.get(denominator, (ordinal, ordinal + "s"))
    return f"{number(numerator)} {one if numerator == 1 else many}"


SPELLER = Speller(
    locale="en",
    number=number,
    fraction=fraction,
    signs={
        "plus": "plus",
        "minus": "minus",
        "times": "times",
        "divide": "divided by",
        "equals": "equals",
        "less": "is less than",
        "greater": "is greater than",
        "at_most": "is less than or equal to",
        "at_least": "is greater than or equal to",
        "not_equal": "is not equal to",
        "about": "is about",
        "percent": "percent",
        "or": "or",
    },
    mixed="and",
    a_is_word=True,
    decimal_sign=".",
    decimal_word="point",
)
