"""Read a pupil's typed answer into an exact number, with our own small grammar.

Pupil text never reaches ``sympy.sympify``, ``parse_expr``, ``eval`` or ``exec``: a
hand-written tokenizer and a recursive-descent parser compute the value with
:class:`fractions.Fraction` from Python ints, and only the result becomes a
``sympy.Rational``. Every limit is checked before any arithmetic (length first, on the
raw text, so a megabyte of junk costs nothing).

Grammar (EBNF; whitespace may stand between tokens)::

    answer   = [sign] number                      (* allow="number" *)
             | expr                               (* allow="add_sub" / "four_ops" *)
    expr     = term { ("+" | "-") term }
    term     = factor { ("x" | "/") factor }      (* x, / and ÷ only in four_ops *)
    factor   = sign factor | "(" expr ")" | number
    number   = INT INT "/" INT                    (* mixed number, space between *)
             | INT VULGAR                         (* mixed number: 1½ or 1 ½ *)
             | INT "/" INT                        (* fraction; number and add_sub only *)
             | INT | DECIMAL | VULGAR
    DECIMAL  = [INT] SEP INT
    sign = "+" | "-" | "−" | "–" ;  "x" = x X * × · ⋅ ;  "/" = / ⁄ ∕ (also ÷ : as division)

Every locale's school signs are read in every locale (":" and "÷" divide, "·" and "×"
multiply); :mod:`tutor.signs` says which ones a locale writes.

Decisions: the locale's decimal sign is "," (nb, sv, it) or "." (en). Comma locales also
take "." (calculators), except a form that could be a thousands separator: 1–3 digits
(not starting with 0), the point, exactly three digits ("1.234"); in en "1,234" is
refused the same way and any other comma decimal is refused with a hint to use a point.
",5"/".5" are read as 0.5; "3," is refused. A mixed number needs its fraction part below
1 ("1 5/4" is refused); a minus in front applies to the whole ("-1 3/4" = -7/4).
"3 - -2" and "2 x -3" are accepted (a sign may start any operand). In four_ops "a/b" is
ordinary left-associative division ("8 / 1/2" = 4, but "8 / 1 1/2" divides by 3/2).
Every sign counts towards ``Limits.max_operators``, fraction bars and leading signs too.
``Reading.numbers`` lists the literals as typed, without signs: in four_ops "3/4" is the
two numbers 3 and 4, elsewhere a fraction, a mixed number or ½ is one number.
``Reading.shown`` is the answer read back in the pupil's own form and the locale's signs:
"21/81" stays "21/81" (a pupil who did not simplify sees what they wrote, not 7/27),
"0.5" is "0,5" in Norwegian, "3x4-2" is "3 · 4 − 2"; :func:`read_back` adds the value of
a calculation ("3 · 4 − 2 = 10").

Refusal codes (``AnswerError.code``), the first that applies in this order is reported:
too_long, empty, letters, other_digits, equals_sign, power_not_allowed,
factorial_not_allowed, percent_not_allowed, bad_character, hidden_character,
too_many_digits, ambiguous_decimal, decimal_comma, bad_number, brackets_not_allowed,
unbalanced_brackets, too_deep, too_many_operators, operator_not_allowed, missing_number,
empty_brackets, missing_operator, spaced_number, bad_fraction, bad_mixed_number,
zero_denominator (a fraction a/0), division_by_zero (÷ 0 in four_ops).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from tutor.signs import DECIMAL, FRACTION, MIXED, decimal_sign, format_number, formula, typed_signs, write
from tutor.text import N_, Text, say

if TYPE_CHECKING:
    import sympy

ALLOW_NUMBER = "number"
ALLOW_ADD_SUB = "add_sub"
ALLOW_FOUR_OPS = "four_ops"
_MODES = (ALLOW_NUMBER, ALLOW_ADD_SUB, ALLOW_FOUR_OPS)

_DIGITS = "0123456789"
_LITERAL = _DIGITS + ".,"
_OPERATORS = {
    "+": "+",
    "*": "*",
    "×": "*",
    "·": "*",
    "⋅": "*",
    "∙": "*",
    "/": "/",
    "⁄": "/",
    "∕": "/",
    "÷": "÷",
    ":": "÷",
    "(": "(",
    ")": ")",
}
_OPERATORS.update(dict.fromkeys("-‐‑‒–−", "-"))
_READ_BACK_LIMIT = 200  # the length of a stored attempt's read_as
_VULGAR = {
    "½": (1, 2),
    "⅓": (1, 3),
    "⅔": (2, 3),
    "¼": (1, 4),
    "¾": (3, 4),
    "⅕": (1, 5),
    "⅖": (2, 5),
    "⅗": (3, 5),
    "⅘": (4, 5),
    "⅙": (1, 6),
    "⅚": (5, 6),
    "⅐": (1, 7),
    "⅛": (1, 8),
    "⅜": (3, 8),
    "⅝": (5, 8),
    "⅞": (7, 8),
    "⅑": (1, 9),
    "⅒": (1, 10),
}
_SYMBOLS = {
    "=": "equals_sign",
    "^": "power_not_allowed",
    "!": "factorial_not_allowed",
    "%": "percent_not_allowed",
    "‰": "percent_not_allowed",
}
_PRIORITY = (
    "letters",
    "other_digits",
    "equals_sign",
    "power_not_allowed",
    "factorial_not_allowed",
    "percent_not_allowed",
    "bad_character",
    "hidden_character",
    "too_many_digits",
    "ambiguous_decimal",
    "decimal_comma",
    "bad_number",
)

MESSAGES = {
    "empty": N_("Type your answer in the box, for example %(example)s."),
    "too_long": N_("That is too long for me to read. Please type a shorter answer, with at most %(limit)s characters."),
    "letters": N_("I can only read numbers here, not letters. Try something like %(example)s."),
    "other_digits": N_("I can't read %(char)s. Please type numbers with the digits 0 1 2 3 4 5 6 7 8 9."),
    "equals_sign": N_("Type only the answer, without the = sign, like %(example)s."),
    "power_not_allowed": N_(
        "Powers like %(sign)s can't be used here. Work out the number and type it, like %(example)s."
    ),
    "factorial_not_allowed": N_(
        "The sign %(sign)s can't be used here. Work out the number and type it, like %(example)s."
    ),
    "percent_not_allowed": N_("Please type the number without the %(sign)s sign, like %(example)s."),
    "bad_character": N_("I can't read the sign %(char)s. Use only digits and the signs %(signs)s."),
    "hidden_character": N_(
        "Your answer has a hidden character that I can't read. Delete the answer and type it again."
    ),
    "too_many_digits": N_("%(text)s has too many digits for me. A number can have at most %(limit)s digits."),
    "ambiguous_decimal": N_(
        "I'm not sure which number %(text)s is. Write a decimal with one decimal sign, like %(example)s, and a big "
        "number without dots, commas or spaces, like %(whole)s."
    ),
    "decimal_comma": N_("In English we write decimals with a point: type %(fixed)s instead of %(text)s."),
    "bad_number": N_(
        "I can't read %(text)s as a number. A decimal needs digits after the decimal sign, like %(example)s."
    ),
    "brackets_not_allowed": N_("Here I need just one number, without brackets. Type it like %(example)s."),
    "unbalanced_brackets": N_("The brackets don't match. Every ( needs a ) after it."),
    "too_deep": N_("There are too many brackets inside brackets. Use at most %(limit)s levels."),
    "too_many_operators": N_("That is too many signs for me. Use at most %(limit)s signs like + and −."),
    "operator_not_allowed": N_(
        "Here I need just one number, so I can't use %(operator)s. Work out the answer and type it, like %(example)s."
    ),
    "operator_not_allowed/add_sub": N_("Here you can use only + and − (and brackets), not %(operator)s."),
    "missing_number": N_("A number is missing after %(operator)s."),
    "missing_number/before": N_("A number is missing before %(operator)s."),
    "empty_brackets": N_("There is nothing inside the brackets (). Put a number inside or take the brackets away."),
    "missing_operator": N_("Something is missing between %(left)s and %(right)s. Put a sign there, like %(sign)s."),
    "missing_operator/number": N_(
        "Here I need just one number, but I see %(left)s and then %(right)s. Type only your answer."
    ),
    "spaced_number": N_(
        "Is %(text)s one number? Then type it without spaces, like %(joined)s. A mixed number is typed like %(mixed)s."
    ),
    "bad_fraction": N_(
        "Write a fraction with whole numbers above and below the line, and any minus sign in front, like %(example)s."
    ),
    "bad_mixed_number": N_("In a mixed number the fraction part must be less than 1, like %(example)s."),
    "zero_denominator": N_("A fraction can't have 0 under the line. Check %(text)s."),
    "division_by_zero": N_("We can't divide by zero, so %(text)s has no value. Check your numbers."),
}


#: A short description for the teacher of each reason an answer could not be read, by the codes of
#: :data:`MESSAGES` (the teacher's words: the pupil was shown the message itself).
REFUSAL_DESCRIPTIONS = {
    "empty": N_("nothing typed"),
    "too_long": N_("too long to read"),
    "letters": N_("letters instead of numbers"),
    "other_digits": N_("digits from another script"),
    "equals_sign": N_("an = sign in the answer"),
    "power_not_allowed": N_("a power sign"),
    "factorial_not_allowed": N_("a factorial sign"),
    "percent_not_allowed": N_("a percent sign"),
    "bad_character": N_("a sign that is not allowed"),
    "hidden_character": N_("a hidden character"),
    "too_many_digits": N_("a number with too many digits"),
    "ambiguous_decimal": N_("unclear decimal or thousands sign"),
    "decimal_comma": N_("a decimal comma where a point is used"),
    "bad_number": N_("a number that could not be read"),
    "brackets_not_allowed": N_("brackets where one number was asked"),
    "unbalanced_brackets": N_("brackets that do not match"),
    "too_deep": N_("too many brackets inside brackets"),
    "too_many_operators": N_("too many signs"),
    "operator_not_allowed": N_("a sign that cannot be used here"),
    "missing_number": N_("a number missing next to a sign"),
    "empty_brackets": N_("empty brackets"),
    "missing_operator": N_("two numbers without a sign between"),
    "spaced_number": N_("a number with spaces in it"),
    "bad_fraction": N_("a fraction written the wrong way"),
    "bad_mixed_number": N_("a mixed number with too big a fraction"),
    "zero_denominator": N_("a fraction with 0 under the line"),
    "division_by_zero": N_("division by zero"),
}


class AnswerError(ValueError):
    """An answer we cannot read: a code for programs and a friendly, translatable message."""

    def __init__(self, code: str, params: dict | None = None, locale: str = "en", variant: str = ""):
        self.code, self.locale = code, locale
        self.msgid = MESSAGES[f"{code}/{variant}" if variant else code]
        self.params = {"code": code, **(params or {})}  # never empty, so every message fills its fields
        super().__init__(code)

    @property
    def text(self) -> Text:
        """The friendly message, said in the reader's language where it is shown."""
        return Text(self.msgid, self.params)

    def __str__(self) -> str:
        return say(self.text)


