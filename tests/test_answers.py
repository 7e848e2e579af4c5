"""The pupil-answer parser: what it reads, what it refuses and why, and that it never evaluates text."""

from __future__ import annotations

import ast
import builtins
import importlib
import time
from fractions import Fraction
from pathlib import Path

import pytest
import sympy
import sympy.parsing.sympy_parser
from babel.support import NullTranslations
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tutor import answers
from tutor.answers import (
    ALLOW_ADD_SUB,
    ALLOW_FOUR_OPS,
    ALLOW_NUMBER,
    AnswerError,
    Limits,
    Reading,
    describe,
    format_number,
    parse_answer,
    read_answer,
    read_back,
)
from tutor.text import Text, say

LOCALES = ("en", "nb", "sv", "it")
COMMA_LOCALES = ("nb", "sv", "it")
N, AS, FO = ALLOW_NUMBER, ALLOW_ADD_SUB, ALLOW_FOUR_OPS

# (allow, text, numerator, denominator): read the same way in every locale.
EVERYWHERE = [
    (N, "12", 12, 1),
    (N, "-12", -12, 1),
    (N, "+5", 5, 1),
    (N, "007", 7, 1),
    (N, "  42  ", 42, 1),
    (N, "\t3\n", 3, 1),
    (N, "0", 0, 1),
    (N, "-0", 0, 1),
    (N, "− 7", -7, 1),
    (N, "–7", -7, 1),
    (N, "999999999999", 999999999999, 1),
    (N, "3/4", 3, 4),
    (N, "-3/4", -3, 4),
    (N, "12/8", 3, 2),
    (N, "3 / 4", 3, 4),
    (N, "3⁄4", 3, 4),
    (N, "3∕4", 3, 4),
    (N, "0/5", 0, 1),
    (N, "−3/4", -3, 4),
    (N, "+3/4", 3, 4),
    (N, "1 3/4", 7, 4),
    (N, "-1 3/4", -7, 4),
    (N, "2 1/2", 5, 2),
    (N, "1 3 / 4", 7, 4),
    (N, "1\u00a03/4", 7, 4),
    (N, "3 0/4", 3, 1),
    (N, "½", 1, 2),
    (N, "¾", 3, 4),
    (N, "-¼", -1, 4),
    (N, "1½", 3, 2),
    (N, "2 ⅓", 7, 3),
    (N, "-1½", -3, 2),
    (N, "⅛", 1, 8),
    (AS, "2 + 3", 5, 1),
    (AS, "2+3", 5, 1),
    (AS, "8 - 3 - 2", 3, 1),
    (AS, "-(3 + 4)", -7, 1),
    (AS, "3 - -2", 5, 1),
    (AS, "3 - (2 - 1)", 2, 1),
    (AS, "1/2 + 1/4", 3, 4),
    (AS, "1 3/4 + 2", 15, 4),
    (AS, "-1 3/4 + 2", 1, 4),
    (AS, "½ + ½", 1, 1),
    (AS, "10 − 4", 6, 1),
    (AS, "((((((1))))))", 1, 1),
    (AS, "12", 12, 1),
    (AS, "-3/4", -3, 4),
    (AS, "+(+2)", 2, 1),
    (AS, "1+1+1+1+1+1+1+1+1", 9, 1),
    (AS, "3 + -1/2", 5, 2),
    (FO, "2 + 3 x 4", 14, 1),
    (FO, "2 + 3 X 4", 14, 1),
    (FO, "2+3*4", 14, 1),
    (FO, "2 × 3", 6, 1),
    (FO, "2 · 3", 6, 1),
    (FO, "2 ⋅ 3", 6, 1),
    (FO, "3x4", 12, 1),
    (FO, "8 / 4 / 2", 1, 1),
    (FO, "8 ÷ 4 ÷ 2", 1, 1),
    (FO, "12 : 4", 3, 1),
    (FO, "(2 + 3) x 4", 20, 1),
    (FO, "2 x -3", -6, 1),
    (FO, "-(3 + 4) x 2", -14, 1),
    (FO, "3/4", 3, 4),
    (FO, "1/3 + 1/6", 1, 2),
    (FO, "8 / 1/2", 4, 1),
    (FO, "8 / 1 1/2", 16, 3),
    (FO, "1 3/4 + 2", 15, 4),
    (FO, "2 x 1½", 3, 1),
    (FO, "7 ÷ 2", 7, 2),
    (FO, "3⁄4 x 4", 3, 1),
    (FO, "(1 + 2) / (3 - 1)", 3, 2),
    (FO, "2 x (3 + (4 - (1 + 1)))", 10, 1),
    (FO, "0 / 5", 0, 1),
    (FO, "-12", -12, 1),
    (FO, "1 − 2 × 3", -5, 1),
    (FO, "10 - 2 x 3 + 4 / 2", 6, 1),
]
# Decimals: the locale's own decimal sign, and a point in comma locales unless it could group thousands.
COMMA = [
    (N, "0,5", 1, 2),
    (N, "3,5", 7, 2),
    (N, "-3,25", -13, 4),
    (N, ",5", 1, 2),
    (N, "0,1", 1, 10),
    (N, "1,234", 617, 500),
    (N, "3.5", 7, 2),
    (N, ".5", 1, 2),
    (N, "1.23", 123, 100),
    (N, "0.125", 1, 8),
    (N, "1234.567", 1234567, 1000),
    (N, "1.2345", 2469, 2000),
    (N, "00,10", 1, 10),
    (N, "-0,001", -1, 1000),
    (AS, "0,1 + 0,2", 3, 10),
    (AS, "0,1+0,2-0,3", 0, 1),
    (AS, "1,5 + 1 1/2", 3, 1),
    (FO, "2,5 x 4", 10, 1),
    (FO, "1,5/3", 1, 2),
    (FO, "0,1 x 0,1", 1, 100),
]
POINT = [
    (N, "0.5", 1, 2),
    (N, "3.5", 7, 2),
    (N, "-3.25", -13, 4),
    (N, ".5", 1, 2),
    (N, "0.1", 1, 10),
    (N, "1.234", 617, 500),
    (N, "0.125", 1, 8),
    (AS, "0.1 + 0.2", 3, 10),
    (FO, "2.5 x 4", 10, 1),
    (FO, "1.5/3", 1, 2),
]
ACCEPTED = (
    [(locale, *case) for locale in LOCALES for case in EVERYWHERE]
    + [(locale, *case) for locale in COMMA_LOCALES for case in COMMA]
    + [("en", *case) for case in POINT]
)


