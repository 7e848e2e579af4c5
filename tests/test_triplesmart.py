"""TripleSmart and TripleSmart: Extreme on hand-made positions and whole games.

Their recorded playthroughs are played by tests/test_playthroughs.py.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.answers import AnswerError
from tutor.deck import kids2
from tutor.engine import CHANCE, GAMES, IllegalMove, InvalidOptions, InvalidState, Move, make_game
from tutor.engine.play import bot_rng, next_automatic_move, simulate
from tutor.engine.triplesmart import BeginnerBot, StrongBot, SubmitRefusal, TripleSmart, move_value, plain_expression
from tutor.expressions import ADD_SUB, FOUR_OPS, closest, reachable

DECK = kids2()
ALL_CARDS = [card.id for card in DECK.cards]
KOCHA = [card.id for card in DECK.cards if card.kind == "kocha"]
BANANA = [card.id for card in DECK.cards if card.kind == "banana"]
#: TripleSmart and its variants: every registered game of its rules.
GAME_IDS = [game.id for game in GAMES.values() if issubclass(game, TripleSmart)]


def n(top, copy=0):
    """The ``copy``-th number card with this top number (eight of each)."""
    return [card.id for card in DECK.cards if card.top == top][copy]


def deal(players=2, turns=(), targets=(), game_id="triplesmart", **options):
    """A fresh deal: side ``i`` turns ``turns[i]`` first, in that order; the target pile turns ``targets`` first.

    The turning is automatic, so the returned state is already past it (usually waiting for
    the first submission). The players' other cards are number cards; the special cards lie
    at the bottom of the target pile.
    """
    game = make_game(game_id, players, options)
    sides = 2 if players == 4 else players
    wanted = [list(t) for t in turns] + [[] for _ in range(sides - len(turns))]
    used = {c for t in wanted for c in t} | set(targets)
    numbers = [c for c in ALL_CARDS if c not in used and not DECK[c].is_special]
    order = []
    for first in wanted:
        size = 17 * (2 if players == 4 else 1)
        filler, numbers = numbers[: size - len(first)], numbers[size - len(first) :]
        order += filler + list(reversed(first))
    specials = [c for c in ALL_CARDS if c not in used and DECK[c].is_special]
    order += specials + numbers + list(reversed(targets))
    state = game.new_state()
    state.apply(Move("shuffle", CHANCE, tuple(order)))
    return state


def submit(state, player, cards, text):
    state.apply(Move("submit", player, tuple(cards), text))


# --- the deal and the round -------------------------------------------------------------------------
def test_seventeen_cards_each_and_the_rest_is_the_target_pile():
    two = deal(2)
    assert [len(p) for p in two.draw_piles] == [14, 14] and [len(t) for t in two.turned] == [3, 3]
    assert len(two.target_pile) == 47 and two.target is not None and two.phase == "submit"
    three = deal(3)
    assert [len(p) for p in three.draw_piles] == [14, 14, 14] and len(three.target_pile) == 30
    four = deal(4)
    assert (
        four.sides == [[0, 2], [1, 3]] and [len(p) for p in four.draw_piles] == [28, 28] and len(four.target_pile) == 13
    )
    assert sorted(four.card_ids()) == ALL_CARDS


def test_the_closest_expression_wins_every_card_on_the_table_and_the_target():
    state = deal(2, [[n(1), n(2), n(3)], [n(9), n(9, 1), n(9, 2)]], [n(6)])
    assert state.target == 6 and state.current_player == 0
    submit(state, 0, [n(1), n(2), n(3)], "1+2+3")
    submit(state, 1, [n(9)], "9")
    last = state.last_round
    assert last["winner_side"] == 0 and last["targets"] == [n(6)]
    assert sorted(state.collection_piles[0]) == sorted([n(1), n(2), n(3), n(9), n(9, 1), n(9, 2), n(6)])
    record = last["battles"][0]
    assert record["target"] == 6 and record["leaders"] == [0]
    assert record["players"]["0"] | {"cards": None} == {
        "cards": None,
        "result": "submitted",
        "expression": "1+2+3",
        "used": [n(1), n(2), n(3)],
        "value": "6",
        "distance": "0",
        "best_value": "6",
        "best_expression": "1+2+3",
        "best_distance": "0",
    }
    assert record["players"]["1"]["best_value"] == "9" and record["players"]["1"]["best_distance"] == "3"


def test_legal_moves_are_one_expression_per_reachable_value_and_every_one_is_legal():
    state = deal(2, [[n(2), n(5), n(7)]], game_id="triplesmart-extreme")
    moves = state.legal_moves()
    assert moves == state.legal_moves()
    values = [move_value(m, "four_ops") for m in moves]
    assert values == sorted(set(values)) and set(values) == set(reachable([2, 5, 7], FOUR_OPS))
    assert all(state.is_legal(m) and m.detail.isascii() and " " not in m.detail for m in moves)
    assert all(
        sorted(DECK[c].top for c in m.cards) == sorted(int(ch) for ch in m.detail if ch.isdigit()) for m in moves
    )


def test_any_valid_expression_is_legal_not_only_the_listed_ones():
    state = deal(2, [[n(3), n(4), n(2)]], [n(8)], game_id="triplesmart-extreme")
    listed = {m.detail for m in state.legal_moves()}
    for text, cards in (("2*(4+3)", [n(2), n(4), n(3)]), ("4+3", [n(3), n(4), n(2)]), ("4 x 2", [n(4), n(2)])):
        assert text not in listed
        assert state.is_legal(Move("submit", 0, tuple(cards), text))
    submit(state, 0, [n(2), n(4), n(3)], "2*(4+3)")
    assert state.submissions["0"]["value"] == "14"


def test_extreme_compares_fractions_exactly():
    state = deal(2, [[n(7), n(2), n(5)], [n(1), n(1, 1), n(1, 2)]], [n(4)], game_id="triplesmart-extreme")
    submit(state, 0, [n(7), n(2)], "7/2")
    submit(state, 1, [n(1), n(1, 1), n(1, 2)], "1+1+1")
    record = state.last_round["battles"][0]["players"]
    assert record["0"]["value"] == "7/2" and record["0"]["distance"] == "1/2" and record["1"]["distance"] == "1"
    assert state.last_round["winner_side"] == 0
    assert record["0"]["best_distance"] == "0"  # 7 - 5 + 2 reaches 4 exactly


BAD_PLAIN = [
    ("3+3", "cards_3_4", "used_too_often"),
    ("3+8", "cards_3_4", "not_on_cards"),
    ("3*4", "cards_3_4", "operator_not_allowed"),
    ("3x4", "cards_3_4", "operator_not_allowed"),
    ("3/4", "cards_3_4", "fraction"),
    ("8/2", "cards_3_4", "fraction"),  # read as 4 by the answer grammar, but 8 and 2 are not a card's number (games.md)
    ("4.0", "cards_3_4", "not_whole"),
    ("04", "cards_3_4", "not_whole"),
    ("2.5+1", "cards_3_4", "not_whole"),
    ("", "cards_3_4", "empty"),
    ("3×4", "cards_3_4", "not_ascii"),
    ("3+4", "no_cards", "no_cards"),
    ("3+4", "a_card_twice", "card_twice"),
    ("3+4", "opponents_card", "not_your_card"),
    ("3+4", "special_card", "special_card"),
]


@pytest.mark.parametrize("text,cards,code", BAD_PLAIN)
def test_bad_expressions_are_refused_with_a_reason_and_change_nothing(text, cards, code):
    state = deal(2, [[n(3), n(4), KOCHA[0], n(5)], [n(6), n(7), n(8)]], [n(9)])
    named = {
        "cards_3_4": [n(3), n(4)],
        "no_cards": [],
        "a_card_twice": [n(3), n(3), n(4)],
        "opponents_card": [n(3), n(6)],
        "special_card": [n(3), n(4), KOCHA[0]],
    }[cards]
    before = state.to_dict()
    move = Move("submit", 0, tuple(named), text)
    assert not state.is_legal(move)
    with pytest.raises(IllegalMove) as raised:
        state.apply(move)
    assert raised.value.refusal.code == code and str(raised.value.refusal)
    assert state.to_dict() == before


def test_a_submission_out_of_turn_is_refused():
    state = deal(2, [[n(3), n(4), n(5)], [n(6), n(7), n(8)]], [n(9)])
    with pytest.raises(IllegalMove) as raised:
        submit(state, 1, [n(6)], "6")
    assert isinstance(raised.value.refusal, SubmitRefusal) and raised.value.refusal.code == "not_your_turn"
    assert "player 0" in str(raised.value)


def test_extreme_refuses_division_by_zero_with_a_clear_message():
    state = deal(2, [[n(4), n(4, 1), n(2)]], [n(5)], game_id="triplesmart-extreme")
    before = state.to_dict()
    with pytest.raises(IllegalMove) as raised:
        submit(state, 0, [n(2), n(4), n(4, 1)], "2/(4-4)")
    assert isinstance(raised.value.refusal, AnswerError) and raised.value.refusal.code == "division_by_zero"
    assert "divide by zero" in str(raised.value)
    assert state.to_dict() == before


def test_other_submissions_stay_hidden_until_everyone_has_submitted():
    state = deal(3, [[n(1), n(2), n(3)], [n(4), n(5), n(6)], [n(7), n(8), n(9)]], [n(5, 1)])
    submit(state, 0, [n(1), n(2), n(3)], "1+2+3")
    seen = state.player_view(1)
    assert seen["submitted"] == [0] and seen["my_submission"] is None and seen["to_move"] == 1
    assert "1+2+3" not in json.dumps(seen)
    assert state.player_view(0)["my_submission"]["expression"] == "1+2+3"
    submit(state, 1, [n(5)], "5")
    submit(state, 2, [n(7), n(8), n(9)], "9+7-8")
    shown = state.player_view(2)["last_round"]["battles"][0]["players"]
    assert [shown[p]["expression"] for p in "012"] == ["1+2+3", "5", "9+7-8"]
    assert state.last_round["winners"] == [1]


# --- special cards, wars, teams -------------------------------------------------------------------
def test_a_kocha_card_means_one_more_card():
    state = deal(2, [[KOCHA[0], n(2), n(3), n(4)]], [n(9)])
    assert state.turned[0] == [KOCHA[0], n(2), n(3), n(4)] and state.numbers(0) == [2, 3, 4]
    submit(state, 0, [n(2), n(3), n(4)], "2+3+4")
    assert state.submissions["0"]["value"] == "9"


def test_a_second_kocha_card_wins_the_round_before_anyone_submits():
    state = deal(2, [[KOCHA[0], n(2), n(3), BANANA[0]], [n(1), n(5), n(6)]], [n(6, 1)])
    last = state.last_round
    assert state.rounds == 1 and last["winner_side"] == 0
    players = last["battles"][0]["players"]
    assert players["0"]["result"] == "double_kocha" and players["1"]["result"] == "no_submission"
    assert players["1"]["best_value"] == "6" and len(state.collection_piles[0]) == 4 + 3 + 1


def test_two_special_cards_among_the_first_three_are_a_double_kocha():
    state = deal(2, [[KOCHA[0], BANANA[0], n(2)], [n(1), n(5), n(6)]], [n(6, 1)])
    assert state.last_round["table"]["0"] == [KOCHA[0], BANANA[0], n(2)]
    assert state.last_round["battles"][0]["players"]["0"]["result"] == "double_kocha"


def test_both_double_kochas_mean_war_with_a_new_target():
    pot0, pot1 = [n(1), n(1, 1)], [n(1, 2), n(1, 3)]
    state = deal(
        2,
        [
            [KOCHA[0], KOCHA[1], n(2)] + pot0 + [n(3), n(4), n(5)],
            [BANANA[0], BANANA[1], n(2, 1)] + pot1 + [n(7), n(8), n(9)],
        ],
        [n(6), n(6, 1)],
    )
    assert state.wars == 1 and state.targets == [n(6), n(6, 1)] and state.target == 6
    assert state.player_view(1)["pot_counts"] == [5, 5]
    submit(state, 0, [n(3), n(4), n(5)], "3+4-5")
    submit(state, 1, [n(7), n(8), n(9)], "7+8-9")
    assert state.last_round["winner_side"] == 1 and len(state.collection_piles[1]) == 8 + 8 + 2


def test_equally_close_means_war_and_the_closest_then_takes_everything():
    pot0, pot1 = [n(1), n(1, 1)], [n(1, 2), n(1, 3)]
    state = deal(
        2,
        [
            [n(1, 4), n(2), n(3)] + pot0 + [n(9), n(9, 1), n(9, 2)],
            [n(2, 1), n(4), n(9, 3)] + pot1 + [n(3, 1), n(4, 1), n(5)],
        ],
        [n(6), n(7)],
    )
    submit(state, 0, [n(1, 4), n(2), n(3)], "1+2+3")
    submit(state, 1, [n(2, 1), n(4)], "2+4")
    assert state.wars == 1 and state.phase == "submit" and state.target == 7 and state.targets == [n(6), n(7)]
    assert state.turned[0] == [n(9), n(9, 1), n(9, 2)] and state.pot[0][3:] == pot0
    submit(state, 0, [n(9)], "9")
    submit(state, 1, [n(3, 1), n(4, 1)], "3+4")
    last = state.last_round
    assert last["winner_side"] == 1 and last["wars"] == 1 and len(last["battles"]) == 2
    assert len(state.collection_piles[1]) == 2 * (3 + 2 + 3) + 2


def test_a_tie_between_teammates_is_no_war_and_only_tied_opponents_fight():
    team = deal(
        4, [[n(1), n(2), n(3), n(2, 1), n(4), n(9)], [n(9, 1), n(9, 2), n(9, 3), n(8), n(8, 1), n(8, 2)]], [n(6)]
    )
    for player, cards, text in (
        (0, [n(1), n(2), n(3)], "1+2+3"),
        (1, [n(9, 1)], "9"),
        (2, [n(2, 1), n(4)], "2+4"),
        (3, [n(8)], "8"),
    ):
        submit(team, player, cards, text)
    assert team.last_round["winners"] == [0, 2] and team.last_round["wars"] == 0

    war = deal(
        4,
        [
            [n(1), n(2), n(3), n(9), n(9, 1), n(9, 2), n(1, 1), n(1, 2), n(7), n(7, 1), n(7, 2)],
            [n(2, 1), n(4), n(8), n(8, 1), n(8, 2), n(8, 3), n(1, 3), n(1, 4), n(5), n(2, 2), n(6, 1)],
        ],
        [n(6), n(5, 1)],
    )
    for player, cards, text in (
        (0, [n(1), n(2), n(3)], "1+2+3"),
        (1, [n(2, 1), n(4)], "2+4"),
        (2, [n(9)], "9"),
        (3, [n(8, 1)], "8"),
    ):
        submit(war, player, cards, text)
    assert war.wars == 1 and war.contenders == [0, 1] and war.waiting == [0, 1]
    submit(war, 0, [n(7)], "7")
    submit(war, 1, [n(5)], "5")
    assert war.last_round["winners"] == [1, 3] and len(war.collection_piles[1]) == 4 * 3 + 2 * 5 + 2


def test_a_special_target_card_is_laid_beside_and_the_next_card_is_the_target():
    state = deal(2, [[n(3), n(4), n(5)], [n(1), n(1, 1), n(1, 2)]], [KOCHA[0], n(7)])
    assert state.targets == [KOCHA[0], n(7)] and state.target == 7 and state.target_card == n(7)
    submit(state, 0, [n(3), n(4)], "3+4")
    submit(state, 1, [n(1)], "1")
    assert {KOCHA[0], n(7)} <= set(state.collection_piles[0])


def test_a_war_without_a_number_card_left_keeps_the_last_target_and_then_the_game_ends():
    state = deal(
        2,
        [
            [n(1), n(2), n(3), n(1, 1), n(1, 2), n(4), n(5), n(6)],
            [n(2, 1), n(4, 1), n(9)] + [n(1, 3), n(1, 4), n(7), n(8), n(8, 1)],
        ],
        [n(6, 1)],
    )
    state.collection_piles[1] += [c for c in state.target_pile if c != BANANA[0]]
    state.target_pile = [BANANA[0]]
    state.validate()
    submit(state, 0, [n(1), n(2), n(3)], "1+2+3")
    submit(state, 1, [n(2, 1), n(4, 1)], "2+4")
    assert state.wars == 1 and state.targets == [n(6, 1), BANANA[0]] and state.target == 6
    submit(state, 0, [n(6)], "6")
    submit(state, 1, [n(7)], "7")
    assert state.is_over and state.ended_by == "targets_used" and state.last_round["winner_side"] == 0
    assert state.winners() == [1]  # side 1 holds the cards moved from the target pile
    assert sorted(state.card_ids()) == ALL_CARDS


def test_an_empty_draw_pile_is_refilled_by_shuffling_the_collection_pile():
    state = deal(2, [[n(1), n(2), n(3)], [n(9), n(9, 1), n(9, 2)]], [n(6)])
    state.collection_piles[0], state.draw_piles[0] = state.draw_piles[0], []
    state.validate()
    submit(state, 0, [n(1), n(2), n(3)], "1+2+3")
    submit(state, 1, [n(9)], "9")
    assert state.phase == "reshuffle" and state.current_player == CHANCE and state.reshuffle_side == 0
    before = state.to_dict()
    with pytest.raises(IllegalMove):
        state.apply(Move("reshuffle", CHANCE, (1, 2, 3), "0"))
    assert state.to_dict() == before
    numbers_on_top = tuple(sorted(state.collection_piles[0], reverse=True))
    state.apply(Move("reshuffle", CHANCE, numbers_on_top, "0"))
    assert state.phase == "submit" and state.collection_piles[0] == [] and len(state.turned[0]) == 3


def test_a_player_who_cannot_turn_three_cards_is_out_and_an_empty_side_ends_the_game():
    state = deal(2, [[n(1), n(2), n(3), n(5)], [n(9), n(9, 1), n(9, 2), n(4), n(4, 1), n(4, 2)]], [n(9, 3), n(6)])
    state.collection_piles[1] += state.draw_piles[0][:-1]
    state.draw_piles[0] = state.draw_piles[0][-1:]
    state.validate()
    submit(state, 0, [n(1), n(2), n(3)], "1+2+3")
    submit(state, 1, [n(9), n(9, 1), n(9, 2)], "9")
    assert state.last_round["winner_side"] == 1 and state.rounds == 1
    assert state.out == [0] and state.turned[0] == [n(5)] and state.waiting == [1]
    submit(state, 1, [n(4)], "4")
    assert state.last_round["battles"][0]["players"]["0"]["result"] == "out"
    assert state.is_over and state.ended_by == "all_cards" and state.winners() == [1]


# --- options and the end --------------------------------------------------------------------------
def test_round_limit_ends_the_game_and_most_cards_wins():
    state = deal(2, [[n(1), n(2), n(3)], [n(9), n(9, 1), n(9, 2)]], [n(6)], round_limit=1)
    submit(state, 0, [n(1), n(2), n(3)], "1+2+3")
    submit(state, 1, [n(9)], "9")
    assert state.is_over and state.ended_by == "round_limit" and state.rounds == 1
    assert state.summary()["card_counts"] == {"0": 21, "1": 14} and state.winners() == [0]


def test_time_up_is_legal_only_before_anyone_submits_and_the_turned_cards_go_back():
    untimed = deal(2)
    with pytest.raises(IllegalMove):
        untimed.apply(Move("time_up", CHANCE))
    timed = deal(2, [[n(1), n(2), n(3)], [n(9), n(9, 1), n(9, 2)]], [n(6)], time_limit_minutes=5)
    target_pile = len(timed.target_pile)
    submit(timed, 0, [n(1)], "1")
    with pytest.raises(IllegalMove):
        timed.apply(Move("time_up", CHANCE))
    submit(timed, 1, [n(9)], "9")
    assert timed.is_legal(Move("time_up", CHANCE))
    timed.apply(Move("time_up", CHANCE))
    assert timed.is_over and timed.ended_by == "time_limit" and not any(timed.turned) and timed.targets == []
    assert len(timed.target_pile) == target_pile  # the first target was won; the second went back under the pile
    assert timed.summary()["card_counts"] == {"0": 14, "1": 21} and timed.winners() == [1]
    assert sorted(timed.card_ids()) == ALL_CARDS
    assert timed.game.state_from_dict(timed.to_dict()).to_dict() == timed.to_dict()


def test_bad_player_counts_options_and_stored_states_are_refused():
    with pytest.raises(InvalidOptions):
        make_game("triplesmart", 5)
    with pytest.raises(InvalidOptions):
        make_game("triplesmart-extreme", 2, {"time_limit_minutes": -5})
    state = deal(2, [[n(1), n(2), n(3)]], [n(6)])
    submit(state, 0, [n(1), n(2), n(3)], "1+2+3")
    game, data = state.game, state.to_dict()
    assert game.state_from_dict(data).to_dict() == data
    bad_submissions = [
        {"0": {"cards": [n(1), n(2), n(3)], "expression": "1+2+3", "value": "7"}},
        {"0": {"cards": [n(1), n(2)], "expression": "1+2+3", "value": "6"}},
        {"0": {"cards": [n(1), n(2), n(3), n(3)], "expression": "1+2+3", "value": "6"}},
        {"1": {"cards": [n(1)], "expression": "1", "value": "1"}},
        {"0": {"cards": [n(1)], "expression": "1*1", "value": "1"}},
    ]
    for change in [{"submissions": s} for s in bad_submissions] + [
        {"phase": "turning"},
        {"target_due": "yes"},
        {"targets": []},
        {"queue": [0]},
    ]:
        with pytest.raises(InvalidState):
            game.state_from_dict({**data, **change})


# --- computer players ----------------------------------------------------------------------------
@pytest.mark.parametrize("game_id,search", [("triplesmart", ADD_SUB), ("triplesmart-extreme", FOUR_OPS)])
def test_the_strong_bot_finds_the_closest_expression(game_id, search):
    state = deal(2, [[n(9), n(7), n(4)]], [n(6)], game_id=game_id)
    move = StrongBot().choose(state.player_view(0), state.legal_moves(), bot_rng(1, 1))
    assert state.is_legal(move) and move_value(move, state.game.allow) == 6
    assert closest([9, 7, 4], 6, search)[0] == 0


def test_the_beginner_bot_is_plausible_but_not_always_best():
    state = deal(2, [[n(9), n(7), n(4)]], [n(6)])
    moves = [BeginnerBot().choose(state.player_view(0), state.legal_moves(), bot_rng(seed, 0)) for seed in range(100)]
    assert all(state.is_legal(m) for m in moves)
    distances = [abs(move_value(m, "add_sub") - 6) for m in moves]
    assert max(distances) <= 3 and distances.count(0) < 60 and {"7", "4"} & {m.detail for m in moves}


def test_strong_players_win_more_cards_than_beginners():
    game = make_game("triplesmart", 2)
    totals = [0, 0]
    for seed in range(20):
        counts = simulate(game, seed, ["strong", "beginner"]).report()["card_counts"]
        totals[0], totals[1] = totals[0] + counts["0"], totals[1] + counts["1"]
    assert totals[0] > 2 * totals[1]


def test_plain_expression_turns_display_signs_into_ascii():
    assert plain_expression("(3 + 4) × 2 ÷ 7 − 1") == "(3+4)*2/7-1"
    assert Fraction(move_value(Move("submit", 0, (), "(3+4)*2/7-1"), "four_ops")) == 1


# --- whole games --------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_fifty_seeded_games_end_with_every_card_accounted_for(game_id, players):
    """About 100-150 games a second (TripleSmart) and 30-60 (Extreme) on one core."""
    game = make_game(game_id, players)
    for seed in range(50):
        result = simulate(game, seed, ["strong", "beginner"])
        assert result.state.is_over and result.accounted, seed
        assert result.state.winners() and result.state.ended_by in ("all_cards", "targets_used")


@settings(max_examples=20, deadline=None)
@given(st.permutations(ALL_CARDS), st.integers(2, 4), st.sampled_from(GAME_IDS))
def test_any_deal_plays_to_the_end_without_losing_a_card(order, players, game_id):
    game = make_game(game_id, players)
    state = game.new_state()
    moves = [Move("shuffle", CHANCE, tuple(order))]
    state.apply(moves[0])
    bots = {p: (StrongBot() if p % 2 else BeginnerBot()) for p in range(players)}
    while not state.is_over:
        move = next_automatic_move(state, 7, len(moves), bots)
        state.apply(move)
        moves.append(move)
        assert len(state.card_ids()) == len(ALL_CARDS)
    assert sorted(state.card_ids()) == ALL_CARDS and state.winners()
    assert game.state_from_dict(state.to_dict()).to_dict() == state.to_dict()