@dataclass(frozen=True)
class Limits:
    """Bounds checked before any arithmetic, so hostile input stays cheap."""

    max_length: int = 60
    max_digits: int = 12
    max_depth: int = 6
    max_operators: int = 8


#: How an answer was written: one number in one of these forms, or a calculation.
WHOLE, DECIMAL_NUMBER, FRACTION_NUMBER, MIXED_NUMBER, CALCULATION = (
    "whole",
    "decimal",
    "fraction",
    "mixed",
    "calculation",
)
_LITERAL_FORMS = {"int": WHOLE, "dec": DECIMAL_NUMBER, "vulgar": FRACTION_NUMBER}


@dataclass(frozen=True)
class Reading:
    """What we read: the exact value, the literals used, the answer in the pupil's own form and the locale's
    signs (``shown``), the typed text, how it was written (``form``) and, for one fraction, its two numbers as typed."""

    value: sympy.Rational
    numbers: tuple = field(default=())
    shown: str = ""
    typed: str = ""
    form: str = ""
    fraction: tuple[int, int] | None = None


class _Tok(NamedTuple):
    kind: str  # "num", "+", "-", "*", "/" (fraction bar or division), "÷" (division only), "(", ")"
    text: str  # as typed
    value: Fraction | None = None
    form: str = ""  # for numbers: "int", "dec" or "vulgar"
    spaced: bool = False  # whitespace before it


