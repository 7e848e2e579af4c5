"""One conformance check that runs against every registered game."""

import random

import pytest
from hypothesis import given, settings, strategies as st

from tutor.engine import CHANCE, GAMES, IllegalMove, InvalidState, Move, make_game
from tutor.engine.play import chance_rng, replay, simulate

GAME_SETUPS = [(game_id, players) for game_id, game in GAMES.items() for players in range(game.min_players, game.max_players + 1)]


def random_playout(game, seed, max_moves=20_000):
    """Random legal moves for every player: the harshest test of the rules."""
    rng, state, moves = random.Random(seed), game.new_state(), []
    while not state.is_over and len(moves) < max_moves:
        move = state.chance_move(chance_rng(seed, len(moves))) if state.current_player == CHANCE else rng.choice(state.legal_moves())
        state.apply(move)
        moves.append(move)
    return state, moves


@pytest.mark.parametrize("game_id,players", GAME_SETUPS)
def test_random_games_end_with_every_card_accounted_for(game_id, players):
    for seed in range(5):
        state, moves = random_playout(make_game(game_id, players), seed)
        assert state.is_over, f"{game_id} seed {seed} did not end in {len(moves)} moves"
        assert sorted(state.card_ids()) == sorted(state.game.card_ids())
        assert state.winners()


@pytest.mark.parametrize("game_id,players", GAME_SETUPS)
def test_every_state_round_trips_through_a_plain_dict(game_id, players):
    game = make_game(game_id, players)
    state, moves = random_playout(game, seed=7, max_moves=300)
    replayed = game.new_state()
    for move in moves:
        rebuilt = game.state_from_dict(replayed.to_dict())
        assert rebuilt.to_dict() == replayed.to_dict()
        assert rebuilt.legal_moves() == replayed.legal_moves()
        replayed.apply(move)


@pytest.mark.parametrize("game_id,players", GAME_SETUPS)
def test_illegal_moves_raise_and_leave_the_state_unchanged(game_id, players):
    game = make_game(game_id, players)
    state, _ = random_playout(game, seed=3, max_moves=40)
    before = state.to_dict()
    for bad in (Move("play", 99, (0,)), Move("play", state.current_player, (10_000,)), Move("no-such-move", 0), Move("shuffle", CHANCE, (1, 2))):
        with pytest.raises(IllegalMove):
            state.apply(bad)
        assert state.to_dict() == before


@pytest.mark.parametrize("game_id", GAMES)
def test_corrupt_states_are_refused(game_id):
    game = make_game(game_id, 2)
    state, _ = random_playout(game, seed=5, max_moves=30)
    data = state.to_dict()
    with pytest.raises(InvalidState):
        game.state_from_dict({})
    with pytest.raises(InvalidState):
        game.state_from_dict(_with_a_card_duplicated(data))


def _with_a_card_duplicated(data):
    """A copy of a stored state in which the first card found in a card list appears twice."""
    found = False

    def walk(value):
        nonlocal found
        if isinstance(value, dict):
            return {key: walk(item) for key, item in value.items()}
        if isinstance(value, list):
            if not found and value and all(isinstance(item, int) and not isinstance(item, bool) for item in value):
                found = True
                return value + value[:1]
            return [walk(item) for item in value]
        return value

    corrupted = walk(data)
    assert found, "the stored state holds no list of card ids"
    return corrupted


@pytest.mark.parametrize("game_id,players", GAME_SETUPS)
def test_player_view_hides_other_hands(game_id, players):
    state, _ = random_playout(make_game(game_id, players), seed=11, max_moves=10)
    view = state.player_view(0)
    others = {c for p in range(1, players) for c in state.hands[p]} if hasattr(state, "hands") else set()
    assert not others & set(_all_ints(view.get("hand", [])))
    assert "draw_piles" not in view and "hands" not in view


def _all_ints(value):
    if isinstance(value, int):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _all_ints(item)


@settings(max_examples=40, deadline=None)
@given(game_id=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 10**9), data=st.data())
def test_a_seed_and_its_moves_replay_the_same_game(game_id, seed, data):
    game_class = GAMES[game_id]
    players = data.draw(st.integers(game_class.min_players, game_class.max_players))
    bots = data.draw(st.lists(st.sampled_from(sorted(game_class.bots)), min_size=1, max_size=players))
    game = make_game(game_id, players)
    first = simulate(game, seed, bots)
    assert first.state.is_over and first.accounted
    assert replay(game, first.moves).to_dict() == first.state.to_dict()
    assert simulate(game, seed, bots).moves == first.moves


@pytest.mark.parametrize("game_id", GAMES)
def test_options_are_described_and_checked(game_id):
    game = make_game(game_id)
    description = game.describe()
    assert description["id"] == game_id and description["bots"]
    for option in description["options"]:
        assert option["default"] == game.options[option["key"]]
