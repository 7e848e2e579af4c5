"""Drive a game: seeded chance moves, computer players, replay and whole-game simulation."""

from __future__ import annotations

import random
from dataclasses import dataclass

from tutor.engine.core import CHANCE, Bot, Game, Move, State


def chance_rng(seed: int, ply: int) -> random.Random:
    """The generator for the chance move at position ``ply``: fixed by the seed alone."""
    return random.Random(f"chance:{seed}:{ply}")


def bot_rng(seed: int, ply: int) -> random.Random:
    """The generator a computer player uses at position ``ply``."""
    return random.Random(f"bot:{seed}:{ply}")


def make_bots(game: Game, names: list[str]) -> list[Bot]:
    """One bot per seat; the names repeat if fewer than the players are given."""
    if not names:
        names = ["strong"]
    unknown = [name for name in names if name not in game.bots]
    if unknown:
        raise KeyError(
            f"{game.id} has no computer player called {', '.join(unknown)} (choose from {', '.join(sorted(game.bots))})"
        )
    return [game.bots[names[seat % len(names)]]() for seat in range(game.players)]


def next_automatic_move(state: State, seed: int, ply: int, bots: dict[int, Bot]) -> Move | None:
    """The chance move or bot move due now, or None when a person must move (or the game is over)."""
    if state.is_over:
        return None
    player = state.current_player
    if player == CHANCE:
        return state.chance_move(chance_rng(seed, ply))
    bot = bots.get(player)
    if bot is None:
        return None
    return bot.choose(state.player_view(player), state.legal_moves(), bot_rng(seed, ply))


@dataclass
class Simulation:
    state: State
    moves: list[Move]

    @property
    def accounted(self) -> bool:
        """Every card of the game is in exactly one zone."""
        return sorted(self.state.card_ids()) == sorted(self.state.game.card_ids())

    def report(self) -> dict:
        return {
            "game": self.state.game.id,
            "players": self.state.game.players,
            "options": self.state.game.options,
            "finished": self.state.is_over,
            "winners": self.state.winners(),
            "moves": len(self.moves),
            "cards_accounted_for": self.accounted,
            **self.state.summary(),
        }


def simulate(game: Game, seed: int, bot_names: list[str] | None = None, max_moves: int = 200_000) -> Simulation:
    """Play a whole game between computer players."""
    bots = dict(enumerate(make_bots(game, bot_names or [])))
    state, moves = game.new_state(), []
    while not state.is_over and len(moves) < max_moves:
        move = next_automatic_move(state, seed, len(moves), bots)
        state.apply(move)
        moves.append(move)
    return Simulation(state, moves)


def replay(game: Game, moves: list[Move]) -> State:
    """Rebuild the state reached by ``moves`` (chance outcomes are part of the moves)."""
    state = game.new_state()
    for move in moves:
        state.apply(move)
    return state
