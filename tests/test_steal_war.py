"""Steal War on hand-made positions: steals, protection, war cards that cannot steal, the top card, the bots.

The shared checks (random games, round trips, hidden cards) run in tests/test_engine_conformance.py.
"""

from __future__ import annotations

import copy

import pytest

from tests.test_engine_conformance import random_playout
from tutor.engine import CHANCE, IllegalMove, InvalidOptions, InvalidState, Move
from tutor.engine.classic_war import ClassicWarState, rank_of
from tutor.engine.play import bot_rng, chance_rng, simulate
from tutor.engine.steal_war import NeverStealsBot, StealingBot, StealWar, StealWarState
from tutor.standard_deck import card_id

SUITS = "CDHS"
JOKER = 52


def c(rank: int, suit: int = 0) -> int:
    return card_id(rank, SUITS[suit])


def position(players=2, packs=(), faceups=(), **options) -> StealWarState:
    """A round start: player ``p`` picks up ``packs[p]`` first, in that order, and has the face-up pile ``faceups[p]``.

    The rest of the deck fills the packs from the bottom (low ranks first, the jokers deepest).
    """
    game = StealWar(players=players, options=options)
    state = game.new_state()
    packs = [list(p) for p in packs] + [[] for _ in range(players - len(packs))]
    faceups = [list(f) for f in faceups] + [[] for _ in range(players - len(faceups))]
    used = {card for group in packs + faceups for card in group}
    rest = sorted((card for card in game.card_ids() if card not in used), key=lambda card: (-rank_of(card), card))
    state.aside = [rest.pop() for _ in range(game.aside_size())]
    share = len(rest) // players
    for p in range(players):
        filler = rest[p * share : (p + 1) * share] + (rest[players * share :] if p == players - 1 else [])
        state.piles[p] = filler + list(reversed(packs[p]))
        state.faceup[p] = faceups[p]
    state._start_round()
    return game.state_from_dict(state.to_dict())


def kinds(state):
    return [(m.kind, m.detail) for m in state.legal_moves()]


def play_battle(state):
    """Everyone plays the card they pick up until the battle is decided (no steals)."""
    start = state.rounds
    while state.rounds == start and not state.is_over:
        state.apply(Move("turn", state.current_player))


def test_the_player_to_move_sees_their_next_card_and_nobody_else_does():
    state = position(2, [[c(9)], [c(5)]])
    assert state.current_player == 0 and state.hands[0] == [c(9)]
    assert state.player_view(0)["hand"] == [c(9)] and state.player_view(1)["hand"] == []
    assert state.player_view(1)["hand_counts"] == [1, 0]
    state.apply(Move("turn", 0))
    assert state.player_view(1)["hand"] == [c(5)] and state.player_view(0)["table_up"] == [[c(9)], []]


def test_a_steal_moves_the_whole_pile_with_its_order():
    victim = [c(3), c(12), c(9, 1)]
    state = position(2, [[c(9), c(5)], [c(4)]], [[c(2)], victim])
    assert kinds(state) == [("turn", ""), ("steal", "1")]
    state.apply(Move("steal", 0, (), "1"))
    assert state.faceup[0] == [c(2), *victim, c(9)] and state.faceup[1] == []
    assert state.current_player == 0 and state.hands[0] == [c(5)]  # looks at the next card and chooses again
    assert state.laid["0"]["steals"] == [
        {"card": c(9), "cards": 4, "piles": [{"victim": 1, "cards": 3, "swap": False}]}
    ]
    assert kinds(state) == [("turn", "")]
    assert state.swaps == [{"thief": 0, "victim": 1, "size": 1}]  # the pile A had before: B may take it back


