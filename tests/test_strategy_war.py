"""Strategy War rules on hand-made positions, the engine conformance checks, the bots and a recorded game."""

from __future__ import annotations

import copy
import hashlib
import json
import random

import pytest

from tests.test_engine_conformance import refuses_each
from tutor.engine import CHANCE, IllegalMove, InvalidOptions, Move
from tutor.engine.play import replay, simulate
from tutor.engine.strategy_war import ROUND_CAP, BeginnerBot, StrategyWar, StrongBot, battle_strength
from tutor.standard_deck import card, deck

FULL = list(deck("full"))
JOKERS = list(deck("jokers"))
CODES = {card(c).code: c for c in FULL}


def c(code: str) -> int:
    """A card id from its code: "KH", "10S", "2C"; "joker" and "joker2" are the two jokers."""
    return {"joker": 52, "joker2": 53}.get(code) or CODES[code]


def cards(*codes: str) -> list[int]:
    return [c(code) for code in codes]


def new_game(players=2, **options) -> StrategyWar:
    return StrategyWar(players=players, options=options)


def dealt(players=2, **options):
    state = new_game(players, **options).new_state()
    state.apply(Move("shuffle", CHANCE, tuple(state.game.card_ids())))
    return state


def position(hands, discards=(), rest=-1, players=None, **options):
    """A round start where player ``i`` holds ``hands[i]`` and ``discards[i]``; every other card joins player ``rest``'s
    discard."""
    players = players or len(hands)
    state = dealt(players, **options)
    discards = [list(d) for d in discards] + [[] for _ in range(players - len(discards))]
    used = {card_id for zone in [*hands, *discards] for card_id in zone}
    spare = [card_id for card_id in state.game.card_ids() if card_id not in used]
    state.set_aside, spare = spare[: len(state.set_aside)], spare[len(state.set_aside) :]
    discards[rest] += spare
    state.hands, state.discards = [sorted(h) for h in hands], discards
    state.contenders = [p for p in range(players) if state.hands[p]]
    state.waiting = list(state.contenders)
    state.validate()
    return state


def play(state, *codes: str) -> None:
    """The players still to choose play these cards, in seat order."""
    for code in codes:
        state.apply(Move("play", state.current_player, (c(code),)))


def war_cards(state, player: int, *codes: str) -> None:
    state.apply(Move("war_cards", CHANCE, tuple(cards(*codes)), str(player)))


# --- the deal -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players,jokers,share,aside",
    [
        (2, "none", 26, 0),
        (3, "none", 17, 1),
        (4, "none", 13, 0),
        (2, "high", 27, 0),
        (3, "high", 18, 0),
        (4, "high", 13, 2),
    ],
)
def test_the_deck_is_dealt_in_equal_hands_and_the_spare_cards_set_aside(players, jokers, share, aside):
    state = dealt(players, jokers=jokers)
    assert [len(hand) for hand in state.hands] == [share] * players
    assert len(state.set_aside) == aside and not any(state.discards)
    assert sorted(state.card_ids()) == (JOKERS if jokers == "high" else FULL)
    assert state.legal_moves() == [Move("play", 0, (card_id,)) for card_id in state.hands[0]]


# --- battles -------------------------------------------------------------------------------------------


def test_the_higher_card_takes_both_into_the_winners_discard():
    state = position([cards("9C", "3C"), cards("5D", "4D")])
    play(state, "9C", "5D")
    assert state.last_round["winner"] == 0 and state.last_round["cards_won"] == 2
    assert sorted(state.discards[0]) == sorted(cards("9C", "5D"))
    assert state.hands[0] == [c("3C")] and state.card_count(0) == 3 and state.rounds == 1


