"""How a speller reads a rendered sentence: a tokenizer for numbers, fractions, signs and cards.

The input is the text a page shows in a locale (:func:`tutor.text.say`'s output), so the
tokens are the ones :mod:`tutor.signs` writes: whole numbers, decimals with the locale's sign,
fractions "3/4" and mixed numbers "35 1/4", the minus sign "−" (or a typed "-"), the signs of
a calculation and of a comparison, percentages, and cards as a text writes them ("Q♥", "10♠",
"🃏", a bare rank letter in a list). Nothing here evaluates anything: a token becomes words, and
the words stand where the token stood.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from tutor.standard_deck import JOKER_SIGN, SUIT_SYMBOLS
from tutor.text import N_, NC_, Text, say

#: Longer numbers are read digit by digit (a code, not an amount).
LONGEST_NUMBER = 12
#: A fraction's denominator up to this (and 1000) is said as a part ("fem trettiendedeler"), a larger one divides.
LARGEST_PART = 100
SUIT_WORDS = {
    symbol: NC_("card suit", name)
    for symbol, name in zip(SUIT_SYMBOLS.values(), ("clubs", "diamonds", "hearts", "spades"))
}
RANK_WORDS = {
    "A": NC_("card rank", "ace"),
    "K": NC_("card rank", "king"),
    "Q": NC_("card rank", "queen"),
    "J": NC_("card rank", "jack"),
}
JOKER_NAME = NC_("card name", "joker")
# The card's name that screen readers read (templates/macros/standard_cards.html tells translators its fields).
CARD_NAME = N_("%(rank)s of %(suit)s")
#: The signs a speller turns into words; a sentence's speakable form holds none of them (nor a digit).
SIGNS = "+−·×÷=<>≤≥≠≈%*"
SIGN_NAMES = {
    "+": "plus",
    "−": "minus",
    "-": "minus",
    "·": "times",
    "×": "times",
    "*": "times",
    "x": "times",
    "X": "times",
    "÷": "divide",
    ":": "divide",
    "/": "divide",
    "=": "equals",
    "<": "less",
    ">": "greater",
    "≤": "at_most",
    "≥": "at_least",
    "≠": "not_equal",
    "≈": "about",
}
#: Words of another sign: "/" between two words ("odd/even") is said "or".
EITHER = "or"
SUITS = "".join(SUIT_SYMBOLS.values())

#: A listing of operator signs, as a rule names them ("Use + - x / and brackets", "+ − · :").
OPERATOR = r"[+\-−xX×*·/:÷]"
TOKEN = re.compile(
    rf"(?<![^\s(])(?P<listing>{OPERATOR}(?: {OPERATOR})+)(?![^\s).,;])"
    rf"|(?P<card>(?<!\w)(?:10|[2-9]|[AKQJ])[{SUITS}])\ufe0f?"
    rf"|(?P<suit>[{SUITS}])\ufe0f?"
    rf"|(?P<joker>{JOKER_SIGN})"
    r"|(?<!\w)(?P<named>\d+):(?P<ending>[a-zåäö]+)\b"  # Swedish "3:ans tabell"
    r"|(?<![\w/,.])(?P<whole>\d+) (?P<over>\d+)/(?P<under>\d+)(?![\w/])"
    r"|(?<![\w/])(?P<numerator>\d+)/(?P<denominator>\d+)(?![\w/])"
    r"|(?<!\w)(?P<integer>\d+)(?P<separator>[.,])(?P<decimals>\d+)(?!\w)"
    r"|(?P<number>\d+)"
    r"|(?P<percent>%)"
    r"|(?<=\d)(?P<ratio> : |:)(?=[\d−-])"  # divide between two numbers, not a label's colon ("Fase 1: 3 kort")
    r"|(?<=[\d)])(?P<between> ?[xX] ?| / )(?=[\d(−-])"  # times or divide, only between two terms
    r"|(?P<hyphen>(?<![^\s(\d=<>≤≥≠≈+·×÷*])-(?=[\s\d(]))"  # a typed minus, not a word's hyphen
    r"|(?P<sign>[+−·×÷=<>≤≥≠≈*])"
    r"|(?<=[^\W\d_])(?P<either>/)(?=[^\W\d_])"  # "odd/even": said "odd or even"
    r"|(?<![\w'’])(?P<rank>[AKQJ])(?![\w'’])"
)


@dataclass(frozen=True)
class Speller:
    """One locale's words for what a page writes with digits and signs."""

    locale: str
    #: A whole number 0 to 10**LONGEST_NUMBER - 1 in words.
    number: Callable[[int], str]
    #: A fraction's numerator and denominator in words ("tre firedeler"), the numerator above 0.
    fraction: Callable[[int, int], str]
    #: The words for the signs of :data:`SIGN_NAMES` by name, and "percent".
    signs: dict[str, str]
    #: What joins a mixed number's whole and its fraction ("og": "to og en halv").
    mixed: str
    #: The decimal sign the locale writes and its word ("," said "komma").
    decimal_sign: str
    decimal_word: str
    #: "A" before a word is a word of the language ("A card", "A te tocca"), not an ace.
    a_is_word: bool = False
    #: A number with a written ending ("3:ans" in Swedish) said as a word; None where the locale has none.
    named_number: Callable[[int, str], str] | None = None
    #: The word for one before a noun whose gender wants another than :attr:`number`'s (Norwegian "ett kort",
    #: Swedish "en spelmark"), by the noun as a sentence writes it after the count.
    one_before: dict[str, str] = field(default_factory=dict)
    #: How a count's words change before the noun it counts (Italian "ventun carte"): given the value, its
    #: words and the noun, the words to say; None where the locale changes nothing.
    before_noun: Callable[[int, str, str], str] | None = None
    digits: tuple[str, ...] = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "digits", tuple(self.number(digit) for digit in range(10)))

    def whole(self, text: str) -> str:
        """A run of digits in words: an amount, or digit by digit when it is a code ("007", a long number)."""
        if len(text) > LONGEST_NUMBER or (len(text) > 1 and text.startswith("0")):
            return " ".join(self.digits[int(digit)] for digit in text)
        return self.number(int(text))

    def card(self, rank: str, suit: str | None) -> str:
        rank_words = say(Text.in_context(RANK_WORDS[rank]), self.locale) if rank in RANK_WORDS else self.whole(rank)
        if suit is None:
            return rank_words
        return say(
            Text(CARD_NAME, {"rank": rank_words, "suit": say(Text.in_context(SUIT_WORDS[suit]), self.locale)}),
            self.locale,
        )

    def read(self, match: re.Match) -> str:
        """The words for one token of :data:`TOKEN`."""
        found = match.lastgroup
        group = match.group
        if group("listing"):
            return ", ".join(self.signs[SIGN_NAMES[sign]] for sign in group("listing").split())
        if group("either"):
            return f" {self.signs[EITHER]} "
        if group("card"):
            token = group("card")
            return self.card(token[:-1], token[-1])
        if group("suit"):
            return say(Text.in_context(SUIT_WORDS[group("suit")]), self.locale)
        if group("joker"):
            return say(Text.in_context(JOKER_NAME), self.locale)
        if group("named"):
            if self.named_number:
                return self.named_number(int(group("named")), group("ending"))
            return f"{self.whole(group('named'))}:{group('ending')}"
        if group("whole"):
            over, under = int(group("over")), int(group("under"))
            if 0 < over < under:
                return f"{self.whole(group('whole'))} {self.mixed} {self.fraction(over, under)}"
            return f"{self.whole(group('whole'))} {self.ratio(group('over'), group('under'))}"
        if group("numerator"):
            return self.ratio(group("numerator"), group("denominator"))
        if group("integer"):
            if group("separator") != self.decimal_sign:  # "3,5" in English: two numbers
                return f"{self.whole(group('integer'))}{group('separator')} {self.whole(group('decimals'))}"
            decimals = " ".join(self.digits[int(digit)] for digit in group("decimals"))
            return f"{self.whole(group('integer'))} {self.decimal_word} {decimals}"
        if group("number"):
            return self.count(group("number"), match.string[match.end() :])
        if group("percent"):
            return f" {self.signs['percent']}"
        if found in ("ratio", "between"):
            return f" {self.signs[SIGN_NAMES[group(found).strip()]]} "
        if group("hyphen"):
            return f" {self.signs['minus']} "
        if group("sign"):
            return f" {self.signs[SIGN_NAMES[group('sign')]]} "
        if group("rank") == "A" and self.a_is_word and re.match(r" [^\W\d_]", match.string[match.end() :]):
            return "A"
        return self.card(group("rank"), None)

    def count(self, digits: str, after: str) -> str:
        """A whole number in words, its last "one" agreeing with the noun it counts ("ett kort", "tjueett kort")."""
        words = self.whole(digits)
        noun = re.match(r" ([^\W\d_]+)", after)
        value = int(digits)
        if not noun or words != self.number(value):
            return words
        one = self.one_before.get(noun.group(1).lower())
        if one and value % 10 == 1 and value % 100 != 11:
            return words.removesuffix(self.digits[1]) + one
        return self.before_noun(value, words, noun.group(1).lower()) if self.before_noun else words

    def ratio(self, numerator: str, denominator: str) -> str:
        """A fraction as said in school; a zero numerator, a denominator of 0 or 1 or a large one divides."""
        if int(numerator) == 0 or not (1 < int(denominator) <= LARGEST_PART or int(denominator) == 1000):
            return f"{self.whole(numerator)} {self.signs['divide']} {self.whole(denominator)}"
        return self.fraction(int(numerator), int(denominator))

    def speakable(self, text: str) -> str:
        """``text`` as a teacher would say it: every number, fraction, sign and card in words."""
        return tidy(TOKEN.sub(self.read, text))

    def pieces(self, text: str) -> list[str]:
        """:meth:`speakable` in the pieces a recording is stitched from (:mod:`tutor.speech.audio`): the words
        between the numbers, signs and cards, and the words of each of them, in order."""
        pieces, start = [], 0
        for match in TOKEN.finditer(text):
            pieces += [text[start : match.start()], self.read(match)]
            start = match.end()
        pieces.append(text[start:])
        return [piece for piece in map(tidy, pieces) if piece]


def tidy(spoken: str) -> str:
    """Spoken words with single spaces and no space before a punctuation mark."""
    spoken = re.sub(r"[ \t]{2,}", " ", spoken)
    spoken = re.sub(r" ([,.;:!?)])", r"\1", spoken)
    return re.sub(r"\( ", "(", spoken).strip()
