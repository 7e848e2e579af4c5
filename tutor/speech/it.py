"""Italian as a teacher says it: "ventisette", "tre quarti", "un mezzo", "sette per otto è uguale a cinquantasei".

num2words covers Italian numbers and ordinals; a fraction is the ordinal ("terzo"), plural in
"-i" ("due terzi"), with "mezzo" for the half and "un" for one. One before a counted noun agrees
with it ("una carta", "un gettone"); a count ending in "-uno" drops its "o" before the plural noun
it counts, as a teacher says "ventun carte", "trentun punti".
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

#: The plural nouns a sentence counts: "ventuno" before them is said "ventun" ("ventun carte", "trentun gettoni").
PLURAL_NOUNS = frozenset(
    ("carte", "prese", "mani", "domande", "risposte", "volte", "partite", "gettoni", "punti", "secondi")
    + ("minuti", "turni", "giri", "giocatori", "alunni", "caratteri", "anni", "giorni")
)


def number(value: int) -> str:
    return num2words(value, lang="it")


def part(denominator: int) -> str:
    return "mezzo" if denominator == 2 else num2words(denominator, lang="it", to="ordinal")


def fraction(numerator: int, denominator: int) -> str:
    if numerator == 1:
        return f"un {part(denominator)}"
    return f"{number(numerator)} {part(denominator)[:-1]}i"


def before_noun(value: int, words: str, noun: str) -> str:
    """ "ventun carte": a count of 21, 31, ... 91 (also in "centoventun") loses its last "o" before a plural noun;
    "centouno" and "milleuno" keep it."""
    if noun in PLURAL_NOUNS and value % 10 == 1 and value % 100 > 20:
        return words.removesuffix("o")
    return words


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
    before_noun=before_noun,
)
