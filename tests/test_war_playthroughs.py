"""War and its variants: one recorded seeded game each, so that a change of the rules or the bots shows.

Re-record after an intended change with
``KORTMATTE_RECORD_PLAYTHROUGHS=1 .venv/bin/pytest tests/test_war_playthroughs.py`` and review the diff.
"""

from __future__ import annotations

import pytest

from tests.recorded import check_playthrough

SETUPS = [
    ("war", 3, 11, ["strong", "beginner"], {"round_limit": 200}),
    ("joker-war", 2, 12, ["strong"], {"round_limit": 200}),
    ("two-deck-war", 2, 13, ["beginner"], {"round_limit": 200}),
    ("pyanitsa", 4, 14, ["strong", "beginner"], {"tie_rule": "down_up"}),
    ("tod-und-leben", 2, 15, ["strong"], {"rounds": 2}),
    ("razboiul", 2, 16, ["beginner"], {}),
    ("steal-war", 3, 17, ["strong", "beginner"], {}),
    ("strategy-war", 2, 18, ["strong", "beginner"], {"jokers": "high"}),
    ("casino-war", 3, 19, ["strong", "beginner"], {"decks": 6}),
]


@pytest.mark.parametrize("game_id,players,seed,bots,options", SETUPS)
def test_recorded_playthrough_is_unchanged(game_id, players, seed, bots, options):
    check_playthrough(game_id, players, seed, bots, options)
