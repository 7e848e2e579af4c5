"""The drill catalogue: every skill of games.md with its question generators and misconceptions.

Each drill module exports ``GENERATORS`` (skill id -> generator functions); this module
merges them, so a teacher's view, the lessons and the tests see one list. The skills
themselves (names, ages) are content: ``content/skills.toml``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from tutor import content
from tutor.drills import card_sums, fractions_primes_mean, number_facts, operations

MODULES = (card_sums, number_facts, fractions_primes_mean, operations)


def generators() -> dict[str, list[Callable]]:
    """Every skill's question generators, from every drill module."""
    merged: dict[str, list[Callable]] = defaultdict(list)
    for module in MODULES:
        for skill, functions in module.GENERATORS.items():
            merged[skill].extend(functions)
    return dict(merged)


def skills() -> dict:
    """The skills of the catalogue (content/skills.toml), in the order games.md lists them."""
    return content.load("skills")


def misconceptions() -> dict[str, set[str]]:
    """Every misconception recognised, per skill (from the question kinds' feedback tables)."""
    found: dict[str, set[str]] = defaultdict(set)
    for entry in content.drill_texts().values():
        found[entry["skill"]].update(entry.get("misconceptions", {}))
    return dict(found)
