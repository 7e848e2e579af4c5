"""Fraction Master on hand-made positions, the maths helpers and the bots.

Its recorded playthrough is played by tests/test_playthroughs.py.
"""

from __future__ import annotations

import json
import random
import re
from fractions import Fraction

import pytest
from sqlalchemy import select

from tests.conftest import run_record
from tutor.deck import kids2
from tutor.drills.fractions import fraction_from_hand
from tutor.engine import CHANCE, GAMES, IllegalMove, InvalidOptions, InvalidState, Move, make_game
from tutor.engine.fraction_master import (
    HAND_SIZE,
    KOCHA_HAND_SIZE,
    NO_PROGRESS_ROUNDS,
    BeginnerBot,
    StrongBot,
    fits,
    fraction_of,
    interval_of,
    is_empty,
    layouts,
    most_fractions,
    possible_fractions,
    reachable_fractions,
)
from tutor.engine.play import simulate
from tutor.lessons import LESSONS
from tutor.lessons.fraction_master import comparison, fraction_text, one_denominator, top
from tutor.lessons.runner import PLAY, PUPIL, LessonError, LessonRun
from tutor.models import AttemptRecord
from tutor.text import say
from tutor.web import db

DECK = kids2()
ALL_CARDS = [c.id for c in DECK.cards]
KOCHAS = [c.id for c in DECK.cards if c.kind == "kocha"]
BANANAS = [c.id for c in DECK.cards if c.kind == "banana"]
GAME_ID = "fraction-master"


# --- helpers ---------------------------------------------------------------------------------
def by_top(value, copy=0):
    """The ``copy``-th number card (0-7) with this top number."""
    return [c.id for c in DECK.cards if c.kind == "number" and c.top == value][copy]


class Cards:
    """Hands out distinct number cards by top number, so a position never repeats a card."""

    def __init__(self):
        self.used = {}

    def __call__(self, *tops):
        cards = []
        for value in tops:
            copy = self.used.get(value, 0)
            self.used[value] = copy + 1
            cards.append(by_top(value, copy))
        return cards


def dealt(players=2, **options):
    state = make_game(GAME_ID, players, options).new_state()
    state.apply(Move("shuffle", CHANCE, tuple(ALL_CARDS)))
    return state


def position(players=2, interval=(), hands=(), piles=(), **options):
    """A position in the lay phase: chosen interval cards, hands and draw piles (top last);
    every other card is already out of the game (the removed pile)."""
    state = dealt(players, **options)
    hands = [list(h) for h in hands] + [[] for _ in range(players - len(hands))]
    piles = [list(p) for p in piles] + [[] for _ in range(len(state.sides) - len(piles))]
    chosen = [*interval, *(c for h in hands for c in h), *(c for p in piles for c in p)]
    assert len(set(chosen)) == len(chosen)
    state.interval = list(interval)
    state.hands = hands
    state.draw_piles = piles
    state.removed = [c for c in ALL_CARDS if c not in chosen]
    state.validate()
    return state


def fractions_of(state):
    return [m.cards for m in state.legal_moves() if m.kind == "play_fraction"]


def next_turn(state, layout=None):
    """Shuffle the interval cards (keeping their order) and lay ``layout`` (default: as they lie)."""
    state.apply(Move("shuffle_interval", CHANCE, tuple(state.interval)))
    state.apply(Move("lay_interval", state.layer, tuple(layout or state.interval)))


# --- the maths helpers -----------------------------------------------------------------------
def test_a_fraction_is_the_numerator_card_over_the_denominator_card():
    assert fraction_of(by_top(3), by_top(4)) == Fraction(3, 4)
    assert fraction_of(by_top(6), by_top(8)) == Fraction(3, 4)
    with pytest.raises(ValueError):
        fraction_of(KOCHAS[0], by_top(2))


def test_the_interval_is_the_same_in_both_orders():
    c = Cards()
    one, two, three, four = c(1, 2, 3, 4)
    assert interval_of((one, two, three, four)) == (Fraction(1, 2), Fraction(3, 4))
    assert interval_of((three, four, one, two)) == (Fraction(1, 2), Fraction(3, 4))
    assert interval_of((two, one, four, three)) == (Fraction(4, 3), Fraction(2))


def test_end_points_count_unless_strict_so_an_equivalent_fraction_fits():
    interval = (Fraction(1, 2), Fraction(3, 4))
    assert fits(Fraction(2, 4), interval) and fits(Fraction(6, 8), interval) and fits(Fraction(5, 8), interval)
    assert not fits(Fraction(2, 4), interval, strict=True) and fits(Fraction(5, 8), interval, strict=True)
    assert not fits(Fraction(4, 9), interval) and not fits(Fraction(7, 9), interval)
    c = Cards()
    laid = c(3, 4, 1, 2)  # the bigger fraction first: the same interval
    assert fits(Fraction(1, 2), laid) and not fits(Fraction(1, 2), laid, strict=True)


def test_possible_fractions_lists_every_fitting_pair_of_the_holding():
    c = Cards()
    two, four, five, eight, nine = c(2, 4, 5, 8, 9)
    interval = (Fraction(1, 2), Fraction(3, 4))
    assert possible_fractions([nine, two, four, five, eight], interval) == sorted(
        [(two, four), (four, eight), (five, eight), (five, nine)]
    )
    assert possible_fractions([two, four, five, eight], interval, strict=True) == [(five, eight)]
    assert possible_fractions([two, KOCHAS[0]], interval) == []


def test_most_fractions_finds_the_largest_set_of_disjoint_fractions():
    # (a, b) uses the card both other fractions need; the best is the other two.
    pairs = [(1, 2), (1, 3), (4, 2)]
    assert most_fractions(pairs) == [(1, 3), (4, 2)]
    assert most_fractions([]) == []


def test_no_layout_gives_an_empty_interval():
    """The source (000, Fraction Master): "Deretter gjør man tilsvarende med brøk nr. 2. [...] De to brøkene danner nå
    et intervall."

    The two fractions form an interval: two equal fractions (4/1 and 4/1, 1/1 and 9/9, 1/2 and 2/4) have no room
    between them, so they are never a layout, with the end points counting or not (the engine's decision).
    """
    c = Cards()
    cards = c(1, 2, 2, 4)
    every = layouts(cards)
    assert len(every) == 16 and every == sorted(every)  # 24 orders, less the 8 that lay 1/2 and 2/4 (or 2/4 and 1/2)
    assert all(interval_of(layout)[0] < interval_of(layout)[1] for layout in every)
    assert (cards[0], cards[1], cards[2], cards[3]) not in every and is_empty(cards)
    ones_and_nines = c(1, 1, 9, 9)
    assert (ones_and_nines[0], ones_and_nines[1], ones_and_nines[2], ones_and_nines[3]) not in layouts(ones_and_nines)
    fours_and_ones = c(4, 1, 4, 1)
    assert tuple(fours_and_ones) not in layouts(fours_and_ones) and len(layouts(fours_and_ones)) == 8  # 4/1, 1/4
    assert (5, 5) not in reachable_fractions(c(3, 3, 3, 4), strict=True) and (1, 1) in reachable_fractions(
        c(3, 3, 3, 4)
    )