def test_the_choice_stays_hidden_until_everyone_has_chosen():
    state = position([cards("9C", "3C"), cards("5D", "4D")])
    other = state.clone()
    play(state, "9C")
    play(other, "3C")
    assert state.player_view(1) == other.player_view(1)  # player 1 cannot tell which card lies face down
    assert state.player_view(1)["submitted"] == [0] and state.player_view(1)["chosen"] is None
    assert state.player_view(0)["chosen"] == c("9C") and state.current_player == 1
    play(state, "4D")
    assert state.last_round["battles"][0]["turned"] == {"0": c("9C"), "1": c("4D")}


def test_source_example_strategy_wars_2_beats_the_ace_and_loses_to_a_3():
    state = position([cards("2C", "2S"), cards("AD", "3D")])
    play(state, "2C", "AD")
    assert state.last_round["winner"] == 0
    play(state, "2S", "3D")
    assert state.last_round["winner"] == 1


def test_with_jokers_the_2_beats_the_joker_and_the_ace_beats_the_2():
    """The source (004, Strategy War): "I 2 battono qualunque carta sia più alta (Assi, a meno che tu non stia giocando
    con i Jolly), ma perdi contro tutte le altre carte."

    The 2 beats whatever card is highest (the aces, unless you play with the jokers) and loses to all other cards: with
    jokers the 2 beats the joker, and the ace beats the 2 (games.md).
    """
    state = position([[c("joker"), c("2C"), c("2D")], [c("AD"), c("joker2"), c("AS")]], jokers="high")
    play(state, "joker", "AD")
    assert state.last_round["winner"] == 0  # the joker beats the ace
    play(state, "2C", "joker2")
    assert state.last_round["winner"] == 0  # the 2 beats the joker
    play(state, "2D", "AS")
    assert state.last_round["winner"] == 1  # with jokers in the game the ace beats the 2
    without = position([cards("2C"), cards("AD")])
    play(without, "2C", "AD")
    assert without.last_round["winner"] == 0  # without jokers the 2 beats the ace


def test_with_jokers_and_three_players_a_2_beats_everything_only_when_a_joker_is_turned():
    turned = cards("2C", "joker", "AD")
    assert battle_strength(c("2C"), turned, "high") > battle_strength(c("joker"), turned, "high")
    no_joker = cards("2C", "AD", "KH")
    assert battle_strength(c("2C"), no_joker, "high") < battle_strength(c("KH"), no_joker, "high")
    state = position([cards("2C", "2S"), [c("joker"), c("5D")], cards("AH", "AS")], jokers="high")
    play(state, "2C", "joker", "AH")
    assert state.last_round["winner"] == 0
    play(state, "2S", "5D", "AS")
    assert state.last_round["winner"] == 2


def test_with_three_players_a_2_beats_everything_only_when_an_ace_is_turned():
    turned = cards("2C", "AD", "KH")
    assert battle_strength(c("2C"), turned, "none") > battle_strength(c("KH"), turned, "none") > 0
    state = position([cards("2C", "2S"), cards("AD", "5D"), cards("KH", "KS")])
    play(state, "2C", "AD", "KH")
    assert state.last_round["winner"] == 0
    play(state, "2S", "5D", "KS")
    assert state.last_round["winner"] == 2


# --- wars ----------------------------------------------------------------------------------------------


def test_source_example_aaron_and_blake_show_kings_and_aarons_ace_takes_all_10_cards():
    state = position([cards("KC", "AC", "3C", "4C", "5C"), cards("KD", "QD", "3D", "4D", "5D")], [cards("6C", "7C")])
    play(state, "KC", "KD")
    assert state.wars == 1 and state.current_player == CHANCE and state.war_due == [0, 1]
    drawn = state.chance_move(random.Random(1))
    assert (
        drawn.kind == "war_cards"
        and len(set(drawn.cards)) == 3
        and set(drawn.cards) <= set(cards("AC", "3C", "4C", "5C"))
    )
    war_cards(state, 0, "3C", "4C", "5C")
    war_cards(state, 1, "3D", "4D", "5D")
    assert [len(pot) for pot in state.pot] == [3, 3]
    assert state.legal_moves() == [Move("play", 0, (c("AC"),))]
    play(state, "AC", "QD")
    last = state.last_round
    assert last["winner"] == 0 and last["wars"] == 1 and last["cards_won"] == 10
    assert state.card_count(0) == 2 + 10 and state.hands[0] == sorted(cards("6C", "7C"))
    assert [b["turned"] for b in last["battles"]] == [{"0": c("KC"), "1": c("KD")}, {"0": c("AC"), "1": c("QD")}]