@pytest.mark.parametrize("locale, allow, text, p, q", ACCEPTED)
def test_accepted_answers_have_their_exact_value(locale, allow, text, p, q):
    value = parse_answer(text, locale, allow=allow)
    assert value == sympy.Rational(p, q)
    assert isinstance(value, sympy.Rational)


# (locales, allow, text, code)
ALL = LOCALES
REFUSED = [
    (ALL, N, "", "empty"),
    (ALL, N, "   ", "empty"),
    (ALL, FO, " \t ", "empty"),
    (ALL, N, "\u00a0", "empty"),
    (ALL, N, "x", "letters"),
    (ALL, FO, "x", "letters"),
    (ALL, FO, "x + 1", "letters"),
    (ALL, N, "abc", "letters"),
    (ALL, N, "pi", "letters"),
    (ALL, FO, "sqrt(4)", "letters"),
    (ALL, N, "e", "letters"),
    (ALL, N, "oo", "letters"),
    (ALL, N, "I", "letters"),
    (ALL, N, "nan", "letters"),
    (ALL, N, "inf", "letters"),
    (ALL, N, "-inf", "letters"),
    (ALL, FO, "__import__('os')", "letters"),
    (ALL, N, "twelve", "letters"),
    (ALL, N, "1e5", "letters"),
    (ALL, N, "1E5", "letters"),
    (ALL, FO, "2xx3", "letters"),
    (ALL, FO, "3 x y", "letters"),
    (ALL, N, "π", "letters"),
    (ALL, FO, "Rational(1, 2)", "letters"),
    (ALL, N, "٣", "other_digits"),
    (ALL, N, "３", "other_digits"),
    (ALL, N, "2²", "other_digits"),
    (ALL, N, "१२", "other_digits"),
    (ALL, N, "Ⅻ", "other_digits"),
    (ALL, N, "⅟", "other_digits"),
    (ALL, N, "=12", "equals_sign"),
    (ALL, FO, "3 x 4 = 12", "equals_sign"),
    (ALL, FO, "2^3", "power_not_allowed"),
    (ALL, FO, "2**3", "power_not_allowed"),
    (ALL, N, "2**3", "power_not_allowed"),
    (ALL, N, "3!", "factorial_not_allowed"),
    (ALL, N, "50%", "percent_not_allowed"),
    (ALL, N, "5‰", "percent_not_allowed"),
    (ALL, N, "√4", "bad_character"),
    (ALL, N, "∞", "bad_character"),
    (ALL, FO, "[3]", "bad_character"),
    (ALL, N, "3 — 2", "bad_character"),
    (ALL, N, "$5", "bad_character"),
    (ALL, N, "'3'", "bad_character"),
    (ALL, N, "3;", "bad_character"),
    (ALL, N, "＋3", "bad_character"),
    (ALL, N, "\x00", "hidden_character"),
    (ALL, N, "1\x002", "hidden_character"),
    (ALL, N, "3\u200b", "hidden_character"),
    (ALL, N, "3\x1b", "hidden_character"),
    (ALL, N, "3\u0301", "hidden_character"),
    (ALL, N, "\ud800", "hidden_character"),
    (ALL, N, "\x7f", "hidden_character"),
    (ALL, N, "1234567890123", "too_many_digits"),
    (ALL, N, "0000000000001", "too_many_digits"),
    (ALL, N, "1.2.3", "ambiguous_decimal"),
    (ALL, N, "1,2,3", "ambiguous_decimal"),
    (ALL, N, "1.234,5", "ambiguous_decimal"),
    (ALL, N, "1..5", "ambiguous_decimal"),
    (COMMA_LOCALES, N, "1.234", "ambiguous_decimal"),
    (COMMA_LOCALES, N, "12.345", "ambiguous_decimal"),
    (COMMA_LOCALES, N, "-999.000", "ambiguous_decimal"),
    (("en",), N, "1,234", "ambiguous_decimal"),
    (("en",), N, "100,000", "ambiguous_decimal"),
    (("en",), N, "3,5", "decimal_comma"),
    (("en",), N, "0,125", "decimal_comma"),
    (("en",), N, ",5", "decimal_comma"),
    (("en",), AS, "0,1 + 0,2", "decimal_comma"),
    (ALL, N, "3,", "bad_number"),
    (ALL, N, "3.", "bad_number"),
    (ALL, N, ",", "bad_number"),
    (ALL, N, ".", "bad_number"),
    (ALL, N, "(3)", "brackets_not_allowed"),
    (ALL, N, "-(3)", "brackets_not_allowed"),
    (ALL, AS, "(3", "unbalanced_brackets"),
    (ALL, AS, "3)", "unbalanced_brackets"),
    (ALL, FO, ")(", "unbalanced_brackets"),
    (ALL, FO, "((1 + 2)", "unbalanced_brackets"),
    (ALL, AS, "(((((((1)))))))", "too_deep"),
    (ALL, FO, "(" * 20 + "1" + ")" * 20, "too_deep"),
    (ALL, AS, "1+1+1+1+1+1+1+1+1+1", "too_many_operators"),
    (ALL, FO, "- - - - - - - - - 1", "too_many_operators"),
    (ALL, N, "3 + 4", "operator_not_allowed"),
    (ALL, N, "3 - 4", "operator_not_allowed"),
    (ALL, N, "3 x 4", "operator_not_allowed"),
    (ALL, N, "3 ÷ 4", "operator_not_allowed"),
    (ALL, N, "12 : 4", "operator_not_allowed"),
    (ALL, N, "1/2/3", "operator_not_allowed"),
    (ALL, AS, "3 x 4", "operator_not_allowed"),
    (ALL, AS, "3 * 4", "operator_not_allowed"),
    (ALL, AS, "6 ÷ 2", "operator_not_allowed"),
    (ALL, AS, "(1 + 2)/3", "operator_not_allowed"),
    (ALL, AS, "1/2/3", "operator_not_allowed"),
    (ALL, FO, "3 +", "missing_number"),
    (ALL, FO, "+", "missing_number"),
    (ALL, N, "-", "missing_number"),
    (ALL, N, "--3", "missing_number"),
    (ALL, FO, "* 3", "missing_number"),
    (ALL, FO, "/3", "missing_number"),
    (ALL, FO, "3 x", "missing_number"),
    (ALL, FO, "3 + * 4", "missing_number"),
    (ALL, FO, "(3 +)", "missing_number"),
    (ALL, AS, "(+)", "missing_number"),
    (ALL, AS, "()", "empty_brackets"),
    (ALL, FO, "2 x ()", "empty_brackets"),
    (ALL, FO, "2(3)", "missing_operator"),
    (ALL, FO, "(2)(3)", "missing_operator"),
    (ALL, FO, "(2)3", "missing_operator"),
    (ALL, N, "½ ½", "missing_operator"),
    (ALL, AS, "1/2 3/4", "missing_operator"),
    (ALL, N, "1 234", "spaced_number"),
    (ALL, N, "1\u00a0234", "spaced_number"),
    (ALL, N, "3 4", "spaced_number"),
    (ALL, FO, "12 345 + 1", "spaced_number"),
    (ALL, N, "1 2 3/4", "spaced_number"),
    (ALL, N, "3/-4", "bad_fraction"),
    (ALL, N, "3/", "bad_fraction"),
    (ALL, AS, "3/(4)", "bad_fraction"),
    (ALL, N, "3/½", "bad_fraction"),
    (COMMA_LOCALES, N, "1,5/2", "bad_fraction"),
    (("en",), N, "1.5/2", "bad_fraction"),
    (ALL, N, "1 5/4", "bad_mixed_number"),
    (ALL, N, "1 4/4", "bad_mixed_number"),
    (ALL, FO, "2 x 1 3/2", "bad_mixed_number"),
    (ALL, N, "3/0", "zero_denominator"),
    (ALL, N, "-3/0", "zero_denominator"),
    (ALL, N, "0/0", "zero_denominator"),
    (ALL, N, "1 3/0", "zero_denominator"),
    (ALL, AS, "1 + 3/0", "zero_denominator"),
    (ALL, FO, "1 1/0 + 1", "zero_denominator"),
    (ALL, FO, "3/0", "division_by_zero"),
    (ALL, FO, "3 ÷ 0", "division_by_zero"),
    (ALL, FO, "0/0", "division_by_zero"),
    (ALL, FO, "1 / (2 - 2)", "division_by_zero"),
    (ALL, FO, "5 : (1/2 - 1/2) + 1", "division_by_zero"),
    (ALL, N, "1" * 61, "too_long"),
    (ALL, FO, "1 + " * 100 + "1", "too_long"),
    (ALL, N, "x" * 10**6, "too_long"),
]
REFUSED_CASES = [(locale, allow, text, code) for locales, allow, text, code in REFUSED for locale in locales]