def test_a_card_that_matches_several_piles_steals_them_all():
    """The source (004, Steal War): "In multigiocatore, se la tua carta corrisponde a più di un mazzo del tuo
    avversario, puoi rubare entrambi i mazzi."

    With more players, a card that matches more than one opponent's pile steals both piles: the pile the card is put on
    goes last, under the card.
    """
    state = position(3, [[c(7), c(5)], [c(4)], [c(6)]], [[c(2)], [c(3), c(7, 1)], [c(12), c(7, 2)]])
    assert kinds(state) == [("turn", ""), ("steal", "1"), ("steal", "2")]
    state.apply(Move("steal", 0, (), "1"))
    assert state.faceup == [[c(2), c(12), c(7, 2), c(3), c(7, 1), c(7)], [], []]
    assert state.laid["0"]["steals"] == [
        {
            "card": c(7),
            "cards": 5,
            "piles": [{"victim": 2, "cards": 2, "swap": False}, {"victim": 1, "cards": 2, "swap": False}],
        }
    ]
    assert state.hands[0] == [c(5)] and kinds(state) == [("turn", "")]
    four = position(4, [[c(7), c(5)]], [[], [c(7, 1)], [c(3)], [c(7, 2)]])
    four.apply(Move("steal", 0, (), "3"))
    assert four.faceup == [[c(7, 1), c(7, 2), c(7)], [], [c(3)], []]  # the 3 does not match: Computer 2 keeps it


def test_when_two_cards_match_each_others_piles_both_steal_and_the_piles_are_swapped():
    """The source (004, Steal War): "Se la carta di ciascun giocatore corrisponde alla prima carta del mazzo di cattura
    dell'altro giocatore, possono entrambi rubare e scambiare le due pile di cattura."

    If each player's card matches the top of the other's pile, both may steal and the two piles are swapped: A's 3
    steals B's pile (3 on top); B's 9 matches the 9 that was on top of A's pile, so B takes that pile back from under
    it.
    """
    a_pile, b_pile = [c(5), c(9)], [c(13), c(3)]
    state = position(2, [[c(3, 1), c(4)], [c(9, 1), c(6)]], [a_pile, b_pile])
    state.apply(Move("steal", 0, (), "1"))
    assert state.faceup == [[*a_pile, *b_pile, c(3, 1)], []]
    state.apply(Move("turn", 0))
    assert state.current_player == 1 and state.hands[1] == [c(9, 1)]
    assert kinds(state) == [("turn", ""), ("steal", "0")]  # the 9 on A's pile lies under B's old pile now
    state.apply(Move("steal", 1, (), "0"))
    assert state.faceup == [[*b_pile, c(3, 1)], [*a_pile, c(9, 1)]]  # swapped, each under the stealer's card
    assert state.laid["1"]["steals"] == [
        {"card": c(9, 1), "cards": 3, "piles": [{"victim": 0, "cards": 2, "swap": True}]}
    ]
    assert state.swaps == [] and state.game.state_from_dict(state.to_dict()).to_dict() == state.to_dict()


def test_no_swap_once_the_first_thief_protected_its_pile():
    """The swap is a steal: a pile protected by a card of its own top's rank is safe from it too."""
    state = position(2, [[c(3, 1), c(3, 2)], [c(9, 1), c(6)]], [[c(5), c(9)], [c(13), c(3)]])
    state.apply(Move("steal", 0, (), "1"))
    state.apply(Move("turn", 0))  # a 3 on A's new top, the stealing 3: A's pile is safe
    assert state.protected == [0] and kinds(state) == [("turn", "")]


def test_a_card_matching_the_thiefs_new_top_steals_the_whole_pile_not_only_the_old_one():
    state = position(2, [[c(3, 1), c(4)], [c(3, 2), c(6)]], [[c(5), c(3, 3)], [c(13), c(3)]])
    state.apply(Move("steal", 0, (), "1"))
    state.apply(Move("turn", 0))
    state.apply(Move("steal", 1, (), "0"))
    assert state.faceup[0] == [] and len(state.faceup[1]) == 6
    assert state.laid["1"]["steals"][0]["piles"] == [{"victim": 0, "cards": 5, "swap": False}]


def test_with_three_players_the_stealer_may_steal_another_pile():
    state = position(3, [[c(9), c(5), c(8)], [c(4)], [c(6)]], [[], [c(9, 1)], [c(5, 1)]])
    state.apply(Move("steal", 0, (), "1"))
    assert kinds(state) == [("turn", ""), ("steal", "2")]
    state.apply(Move("steal", 0, (), "2"))
    assert state.faceup[0] == [c(9, 1), c(9), c(5, 1), c(5)] and state.hands[0] == [c(8)]


