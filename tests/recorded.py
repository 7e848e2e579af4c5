"""Recorded playthroughs: one seeded game per engine, stored as JSON, so that a rule change shows.

A record holds the move count, the winners, the summary, how often each kind of move
was made and a sha256 of the whole move list. After an intended change of the rules or
the computer players, re-record with
``KORTMATTE_RECORD_PLAYTHROUGHS=1 .venv/bin/pytest tests -k playthrough`` and review the diff.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from tutor.engine import make_game
from tutor.engine.play import replay, simulate

PLAYTHROUGHS = Path(__file__).parent / "playthroughs"


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


def check_playthrough(game_id: str, players: int, seed: int, bots: list[str], options: dict | None = None) -> None:
    """The seeded game plays exactly as recorded, and its moves replay to the same state."""
    record, result = playthrough(game_id, players, seed, bots, options)
    path = PLAYTHROUGHS / f"{game_id}.json"
    if os.environ.get("KORTMATTE_RECORD_PLAYTHROUGHS"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    stored = json.loads(path.read_text(encoding="utf-8"))
    assert record == stored, f"{game_id}: the rules or bots changed; re-record if intended (see tests/recorded.py)"
    assert replay(result.state.game, result.moves).to_dict() == result.state.to_dict()