# --- the deal --------------------------------------------------------------------------------
@pytest.mark.parametrize("players,sizes", [(2, [39, 39]), (3, [26, 26, 26]), (4, [39, 39])])
def test_the_deal_takes_four_number_cards_and_splits_the_rest_evenly(players, sizes):
    state = dealt(players)
    # The top of the pile is the last card: the Kocha cards there are passed over.
    assert state.interval == [71, 70, 69, 68]
    assert [len(p) for p in state.draw_piles] == sizes
    assert state.hands == [[] for _ in range(players)]
    assert state.phase == "lay" and state.current_player == players - 1 and state.waiting == [0]
    assert sorted(state.card_ids()) == ALL_CARDS


def test_the_player_who_does_not_start_lays_the_interval_then_the_mover_draws_four():
    state = dealt(2)
    assert state.current_player == 1
    moves = state.legal_moves()
    assert (
        len(moves) == 8  # 9, 9, 8 and 8: only 9/8 with 8/9 (either way round) are two different fractions
        and {m.kind for m in moves} == {"lay_interval"}
        and moves == sorted(moves, key=lambda m: m.cards)
    )
    pile_top = state.draw_piles[0][-4:]
    state.apply(moves[0])
    assert state.current_player == 0 and state.phase == "move"
    assert sorted(state.hands[0]) == sorted(pile_top) and len(state.draw_piles[0]) == 35
    assert state.hands[1] == []  # the other player draws on their own turn


# --- a turn ------------------------------------------------------------------------------------
def test_several_fractions_in_one_turn_and_played_cards_leave_the_game():
    c = Cards()
    interval = c(1, 2, 3, 4)  # 1/2 .. 3/4
    hand = c(2, 4, 5, 8)
    state = position(interval=interval, hands=[hand, c(9, 9)], piles=[c(9, 9, 9)])
    state.apply(Move("lay_interval", 1, tuple(interval)))
    two, four, five, eight = hand
    assert fractions_of(state) == sorted([(two, four), (four, eight), (five, eight)])
    state.apply(Move("play_fraction", 0, (two, four)))
    assert state.hands[0] == [five, eight] and state.removed[-2:] == [two, four]
    assert fractions_of(state) == [(five, eight)]
    state.apply(Move("play_fraction", 0, (five, eight)))
    assert state.hands[0] == [] and state.legal_moves() == [Move("end_turn", 0)]
    state.apply(Move("end_turn", 0))
    assert state.last_turn["fractions"] == [[two, four], [five, eight]] and not state.last_turn["kept"]
    assert state.last_turn["player"] == 0 and state.last_turn["interval"] == interval and state.last_turn["layer"] == 1
    assert state.rounds == 1 and state.phase == "shuffle" and state.current_player == CHANCE
    assert sorted(state.card_ids()) == ALL_CARDS


def test_a_fraction_outside_the_interval_or_with_cards_not_held_is_refused():
    c = Cards()
    interval = c(1, 2, 3, 4)
    hand = c(1, 9, 2, 4)
    other = c(5, 8)
    state = position(interval=interval, hands=[hand, other], piles=[c(9)])
    state.apply(Move("lay_interval", 1, tuple(interval)))
    one, nine, two, four = hand
    before = state.to_dict()
    for bad in (
        Move("play_fraction", 0, (one, nine)),  # 1/9 is below 1/2
        Move("play_fraction", 0, (four, two)),  # 2 is above 3/4
        Move("play_fraction", 0, tuple(other)),  # 5/8 fits, but they are the other player's cards
        Move("play_fraction", 0, (two, two)),
        Move("play_fraction", 0, (interval[0], interval[1])),  # the table's cards
        Move("play_fraction", 1, (two, four)),  # not player 1's turn
        Move("play_fraction", 0, (two, four, one)),
        Move("lay_interval", 1, tuple(interval)),
    ):
        with pytest.raises(IllegalMove):
            state.apply(bad)
        assert state.to_dict() == before
    state.apply(Move("play_fraction", 0, (two, four)))


def test_the_strict_option_refuses_an_equivalent_fraction():
    c = Cards()
    interval = c(1, 2, 3, 4)
    hand = c(2, 4, 5, 8)
    for strict, expected in ((False, 3), (True, 1)):
        state = position(interval=interval, hands=[hand], strict=strict)
        state.apply(Move("lay_interval", 1, tuple(interval)))
        assert len(fractions_of(state)) == expected
        if strict:
            with pytest.raises(IllegalMove):
                state.apply(Move("play_fraction", 0, (hand[0], hand[1])))


@pytest.mark.parametrize("strict", [False, True])
def test_an_interval_of_two_equal_fractions_cannot_be_laid(strict):
    c = Cards()
    for tops in ((1, 2, 2, 4), (1, 1, 9, 9), (4, 1, 4, 1)):
        interval = c(*tops)
        state = position(interval=interval, hands=[c(5, 8)], strict=strict)
        with pytest.raises(IllegalMove):
            state.apply(Move("lay_interval", 1, tuple(interval)))
        assert all(not is_empty(move.cards) for move in state.legal_moves())
        data = state.to_dict()
        state.apply(state.legal_moves()[0])
        laid = state.to_dict()
        laid["interval"] = list(interval)  # a stored game with the empty interval laid
        laid["turn_record"]["interval"] = list(interval)
        with pytest.raises(InvalidState):
            state.game.state_from_dict(laid)
        assert state.game.state_from_dict(data).to_dict() == data


def test_the_deal_never_takes_four_interval_cards_with_one_top_number():
    """Four equal top numbers can only be laid as two equal fractions: the fourth is passed over."""
    c = Cards()
    sevens, eight = c(7, 7, 7, 7), c(8)
    order = [card for card in ALL_CARDS if card not in sevens + eight] + eight + sevens[3:] + sevens[:3]
    state = make_game(GAME_ID, 2).new_state()
    state.apply(Move("shuffle", CHANCE, tuple(order)))
    assert state.interval == [sevens[2], sevens[1], sevens[0], eight[0]] and sevens[3] in state.draw_piles[1]
    assert state.legal_moves() and all(not is_empty(move.cards) for move in state.legal_moves())
    data = state.to_dict()
    data["interval"], data["draw_piles"][1][-1] = [*sevens[:3], sevens[3]], eight[0]
    with pytest.raises(InvalidState):
        state.game.state_from_dict(data)


