"""Three Traits rules on hand-made positions: the attributes, the ace, the main rule and the fallback, turns,
rounds, the end, the computer players and the source's example."""

from __future__ import annotations

import copy

import pytest

from tests.test_engine_conformance import refuses_each
from tutor.engine import CHANCE, IllegalMove, InvalidOptions, Move, make_game
from tutor.engine.play import replay, simulate
from tutor.engine.three_traits import (
    AT_LEAST_ONE,
    FEWER_THAN_TWO,
    HAND_SIZE,
    ROW_START,
    StrongBot,
    ThreeTraits,
    compare,
    meets_fallback,
    meets_main_rule,
    playable_cards,
    readings,
)
from tutor.standard_deck import card, deck

FULL = list(deck("full"))
CODES = {card(c).code: c for c in FULL}


def c(code: str) -> int:
    """A card id from its code: "JD", "5S", "10H", "AC"."""
    return CODES[code]


def cards(*codes: str) -> list[int]:
    return [c(code) for code in codes]


def dealt(players=2, **options):
    state = ThreeTraits(players=players, options=options).new_state()
    state.apply(Move("shuffle", CHANCE, tuple(FULL)))
    return state


def position(hands, row, players=None, draw=(), turn=0, **options):
    """A round in play: ``hands[i]`` and ``row`` as codes, ``draw`` on top of the draw pile (last on top), every other
    card under it."""
    players = players or len(hands)
    state = dealt(players, **options)
    state.hands = [sorted(cards(*hand)) for hand in hands]
    state.row = cards(*row)
    used = {card_id for zone in [*state.hands, state.row, cards(*draw)] for card_id in zone}
    state.draw_pile = [card_id for card_id in FULL if card_id not in used] + cards(*draw)
    state.penalties = [[] for _ in range(players)]
    state.turn, state.turns = turn, [int(p == turn) for p in range(players)]
    state.validate()
    return state


def without_draw_pile(state):
    """The same position after a first round in which seat 1 took the whole draw pile (so nothing is left to draw)."""
    rest = state.draw_pile
    state.penalties[1], state.draw_pile = list(rest), []
    state.rounds = 1
    state.results = [{"round": 1, "winner": 0, "loser": 1, "row": rest[:2], "taken": {"1": len(rest)}, "rest": 0}]
    state.validate()
    return state


def plays(state) -> list[str]:
    return [card(m.cards[0]).code for m in state.legal_moves() if m.kind == "play"]


def others(state) -> list[str]:
    return [m.kind for m in state.legal_moves() if m.kind != "play"]


# --- the attributes --------------------------------------------------------------------------------------------


def test_each_card_has_a_suit_odd_or_even_and_low_or_high():
    assert [(r.value, r.suit, r.parity, r.size) for r in readings(c("JD"))] == [(11, "D", "odd", "high")]
    assert [(r.parity, r.size) for r in readings(c("QH"))] == [("even", "high")]
    assert [(r.parity, r.size) for r in readings(c("KS"))] == [("odd", "high")]
    assert [(r.parity, r.size) for r in readings(c("7C"))] == [("odd", "low")]
    assert [(r.parity, r.size) for r in readings(c("8C"))] == [("even", "high")]
    assert [(r.parity, r.size) for r in readings(c("10C"))] == [("even", "high")]


def test_the_ace_is_one_odd_and_low_or_fourteen_even_and_high_never_mixed():
    assert [(r.value, r.parity, r.size) for r in readings(c("AS"))] == [(1, "odd", "low"), (14, "even", "high")]
    # against the 2 (even, low) an ace shares one attribute either way: it is never even and low
    assert compare(c("AH"), c("2S")).count == 1
    # against the queen (even, high) it counts as 14, against the 3 (odd, low) as 1
    assert compare(c("AD"), c("QH")).shared == ("parity", "size") and compare(c("AD"), c("QH")).mine.value == 14
    assert compare(c("AD"), c("3C")).shared == ("parity", "size") and compare(c("AD"), c("3C")).mine.value == 1


def test_an_ace_may_count_differently_against_the_last_card_and_the_card_before():
    # A♦ after 3♣ and Q♥: as 14 it shares even and high with Q♥, as 1 odd and low with 3♣
    assert meets_main_rule(c("AD"), last=c("QH"), before=c("3C"))
    assert not meets_main_rule(c("9D"), last=c("QH"), before=c("3C"))


def test_an_ace_in_the_row_counts_as_the_player_likes_too():
    assert compare(c("3C"), c("AH")).shared == ("parity", "size")  # the row's ace as 1
    assert compare(c("QC"), c("AH")).shared == ("parity", "size")  # as 14
    assert compare(c("QC"), c("AH"), most=False).count == 0  # as 1 it shares nothing with the queen


