"""Every registered game simulated between computer players: does it end, and how fast.

For each game and every player count it takes, plays ``--seeds`` seeded games (strong and
beginner bots alternating by seat) with the game's default options and prints how many
finished with every card accounted for, the average and median number of moves, how
many games the safety round cap ended (War can run for a very long time: the cap ends
it as "most cards wins") and the simulation speed in games per second. ``--game`` limits
the run to one game. The same figures come from the command line one game at a time:
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
    parser.add_argument("--game", choices=sorted(GAMES), help="only this game")
    args = parser.parse_args()
    print(
        f"{'game':26} {'players':>7} {'finished':>9} {'accounted':>9} {'avg moves':>10} {'median':>8} {'capped':>7} "
        f"{'games/s':>8}"
    )
    for game_id in [args.game] if args.game else GAMES:
        for players in range(GAMES[game_id].min_players, GAMES[game_id].max_players + 1):
            game = make_game(game_id, players)
            moves, finished, accounted, capped = [], 0, 0, 0
            start = time.perf_counter()
            for seed in range(args.seeds):
                result = simulate(game, seed, ["strong", "beginner"])
                moves.append(len(result.moves))
                finished += result.state.is_over
                accounted += result.accounted
                capped += result.state.summary().get("ended_by") == "round_cap"
            seconds = time.perf_counter() - start
            print(
                f"{game_id:26} {players:>7} {finished:>6}/{args.seeds:<2} {accounted:>6}/{args.seeds:<2} "
                f"{statistics.mean(moves):>10.1f} {statistics.median(moves):>8.0f} {capped:>7} "
                f"{args.seeds / seconds:>8.0f}"
            )


if __name__ == "__main__":
    main()
