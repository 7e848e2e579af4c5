"""Calculation War rules on hand-made positions."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.deck import kids2
from tutor.engine import CHANCE, IllegalMove, InvalidOptions, Move, make_game
from tutor.engine.calculation_war import BeginnerBot, StrongBot, rough_estimate
from tutor.engine.play import bot_rng, simulate

DECK = kids2()
NUMBER_CARDS = list(DECK.number_card_ids)


def cards_by_sum():
    return sorted(NUMBER_CARDS, key=lambda c: DECK[c].circled_sum)


def dealt(players=2, order=None, **options):
    game = make_game("calculation-war", players, options)
    state = game.new_state()
    state.apply(Move("shuffle", CHANCE, tuple(order or NUMBER_CARDS)))
    return state


def set_hands(state, hands):
    """Swap chosen cards into the hands, keeping every card in exactly one zone."""
    for player, wanted in enumerate(hands):
        for card_id in wanted:
            for zone in state.draw_piles + state.collection_piles + state.hands:
                if card_id in zone:
                    zone.remove(card_id)
        spare = state.hands[player]
        state.draw_piles[state.side_of(player)].extend(spare)
        state.hands[player] = list(wanted)
    state.validate()


def test_the_deal_splits_the_number_cards_and_draws_five_each():
    state = dealt(2)
    assert [len(h) for h in state.hands] == [5, 5]
    assert [len(p) for p in state.draw_piles] == [31, 31]
    assert not set(state.card_ids()) & {c.id for c in DECK.cards if c.is_special}


def test_four_players_are_two_teams_sharing_piles():
    state = dealt(4)
    assert state.sides == [[0, 2], [1, 3]]
    assert [len(p) for p in state.draw_piles] == [26, 26]
    state2 = dealt(3)
    assert [len(p) for p in state2.draw_piles] == [19, 19, 19]


def test_highest_sum_wins_the_pot_and_hands_go_to_collection_piles():
    state = dealt(2)
    ordered = cards_by_sum()
    low, high = ordered[:5], ordered[-5:]
    set_hands(state, [low, high])
    state.apply(Move("play", 0, (low[0],)))
    state.apply(Move("play", 1, (high[0],)))
    assert state.last_round["winner_side"] == 1
    assert sorted(state.collection_piles[1]) == sorted([low[0]] + high)
    assert sorted(state.collection_piles[0]) == sorted(low[1:])
    assert [len(h) for h in state.hands] == [5, 5] and state.rounds == 1


def tied_pair():
    by_sum = {}
    for card_id in NUMBER_CARDS:
        by_sum.setdefault(DECK[card_id].circled_sum, []).append(card_id)
    return next(ids[:2] for ids in by_sum.values() if len(ids) >= 2)


def test_equal_sums_start_a_war_and_the_winner_takes_the_losers_three_cards():
    state = dealt(2)
    a, b = tied_pair()
    others = [c for c in cards_by_sum() if c not in (a, b)]
    low, high = others[:4], others[-4:]
    set_hands(state, [[a] + low, [b] + high])
    state.apply(Move("play", 0, (a,)))
    state.apply(Move("play", 1, (b,)))
    assert state.wars == 1 and state.waiting == [0, 1]
    mine, theirs = low[-1], high[-1]  # the best cards left: ``low`` and ``high`` are sorted by sum
    state.apply(Move("play", 0, (mine,)))
    state.apply(Move("play", 1, (theirs,)))
    last = state.last_round
    assert last["wars"] == 1 and last["winner_side"] == 1 and last["leaders"] == [1]
    assert [battle["leaders"] for battle in last["battles"]] == [[0, 1], [1]]
    assert sorted(last["forfeited"]["0"]) == sorted(c for c in low if c != mine)
    assert sorted(state.collection_piles[1]) == sorted([a, b] + low + high)
    assert state.collection_piles[0] == []


def test_an_empty_draw_pile_is_refilled_by_shuffling_the_collection_pile():
    state = dealt(2)
    state.collection_piles[0].extend(state.draw_piles[0])
    state.draw_piles[0] = []
    hand0, hand1 = state.hands[0][0], state.hands[1][0]
    state.apply(Move("play", 0, (hand0,)))
    state.apply(Move("play", 1, (hand1,)))
    assert state.phase == "reshuffle" and state.current_player == CHANCE and state.reshuffle_side == 0
    with pytest.raises(IllegalMove):
        state.apply(Move("reshuffle", CHANCE, (1, 2, 3), "0"))
    order = tuple(reversed(state.collection_piles[0]))
    state.apply(Move("reshuffle", CHANCE, order, "0"))
    assert state.phase == "play" and state.collection_piles[0] == [] and len(state.hands[0]) == 5


def test_round_limit_ends_the_game_and_most_cards_wins():
    result = simulate(make_game("calculation-war", 2, {"round_limit": 3}), seed=4, bot_names=["strong", "beginner"])
    assert result.state.is_over and result.state.rounds == 3 and result.state.ended_by == "round_limit"
    counts = result.report()["card_counts"]
    best = max(counts.values())
    assert [int(k) for k, v in counts.items() if v == best] == result.state.winners()


def test_time_up_is_only_legal_with_a_time_limit_at_a_round_boundary():
    untimed = dealt(2)
    with pytest.raises(IllegalMove):
        untimed.apply(Move("time_up", CHANCE))
    timed = dealt(2, time_limit_minutes=10)
    timed.apply(Move("play", 0, (timed.hands[0][0],)))
    with pytest.raises(IllegalMove):
        timed.apply(Move("time_up", CHANCE))
    timed.apply(Move("play", 1, (timed.hands[1][0],)))
    timed.apply(Move("time_up", CHANCE))
    assert timed.is_over and timed.ended_by == "time_limit" and timed.winners()


def test_face_down_cards_are_hidden_until_everyone_has_laid():
    state = dealt(3)
    card0 = state.hands[0][0]
    state.apply(Move("play", 0, (card0,)))
    assert state.player_view(1)["table"][0] == [None]
    assert state.player_view(0)["table"][0] == [card0]


def test_bad_player_counts_and_options_are_refused():
    with pytest.raises(InvalidOptions):
        make_game("calculation-war", 5)
    with pytest.raises(InvalidOptions):
        make_game("calculation-war", 2, {"round_limit": -1})
    with pytest.raises(InvalidOptions):
        make_game("calculation-war", 2, {"colour_blind": True})


def test_the_strong_bot_always_lays_its_best_card():
    state = dealt(2)
    view = state.player_view(0)
    move = StrongBot().choose(view, state.legal_moves(), bot_rng(1, 1))
    assert DECK[move.cards[0]].circled_sum == max(DECK[c].circled_sum for c in state.hands[0])


def test_the_beginner_bot_sometimes_lays_a_worse_card():
    state = dealt(2)
    best = max(state.hands[0], key=lambda c: DECK[c].circled_sum)
    picks = [
        BeginnerBot().choose(state.player_view(0), state.legal_moves(), bot_rng(seed, 0)).cards[0]
        for seed in range(200)
    ]
    assert 0 < picks.count(best) < 200


def test_rough_estimate_rounds_each_value_to_the_nearest_ten():
    card = next(c for c in DECK.cards if c.kind == "number")
    assert rough_estimate(card.id) == sum(10 * round(v / 10 + 1e-9) for v in card.circled)


def test_strong_wins_more_cards_than_beginner_over_many_games():
    game = make_game("calculation-war", 2, {"round_limit": 30})
    totals = [0, 0]
    for seed in range(40):
        counts = simulate(game, seed, ["strong", "beginner"]).report()["card_counts"]
        totals[0], totals[1] = totals[0] + counts["0"], totals[1] + counts["1"]
    assert totals[0] > totals[1] * 1.05


@settings(max_examples=30, deadline=None)
@given(st.permutations(NUMBER_CARDS), st.integers(2, 4))
def test_any_deal_plays_to_the_end_without_losing_a_card(order, players):
    game = make_game("calculation-war", players)
    state = game.new_state()
    state.apply(Move("shuffle", CHANCE, tuple(order)))
    from tutor.engine.play import next_automatic_move

    bots = {p: StrongBot() if p % 2 else BeginnerBot() for p in range(players)}
    ply = 1
    while not state.is_over:
        state.apply(next_automatic_move(state, 99, ply, bots))
        ply += 1
        assert len(state.card_ids()) == len(NUMBER_CARDS)
    assert sorted(state.card_ids()) == sorted(NUMBER_CARDS)
