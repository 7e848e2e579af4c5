"""Time reading and checking pupil answers, and compare with sympy.sympify on the same inputs.

Builds a seeded, realistic mix of valid answers in all four locales (integers, decimals
with the locale's sign and calculator points, fractions, mixed numbers, small add_sub and
four_ops expressions), then times per input:

* ours: ``parse_answer(text, locale, allow=...)`` and ``== expected``;
* sympify: ``sympy.sympify(text', rational=True)`` and ``== expected``, where text' is
  the same answer rewritten for Python syntax (point decimals, ``*`` for x, brackets
  round mixed numbers). This is for comparison only: the app never sympifies pupil text.

With ``--hostile`` it also times the 120,000 random and hostile inputs of
``tests/test_answers_fuzz.py`` (junk, huge numbers, deep brackets, odd Unicode) and prints
the median, p99 and slowest call: the parser must stay fast on anything a pupil can type.

    .venv/bin/python bench/answers.py [--answers 3000] [--seed 7] [--hostile]
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import sympy  # noqa: E402

from tutor.answers import ALLOW_ADD_SUB, ALLOW_FOUR_OPS, ALLOW_NUMBER, AnswerError, describe, parse_answer  # noqa: E402

LOCALES = ("en", "nb", "sv", "it")


def leaf(rng: random.Random, locale: str) -> tuple[str, Fraction]:
    """One number as a pupil would type it, and its value."""
    kind = rng.randrange(5)
    if kind <= 1:
        value = Fraction(rng.randint(0, 200))
        return str(value), value
    if kind == 2:
        value = Fraction(rng.randint(1, 999), rng.choice([10, 100, 4]))
        text = describe(value, locale)
        if locale != "en" and rng.random() < 0.2 and len(text.partition(",")[2]) != 3:
            text = text.replace(",", ".")  # a calculator's point in a comma locale
        return text, value
    if kind == 3:
        value = Fraction(rng.randint(1, 11), rng.randint(2, 12))
        return f"{value.numerator}/{value.denominator}", value
    whole, den = rng.randint(1, 9), rng.randint(2, 9)
    num = rng.randint(1, den - 1)
    return f"{whole} {num}/{den}", whole + Fraction(num, den)


def expression(rng: random.Random, locale: str, ops: str, size: int) -> tuple[str, Fraction]:
    text, value = leaf(rng, locale)
    for _ in range(size):
        op = rng.choice(ops)
        right_text, right = leaf(rng, locale)
        if op in "x÷" and rng.random() < 0.5:
            right_text, right = f"({right_text} + 1)", right + 1
        elif op == "÷" and "/" in right_text:
            right_text = f"({right_text})"  # 2 ÷ 3/4 would be (2 ÷ 3)/4
        if op == "÷" and right == 0:
            op = "+"
        if op in "x÷" and any(o in text for o in "+-"):
            text = f"({text})"
        value = (
            value + right
            if op == "+"
            else value - right
            if op == "-"
            else value * right
            if op == "x"
            else value / right
        )
        text = f"{text} {op} {right_text}"
    return text, value


def mix(count: int, seed: int) -> list[tuple[str, str, str, sympy.Rational]]:
    rng = random.Random(seed)
    cases = []
    for i in range(count):
        locale, shape = LOCALES[i % 4], rng.random()
        if shape < 0.5:
            text, value = leaf(rng, locale)
            if rng.random() < 0.2:
                text, value = "-" + text, -value
            allow = ALLOW_NUMBER
        elif shape < 0.75:
            (text, value), allow = expression(rng, locale, "+-", rng.randint(1, 3)), ALLOW_ADD_SUB
        else:
            (text, value), allow = expression(rng, locale, "+-x÷", rng.randint(1, 3)), ALLOW_FOUR_OPS
        while sum(text.count(sign) for sign in "+-x÷/") > 8:  # the default limit counts every sign, fraction bars too
            (text, value) = expression(rng, locale, "+-" if allow == ALLOW_ADD_SUB else "+-x÷", 1)
        cases.append((text, locale, allow, sympy.Rational(value.numerator, value.denominator)))
    return cases


MIXED = re.compile(r"(\d+) (\d+)/(\d+)")
LEADING_ZEROS = re.compile(r"(?<![\d.])0+(?=\d)")


def for_sympify(text: str) -> str:
    """The same answer in Python syntax (our own generated text, for the comparison only)."""
    text = MIXED.sub(r"(\1+\2/\3)", text.replace(",", "."))
    text = text.replace("x", "*").replace("×", "*").replace("÷", "/").replace("−", "-")
    return LEADING_ZEROS.sub("", text)


def micros(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1e6, ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--hostile", action="store_true", help="also time the fuzz test's hostile inputs")
    args = parser.parse_args()
    cases = mix(args.answers, args.seed)
    converted = [for_sympify(text) for text, *_ in cases]
    for (text, locale, allow, _), python in list(zip(cases, converted))[:50]:  # warm up both
        parse_answer(text, locale, allow=allow)
        sympy.sympify(python, rational=True)

    ours, theirs = [], []
    for text, locale, allow, expected in cases:
        start = time.perf_counter()
        right = parse_answer(text, locale, allow=allow) == expected
        ours.append(time.perf_counter() - start)
        assert right, (text, locale, allow, expected)
    for python, (text, _, _, expected) in zip(converted, cases):
        start = time.perf_counter()
        right = sympy.sympify(python, rational=True) == expected
        theirs.append(time.perf_counter() - start)
        assert right, (text, python, expected)

    kinds = {
        mode: sum(1 for case in cases if case[2] == mode) for mode in (ALLOW_NUMBER, ALLOW_ADD_SUB, ALLOW_FOUR_OPS)
    }
    print(f"{len(cases)} answers in en/nb/sv/it: {kinds}; e.g. {', '.join(repr(c[0]) for c in cases[:6])}")
    (our_median, our_p99), (their_median, their_p99) = micros(ours), micros(theirs)
    print(f"parse_answer + check : median {our_median:8.1f} µs   p99 {our_p99:8.1f} µs")
    print(f"sympy.sympify + check: median {their_median:8.1f} µs   p99 {their_p99:8.1f} µs")
    print(f"ratio sympify / ours : median {their_median / our_median:6.1f}x      p99 {their_p99 / our_p99:6.1f}x")
    if args.hostile:
        time_hostile()


def time_hostile() -> None:
    """Time every input of the fuzz test; the slowest call is the figure that matters."""
    from tests.test_answers_fuzz import COMBOS, inputs

    samples, slowest, slowest_text = [], 0.0, ""
    for i, text in enumerate(inputs(random.Random(20240613))):
        allow, locale = COMBOS[i % len(COMBOS)]
        start = time.perf_counter()
        try:
            parse_answer(text, locale, allow=allow)
        except AnswerError:
            pass
        seconds = time.perf_counter() - start
        samples.append(seconds)
        if seconds > slowest:
            slowest, slowest_text = seconds, text
    median, p99 = micros(samples)
    print(
        f"hostile inputs       : {len(samples)} calls, median {median:8.1f} µs   p99 {p99:8.1f} µs   "
        f"slowest {slowest * 1e3:.2f} ms on {slowest_text[:30]!r}"
    )


if __name__ == "__main__":
    main()
