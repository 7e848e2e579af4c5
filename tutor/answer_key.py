"""The answer key of the named checks: a right and a wrong answer to any question, typed as a pupil would.

The demo's simulated pupils, the tests and the benches answer the questions of every game
without knowing the game, as a teacher's answer key would. Every rule of
:data:`tutor.checks.CHECKS` has its entry in :data:`RIGHT` and :data:`WRONG` (a test keeps
them in step), and a property test proves over every question generator and every locale
that :func:`tutor.drills.marking.mark` finds each right answer right and each wrong one wrong.

Without a random generator the key gives the same answer every time (the first right
button, one fixed number); with one it varies as pupils do.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from tutor.answers import describe
from tutor.checks import exact
from tutor.drills import CHOICE, Question
from tutor.expressions import closest
from tutor.signs import plain_formula, typed, write

#: Primes a pupil knows by heart, and odd numbers that look prime but are not.
SMALL_PRIMES = ("2", "3", "5", "7", "11", "13")
ODD_NOT_PRIME = ("9", "15", "21", "27")
#: How far a wrong number lies from the right one: a slip, or a ten out.
NEAR_MISSES = (-10, -2, -1, 1, 2, 10)

#: One rule's key: (question, locale, random generator or None) -> the typed answer (None: there is none).
Key = Callable[[Question, str, random.Random | None], str | None]


def right_answer(question: Question | dict, locale: str, rng: random.Random | None = None) -> str:
    """A right answer as a pupil of ``locale`` types it: an estimate as a round number, an expression in typed keys."""
    question = _as_question(question)
    return RIGHT[question.check["rule"]](question, locale, rng)


def wrong_answer(
    question: Question | dict, locale: str, rng: random.Random | None = None, misconception: bool = False
) -> str | None:
    """A readable wrong answer; with ``misconception``, one that shows a misconception the question names, if any.

    None for a question that has no wrong answer: every button is right (a tie between all the cards).
    """
    question = _as_question(question)
    if misconception:
        telling = _telling_values(question)
        if telling:
            value = _pick(telling, rng)
            return value if question.answer == CHOICE else _number(exact(value), question, locale)
    return WRONG[question.check["rule"]](question, locale, rng)


def _as_question(question: Question | dict) -> Question:
    """A question as generated, or as stored with a run or an answer."""
    return Question.from_dict(question) if isinstance(question, dict) else question


def _pick(values, rng: random.Random | None):
    return values[0] if rng is None else rng.choice(values)


def _number(value, question: Question, locale: str) -> str:
    """A number as the pupil types it: in the locale's notation and the form the question writes numbers in."""
    return describe(value, locale, question.number_form)


def _telling_values(question: Question) -> list[str]:
    """The wrong answers the question lists under its named misconceptions (a button's value, or an exact number)."""
    values = [value for named in question.misconceptions for value in named["values"]]
    if question.answer == CHOICE:
        buttons = {choice["value"] for choice in question.choices}
        return [value for value in values if value in buttons and value not in question.check["expected"]]
    return values


def _card_numbers(check: dict) -> list[int]:
    return [int(exact(number)) for number in check["numbers"]]


def _expression(plain: str, locale: str) -> str:
    """A plain-ASCII expression in the keys a pupil of ``locale`` types ("3 x 4", "8 : 2")."""
    return write(typed(plain_formula(plain)), locale)


# --- right answers, by rule -----------------------------------------------------------------------
def _right_choice(question: Question, locale: str, rng: random.Random | None) -> str:
    return _pick(question.check["expected"], rng)


def _right_exact(question: Question, locale: str, rng: random.Random | None) -> str:
    return _number(exact(question.check["expected"]), question, locale)


def _right_estimate(question: Question, locale: str, rng: random.Random | None) -> str:
    """The nearest ten when it is close enough, as a pupil rounds; else the exact value."""
    expected, tolerance = exact(question.check["expected"]), exact(question.check["tolerance"])
    rounded = round(expected / 10) * 10
    return _number(rounded if abs(rounded - expected) <= tolerance else expected, question, locale)


def _right_between_inclusive(question: Question, locale: str, rng: random.Random | None) -> str:
    return _number(exact(question.check["low"]), question, locale)


def _right_between_strict(question: Question, locale: str, rng: random.Random | None) -> str:
    return _number((exact(question.check["low"]) + exact(question.check["high"])) / 2, question, locale)


def _right_prime(question: Question, locale: str, rng: random.Random | None) -> str:
    return _pick(SMALL_PRIMES, rng)


def _right_closest(question: Question, locale: str, rng: random.Random | None) -> str:
    check = question.check
    _, _, best = closest(_card_numbers(check), int(exact(check["target"])), question.allow)
    return _expression(best, locale)


RIGHT: dict[str, Key] = {
    "equals": _right_exact,
    "within_tolerance": _right_estimate,
    "choice": _right_choice,
    "between_inclusive": _right_between_inclusive,
    "between_strict": _right_between_strict,
    "equivalent_simplest": _right_exact,
    "is_prime": _right_prime,
    "closest_to_target": _right_closest,
}


# --- wrong answers, by rule -----------------------------------------------------------------------
def _wrong_choice(question: Question, locale: str, rng: random.Random | None) -> str | None:
    wrong = [choice["value"] for choice in question.choices if choice["value"] not in question.check["expected"]]
    return _pick(wrong, rng) if wrong else None


def _wrong_exact(question: Question, locale: str, rng: random.Random | None) -> str:
    """A near miss, not below zero when the right answer is not: a pupil counting cards types 2, not −1."""
    expected = exact(question.check["expected"])
    miss = 1 if rng is None else rng.choice(NEAR_MISSES)
    return _number(expected + (abs(miss) if expected + miss < 0 <= expected else miss), question, locale)


def _wrong_estimate(question: Question, locale: str, rng: random.Random | None) -> str:
    """Beyond the tolerance, above or below."""
    side = _pick((1, -1), rng)
    beyond = exact(question.check["tolerance"]) + (1 if rng is None else rng.choice((5, 10, 20)))
    return _number(exact(question.check["expected"]) + side * beyond, question, locale)


def _wrong_between(question: Question, locale: str, rng: random.Random | None) -> str:
    """Just above the interval."""
    check = question.check
    return _number(max(exact(check["low"]), exact(check["high"])) + _pick((1, 2, 5), rng), question, locale)


def _wrong_prime(question: Question, locale: str, rng: random.Random | None) -> str:
    return _pick(ODD_NOT_PRIME, rng)


def _wrong_closest(question: Question, locale: str, rng: random.Random | None) -> str:
    """The first two numbers added, or a number on its own, that misses the best reachable distance.

    Should each of them be as close as can be, a number used once more than the cards have it.
    """
    check = question.check
    numbers, target, best = _card_numbers(check), exact(check["target"]), exact(check["best_distance"])
    tries = [(numbers[0] + numbers[1], f"{numbers[0]} + {numbers[1]}")] if len(numbers) > 1 else []
    tries += [(number, str(number)) for number in numbers]
    for value, expression in tries:
        if abs(value - target) > best:
            return _expression(expression, locale)
    return _expression(" + ".join([str(numbers[0])] * (numbers.count(numbers[0]) + 1)), locale)


WRONG: dict[str, Key] = {
    "equals": _wrong_exact,
    "within_tolerance": _wrong_estimate,
    "choice": _wrong_choice,
    "between_inclusive": _wrong_between,
    "between_strict": _wrong_between,
    "equivalent_simplest": _wrong_exact,
    "is_prime": _wrong_prime,
    "closest_to_target": _wrong_closest,
}