def test_war_cards_must_be_three_cards_of_the_hand():
    state = position([cards("KC", "AC", "3C", "4C", "5C"), cards("KD", "QD", "3D", "4D", "5D")], [cards("6C")])
    play(state, "KC", "KD")
    before = state.to_dict()
    for bad in [("3C", "4C"), ("3C", "4C", "6C"), ("3C", "3C", "4C"), ("3D", "4D", "5D")]:
        with pytest.raises(IllegalMove):
            war_cards(state, 0, *bad)
    with pytest.raises(IllegalMove):
        state.apply(Move("war_cards", CHANCE, tuple(cards("3D", "4D", "5D")), "1"))  # player 1 is not next
    assert state.to_dict() == before


def test_a_short_hand_goes_down_whole_the_discard_makes_up_three_and_the_rest_becomes_the_hand():
    state = position([cards("KC", "3C"), cards("KD", "QD", "3D", "4D", "5D")], [cards("4C", "5C", "6C", "7C")])
    play(state, "KC", "KD")
    with pytest.raises(IllegalMove):
        war_cards(state, 0, "4C", "5C", "6C")  # the hand's 3 must go down first
    war_cards(state, 0, "3C", "4C", "7C")
    assert state.pot[0] == cards("3C", "4C", "7C")
    assert state.hands[0] == sorted(cards("5C", "6C")) and state.discards[0] == []


def test_a_player_who_cannot_lay_a_deciding_card_loses_the_war_and_then_the_game():
    state = position([cards("KC", "3C", "4C", "5C"), cards("KD", "QD", "3D", "4D", "5D")])
    play(state, "KC", "KD")
    war_cards(state, 0, "3C", "4C", "5C")
    assert state.out == [0] and state.contenders == [1]
    war_cards(state, 1, "3D", "4D", "5D")
    # the only player left wins the war without a deciding card; the other has nothing left
    assert state.last_round["winner"] == 1 and state.last_round["cards_won"] == 8
    assert state.is_over and state.ended_by == "all_cards" and state.winners() == [1]


def mid_war(hands, wars: int):
    """Player ``i`` holds ``hands[i]``; every other card lies on the table from ``wars`` earlier wars of this round."""
    state = position([cards("2C"), cards("2D")])  # any round start; rebuilt below
    players = len(hands)
    held = [cards(*h) for h in hands]
    rest = [card_id for card_id in FULL if card_id not in {x for h in held for x in h}]
    state.hands, state.discards = [sorted(h) for h in held], [[] for _ in range(players)]
    state.shown = [[] for _ in range(players)]
    state.pot = [[] for _ in range(players)]
    for index, card_id in enumerate(rest):
        player = index % players
        (state.shown if len(state.shown[player]) < wars else state.pot)[player].append(card_id)
    state.wars, state.contenders, state.waiting = wars, list(range(players)), list(range(players))
    state.validate()
    return state


def test_when_nobody_can_lay_a_deciding_card_everyone_takes_back_what_they_laid():
    state = mid_war([("KC", "5C"), ("KD", "5D")], wars=6)
    play(state, "KC", "KD")
    war_cards(state, 0, "5C")
    war_cards(state, 1, "5D")
    assert state.last_round["winner"] is None and state.rounds == 1 and not state.is_over
    assert [len(hand) for hand in state.hands] == [26, 26]
    assert c("KC") in state.hands[0] and c("KD") in state.hands[1]