def test_a_player_who_cannot_move_keeps_the_cards_and_only_tops_up_to_four():
    c = Cards()
    interval = c(1, 2, 3, 4)
    stuck = c(9, 9, 8, 1)  # 1/8, 1/9, 8/9, 9/8, 9/9, 8/1 ...: nothing between 1/2 and 3/4
    pile0, pile1 = c(7, 7), c(5, 6, 7, 9)
    state = position(interval=interval, hands=[stuck], piles=[pile0, pile1])
    state.apply(Move("lay_interval", 1, tuple(interval)))
    assert fractions_of(state) == [] and sorted(state.hands[0]) == sorted(stuck)
    assert state.last_turn is None
    state.apply(Move("end_turn", 0))
    assert state.last_turn["kept"] and state.last_turn["drew"] == 0
    next_turn(state)  # player 0 lays for player 1, who draws four
    assert state.current_player == 1 and sorted(state.hands[1]) == sorted(pile1)
    state.apply(Move("end_turn", 1))
    next_turn(state)
    assert state.current_player == 0 and sorted(state.hands[0]) == sorted(stuck)
    assert state.draw_piles[0] == pile0  # nothing drawn: the hand holds four


def test_topping_up_draws_only_what_is_missing():
    c = Cards()
    interval = c(1, 2, 3, 4)
    two, four, six, nine = c(2, 4, 6, 9)
    pile = c(8, 7, 5)  # the top is the last: 5, then 7
    state = position(interval=interval, hands=[[two, four, six, nine], c(9, 9)], piles=[pile])
    state.apply(Move("lay_interval", 1, tuple(interval)))
    assert state.turn_record["drew"] == 0  # four cards in hand: nothing to draw
    state.apply(Move("play_fraction", 0, (two, four)))
    state.apply(Move("end_turn", 0))
    assert state.hands[0] == [six, nine]
    next_turn(state)
    state.apply(Move("end_turn", 1))
    next_turn(state)
    assert state.hands[0] == [six, nine, pile[2], pile[1]] and state.draw_piles[0] == [pile[0]]
    assert state.turn_record["drew"] == 2 and len(state.hands[0]) == HAND_SIZE


@pytest.mark.parametrize("special", [KOCHAS[0], BANANAS[0]])
def test_a_kocha_card_drawn_leaves_the_game_and_leaves_a_hand_of_six(special):
    """games.md: the Kocha is not replaced; the three other cards drawn plus three extra make six."""
    c = Cards()
    interval = c(1, 2, 3, 4)
    below = c(9, 9, 9, 9, 9)
    above = c(2, 4, 3)  # drawn first, then the special card
    pile = below + [special] + list(reversed(above))
    state = position(interval=interval, piles=[pile])
    state.apply(Move("lay_interval", 1, tuple(interval)))
    hand = state.hands[0]
    assert special in state.removed and special not in hand
    assert KOCHA_HAND_SIZE == 6 and len(hand) == 6 and sorted(hand) == sorted(above + below[2:])
    assert state.draw_piles[0] == below[:2]
    assert state.turn_record["specials"] == [special] and state.turn_record["drew"] == 6
    assert sorted(state.card_ids()) == ALL_CARDS


def test_a_kocha_drawn_to_a_kept_hand_still_leaves_six():
    c = Cards()
    interval = c(1, 2, 3, 4)
    kept = c(9, 8)
    below = c(7, 7, 7, 7)
    pile = below + [KOCHAS[3], *c(6)]  # one card drawn, then the Kocha
    state = position(interval=interval, hands=[kept], piles=[pile])
    state.apply(Move("lay_interval", 1, tuple(interval)))
    assert len(state.hands[0]) == 6 and state.draw_piles[0] == below[:1]


def test_six_cards_can_make_three_fractions_and_a_second_kocha_still_leaves_six():
    c = Cards()
    interval = c(1, 9, 9, 1)  # 1/9 .. 9: almost every fraction fits
    two, three, four, five, six, seven, eight = c(2, 3, 4, 5, 6, 7, 8)
    # From the top: a Kocha, 2, 3, a second Kocha, 4, 5, 6, 7 (8 stays in the pile).
    pile = [eight, seven, six, five, four, KOCHAS[1], three, two, KOCHAS[0]]
    state = position(interval=interval, piles=[pile])
    state.apply(Move("lay_interval", 1, tuple(interval)))
    assert sorted(state.hands[0]) == sorted([two, three, four, five, six, seven])
    assert state.turn_record["specials"] == [KOCHAS[0], KOCHAS[1]] and state.draw_piles[0] == [eight]
    best = most_fractions(fractions_of(state))
    assert len(best) == 3
    for pair in best:
        state.apply(Move("play_fraction", 0, pair))
    assert state.hands[0] == [] and state.last_turn is None


def test_a_hand_of_seven_is_an_impossible_position():
    state = dealt(2)
    state.apply(state.legal_moves()[0])
    data = json.loads(json.dumps(state.to_dict()))
    data["hands"][0].extend(data["draw_piles"][0][:3])  # four drawn + three = seven
    for card in data["hands"][0][4:]:
        data["draw_piles"][0].remove(card)
    with pytest.raises(InvalidState, match="more than six"):
        state.game.state_from_dict(data)


def test_the_game_ends_the_moment_a_side_has_no_cards():
    c = Cards()
    interval = c(1, 2, 3, 4)
    hand = c(2, 4)
    state = position(interval=interval, hands=[hand, c(9, 9)], piles=[[], c(8, 8)])
    state.apply(Move("lay_interval", 1, tuple(interval)))
    state.apply(Move("play_fraction", 0, tuple(hand)))
    assert state.is_over and state.ended_by == "empty" and state.winners() == [0]
    assert state.rounds == 1 and state.last_turn["fractions"] == [hand]
    assert state.legal_moves() == [] and not state.is_legal(Move("end_turn", 0))


def test_a_side_whose_pile_holds_only_a_kocha_card_is_empty_once_it_is_drawn():
    c = Cards()
    interval = c(1, 2, 3, 4)
    state = position(interval=interval, hands=[[], c(9)], piles=[[KOCHAS[2]], c(8)])
    state.apply(Move("lay_interval", 1, tuple(interval)))
    assert state.is_over and state.ended_by == "empty" and state.winners() == [0]


def test_a_round_limit_ends_the_game_and_the_fewest_cards_wins():
    c = Cards()
    interval = c(1, 2, 3, 4)
    hand = c(2, 4, 9, 9)
    state = position(interval=interval, hands=[hand], piles=[c(8, 8), c(7, 7, 7, 7, 7)], round_limit=1)
    state.apply(Move("lay_interval", 1, tuple(interval)))
    state.apply(Move("play_fraction", 0, (hand[0], hand[1])))
    state.apply(Move("end_turn", 0))
    assert state.is_over and state.ended_by == "round_limit" and state.winners() == [0]
    assert state.summary()["card_counts"] == {"0": 4, "1": 5}


def test_equal_counts_at_the_limit_share_the_win():
    c = Cards()
    interval = c(1, 2, 3, 4)
    state = position(interval=interval, hands=[c(9, 9)], piles=[[], c(8, 8)], round_limit=1)
    state.apply(Move("lay_interval", 1, tuple(interval)))
    state.apply(Move("end_turn", 0))
    assert state.ended_by == "round_limit" and state.winners() == [0, 1]