def _ids(case):
    return repr(case)[:40] if isinstance(case, str) else None


@pytest.mark.parametrize("locale, allow, text, code", REFUSED_CASES, ids=_ids)
def test_refused_answers_say_why(locale, allow, text, code):
    with pytest.raises(AnswerError) as caught:
        read_answer(text, locale, allow=allow)
    error = caught.value
    assert error.code == code
    assert error.locale == locale
    for message in (str(error), say(error.text, locale), say(error.text, "en")):
        assert message.strip() and "%(" not in message and "%%" not in message


def test_every_message_can_be_filled_and_every_code_is_documented():
    seen = {code for *_, code in REFUSED_CASES}
    documented = answers.__doc__
    assert seen == {key.split("/")[0] for key in answers.MESSAGES}
    for code in seen:
        assert code in documented


def test_an_answer_error_is_a_value_error_with_an_english_str():
    with pytest.raises(ValueError) as caught:
        parse_answer("3 x 4", "nb")
    error = caught.value
    assert isinstance(error, AnswerError)
    assert str(error) == "Here I need just one number, so I can't use x. Work out the answer and type it, like 12."
    assert error.params["operator"] == "x" and error.msgid == answers.MESSAGES["operator_not_allowed"]


def test_messages_are_said_in_the_readers_language_and_english_where_a_translation_is_broken():
    error = AnswerError("operator_not_allowed", {"operator": "÷", "example": "12"}, "nb")
    said = say(error.text, "nb")
    assert said == say(Text(error.msgid, error.params), "nb") and "÷" in said and said != str(error)

    class Catalogue(NullTranslations):
        def __init__(self, table):
            super().__init__()
            self.table = table

        def gettext(self, message):
            return self.table.get(message, message)

    fake = Catalogue({error.msgid: "Her trenger jeg bare ett tall, så jeg kan ikke bruke %(operator)s."})
    assert say(error.text, "nb", fake) == "Her trenger jeg bare ett tall, så jeg kan ikke bruke ÷."
    broken = Catalogue({error.msgid: "Feil: %(missing)s"})
    assert say(error.text, "nb", broken) == str(error)  # a broken translation shows English


