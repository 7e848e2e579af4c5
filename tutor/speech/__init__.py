"""What a page says, as a teacher would read it aloud: the speakable form of a rendered sentence.

A child who cannot read yet hears the lesson's texts (issue 28). A speech synthesiser reads
"27 + 3/4" badly or in the wrong language, so each locale has a speller (:mod:`tutor.speech.en`,
``nb``, ``sv``, ``it``) that turns the text a page shows into words: numbers, fractions, mixed
numbers, decimals, signs, percentages and cards. The tokenizer (:mod:`tutor.speech.reading`)
reads the rendered string; nothing is evaluated.
"""

from __future__ import annotations

from tutor.signs import language
from tutor.speech import en, it, nb, sv
from tutor.speech.reading import Speller

SPELLERS: dict[str, Speller] = {speller.SPELLER.locale: speller.SPELLER for speller in (en, nb, sv, it)}


def speakable(text: str, locale: str) -> str:
    """``text`` as shown to a reader of ``locale``, with its numbers, signs and cards in words."""
    return SPELLERS[language(locale)].speakable(text)
