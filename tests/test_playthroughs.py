"""Every registered game has one recorded playthrough, and it plays exactly as recorded (see tests/recorded.py)."""

from __future__ import annotations

import json

import pytest

from tests.recorded import PLAYTHROUGHS, check_playthrough
from tutor.engine import GAMES


@pytest.mark.parametrize("game_id", GAMES)
def test_recorded_playthrough_is_unchanged(game_id):
    check_playthrough(game_id)


def test_every_registered_game_has_a_recording_and_every_recording_a_game():
    recorded = {path.stem: json.loads(path.read_text(encoding="utf-8"))["game"] for path in PLAYTHROUGHS.glob("*.json")}
    assert [stem for stem, game in recorded.items() if stem != game] == [], "a file named for another game"
    assert sorted(recorded) == sorted(GAMES)