def test_the_clock_may_run_out_between_turns_only():
    c = Cards()
    interval = c(1, 2, 3, 4)
    state = position(interval=interval, hands=[c(2, 4)], piles=[c(9), c(8, 8)], time_limit_minutes=10)
    assert state.is_legal(Move("time_up", CHANCE))
    state.apply(Move("lay_interval", 1, tuple(interval)))
    assert not state.is_legal(Move("time_up", CHANCE))
    state.apply(Move("end_turn", 0))
    assert state.phase == "shuffle" and state.is_legal(Move("time_up", CHANCE))
    state.apply(Move("time_up", CHANCE))
    assert state.ended_by == "time_limit" and state.winners() == [1]  # three cards against two
    assert not position(interval=interval, hands=[c(2, 4)]).is_legal(Move("time_up", CHANCE))


def test_a_game_nobody_can_go_on_with_is_stalled():
    c = Cards()
    interval = c(1, 2, 3, 4)
    state = position(interval=interval, hands=[c(9), c(8, 7, 6, 5)], piles=[[], c(2)])
    state.apply(Move("lay_interval", 1, tuple(interval)))
    state.apply(Move("end_turn", 0))
    # Player 0 can do nothing more and player 1 draws nothing (four cards), but 8/7 fits
    # between 3/4 and 2/1, a layout of the same four cards: the game goes on.
    assert not state.is_stalled() and not state.is_over


def test_stalled_when_every_hand_is_stuck_and_no_one_can_draw():
    c = Cards()
    interval = c(1, 1, 1, 2)  # every layout lies between 1/2 and 2: 1/3, 3, 1/9, 9 and 3/9 never fit
    state = position(interval=interval, hands=[c(9), c(1, 3, 9)], piles=[[], []])
    state.apply(Move("lay_interval", 1, tuple(interval)))
    state.apply(Move("end_turn", 0))
    assert state.is_over and state.ended_by == "stalled" and state.winners() == [0]


def test_rounds_without_a_fraction_end_the_game():
    c = Cards()
    interval = c(1, 2, 3, 4)
    state = position(interval=interval, hands=[c(9, 9, 8, 1), c(9, 8, 8, 1)], piles=[c(2, 4), c(7, 7)])
    state.apply(Move("lay_interval", 1, tuple(interval)))  # 1/2 .. 3/4: nobody can make a fraction
    while not state.is_over:
        state.apply(Move("end_turn", state.current_player))
        if not state.is_over:
            next_turn(state)
    assert state.ended_by == "no_progress" and state.turns == NO_PROGRESS_ROUNDS * 2
    assert state.winners() == [0, 1]


# --- roles: who lays, who moves; same interval; teams --------------------------------------------
def test_each_interval_is_laid_by_the_player_who_just_moved():
    state = dealt(3)
    layers, movers = [], []
    for _ in range(6):
        if state.phase == "shuffle":
            state.apply(state.chance_move(random.Random(1)))
        layers.append(state.current_player)
        state.apply(state.legal_moves()[0])
        movers.append(state.current_player)
        state.apply(Move("end_turn", state.current_player))
    assert layers == [2, 0, 1, 2, 0, 1] and movers == [0, 1, 2, 0, 1, 2]
    assert state.rounds == state.turns == 6


def test_with_the_same_interval_everyone_moves_on_it_before_a_new_one_is_laid():
    c = Cards()
    interval = c(1, 2, 3, 4)
    hands = [c(2, 4), c(9, 9), c(5, 8)]
    state = position(3, interval=interval, hands=hands, piles=[c(7), c(7), c(7)], same_interval=True)
    assert state.layer == 2 and state.waiting == [0, 1, 2]
    state.apply(Move("lay_interval", 2, tuple(interval)))
    state.apply(Move("play_fraction", 0, tuple(hands[0])))
    state.apply(Move("end_turn", 0))
    assert state.current_player == 1 and state.interval == interval and state.phase == "move"
    assert state.rounds == 0 and state.turns == 1
    state.apply(Move("end_turn", 1))
    state.apply(Move("play_fraction", 2, tuple(hands[2])))
    state.apply(Move("end_turn", 2))
    assert state.rounds == 1 and state.turns == 3 and state.phase == "shuffle"
    assert state.layer == 0 and state.waiting == [1, 2, 0]  # the laying passes on one seat


def test_with_the_same_interval_every_side_out_of_cards_at_the_end_of_the_round_wins():
    c = Cards()
    interval = c(1, 2, 3, 4)
    hands = [c(2, 4), c(9, 9), c(5, 8)]
    state = position(3, interval=interval, hands=hands, same_interval=True)
    state.apply(Move("lay_interval", 2, tuple(interval)))
    state.apply(Move("play_fraction", 0, tuple(hands[0])))
    assert not state.is_over
    state.apply(Move("end_turn", 0))
    state.apply(Move("end_turn", 1))
    state.apply(Move("play_fraction", 2, tuple(hands[2])))
    assert not state.is_over
    state.apply(Move("end_turn", 2))
    assert state.ended_by == "empty" and state.winners() == [0, 2]


def test_four_players_play_as_teams_that_share_a_pile():
    assert dealt(4).sides == [[0, 2], [1, 3]]
    c = Cards()
    interval = c(1, 2, 3, 4)
    piles = [c(9, 9, 9, 9, 8, 8, 8, 8, 7), c(7, 7, 7, 6, 6, 6, 6, 5, 5)]
    state = position(4, interval=interval, piles=piles)
    layers = []
    for mover in range(4):
        if state.phase == "shuffle":
            state.apply(state.chance_move(random.Random(mover)))
        layers.append(state.current_player)
        side_pile = list(state.draw_piles[mover % 2])
        state.apply(state.legal_moves()[0])
        assert state.current_player == mover and sorted(state.hands[mover]) == sorted(side_pile[-4:])
        state.apply(Move("end_turn", mover))
    assert layers == [3, 0, 1, 2]  # an opponent always lays
    assert [len(p) for p in state.draw_piles] == [1, 1] and [len(h) for h in state.hands] == [4, 4, 4, 4]


def test_a_team_is_out_only_when_both_players_and_the_pile_are_empty():
    c = Cards()
    interval = c(1, 2, 3, 4)
    mine, partner = c(2, 4), c(5, 8)
    state = position(4, interval=interval, hands=[mine, c(9, 9), partner, c(9, 9)])
    state.apply(Move("lay_interval", 3, tuple(interval)))
    state.apply(Move("play_fraction", 0, tuple(mine)))
    assert not state.is_over and state.side_card_count(0) == 2
    state.apply(Move("end_turn", 0))
    next_turn(state)
    state.apply(Move("end_turn", 1))
    next_turn(state)
    state.apply(Move("play_fraction", 2, tuple(partner)))
    assert state.is_over and state.ended_by == "empty" and state.winners() == [0, 2]