def test_messages_help_with_the_locales_own_decimal_sign():
    with pytest.raises(AnswerError) as caught:
        parse_answer("1.234", "nb")
    assert "3,5" in str(caught.value) and "1234" in str(caught.value)
    with pytest.raises(AnswerError) as caught:
        parse_answer("3,5", "en")
    assert "3.5" in str(caught.value)
    with pytest.raises(AnswerError) as caught:
        parse_answer("0,1 + 7", "en", allow=ALLOW_ADD_SUB)
    assert caught.value.params["fixed"] == "0.1"


def test_a_reading_keeps_the_literals_and_how_we_read_it():
    reading = read_answer(" 1 3/4 + 0,5 - ½ ", "nb", allow=ALLOW_ADD_SUB)
    numbers = (sympy.Rational(7, 4), sympy.Rational(1, 2), sympy.Rational(1, 2))
    assert reading == Reading(sympy.Rational(7, 4), numbers, "1 3/4 + 0,5 − 1/2", " 1 3/4 + 0,5 - ½ ", "calculation")
    assert read_answer("3/4 x 4 - -2", "en", allow=ALLOW_FOUR_OPS).numbers == (3, 4, 4, 2)
    assert read_answer("3/4 + 1", "en", allow=ALLOW_ADD_SUB).numbers == (sympy.Rational(3, 4), 1)
    assert read_answer("-3/4", "sv").numbers == (sympy.Rational(3, 4),)
    assert read_answer("7/3", "it").shown == "7/3"
    assert read_answer("0.5", "it").shown == "0,5"
    assert all(isinstance(n, sympy.Rational) for n in read_answer("1 + 2,5", "it", allow=ALLOW_ADD_SUB).numbers)


