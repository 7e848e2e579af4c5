"""Pure game rules: the engine API, the registry of games, and a seeded driver.

Nothing here imports Flask. A game registers itself: :data:`GAMES` holds every
:class:`Game` subclass that sets its own ``id`` in a module of this package, found when the
package is imported, in the order of their ``order`` numbers (see docs/adding-a-game.md).
"""

from __future__ import annotations

import importlib
import pkgutil

from tutor.engine.core import CHANCE, Bot, Game, IllegalMove, InvalidOptions, InvalidState, Move, Option, State


def discover_games() -> list[type[Game]]:
    """Every game of this package's modules, by ``order``: one list that a new game joins by being written."""
    found: dict[str, type[Game]] = {}
    for module_info in pkgutil.iter_modules(__path__, f"{__name__}."):
        module = importlib.import_module(module_info.name)
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Game) and "id" in vars(value):
                if found.setdefault(value.id, value) is not value:
                    raise ValueError(f"two games have the id {value.id!r}: {found[value.id]} and {value}")
    return sorted(found.values(), key=lambda game: (game.order, game.id))


#: Every registered game, by id, in the order they are listed.
GAMES: dict[str, type[Game]] = {game.id: game for game in discover_games()}


def make_game(game_id: str, players: int = 2, options: dict | None = None) -> Game:
    """Build a registered game; raises KeyError for an unknown id."""
    return GAMES[game_id](players=players, options=dict(options or {}))


__all__ = [
    "CHANCE",
    "GAMES",
    "Bot",
    "Game",
    "IllegalMove",
    "InvalidOptions",
    "InvalidState",
    "Move",
    "Option",
    "State",
    "make_game",
]