# Operator, bracket and vulgar-fraction tokens are immutable: build each (char, spaced) once.
_FIXED = {(ch, spaced): _Tok(kind, ch, spaced=spaced) for ch, kind in _OPERATORS.items() for spaced in (False, True)}
_FIXED.update(
    {
        (ch, spaced): _Tok("num", ch, Fraction(*pq), "vulgar", spaced)
        for ch, pq in _VULGAR.items()
        for spaced in (False, True)
    }
)
_FIXED.update({(ch, spaced): _Tok("*", ch, spaced=spaced) for ch in "xX" for spaced in (False, True)})


@lru_cache(maxsize=64)
def _comma_locale(locale: str) -> bool:
    return decimal_sign(locale) == ","


def describe(value, locale: str, form: str = DECIMAL) -> str:
    """An exact value in the locale's notation (:func:`tutor.signs.format_number`): "12", "−3", "3,5", "−7/3"."""
    return format_number(value, locale, form)


def _allowed_signs(allow: str, locale: str) -> str:
    """The signs a pupil may type in this mode, as keys on their keyboard, the decimal sign included."""
    typed = typed_signs(locale)
    if allow == ALLOW_NUMBER:
        keys = ["−", "/"]
    elif allow == ALLOW_ADD_SUB:
        keys = ["+", "−", "(", ")"]
    else:  # "/" stays on the list where ":" divides: it writes fractions
        keys = ["+", "−", typed["times"], typed["divide"], *(["/"] if typed["divide"] != "/" else []), "(", ")"]
    return " ".join([*keys, decimal_sign(locale)])


