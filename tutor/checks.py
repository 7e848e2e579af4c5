"""Named answer checks, in the manner of Oppia's rule specs.

Each check is a pure function of the pupil's exact value and the question's stated
values; its name, description and feedback live in ``content/checks.toml``. Values
travel as text ("173", "7/2") so a question can be stored as plain JSON.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from tutor import content
from tutor.answers import WHOLE

if TYPE_CHECKING:
    import sympy


def exact(text: str) -> sympy.Rational:
    """Read a stored exact value such as "173" or "-7/2" (our own data, never pupil text)."""
    import sympy  # here, not at the top: importing sympy takes most of the app's start-up

    numerator, _, denominator = str(text).partition("/")
    return sympy.Rational(int(numerator), int(denominator or 1))


def _equals(value, spec, reading=None) -> bool:
    return value == exact(spec["expected"])


def _within_tolerance(value, spec, reading=None) -> bool:
    return abs(value - exact(spec["expected"])) <= exact(spec["tolerance"])


def _choice(value, spec, reading=None) -> bool:
    return str(value) in spec["expected"]


def _between_inclusive(value, spec, reading=None) -> bool:
    low, high = sorted((exact(spec["low"]), exact(spec["high"])))
    return low <= value <= high


def _between_strict(value, spec, reading=None) -> bool:
    low, high = sorted((exact(spec["low"]), exact(spec["high"])))
    return low < value < high


def _equivalent_simplest(value, spec, reading=None) -> bool:
    """Equal to the expected value, and written as a whole number or a fully reduced fraction."""
    if value != exact(spec["expected"]):
        return False
    return reading is None or in_simplest_form(reading)


def in_simplest_form(reading) -> bool:
    """Typed as a whole number, or as one fraction whose numerator and denominator no whole number above 1 divides."""
    if reading.fraction is not None:
        numerator, denominator = reading.fraction
        return denominator != 1 and math.gcd(numerator, denominator) == 1
    return reading.form == WHOLE


def uses_only(numbers, allowed) -> bool:
    """Each number used is one of ``allowed``, and none more often than it is there."""
    available = Counter(exact(n) for n in allowed)
    return not Counter(numbers) - available


def _closest_to_target(value, spec, reading=None) -> bool:
    """As close to the target as the best expression from the given numbers, each used at most once."""
    if reading is not None and not uses_only(reading.numbers, spec["numbers"]):
        return False
    return abs(value - exact(spec["target"])) <= exact(spec["best_distance"])


def _is_prime(value, spec, reading=None) -> bool:
    import sympy

    return value.is_integer and bool(sympy.isprime(int(value)))


def typed_back(spec: dict, reading) -> str | None:
    """The division the question asks to work out, when it is typed back as the answer ("224/4"), else None.

    A question may list such unworked forms under ``unworked``: typed as a fraction they
    have the right value, but they are the question, not its result.
    """
    if reading is None or not spec.get("unworked") or reading.fraction is None or reading.value < 0:
        return None
    written = "%d/%d" % reading.fraction
    return written if written in spec["unworked"] else None


CHECKS: dict[str, Callable] = {
    "equals": _equals,
    "within_tolerance": _within_tolerance,
    "choice": _choice,
    "between_inclusive": _between_inclusive,
    "between_strict": _between_strict,
    "equivalent_simplest": _equivalent_simplest,
    "is_prime": _is_prime,
    "closest_to_target": _closest_to_target,
}


def run_check(spec: dict, value, reading=None) -> bool:
    """Apply the check named by ``spec["rule"]`` to ``value`` (``reading``: how it was typed, if typed)."""
    return bool(CHECKS[spec["rule"]](value, spec, reading))


def check_text(rule: str, right: bool) -> str:
    """The English feedback message of a named check (translated where shown)."""
    return content.load("checks")[rule]["right" if right else "wrong"]
