"""Italian as a teacher says it: "ventisette", "tre quarti", "un mezzo", "sette per otto è uguale a cinquantasei".

num2words covers Italian numbers and ordinals; a fraction is the ordinal ("terzo"), plural in
"-i" ("due terzi"), with "mezzo" for the half and "un" for one. One before a counted noun agrees
with it ("una carta", "un gettone").
"""

from __future__ import annotations

from num2words import num2words

from tutor.speech.reading import Speller

#: The nouns a sentence counts, with the article-like form one takes before them ("una carta", "un gettone");
#: a plain count keeps "uno" ("Fase 1 di 5").
ONE_BEFORE = dict.fromkeys(("carta", "presa", "mano", "domanda", "risposta", "volta", "partita"), "una")
ONE_BEFORE |= dict.fromkeys(
    ("gettone", "punto", "secondo", "minuto", "turno", "giro", "giocatore", "alunno", "carattere"), "un"
)


def number(value: int) -> str:
    return num2words(value, lang="it")


def part(denominator: int) -> str:
    return "mezzo" if denominator == 2 else num2words(denominator, lang="it", to="ordinal")


def fraction(numerator: int, denominator: int) -> str:
    if numerator == 1:
        return f"un {part(denominator)}"
    return f"{number(numerator)} {part(denominator)[:-1]}i"


SPELLER = Speller(
    locale="it",
    number=number,
    fraction=fraction,
    signs={
        "plus": "più",
        "minus": "meno",
        "times": "per",
        "divide": "diviso",
        "equals": "è uguale a",
        "less": "è minore di",
        "greater": "è maggiore di",
        "at_most": "è minore o uguale a",
        "at_least": "è maggiore o uguale a",
        "not_equal": "è diverso da",
        "about": "è circa",
        "percent": "per cento",
        "or": "o",
    },
    mixed="e",
    a_is_word=True,
    decimal_sign=",",
    decimal_word="virgola",
    one_before=ONE_BEFORE,
)