def _example(allow: str, locale: str, form: str = DECIMAL) -> str:
    """An answer of this mode as a pupil of ``locale`` would type it: a fraction where the question asks for one."""
    if allow == ALLOW_NUMBER:
        return "3/4" if form in (FRACTION, MIXED) else "12"
    if allow == ALLOW_ADD_SUB:
        return "12 + 3"
    return f"3 {typed_signs(locale)['times']} 4"


def _literal(s: str, spaced: bool, comma: bool, limits: Limits, locale: str) -> _Tok:
    """One run of digits and decimal signs, refused if it is too long, ambiguous or unfinished."""

    def refuse(code, **params):
        return AnswerError(code, {"text": s, "example": describe(Fraction(7, 2), locale), **params}, locale)

    separators = s.count(",") + s.count(".")
    if len(s) - separators > limits.max_digits:
        raise refuse("too_many_digits", limit=limits.max_digits)
    if not separators:
        return _Tok("num", s, Fraction(int(s)), "int", spaced)
    if separators > 1:
        raise refuse("ambiguous_decimal", whole="1234")
    whole, sep, frac = s.partition("," if "," in s else ".")
    if not frac:
        raise refuse("bad_number")
    if sep != ("," if comma else "."):
        if whole[:1] and whole[0] != "0" and len(whole) <= 3 and len(frac) == 3:
            raise refuse("ambiguous_decimal", whole="1234")
        if sep == ",":
            raise refuse("decimal_comma", fixed=f"{whole or '0'}.{frac}")
    return _Tok("num", s, Fraction(int(whole or "0") * 10 ** len(frac) + int(frac), 10 ** len(frac)), "dec", spaced)


def _problem(ch: str, category: str, following: str) -> tuple[str, dict]:
    """Why a character outside our alphabet is refused."""
    if ch == "*" and following == "*":
        return "power_not_allowed", {"sign": "**"}
    if ch in _SYMBOLS:
        return _SYMBOLS[ch], {"sign": ch}
    if category in ("Nd", "Nl", "No"):
        return "other_digits", {"char": ch}
    if category[0] in "CMZ":  # controls, format marks, combining marks, line separators: nothing to show
        return "hidden_character", {}
    return "bad_character", {"char": ch}