# (locale, allow, typed, read back): the pupil's own form in the locale's notation, never a reduced or converted value.
READ_BACK = [
    ("nb", N, "1/2", "1/2"),
    ("it", N, "21/81", "21/81"),
    ("sv", N, " 21 / 81 ", "21/81"),
    ("nb", N, "0.5", "0,5"),
    ("en", N, "0.5", "0.5"),
    ("nb", N, "1 3/4", "1 3/4"),
    ("nb", N, "1½", "1 1/2"),
    ("en", N, "-3", "−3"),
    ("sv", N, "-3/4", "−3/4"),
    ("it", N, ",5", "0,5"),
    ("en", N, "007", "7"),
    ("nb", FO, "3/4", "3/4"),
    ("en", FO, "-12", "−12"),
    ("en", AS, "1/2 + 1/4", "1/2 + 1/4 = 3/4"),
    ("nb", AS, "10 - 4", "10 − 4 = 6"),
    ("nb", FO, "2 x (3 + 1)", "2 · (3 + 1) = 8"),
    ("it", FO, "8 / 2 - -1", "8 : 2 − −1 = 5"),
    ("en", FO, "8 : 1 1/2", "8 ÷ 1 1/2 = 16/3"),
]


@pytest.mark.parametrize("locale, allow, typed, read", READ_BACK)
def test_an_answer_is_read_back_as_typed_in_the_locales_notation(locale, allow, typed, read):
    reading = read_answer(typed, locale, allow=allow)
    assert read_back(reading, locale, "fraction") == read
    assert parse_answer(read_back(reading, locale, "fraction").split(" = ")[0], locale, allow=allow) == reading.value


