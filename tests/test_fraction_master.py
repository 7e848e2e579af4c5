"""Fraction Master on hand-made positions, the maths helpers, the bots, and a recorded playthrough.

The recorded playthrough lives in ``tests/playthroughs/fraction-master.json``: one seeded game
with its move count, winners, summary and the sha256 of its move list. After an *intended*
rule or bot change, re-record it and review the diff:

    KORTMATTE_RECORD_PLAYTHROUGHS=1 .venv/bin/pytest tests/test_fraction_master.py -k playthrough
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from tests.recorded import check_playthrough
from tutor.deck import kids2
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
    layouts,
    most_fractions,
    possible_fractions,
    reachable_fractions,
)
from tutor.engine.play import simulate

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
    assert possible_fractions([nine, two, four, five, eight], interval) == sorted([(two, four), (four, eight), (five, eight), (five, nine)])
    assert possible_fractions([two, four, five, eight], interval, strict=True) == [(five, eight)]
    assert possible_fractions([two, KOCHAS[0]], interval) == []


def test_most_fractions_finds_the_largest_set_of_disjoint_fractions():
    # (a, b) uses the card both other fractions need; the best is the other two.
    pairs = [(1, 2), (1, 3), (4, 2)]
    assert most_fractions(pairs) == [(1, 3), (4, 2)]
    assert most_fractions([]) == []


def test_strict_layouts_never_give_an_empty_interval():
    c = Cards()
    cards = c(1, 2, 2, 4)
    every = layouts(cards)
    strict = layouts(cards, strict=True)
    assert len(every) == 24 and every == sorted(every)
    assert all(interval_of(layout)[0] < interval_of(layout)[1] for layout in strict)
    assert (cards[0], cards[1], cards[2], cards[3]) in every and (cards[0], cards[1], cards[2], cards[3]) not in strict
    same = c(3, 3, 3, 3)
    assert layouts(same, strict=True) == layouts(same)  # nothing else can be laid
    assert reachable_fractions(same, strict=True) == frozenset()
    assert (5, 5) in reachable_fractions(same)


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
    assert len(moves) == 24 and {m.kind for m in moves} == {"lay_interval"} and moves == sorted(moves, key=lambda m: m.cards)
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


def test_a_strict_interval_of_two_equal_fractions_cannot_be_laid():
    c = Cards()
    interval = c(1, 2, 2, 4)
    state = position(interval=interval, hands=[c(5, 8)], strict=True)
    with pytest.raises(IllegalMove):
        state.apply(Move("lay_interval", 1, tuple(interval)))
    plain = position(interval=interval, hands=[c(3, 6)])
    plain.apply(Move("lay_interval", 1, tuple(interval)))  # 1/2 and 2/4: only halves fit
    assert len(fractions_of(plain)) == 1


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
def test_a_kocha_card_drawn_leaves_the_game_and_gives_three_extra_cards(special):
    c = Cards()
    interval = c(1, 2, 3, 4)
    below = c(9, 9, 9, 9, 9)
    above = c(2, 4, 3)  # drawn first, then the special card
    pile = below + [special] + list(reversed(above))
    state = position(interval=interval, piles=[pile])
    state.apply(Move("lay_interval", 1, tuple(interval)))
    hand = state.hands[0]
    assert special in state.removed and special not in hand
    assert len(hand) == KOCHA_HAND_SIZE and sorted(hand) == sorted(above + below[1:])
    assert state.draw_piles[0] == below[:1]
    assert state.turn_record["specials"] == [special] and state.turn_record["drew"] == 7
    assert sorted(state.card_ids()) == ALL_CARDS


def test_seven_cards_can_make_three_fractions_and_a_second_kocha_gives_no_more_than_seven():
    c = Cards()
    interval = c(1, 9, 9, 1)  # 1/9 .. 9: almost every fraction fits
    rest = c(2, 3, 4, 5, 6, 7, 8, 1)
    pile = [rest[7], KOCHAS[1], *rest[:6], KOCHAS[0]]  # a Kocha on top, another below the next six
    state = position(interval=interval, piles=[pile])
    state.apply(Move("lay_interval", 1, tuple(interval)))
    assert len(state.hands[0]) == KOCHA_HAND_SIZE and state.turn_record["specials"] == [KOCHAS[0], KOCHAS[1]]
    assert state.draw_piles[0] == []
    best = most_fractions(fractions_of(state))
    assert len(best) == 3
    for pair in best:
        state.apply(Move("play_fraction", 0, pair))
    assert len(state.hands[0]) == 1 and state.last_turn is None


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
    interval = c(1, 1, 1, 1)  # every layout is 1 and 1: only fractions equal to 1 fit
    state = position(interval=interval, hands=[c(9), c(8, 7, 6, 5)], piles=[[], c(2)])
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


@pytest.mark.parametrize("options", [{"strict": True}, {"same_interval": True}, {"same_interval": True, "strict": True}])
def test_simulated_games_with_options_end(options):
    for players in (2, 3, 4):
        game = make_game(GAME_ID, players, options)
        for seed in range(5):
            result = simulate(game, seed, ["beginner", "strong"])
            assert result.state.is_over and result.accounted


PLAYTHROUGH_SETUP = {"players": 3, "seed": 11, "bots": ["strong", "beginner", "beginner"]}


def test_recorded_playthrough_is_unchanged():
    check_playthrough(GAME_ID, **PLAYTHROUGH_SETUP)