# --- views, storage, bots --------------------------------------------------------------------------
def test_the_player_view_shows_only_the_own_hand():
    c = Cards()
    interval = c(1, 2, 3, 4)
    state = position(3, interval=interval, hands=[c(2, 4), c(9, 9), c(5, 8, 7)])
    view = state.player_view(1)
    assert view["hand"] == sorted(state.hands[1]) and view["hand_counts"] == [2, 2, 3]
    assert "hands" not in view and "draw_piles" not in view
    assert view["interval"] == interval and not view["interval_laid"] and view["layer"] == 2


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["hands"][0].append(d["draw_piles"][1][0]),
        lambda d: d["hands"][0].append(81),
        lambda d: d.update(phase="play"),
        lambda d: d.update(layer=5),
        lambda d: d.update(waiting=[1]),
        lambda d: d.update(interval=d["interval"][:3]),
        lambda d: d.update(ended_by="empty"),
        lambda d: d.update(rounds=-1),
        lambda d: d.update(turn_record=None),
        lambda d: d["turn_record"]["fractions"].append([0, 1]),
        lambda d: d.update(hands=d["hands"][:1]),
        lambda d: d.update(removed=d["removed"] + [True]),
    ],
)
def test_impossible_positions_are_refused(change):
    state = dealt(2)
    state.apply(state.legal_moves()[0])
    data = json.loads(json.dumps(state.to_dict()))
    assert state.game.state_from_dict(data).to_dict() == state.to_dict()
    change(data)
    with pytest.raises(InvalidState):
        state.game.state_from_dict(data)


def test_the_turns_of_the_last_round_are_kept_for_the_story_and_older_runs_still_load():
    state = dealt(3)
    for _ in range(4):
        if state.phase == "shuffle":
            state.apply(state.chance_move(random.Random(2)))
        state.apply(state.legal_moves()[0])
        state.apply(Move("end_turn", state.current_player))
    assert [r["player"] for r in state.recent_turns] == [1, 2, 0] and state.recent_turns[-1] == state.last_turn
    assert state.player_view(0)["recent_turns"] == state.recent_turns
    data = json.loads(json.dumps(state.to_dict()))
    del data["recent_turns"]  # a run stored before the round was kept
    assert state.game.state_from_dict(data).recent_turns == [state.last_turn]
    data["recent_turns"] = [state.recent_turns[0], state.recent_turns[0], state.last_turn]
    with pytest.raises(InvalidState, match="round's turns"):
        state.game.state_from_dict(data)


def test_the_strong_bot_lays_the_narrowest_interval_and_the_most_fractions():
    c = Cards()
    interval = c(1, 2, 3, 4)
    state = position(interval=interval, hands=[c(2, 3, 4, 6)])
    bot = StrongBot()
    laid = bot.choose(state.player_view(1), state.legal_moves(), random.Random(0))
    low, high = interval_of(laid.cards)
    assert high - low == min(b - a for a, b in (interval_of(m.cards) for m in state.legal_moves()))
    assert (low, high) == (Fraction(1, 3), Fraction(1, 2))  # 1/3 and 2/4
    # 1/2 .. 3/4 with 2, 3, 4, 6: 2/4 first would leave 3 and 6 (3/6 fits too), but 2/3 first
    # would leave 4 and 6 (4/6 fits): the bot finds two fractions in every case.
    state.apply(Move("lay_interval", 1, tuple(interval)))
    for _ in range(2):
        move = bot.choose(state.player_view(0), state.legal_moves(), random.Random(0))
        assert move.kind == "play_fraction"
        state.apply(move)
    assert state.hands[0] == []


def test_the_strong_bot_avoids_a_fraction_that_spoils_a_second_one():
    c = Cards()
    interval = c(1, 2, 3, 4)
    # Card ids chosen so that 2/4 comes first: laying it first leaves 1 and 8 (1/8 does not
    # fit); 1/2 and 4/8 are two fractions.
    one, two, four, eight = by_top(1, 2), by_top(2, 1), by_top(4, 1), by_top(8, 0)
    state = position(interval=interval, hands=[[two, four, one, eight], c(9, 9)])
    state.apply(Move("lay_interval", 1, tuple(interval)))
    assert fractions_of(state) == [(two, four), (four, eight), (one, two)]
    bot = StrongBot()
    while state.current_player == 0 and state.hands[0]:
        state.apply(bot.choose(state.player_view(0), state.legal_moves(), random.Random(0)))
    assert state.is_over and state.winners() == [0]


def test_the_beginner_bot_lays_the_first_fraction_or_misses_it():
    c = Cards()
    interval = c(1, 2, 3, 4)
    state = position(interval=interval, hands=[c(2, 4, 5, 8)])
    state.apply(Move("lay_interval", 1, tuple(interval)))
    bot, legal = BeginnerBot(), state.legal_moves()
    choices = {bot.choose(state.player_view(0), legal, random.Random(seed)) for seed in range(40)}
    assert choices == {legal[0], Move("end_turn", 0)}


def test_options_and_title():
    game = make_game(GAME_ID)
    assert game.options == {"strict": False, "same_interval": False, "round_limit": 0, "time_limit_minutes": 0}
    assert GAMES[GAME_ID].title == "Fraction Master" and sorted(GAMES[GAME_ID].bots) == ["beginner", "strong"]
    assert len(game.card_ids()) == 82
    with pytest.raises(InvalidOptions):
        make_game(GAME_ID, 5)
    with pytest.raises(InvalidOptions):
        make_game(GAME_ID, 2, {"teams": True})


# --- whole games -------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulated_games_end_with_every_card_accounted_for(players):
    game = make_game(GAME_ID, players)
    for seed in range(50):
        result = simulate(game, seed, ["strong", "beginner"])
        assert result.state.is_over and result.accounted and result.state.winners()


@pytest.mark.parametrize(
    "options", [{"strict": True}, {"same_interval": True}, {"same_interval": True, "strict": True}]
)
def test_simulated_games_with_options_end(options):
    for players in (2, 3, 4):
        game = make_game(GAME_ID, players, options)
        for seed in range(5):
            result = simulate(game, seed, ["beginner", "strong"])
            assert result.state.is_over and result.accounted


# --- the lesson: fractions and intervals made by picking cards, judged with their numbers -----------
LESSON = LESSONS[GAME_ID]


def english(text) -> str:
    """A Text as the English page shows it (fields that are Texts filled, the plural chosen by ``num``)."""
    return say(text, "en")


def lesson_run(state, seed=1) -> LessonRun:
    """A lesson run at the pupil's (seat 0's) decision in a hand-made position."""
    run = LessonRun.start(LESSON, state.game.players, {}, ["strong"], seed, 0)
    run.stage, run.options, run.state, run.moves = PLAY, dict(state.game.options), state.to_dict(), []
    return run