# --- the source's example ---------------------------------------------------------------------------------------


def test_the_sources_example_through_the_rules():
    """J♦ then 5♠: 3♣ fits (odd and low like 5♠, odd like J♦); Q♥ only by the fallback; A♠ after either."""
    jack, five = c("JD"), c("5S")
    assert compare(c("3C"), five).shared == ("parity", "size") and compare(c("3C"), jack).shared == ("parity",)
    assert meets_main_rule(c("3C"), five, jack)
    assert compare(c("QH"), five).count == 0 and compare(c("QH"), jack).shared == ("size",)
    assert not meets_main_rule(c("QH"), five, jack) and meets_fallback(c("QH"), five, jack)
    assert meets_fallback(c("QH"), five, jack, AT_LEAST_ONE)  # the source's alternative allows it too
    assert meets_main_rule(c("AS"), c("3C"), five)  # as 1: odd and low like 3♣; a spade like 5♠
    assert meets_main_rule(c("AS"), c("QH"), five)  # as 14: even and high like Q♥; a spade like 5♠
    assert compare(c("AS"), c("3C")).mine.value == 1 and compare(c("AS"), c("QH")).mine.value == 14


def test_the_sources_example_through_the_engine():
    state = position([["3C", "QH", "AS", "KH", "2D"], ["4C", "6C", "7H", "9H", "10S"]], ["JD", "5S"])
    assert plays(state) == ["3C", "AS"]  # Q♥ waits: a card fits the main rule
    before = state.to_dict()
    with pytest.raises(IllegalMove):
        state.apply(Move("play", 0, (c("QH"),)))
    assert state.to_dict() == before
    state.apply(Move("play", 0, (c("3C"),)))
    assert state.row == cards("JD", "5S", "3C") and "AS" in plays(state)

    state = position([["QH", "KH", "2D"], ["4C", "6C", "7H", "9H", "10S"]], ["JD", "5S"])
    assert plays(state) == ["QH"]  # nothing fits the main rule: Q♥ by the fallback
    state.apply(Move("play", 0, (c("QH"),)))
    state.hands[0] = sorted([*state.hands[0], c("AS")])
    state.draw_pile.remove(c("AS"))
    assert "AS" in plays(state)


# --- the fallback -----------------------------------------------------------------------------------------------


def test_the_fallback_needs_nothing_with_the_last_card_and_fewer_than_two_with_the_card_before():
    five, jack, three = c("5S"), c("JD"), c("3C")
    # Q♦ shares nothing with 5♠, but the diamond and high with J♦: too much for the fallback
    assert not meets_fallback(c("QD"), five, jack) and meets_fallback(c("QD"), five, jack, AT_LEAST_ONE)
    # 8♥ shares nothing with 5♠ and nothing with 3♣: the fallback allows it, the alternative does not
    assert meets_fallback(c("8H"), five, three) and not meets_fallback(c("8H"), five, three, AT_LEAST_ONE)
    # 8♣ shares the club with 3♣: both allow it
    assert meets_fallback(c("8C"), five, three, FEWER_THAN_TWO) and meets_fallback(c("8C"), five, three, AT_LEAST_ONE)
    # 6♥ shares low with 5♠: not the fallback
    assert not meets_fallback(c("6H"), five, three)
    assert playable_cards(cards("QD", "8H"), five, jack) == [c("8H")]
    assert playable_cards(cards("QD", "8H"), five, jack, AT_LEAST_ONE) == cards("QD", "8H")


def test_the_fallback_option_changes_the_legal_moves():
    hands = [["8H", "QD"], ["4C", "6C", "7H", "9H", "10S"]]
    assert plays(position(hands, ["3C", "5S"])) == ["QD", "8H"]  # both share nothing with 5♠ or 3♣
    assert plays(position(hands, ["3C", "5S"], fallback_rule=AT_LEAST_ONE)) == []
    assert plays(position(hands, ["JD", "5S"])) == ["8H"]
    assert plays(position(hands, ["JD", "5S"], fallback_rule=AT_LEAST_ONE)) == ["QD", "8H"]


# --- a turn -----------------------------------------------------------------------------------------------------


