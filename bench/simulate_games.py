"""Every registered game simulated between computer players: does it end, and how fast.

For each game and 2, 3 and 4 players, plays ``--seeds`` seeded games (strong and
beginner bots alternating by seat) and prints how many finished with every card
accounted for, the average number of moves and the simulation speed in games per
second. The same figures come from the command line one game at a time:
``kortmatte simulate GAME --players N --seed S --json``.

    .venv/bin/python bench/simulate_games.py [--seeds 50]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tutor.engine import GAMES, make_game  # noqa: E402
from tutor.engine.play import simulate  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=50)
    args = parser.parse_args()
    print(f"{'game':26} {'players':>7} {'finished':>9} {'accounted':>9} {'avg moves':>10} {'games/s':>8}")
    for game_id in GAMES:
        for players in range(GAMES[game_id].min_players, GAMES[game_id].max_players + 1):
            game = make_game(game_id, players)
            moves, finished, accounted = [], 0, 0
            start = time.perf_counter()
            for seed in range(args.seeds):
                result = simulate(game, seed, ["strong", "beginner"])
                moves.append(len(result.moves))
                finished += result.state.is_over
                accounted += result.accounted
            seconds = time.perf_counter() - start
            print(f"{game_id:26} {players:>7} {finished:>6}/{args.seeds:<2} {accounted:>6}/{args.seeds:<2} {statistics.mean(moves):>10.1f} {args.seeds / seconds:>8.0f}")


if __name__ == "__main__":
    main()
