"""MultiMatch and the Crazy Banana family on hand-made positions.

Their recorded playthroughs are played by tests/test_playthroughs.py.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.deck import kids2
from tutor.engine import CHANCE, GAMES, IllegalMove, InvalidOptions, InvalidState, Move, make_game
from tutor.engine.play import bot_rng, chance_rng, simulate
from tutor.engine.shedding import (
    TURN_CAP,
    BeginnerBot,
    SheddingGame,
    StrongBot,
    extreme_witness,
    overslag_vri,
    product_targets,
    tens_friends,
)
from tutor.primes import is_prime, primes_up_to

DECK = kids2()
ALL_CARDS = [c.id for c in DECK.cards]
NUMBERS = list(DECK.number_card_ids)
COLOURS = [c.id for c in DECK.colours]
#: MultiMatch and the Crazy Banana games: every registered game of the shedding rules.
SHEDDING = [game.id for game in GAMES.values() if issubclass(game, SheddingGame)]


# --- helpers ------------------------------------------------------------------------------
def number(colour=None, top=None, where=lambda c: True, exclude=()):
    """The first number card with the wanted colour / top number / property."""
    return next(
        c.id
        for c in DECK.cards
        if c.kind == "number"
        and (colour is None or c.colour == colour)
        and (top is None or c.top == top)
        and where(c)
        and c.id not in exclude
    )


def special(kind, instruction=None, exclude=()):
    return next(
        c.id
        for c in DECK.cards
        if c.kind == kind and (instruction is None or c.instruction == instruction) and c.id not in exclude
    )


BANANA = special("banana")
BANANA2 = special("banana", exclude=(BANANA,))
SKIP, REVERSE, DRAW_TWO = (special("kocha", i) for i in ("skip", "reverse", "draw_two"))


def dealt(game_id, players=2, **options):
    game = make_game(game_id, players, options)
    state = game.new_state()
    state.apply(Move("shuffle", CHANCE, tuple(ALL_CARDS)))
    return state


def arrange(state, hands, top, colour=None, draw_top=(), discard_below=(), rest="draw"):
    """Lay out a position: chosen hands and top discard; every other card in the draw pile
    (``draw_top`` on its top, last drawn first) or, with ``rest="discard"``, under the top."""
    chosen = [c for hand in hands for c in hand] + [top, *draw_top, *discard_below]
    assert len(set(chosen)) == len(chosen)
    others = [c for c in ALL_CARDS if c not in chosen]
    state.hands = [list(hand) for hand in hands]
    if rest == "draw":
        state.draw_pile = others + list(reversed(draw_top))
        state.discard_pile = [*discard_below, top]
    else:
        state.draw_pile = list(reversed(draw_top))
        state.discard_pile = [*discard_below, *others, top]
    state.colour = colour or DECK[top].colour
    state.validate()
    return state


def kinds(state):
    return [m.kind for m in state.legal_moves()]


def plays(state):
    return [m for m in state.legal_moves() if m.kind in ("play", "play_pair")]


def single_ids(state):
    return sorted({m.cards[0] for m in state.legal_moves() if m.kind == "play"})


# --- the deal ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "game_id,size",
    [("multimatch", 6), ("crazy-banana-overslag", 5), ("crazy-banana-tiervenner", 5), ("crazy-banana-extreme", 5)],
)
def test_the_deal_gives_each_player_the_game_hand_size_and_one_face_up_card(game_id, size):
    state = dealt(game_id, 3)
    assert [len(h) for h in state.hands] == [size] * 3
    assert len(state.discard_pile) == 1 and state.colour == DECK[state.discard_pile[0]].colour
    assert state.current_player == 0 and state.turns == 1 and state.direction == 1
    assert sorted(state.card_ids()) == ALL_CARDS


def test_a_special_card_turned_to_start_the_pile_goes_under_the_draw_pile():
    game = make_game("crazy-banana-overslag", 2)
    dealt_cards = NUMBERS[:10]
    starter = NUMBERS[10]
    rest = [c for c in ALL_CARDS if c not in dealt_cards + [starter, BANANA, SKIP]]
    order = rest + [starter, SKIP, BANANA] + dealt_cards  # the last card is the top of the pile
    state = game.new_state()
    state.apply(Move("shuffle", CHANCE, tuple(order)))
    assert state.discard_pile == [starter]
    assert state.draw_pile[:2] == [SKIP, BANANA]  # BANANA was turned first: it lies at the very bottom
    assert sorted(state.card_ids()) == ALL_CARDS


# --- colour and the maths rules ------------------------------------------------------------
def test_a_card_of_the_colour_in_force_can_be_played_and_another_colour_cannot():
    state = dealt("crazy-banana-tiervenner")
    top = number("purple", 3)
    same = number("purple", 4, exclude=(top,))
    other = number("blue", 4)
    arrange(state, [[same, other], [number("green", 2)]], top)
    assert single_ids(state) == [same]
    for bad in (Move("play", 0, (other,)), Move("play", 0, (other,), "purple"), Move("play", 0, (same,), "blue")):
        with pytest.raises(IllegalMove):
            state.apply(bad)
    state.apply(Move("play", 0, (same,)))
    assert state.discard_pile[-1] == same and state.colour == "purple"


def test_multimatch_pair_plays_match_a_product_and_the_player_chooses_the_top_card():
    state = dealt("multimatch")
    top = number("purple", where=lambda c: 64 in c.circled)
    a, b = number("blue", 8), number("green", 8)  # 8 x 8 = 64
    arrange(state, [[a, b, number("orange", 1), number("orange", 2)], [number("green", 2)]], top)
    pairs = [m.cards for m in state.legal_moves() if m.kind == "play_pair"]
    assert (a, b) in pairs and (b, a) in pairs
    assert all(DECK[x].top * DECK[y].top in DECK[top].circled for x, y in pairs)
    state.apply(Move("play_pair", 0, (a, b)))  # b lies on top
    assert state.discard_pile[-2:] == [a, b] and state.colour == "green"
    assert len(state.hands[0]) == 2 and state.current_player == 1


def test_no_pair_play_on_a_special_card_and_none_outside_multimatch():
    state = dealt("multimatch")
    a, b = number("blue", 8), number("green", 8)
    arrange(state, [[a, b, BANANA2], [number("green", 2)]], BANANA, colour="orange")
    assert "play_pair" not in kinds(state)
    other = dealt("crazy-banana-overslag")
    top = number("purple", where=lambda c: 64 in c.circled)
    arrange(other, [[a, b], [number("green", 2)]], top)
    assert "play_pair" not in kinds(other)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(NUMBERS), min_size=2, max_size=10, unique=True), st.sampled_from(NUMBERS))
def test_pair_plays_are_exactly_the_ordered_pairs_whose_product_is_circled(hand, top):
    hand = [c for c in hand if c != top]
    state = dealt("multimatch")
    arrange(state, [hand, [c for c in NUMBERS if c not in hand and c != top][:3]], top)
    expected = sorted((x, y) for x in hand for y in hand if x != y and DECK[x].top * DECK[y].top in DECK[top].circled)
    assert [m.cards for m in state.legal_moves() if m.kind == "play_pair"] == expected


def test_product_targets_lists_the_factor_pairs_of_the_circled_values():
    assert (8, 8, 64) in product_targets((64, 83, 25, 72)) and (8, 9, 72) in product_targets((64, 83, 25, 72))
    assert (5, 5, 25) in product_targets((64, 83, 25, 72))
    assert all(a * b != 83 for a, b, _ in product_targets((64, 83, 25, 72)))


def test_overslag_vri_needs_a_strictly_higher_circled_sum():
    assert overslag_vri((50, 50, 50, 51), (50, 50, 50, 50))
    assert not overslag_vri((50, 50, 50, 50), (40, 60, 50, 50))  # equal sums do not vri
    state = dealt("crazy-banana-overslag")
    top = number("purple", where=lambda c: 150 < c.circled_sum < 250)
    higher = number("blue", where=lambda c: c.circled_sum > DECK[top].circled_sum)
    lower = number("green", where=lambda c: c.circled_sum <= DECK[top].circled_sum)
    arrange(state, [[higher, lower], [number("orange", 2)]], top)
    assert single_ids(state) == [higher]


def test_overslag_equal_sums_do_not_vri_on_real_cards():
    by_sum = {}
    for c in NUMBERS:
        by_sum.setdefault(DECK[c].circled_sum, []).append(c)
    same = next(ids for ids in by_sum.values() if len({DECK[c].colour for c in ids}) > 1)
    top = same[0]
    equal = next(c for c in same if DECK[c].colour != DECK[top].colour)
    state = dealt("crazy-banana-overslag")
    arrange(state, [[equal], [number("orange", 2, exclude=(top, equal))]], top)
    assert single_ids(state) == []


def test_tiervenner_vri_with_the_tens_friend_including_five_and_five():
    assert tens_friends(5, 5) and tens_friends(1, 9) and tens_friends(3, 7)
    assert not tens_friends(4, 7) and not tens_friends(9, 9)
    state = dealt("crazy-banana-tiervenner")
    five, four, six = number("blue", 5), number("green", 4), number("orange", 6)
    arrange(state, [[five, four, six], [number("orange", 2)]], number("purple", 5))
    assert single_ids(state) == [five]
    arrange(state, [[five, four, six], [number("orange", 2)]], number("purple", 4))
    assert single_ids(state) == [six]


def test_extreme_two_values_must_beat_the_whole_top_card():
    top = (27, 27, 27, 27)  # total 108, mean 27
    assert extreme_witness((60, 49, 2, 4), top) == ("beats_total", (60, 49))
    assert extreme_witness((60, 48, 2, 4), top) is None  # 108 is not more than 108, and no pair sum is prime


def test_extreme_a_prime_sum_must_be_strictly_above_the_exact_mean():
    assert Fraction(10 + 20 + 30 + 32, 4) == 23
    assert extreme_witness((11, 12, 14, 16), (10, 20, 30, 32)) is None  # 23 is prime but equals the mean
    assert extreme_witness((11, 12, 14, 16), (10, 20, 30, 31)) == ("prime_above_mean", (11, 12))  # 23 > 22 3/4
    assert extreme_witness((11, 12, 14, 16), (50, 50, 50, 50)) is None  # 23 is below the mean
    assert extreme_witness((20, 25, 10, 14), (30, 30, 30, 30)) is None  # 45 30 34 35 39 24: none prime


def test_the_primes_to_200_are_listed_for_the_lesson():
    primes = primes_up_to(200)
    assert primes == list(sympy.primerange(2, 201))
    assert len(primes) == 46 and primes[:4] == [2, 3, 5, 7] and primes[-1] == 199
    assert primes_up_to(10) == [2, 3, 5, 7] and primes_up_to(1) == []
    assert all(is_prime(n) == sympy.isprime(n) for n in range(0, 260))


def test_extreme_on_real_cards_follows_the_witness():
    state = dealt("crazy-banana-extreme")
    top = number("purple", 5)
    candidates = [c for c in NUMBERS if DECK[c].colour != "purple"]
    allowed = [c for c in candidates if extreme_witness(DECK[c].circled, DECK[top].circled)]
    refused = [c for c in candidates if not extreme_witness(DECK[c].circled, DECK[top].circled)]
    assert allowed and refused
    hand = [allowed[0], refused[0]]
    arrange(state, [hand, [number("purple", 2, exclude=(top,))]], top)
    assert single_ids(state) == [allowed[0]]
    game = GAMES["crazy-banana-extreme"]
    assert game.vri_witness(allowed[0], top) == extreme_witness(DECK[allowed[0]].circled, DECK[top].circled)


@pytest.mark.parametrize("game_id", ["crazy-banana-overslag", "crazy-banana-tiervenner", "crazy-banana-extreme"])
def test_no_maths_vri_on_a_special_card_only_the_named_colour(game_id):
    state = dealt(game_id)
    green, others = number("green", 5), [c for c in NUMBERS if DECK[c].colour != "green"]
    arrange(state, [[green, *others[:6]], [number("green", 2, exclude=(green,))]], SKIP, colour="green")
    assert single_ids(state) == [green]


# --- drawing and passing -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "game_id,limit",
    [("multimatch", 3), ("crazy-banana-overslag", 3), ("crazy-banana-tiervenner", 2), ("crazy-banana-extreme", 3)],
)
def test_draw_one_at_a_time_up_to_the_limit_then_pass(game_id, limit):
    state = dealt(game_id, 3)
    top = number("purple", 1)
    dead = [
        number("blue", 1),
        number("blue", 1, exclude=(number("blue", 1),)),
    ]  # blue 1s: no colour, no vri on purple 1
    hand = [number("orange", 2)]
    if game_id == "crazy-banana-overslag":
        hand = [number("orange", where=lambda c: c.circled_sum <= DECK[top].circled_sum)]
        dead = [
            c
            for c in NUMBERS
            if DECK[c].colour != "purple" and DECK[c].circled_sum <= DECK[top].circled_sum and c not in hand
        ][:3]
    if game_id == "crazy-banana-extreme":
        hand = [
            c for c in NUMBERS if DECK[c].colour != "purple" and not extreme_witness(DECK[c].circled, DECK[top].circled)
        ][:1]
        dead = [
            c
            for c in NUMBERS
            if DECK[c].colour != "purple" and not extreme_witness(DECK[c].circled, DECK[top].circled) and c not in hand
        ][:3]
    if game_id == "crazy-banana-tiervenner":
        dead = [number("blue", 2), number("green", 3)]
    if game_id == "multimatch":
        dead = [number("blue", 2), number("green", 3), number("green", 7)]
        hand = [number("orange", 5)]
    arrange(state, [hand, [number("green", 4)], [number("green", 6)]], top, draw_top=dead[:limit])
    assert not plays(state) and kinds(state)[-1] == "draw"
    with pytest.raises(IllegalMove):
        state.apply(Move("pass", 0))
    for drawn in range(1, limit + 1):
        state.apply(Move("draw", 0))
        assert state.drawn == drawn and state.current_player == 0
    assert len(state.hands[0]) == 1 + limit and not plays(state)
    assert kinds(state) == ["pass"]
    with pytest.raises(IllegalMove):
        state.apply(Move("draw", 0))
    state.apply(Move("pass", 0))
    assert state.current_player == 1 and state.drawn == 0


def test_a_drawn_card_can_be_played_at_once():
    state = dealt("crazy-banana-tiervenner")
    top = number("purple", 3)
    friend = number("blue", 7)
    arrange(state, [[number("orange", 2)], [number("green", 4)]], top, draw_top=[friend])
    state.apply(Move("draw", 0))
    assert single_ids(state) == [friend]
    state.apply(Move("play", 0, (friend,)))
    assert state.colour == "blue" and state.current_player == 1


def test_one_may_draw_instead_of_playing_but_not_pass():
    state = dealt("multimatch")
    top = number("purple", 1)
    arrange(state, [[number("purple", 2)], [number("green", 4)]], top)
    assert kinds(state) == ["play", "draw"]


# --- banana and Kocha cards ----------------------------------------------------------------------
def test_a_banana_card_is_always_playable_and_names_the_colour():
    state = dealt("crazy-banana-overslag", 3)
    top = number("purple", 1)
    arrange(state, [[BANANA, number("orange", 2)], [number("green", 4), number("blue", 5)], [number("green", 6)]], top)
    banana_moves = [m for m in state.legal_moves() if m.cards == (BANANA,)]
    assert [m.detail for m in banana_moves] == COLOURS
    with pytest.raises(IllegalMove):
        state.apply(Move("play", 0, (BANANA,)))  # a colour must be named
    state.apply(Move("call_one_card", 0))
    state.apply(Move("play", 0, (BANANA,), "green"))
    assert state.colour == "green" and state.current_player == 1 and state.phase == "play"
    assert single_ids(state) == [number("green", 4)]


def test_without_power_a_banana_goes_only_on_a_special_card_and_keeps_the_colour():
    state = dealt("multimatch", 2, banana_has_no_power=True)
    top = number("purple", 1)
    arrange(state, [[BANANA, number("orange", 2), number("orange", 3)], [number("green", 4)]], top)
    assert BANANA not in single_ids(state)
    arrange(state, [[BANANA, number("orange", 2), number("orange", 3)], [number("green", 4)]], SKIP, colour="blue")
    assert [m for m in state.legal_moves() if m.cards == (BANANA,)] == [Move("play", 0, (BANANA,))]
    state.apply(Move("play", 0, (BANANA,)))
    assert state.colour == "blue" and state.discard_pile[-1] == BANANA and state.current_player == 1
    assert make_game("multimatch").options["banana_has_no_power"] is False


def test_kocha_cards_still_name_a_colour_when_bananas_have_no_power():
    state = dealt("crazy-banana-extreme", 2, banana_has_no_power=True)
    arrange(state, [[SKIP, number("orange", 2), number("orange", 3)], [number("green", 4)]], number("purple", 1))
    assert [m.detail for m in state.legal_moves() if m.cards == (SKIP,)] == COLOURS


def three_players_with(card_id, game_id="crazy-banana-overslag"):
    state = dealt(game_id, 3)
    arrange(
        state,
        [
            [card_id, number("orange", 2), number("orange", 3)],
            [number("green", 4), number("green", 5)],
            [number("blue", 6), number("blue", 7)],
        ],
        number("purple", 1),
    )
    return state


def test_kocha_skip_makes_the_next_player_miss_a_turn():
    state = three_players_with(SKIP)
    state.apply(Move("play", 0, (SKIP,), "blue"))
    assert state.current_player == 2 and state.colour == "blue"


def test_kocha_reverse_turns_the_direction_round():
    state = three_players_with(REVERSE)
    state.apply(Move("play", 0, (REVERSE,), "blue"))
    assert state.direction == -1 and state.current_player == 2
    assert state.next_active(2) == 1


def test_kocha_reverse_with_two_players_works_like_skip():
    state = dealt("multimatch", 2)
    arrange(state, [[REVERSE, number("orange", 2), number("orange", 3)], [number("green", 4)]], number("purple", 1))
    state.apply(Move("play", 0, (REVERSE,), "orange"))
    assert state.current_player == 0 and state.direction == -1 and state.drawn == 0 and state.turns == 2


def test_kocha_skip_with_two_players_gives_the_player_another_turn():
    state = dealt("crazy-banana-tiervenner", 2)
    arrange(state, [[SKIP, number("orange", 2), number("orange", 3)], [number("green", 4)]], number("purple", 1))
    state.apply(Move("play", 0, (SKIP,), "orange"))
    assert state.current_player == 0


def test_kocha_draw_two_gives_the_next_player_two_cards_and_then_the_turn():
    state = three_players_with(DRAW_TWO)
    before = list(state.draw_pile[-2:])
    state.apply(Move("play", 0, (DRAW_TWO,), "green"))
    assert state.current_player == 1 and state.drawn == 0
    assert sorted(state.hands[1]) == sorted([number("green", 4), number("green", 5)] + before)


def test_a_special_card_may_not_be_the_last_card():
    state = dealt("crazy-banana-overslag")
    arrange(state, [[BANANA], [number("green", 4)]], number("purple", 1))
    assert not plays(state) and kinds(state) == ["draw"]
    arrange(state, [[SKIP], [number("green", 4)]], number("purple", 1))
    with pytest.raises(IllegalMove):
        state.apply(Move("play", 0, (SKIP,), "green"))
    arrange(state, [[BANANA, SKIP], [number("green", 4)]], number("purple", 1))
    assert {m.cards[0] for m in plays(state)} == {BANANA, SKIP}


# --- one card left and the knock ---------------------------------------------------------------
def two_card_position(players=2, game_id="multimatch"):
    state = dealt(game_id, players)
    hands = [
        [number("purple", 2), number("orange", 3)],
        [number("green", 4), number("green", 5)],
        [number("blue", 6), number("blue", 7)],
    ][:players]
    arrange(state, hands, number("purple", 1))
    return state


def test_calling_one_card_before_the_play_avoids_the_knock():
    state = two_card_position()
    assert kinds(state)[0] == "call_one_card"
    state.apply(Move("call_one_card", 0))
    assert state.called and "call_one_card" not in kinds(state) and state.current_player == 0
    with pytest.raises(IllegalMove):
        state.apply(Move("call_one_card", 0))
    state.apply(Move("play", 0, (number("purple", 2),)))
    assert state.phase == "play" and state.current_player == 1 and state.exposed is None


def test_call_is_only_legal_when_a_play_would_leave_one_card():
    state = dealt("multimatch")
    arrange(
        state,
        [[number("purple", 2), number("orange", 3), number("orange", 4)], [number("green", 4)]],
        number("purple", 1),
    )
    assert "call_one_card" not in kinds(state)
    arrange(state, [[number("blue", 2), number("orange", 3)], [number("green", 4)]], number("purple", 1))
    assert "call_one_card" not in kinds(state)  # nothing to play


def test_a_pair_play_from_three_cards_needs_the_call():
    state = dealt("multimatch")
    top = number("purple", where=lambda c: 64 in c.circled)
    arrange(state, [[number("blue", 8), number("green", 8), number("orange", 1)], [number("green", 4)]], top)
    assert "call_one_card" in kinds(state)


def test_forgetting_the_call_opens_a_knock_window_and_a_knock_costs_two_cards():
    state = two_card_position()
    state.apply(Move("play", 0, (number("purple", 2),)))
    assert state.phase == "knock" and state.exposed == 0 and state.current_player == 1
    assert state.legal_moves() == [Move("knock", 1), Move("no_knock", 1)]
    with pytest.raises(IllegalMove):
        state.apply(Move("knock", 0))
    state.apply(Move("knock", 1))
    assert len(state.hands[0]) == 3 and state.phase == "play" and state.current_player == 1 and state.exposed is None
    assert state.last_event["kind"] == "knock" and state.last_event["target"] == 0


def test_every_other_player_may_knock_in_turn_and_the_chance_passes():
    state = two_card_position(3)
    state.apply(Move("play", 0, (number("purple", 2),)))
    assert state.knock_queue == [1, 2]
    state.apply(Move("no_knock", 1))
    assert state.current_player == 2
    state.apply(Move("no_knock", 2))
    assert state.phase == "play" and state.current_player == 1 and len(state.hands[0]) == 1


def test_a_forgotten_call_with_draw_two_settles_the_knock_first():
    state = dealt("crazy-banana-extreme", 3)
    hands = [[DRAW_TWO, number("orange", 3)], [number("green", 4)], [number("blue", 6)]]
    arrange(state, hands, number("purple", 1))
    state.apply(Move("play", 0, (DRAW_TWO,), "orange"))
    assert state.phase == "knock" and state.knock_queue == [1, 2] and state.pending_draws == [[1, 2]]
    state.apply(Move("no_knock", 1))
    state.apply(Move("knock", 2))
    assert [len(h) for h in state.hands] == [3, 3, 1] and state.current_player == 1


def test_strong_bots_call_and_knock_and_beginners_sometimes_forget():
    state = two_card_position()
    view, legal = state.player_view(0), state.legal_moves()
    assert StrongBot().choose(view, legal, bot_rng(0, 0)) == Move("call_one_card", 0)
    picks = {BeginnerBot().choose(view, legal, bot_rng(seed, 0)).kind for seed in range(60)}
    assert {"call_one_card", "play"} <= picks
    state.apply(Move("play", 0, (number("purple", 2),)))
    assert StrongBot().choose(state.player_view(1), state.legal_moves(), bot_rng(0, 0)) == Move("knock", 1)


def test_bots_knock_in_simulated_games():
    knocks = calls = 0
    for seed in range(30):
        moves = simulate(make_game("crazy-banana-tiervenner", 3), seed, ["beginner", "strong", "beginner"]).moves
        knocks += sum(m.kind == "knock" for m in moves)
        calls += sum(m.kind == "call_one_card" for m in moves)
    assert knocks and calls


# --- running out of cards ----------------------------------------------------------------------
def test_an_empty_draw_pile_is_refilled_from_the_discard_pile_except_its_top():
    state = dealt("crazy-banana-overslag")
    top = number("purple", 1)
    arrange(state, [[number("orange", 2)], [number("green", 4)]], top, rest="discard")
    assert state.draw_pile == [] and state.can_draw()
    state.apply(Move("draw", 0))
    assert state.phase == "reshuffle" and state.current_player == CHANCE
    with pytest.raises(IllegalMove):
        state.apply(Move("reshuffle", CHANCE, (1, 2, 3)))
    move = state.chance_move(random.Random(1))
    assert sorted(move.cards) == sorted(state.discard_pile[:-1])
    state.apply(move)
    assert state.discard_pile == [top] and state.phase == "play" and state.current_player == 0
    assert len(state.hands[0]) == 2 and state.drawn == 1 and state.hands[0][-1] == move.cards[-1]
    assert sorted(state.card_ids()) == ALL_CARDS


def test_with_nothing_to_draw_one_passes_and_a_dry_cycle_ends_the_game():
    state = dealt("multimatch")
    top = number("purple", 1)
    rest = [c for c in ALL_CARDS if c != top]
    arrange(state, [rest[:40], rest[40:]], top, rest="discard")
    assert not state.can_draw() and kinds(state)[-1] == "pass"
    state.apply(Move("pass", 0))
    assert state.current_player == 1 and not state.is_over
    state.apply(Move("pass", 1))
    assert state.is_over and state.ended_by == "stalled" and state.winners() == [0]


def test_a_penalty_with_nothing_to_draw_is_dropped():
    state = dealt("crazy-banana-overslag", 3)
    top = number("purple", 1)
    hands = [[DRAW_TWO, number("orange", 3), number("orange", 4)], [number("green", 4)]]
    rest = [c for c in ALL_CARDS if c not in hands[0] + hands[1] + [top]]
    arrange(state, [hands[0], hands[1], rest], top, rest="discard")
    state.apply(Move("play", 0, (DRAW_TWO,), "green"))
    assert state.phase == "reshuffle" and state.pending_draws == [[1, 2]]  # only the old top can be shuffled
    state.apply(Move("reshuffle", CHANCE, (top,)))
    assert sorted(state.hands[1]) == sorted([number("green", 4), top]) and state.pending_draws == []
    assert state.phase == "play" and state.current_player == 1 and state.discard_pile == [DRAW_TWO]


# --- the end -------------------------------------------------------------------------------------
def test_the_first_empty_hand_wins_by_default():
    state = dealt("crazy-banana-tiervenner", 3)
    last = number("purple", 2)
    arrange(state, [[last], [number("green", 4)], [number("blue", 6)]], number("purple", 1))
    assert "call_one_card" not in kinds(state)
    state.apply(Move("play", 0, (last,)))
    assert state.is_over and state.ended_by == "empty_hand" and state.winners() == [0]
    assert state.summary()["ranking"][0] == 0


def test_play_until_one_left_ranks_the_players():
    state = dealt("crazy-banana-overslag", 3, play_until_one_left=True)
    arrange(
        state,
        [[number("purple", 2)], [number("purple", 3)], [number("blue", 6), number("blue", 7)]],
        number("purple", 1),
    )
    state.apply(Move("play", 0, (number("purple", 2),)))
    assert not state.is_over and state.finished == [0] and state.current_player == 1
    assert state.player_view(2)["finished"] == [0]
    state.apply(Move("play", 1, (number("purple", 3),)))
    assert state.is_over and state.ended_by == "one_left"
    assert state.winners() == [0] and state.ranking() == [0, 1, 2]


def test_players_who_are_out_are_skipped():
    state = dealt("multimatch", 3, play_until_one_left=True)
    arrange(
        state,
        [[number("purple", 2)], [number("blue", 3), number("blue", 4)], [number("blue", 6), number("blue", 7)]],
        number("purple", 1),
    )
    state.apply(Move("play", 0, (number("purple", 2),)))
    assert state.next_active(2) == 1 and state.active_players() == [1, 2]


def test_a_turn_limit_ends_the_game_and_the_fewest_cards_win():
    result = simulate(make_game("crazy-banana-overslag", 3, {"turn_limit": 4}), 5, ["beginner"])
    state = result.state
    assert state.is_over and state.ended_by == "turn_limit" and state.turns == 4
    counts = {p: len(h) for p, h in enumerate(state.hands)}
    assert state.winners() == [p for p, n in counts.items() if n == min(counts.values())]


def test_time_up_is_legal_only_with_a_time_limit_at_the_start_of_a_turn():
    untimed = dealt("multimatch")
    with pytest.raises(IllegalMove):
        untimed.apply(Move("time_up", CHANCE))
    timed = dealt("multimatch", 2, time_limit_minutes=10)
    timed.apply(Move("draw", 0))
    with pytest.raises(IllegalMove):
        timed.apply(Move("time_up", CHANCE))
    timed = dealt("multimatch", 2, time_limit_minutes=10)
    timed.apply(Move("time_up", CHANCE))
    assert timed.is_over and timed.ended_by == "time_limit" and timed.winners()


def test_the_safety_cap_ends_even_endless_play():
    state = dealt("crazy-banana-tiervenner")
    state.turns = TURN_CAP
    arrange(state, [[number("orange", 2)], [number("green", 4)]], number("purple", 1))
    for _ in range(2):
        state.apply(Move("draw", 0))
    state.apply(Move("pass", 0))
    assert state.is_over and state.ended_by == "turn_cap"


@settings(max_examples=25, deadline=None)
@given(
    game_id=st.sampled_from(SHEDDING),
    players=st.integers(2, 4),
    seed=st.integers(0, 10**6),
    no_power=st.booleans(),
    until_one=st.booleans(),
)
def test_random_play_ends_and_every_position_is_valid(game_id, players, seed, no_power, until_one):
    game = make_game(game_id, players, {"banana_has_no_power": no_power, "play_until_one_left": until_one})
    rng, state, moves = random.Random(seed), game.new_state(), 0
    while not state.is_over:
        move = (
            state.chance_move(chance_rng(seed, moves))
            if state.current_player == CHANCE
            else rng.choice(state.legal_moves())
        )
        state.apply(move)
        moves += 1
        if moves % 7 == 0:
            state.validate()
    assert moves < 20_000 and sorted(state.card_ids()) == ALL_CARDS and state.winners()


@pytest.mark.parametrize("game_id", SHEDDING)
def test_fifty_seeds_for_two_three_and_four_players_finish_with_every_card(game_id):
    for players in (2, 3, 4):
        for seed in range(50):
            bots = ["strong", "beginner"] if seed % 2 else ["beginner", "strong", "strong"]
            result = simulate(make_game(game_id, players), seed, bots)
            assert result.state.is_over and result.accounted, (game_id, players, seed)
            assert result.state.ended_by == "empty_hand"


def test_the_strong_bot_beats_the_beginner_most_of_the_time():
    wins = 0
    for seed in range(40):
        wins += simulate(make_game("multimatch", 2), seed, ["strong", "beginner"]).state.winners() == [0]
    assert wins >= 28


# --- storage, views, options ---------------------------------------------------------------------
def test_knock_windows_and_reshuffles_round_trip_through_a_dict():
    state = two_card_position(3)
    state.apply(Move("play", 0, (number("purple", 2),)))
    again = state.game.state_from_dict(json.loads(json.dumps(state.to_dict())))
    assert again.to_dict() == state.to_dict() and again.legal_moves() == state.legal_moves()
    other = dealt("crazy-banana-overslag")
    arrange(other, [[number("orange", 2)], [number("green", 4)]], number("purple", 1), rest="discard")
    other.apply(Move("draw", 0))
    again = other.game.state_from_dict(other.to_dict())
    assert again.phase == "reshuffle" and again.to_dict() == other.to_dict()


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["hands"][0].append(d["hands"][1][0]),
        lambda d: d.update(colour="pink"),
        lambda d: d.update(colour="orange" if d["colour"] != "orange" else "blue"),
        lambda d: d.update(phase="knock"),
        lambda d: d.update(drawn=9),
        lambda d: d.update(called="yes"),
        lambda d: d.update(pending_draws=[[0, 2]]),
        lambda d: d.update(finished=[0]),
        lambda d: d.update(turn=7),
        lambda d: d.update(direction=0),
        lambda d: d.update(exposed=1),
        lambda d: d.update(draw_pile=d["draw_pile"][1:]),
        lambda d: d.update(discard_pile=[10_000]),
        lambda d: d.update(hands=d["hands"][:1]),
        lambda d: d.update(last_event={"cards": [True]}),
        lambda d: d.update(pending_draws=[[]], phase="reshuffle"),
        lambda d: d.update(play_log=[{"player": 0, "cards": [10_000], "on": 1, "target": None, "next": 1}]),
        lambda d: d.update(play_log=[{"player": 0, "cards": [1], "on": 2, "target": 7, "next": 1}]),
        lambda d: d.update(play_log=[{"cards": [1]}]),
    ],
)
def test_impossible_positions_are_refused(change):
    state = dealt("multimatch", 2)
    data = json.loads(json.dumps(state.to_dict()))
    change(data)
    with pytest.raises(InvalidState):
        state.game.state_from_dict(data)


def test_illegal_moves_leave_the_state_unchanged():
    state = two_card_position()
    before = state.to_dict()
    for bad in (
        Move("play", 0, (number("purple", 2),), "green"),
        Move("play", 1, (number("green", 4),)),
        Move("knock", 1),
        Move("play_pair", 0, (1, 2)),
        Move("pass", 0),
    ):
        with pytest.raises(IllegalMove):
            state.apply(bad)
        assert state.to_dict() == before


def test_the_player_view_shows_only_the_own_hand():
    state = two_card_position(3)
    view = state.player_view(1)
    assert view["hand"] == sorted(state.hands[1]) and view["hand_counts"] == [2, 2, 2]
    assert "hands" not in view and "draw_pile" not in view and "draw_piles" not in view
    assert view["top"] == state.discard_pile[-1] and view["colour"] == "purple" and view["draw_limit"] == 3
    assert not {c for p in (0, 2) for c in state.hands[p]} & set(view["hand"])


def test_options_and_titles():
    assert make_game("crazy-banana-tiervenner").draw_limit == 2
    assert make_game("multimatch").hand_size == 6 and make_game("multimatch").pair_plays
    for game_id in SHEDDING:
        options = make_game(game_id).options
        assert options == {
            "banana_has_no_power": False,
            "play_until_one_left": False,
            "turn_limit": 0,
            "time_limit_minutes": 0,
        }
        assert GAMES[game_id].min_players == 2 and GAMES[game_id].max_players == 4
    with pytest.raises(InvalidOptions):
        make_game("multimatch", 5)
    with pytest.raises(InvalidOptions):
        make_game("multimatch", 2, {"teams": True})
