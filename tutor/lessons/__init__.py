"""Guided lessons: one per game, found in this package's modules and listed in the order of the games.

:data:`LESSONS` holds one instance of every :class:`Lesson` subclass that sets its own
``game_id`` in a module of this package, in the order of :data:`tutor.engine.GAMES` (see
docs/adding-a-game.md); tests/test_registry.py checks that games and lessons match.
"""

from __future__ import annotations

import importlib
import pkgutil

from tutor.engine import GAMES
from tutor.lessons.base import Lesson

#: The module that looks lessons up in the registry (the runner) sits above it, so the search
#: for lessons does not import it.
ABOVE_THE_REGISTRY = frozenset({"runner"})


def discover_lessons() -> list[type[Lesson]]:
    """Every lesson class of this package's modules, in the order of the games (one for an unknown game last)."""
    found: dict[str, type[Lesson]] = {}
    for module_info in pkgutil.iter_modules(__path__, f"{__name__}."):
        if module_info.name.rpartition(".")[2] in ABOVE_THE_REGISTRY:
            continue
        module = importlib.import_module(module_info.name)
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Lesson) and "game_id" in vars(value):
                if found.setdefault(value.game_id, value) is not value:
                    raise ValueError(f"two lessons for {value.game_id!r}: {found[value.game_id]} and {value}")
    places = {game_id: place for place, game_id in enumerate(GAMES)}
    return sorted(found.values(), key=lambda lesson: (places.get(lesson.game_id, len(places)), lesson.game_id))


#: Every lesson, by game id, in the order of the games.
LESSONS: dict[str, Lesson] = {lesson.game_id: lesson() for lesson in discover_lessons()}

__all__ = ["LESSONS", "Lesson"]