def _tokenize(text: str, allow: str, comma: bool, limits: Limits, locale: str, example: str) -> list[_Tok]:
    """Walk the text once; keep the first problem of each kind and report the most helpful one."""
    problems: dict[str, dict] = {}  # code -> params; once a character is refused, numbers are no longer read
    tokens: list[_Tok] = []
    i, n, spaced = 0, len(text), False
    while i < n:
        ch = text[i]
        if ch in _LITERAL:
            j = i + 1
            while j < n and text[j] in _LITERAL:
                j += 1
            if not problems:
                try:
                    tokens.append(_literal(text[i:j], spaced, comma, limits, locale))
                except AnswerError as error:
                    problems[error.code] = error.params
            i, spaced = j, False
            continue
        if (ch in _OPERATORS or ch in _VULGAR) and not (ch == "*" and text[i + 1 : i + 2] == "*"):
            tokens.append(_FIXED[ch, spaced])
            i, spaced = i + 1, False
            continue
        category = "Zs" if ch in " \t\n\r" else unicodedata.category(ch)
        if category == "Zs":
            i, spaced = i + 1, True
        elif category[0] == "L":
            if (
                ch in "xX"
                and tokens
                and tokens[-1].kind in ("num", ")")
                and (i + 1 == n or unicodedata.category(text[i + 1])[0] != "L")
            ):
                tokens.append(_FIXED[ch, spaced])  # x between numbers means times
                i, spaced = i + 1, False
            else:  # the most helpful message of all: stop here
                raise AnswerError("letters", {"example": example}, locale)
        else:
            code, params = _problem(ch, category, text[i + 1 : i + 2])
            if code not in problems:
                problems[code] = {**params, "example": example, "signs": _allowed_signs(allow, locale)}
            i += 2 if params.get("sign") == "**" else 1
    if problems:
        code = min(problems, key=_PRIORITY.index)
        raise AnswerError(code, problems[code], locale)
    if not tokens:
        raise AnswerError("empty", {"example": example}, locale)
    return tokens


def _check_structure(tokens: list[_Tok], allow: str, limits: Limits, locale: str, example: str) -> None:
    """Brackets, nesting, operator count and operators the mode forbids, all before parsing."""
    depth = deepest = operators = 0
    for tok in tokens:
        if tok.kind in ("(", ")") and allow == ALLOW_NUMBER:
            raise AnswerError("brackets_not_allowed", {"example": "-12"}, locale)
        depth += (tok.kind == "(") - (tok.kind == ")")
        if depth < 0:
            raise AnswerError("unbalanced_brackets", {}, locale)
        deepest = max(deepest, depth)
        operators += tok.kind not in ("num", "(", ")")
    if depth:
        raise AnswerError("unbalanced_brackets", {}, locale)
    if deepest > limits.max_depth:
        raise AnswerError("too_deep", {"limit": limits.max_depth}, locale)
    if operators > limits.max_operators:
        raise AnswerError("too_many_operators", {"limit": limits.max_operators}, locale)
    if allow != ALLOW_FOUR_OPS:
        for tok in tokens:
            if tok.kind in ("*", "÷"):
                raise _not_allowed(tok, allow, locale, example)


def _not_allowed(tok: _Tok, allow: str, locale: str, example: str) -> AnswerError:
    variant = "add_sub" if allow == ALLOW_ADD_SUB else ""
    return AnswerError("operator_not_allowed", {"operator": tok.text, "example": example}, locale, variant)


