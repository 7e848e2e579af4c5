"""The drill catalogue: every skill of games.md with its question generators and misconceptions.

Each skill has one module in ``tutor/drills``, named by the skill's id, that exports its
generators as ``GENERATORS``; this is the one place that lists them, so a teacher's view,
the lessons and the tests see one list. The skills themselves (names, ages) are content:
``content/skills.toml``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from types import ModuleType

from tutor import content
from tutor.drills import (
    add_sub,
    compare,
    count,
    estimate_sum,
    exact_sum,
    factor_pairs,
    four_ops,
    fractions,
    mean,
    missing_addend,
    multiply,
    parity_size,
    primes,
    probability,
    tens_friends,
)

#: One module per skill, in the order content/skills.toml lists the skills.
MODULES = (
    compare,
    count,
    tens_friends,
    parity_size,
    add_sub,
    missing_addend,
    multiply,
    factor_pairs,
    estimate_sum,
    exact_sum,
    four_ops,
    fractions,
    primes,
    mean,
    probability,
)


def skill_of(module: ModuleType) -> str:
    """The skill a drill module asks: its name (``tutor.drills.fractions`` asks ``fractions``)."""
    return module.__name__.rpartition(".")[2]


def generators() -> dict[str, list[Callable]]:
    """Every skill's question generators."""
    return {skill_of(module): list(module.GENERATORS) for module in MODULES}


def skills() -> dict:
    """The skills of the catalogue (content/skills.toml), in the order games.md lists them."""
    return content.load("skills")


def misconceptions() -> dict[str, set[str]]:
    """Every misconception recognised, per skill (from the question kinds' feedback tables)."""
    found: dict[str, set[str]] = defaultdict(set)
    for entry in content.drill_texts().values():
        found[entry["skill"]].update(entry.get("misconceptions", {}))
    return dict(found)
