"""MultiWar rules on hand-made positions and whole-game simulations.

Its recorded playthrough is played by tests/test_playthroughs.py.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.deck import kids2
from tutor.engine import CHANCE, IllegalMove, InvalidOptions, InvalidState, Move, make_game
from tutor.engine.multiwar import ROUND_CAP
from tutor.engine.play import bot_rng, next_automatic_move, simulate
from tutor.engine.war_family import BeginnerTurningBot, StrongTurningBot, even_sizes

DECK = kids2()
ALL_CARDS = [card.id for card in DECK.cards]
KOCHA = [card.id for card in DECK.cards if card.kind == "kocha"]
BANANA = [card.id for card in DECK.cards if card.kind == "banana"]


def n(top, copy=0):
    """The ``copy``-th number card with this top number (eight of each)."""
    return [card.id for card in DECK.cards if card.top == top][copy]


def deal(players=2, turns=(), **options):
    """A fresh deal in which side ``i`` turns ``turns[i]`` first, in that order, then number cards."""
    game = make_game("multiwar", players, options)
    sides = 2 if players == 4 else players
    wanted = [list(t) for t in turns] + [[] for _ in range(sides - len(turns))]
    used = {c for t in wanted for c in t}
    specials = [c for c in ALL_CARDS if c not in used and DECK[c].is_special]
    numbers = [c for c in ALL_CARDS if c not in used and not DECK[c].is_special]
    rest = specials + numbers  # special cards go to the bottoms of the piles, out of the way
    order = []
    for size, first in zip(even_sizes(len(ALL_CARDS), sides), wanted):
        filler, rest = rest[: size - len(first)], rest[size - len(first) :]
        order += filler + list(reversed(first))
    state = game.new_state()
    state.apply(Move("shuffle", CHANCE, tuple(order)))
    return state


def turn_all(state):
    """Every waiting player turns (and turns the extra card) until the battle is decided."""
    start = (state.rounds, state.wars)
    while (state.rounds, state.wars) == start and not state.is_over:
        assert state.current_player != CHANCE
        state.apply(Move("turn", state.current_player))


def test_the_whole_deck_is_split_into_halves_or_near_thirds():
    assert [len(p) for p in deal(2).draw_piles] == [41, 41]
    assert [len(p) for p in deal(3).draw_piles] == [28, 27, 27]
    four = deal(4)
    assert four.sides == [[0, 2], [1, 3]] and [len(p) for p in four.draw_piles] == [41, 41]
    assert sorted(four.card_ids()) == ALL_CARDS and len(KOCHA + BANANA) == 10


def test_the_larger_product_takes_every_card_on_the_table():
    state = deal(2, [[n(3), n(4)], [n(2), n(5)]])
    assert state.legal_moves() == [Move("turn", 0)]
    state.apply(Move("turn", 0))
    assert state.turned[0] == [n(3), n(4)] and state.current_player == 1
    state.apply(Move("turn", 1))
    last = state.last_round
    assert last["battles"][0]["results"] == {"0": 12, "1": 10}
    assert last["winner_side"] == 0 and last["wars"] == 0
    assert sorted(state.collection_piles[0]) == sorted([n(3), n(4), n(2), n(5)])
    assert state.rounds == 1 and state.side_card_count(0) == 43 and state.side_card_count(1) == 39


def test_a_kocha_card_means_one_more_card_and_the_product_of_the_two_number_cards():
    state = deal(2, [[KOCHA[0], n(7), n(6)], [n(9), n(4)]])
    state.apply(Move("turn", 0))
    assert state.turned[0] == [KOCHA[0], n(7)]
    assert state.current_player == 0 and state.player_view(0)["extra_card"]
    state.apply(Move("turn", 0))
    state.apply(Move("turn", 1))
    assert state.last_round["battles"][0]["results"] == {"0": 42, "1": 36}
    assert state.last_round["winner_side"] == 0 and len(state.collection_piles[0]) == 5


def test_a_banana_card_behaves_as_a_kocha_card():
    state = deal(2, [[n(2), BANANA[0], n(3)], [n(1), n(5)]])
    turn_all(state)
    assert state.last_round["battles"][0]["results"] == {"0": 6, "1": 5}


def test_a_second_kocha_card_wins_the_round_over_any_product():
    state = deal(2, [[KOCHA[0], n(1), KOCHA[1]], [n(9), n(9, 1)]])
    turn_all(state)
    assert state.last_round["battles"][0]["results"] == {"0": "double_kocha", "1": 81}
    assert state.last_round["winner_side"] == 0


def test_two_special_cards_among_the_first_two_are_a_double_kocha_without_an_extra_card():
    state = deal(2, [[KOCHA[0], BANANA[0]], [n(9), n(8)]])
    state.apply(Move("turn", 0))
    assert state.current_player == 1
    state.apply(Move("turn", 1))
    assert state.last_round["battles"][0]["results"]["0"] == "double_kocha"


def test_equal_products_mean_war_and_the_winner_takes_the_pot_too():
    pot0, pot1 = [n(1), n(1, 1)], [n(1, 2), n(1, 3)]
    state = deal(2, [[n(3), n(4)] + pot0 + [n(8), n(9)], [n(2), n(6)] + pot1 + [n(2, 1), n(2, 2)]])
    state.apply(Move("turn", 0))
    state.apply(Move("turn", 1))
    assert state.wars == 1 and state.contenders == [0, 1] and state.rounds == 0
    view = state.player_view(1)
    assert view["pot_counts"] == [2, 2] and view["turned"] == [[], []]
    state.apply(Move("turn", 0))
    assert state.pot[0][2:] == pot0 and state.turned[0] == [n(8), n(9)]
    assert state.player_view(1)["pot_counts"][0] == 4  # the war cards lie face down
    state.apply(Move("turn", 1))
    last = state.last_round
    assert last["wars"] == 1 and last["winner_side"] == 0
    assert [b["results"] for b in last["battles"]] == [{"0": 12, "1": 12}, {"0": 72, "1": 4}]
    assert len(state.collection_piles[0]) == 12 and state.collection_piles[1] == []


def test_both_double_kochas_mean_war():
    state = deal(
        2, [[KOCHA[0], KOCHA[1], n(1), n(1, 1), n(5), n(5, 1)], [BANANA[0], BANANA[1], n(1, 2), n(1, 3), n(2), n(2, 1)]]
    )
    state.apply(Move("turn", 0))
    state.apply(Move("turn", 1))
    assert state.wars == 1
    turn_all(state)
    assert state.last_round["battles"][1]["results"] == {"0": 25, "1": 4} and state.last_round["winner_side"] == 0


def test_a_tie_between_teammates_is_no_war_the_team_wins():
    state = deal(4, [[n(3), n(4), n(2), n(6)], [n(1), n(5), n(1, 1), n(7)]])
    turn_all(state)
    assert state.last_round["battles"][0]["results"] == {"0": 12, "1": 5, "2": 12, "3": 7}
    assert state.last_round["winner_side"] == 0 and state.last_round["winners"] == [0, 2] and state.wars == 0
    assert len(state.collection_piles[0]) == 8


def test_with_three_players_only_the_tied_leaders_go_to_war():
    state = deal(
        3,
        [[n(3), n(4), n(1), n(1, 1), n(9), n(9, 1)], [n(2), n(6), n(1, 2), n(1, 3), n(2, 1), n(2, 2)], [n(1, 4), n(5)]],
    )
    for player in range(3):
        state.apply(Move("turn", player))
    assert state.wars == 1 and state.contenders == [0, 1] and state.waiting == [0, 1]
    turn_all(state)
    last = state.last_round
    assert last["winners"] == [0] and sorted(last["table"]) == ["0", "1", "2"]
    assert len(state.collection_piles[0]) == 14 and state.side_card_count(2) == 25


def test_an_empty_draw_pile_is_refilled_by_shuffling_the_collection_pile():
    state = deal(2, [[n(3)], [n(2), n(5)]])
    keep = state.draw_piles[0][-1]
    state.collection_piles[0] = state.draw_piles[0][:-1]
    state.draw_piles[0] = [keep]
    state.validate()
    state.apply(Move("turn", 0))
    assert state.phase == "reshuffle" and state.current_player == CHANCE and state.reshuffle_side == 0
    assert state.turned[0] == [n(3)] and state.turn_due[0] == 1
    before = state.to_dict()
    with pytest.raises(IllegalMove):
        state.apply(Move("reshuffle", CHANCE, (1, 2, 3), "0"))
    assert state.to_dict() == before
    order = tuple(sorted(state.collection_piles[0], reverse=True))  # a number card on top
    state.apply(Move("reshuffle", CHANCE, order, "0"))
    assert state.collection_piles[0] == [] and state.turned[0] == [n(3), order[-1]] and state.current_player == 1


def move_all_but(state, side, keep):
    """Give every card of ``side`` except the top ``keep`` to the other side."""
    other = 1 - side
    state.collection_piles[other] += (
        state.draw_piles[side][: len(state.draw_piles[side]) - keep] + state.collection_piles[side]
    )
    state.draw_piles[side] = state.draw_piles[side][len(state.draw_piles[side]) - keep :]
    state.collection_piles[side] = []
    state.validate()


def test_a_player_who_cannot_turn_two_cards_loses_and_an_empty_side_ends_the_game():
    state = deal(2, [[n(9)], [n(1), n(2)]])
    move_all_but(state, 0, keep=1)
    state.apply(Move("turn", 0))
    assert state.out == [0] and state.current_player == 1
    state.apply(Move("turn", 1))
    assert state.last_round["battles"][0]["results"] == {"0": "out", "1": 2}
    assert state.is_over and state.ended_by == "all_cards" and state.winners() == [1]
    assert state.side_card_count(1) == 82


def test_a_player_who_runs_out_in_a_war_loses_the_war():
    state = deal(2, [[n(3), n(4), n(1)], [n(2), n(6), n(1, 1), n(1, 2), n(1, 3), n(2, 1)]])
    move_all_but(state, 0, keep=3)
    state.apply(Move("turn", 0))
    state.apply(Move("turn", 1))
    assert state.wars == 1
    state.apply(Move("turn", 0))  # lays its last card in the pot and has nothing to turn
    assert state.out == [0] and state.pot[0][-1] == n(1)
    state.apply(Move("turn", 1))
    assert state.last_round["winner_side"] == 1 and state.is_over and state.winners() == [1]


def test_a_side_without_cards_takes_no_part_and_the_others_play_on():
    state = deal(3)
    state.collection_piles[1] += state.draw_piles[2]
    state.draw_piles[2] = []
    state.validate()
    state.apply(Move("turn", 0))
    state.apply(Move("turn", 1))
    assert state.rounds == 1 and state.contenders == [0, 1] and not state.is_over


def test_round_limit_ends_the_game_and_most_cards_wins():
    result = simulate(make_game("multiwar", 3, {"round_limit": 5}), seed=4)
    state = result.state
    assert state.is_over and state.rounds == 5 and state.ended_by == "round_limit"
    counts = result.report()["card_counts"]
    best = max(counts.values())
    assert [int(k) for k, v in counts.items() if v == best] == state.winners()


def test_the_safety_cap_ends_a_game_that_would_run_on():
    state = deal(2, [[n(3), n(4)], [n(2), n(5)]])
    state.rounds = ROUND_CAP - 1
    turn_all(state)
    assert state.is_over and state.ended_by == "round_cap" and state.winners() == [0]


def test_time_up_is_only_legal_with_a_time_limit_before_anyone_turns():
    untimed = deal(2)
    with pytest.raises(IllegalMove):
        untimed.apply(Move("time_up", CHANCE))
    timed = deal(2, time_limit_minutes=10)
    timed.apply(Move("turn", 0))
    with pytest.raises(IllegalMove):
        timed.apply(Move("time_up", CHANCE))
    timed.apply(Move("turn", 1))
    timed.apply(Move("time_up", CHANCE))
    assert timed.is_over and timed.ended_by == "time_limit" and timed.winners()
    assert timed.game.state_from_dict(timed.to_dict()).to_dict() == timed.to_dict()


def test_only_the_player_to_move_may_turn():
    state = deal(2)
    before = state.to_dict()
    for bad in (Move("turn", 1), Move("play", 0, (0,)), Move("turn", 0, (5,)), Move("turn", 0, (), "x")):
        with pytest.raises(IllegalMove):
            state.apply(bad)
    assert state.to_dict() == before


def test_bad_player_counts_options_and_stored_states_are_refused():
    with pytest.raises(InvalidOptions):
        make_game("multiwar", 5)
    with pytest.raises(InvalidOptions):
        make_game("multiwar", 2, {"round_limit": -1})
    with pytest.raises(InvalidOptions):
        make_game("multiwar", 2, {"hourglass": 30})
    state = deal(2)
    state.apply(Move("turn", 0))
    game = state.game
    data = state.to_dict()
    assert game.state_from_dict(data).to_dict() == data
    for change in (
        {"phase": "play"},
        {"waiting": [0]},
        {"turned": [[], data["turned"][0]]},
        {"out": [1]},
        {"pot": [[data["draw_piles"][0][0]], []]},
        {"turn_due": [0, 3]},
        {"battles": "none"},
    ):
        with pytest.raises(InvalidState):
            game.state_from_dict({**data, **change})


def test_both_bots_turn_and_carry_their_labels():
    state = deal(2)
    for bot in (StrongTurningBot(), BeginnerTurningBot()):
        assert bot.choose(state.player_view(0), state.legal_moves(), bot_rng(1, 1)) == Move("turn", 0)
    assert sorted(state.game.bots) == ["beginner", "strong"]
    assert state.game.describe()["title"] == "MultiWar"


# --- whole games ----------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_fifty_seeded_games_end_with_every_card_accounted_for(players):
    """About 50-120 games a second on one core; 50 seeds per player count stay well under a few seconds."""
    game = make_game("multiwar", players)
    for seed in range(50):
        result = simulate(game, seed, ["strong", "beginner"])
        assert result.state.is_over and result.accounted, seed
        assert result.state.winners() and result.state.ended_by in ("all_cards", "round_cap")


@settings(max_examples=15, deadline=None)
@given(st.permutations(ALL_CARDS), st.integers(2, 4))
def test_any_deal_plays_to_the_end_without_losing_a_card(order, players):
    game = make_game("multiwar", players)
    state = game.new_state()
    state.apply(Move("shuffle", CHANCE, tuple(order)))
    moves = [Move("shuffle", CHANCE, tuple(order))]
    bots = {p: StrongTurningBot() for p in range(players)}
    while not state.is_over:
        move = next_automatic_move(state, 99, len(moves), bots)
        state.apply(move)
        moves.append(move)
    assert sorted(state.card_ids()) == ALL_CARDS and state.winners()
