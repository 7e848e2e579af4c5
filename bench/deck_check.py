"""How often the Kids2 deck offers each shedding game's maths play, and how fast the games run.

Plays seeded games between computer players (``--bots``, by seat, repeating) and looks
at every turn as it starts (before the player draws or calls), counting turns where
the player to move could make:

* MultiMatch: a two-card product play (``play_pair``);
* Crazy Banana: Tiervenner: a tens-friend play (a number card whose top number and the
  top discard's make 10);
* Crazy Banana: Extreme: a prime play (two circled values summing to a prime above the
  top discard's mean), and, for comparison, a "beats the total" play;
* Crazy Banana: Overslag: a card with a higher circled sum.

Each figure is a percentage of all turns, with counts; "no colour" counts the turns
where the player held no card of the colour in force, so the maths play (or a special
card, or drawing) was the only way on. Then, per game and player count, the average
number of moves per game and the simulation speed (plain ``simulate``, games/second).

    .venv/bin/python bench/deck_check.py [--seeds 50] [--bots strong,beginner]

A figure under about 10% makes that maths rule rare enough to be dull; one near 100%
makes it trivial (colour stops mattering). See the report at the end of the output.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tutor.deck import kids2  # noqa: E402
from tutor.engine import GAMES as REGISTERED  # noqa: E402
from tutor.engine import make_game  # noqa: E402
from tutor.engine.play import make_bots, next_automatic_move, simulate  # noqa: E402
from tutor.engine.shedding import SheddingGame, extreme_witness, is_prime  # noqa: E402

#: MultiMatch and the Crazy Banana games: every registered game of the shedding rules.
GAMES = tuple(game_id for game_id, game in REGISTERED.items() if issubclass(game, SheddingGame))
DECK = kids2()


def prime_play(hand: list[int], top) -> bool:
    """Two circled values of one card sum to a prime above the exact mean of the top card."""
    mean_times_4 = sum(top.circled)
    for card_id in hand:
        values = DECK[card_id].circled
        if values and any(
            is_prime(a + b) and 4 * (a + b) > mean_times_4 for i, a in enumerate(values) for b in values[i + 1 :]
        ):
            return True
    return False


def turn_features(state) -> dict[str, bool]:
    """What the player about to move could do at the start of the turn."""
    game_id, hand, top = state.game.id, state.hands[state.turn], state.top
    numbers = [DECK[c] for c in hand if not DECK[c].is_special]
    features = {
        "number top": not top.is_special,
        "no colour": not any(c.colour == state.colour for c in numbers),
    }
    if top.is_special:
        numbers = []
    if game_id == "multimatch":
        features["pair play"] = any(m.kind == "play_pair" for m in state.play_moves(state.turn))
    elif game_id == "crazy-banana-tiervenner":
        features["tens-friend play"] = any(c.top + top.top == 10 for c in numbers)
    elif game_id == "crazy-banana-extreme":
        features["prime play"] = bool(numbers) and prime_play([c.id for c in numbers], top)
        features["beats-total play"] = any(
            (extreme_witness(c.circled, top.circled) or ("",))[0] == "beats_total" for c in numbers
        )
        features["any Extreme vri"] = any(extreme_witness(c.circled, top.circled) for c in numbers)
    elif game_id == "crazy-banana-overslag":
        features["higher-sum play"] = any(c.circled_sum > top.circled_sum for c in numbers)
    maths = [key for key in features if key.endswith("play")][:1]
    if maths:
        features["maths play, no colour"] = features[maths[0]] and features["no colour"]
    return features


def observe(game_id: str, players: int, seed: int, bots: list[str]) -> tuple[Counter, int]:
    """Play one game, counting turn features; return the counts and the number of turns seen."""
    game = make_game(game_id, players)
    seats = dict(enumerate(make_bots(game, bots)))
    state, ply, seen, counts = game.new_state(), 0, set(), Counter()
    while not state.is_over:
        if state.phase == "play" and state.drawn == 0 and not state.called and state.turns not in seen:
            seen.add(state.turns)
            counts.update(key for key, value in turn_features(state).items() if value)
        state.apply(next_automatic_move(state, seed, ply, seats))
        ply += 1
    return counts, len(seen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=50)
    parser.add_argument("--bots", default="strong,beginner", help="computer players by seat, comma separated")
    args = parser.parse_args()
    bots = [name for name in args.bots.split(",") if name]

    print(f"Maths plays available at the start of a turn ({args.seeds} seeds x 2, 3, 4 players, bots {','.join(bots)})")
    for game_id in GAMES:
        counts, turns = Counter(), 0
        for players in (2, 3, 4):
            for seed in range(args.seeds):
                game_counts, game_turns = observe(game_id, players, seed, bots)
                counts.update(game_counts)
                turns += game_turns
        print(f"  {game_id}: {turns} turns")
        for key, value in counts.items():
            print(f"    {key:24} {100 * value / turns:5.1f}%  ({value}/{turns})")

    print(f"\nMoves per game and speed (plain simulate, {args.seeds} seeds each)")
    print(f"  {'game':26} {'players':>7} {'avg moves':>10} {'avg turns':>10} {'games/s':>9}")
    for game_id in GAMES:
        for players in (2, 3, 4):
            game = make_game(game_id, players)
            started = time.perf_counter()
            results = [simulate(game, seed, bots) for seed in range(args.seeds)]
            elapsed = time.perf_counter() - started
            assert all(r.state.is_over and r.accounted for r in results)
            moves = statistics.mean(len(r.moves) for r in results)
            turns = statistics.mean(r.state.turns for r in results)
            print(f"  {game_id:26} {players:>7} {moves:>10.1f} {turns:>10.1f} {args.seeds / elapsed:>9.0f}")


if __name__ == "__main__":
    main()