def test_a_reading_says_how_the_answer_was_written():
    assert (read_answer("21/81", "nb").form, read_answer("21/81", "nb").fraction) == ("fraction", (21, 81))
    assert read_answer("-21/81", "nb").fraction == (21, 81) and read_answer("½", "en").fraction == (1, 2)
    assert [read_answer(text, "en").form for text in ("12", "-12", "0.5", "1 3/4", "1½")] == [
        "whole",
        "whole",
        "decimal",
        "mixed",
        "mixed",
    ]
    assert (
        read_answer("3/4", "en", allow=ALLOW_FOUR_OPS).form == "fraction"
    )  # typed alone, a fraction even where "/" divides
    assert read_answer("3/4 x 1", "en", allow=ALLOW_FOUR_OPS).form == "calculation"
    assert (
        read_answer("(3)", "en", allow=ALLOW_FOUR_OPS).form == "calculation"
        and read_answer("- -3", "en", allow=ALLOW_ADD_SUB).form == "calculation"
    )
    assert read_answer("21/81", "en", allow=ALLOW_ADD_SUB).value == sympy.Rational(
        7, 27
    )  # the value is exact and reduced


def test_limits_can_be_tightened_and_are_checked_first():
    tight = Limits(max_length=10, max_digits=3, max_depth=1, max_operators=2)
    assert parse_answer("(1+2)-3", "en", allow=ALLOW_FOUR_OPS, limits=tight) == 0
    for text, code in [
        ("12345678901", "too_long"),
        ("1234", "too_many_digits"),
        ("((1))", "too_deep"),
        ("1+2+3+4", "too_many_operators"),
    ]:
        with pytest.raises(AnswerError) as caught:
            parse_answer(text, "en", allow=ALLOW_FOUR_OPS, limits=tight)
        assert caught.value.code == code and str(caught.value.params["limit"]) in str(caught.value)
    huge = "(" * 10**6
    start = time.perf_counter()
    with pytest.raises(AnswerError):
        parse_answer(huge, "en", allow=ALLOW_FOUR_OPS)
    assert time.perf_counter() - start < 0.01


