"""How each locale's schools write numbers and operators: the one place that knows.

Norwegian and Italian schools divide with ":" (many Norwegians read "÷" as minus), and
Norwegian schools multiply with "·"; English and Swedish pages keep "×" and "÷". The minus
sign is "−" (U+2212) everywhere, and the decimal sign is the locale's own.

Texts are stored before anyone knows who will read them, so a calculation that sits in
a text's fields travels as locale-free data, a *maths* field (``{"maths": "formula", ...}``
or ``"signs"``, plain JSON), and is written in the reader's signs only when the text is
spelt (:func:`tutor.text.spell` calls :func:`write`). Translators never write an operator
sign: a message says "%(fact)s", not "%(a)s × %(b)s = %(product)s". A typing hint's field
is marked :func:`typed` and written in the keys a pupil of the locale types ("+ - * :" in Norwegian).

Every number a pupil reads goes through :func:`format_number`, by one of three forms,
which the question states (``Question.number_form``):

- ``decimal``: a short terminating decimal in the locale's notation ("3,5"), else a
  fraction ("7/3");
- ``fraction``: a fraction ("7/2", "−58/311");
- ``mixed``: a mixed number ("35 1/4"), a proper fraction below 1 ("3/4").

Whole numbers are whole numbers in every form, and a fraction or a mixed number is written
alike in every locale (:func:`fraction_text`). What a pupil typed is read back in the
pupil's own form instead (:mod:`tutor.answers`). Fractions stay "a/b" on one line here;
the lesson page draws them stacked where the lesson asks for it.
"""

from __future__ import annotations

import re
from fractions import Fraction

DECIMAL, FRACTION, MIXED = "decimal", "fraction", "mixed"
FORMS = (DECIMAL, FRACTION, MIXED)
MINUS = "\u2212"

_WRITTEN = {
    "en": {"plus": "+", "minus": MINUS, "times": "×", "divide": "÷"},
    "sv": {"plus": "+", "minus": MINUS, "times": "×", "divide": "÷"},
    "nb": {"plus": "+", "minus": MINUS, "times": "·", "divide": ":"},
    "it": {"plus": "+", "minus": MINUS, "times": "×", "divide": ":"},
}
# What a pupil types for them on a keyboard: "·" is on none, and Norwegian pupils meet x as the unknown.
_TYPED = {
    "en": {"plus": "+", "minus": "-", "times": "x", "divide": "/"},
    "sv": {"plus": "+", "minus": "-", "times": "x", "divide": "/"},
    "nb": {"plus": "+", "minus": "-", "times": "*", "divide": ":"},
    "it": {"plus": "+", "minus": "-", "times": "x", "divide": ":"},
}
_DECIMAL_COMMA = {"nb", "sv", "it"}
#: A decimal is written only while it re-reads under the answer grammar's default digit limit.
_DECIMAL_DIGITS = 12

#: Operators of a stored formula (plain ASCII, "/" divides) and the sign each one is written with.
_OPERATOR_NAMES = {"+": "plus", "-": "minus", "*": "times", "/": "divide"}
_RELATIONS = ("=", "≈", "<", "≤", ">", "≥")
_SEPARATORS = (",", ";")  # between calculations in a listing: "7 × 8 = 56; 6 × 9 = 54"
_PLAIN_TOKEN = re.compile(r"\s*(\d*[.,]?\d+|[-+*/()xX:]|[=≈<≤>≥])")
_PLAIN_ALIASES = {"x": "*", "X": "*", ":": "/"}  # as a pupil may have typed them (a stored TripleSmart move)


def language(locale: str) -> str:
    """The language part of a locale ("nb_NO" -> "nb"); an unknown one writes like English."""
    code = str(locale or "").replace("-", "_").split("_")[0].lower()
    return code if code in _WRITTEN else "en"


def signs(locale: str) -> dict[str, str]:
    """The signs a locale's schools write: {"plus", "minus", "times", "divide"}."""
    return dict(_WRITTEN[language(locale)])


def typed_signs(locale: str) -> dict[str, str]:
    """The keyboard signs we suggest a pupil of ``locale`` types (the answer grammar reads them all)."""
    return dict(_TYPED[language(locale)])


def decimal_sign(locale: str) -> str:
    return "," if language(locale) in _DECIMAL_COMMA else "."


def _parts(value) -> tuple[int, int]:
    if isinstance(value, bool) or isinstance(value, float):
        raise TypeError(f"an exact rational number is needed, not {type(value).__name__}")
    if isinstance(value, (int, Fraction)):
        return value.numerator, value.denominator
    if isinstance(value, str):
        fraction = Fraction(value.replace(MINUS, "-"))
        return fraction.numerator, fraction.denominator
    numerator, denominator = getattr(value, "p", None), getattr(value, "q", None)  # a sympy Rational
    if isinstance(numerator, int) and isinstance(denominator, int) and getattr(value, "is_Rational", False):
        return numerator, denominator
    raise TypeError(f"an exact rational number is needed, not {type(value).__name__}")


