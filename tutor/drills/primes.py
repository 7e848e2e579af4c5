"""Skill ``primes``: is this number prime, and which sums of a card's circled values are prime?

Crazy Banana: Extreme asks it about a Kids2 card's four circled values (card ids); a
number is tested from 1 to 200. Difficulty 1 reminds what a prime is, or shows a card sum
that is easy to test (even, or a multiple of 5) and fewer pairs with their sums; 3 a sum
with a hidden factor, and the pairs without their sums. Texts: ``content/drills/primes.toml``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations

from tutor.drills import CHOICE, NO, YES, Question
from tutor.drills.common import (
    NONE,
    ask,
    check_difficulty,
    claim,
    label,
    misconception,
    number_card,
    wrong_choice,
    yes_no_choices,
)
from tutor.primes import PRIME_LIMIT, is_prime, primes_up_to, smallest_factor
from tutor.signs import formula, listing


def _hidden_square(n: int) -> bool:
    """A square of a prime that the tests for 2, 3 and 5 miss: 49, 121, 169."""
    root = math.isqrt(n)
    return root * root == n and root >= 7 and is_prime(root)


def _factored(n: int) -> dict:
    """n as its smallest factor times the rest: "91 = 7 × 13"."""
    p = smallest_factor(n)
    return formula(n, "=", p, "*", n // p)


#: The squares of primes that the tests for 2, 3 and 5 miss, as a misconception shows them.
_PRIME_SQUARES = listing([formula(p, "*", p, "=", p * p) for p in (7, 11, 13)], ",")


def prime_is_prime(n: int, difficulty: int = 2, cards: Sequence[int] = ()) -> Question:
    """Is n prime, for n from 1 to 200? (yes/no). Difficulty 1 reminds what a prime is in the prompt."""
    difficulty = check_difficulty(difficulty)
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= PRIME_LIMIT:
        raise ValueError(f"n must be a whole number from 1 to {PRIME_LIMIT}")
    prime = is_prime(n)
    factor = smallest_factor(n) if n > 1 else 1
    params = {
        "n": n,
        "digit_sum": sum(int(d) for d in str(n)),
        "factor": factor,
        "cofactor": n // factor,
        "factored": formula(n, "=", factor, "*", n // factor),
        "primes": ", ".join(map(str, primes_up_to())),
    }
    outcome = "one" if n == 1 else "two" if n == 2 else "prime" if prime else "composite"
    if n == 1:
        mistake = "one_is_prime"
    elif n == 2:
        mistake = "two_not_prime"
    elif prime:
        mistake = None
    elif n % 2 == 0:
        mistake = "even_means_prime"
    else:
        mistake = "prime_square" if _hidden_square(n) else "odd_means_prime"
    return ask(
        "prime_is_prime",
        params,
        [*(["reminder"] if difficulty == 1 else []), *([outcome] if outcome != "composite" else [])],
        answer=CHOICE,
        check={"rule": "choice", "expected": [YES if prime else NO]},
        misconceptions=[misconception(mistake, [NO if prime else YES])] if mistake else [],
        choices=yes_no_choices(),
        cards=list(cards),
        difficulty=difficulty,
    )


def _sum_level(n: int) -> int:
    """How hard it is to tell whether a card sum is prime: 1 even or a multiple of 5, 3 a hidden factor
    or a big prime."""
    if n % 2 == 0 or n % 5 == 0:
        return 1
    if n % 3 == 0 or (is_prime(n) and n < 100):
        return 2
    return 3


def prime_card_sum(card_id: int, difficulty: int = 2) -> Question:
    """Is the sum of two circled values of a card prime? The sum is easy to test at difficulty 1, hard at 3."""
    difficulty = check_difficulty(difficulty)
    sums = sorted({a + b for a, b in combinations(number_card(card_id).circled, 2)})
    levels: dict[int, list[int]] = {}
    for n in sums:
        levels.setdefault(_sum_level(n), []).append(n)
    group = levels[min(levels, key=lambda lv: (abs(lv - difficulty), lv))]
    return prime_is_prime(group[card_id % len(group)], difficulty, cards=[card_id])


WHICH_SUM_BUTTONS = {1: 3, 2: 6, 3: 6}


def prime_which_sum(card_id: int, difficulty: int = 2) -> Question:
    """Which pair of a card's circled values adds up to a prime? (buttons: the pairs, and "none").

    Difficulty 1 shows 3 pairs with their sums, 2 all six with sums, 3 all six without sums.
    """
    difficulty = check_difficulty(difficulty)
    pairs = list(combinations(number_card(card_id).circled, 2))
    traps = [p for p in pairs if not is_prime(sum(p)) and sum(p) % 2]
    picked = [p for p in pairs if is_prime(sum(p))][:1]
    for pair in traps + pairs:
        if pair not in picked and len(picked) < WHICH_SUM_BUTTONS[difficulty]:
            picked.append(pair)
    shown = [p for p in pairs if p in picked]

    def value(pair):
        return f"{pair[0]}+{pair[1]}"

    prime_pairs = [p for p in shown if is_prime(sum(p))]
    right = [value(p) for p in prime_pairs] or [NONE]
    candidates = [
        ("prime_square", [value(p) for p in shown if _hidden_square(sum(p))]),
        ("odd_means_prime", [value(p) for p in shown if sum(p) % 2 and not is_prime(sum(p))]),
        ("even_means_prime", [value(p) for p in shown if sum(p) % 2 == 0 and sum(p) != 2]),
    ]
    params = {
        "values": ", ".join(map(str, number_card(card_id).circled)),
        "sums": "; ".join(f"{a} + {b} = {a + b}" for a, b in shown),
        "factored": listing([_factored(sum(p)) for p in shown if not is_prime(sum(p))]),
        "prime_sums": ", ".join(str(sum(p)) for p in prime_pairs),
        "primes": ", ".join(map(str, primes_up_to())),
        "squares": _PRIME_SQUARES,
    }
    key = "pair" if difficulty == 3 else "pair_sum"
    choices = [
        {"value": value(p), "label": label("prime_which_sum", key, a=p[0], b=p[1], sum=p[0] + p[1])} for p in shown
    ]
    choices.append({"value": NONE, "label": label("prime_which_sum", NONE)})
    return ask(
        "prime_which_sum",
        params,
        [] if prime_pairs else ["none"],
        answer=CHOICE,
        check={"rule": "choice", "expected": right},
        misconceptions=claim(candidates, wrong_choice(right, choices)),
        choices=choices,
        cards=[card_id],
        difficulty=difficulty,
    )


GENERATORS = [prime_is_prime, prime_card_sum, prime_which_sum]
