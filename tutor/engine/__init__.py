"""Pure game rules: the engine API, the registry of games, and a seeded driver.

Nothing here imports Flask. Add a game by writing one module that defines a
:class:`Game` subclass and registering it in :data:`GAMES` (see docs/adding-a-game.md).
"""

from __future__ import annotations

from tutor.engine.calculation_war import CalculationWar
from tutor.engine.casino_war import CasinoWar
from tutor.engine.classic_war import CLASSIC_WAR_GAMES
from tutor.engine.core import CHANCE, Bot, Game, IllegalMove, InvalidOptions, InvalidState, Move, Option, State
from tutor.engine.fraction_master import FractionMaster
from tutor.engine.multiwar import MultiWar
from tutor.engine.shedding import CrazyBananaExtreme, CrazyBananaOverslag, CrazyBananaTiervenner, MultiMatch
from tutor.engine.steal_war import StealWar
from tutor.engine.strategy_war import StrategyWar
from tutor.engine.triplesmart import TripleSmart, TripleSmartExtreme

#: Every registered game, by id.
GAMES: dict[str, type[Game]] = {
    game.id: game
    for game in (
        CalculationWar,
        MultiMatch,
        CrazyBananaOverslag,
        CrazyBananaTiervenner,
        CrazyBananaExtreme,
        MultiWar,
        TripleSmart,
        TripleSmartExtreme,
        FractionMaster,
        *CLASSIC_WAR_GAMES,
        StealWar,
        StrategyWar,
        CasinoWar,
    )
}


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