def format_number(value, locale: str, form: str = DECIMAL) -> str:
    """An exact number for a reader of ``locale``, written by ``form``; never rounded.

    ``value`` is an int, a Fraction, a sympy Rational or stored text ("-7/2").
    """
    if form not in FORMS:
        raise ValueError(f"unknown number form {form!r}")
    p, q = _parts(value)
    sign, p = (MINUS if p < 0 else ""), abs(p)
    if q == 1:
        return f"{sign}{p}"
    if form == DECIMAL:
        rest, places = q, 0
        for prime in (2, 5):
            count = 0
            while rest % prime == 0:
                rest, count = rest // prime, count + 1
            places = max(places, count)
        if rest == 1 and len(str(p // q)) + places <= _DECIMAL_DIGITS:
            whole, decimals = divmod(p * 10**places // q, 10**places)
            return f"{sign}{whole}{decimal_sign(locale)}{decimals:0{places}d}"
    if form == MIXED and p > q:
        whole, rest = divmod(p, q)
        return f"{sign}{whole} {rest}/{q}"
    return f"{sign}{p}/{q}"


def fraction_text(value, form: str = FRACTION) -> str:
    """A number as a fraction or a mixed number: the same in every locale, as no decimal sign is chosen."""
    if form == DECIMAL:
        raise ValueError("a decimal is written in a locale: use format_number")
    return format_number(value, "en", form)


def exact_text(value) -> str:
    """An exact value as stored: "12", "-7/2" (a ``str`` of a sympy Rational)."""
    p, q = _parts(value)
    return f"{p}/{q}" if q != 1 else str(p)


# --- maths fields: stored locale-free, written when read ------------------------------------


def formula(*terms, form: str = DECIMAL) -> dict:
    """A calculation as a text's field: numbers (int, Fraction, Rational) and operator strings.

    ``formula(7, "*", 8, "=", 56)`` is written "7 × 8 = 56" in English and "7 · 8 = 56" in
    Norwegian; a Fraction is one number written by ``form`` ("1/17"), never a division, and
    a pair ``(12, 48)`` is a fraction written as it stands, not reduced ("12/48").
    Operators: + - * / (divide) ( ) and = ≈ < ≤ > ≥; "," and ";" separate calculations in a listing.
    """
    if form not in FORMS:
        raise ValueError(f"unknown number form {form!r}")
    stored: list = []
    for term in terms:
        if isinstance(term, str):
            if (
                term not in _OPERATOR_NAMES
                and term not in _RELATIONS
                and term not in _SEPARATORS
                and term not in ("(", ")")
            ):
                raise ValueError(f"not an operator: {term!r} (numbers go in as numbers)")
            stored.append(term)
        elif isinstance(term, tuple):
            numerator, denominator = (int(part) for part in term)
            stored.append([numerator, denominator])
        else:
            stored.append(exact_text(term))
    return {"maths": "formula", "terms": stored, "form": form}


def plain_formula(plain: str, form: str = DECIMAL) -> dict:
    """A stored plain-ASCII calculation ("3*(4-1)", "8 / 2", "3x4", "7*8=56") as a text's field; "/" and ":" divide."""
    terms: list = []
    position = 0
    plain = plain.strip()
    while position < len(plain):
        found = _PLAIN_TOKEN.match(plain, position)
        if not found:
            raise ValueError(f"not a plain calculation: {plain!r}")
        token = found.group(1)
        if token[-1].isdigit():
            terms.append(Fraction(token.replace(",", ".")))
        else:
            terms.append(_PLAIN_ALIASES.get(token, token))
        position = found.end()
    return formula(*terms, form=form)


def listing(formulas: list[dict], separator: str = ";") -> dict:
    """Several calculations as one field: "7 × 8 = 56; 6 × 9 = 54" (the first one's form writes them all)."""
    if separator not in _SEPARATORS:
        raise ValueError(f"not a separator: {separator!r}")
    terms: list = []
    for position, each in enumerate(formulas):
        terms += ([separator] if position else []) + list(each["terms"])
    return {"maths": "formula", "terms": terms, "form": formulas[0]["form"] if formulas else DECIMAL}


def operators(ops: str) -> dict:
    """Operator signs as a text's field, for a sentence about them: ``operators("+-*/")`` -> "+ − × ÷"."""
    if not ops or any(op not in _OPERATOR_NAMES for op in ops):
        raise ValueError(f"not operators: {ops!r}")
    return {"maths": "signs", "terms": list(ops)}


def typed(maths: dict) -> dict:
    """A maths field in the keys a pupil types (:func:`typed_signs`), for a typing hint: "(7 - 3) * 2" in Norwegian."""
    return {**maths, "typed": True}


def write(maths: dict, locale: str) -> str:
    """A maths field in ``locale``'s signs (or typed keys, :func:`typed`) and number notation."""
    written = typed_signs(locale) if maths.get("typed") else signs(locale)
    if maths["maths"] == "signs":
        return " ".join(written[_OPERATOR_NAMES[op]] for op in maths["terms"])
    if maths["maths"] != "formula":
        raise ValueError(f"unknown maths field {maths['maths']!r}")
    form = maths.get("form", DECIMAL)
    pieces: list[str] = []
    before = "start"  # what came before: "start", "(", ")", "operator", "sign" (of a number), "number" or "separator"
    for term in maths["terms"]:
        if isinstance(term, list):  # a fraction as it stands
            kind, text = "number", f"{MINUS if term[0] < 0 else ''}{abs(term[0])}/{term[1]}"
        elif term in ("(", ")"):
            kind, text = term, term
        elif term in _SEPARATORS:
            kind, text = "separator", term
        elif term in _OPERATOR_NAMES or term in _RELATIONS:
            kind = (
                "sign"
                if term in ("+", "-") and before in ("start", "(", "operator", "sign", "separator")
                else "operator"
            )
            text = written[_OPERATOR_NAMES[term]] if term in _OPERATOR_NAMES else term
        else:
            kind, text = "number", format_number(term, locale, form)
        if kind == "operator":
            joined = False
        elif kind in (")", "separator"):
            joined = True
        else:
            joined = before in ("start", "(", "sign")
        pieces.append(text if joined else f" {text}")
        before = kind
    return "".join(pieces).strip()


def format_formula(plain: str, locale: str, form: str = DECIMAL) -> str:
    """A plain-ASCII calculation written in ``locale``'s signs: "3*(4-1)" -> "3 · (4 − 1)" in Norwegian."""
    return write(plain_formula(plain, form), locale)
