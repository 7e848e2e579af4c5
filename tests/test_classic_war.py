"""War, Războiul, P'yanitsa, Tod und Leben, Two-deck War and Joker War on hand-made positions.

Positions are built by hand (``stack``): the cards each player turns first, on top of
piles filled with the rest of the deck. The source's two worked examples of running out
in a war are played exactly. The last part runs the engine conformance checks on these
games until the lead registers them (random games to the end, dict round trips, illegal
moves, corrupt states, hidden cards, replays).
"""

from __future__ import annotations

import copy
import random

import pytest

from tests.test_engine_conformance import random_playout
from tutor.engine import CHANCE, IllegalMove, InvalidOptions, InvalidState, Move
from tutor.engine import GAMES as REGISTERED
from tutor.engine.classic_war import (
    ROUND_CAP,
    ClassicWarState,
    rank_of,
)
from tutor.engine.play import bot_rng, chance_rng, replay, simulate
from tutor.engine.war_family import BeginnerTurningBot, StrongTurningBot
from tutor.standard_deck import card_id

#: The games of tutor/engine/classic_war.py, in the order they are listed.
CLASSIC_WAR_GAMES = [game for game in REGISTERED.values() if game.__module__ == ClassicWarState.__module__]
GAMES = {game.id: game for game in CLASSIC_WAR_GAMES}
JOKERS = (52, 53)
SUITS = "CDHS"


def make(game_id: str, players: int = 2, **options):
    return GAMES[game_id](players=players, options=options)


