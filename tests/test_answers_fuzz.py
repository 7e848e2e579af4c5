"""Fuzz the answer parser with random and hostile text: only AnswerError, fast, small.

A seeded run of 120,000 inputs spread over the three allow modes and four locales, made
before tracing starts so that the traced peak is the parser's own memory.
Every call must return an exact Reading or raise AnswerError, and the whole run must stay
under 50 MB of traced memory. How long a call takes is measured in ``bench/answers.py``
(``--hostile`` times these same inputs), not here: a wall-clock limit fails on a busy machine.
"""

from __future__ import annotations

import random
import string
import tracemalloc

import sympy

from tutor.answers import ALLOW_ADD_SUB, ALLOW_FOUR_OPS, ALLOW_NUMBER, AnswerError, Limits, Reading, read_answer

COUNT = 120_000
MAX_PEAK_BYTES = 50 * 1024 * 1024
COMBOS = [
    (allow, locale) for allow in (ALLOW_NUMBER, ALLOW_ADD_SUB, ALLOW_FOUR_OPS) for locale in ("en", "nb", "sv", "it")
]

GRAMMAR = "0123456789" * 3 + ".,+-−–xX×*·⋅/⁄∕÷:() ½¾⅓" + " " * 6
JUNK = "^!%=$#@&[]{}<>;'\"\\|~`_ePiIoOnNa\t\n\r\x00\x1b\u200b\u00a0\u202f\u0301\ufeff٣３²१Ⅻ⅟∞√π—＋（"
VALID = [
    "12",
    "-12",
    "+5",
    "007",
    "3/4",
    "-3/4",
    "12/8",
    "1 3/4",
    "-1 3/4",
    "2 1/2",
    "½",
    "1½",
    "0,5",
    "3,5",
    "3.5",
    "0.125",
    "2 + 3 x 4",
    "8 - 3 - 2",
    "8 / 4 / 2",
    "-(3 + 4)",
    "3 - -2",
    "(1 + 2) / (3 - 1)",
    "0,1 + 0,2",
    "12 : 4",
    "1 3/4 + 2",
    "2 × (3 + (4 - (1 + 1)))",
    "10 − 2 · 3",
    "1/3 + 1/6",
    "999999999999",
    "2 x 1½",
]
RANGES = [
    (0x20, 0x7F),
    (0x80, 0x250),
    (0x300, 0x370),
    (0x590, 0x700),
    (0x900, 0x980),
    (0x2000, 0x2070),
    (0x2070, 0x20A0),
    (0x2150, 0x2190),
    (0x2200, 0x2300),
    (0xD800, 0xE000),
    (0xFF00, 0xFF60),
    (0x1F300, 0x1F650),
    (0xE0000, 0xE0080),
]


HUGE = [
    piece * size for piece in ("9", "(", "1+", "x", "½", " ", "\x00", "1,2") for size in (61, 1000, 10**5, 10**6)
]  # shared, ~20 MB


def unicode_junk(rng: random.Random, n: int) -> str:
    return "".join(chr(rng.randrange(*rng.choice(RANGES))) for _ in range(n))


def mutate(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        move = rng.randrange(5)
        where = rng.randint(0, len(chars))
        if move == 0:
            chars.insert(where, rng.choice(GRAMMAR))
        elif move == 1 and chars:
            del chars[min(where, len(chars) - 1)]
        elif move == 2 and chars:
            chars[min(where, len(chars) - 1)] = rng.choice(GRAMMAR + JUNK)
        elif move == 3:
            chars[where:where] = chars[: rng.randint(0, len(chars))]
        else:
            chars.insert(where, rng.choice(JUNK))
    return "".join(chars)


def expression(rng: random.Random, depth: int = 0) -> str:
    if depth > 3 or rng.random() < 0.35:
        return rng.choice(VALID[:16])
    op = rng.choice(["+", "-", "x", "/", "÷", "×", "−", ":"])
    text = f"{expression(rng, depth + 1)}{rng.choice(['', ' '])}{op}{rng.choice(['', ' '])}{expression(rng, depth + 1)}"
    return f"({text})" if rng.random() < 0.3 else text


def inputs(rng: random.Random):
    """Yield COUNT inputs, cycling through the kinds of attack."""
    for i in range(COUNT):
        kind = i % 10
        if kind == 0:
            yield "".join(rng.choices(string.printable, k=rng.randint(0, 80)))
        elif kind in (1, 2):
            yield "".join(rng.choices(GRAMMAR, k=rng.randint(0, 70)))
        elif kind in (3, 4):
            yield mutate(rng, rng.choice(VALID))
        elif kind == 5:
            digits = "".join(rng.choices("0123456789", k=rng.randint(1, 80)))
            cut = rng.randint(0, len(digits))
            yield rng.choice(["", "-", "−"]) + digits[:cut] + rng.choice(["", ",", ".", " ", "/", " 1/"]) + digits[cut:]
        elif kind == 6:
            yield "(" * rng.randint(0, 40) + rng.choice(["1", "-1", "", "1+2", "()"]) + ")" * rng.randint(0, 40)
        elif kind == 7:
            yield unicode_junk(rng, rng.randint(1, 40))
        elif kind == 8:
            yield expression(rng)
        elif i % 1000 == 9:
            yield HUGE[rng.randrange(len(HUGE))]
        else:
            yield rng.choice(["-", "+", "--", "1+", "1x", "(1)", "1/", "½"]) * rng.randint(1, 30) + "1"


#: The read-back spaces the signs out and writes ½ as 1/2, so it may be longer and have more signs than what was typed.
READ_BACK = Limits(max_length=200, max_operators=60)


def read(text: str, allow: str, locale: str) -> Reading | None:
    try:
        return read_answer(text, locale, allow=allow)
    except AnswerError as error:
        assert error.code and error.msgid and isinstance(error.params, dict)
        return None


def test_fuzz_only_answer_errors_and_small():
    texts = list(inputs(random.Random(20240613)))  # made first, so the traced memory is the parser's own
    count = accepted = 0
    tracemalloc.start()
    try:
        for i, text in enumerate(texts):
            allow, locale = COMBOS[i % len(COMBOS)]
            reading = read(text, allow, locale)
            if reading is not None:
                accepted += 1
                assert isinstance(reading.value, sympy.Rational) and reading.typed == text
                assert reading.numbers and reading.shown
                if allow != ALLOW_FOUR_OPS or not set(text) & set(
                    "½¾⅓"
                ):  # "÷ ½" reads back as "÷ 1/2", where "/" is a fraction bar to the eye
                    assert read_answer(reading.shown, locale, allow=allow, limits=READ_BACK).value == reading.value
            count += 1
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    print(f"\nfuzzed {count} inputs ({accepted} read), peak traced memory {peak / 1024 / 1024:.1f} MB")
    assert count >= 100_000
    assert accepted > 1000  # the mix reaches the parser's happy paths too
    assert peak < MAX_PEAK_BYTES