def test_all_players_take_part_in_a_war_not_only_the_tied_ones():
    state = position(
        [cards("KC", "3C", "4C", "5C", "6C"), cards("KD", "3D", "4D", "5D", "6D"), cards("7H", "3H", "4H", "5H", "6H")]
    )
    play(state, "KC", "KD", "7H")
    assert state.war_due == [0, 1, 2]


def test_an_empty_hand_takes_the_discard_at_once():
    state = position([cards("5C"), cards("9D", "8D")], [cards("6C", "7C")])
    play(state, "5C")
    assert state.hands[0] == sorted(cards("6C", "7C")) and state.discards[0] == []
    play(state, "9D")
    assert state.hands[0] == sorted(cards("6C", "7C")) and set(cards("5C", "9D")) <= set(state.discards[1])
    assert state.card_count(0) == 2 and state.last_round["winner"] == 1


def test_a_player_without_cards_drops_out_and_the_others_play_on():
    state = position([cards("3C"), cards("9D", "8D"), cards("4H", "5H")], rest=1)
    play(state, "3C", "9D", "4H")
    assert state.contenders == [1, 2] and state.waiting == [1, 2] and not state.is_over
    assert state.card_count(0) == 0


# --- the end ---------------------------------------------------------------------------------------------


def test_round_limit_ends_the_game_and_most_cards_wins():
    result = simulate(new_game(3, round_limit=5), seed=4, bot_names=["beginner"])
    state = result.state
    assert state.is_over and state.rounds == 5 and state.ended_by == "round_limit"
    counts = [state.card_count(p) for p in range(3)]
    assert state.winners() == [p for p in range(3) if counts[p] == max(counts)]


def test_the_safety_cap_ends_a_game_that_would_run_on():
    state = position([cards("9C", "3C"), cards("5D", "4D")])
    state.rounds = ROUND_CAP - 1
    play(state, "9C", "5D")
    assert state.is_over and state.ended_by == "round_cap" and state.winners() == [1]


def test_time_up_is_only_legal_with_a_time_limit_at_the_start_of_a_round():
    with pytest.raises(IllegalMove):
        dealt(2).apply(Move("time_up", CHANCE))
    state = position([cards("9C", "3C"), cards("5D", "4D", "6D")], time_limit_minutes=10)
    play(state, "9C")
    with pytest.raises(IllegalMove):
        state.apply(Move("time_up", CHANCE))
    play(state, "5D")
    state.apply(Move("time_up", CHANCE))
    assert state.is_over and state.ended_by == "time_limit" and state.winners() == [1]


# --- illegal moves, options and stored states -------------------------------------------------------------


def test_only_the_player_to_move_may_play_and_only_a_card_of_their_hand():
    state = position([cards("9C", "3C"), cards("5D", "4D")])
    before = state.to_dict()
    for bad in (
        Move("play", 1, (c("5D"),)),
        Move("play", 0, (c("5D"),)),
        Move("play", 0, (c("9C"), c("3C"))),
        Move("play", 0),
    ):
        with pytest.raises(IllegalMove):
            state.apply(bad)
    assert state.to_dict() == before


def test_bad_player_counts_and_options_are_refused():
    for players, options in [
        (1, {}),
        (5, {}),
        (2, {"jokers": "low"}),
        (2, {"round_limit": 1001}),
        (2, {"colour": "red"}),
    ]:
        with pytest.raises(InvalidOptions):
            StrategyWar(players=players, options=options)


