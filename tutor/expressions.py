"""Every value an expression can reach from a few numbers, each used at most once.

TripleSmart's strong computer players and the ``four_ops``/``add_sub`` drills both need
"the best value reachable, and one expression that reaches it". With three or four
card values the search is small, so it is exhaustive and exact (fractions, never
floats); division by zero is simply not a value. Expressions are plain ASCII ("(7 - 5) * 3",
"8 / 2"): the answer grammar reads them, and :mod:`tutor.signs` writes them in a reader's
school signs.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations

ADD_SUB = "add_sub"
FOUR_OPS = "four_ops"


def _combine(left: dict, right: dict, allow: str) -> dict:
    out: dict[Fraction, str] = {}
    for a, ea in left.items():
        for b, eb in right.items():
            candidates = [
                (a + b, f"{ea} + {eb}"),
                (a - b, f"{ea} - {_wrap(eb, '-')}"),
                (b - a, f"{eb} - {_wrap(ea, '-')}"),
            ]
            if allow == FOUR_OPS:
                candidates.append((a * b, f"{_wrap(ea, '*')} * {_wrap(eb, '*')}"))
                if b != 0:
                    candidates.append((a / b, f"{_wrap(ea, '*')} / {_wrap(eb, '/')}"))
                if a != 0:
                    candidates.append((b / a, f"{_wrap(eb, '*')} / {_wrap(ea, '/')}"))
            for value, text in candidates:
                if value not in out or len(text) < len(out[value]):
                    out[value] = text
    return out


def _wrap(expression: str, operator: str) -> str:
    """Brackets where precedence needs them; the operand of a sum or difference keeps its own."""
    if " " not in expression:
        return expression
    if (
        operator == "*"
        and (" * " in expression or " / " in expression)
        and " + " not in expression
        and " - " not in expression
    ):
        return expression
    return f"({expression})"


@lru_cache(maxsize=4096)
def _reach(numbers: tuple[int, ...], allow: str) -> dict:
    """Values from using *all* of ``numbers`` exactly once, with one expression each."""
    if len(numbers) == 1:
        return {Fraction(numbers[0]): str(numbers[0])}
    out: dict[Fraction, str] = {}
    indices = range(len(numbers))
    for size in range(1, len(numbers) // 2 + 1):
        for chosen in combinations(indices, size):
            left = tuple(numbers[i] for i in chosen)
            right = tuple(numbers[i] for i in indices if i not in chosen)
            for value, text in _combine(_reach(left, allow), _reach(right, allow), allow).items():
                if value not in out or len(text) < len(out[value]):
                    out[value] = text
    return out


def reachable(numbers: list[int], allow: str = FOUR_OPS) -> dict[Fraction, str]:
    """Every value of an expression using any non-empty selection of ``numbers``, each at most once."""
    return dict(_reachable(tuple(sorted(numbers)), allow))


@lru_cache(maxsize=4096)
def _reachable(numbers: tuple[int, ...], allow: str) -> dict[Fraction, str]:
    """:func:`reachable` for sorted numbers, kept per process (callers must not change the dict)."""
    out: dict[Fraction, str] = {}
    for size in range(1, len(numbers) + 1):
        for chosen in combinations(numbers, size):
            for value, text in _reach(chosen, allow).items():
                if value not in out or len(text) < len(out[value]):
                    out[value] = text
    return out


def closest(numbers: list[int], target: int, allow: str = FOUR_OPS) -> tuple[Fraction, Fraction, str]:
    """(best distance to ``target``, the value that reaches it, one expression for it)."""
    return _closest(tuple(sorted(numbers)), target, allow)


@lru_cache(maxsize=16384)
def _closest(numbers: tuple[int, ...], target, allow: str) -> tuple[Fraction, Fraction, str]:
    values = _reachable(numbers, allow)
    value = min(values, key=lambda v: (abs(v - target), len(values[v]), v))
    return abs(value - target), value, values[value]
