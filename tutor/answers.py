"""Read a pupil's typed answer into an exact number, with our own small grammar.

Pupil text never reaches ``sympify``, ``parse_expr`` or ``eval``: a tokenizer walks
the string once, a recursive-descent parser builds the value with Python's exact
``fractions.Fraction``, and only the final value becomes a ``sympy.Rational``.
Every limit is checked before any expensive work.

Grammar (``allow`` decides which operators and brackets are accepted)::

    answer  = expr
    expr    = term { ("+" | "-") term }          (NUMBER: a single signed number)
    term    = signed { ("*" | "/") signed }      (only FOUR_OPS)
    signed  = [ "+" | "-" ] operand
    operand = number | "(" expr ")"              (brackets: ADD_SUB and FOUR_OPS)
    number  = digits [ sep digits ]              decimal, sep by locale
            | digits "/" digits                  fraction
            | digits " " digits "/" digits       mixed number, 1 3/4
            | digits vulgar                      mixed number, 1½

Typed signs: − and – are minus; x, X, ×, · and * are times; ÷ is divide; / and the
fraction slash ⁄ are a fraction bar (and divide in FOUR_OPS). Locales nb, sv and it
write decimals with a comma, en with a point; in nb, sv and it a point is read as a
decimal point too, except before exactly three digits ("1.234"), where it could be a
thousands separator and is refused. In en a comma is always refused as ambiguous.

Refusal codes (``AnswerError.code``): empty, too_long, bad_character, letters,
other_digits, ambiguous_decimal, bad_number, space_in_number, power_not_allowed,
factorial_not_allowed, operator_not_allowed, brackets_not_allowed,
unbalanced_brackets, empty_brackets, too_deep, too_many_operators, too_many_digits,
missing_number, missing_operator, division_by_zero, zero_denominator,
bad_mixed_number.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

import sympy

from tutor.text import N_, render, translator

ALLOW_NUMBER = "number"
ALLOW_ADD_SUB = "add_sub"
ALLOW_FOUR_OPS = "four_ops"
COMMA_LOCALES = frozenset({"nb", "sv", "it"})

MINUS_SIGNS = "-\u2212\u2013"
TIMES_SIGNS = "*xX\u00d7\u00b7"
DIVIDE_SIGNS = "\u00f7"
FRACTION_SLASHES = "/\u2044\u2215"
VULGAR = {
    "½": Fraction(1, 2), "⅓": Fraction(1, 3), "⅔": Fraction(2, 3), "¼": Fraction(1, 4), "¾": Fraction(3, 4),
    "⅕": Fraction(1, 5), "⅖": Fraction(2, 5), "⅗": Fraction(3, 5), "⅘": Fraction(4, 5), "⅙": Fraction(1, 6),
    "⅚": Fraction(5, 6), "⅛": Fraction(1, 8), "⅜": Fraction(3, 8), "⅝": Fraction(5, 8), "⅞": Fraction(7, 8),
}

MESSAGES = {
    "empty": N_("Type your answer first."),
    "too_long": N_("That answer is too long. Use at most %(max)s characters."),
    "bad_character": N_("I cannot read the sign “%(char)s”. Use the digits 0 to 9, and + − × ÷ where the question allows them."),
    "letters": N_("I can only read numbers here, not letters. Try something like %(example)s."),
    "other_digits": N_("Please type the digits 0 to 9 from your keyboard."),
    "ambiguous_decimal": N_("I am not sure what %(text)s means. Write decimals like %(example)s, without separators for thousands."),
    "bad_number": N_("I cannot read %(text)s as a number. Try something like %(example)s."),
    "space_in_number": N_("Write a number without spaces inside it, like %(example)s."),
    "power_not_allowed": N_("Powers are not used here. Type the number itself."),
    "factorial_not_allowed": N_("Factorials (!) are not used here. Type the number itself."),
    "operator_not_allowed": N_("The sign %(op)s cannot be used in this answer."),
    "brackets_not_allowed": N_("Brackets are not needed here. Type just the number."),
    "unbalanced_brackets": N_("A bracket is missing: every ( needs its )."),
    "empty_brackets": N_("There is nothing inside the brackets."),
    "too_deep": N_("Too many brackets inside each other. Use at most %(max)s."),
    "too_many_operators": N_("That calculation is too long. Use at most %(max)s signs."),
    "too_many_digits": N_("That number has too many digits. Use at most %(max)s."),
    "missing_number": N_("A number is missing after %(op)s."),
    "missing_operator": N_("Put a sign such as + between two numbers."),
    "division_by_zero": N_("You cannot divide by zero: division by zero has no value."),
    "zero_denominator": N_("A fraction cannot have 0 at the bottom."),
    "bad_mixed_number": N_("In a mixed number the fraction must be less than one, like %(example)s."),
}


class AnswerError(ValueError):
    """An answer the grammar cannot read; ``code`` says why, :meth:`message` says it kindly."""

    def __init__(self, code: str, locale: str = "en", **params) -> None:
        self.code, self.locale = code, locale
        self.msgid = MESSAGES[code]
        self.params = {"example": example(locale), **params}
        super().__init__(render(self.msgid, self.params))

    def message(self, gettext: Callable[[str], str] | None = None) -> str:
        return render(self.msgid, self.params, gettext or translator(self.locale))


@dataclass(frozen=True)
class Limits:
    max_length: int = 60
    max_digits: int = 12
    max_depth: int = 6
    max_operators: int = 8


@dataclass(frozen=True)
class Reading:
    value: sympy.Rational
    numbers: tuple
    shown: str
    typed: str


def example(locale: str) -> str:
    return "3,5" if locale in COMMA_LOCALES else "3.5"


# --- tokens ---------------------------------------------------------------------------
NUM, OP, OPEN, CLOSE = "num", "op", "(", ")"


@dataclass(frozen=True)
class Token:
    kind: str
    value: Fraction | str | None
    text: str


class _Tokenizer:
    """Turn text into numbers, operators and brackets, refusing anything else."""

    def __init__(self, text: str, locale: str, limits: Limits) -> None:
        self.text, self.locale, self.limits = text, locale, limits
        self.pos = 0

    def fail(self, code: str, **params):
        raise AnswerError(code, self.locale, **params)

    def tokens(self) -> list[Token]:
        out: list[Token] = []
        text = self.text
        while self.pos < len(text):
            ch = text[self.pos]
            if ch in " \t\u00a0\u202f":
                self.pos += 1
            elif "0" <= ch <= "9":
                out.append(self.number())
            elif ch in VULGAR:
                self.pos += 1
                out.append(Token(NUM, VULGAR[ch], ch))
            elif ch in "+" or ch in MINUS_SIGNS:
                self.pos += 1
                out.append(Token(OP, "+" if ch == "+" else "-", ch))
            elif ch in TIMES_SIGNS:
                if ch == "*" and text.startswith("**", self.pos):
                    self.fail("power_not_allowed")
                self.pos += 1
                out.append(Token(OP, "*", ch))
            elif ch in DIVIDE_SIGNS or ch in FRACTION_SLASHES:
                self.pos += 1
                out.append(Token(OP, "/", ch))
            elif ch in "([":
                self.pos += 1
                out.append(Token(OPEN, None, ch))
            elif ch in ")]":
                self.pos += 1
                out.append(Token(CLOSE, None, ch))
            elif ch in ".,":
                self.fail("bad_number", text=ch)
            else:
                self.refuse_character(ch)
        return out

    def refuse_character(self, ch: str):
        if ch == "^" or unicodedata.category(ch) == "No" and unicodedata.name(ch, "").startswith("SUPERSCRIPT"):
            self.fail("power_not_allowed")
        if ch == "!":
            self.fail("factorial_not_allowed")
        if unicodedata.category(ch) in ("Nd", "No", "Nl"):
            self.fail("other_digits")
        if ch.isalpha() or ch == "_":
            self.fail("letters")
        shown = ch if ch.isprintable() else f"U+{ord(ch):04X}"
        self.fail("bad_character", char=shown)

    def digits(self) -> str:
        start = self.pos
        while self.pos < len(self.text) and "0" <= self.text[self.pos] <= "9":
            self.pos += 1
        return self.text[start : self.pos]

    def number(self) -> Token:
        start = self.pos
        whole = self.digits()
        decimal_sep = "," if self.locale in COMMA_LOCALES else "."
        value = Fraction(int(whole))
        digit_count = len(whole)
        if self.pos < len(self.text) and self.text[self.pos] in ".,":
            sep = self.text[self.pos]
            self.pos += 1
            part = self.digits()
            literal = self.text[start : self.pos]
            if not part:
                self.fail("bad_number", text=literal)
            if sep != decimal_sep and (sep == "," or len(part) == 3):
                self.fail("ambiguous_decimal", text=literal)
            if self.pos < len(self.text) and self.text[self.pos] in ".,":
                self.fail("ambiguous_decimal", text=self.text[start : self.pos + 1])
            digit_count += len(part)
            value += Fraction(int(part), 10 ** len(part))
        if digit_count > self.limits.max_digits:
            self.fail("too_many_digits", max=self.limits.max_digits)
        if self.pos < len(self.text) and self.text[self.pos] in VULGAR and value.denominator == 1:
            value += VULGAR[self.text[self.pos]]
            self.pos += 1
        if self.pos < len(self.text) and self.text[self.pos].isalpha() and self.text[self.pos] not in TIMES_SIGNS:
            self.fail("letters")
        return Token(NUM, value, self.text[start : self.pos])


# --- parser ------------------------------------------------------------------------------
class _Parser:
    def __init__(self, tokens: list[Token], allow: str, locale: str, limits: Limits) -> None:
        self.tokens, self.allow, self.locale, self.limits = tokens, allow, locale, limits
        self.index, self.depth, self.numbers = 0, 0, []

    def fail(self, code: str, **params):
        raise AnswerError(code, self.locale, **params)

    def peek(self) -> Token | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def take(self) -> Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def parse(self) -> Fraction:
        self.merge_fractions()
        operators = sum(1 for t in self.tokens if t.kind == OP)
        if operators > self.limits.max_operators:
            self.fail("too_many_operators", max=self.limits.max_operators)
        value = self.signed() if self.allow == ALLOW_NUMBER else self.expr()
        token = self.peek()
        if token is not None:
            if token.kind == CLOSE:
                self.fail("unbalanced_brackets")
            if token.kind == NUM or token.kind == OPEN:
                self.fail("missing_operator")
            self.refuse_operator(token)
        return value

    def merge_fractions(self) -> None:
        """Join `a / b` and `w a / b` of plain whole numbers into one number token (a fraction or a mixed number)."""
        merged: list[Token] = []
        tokens, i = self.tokens, 0
        while i < len(tokens):
            t = tokens[i]
            mixed = bool(merged) and merged[-1].kind == NUM and _whole(merged[-1])
            is_fraction = (
                (self.allow != ALLOW_FOUR_OPS or mixed)
                and t.kind == NUM and i + 2 < len(tokens) and tokens[i + 1].kind == OP and tokens[i + 1].text in FRACTION_SLASHES
                and tokens[i + 2].kind == NUM and _whole(t) and _whole(tokens[i + 2])
                and (i + 3 >= len(tokens) or tokens[i + 3].kind != OP or tokens[i + 3].value not in "*/")
                and not (merged and merged[-1].kind == OP and merged[-1].value in "*/")
            )
            if not is_fraction:
                merged.append(t)
                i += 1
                continue
            numerator, denominator = t.value, tokens[i + 2].value
            if denominator == 0:
                self.fail("zero_denominator")
            value, text = Fraction(numerator) / Fraction(denominator), f"{t.text}/{tokens[i + 2].text}"
            if mixed:
                whole = merged.pop()
                if value >= 1:
                    self.fail("bad_mixed_number", example="1 3/4")
                value, text = whole.value + value, f"{whole.text} {text}"
            merged.append(Token(NUM, value, text))
            i += 3
        self.tokens = merged

    def refuse_operator(self, token: Token):
        self.fail("operator_not_allowed", op=token.text)

    def expr(self) -> Fraction:
        value = self.term()
        while (token := self.peek()) is not None and token.kind == OP and token.value in "+-":
            self.take()
            right = self.term(after=token)
            value = value + right if token.value == "+" else value - right
        return value

    def term(self, after: Token | None = None) -> Fraction:
        value = self.signed(after)
        while (token := self.peek()) is not None and token.kind == OP and token.value in "*/":
            if self.allow != ALLOW_FOUR_OPS:
                self.refuse_operator(token)
            self.take()
            right = self.signed(after=token)
            if token.value == "/":
                if right == 0:
                    self.fail("division_by_zero")
                value = value / right
            else:
                value = value * right
        return value

    def signed(self, after: Token | None = None) -> Fraction:
        token = self.peek()
        if token is not None and token.kind == OP and token.value in "+-":
            self.take()
            return -self.operand(after=token) if token.value == "-" else self.operand(after=token)
        return self.operand(after=after)

    def operand(self, after: Token | None = None) -> Fraction:
        token = self.peek()
        if token is None:
            if self.depth:
                self.fail("unbalanced_brackets")
            if after is None:
                self.fail("empty")
            self.fail("missing_number", op=after.text)
        if token.kind == NUM:
            self.take()
            self.numbers.append(token.value)
            nxt = self.peek()
            if nxt is not None and nxt.kind == NUM:
                if _whole(token) and _whole(nxt):
                    self.fail("space_in_number", example=token.text + nxt.text)
                self.fail("missing_operator")
            return token.value
        if token.kind == OPEN:
            if self.allow == ALLOW_NUMBER:
                self.fail("brackets_not_allowed")
            self.take()
            self.depth += 1
            if self.depth > self.limits.max_depth:
                self.fail("too_deep", max=self.limits.max_depth)
            if (inner := self.peek()) is not None and inner.kind == CLOSE:
                self.fail("empty_brackets")
            value = self.expr()
            closing = self.peek()
            if closing is None or closing.kind != CLOSE:
                self.fail("unbalanced_brackets")
            self.take()
            self.depth -= 1
            return value
        if token.kind == CLOSE:
            self.fail("unbalanced_brackets")
        if token.text in "xX" and token.kind == OP:
            self.fail("letters")
        if after is None:
            self.refuse_operator(token)
        self.fail("missing_number", op=after.text)


def _whole(token: Token) -> bool:
    """A plain run of digits (no decimal point), which may start a fraction or mixed number."""
    return token.kind == NUM and token.text.isdigit()


def read_answer(text: str, locale: str, *, allow: str = ALLOW_NUMBER, limits: Limits = Limits()) -> Reading:
    """Read ``text`` as typed in ``locale``; raise :class:`AnswerError` when it cannot be read."""
    if len(text) > limits.max_length:
        raise AnswerError("too_long", locale, max=limits.max_length)
    stripped = text.strip()
    if not stripped:
        raise AnswerError("empty", locale)
    tokens = _Tokenizer(stripped, locale, limits).tokens()
    parser = _Parser(tokens, allow, locale, limits)
    value = parser.parse()
    rational = sympy.Rational(value.numerator, value.denominator)
    numbers = tuple(sympy.Rational(n.numerator, n.denominator) for n in parser.numbers)
    return Reading(rational, numbers, describe(rational, locale), text)


def parse_answer(text: str, locale: str, *, allow: str = ALLOW_NUMBER, limits: Limits = Limits()) -> sympy.Rational:
    """The exact value of ``text``; see :func:`read_answer`."""
    return read_answer(text, locale, allow=allow, limits=limits).value


MAX_SHOWN_DECIMALS = 6


def describe(value, locale: str) -> str:
    """Exact human form: an integer, a short terminating decimal in the locale's notation, else a fraction."""
    fraction = Fraction(int(sympy.Rational(value).p), int(sympy.Rational(value).q))
    if fraction.denominator == 1:
        return str(fraction.numerator)
    denominator, places = fraction.denominator, 0
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator == 1:
        while (fraction * 10**places).denominator != 1:
            places += 1
    if denominator != 1 or places > MAX_SHOWN_DECIMALS:
        return f"{fraction.numerator}/{fraction.denominator}"
    sign = "-" if fraction < 0 else ""
    scaled = abs(fraction.numerator * 10**places // fraction.denominator)
    whole, part = divmod(scaled, 10**places)
    sep = "," if locale in COMMA_LOCALES else "."
    return f"{sign}{whole}{sep}{part:0{places}d}"


format_number = describe