def test_a_card_matching_your_own_pile_protects_it_for_the_battle():
    state = position(2, [[c(9), c(3)], [c(9, 2), c(4)]], [[c(9, 1)], []])
    state.apply(Move("turn", 0))  # A plays a nine on its own nine: protected
    assert state.protected == [0] and state.laid["0"]["note"] == "protected"
    assert kinds(state) == [("turn", "")]  # B's nine cannot steal A's pile
    open_pile = position(2, [[c(7), c(3)], [c(9, 2), c(4)]], [[c(9, 1)], []])
    open_pile.apply(Move("turn", 0))
    assert kinds(open_pile) == [("turn", ""), ("steal", "0")]


def test_a_face_down_war_card_cannot_steal_the_face_up_one_can():
    a_down, b_down = [c(2), c(3), c(4)], [c(11), c(5), c(6)]
    state = position(2, [[c(10), *a_down, c(8)], [c(10, 1), *b_down, c(11, 1)]], [[c(11, 2)], []])
    state.apply(Move("turn", 0))
    state.apply(Move("turn", 1))  # tens: war
    assert state.in_war and state.current_player == 0 and state.down[0] == a_down and state.hands[0] == [c(8)]
    state.apply(Move("turn", 0))
    assert state.down[1] == b_down  # B's jack went face down without a chance to steal
    assert state.hands[1] == [c(11, 1)] and kinds(state) == [("turn", ""), ("steal", "0")]
    next_card = state.piles[1][-1]
    state.apply(Move("steal", 1, (), "0"))
    assert state.faceup[1] == [c(11, 2), c(11, 1)] and state.hands[1] == [next_card]


def test_the_winner_chooses_which_won_card_goes_on_top():
    state = position(2, [[c(9)], [c(12)]], [[], [c(3)]])
    play_battle(state)
    assert state.phase == "top" and state.current_player == 1
    assert state.legal_moves() == [Move("top", 1, (c(12),)), Move("top", 1, (c(9),))]
    with pytest.raises(IllegalMove):
        state.apply(Move("top", 1, (c(3),)))
    state.apply(Move("top", 1, (c(9),)))
    assert state.faceup[1] == [c(3), c(12), c(9)] and state.last_round["top"] == c(9)
    assert state.phase == "turn" and state.current_player == 0


def test_an_empty_pack_is_refilled_by_shuffling_the_face_up_pile():
    state = position(2, [[c(9)], [c(12)]])
    data = state.to_dict()
    data["faceup"][0], data["piles"][0] = data["piles"][0], []
    state = state.game.state_from_dict(data)
    state.apply(Move("turn", 0))
    state.apply(Move("turn", 1))
    state.apply(Move("top", 1, (c(12),)))
    assert state.phase == "reshuffle" and state.current_player == CHANCE
    move = state.chance_move(chance_rng(3, 9))
    assert move.kind == "reshuffle" and move.detail == "0" and sorted(move.cards) == sorted(state.faceup[0])
    state.apply(move)
    assert state.faceup[0] == [] and state.hands[0] == [move.cards[-1]]


def test_running_out_in_a_war_loses():
    state = position(2, [[c(10), c(2)], [c(10, 1)]])
    data = state.to_dict()
    rest = data["piles"][0][:-1]
    data["piles"][0], data["piles"][1] = data["piles"][0][-1:], rest + data["piles"][1]
    state = state.game.state_from_dict(data)  # A holds two cards: the ten and one more
    play_battle(state)
    assert state.last_round["battles"][1]["laid"]["0"] == {
        "down": [c(2)],
        "up": None,
        "card": None,
        "note": "ran_out",
        "steals": [],
    }
    state.apply(state.legal_moves()[0])  # B places the won cards
    assert state.is_over and state.winners() == [1] and state.card_count(1) == 54


def test_jokers_beat_aces_and_the_deck_has_54_cards():
    state = position(2, [[JOKER], [c(14)]])
    play_battle(state)
    assert state.last_round["winner"] == 0 and len(StealWar(players=3).card_ids()) == 54
    assert [len(p) + len(h) for p, h in zip(position(3).piles, position(3).hands)] == [18, 18, 18]