def test_only_text_and_known_modes():
    with pytest.raises(TypeError):
        parse_answer(12, "en")
    with pytest.raises(ValueError):
        parse_answer("12", "en", allow="powers")
    assert parse_answer("3,5", "nb_NO") == sympy.Rational(7, 2)
    assert parse_answer("3.5", "fr") == sympy.Rational(7, 2)  # an unknown locale reads like English


DESCRIBED = [  # the minus sign is "−" (U+2212) in every locale
    (12, 1, "12", "12"),
    (-3, 1, "−3", "−3"),
    (0, 1, "0", "0"),
    (7, 2, "3.5", "3,5"),
    (-7, 2, "−3.5", "−3,5"),
    (1, 10, "0.1", "0,1"),
    (7, 3, "7/3", "7/3"),
    (-7, 3, "−7/3", "−7/3"),
    (1, 8, "0.125", "0,125"),
    (-1, 1000, "−0.001", "−0,001"),
    (1, 3, "1/3", "1/3"),
    (617, 500, "1.234", "1,234"),
    (1, 2**40, f"1/{2**40}", f"1/{2**40}"),
    (123456789, 100, "1234567.89", "1234567,89"),
    (1, 7 * 2, "1/14", "1/14"),
]


@pytest.mark.parametrize("p, q, english, comma", DESCRIBED)
def test_describe_is_exact_in_the_locales_notation(p, q, english, comma):
    value = sympy.Rational(p, q)
    assert describe(value, "en") == format_number(value, "en") == english
    for locale in COMMA_LOCALES:
        assert describe(value, locale) == comma
    assert describe(Fraction(p, q), "en") == english
    if q == 1:
        assert describe(p, "nb") == comma


def test_describe_refuses_inexact_numbers():
    for value in (0.5, sympy.Float(0.5), sympy.pi, True):
        with pytest.raises(TypeError):
            describe(value, "en")


@settings(max_examples=300, deadline=None)
@given(st.integers(-(10**12) + 1, 10**12 - 1), st.integers(1, 10**12 - 1), st.sampled_from(LOCALES))
def test_describe_reads_back_to_the_same_value(p, q, locale):
    value = sympy.Rational(p, q)
    assume(abs(value.p) < 10**12 and value.q < 10**12)
    shown = describe(value, locale)
    assert parse_answer(shown, locale) == value
    assert parse_answer(shown, locale, allow=ALLOW_FOUR_OPS) == value  # as a division it is the same value
    assert parse_answer(shown, locale, allow=ALLOW_ADD_SUB) == value


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 6), st.booleans(), st.sampled_from(LOCALES))
def test_terminating_decimals_read_back(digits, places, negative, locale):
    value = Fraction(-digits if negative else digits, 10**places)
    assert parse_answer(describe(value, locale), locale) == sympy.Rational(value.numerator, value.denominator)


# Small expression trees: a leaf is an int or a short decimal; a node is (op, left, right).
PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}
leaves = st.one_of(
    st.integers(-20, 99).map(Fraction), st.builds(Fraction, st.integers(-999, 999), st.sampled_from([10, 100, 4]))
)


def trees(ops):
    return st.recursive(leaves, lambda sub: st.tuples(st.sampled_from(ops), sub, sub), max_leaves=5)


def evaluate(tree) -> Fraction:
    if isinstance(tree, Fraction):
        return tree
    op, left, right = tree
    a, b = evaluate(left), evaluate(right)
    return {"+": a + b, "-": a - b, "*": a * b}[op] if op != "/" else a / b


def render(tree, locale, draw, bracket=False) -> str:
    if isinstance(tree, Fraction):
        text = describe(tree, locale)
        if text.startswith("-"):
            text = draw(st.sampled_from(["-", "−", "– "])) + text[1:]
            if draw(st.booleans()):
                text = f"({text})"
        return text
    op, left, right = tree
    sign = draw(
        st.sampled_from({"+": ["+"], "-": ["-", "−"], "*": ["x", "×", "*", "·", "X"], "/": ["/", "÷", ":"]}[op])
    )
    space = draw(st.sampled_from(["", " "]))

    def side(child, right_side):
        needs = not isinstance(child, Fraction) and (
            PRECEDENCE[child[0]] < PRECEDENCE[op] or (right_side and PRECEDENCE[child[0]] == PRECEDENCE[op])
        )
        return render(child, locale, draw, needs or draw(st.integers(0, 5)) == 0)

    text = f"{side(left, False)}{space}{sign}{space}{side(right, True)}"
    return f"({text})" if bracket else text


