"""Recorded playthroughs: one seeded game per registered game, stored as JSON, so that a rule change shows.

``tests/playthroughs/<game-id>.json`` holds the game's setup (``players``, ``seed``, ``bots`` and
``options``) and what came of it: the move count, the winners, the summary, how often each kind
of move was made and a sha256 of the whole move list. tests/test_playthroughs.py plays every
registered game's setup again and compares. After an intended change of the rules or the
computer players, or for a new game, record with
``KORTMATTE_RECORD_PLAYTHROUGHS=1 .venv/bin/pytest tests -k playthrough`` and review the diff.
A new game is recorded with :func:`first_setup`; edit the setup in its file (more players, an
option) and record again to make its game show more of the rules.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from tests.seeds import game_seed
from tutor.engine import GAMES, make_game
from tutor.engine.play import replay, simulate

PLAYTHROUGHS = Path(__file__).parent / "playthroughs"
RECORDING = bool(os.environ.get("KORTMATTE_RECORD_PLAYTHROUGHS"))


def first_setup(game_id: str) -> dict:
    """The setup a game without a recording is recorded with: three players if it takes them, its default options."""
    game = GAMES[game_id]
    players = max(game.min_players, min(3, game.max_players))
    return {"players": players, "seed": game_seed(game_id), "bots": ["strong", "beginner"], "options": {}}


def playthrough(game_id: str, players: int, seed: int, bots: list[str], options: dict | None = None):
    """Simulate the recorded game: its record and the simulation itself."""
    game = make_game(game_id, players, options or {})
    result = simulate(game, seed, bots)
    moves = json.dumps([m.to_dict() for m in result.moves], sort_keys=True, separators=(",", ":"))
    return {
        "game": game_id,
        "players": players,
        "seed": seed,
        "bots": list(bots),
        "options": game.options,
        "moves": len(result.moves),
        "winners": result.state.winners(),
        "summary": result.state.summary(),
        "move_kinds": {
            kind: sum(m.kind == kind for m in result.moves) for kind in sorted({m.kind for m in result.moves})
        },
        "moves_sha256": hashlib.sha256(moves.encode()).hexdigest(),
    }, result


def check_playthrough(game_id: str) -> None:
    """The game's recorded setup plays exactly as recorded, and its moves replay to the same state."""
    path = PLAYTHROUGHS / f"{game_id}.json"
    if not path.exists() and not RECORDING:
        raise AssertionError(f"{game_id} has no recorded playthrough: record {path.name} (see tests/recorded.py)")
    stored = json.loads(path.read_text(encoding="utf-8")) if path.exists() else first_setup(game_id)
    setup = {key: stored[key] for key in ("players", "seed", "bots", "options")}
    record, result = playthrough(game_id, **setup)
    if RECORDING:
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        stored = record
    assert record == stored, f"{game_id}: the rules or bots changed; re-record if intended (see tests/recorded.py)"
    assert replay(result.state.game, result.moves).to_dict() == result.state.to_dict()