def moving(tops=(1, 2, 3, 4), hand=(4, 9, 5, 8), layout=(0, 1, 2, 3), strict=False, other=(9, 9)):
    """The pupil's turn on an interval laid from ``tops`` (in the order ``layout``), holding ``hand``."""
    c = Cards()
    interval = c(*tops)
    cards = c(*hand)
    state = position(interval=interval, hands=[cards, c(*other)], piles=[c(7, 7), c(6, 6)], strict=strict)
    state.apply(Move("lay_interval", 1, tuple(interval[i] for i in layout)))
    assert state.current_player == PUPIL and state.phase == "move"
    return state, cards


def laying(tops=(1, 2, 3, 4), strict=False):
    """The pupil lays the next interval (after a turn with nothing to lay); the cards lie as given."""
    c = Cards()
    interval = c(*tops)
    state = position(interval=interval, hands=[c(9, 9), c(8, 8)], piles=[c(7), c(6, 6)], strict=strict)
    state.apply(Move("lay_interval", 1, layouts(interval)[0]))
    state.apply(Move("end_turn", PUPIL))
    state.apply(Move("shuffle_interval", CHANCE, tuple(interval)))
    assert state.current_player == PUPIL and state.phase == "lay"
    return state, interval


def test_picking_two_cards_and_confirming_lays_the_fraction_numerator_first():
    state, (four, nine, five, eight) = moving()
    run = lesson_run(state)
    run.pick(five, LESSON)
    assert (
        english(LESSON.picked_note(run.game_state(), PUPIL, run.turn.picked))
        == "Numerator: 5. Now pick the denominator."
    )
    run.pick(eight, LESSON)
    assert english(LESSON.picked_note(run.game_state(), PUPIL, run.turn.picked)) == "Your fraction: 5/8."
    attempt = run.play_picked(LESSON, {}, 1000)
    after = run.game_state()
    assert after.turn_record["fractions"] == [[five, eight]] and sorted(after.hands[PUPIL]) == sorted([four, nine])
    assert english(run.current_told().told) == (
        "5/8 is between 1/2 and 3/4. With the denominator 8: 1/2 = 4/8, 5/8, 3/4 = 6/8, so 4/8 < 5/8 < 6/8."
    )
    assert (
        attempt.skill == "fractions"
        and attempt.correct
        and attempt.first_try
        and attempt.kind == "choice:fraction_fits"
    )
    assert run.turn.picked == [] and run.moves[-1] == Move("play_fraction", PUPIL, (five, eight)).to_dict()
    assert english(LESSON.turn_narration(after, PUPIL)).startswith("You may lay another fraction between 1/2 and 3/4")


@pytest.mark.parametrize(
    "layout,strict,picks,told",
    [
        (
            (0, 1, 2, 3),
            False,
            (4, 9),
            "4/9 is not between 1/2 and 3/4: 4/9 is less than 1/2, because 4/9 = 8/18 < 9/18 = 1/2. Choose again",
        ),
        (
            (2, 3, 0, 1),
            False,
            (4, 9),
            "4/9 is not between 3/4 and 1/2: 4/9 is less than 1/2, because 4/9 = 8/18 < 9/18 = 1/2.",
        ),
        (
            (0, 1, 2, 3),
            False,
            (8, 9),
            "8/9 is not between 1/2 and 3/4: 8/9 is more than 3/4, because 8/9 = 32/36 > 27/36 = 3/4.",
        ),
        ((0, 1, 2, 3), False, (8, 5), "8/5 is not between 1/2 and 3/4: 8/5 is more than 3/4"),
        (
            (0, 1, 2, 3),
            True,
            (4, 8),
            "4/8 is not strictly between 1/2 and 3/4: it is equal to the end 1/2 (both are 4/8), and here the ends do "
            "not count.",
        ),
    ],
)
def test_a_fraction_that_does_not_fit_is_refused_with_its_numbers_and_stored_for_fractions(layout, strict, picks, told):
    state, hand = moving(layout=layout, strict=strict)
    by_top_in_hand = {number: card for card, number in zip(hand, (4, 9, 5, 8))}
    run = lesson_run(state)
    before = run.to_dict()
    for number in picks:
        run.pick(by_top_in_hand[number], LESSON)
    attempt = run.play_picked(LESSON, {}, 500)
    judged = run.current_told()
    assert not judged.correct and english(judged.told).startswith(told)
    assert run.state == before["state"] and run.moves == before["moves"]  # nothing was played
    assert attempt.skill == "fractions" and not attempt.correct and attempt.first_try and attempt.readable
    assert attempt.question["answer"] == "choice" and attempt.question["cards"] == [by_top_in_hand[t] for t in picks]
    assert english(attempt.feedback[0]).startswith(told)
    assert run.turn.picked == [by_top_in_hand[t] for t in picks]  # kept, so the pupil can change one


def test_comparisons_use_each_pairs_own_common_denominator_so_the_numbers_stay_small():
    assert comparison((4, 5), (6, 7)) == "4/5 = 28/35 < 30/35 = 6/7"
    assert comparison((6, 7), (8, 9)) == "6/7 = 54/63 < 56/63 = 8/9"
    assert comparison((1, 2), (5, 8)) == "1/2 = 4/8 < 5/8" and comparison((9, 1), (8, 2), ">") == "9/1 = 18/2 > 8/2"


def test_a_fraction_equal_to_an_end_fits_and_is_pointed_out():
    state, (four, nine, five, eight) = moving()
    judged = LESSON.judge(state, PUPIL, Move("play_fraction", PUPIL, (four, eight)))
    assert (
        judged.correct
        and english(judged.told)
        == "4/8 is between 1/2 and 3/4: it is equal to the end 1/2 (both are 4/8), and the ends count."
    )


NUMBER_CARDS = [c.id for c in DECK.cards if c.kind == "number"]


@pytest.mark.parametrize(
    "tops,strict",
    [(tops, strict) for tops in ((1, 2, 3, 4), (3, 4, 1, 2), (7, 2, 1, 8)) for strict in (False, True)]
    + [((2, 4, 6, 8), False)],
)
def test_the_lesson_and_the_rules_agree_on_every_pair_of_the_decks_cards(tops, strict):
    """Exhaustive: every ordered pair of number cards as a fraction, against the interval (both options)."""
    state, _ = moving(tops=tops, strict=strict)
    right = {LESSON.content()["narration"][key] for key in ("fits_inside", "fits_end", "fits_same_end")}
    checked = 0
    for numerator in NUMBER_CARDS:
        for denominator in NUMBER_CARDS:
            if numerator == denominator or {numerator, denominator} & set(state.interval):
                continue
            state.hands[PUPIL] = [numerator, denominator]
            move = Move("play_fraction", PUPIL, (numerator, denominator))
            judged = LESSON.judge_fraction(state, move.cards)
            assert judged.correct == state.is_legal(move) == (judged.told.msgid in right), (
                DECK[numerator].top,
                DECK[denominator].top,
            )
            assert judged.skill == "fractions" and judged.told.params["first"] == f"{tops[0]}/{tops[1]}"
            checked += 1
    assert checked > 4000


