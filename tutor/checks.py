"""Named answer checks, in the manner of Oppia's rule specs.

Each check is a pure function of the pupil's exact value and the question's stated
values; its name, description and feedback live in ``content/checks.toml``. Values
travel as text ("173", "7/2") so a question can be stored as plain JSON.
"""

from __future__ import annotations

from typing import Callable

import sympy

from tutor import content


def exact(text: str) -> sympy.Rational:
    """Read a stored exact value such as "173" or "-7/2" (our own data, never pupil text)."""
    numerator, _, denominator = str(text).partition("/")
    return sympy.Rational(int(numerator), int(denominator or 1))


def _equals(value, spec) -> bool:
    return value == exact(spec["expected"])


def _within_tolerance(value, spec) -> bool:
    return abs(value - exact(spec["expected"])) <= exact(spec["tolerance"])


def _choice(value, spec) -> bool:
    return str(value) in spec["expected"]


def _between_inclusive(value, spec) -> bool:
    low, high = sorted((exact(spec["low"]), exact(spec["high"])))
    return low <= value <= high


def _between_strict(value, spec) -> bool:
    low, high = sorted((exact(spec["low"]), exact(spec["high"])))
    return low < value < high


def _equivalent_simplest(value, spec, typed_fraction: tuple[int, int] | None = None) -> bool:
    if value != exact(spec["expected"]):
        return False
    return typed_fraction is None or sympy.gcd(*typed_fraction) == 1


def _is_prime(value, spec) -> bool:
    return value.is_integer and bool(sympy.isprime(int(value)))


CHECKS: dict[str, Callable] = {
    "equals": _equals,
    "within_tolerance": _within_tolerance,
    "choice": _choice,
    "between_inclusive": _between_inclusive,
    "between_strict": _between_strict,
    "equivalent_simplest": _equivalent_simplest,
    "is_prime": _is_prime,
}


def run_check(spec: dict, value) -> bool:
    """Apply the check named by ``spec["rule"]`` to ``value``."""
    return bool(CHECKS[spec["rule"]](value, spec))


def check_text(rule: str, right: bool) -> str:
    """The English feedback message of a named check (translated where shown)."""
    return content.load("checks")[rule]["right" if right else "wrong"]