WIDE = Limits(max_length=400, max_operators=30, max_depth=20)


@settings(max_examples=400, deadline=None)
@given(st.data(), st.sampled_from(LOCALES), st.sampled_from([ALLOW_ADD_SUB, ALLOW_FOUR_OPS]))
def test_expressions_evaluate_like_fraction_arithmetic(data, locale, allow):
    tree = data.draw(trees(["+", "-"] if allow == ALLOW_ADD_SUB else ["+", "-", "*", "/"]))
    text = render(tree, locale, data.draw)
    try:
        expected = evaluate(tree)
    except ZeroDivisionError:
        with pytest.raises(AnswerError) as caught:
            parse_answer(text, locale, allow=allow, limits=WIDE)
        assert caught.value.code == "division_by_zero"
        return
    assert parse_answer(text, locale, allow=allow, limits=WIDE) == sympy.Rational(
        expected.numerator, expected.denominator
    ), text


NEVER_EVALUATED = (
    [text for _, _, text, _, _ in ACCEPTED]
    + [text for _, _, text, _ in REFUSED_CASES]
    + [
        "__import__('os').system('echo hi')",
        "exec('1')",
        "lambda: 1",
        "1 if 1 else 2",
        "Integer(2)",
        "S(1)/2",
        "2**10**10",
        "[1]*9",
    ]
)


def test_pupil_text_never_reaches_sympify_parse_expr_eval_or_exec(monkeypatch):
    calls = []

    def trap(name, original):
        def guarded(*args, **kwargs):
            if any(isinstance(arg, str) for arg in args) or any(isinstance(v, str) for v in kwargs.values()):
                calls.append((name, args))
                raise AssertionError(f"{name} was called with text")
            return original(*args, **kwargs)

        return guarded

    def forbidden(name):
        def refuse(*args, **kwargs):
            calls.append((name, args))
            raise AssertionError(f"{name} was called")

        return refuse

    monkeypatch.setattr(sympy, "sympify", trap("sympy.sympify", sympy.sympify))
    core = importlib.import_module("sympy.core.sympify")  # the module, which sympy.core.sympify (the function) hides
    monkeypatch.setattr(core, "sympify", trap("sympy.core.sympify.sympify", core.sympify))
    monkeypatch.setattr(sympy.parsing.sympy_parser, "parse_expr", forbidden("parse_expr"))
    monkeypatch.setattr(builtins, "eval", forbidden("eval"))
    monkeypatch.setattr(builtins, "exec", forbidden("exec"))
    read = 0
    for text in NEVER_EVALUATED:
        for locale in ("en", "nb"):
            for allow in (ALLOW_NUMBER, ALLOW_ADD_SUB, ALLOW_FOUR_OPS):
                try:
                    reading = read_answer(text, locale, allow=allow)
                    describe(reading.value, locale)
                    read += 1
                except AnswerError:
                    pass
    assert not calls and read > 100
    with pytest.raises(AssertionError):  # the traps do fire
        sympy.sympify("1")


def test_the_module_names_no_evaluator_and_no_flask():
    tree = ast.parse(Path(answers.__file__).read_text(encoding="utf-8"))
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    names |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    names |= {
        alias.name for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names
    }
    modules = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not names & {"sympify", "parse_expr", "S", "eval", "exec", "compile", "__import__", "Float", "literal_eval"}
    assert not any("flask" in (m or "").lower() for m in modules | names)