def test_the_strong_bot_steals_the_largest_pile_and_the_beginner_never_steals():
    state = position(3, [[c(9)], [c(4)], [c(6)]], [[], [c(9, 1)], [c(3), c(5), c(9, 2)]])
    view, legal = state.player_view(0), state.legal_moves()
    assert StealingBot().choose(view, legal, bot_rng(1, 1)) == Move("steal", 0, (), "2")
    assert NeverStealsBot().choose(view, legal, bot_rng(1, 1)) == Move("turn", 0)
    state.apply(StealingBot().choose(view, legal, bot_rng(1, 1)))
    assert state.faceup == [[c(9, 1), c(3), c(5), c(9, 2), c(9)], [], []]  # both nines: both piles
    result = simulate(StealWar(players=2), 4, ["strong"])
    assert any(m.kind == "steal" for m in result.moves)
    assert not any(m.kind == "steal" for m in simulate(StealWar(players=2), 4, ["beginner"]).moves)


def test_the_strong_bot_tops_with_the_rank_most_often_in_sight():
    state = position(2, [[c(9)], [c(12)]], [[c(9, 1), c(9, 2)], [c(3)]])
    play_battle(state)
    assert StealingBot().choose(state.player_view(1), state.legal_moves(), bot_rng(1, 1)) == Move("top", 1, (c(9),))
    picks = {NeverStealsBot().choose(state.player_view(1), state.legal_moves(), bot_rng(1, n)).cards for n in range(20)}
    assert picks == {(c(9),), (c(12),)}


def test_time_up_with_most_cards_ends_the_game_and_puts_the_looked_at_card_back():
    state = position(2, [[c(9)], [c(12)]], time_limit_minutes=5, time_limit_rule="most_cards")
    state.apply(Move("time_up", CHANCE))
    assert state.is_over and state.ended_by == "time_limit" and state.hands == [[], []] and state.piles[0][-1] == c(9)
    assert state.game.state_from_dict(state.to_dict()).to_dict() == state.to_dict()


def test_a_steal_makes_the_clock_wait_for_the_next_round():
    state = position(2, [[c(9), c(4)], [c(12)]], [[], [c(9, 1)]], time_limit_minutes=5)
    assert state.is_legal(Move("time_up", CHANCE))
    state.apply(Move("steal", 0, (), "1"))
    assert not state.is_legal(Move("time_up", CHANCE))


def test_stored_states_that_cannot_happen_are_refused():
    state = position(2, [[c(9), c(4)], [c(12)]], [[], [c(9, 1)]])
    game, data = state.game, state.to_dict()
    assert game.state_from_dict(copy.deepcopy(data)).to_dict() == data
    hand = data["hands"][0]
    for change in (
        {"hands": [[], hand]},
        {"hands": [[], []], "piles": [data["piles"][0] + hand, data["piles"][1]]},
        {"protected": [1]},
        {"down_due": [0, 3]},
        {"phase": "top"},
        {"prize": [hand[0]], "hands": [[], []]},
        {"faceup": [[], []]},
        {"swaps": [{"thief": 0, "victim": 1, "size": 1}]},
        {"swaps": [{"thief": 1, "victim": 1, "size": 1}]},
    ):
        with pytest.raises(InvalidState):
            game.state_from_dict({**copy.deepcopy(data), **change})
    assert isinstance(state, ClassicWarState)  # Steal War reuses War's table


def test_id_title_players_and_options():
    assert (StealWar.id, StealWar.title, StealWar.min_players, StealWar.max_players) == ("steal-war", "Steal War", 2, 4)
    assert sorted(StealWar.bots) == ["beginner", "strong"]
    with pytest.raises(InvalidOptions):
        StealWar(players=2, options={"war_size": 1})
    with pytest.raises(InvalidOptions):
        StealWar(players=5)


# --- beyond the shared conformance checks (tests/test_engine_conformance.py) ------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_with_a_time_limit_every_state_round_trips_and_illegal_moves_change_nothing(players):
    game = StealWar(players=players, options={"time_limit_minutes": 5})
    _, moves = random_playout(game, seed=7, max_moves=300)
    state = game.new_state()
    for move in moves:
        data = state.to_dict()
        assert list(data)[0] == "piles"
        rebuilt = game.state_from_dict(data)
        assert rebuilt.to_dict() == data and rebuilt.legal_moves() == state.legal_moves()
        for bad in (
            Move("play", 99, (0,)),
            Move("play", state.current_player, (10_000,)),
            Move("no-such-move", 0),
            Move("shuffle", CHANCE, (1, 2)),
            Move("steal", state.current_player, (), "9"),
        ):
            with pytest.raises(IllegalMove):
                state.apply(bad)
        assert state.to_dict() == data
        state.apply(move)