def test_impossible_stored_states_are_refused():
    state = position([cards("KC", "3C", "4C", "5C", "6C"), cards("KD", "QD", "3D", "4D", "5D")])
    play(state, "KC", "KD")
    good = state.to_dict()
    assert state.game.state_from_dict(copy.deepcopy(good)).to_dict() == good
    corruptions = {
        "an empty hand beside a discard": lambda d: (d["discards"][0].extend(d["hands"][0]), d["hands"][0].clear()),
        "a war card too many": lambda d: d["pot"][0].append(d["hands"][0].pop()),
        "no war": lambda d: d.update(wars=0),
        "war cards due from nobody": lambda d: d.update(war_due=[]),
        "a chosen card of two": lambda d: d.update(submissions={"0": {"cards": [1, 2]}}),
        "a hand out of order": lambda d: d["hands"][1].reverse(),
        "a card set aside with two players": lambda d: d["set_aside"].append(d["hands"][1].pop()),
        "a round count as text": lambda d: d.update(rounds="3"),
    }
    refuses_each(state.game, good, corruptions)


@pytest.mark.parametrize(
    "players,bots", [(2, ["strong", "beginner"]), (3, ["beginner"]), (4, ["strong"]), (2, ["strong"])]
)
def test_a_seed_and_its_moves_replay_the_same_game(players, bots):
    for seed in range(3):
        game = new_game(players, jokers="high" if seed % 2 else "none")
        first = simulate(game, seed, bots)
        assert first.state.is_over and first.accounted and first.state.winners()
        assert replay(game, first.moves).to_dict() == first.state.to_dict()


# --- computer players and a recorded game -----------------------------------------------------------------


def test_the_strong_bot_keeps_aces_and_2s_for_wars_and_plays_its_best_card_in_one():
    state = position([cards("AC", "2C", "9C", "5C", "KC"), cards("KD", "QD", "3D", "4D", "5D")])
    rng = random.Random(0)
    view = state.player_view(0)
    assert StrongBot().choose(view, state.legal_moves(), rng) == Move("play", 0, (c("5C"),))
    state = position([cards("KC", "3C", "4C", "5C", "AC", "QC"), cards("KD", "QD", "3D", "4D", "5D")])
    play(state, "KC", "KD")
    war_cards(state, 0, "3C", "4C", "5C")
    war_cards(state, 1, "3D", "4D", "5D")
    assert StrongBot().choose(state.player_view(0), state.legal_moves(), rng) == Move("play", 0, (c("AC"),))
    assert BeginnerBot().choose(state.player_view(0), state.legal_moves(), rng) in state.legal_moves()


def strong_win_rate(players: int, games: int = 200) -> float:
    """The strong bot's share of wins against beginners (a shared win counts its share), seat by seat in turn."""
    won = 0.0
    for seed in range(games):
        names = ["beginner"] * players
        names[seed % players] = "strong"
        winners = simulate(new_game(players), seed, names).state.winners()
        won += (seed % players in winners) / len(winners)
    return won / games


def test_the_strong_bot_clearly_beats_beginners():
    # Measured over 200 seeds: 94.5% with two players (three: 75%, four: 56%, against 33% and 25% by chance).
    assert strong_win_rate(2) >= 0.85


#: Moves, rounds, end reason, winners and the start of the moves' sha256 of seed 3, strong against beginner.
RECORDED = (591, 264, "all_cards", [1], "5732311b41784c78")


def test_recorded_game_is_unchanged():
    """One seeded game, strong against beginner: a rule or bot change shows here (update the figures if intended)."""
    result = simulate(new_game(2), 3, ["strong", "beginner"])
    moves = json.dumps([m.to_dict() for m in result.moves], sort_keys=True, separators=(",", ":"))
    record = (
        len(result.moves),
        result.state.rounds,
        result.state.ended_by,
        result.state.winners(),
        hashlib.sha256(moves.encode()).hexdigest()[:16],
    )
    assert record == RECORDED


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_game_ended_by_the_round_limit_is_a_valid_state(players):
    """A round won in a war and then the limit: the war count must not outlive the round (it did, and the stored game
    was refused)."""
    game = StrategyWar(players=players, options={"round_limit": 10})
    for seed in range(40):
        state = simulate(game, seed, ["beginner", "strong"]).state
        assert state.ended_by in ("round_limit", "all_cards", "round_cap")
        assert game.state_from_dict(state.to_dict()).to_dict() == state.to_dict()