def test_the_layer_lays_the_interval_by_picking_the_four_cards_in_order():
    state, (one, two, three, four) = laying()
    run = lesson_run(state)
    assert LESSON.pickable(state, PUPIL) == [one, two, three, four]
    assert [c.token for c in LESSON.choices(state, PUPIL)] == [
        f"lay_interval:{one},{two},{three},{four}:"
    ]  # one button, no list
    assert LESSON.playable(state, PUPIL) == {one, two, three, four}
    with pytest.raises(LessonError):
        run.pick(state.hands[PUPIL][0], LESSON)  # the hand is not laid as the interval
    run.pick(three, LESSON)
    run.pick(four, LESSON)
    assert (
        english(LESSON.picked_note(state, PUPIL, run.turn.picked))
        == "First fraction: 3/4. Now pick the numerator of the second fraction."
    )
    assert run.play_picked(LESSON, {}, 0) is None and run.moves == []  # two cards are not an interval
    assert english(run.current_told().told) == english(LESSON.narration("pick_more"))
    run.pick(one, LESSON)
    run.pick(two, LESSON)
    assert english(LESSON.picked_note(state, PUPIL, run.turn.picked)) == "Your interval: 3/4 and 1/2."
    run.play_picked(LESSON, {}, 0)
    assert Move.from_dict(run.moves[0]) == Move("lay_interval", PUPIL, (three, four, one, two))


@pytest.mark.parametrize("strict", [False, True])
def test_an_empty_interval_is_refused_with_its_fractions_and_counts_for_fractions(strict):
    state, (one, two_a, two_b, four) = laying(tops=(1, 2, 2, 4), strict=strict)
    run = lesson_run(state)
    for card in (one, two_a, two_b, four):
        run.pick(card, LESSON)
    attempt = run.play_picked(LESSON, {}, 0)
    assert run.moves == [] and LESSON.choices(state, PUPIL) == []  # as they lie, they would be 1/2 and 2/4
    assert english(run.current_told().told) == (
        "1/2 and 2/4 are equal: both are 1/2, so there is no room between them for an interval. Lay the cards another "
        "way."
    )
    assert attempt.skill == "fractions" and not attempt.correct and attempt.kind == "choice:empty_interval"
    ones, nines = laying(tops=(1, 1, 9, 9))[1][:2], laying(tops=(1, 1, 9, 9))[1][2:]
    judged = LESSON.judge(laying(tops=(1, 1, 9, 9))[0], PUPIL, Move("lay_interval", PUPIL, (*ones, *nines)))
    assert english(judged.told).startswith("1/1 and 9/9 are equal: both are 1,") and judged.skill == "fractions"


def test_an_interval_of_one_fraction_laid_twice_is_refused_as_a_rule_not_a_fractions_mistake():
    state, (four_a, one_a, four_b, one_b) = laying(tops=(4, 1, 4, 1))
    judged = LESSON.judge(state, PUPIL, Move("lay_interval", PUPIL, (four_a, one_a, four_b, one_b)))
    assert not judged.correct and judged.skill is None and judged.kind == "empty_interval"
    assert english(judged.told) == (
        "4/1 and 4/1 are the same fraction: an interval from 4/1 to 4/1 has no room between its ends. Lay the cards "
        "another way."
    )


def test_ending_the_turn_is_an_answer_wrong_when_a_fraction_fits_right_when_none_does():
    state, (four, nine, five, eight) = moving()
    run = lesson_run(state)
    assert LESSON.playable(state, PUPIL) == {four, nine, five, eight}  # 4/8, 5/8 and 5/9 fit
    assert [c.token for c in LESSON.choices(state, PUPIL)] == ["end_turn::"]
    attempt = run.move("end_turn::", LESSON, {}, 0)
    assert attempt.skill == "fractions" and not attempt.correct and attempt.kind == "choice:none_fits"
    assert (
        english(run.current_told().told)
        == "Your turn ends, but these fractions from your cards would have fitted between 1/2 and 3/4: 4/8, 5/8, 5/9."
    )
    assert Move.from_dict(run.moves[0]) == Move("end_turn", PUPIL)  # ending is allowed: it is played
    stuck, _ = moving(hand=(9, 8, 9, 1))
    run = lesson_run(stuck)
    attempt = run.move("end_turn::", LESSON, {}, 0)
    assert (
        attempt.correct
        and english(run.current_told().told)
        == "Right: no fraction from your cards fits between 1/2 and 3/4, so you keep your 4 cards."
    )


def after_a_computers_turn(*computer_tops: int) -> tuple[LessonRun, list[str]]:
    """The pupil keeps their cards and lays the interval 1/2 to 3/4; the strong computer then plays its turn."""
    c = Cards()
    interval = c(1, 2, 3, 4)
    state = position(interval=interval, hands=[c(9, 8), c(*computer_tops)], piles=[c(7, 7, 7, 7), c(6)])
    state.apply(Move("lay_interval", 1, tuple(interval)))
    run = lesson_run(state)
    run.move("end_turn::", LESSON, {}, 0)
    for card in interval:
        run.pick(card, LESSON)
    run.play_picked(LESSON, {}, 0)
    return run, [english(line) for line in LESSON.round_story(run.game_state(), PUPIL, run.recent_moves())]


def test_a_computers_fraction_is_told_with_why_it_fits_and_the_end_of_its_turn():
    _, story = after_a_computers_turn(5, 8, 9, 9)  # the computer lays 5/8 and ends
    assert story == [
        "Computer 1 laid 5/8. It lies between 1/2 and 3/4. With the denominator 8: 1/2 = 4/8, 5/8, 3/4 = 6/8, so "
        "4/8 < 5/8 < 6/8.",
        "Computer 1 ended the turn with 2 cards in hand.",
    ]


def test_a_computers_turn_of_several_fractions_is_told_in_one_line_with_every_fraction():
    run, story = after_a_computers_turn(
        5, 8, 6, 9, 7, 9
    )  # several fractions between 1/2 and 3/4 (5/8, 6/9, 5/7, 6/8, ...)
    [record] = [r for r in run.game_state().recent_turns if r["player"] == 1]
    fractions = sorted(f"{top(num)}/{top(den)}" for num, den in record["fractions"])
    laid = [line for line in story if line.startswith("Computer 1 laid")]
    assert len(fractions) >= 2 and len(laid) == 1, story
    assert laid[0].startswith(f"Computer 1 laid {len(fractions)} fractions from 1/2 to 3/4: "), story
    assert sorted(laid[0].split(": ", 1)[1].rstrip(".").replace(" and ", ", ").split(", ")) == fractions


def test_every_other_players_turn_of_the_round_is_told():
    state = dealt(3)
    run = lesson_run(state)
    run.advance(LESSON, {}, 0)
    while run.game_state().current_player == PUPIL and run.game_state().phase == "move" or run.drill.question:
        if run.drill.question:
            run.close_question(LESSON, {}, 0)
        else:
            run.move("end_turn::", LESSON, {}, 0)
    for card in LESSON.pickable(run.game_state(), PUPIL):
        run.pick(card, LESSON)
    run.play_picked(LESSON, {}, 0)
    while run.drill.question:
        run.close_question(LESSON, {}, 0)
    story = [english(line) for line in LESSON.round_story(run.game_state(), PUPIL, run.recent_moves())]
    assert any(line.startswith("Computer 1 ") for line in story) and any(
        line.startswith("Computer 2 ") for line in story
    )