def c(rank: int, copy_number: int = 0) -> int:
    """The ``copy_number``-th card of this rank (clubs, diamonds, hearts, spades, then the second deck)."""
    return card_id(rank, SUITS[copy_number % 4], copy_number // 4)


def stack(game, tops, sizes=None) -> ClassicWarState:
    """A round-start position: player ``p`` turns ``tops[p]`` first, in that order, on a pile of ``sizes[p]`` cards.

    The other cards fill the piles from the bottom, lowest ranks first, jokers last (out of the way); what does not
    split evenly is set aside as the deal would.
    """
    players = game.players
    used = {card for top in tops for card in top}
    rest = sorted((card for card in game.card_ids() if card not in used), key=lambda card: (rank_of(card), card))
    aside = [rest.pop() for _ in range(game.aside_size())]
    sizes = sizes or [(len(game.card_ids()) - game.aside_size()) // players] * players
    piles = []
    for p in range(players):
        filler = sizes[p] - len(tops[p])
        piles.append(rest[:filler] + list(reversed(tops[p])))
        rest = rest[filler:]
    assert not rest, "the sizes leave cards over"
    state = game.new_state()
    state.apply(Move("shuffle", CHANCE, tuple(game.shuffled(random.Random(0)))))
    data = state.to_dict()
    data.update(piles=piles, won=[[] for _ in range(players)], aside=aside)
    return game.state_from_dict(data)


def turn_round(state):
    """Every player turns until the round is decided (or the game ends)."""
    start = state.rounds
    while state.rounds == start and not state.is_over:
        assert state.current_player != CHANCE
        state.apply(Move("turn", state.current_player))


def laid(state, battle, player):
    return state.last_round["battles"][battle]["laid"][str(player)]


# --- War --------------------------------------------------------------------------------------


def test_the_deal_gives_equal_piles_and_sets_the_rest_aside():
    for players, share, aside in ((2, 26, 0), (3, 17, 1), (4, 13, 0)):
        state = make("war", players).new_state()
        state.apply(Move("shuffle", CHANCE, tuple(range(52))))
        assert [len(p) for p in state.piles] == [share] * players and len(state.aside) == aside
        assert sorted(state.card_ids()) == list(range(52))
    high = make("war", 4, jokers="high").new_state()
    high.apply(Move("shuffle", CHANCE, tuple(range(54))))
    assert [len(p) for p in high.piles] == [13] * 4 and high.aside == [52, 53]


def test_the_higher_card_wins_both_under_the_winners_pile():
    state = stack(make("war"), [[c(9)], [c(12)]])
    bottom = list(state.piles[1])
    state.apply(Move("turn", 0))
    assert state.current_player == 1 and state.player_view(1)["table_up"] == [[c(9)], []]
    state.apply(Move("turn", 1))
    assert state.last_round["winner"] == 1 and state.last_round["won"] == 2 and state.last_round["wars"] == 0
    assert (
        state.piles[1][:2] == [c(12), c(9)] and state.piles[1][2:] == bottom[:-1]
    )  # the winner's own card at the very bottom
    assert [state.card_count(p) for p in (0, 1)] == [25, 27] and state.rounds == 1


def test_a_tie_is_war_three_down_and_one_up_all_ten_cards_to_the_winner():
    down0, down1 = [c(2), c(3), c(4)], [c(2, 1), c(3, 1), c(4, 1)]
    state = stack(make("war"), [[c(7), *down0, c(14)], [c(7, 1), *down1, c(13)]])
    state.apply(Move("turn", 0))
    state.apply(Move("turn", 1))
    assert state.rounds == 0 and state.in_war and state.battle_size == 4 and state.waiting == [0, 1]
    state.apply(Move("turn", 0))
    view = state.player_view(1)
    assert view["table_down_counts"] == [3, 0] and view["table_up"][0] == [c(7), c(14)]
    assert view["battle"]["0"]["down"] == [None, None, None]  # face-down cards hidden from everyone
    state.apply(Move("turn", 1))
    last = state.last_round
    assert last["winner"] == 0 and last["won"] == 10 and last["wars"] == 1
    assert laid(state, 1, 0) == {"down": down0, "up": c(14), "card": c(14), "note": ""}
    assert state.player_view(0)["last_round"]["battles"][1]["laid"]["1"]["down"] == [None] * 3
    assert state.piles[0][:10] == [c(7), c(14), *down0, c(7, 1), c(13), *down1]


def test_war_size_one_lays_one_card_down():
    state = stack(make("war", war_size=1), [[c(7), c(2), c(10)], [c(7, 1), c(3), c(9)]])
    turn_round(state)
    assert state.last_round["won"] == 6 and state.last_round["winner"] == 0
    assert laid(state, 1, 1)["down"] == [c(3)]


def test_source_example_running_out_in_a_war_loses():
    """A and B both turn a seven; each lays one card face down, but it is B's last card: A wins."""
    game = make("war", war_size=1)
    state = stack(game, [[c(7), c(2), c(10)], [c(7, 1), c(5)]], sizes=[50, 2])
    turn_round(state)
    assert laid(state, 1, 1) == {"down": [c(5)], "up": None, "card": None, "note": "ran_out"}
    assert laid(state, 1, 0)["down"] == [c(2)]
    assert state.last_round["winner"] == 0 and state.last_round["won"] == 5
    assert state.is_over and state.ended_by == "all_cards" and state.winners() == [0] and state.card_count(0) == 52


def test_source_example_the_last_card_stands_for_every_battle_of_the_war():
    """B's only card, a queen, goes face up; A's queen ties; B's queen stays, beats A's nine: all seven cards to B."""
    game = make("war", war_size=1, out_of_cards="last_card")
    a_down = [c(2), c(3)]
    state = stack(game, [[c(7), a_down[0], c(12), a_down[1], c(9)], [c(7, 1), c(12, 1)]], sizes=[50, 2])
    turn_round(state)
    battles = state.last_round["battles"]
    assert [b["result"] for b in battles] == ["war", "war", "win"]
    assert battles[1]["laid"]["1"] == {"down": [], "up": c(12, 1), "card": c(12, 1), "note": "last_card"}
    assert battles[2]["laid"]["1"] == {"down": [], "up": None, "card": c(12, 1), "note": "last_card"}
    assert battles[2]["laid"]["0"] == {"down": [a_down[1]], "up": c(9), "card": c(9), "note": ""}
    assert state.last_round["winner"] == 1 and state.last_round["won"] == 7
    five_from_a, two_from_b = [c(7), c(12), c(9), *a_down], [c(7, 1), c(12, 1)]
    assert state.piles[1] == two_from_b + five_from_a  # the winner picks up their own cards first
    assert state.card_count(0) == 45 and not state.is_over  # the game goes on normally


def tie_all_the_way(sizes):
    """Two piles whose face-up cards tie in every battle (war size 3: the cards at 0, 4, 8, ... from the top)."""
    ties = [rank for rank in range(8, 15)]  # seven ties: the first battle and six wars
    tops = [[], []]
    tied = {c(rank, player) for rank in ties for player in (0, 1)}
    filler = iter(card for card in range(52) if card not in tied)  # face-down cards only
    for index in range(max(sizes)):
        for player in (0, 1):
            if index < sizes[player]:
                tops[player].append(c(ties[index // 4], player) if index % 4 == 0 else next(filler))
    return tops


def test_everyone_running_out_at_the_same_moment_is_a_draw():
    game = make("war")
    state = stack(game, tie_all_the_way([26, 26]), sizes=[26, 26])
    turn_round(state)
    assert state.is_over and state.ended_by == "draw" and state.winners() == [0, 1]
    assert state.last_round["battles"][-1]["result"] == "draw" and len(state.last_round["battles"]) == 8
    assert sum(len(state.table_cards(p)) for p in (0, 1)) == 52  # nobody won the cards: they stay on the table
    assert game.state_from_dict(state.to_dict()).to_dict() == state.to_dict()


def test_last_cards_that_tie_when_nobody_can_lay_another_card_are_a_draw():
    """War size 1: thirteen ties use 25 cards each; the 26th go face up as last cards, tie, and nobody has more."""
    ranks = list(range(2, 15)) + [2]
    tops = [[], []]
    spare = iter(
        card for card in range(52) if card not in {c(r, p) for r in range(2, 15) for p in (0, 1)} | {c(2, 2), c(2, 3)}
    )
    for index in range(26):
        for player in (0, 1):
            tie = index % 2 == 0 or index == 25
            tops[player].append(
                (c(ranks[index // 2], player) if index < 25 else c(2, 2 + player)) if tie else next(spare)
            )
    state = stack(make("war", war_size=1, out_of_cards="last_card"), tops, sizes=[26, 26])
    turn_round(state)
    last = state.last_round["battles"][-1]
    assert last["result"] == "draw" and last["laid"]["0"]["note"] == "last_card" and last["laid"]["0"]["down"] == []
    assert state.is_over and state.ended_by == "draw" and state.winners() == [0, 1]


def test_when_both_run_out_the_one_who_runs_out_first_loses():
    game = make("war")
    state = stack(game, tie_all_the_way([25, 27]), sizes=[25, 27])
    turn_round(state)
    last = state.last_round["battles"][-1]
    assert last["laid"]["0"]["note"] == "ran_out" and last["laid"]["1"]["down"] and last["leaders"] == [1]
    assert state.is_over and state.ended_by == "all_cards" and state.winners() == [1]


def test_three_players_every_player_takes_part_in_a_war_not_only_the_tied():
    game = make("war", 3)
    state = stack(
        game,
        [
            [c(13), c(2), c(3), c(4), c(10)],
            [c(13, 1), c(2, 1), c(3, 1), c(4, 1), c(9)],
            [c(5), c(5, 1), c(6), c(6, 1), c(14)],
        ],
    )
    assert [len(p) for p in state.piles] == [17, 17, 17] and len(state.aside) == 1
    for player in range(3):
        state.apply(Move("turn", player))
    assert state.in_war and state.waiting == [0, 1, 2]
    turn_round(state)
    assert state.last_round["winner"] == 2 and state.last_round["won"] == 15  # the untied third player's ace wins
    assert state.card_count(2) == 17 + 10


def test_a_player_without_cards_drops_out_and_the_last_with_cards_wins():
    game = make("war", 3)
    state = stack(game, [[c(3)], [c(13)], [c(4)]], sizes=[1, 25, 25])
    turn_round(state)
    assert state.contenders == [1, 2] and state.waiting == [1, 2] and state.card_count(0) == 0
    assert state.player_view(0)["pile_counts"] == [0, 27, 24]


def test_jokers_high_beat_the_ace_and_two_jokers_are_a_war():
    game = make("war", jokers="high")
    state = stack(game, [[52], [c(14)]])
    turn_round(state)
    assert state.last_round["winner"] == 0
    state = stack(game, [[52, c(2), c(3), c(4), c(5)], [53, c(2, 1), c(3, 1), c(4, 1), c(6)]])
    turn_round(state)
    assert state.last_round["wars"] == 1 and state.last_round["winner"] == 1


def test_buried_jokers_one_in_each_pile_at_a_place_the_shuffle_order_gives():
    game = make("war", jokers="buried")
    order = list(game.card_ids())
    random.Random(3).shuffle(order)
    state = game.new_state()
    state.apply(Move("shuffle", CHANCE, tuple(order)))
    assert [len(p) for p in state.piles] == [27, 27] and state.aside == []
    for player, joker in enumerate(JOKERS):
        assert state.piles[player].index(joker) == order.index(joker) % 27
    assert replay(game, [Move("shuffle", CHANCE, tuple(order))]).to_dict() == state.to_dict()
    with pytest.raises(InvalidOptions):
        make("war", 3, jokers="buried")


def test_round_limit_ends_the_game_and_most_cards_wins():
    result = simulate(make("war", 3, round_limit=5), seed=4)
    state = result.state
    assert state.is_over and state.rounds == 5 and state.ended_by == "round_limit"
    counts = result.report()["card_counts"]
    assert [int(p) for p, n in counts.items() if n == max(counts.values())] == state.winners()


def test_the_safety_cap_ends_a_game_that_would_run_on():
    state = stack(make("war"), [[c(3)], [c(13)]])
    state.rounds = ROUND_CAP - 1
    turn_round(state)
    assert state.is_over and state.ended_by == "round_cap" and state.winners() == [1]


def test_time_up_is_a_chance_move_at_a_round_start_only_with_a_time_limit():
    untimed = stack(make("war"), [[c(3)], [c(13)]])
    with pytest.raises(IllegalMove):
        untimed.apply(Move("time_up", CHANCE))
    timed = stack(make("war", time_limit_minutes=10, time_limit_rule="most_cards"), [[c(3)], [c(13)]])
    timed.apply(Move("turn", 0))
    with pytest.raises(IllegalMove):
        timed.apply(Move("time_up", CHANCE))
    timed.apply(Move("turn", 1))
    timed.apply(Move("time_up", CHANCE))
    assert timed.is_over and timed.ended_by == "time_limit" and timed.winners() == [1]


def test_after_the_time_limit_every_won_three_leaves_play():
    game = make("war", time_limit_minutes=10)
    state = stack(game, [[c(3), c(3, 1), c(4)], [c(9), c(3, 2), c(4, 1)]])
    with pytest.raises(IllegalMove):
        state.apply(Move("shuffle", CHANCE, (1, 2)))
    state.apply(Move("time_up", CHANCE))
    assert not state.is_over and state.player_view(0)["removal_rank"] == 3
    with pytest.raises(IllegalMove):
        state.apply(Move("time_up", CHANCE))  # the clock runs out once
    turn_round(state)
    assert state.last_round["removed"] == [c(3)] and state.last_round["won"] == 1 and state.removed == [c(3)]
    turn_round(state)  # two threes tie: war; the threes still leave, the rest goes to the winner
    assert state.last_round["wars"] == 1 and sorted(state.last_round["removed"]) == [c(3, 1), c(3, 2)]
    assert state.last_round["won"] == state.last_round["cards"] - 2


def test_once_every_three_has_left_the_won_fours_leave():
    game = make("war", time_limit_minutes=10)
    data = stack(game, [[c(4)], [c(9)]]).to_dict()
    threes = [c(3, n) for n in range(4)]
    data.update(
        piles=[[card for card in pile if card not in threes] for pile in data["piles"]], removed=threes, time_up=True
    )
    state = game.state_from_dict(data)
    assert state.removal_rank() == 4
    turn_round(state)
    assert state.last_round["removed"] == [c(4)] and state.removed == threes + [c(4)]
    assert sorted(state.card_ids()) == sorted(game.card_ids())
    data["time_up"] = False
    with pytest.raises(InvalidState):  # nothing leaves play before the time is up
        game.state_from_dict(data)


# --- Războiul ---------------------------------------------------------------------------------


def test_razboiul_an_eight_means_seven_cards_down_and_the_eighth_up():
    game = make("razboiul")
    down0 = [c(r) for r in (2, 3, 4, 5, 6, 7, 9)]
    down1 = [c(r, 1) for r in (2, 3, 4, 5, 6, 7, 9)]
    state = stack(game, [[c(8), *down0, c(14)], [c(8, 1), *down1, c(10)]])
    turn_round(state)
    assert laid(state, 1, 0) == {"down": down0, "up": c(14), "card": c(14), "note": ""}
    assert state.last_round["battles"][1]["size"] == 8 and state.last_round["won"] == 18


def test_razboiul_pictures_count_ten_and_the_ace_eleven():
    """The source (004, Războiul): "il numero di carte giocate in una guerra è determinato dal valore della carta che ha
    causato la guerra [...] Non sono sicuro di come vengono trattate le immagini in questa versione - forse hanno tutte
    il valore 10."

    The number of cards in a war is the value of the card that caused it; the pictures perhaps all count 10. games.md
    decides the rest: "the ace counts 11 here (pictures 10)", so a war over two aces is ten cards face down and the
    eleventh face up, 24 cards in all.
    """
    for tied, size in ((11, 10), (13, 10), (14, 11), (2, 2)):
        state = stack(make("razboiul"), [[c(tied)], [c(tied, 1)]])
        state.apply(Move("turn", 0))
        state.apply(Move("turn", 1))
        assert state.in_war and state.battle_size == size, tied
    down = [[c(rank, copy) for rank in range(2, 12)] for copy in (0, 1)]
    aces = stack(make("razboiul"), [[c(14), *down[0], c(13)], [c(14, 1), *down[1], c(12)]])
    turn_round(aces)
    assert laid(aces, 1, 0) == {"down": down[0], "up": c(13), "card": c(13), "note": ""}
    assert aces.last_round["winner"] == 0 and aces.last_round["won"] == 24


def test_razboiul_everyone_plays_as_many_as_the_shortest():
    game = make("razboiul")
    state = stack(game, [[c(8), c(2), c(3), c(14)], [c(8, 1), c(2, 1), c(3, 1), c(13), c(5)]], sizes=[4, 48])
    turn_round(state)
    assert state.last_round["battles"][1]["size"] == 3  # A has three cards left: 2 down, the third up
    assert laid(state, 1, 1) == {"down": [c(2, 1), c(3, 1)], "up": c(13), "card": c(13), "note": ""}
    assert state.last_round["winner"] == 0


def test_razboiul_a_player_in_the_war_with_no_cards_loses():
    state = stack(make("razboiul"), [[c(8)], [c(8, 1), c(2)]], sizes=[1, 51])
    turn_round(state)
    assert laid(state, 1, 0)["note"] == "ran_out" and state.is_over and state.winners() == [1]


# --- P'yanitsa --------------------------------------------------------------------------------


def test_the_drunkards_six_beats_only_the_ace():
    game = make("pyanitsa")
    for six_against, winner in ((14, 0), (13, 1), (7, 1)):
        state = stack(game, [[c(6)], [c(six_against)]])
        turn_round(state)
        assert state.last_round["winner"] == winner, six_against
    three = stack(make("pyanitsa", 3), [[c(6)], [c(13)], [c(14)]])
    turn_round(three)
    assert three.last_round["winner"] == 0  # with an ace on the table the six counts above everything


def test_pyanitsa_a_tie_for_the_highest_card_makes_every_player_lay_a_new_card():
    """The source (004, P'yanitsa): "Se c'è un pareggio per il massimo allora: tutti mettono una nuova carta scoperta
    sulla carta che hanno giocato il trucco precedente [...] chi gioca il più alto delle nuove carte scoperte vince il
    trucco."

    A tie for the highest card: everyone puts a new face-up card on the card they played, and the highest of the new
    cards wins the trick; with three players the one who did not tie lays a new card too, and may win.
    """
    state = stack(make("pyanitsa", 3), [[c(12), c(9)], [c(7), c(14)], [c(12, 1), c(10)]])
    turn_round(state)
    tie = state.last_round["battles"][1]
    assert sorted(tie["laid"]) == ["0", "1", "2"] and tie["size"] == 1
    assert state.last_round["winner"] == 1 and state.last_round["won"] == 6  # Computer 1's ace was not in the tie
    four = stack(make("pyanitsa", 4), [[c(10), c(8)], [c(10, 1), c(9)], [c(7), c(11)], [c(6), c(13)]])
    turn_round(four)
    assert [sorted(b["laid"]) for b in four.last_round["battles"]] == [["0", "1", "2", "3"]] * 2
    assert four.last_round["winner"] == 3 and four.last_round["won"] == 8


def test_pyanitsa_a_player_who_did_not_tie_and_has_no_card_left_drops_out_of_the_tie():
    state = stack(make("pyanitsa", 3), [[c(12), c(9)], [c(7)], [c(12, 1), c(10)]], sizes=[18, 1, 17])
    turn_round(state)
    assert laid(state, 1, 1)["note"] == "dropped_out"
    assert state.last_round["winner"] == 2 and state.last_round["won"] == 5


def test_pyanitsa_down_up_lays_one_down_and_one_up():
    state = stack(make("pyanitsa", tie_rule="down_up"), [[c(12), c(7), c(9)], [c(12, 1), c(8), c(10)]])
    turn_round(state)
    assert laid(state, 1, 1) == {"down": [c(8)], "up": c(10), "card": c(10), "note": ""}
    assert state.last_round["winner"] == 1 and state.last_round["won"] == 6


def test_pyanitsa_the_drunkard_holds_every_card_and_everyone_else_wins():
    state = stack(make("pyanitsa", 3), [[c(7)], [c(13)], [c(8)]], sizes=[1, 34, 1])
    turn_round(state)
    assert state.is_over and state.ended_by == "all_cards" and state.winners() == [0, 2]


def test_pyanitsa_runs_out_the_first_to_run_out_is_the_drunkard():
    state = stack(make("pyanitsa", 3, drunkard="runs_out"), [[c(7)], [c(13)], [c(8)]], sizes=[1, 17, 18])
    turn_round(state)
    assert state.is_over and state.ended_by == "ran_out" and state.winners() == [1, 2]


def test_pyanitsa_a_tied_player_without_cards_drops_out_of_the_tie():
    state = stack(make("pyanitsa"), [[c(9)], [c(9, 1), c(7)]], sizes=[1, 35])
    turn_round(state)
    assert laid(state, 1, 0)["note"] == "dropped_out" and state.last_round["winner"] == 1
    assert state.is_over and state.winners() == [0]  # B holds every card: B is the drunkard


def test_pyanitsa_a_tie_nobody_can_continue_is_split():
    """Every card ties to the last: nobody can lay a new card, so each takes back the 18 cards they laid."""
    tops = [
        [c(rank, copy) for rank in range(6, 15) for copy in (0, 2)],
        [c(rank, copy) for rank in range(6, 15) for copy in (1, 3)],
    ]
    state = stack(make("pyanitsa"), tops)
    turn_round(state)
    assert state.last_round["winner"] is None and state.last_round["taken_back"] == {"0": 18, "1": 18}
    assert [state.card_count(p) for p in range(2)] == [18, 18] and sorted(state.piles[0]) == sorted(tops[0])


# --- Tod und Leben ----------------------------------------------------------------------------


def test_tod_und_leben_tricks_go_to_the_won_pile_and_a_tie_turns_the_next_card():
    game = make("tod-und-leben")
    state = stack(game, [[c(9), c(10), c(8)], [c(9, 1), c(14), c(7)]])
    assert [len(p) for p in state.piles] == [16, 16]
    turn_round(state)
    assert state.last_round["winner"] == 1 and state.won[1] == [c(9, 1), c(14), c(9), c(10)]
    turn_round(state)
    assert state.won[0] == [c(8), c(7)] and [len(p) for p in state.piles] == [13, 13]


def test_tod_und_leben_a_tie_on_the_last_cards_gives_each_their_cards_back():
    game = make("tod-und-leben", rounds=1)
    tops = [
        [c(rank) for rank in range(7, 15)] + [c(rank, 2) for rank in range(7, 15)],
        [c(rank, 1) for rank in range(7, 15)] + [c(rank, 3) for rank in range(7, 15)],
    ]
    tops[0][-1], tops[1][-1] = c(14, 2), c(14, 3)
    state = stack(game, tops)
    state.piles[0][0], state.piles[1][0] = c(14, 2), c(14, 3)
    for _ in range(16):
        state.apply(Move("turn", 0))
        state.apply(Move("turn", 1))
    assert state.is_over and state.last_round["taken_back"] == {"0": 16, "1": 16}
    assert state.deal_scores == [[16, 16]] and state.winners() == [0, 1]


def tod_und_leben_grown_trick_on_the_last_cards():
    """A Tod und Leben round (one round) whose 15th cards tie (two aces) and whose 16th tie too (two kings).

    Returns the state after the 14th trick (both hold 2 cards) and after the whole round.
    """
    game = make("tod-und-leben", rounds=1)
    sevens_to_queens = range(7, 13)
    tops = [  # the first 14 cards never tie: 7 7 8 8 ... Q Q A A against K K 7 7 ... Q Q
        [c(rank, copy) for rank in sevens_to_queens for copy in (0, 1)] + [c(14, 2), c(14, 3)],
        [c(13, 0), c(13, 1)] + [c(rank, copy) for rank in sevens_to_queens for copy in (2, 3)],
    ]
    tops[0] += [c(14, 0), c(13, 2)]  # the 15th cards: two aces; the 16th: two kings
    tops[1] += [c(14, 1), c(13, 3)]
    state = stack(game, tops)
    for _ in range(14):
        turn_round(state)
    before = state.clone()
    turn_round(state)
    return before, state


def test_tod_und_leben_a_trick_grown_through_ties_is_given_back_on_a_tie_of_the_last_cards():
    """The source (004, Tod und Leben): "Se le carte dei giocatori sono uguali, ogni giocatore semplicemente gira la
    carta successiva, in modo che il trucco consista di 4 carte. [...] Se le ultime carte dei giocatori sono uguali,
    ottengono una carta ciascuna."

    Equal cards: each simply turns the next card, so the trick grows to 4 cards; if the last cards are equal, the
    players get their cards back: here the 15th cards tie, the trick grows, the 16th tie too, and each player takes back
    the 2 cards they laid in it (games.md).
    """
    before, state = tod_und_leben_grown_trick_on_the_last_cards()
    assert [len(p) for p in before.piles] == [2, 2]
    last = state.last_round
    assert [b["result"] for b in last["battles"]] == ["war", "split"]
    assert last["winner"] is None and last["taken_back"] == {"0": 2, "1": 2}
    assert state.deal_scores == [[len(before.won[0]) + 2, len(before.won[1]) + 2]]


def test_tod_und_leben_most_cards_won_takes_the_round_and_most_rounds_the_game():
    game = make("tod-und-leben", rounds=3)
    result = simulate(game, seed=5)
    state = result.state
    assert state.ended_by == "all_rounds" and len(state.deal_scores) == 3
    assert all(sum(score) == 32 for score in state.deal_scores)
    wins = [sum(score[p] > score[1 - p] for score in state.deal_scores) for p in (0, 1)]
    assert state.winners() == [p for p in (0, 1) if wins[p] == max(wins)]
    assert sum(m.kind == "shuffle" for m in result.moves) == 3


# --- Two-deck War -----------------------------------------------------------------------------


def test_two_deck_war_each_player_has_a_whole_deck_and_reshuffles_what_they_won():
    game = make("two-deck-war")
    state = game.new_state()
    move = state.chance_move(chance_rng(1, 0))
    assert sorted(move.cards[:52]) == list(range(52)) and sorted(move.cards[52:]) == list(range(54, 106))
    with pytest.raises(IllegalMove):
        state.apply(Move("shuffle", CHANCE, move.cards[52:] + move.cards[:52]))
    state.apply(move)
    assert [len(p) for p in state.piles] == [52, 52]
    data = state.to_dict()
    data["won"][0], data["piles"][0] = data["piles"][0][:-1], data["piles"][0][-1:]
    state = game.state_from_dict(data)
    turn_round(state)  # one card each; player 0 now has an empty pile
    assert state.phase == "reshuffle" and state.current_player == CHANCE
    won = sorted(state.won[0])
    reshuffle = state.chance_move(chance_rng(1, 5))
    assert reshuffle.kind == "reshuffle" and reshuffle.detail == "0" and sorted(reshuffle.cards) == won
    state.apply(reshuffle)
    assert state.won[0] == [] and state.piles[0] == list(reshuffle.cards) and state.current_player == 0


def test_two_deck_war_ends_when_a_player_has_no_cards():
    result = simulate(make("two-deck-war"), seed=2)
    state = result.state
    assert state.ended_by in ("all_cards", "round_cap") and result.accounted
    assert any(m.kind == "reshuffle" for m in result.moves)


# --- Joker War ----------------------------------------------------------------------------------


def test_joker_wars_2_beats_a_joker():
    state = stack(make("joker-war"), [[c(2)], [52]])
    turn_round(state)
    assert state.last_round["winner"] == 0


def test_joker_war_a_joker_beats_an_ace_and_a_2_still_loses_to_a_3():
    for tops, winner in (([52], [c(14)]), ([c(2)], [c(3)]), ([c(2)], [c(14)])):
        state = stack(make("joker-war"), [tops, winner])
        turn_round(state)
        assert state.last_round["winner"] == (0 if tops == [52] else 1)


def test_joker_war_joker_against_joker_is_a_war_of_two_down_and_one_up():
    state = stack(make("joker-war"), [[52, c(4), c(5), c(9)], [53, c(4, 1), c(5, 1), c(8)]])
    turn_round(state)
    assert state.last_round["wars"] == 1 and state.last_round["battles"][1]["size"] == 3
    assert laid(state, 1, 0)["down"] == [c(4), c(5)] and state.last_round["winner"] == 0


def test_joker_war_running_out_in_a_war_loses():
    state = stack(make("joker-war"), [[c(9), c(2)], [c(9, 1), c(3)]], sizes=[2, 52])
    turn_round(state)
    assert state.is_over and state.winners() == [1]


# --- stored states, views, bots -----------------------------------------------------------------


def test_bots_turn_and_both_strengths_exist():
    state = stack(make("war"), [[c(3)], [c(13)]])
    for bot in (StrongTurningBot(), BeginnerTurningBot()):
        assert bot.choose(state.player_view(0), state.legal_moves(), bot_rng(1, 1)) == Move("turn", 0)
    for game_class in CLASSIC_WAR_GAMES:
        assert sorted(game_class.bots) == ["beginner", "strong"]


def test_ids_titles_and_player_counts():
    assert [(g.id, g.title, g.min_players, g.max_players) for g in CLASSIC_WAR_GAMES] == [
        ("war", "War", 2, 4),
        ("joker-war", "Joker War", 2, 4),
        ("two-deck-war", "Two-deck War", 2, 2),
        ("pyanitsa", "P'yanitsa (Drunkard)", 2, 4),
        ("razboiul", "Războiul", 2, 4),
        ("tod-und-leben", "Tod und Leben", 2, 2),
    ]
    for game_id, players in (("tod-und-leben", 3), ("two-deck-war", 3), ("war", 5), ("war", 1)):
        with pytest.raises(InvalidOptions):
            make(game_id, players)
    with pytest.raises(InvalidOptions):
        make("war", war_size=2)
    with pytest.raises(InvalidOptions):
        make("razboiul", war_size=3)


def test_stored_states_that_cannot_happen_are_refused():
    state = stack(make("war", 3), [[c(7), c(2), c(3), c(4), c(9)], [c(7, 1)], [c(5)]])
    state.apply(Move("turn", 0))
    game, data = state.game, state.to_dict()
    assert game.state_from_dict(copy.deepcopy(data)).to_dict() == data
    pile = data["piles"][1]
    for change in (
        {"phase": "paused"},
        {"waiting": [2, 1]},
        {"waiting": [3]},
        {"rounds": -1},
        {"rounds": "1"},
        {"time_up": 1},
        {"aside": []},
        {"piles": [data["piles"][0], pile + [pile[0]], data["piles"][2]]},
        {"out": [1]},
        {"frozen": [0]},
        {"battle_size": 4},
        {"battles": "none"},
        {"ended_by": "all_cards"},
        {"drawn": [0]},
        {"removed": [data["piles"][2][0]], "piles": [data["piles"][0], pile, data["piles"][2][1:]]},
        {"deal_scores": [[1, 2, 3]]},
    ):
        with pytest.raises(InvalidState):
            game.state_from_dict({**copy.deepcopy(data), **change})
    with pytest.raises(InvalidState):
        game.state_from_dict({})


def test_the_view_shows_counts_and_face_up_cards_never_a_face_down_card():
    state = stack(make("war"), [[c(7), c(2), c(3), c(4), c(9)], [c(7, 1), c(2, 1), c(3, 1), c(4, 1), c(10)]])
    state.apply(Move("turn", 0))
    state.apply(Move("turn", 1))
    state.apply(Move("turn", 0))
    for viewer in (0, 1):
        view = state.player_view(viewer)
        assert (
            view["pile_counts"] == [21, 25] and view["table_down_counts"] == [3, 0] and view["card_counts"] == [26, 26]
        )
        assert view["table_up"] == [[c(7), c(9)], [c(7, 1)]] and view["to_move"] == 1 and view["waiting"] == [1]
        assert view["battle"]["0"] == {"down": [None] * 3, "up": c(9), "card": c(9), "note": ""}
        assert view["battles"][0]["laid"]["1"]["up"] == c(7, 1)
        assert not {"piles", "won", "down", "aside"} & set(view)


# --- beyond the shared conformance checks (tests/test_engine_conformance.py): the clock ---------------

SETUPS = [(g.id, n) for g in CLASSIC_WAR_GAMES for n in range(g.min_players, g.max_players + 1)]


@pytest.mark.parametrize("game_id,players", SETUPS)
def test_with_a_time_limit_every_state_round_trips_and_illegal_moves_change_nothing(game_id, players):
    game = make(game_id, players, **({"time_limit_minutes": 5} if game_id != "tod-und-leben" else {}))
    state, moves = random_playout(game, seed=7, max_moves=300)
    replayed = game.new_state()
    for move in moves:
        data = replayed.to_dict()
        assert list(data)[0] == "piles"
        rebuilt = game.state_from_dict(data)
        assert rebuilt.to_dict() == data and rebuilt.legal_moves() == replayed.legal_moves()
        before = replayed.to_dict()
        for bad in (
            Move("play", 99, (0,)),
            Move("play", replayed.current_player, (10_000,)),
            Move("no-such-move", 0),
            Move("shuffle", CHANCE, (1, 2)),
        ):
            with pytest.raises(IllegalMove):
                replayed.apply(bad)
        assert replayed.to_dict() == before
        replayed.apply(move)