class _Parser:
    """Recursive descent over the tokens, computing with Fractions as it goes."""

    def __init__(self, tokens: list[_Tok], allow: str, locale: str, typed: str, example: str):
        self.tokens, self.allow, self.locale, self.typed, self.example = tokens, allow, locale, typed, example
        self.i = 0
        self.numbers: list[Fraction] = []
        self.forms: list[tuple[str, tuple[int, int] | None]] = []  # each number's form, and a fraction's parts as typed
        self.bars: set[int] = set()  # the indices of the "/" tokens that are fraction bars, not divisions

    def peek(self, ahead: int = 0) -> _Tok | None:
        j = self.i + ahead
        return self.tokens[j] if j < len(self.tokens) else None

    def kind(self, ahead: int = 0) -> str:
        tok = self.peek(ahead)
        return tok.kind if tok else ""

    def take(self) -> _Tok:
        self.i += 1
        return self.tokens[self.i - 1]

    def refuse(self, code: str, variant: str = "", **params) -> AnswerError:
        return AnswerError(code, params, self.locale, variant)

    def answer(self) -> Fraction:
        if self.allow == ALLOW_NUMBER:
            negative = self.kind() in ("+", "-") and self.take().kind == "-"
            value = -self.number() if negative else self.number()
        else:
            value = self.expr()
        if self.peek() is not None:
            raise self.unexpected()
        return value

    def expr(self) -> Fraction:
        value = self.term()
        while self.kind() in ("+", "-"):
            op = self.take()
            right = self.term()
            value = value + right if op.kind == "+" else value - right
        return value

    def term(self) -> Fraction:
        value = self.factor()
        while self.kind() in ("*", "/", "÷"):
            op = self.take()
            if self.allow != ALLOW_FOUR_OPS:
                raise _not_allowed(op, self.allow, self.locale, self.example)
            right = self.factor()
            if op.kind == "*":
                value *= right
            elif right == 0:
                raise self.refuse("division_by_zero", text=self.typed.strip())
            else:
                value /= right
        return value

    def factor(self) -> Fraction:
        if self.kind() in ("+", "-"):
            return self.factor() if self.take().kind == "+" else -self.factor()
        if self.kind() == "(":
            self.take()
            value = self.expr()
            if self.kind() != ")":
                raise self.unexpected()
            self.take()
            return value
        return self.number()

    def number(self) -> Fraction:
        """A literal, a mixed number, or (outside four_ops) a fraction a/b."""
        if self.kind() != "num":
            raise self.missing()
        tok = self.take()
        nxt = self.peek()
        if tok.form == "int" and nxt is not None and nxt.kind == "num":
            if nxt.form == "vulgar":
                self.take()
                return self.record(tok.value + nxt.value, MIXED_NUMBER)
            if nxt.form == "int" and self.kind(1) == "/" and self.peek(2) is not None and self.peek(2).form == "int":
                self.bars.add(self.i + 1)
                numerator, _, denominator = self.take(), self.take(), self.take()
                self.check_denominator(f"{tok.text} {numerator.text}/{denominator.text}", denominator.value)
                if numerator.value >= denominator.value:
                    raise self.refuse("bad_mixed_number", example="2 1/4")
                return self.record(tok.value + numerator.value / denominator.value, MIXED_NUMBER)
        if self.allow != ALLOW_FOUR_OPS and self.kind() == "/":
            after = self.peek(1)
            if tok.form != "int" or after is None or after.form != "int":
                raise self.refuse("bad_fraction", example="-3/4")
            self.bars.add(self.i)
            self.take(), self.take()
            self.check_denominator(f"{tok.text}/{after.text}", after.value)
            return self.record(tok.value / after.value, FRACTION_NUMBER, (int(tok.value), int(after.value)))
        vulgar = (tok.value.numerator, tok.value.denominator) if tok.form == "vulgar" else None
        return self.record(tok.value, _LITERAL_FORMS[tok.form], vulgar)

    def record(self, value: Fraction, form: str, fraction: tuple[int, int] | None = None) -> Fraction:
        self.numbers.append(value)
        self.forms.append((form, fraction))
        return value

    def lone_fraction(self) -> None:
        """In four_ops "3/4" divides, but typed alone it is a fraction: read it back as one."""
        unsigned = self.tokens[1:] if self.tokens[0].kind in ("+", "-") else self.tokens
        if [tok.kind for tok in unsigned] == ["num", "/", "num"] and unsigned[0].form == unsigned[2].form == "int":
            self.bars.add(len(self.tokens) - 2)
            self.forms = [(FRACTION_NUMBER, (int(self.tokens[-3].value), int(self.tokens[-1].value)))]

    def reading(self, value: Fraction, locale: str) -> Reading:
        """A parsed answer: its value, numbers, the pupil's form in the locale's signs, and how it was written."""
        if self.allow == ALLOW_FOUR_OPS:
            self.lone_fraction()
        terms: list = []
        i = 0
        while i < len(self.tokens):
            tok = self.tokens[i]
            if i + 1 in self.bars:  # a fraction, written as it stands
                terms.append((int(tok.value), int(self.tokens[i + 2].value)))
                i += 3
                continue
            if tok.kind == "num":
                terms.append((tok.value.numerator, tok.value.denominator) if tok.form == "vulgar" else tok.value)
            else:
                terms.append("/" if tok.kind == "÷" else tok.kind)
            i += 1
        operators = [j for j, tok in enumerate(self.tokens) if tok.kind != "num" and j not in self.bars]
        single = (
            len(self.forms) == 1 and operators in ([], [0]) and self.tokens[0].kind in ("num", "+", "-")
        )  # at most a sign in front
        form, fraction = self.forms[0] if single else (CALCULATION, None)
        import sympy  # here, not at the top: importing sympy takes most of the app's start-up

        exact = sympy.Rational(value.numerator, value.denominator)
        numbers = tuple(sympy.Rational(n.numerator, n.denominator) for n in self.numbers)
        return Reading(exact, numbers, write(formula(*terms), locale), self.typed, form, fraction)

    def check_denominator(self, text: str, denominator: Fraction) -> None:
        if denominator == 0:
            raise self.refuse("zero_denominator", text=text)

    def missing(self) -> AnswerError:
        """A number was expected: say what is missing, and where."""
        tok, before = self.peek(), (self.tokens[self.i - 1] if self.i else None)
        if tok is not None and tok.kind == ")" and before is not None and before.kind == "(":
            return self.refuse("empty_brackets")
        if before is None or before.kind == "(":
            return self.refuse("missing_number", "before", operator=tok.text)
        return self.refuse("missing_number", operator=before.text)

    def unexpected(self) -> AnswerError:
        """An operator or the end was expected but something else came."""
        tok, before = self.peek(), self.tokens[self.i - 1]
        if tok.kind in ("+", "-", "*", "/", "÷"):
            return _not_allowed(tok, self.allow, self.locale, self.example)
        if tok.kind == ")":
            return self.refuse("unbalanced_brackets")
        after_bar = self.i >= 2 and self.tokens[self.i - 2].kind == "/"  # "1/2 3/4" is two numbers, not "2 3"
        if (
            tok.kind == "num"
            and tok.spaced
            and before.kind == "num"
            and {tok.form, before.form} <= {"int", "dec"}
            and not after_bar
        ):
            return self.refuse(
                "spaced_number", text=f"{before.text} {tok.text}", joined=before.text + tok.text, mixed="1 3/4"
            )
        variant = "number" if self.allow == ALLOW_NUMBER else ""
        sign = typed_signs(self.locale)["times"] if self.allow == ALLOW_FOUR_OPS else "+"
        return self.refuse("missing_operator", variant, left=before.text, right=tok.text, sign=sign)