def test_the_pupils_kocha_is_told_with_the_hand_of_six():
    c = Cards()
    interval = c(1, 2, 3, 4)
    pile = [*c(9, 9, 9, 9), KOCHAS[0], *c(8, 8, 8)]
    state = position(interval=interval, hands=[[], c(9)], piles=[pile, c(7)])
    state.apply(Move("lay_interval", 1, tuple(interval)))
    story = [english(line) for line in LESSON.round_story(state, PUPIL, [Move("lay_interval", 1, tuple(interval))])]
    assert story == [
        "You drew a Kocha card: it leaves the game and is not replaced. You take three extra cards instead, so you "
        "hold 6 cards now."
    ]


def test_the_worked_solution_compares_over_one_denominator_in_at_most_four_lines():
    """A hand with many fractions that fit: the solution shows one on a button, with the ends over one denominator,
    not one inequality per fraction of the hand."""
    c = Cards()
    interval = c(1, 2, 3, 4)
    hand = c(2, 3, 4, 5, 6, 8)
    fitting = {fraction_text(*pair) for pair in possible_fractions(hand, interval)}
    for difficulty in (1, 2, 3):
        question = fraction_from_hand(interval, hand, difficulty)
        solution = [english(line) for line in question.solution]
        assert len(fitting) > 3 and len(solution) <= 4, solution
        assert solution[:2] == ["The smaller end is 1/2 and the bigger end is 3/4.", solution[1]]
        assert solution[1].startswith("With the denominator ") and "=" in solution[1]
        answer = solution[2].split(", so ")[1].removesuffix(" fits.")
        assert answer in fitting and answer in question.check["expected"]
        assert solution[2].count(" ≤ ") == 2 and sum(line.count("≤") for line in solution) == 2


def test_the_worked_solution_names_only_fitting_fractions_that_are_on_the_buttons():
    """With three buttons, a hand that makes more fitting fractions than are shown: the solution's "fit too" line
    names the buttons that fit, never a fraction the pupil was not offered."""
    c = Cards()
    interval = c(1, 9, 8, 9)
    hand = c(3, 4, 5, 6, 7, 8)
    fitting = {fraction_text(*pair) for pair in possible_fractions(hand, interval)}
    question = fraction_from_hand(interval, hand, 1)
    on_buttons = {choice["value"] for choice in question.choices}
    others = next(line.params["others"] for line in question.solution if "others" in line.params)
    named = set(others.split(", ")) if others else set()
    assert len(fitting - on_buttons) > 0 and named <= on_buttons & fitting, (others, on_buttons)


def test_fractions_are_put_over_the_common_denominator_of_all_of_them():
    """The smaller end's denominator counts too: 1/4 over 12, not over 6 (which would make it 1/6)."""
    shown = one_denominator([(1, 4), (1, 3), (1, 2)])
    assert shown == {"denominator": 12, "common": "1/4 = 3/12, 1/3 = 4/12, 1/2 = 6/12", "chain": "3/12 < 4/12 < 6/12"}


def test_the_table_names_the_ends_in_the_order_they_lie_and_stacks_them():
    state, _ = moving(layout=(2, 3, 0, 1))
    zones = LESSON.table(state, PUPIL)
    assert zones[0].key == "interval" and english(zones[0].rows[0].note) == "from 3/4 to 1/2, the ends count too"
    assert english(LESSON.turn_narration(state, PUPIL)).startswith("Your turn: the interval goes from 3/4 to 1/2")
    assert english(LESSON.decision_prompt(state, PUPIL)) == "Which fraction from your cards lies between 3/4 and 1/2?"


def test_through_the_routes_fractions_are_picked_and_no_list_of_combinations_is_shown(app, guest, client, fixed_deal):
    fixed_deal(2024)  # a deal with a pair that does not fit
    guest.sign_in()
    run_id = guest.start(GAME_ID)
    client.post(f"/runs/{run_id}/skip-intro")
    for _ in range(60):
        run = LessonRun.from_dict(run_record(app, run_id).data)
        state = run.game_state()
        if run.drill.question:
            client.post(f"/runs/{run_id}/go-on")
        elif (
            state.phase == "move"
            and possible_fractions(state.hands[PUPIL], state.interval)
            and len(state.hands[PUPIL]) > 2
        ):
            break
        else:
            client.post(f"/runs/{run_id}/move", data={"move": LESSON.choices(state, PUPIL)[0].token})
    else:
        raise AssertionError("no fraction to lay came up in this deal")
    page = client.get(f"/runs/{run_id}").get_data(as_text=True)
    hand = sorted(state.hands[PUPIL])
    assert page.count('name="move"') == 1 and 'value="end_turn::"' in page  # ending the turn is the only button
    assert sorted(int(v) for v in re.findall(r'name="card" value="(\d+)"', page)) == hand  # every card can be picked
    assert len(page.encode()) < 50_000  # every layout as a button, each with four cards drawn, made over 100 KB
    assert "<span class=frac><span class=frac-num>" in page  # the interval in the narration, stacked
    wrong = next(
        (a, b) for a in hand for b in hand if a != b and (a, b) not in possible_fractions(hand, state.interval)
    )
    for card in wrong:
        client.post(f"/runs/{run_id}/pick", data={"card": str(card)})
    page = client.post(f"/runs/{run_id}/play-picked", follow_redirects=True).get_data(as_text=True)
    told = re.search(r'<p class="told told-refused">(.*?)</p>', page).group(1)
    assert re.sub(r"<[^>]+>", "", told).startswith(f"{DECK[wrong[0]].top}/{DECK[wrong[1]].top} is not between")
    with app.app_context():
        row = db.session().scalar(select(AttemptRecord))
        assert (
            row.skill == "fractions"
            and not row.correct
            and row.first_try
            and row.question_kind == "choice:fraction_fits"
        )
    assert LessonRun.from_dict(run_record(app, run_id).data).moves == run.moves  # nothing was played


def test_a_stored_turn_with_a_fraction_outside_the_interval_is_refused():
    """The same two cards the other way up (8/5 for 5/8) stay in the removed pile but leave the interval."""
    state, (_, _, five, eight) = moving()
    state.apply(Move("play_fraction", PUPIL, (five, eight)))
    data = json.loads(json.dumps(state.to_dict()))
    assert (
        data["turn_record"]["fractions"] == [[five, eight]]
        and state.game.state_from_dict(data).to_dict() == state.to_dict()
    )
    data["turn_record"]["fractions"] = [[eight, five]]
    with pytest.raises(InvalidState, match="outside the interval"):
        state.game.state_from_dict(data)