def test_having_played_you_may_go_on_or_end_your_turn():
    state = position([["3C", "7C", "KH"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"])
    assert others(state) == []  # a card fits: no drawing, no ending before playing
    state.apply(Move("play", 0, (c("3C"),)))
    assert plays(state) == ["7C"] and others(state) == ["end_turn"]
    state.apply(Move("play", 0, (c("7C"),)))
    assert plays(state) == [] and others(state) == ["end_turn"]
    state.apply(Move("end_turn", 0))
    assert state.turn == 1 and state.played == 0 and state.turns == [1, 1]


def test_who_cannot_play_draws_one_card_and_plays_it_if_it_fits():
    state = position([["KH", "QD"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"], draw=["3C"])
    assert [m.kind for m in state.legal_moves()] == ["draw"]
    state.apply(Move("draw", 0))
    assert c("3C") in state.hands[0] and plays(state) == ["3C"] and others(state) == []  # it fits: play it
    state.apply(Move("play", 0, (c("3C"),)))
    assert others(state) == ["end_turn"]


def test_who_cannot_play_after_drawing_loses_the_round_and_takes_the_row_and_every_hand():
    state = position([["KH", "QD"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"], draw=["10D"])
    state.apply(Move("draw", 0))
    assert [m.kind for m in state.legal_moves()] == ["cannot_play"]
    draw_left = len(state.draw_pile)
    state.apply(Move("cannot_play", 0))
    assert len(state.penalties[0]) == 2 + 3 + 5 and state.penalties[1] == []
    assert state.results[-1] == {
        "round": 1,
        "winner": None,
        "loser": 0,
        "row": cards("JD", "5S"),
        "taken": {"0": 10},
        "rest": 0,
    }
    # the loser starts the next round: five new cards each and two for the row, from the draw pile
    assert state.turn == 0 and [len(h) for h in state.hands] == [HAND_SIZE, HAND_SIZE] and len(state.row) == ROW_START
    assert len(state.draw_pile) == draw_left - 2 * HAND_SIZE - ROW_START


def test_with_an_empty_draw_pile_who_cannot_play_loses_at_once():
    state = without_draw_pile(position([["KH", "QD"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"]))
    assert [m.kind for m in state.legal_moves()] == ["cannot_play"]
    state.apply(Move("cannot_play", 0))
    assert state.is_over and state.ended_by == "deck" and state.winners() == [0]  # 9 penalty cards against 43
    assert state.results[-1]["taken"] == {"0": 9}


def test_an_empty_hand_wins_the_round_and_the_other_takes_the_row_and_their_hand():
    state = position([["3C"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"])
    state.apply(Move("play", 0, (c("3C"),)))
    result = state.results[-1]
    assert result["winner"] == 0 and result["loser"] == 1 and result["row"] == cards("JD", "5S", "3C")
    assert result["taken"] == {"1": 3 + 5} and len(state.penalties[1]) == 8
    assert state.turn == 1 and state.rounds == 1 and state.log[-1]["ended"]


def test_with_three_players_the_others_take_their_hands_and_the_next_one_the_row_too():
    hands = [["3C"], ["4H", "6H"], ["8H", "9H", "10S"]]
    state = position(hands, ["JD", "5S"], players=3)
    state.apply(Move("play", 0, (c("3C"),)))
    assert state.results[-1]["taken"] == {"1": 3 + 2, "2": 3}
    assert state.turn == 1  # the loser (who took the row) starts

    state = position([["KH", "QD"], ["4H", "6H"], ["8H", "9H", "10S"]], ["JD", "5S"], players=3)
    state = without_draw_pile(state)
    state.apply(Move("cannot_play", 0))
    assert state.results[-1]["taken"] == {"0": 2 + 2 + 2 + 3}


# --- the end ------------------------------------------------------------------------------------------------------


def test_the_game_lasts_the_rounds_agreed_and_the_fewest_penalty_cards_win():
    state = position([["3C"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"], rounds=1)
    state.apply(Move("play", 0, (c("3C"),)))
    assert state.is_over and state.ended_by == "rounds" and state.winners() == [0]
    assert state.summary()["penalty_counts"] == {"0": 0, "1": 8}
    assert len(state.draw_pile) == 52 - 8  # the cards not dealt stay in the draw pile


def test_too_few_cards_for_a_new_round_the_loser_takes_the_rest_and_the_game_ends():
    state = position([["3C"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"])
    # leave 11 cards in the draw pile: one too few for 5 + 5 + 2
    state.penalties[0], state.draw_pile = state.draw_pile[:-11], state.draw_pile[-11:]
    state.rounds = 1
    taken = len(state.penalties[0])
    state.results = [
        {"round": 1, "winner": 1, "loser": 0, "row": state.penalties[0][:2], "taken": {"0": taken}, "rest": 0}
    ]
    state.validate()
    state.apply(Move("play", 0, (c("3C"),)))
    assert state.is_over and state.ended_by == "deck" and state.draw_pile == []
    assert state.results[-1]["rest"] == 11 and len(state.penalties[1]) == 8 + 11
    assert state.winners() == [1] and taken > 19


def test_playing_to_the_penalty_limit_ignores_the_rounds():
    state = position([["3C"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"], rounds=1, play_to_limit=True)
    state.apply(Move("play", 0, (c("3C"),)))
    assert not state.is_over and state.rounds == 1  # 8 penalty cards: not past 500
    state = position([["3C"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"], play_to_limit=True, penalty_limit=7)
    state.apply(Move("play", 0, (c("3C"),)))
    assert state.is_over and state.ended_by == "limit" and state.winners() == [0]


def test_equal_totals_share_the_win():
    state = position([["3C"], ["4H", "6H", "8H", "9H"]], ["JD", "5S"])
    rest, state.draw_pile = state.draw_pile, []  # 45 cards: 26 for seat 0, 19 for seat 1, who then takes 7 more
    state.penalties = [rest[:26], rest[26:]]
    state.rounds = 1
    state.results = [{"round": 1, "winner": None, "loser": 0, "row": rest[:2], "taken": {"0": 26, "1": 19}, "rest": 0}]
    state.validate()
    state.apply(Move("play", 0, (c("3C"),)))
    assert state.totals() == [26, 26] and state.winners() == [0, 1]


# --- storage ---------------------------------------------------------------------------------------------------------


def test_a_state_round_trips_and_impossible_ones_are_refused():
    game = ThreeTraits(players=2)
    state = position([["3C", "7C", "KH"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"])
    state.apply(Move("play", 0, (c("3C"),)))
    good = state.to_dict()
    assert game.state_from_dict(copy.deepcopy(good)).to_dict() == good

    def set_(key, value):
        return lambda data: data.update({key: value})

    refuses_each(
        game,
        good,
        {
            "a row of one card": lambda data: data["draw_pile"].extend(data["row"].pop(0) for _ in data["row"][1:]),
            "more played than the row holds": set_("played", 5),
            "a draw flag as a number": set_("drawn", 1),
            "penalty cards without a round": lambda data: data["penalties"][1].append(data["draw_pile"].pop()),
            "a hand out of order": lambda data: data["hands"][1].reverse(),
            "a round in play after the last one": set_("ended_by", "rounds"),
            "a log entry from a later round": lambda data: data["log"][-1].update(round=3),
            "a log entry with a card nobody has": lambda data: data["log"][-1].update(card=99),
            "a result for a round not played": lambda data: data.update(
                results=[{"round": 1, "winner": 0, "loser": 1, "row": [1, 2], "taken": {}, "rest": 0}]
            ),
            "turn counts for three players": set_("turns", [1, 1, 0]),
        },
    )


# --- computer players and whole games -----------------------------------------------------------------------------


def test_the_strong_player_runs_through_its_hand_when_it_can():
    # after J♦ 5♠: 3♣ (odd and low), 7♣, 9♣ and K♥ can follow one another; 7♣ first leaves 3♣ behind
    state = position([["3C", "7C", "9C", "KH"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"])
    assert plays(state) == ["3C", "7C"]
    bot = StrongBot()
    while state.rounds == 0 and state.turn == 0:
        state.apply(bot.choose(state.player_view(0), state.legal_moves(), None))
    assert state.results[-1]["winner"] == 0 and [card(c).code for c in state.results[-1]["row"][2:]] == [
        "3C",
        "7C",
        "9C",
        "KH",
    ]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_games_end_with_every_card_accounted_for_and_replay(players):
    game = make_game("three-traits", players)
    for seed in range(20):
        result = simulate(game, seed, ["strong", "beginner"])
        assert result.state.is_over and result.accounted and result.state.winners()
        assert replay(game, result.moves).to_dict() == result.state.to_dict()


def test_the_strong_player_beats_the_beginner_most_of_the_time():
    game = make_game("three-traits", 2)
    wins = sum(simulate(game, seed, ["strong", "beginner"]).state.winners() == [0] for seed in range(100))
    assert wins >= 75


def test_options_are_checked():
    with pytest.raises(InvalidOptions):
        ThreeTraits(players=5)
    with pytest.raises(InvalidOptions):
        ThreeTraits(options={"fallback_rule": "anything"})
    with pytest.raises(InvalidOptions):
        ThreeTraits(options={"rounds": 0})
    assert ThreeTraits().options == {
        "fallback_rule": FEWER_THAN_TWO,
        "rounds": 5,
        "play_to_limit": False,
        "penalty_limit": 500,
    }