def read_answer(
    text: str, locale: str, *, allow: str = ALLOW_NUMBER, limits: Limits = Limits(), form: str = DECIMAL
) -> Reading:
    """Read ``text`` typed in ``locale`` under the ``allow`` mode, or raise :class:`AnswerError`.

    ``form`` is the form the question asks for: its error messages give an example in that form.
    """
    if not isinstance(text, str):
        raise TypeError("the answer must be text")
    if allow not in _MODES:
        raise ValueError(f"unknown allow mode {allow!r}")
    if len(text) > limits.max_length:  # first, on the raw text: nothing else looks at a huge input
        raise AnswerError("too_long", {"limit": limits.max_length}, locale)
    example = _example(allow, locale, form)
    tokens = _tokenize(text, allow, _comma_locale(locale), limits, locale, example)
    _check_structure(tokens, allow, limits, locale, example)
    parser = _Parser(tokens, allow, locale, text, example)
    return parser.reading(parser.answer(), locale)


def read_back(reading: Reading, locale: str, form: str = DECIMAL) -> str:
    """How we read an answer, for "You wrote …: I read …": a number in the pupil's own form, a calculation with its
    value.

    ``form`` writes a calculation's value (the question's rule, :mod:`tutor.signs`).
    """
    if reading.form != CALCULATION:
        return reading.shown
    written = f"{reading.shown} = {format_number(reading.value, locale, form)}"
    return written if len(written) <= _READ_BACK_LIMIT else reading.shown


def parse_answer(text: str, locale: str, *, allow: str = ALLOW_NUMBER, limits: Limits = Limits()) -> sympy.Rational:
    """The exact value of ``text``; see :func:`read_answer`."""
    return read_answer(text, locale, allow=allow, limits=limits).value
