"""Primes for the games and drills: the list to 200 that Crazy Banana: Extreme promises."""

from __future__ import annotations

import math
from functools import cache

PRIME_LIMIT = 200


@cache
def _sieve(limit: int) -> tuple[int, ...]:
    flags = bytearray([1]) * (limit + 1)
    flags[: min(2, limit + 1)] = bytes(min(2, limit + 1))
    for p in range(2, math.isqrt(limit) + 1):
        if flags[p]:
            flags[p * p :: p] = bytes(len(range(p * p, limit + 1, p)))
    return tuple(n for n in range(limit + 1) if flags[n])


def primes_up_to(limit: int = PRIME_LIMIT) -> list[int]:
    """The primes from 2 to ``limit``."""
    return list(_sieve(max(int(limit), 0)))


def smallest_factor(n: int) -> int:
    """The smallest divisor of ``n`` above 1 (``n`` itself when it is prime)."""
    return next((p for p in range(2, math.isqrt(n) + 1) if n % p == 0), n)


def is_prime(n: int) -> bool:
    return n >= 2 and smallest_factor(n) == n
