"""29's rules on hand-made positions: the source's examples 1a to 1c, every refusal, the reaction window, the end."""

from __future__ import annotations

import copy
import random

import pytest

from tests.drill_support import std
from tutor.engine import IllegalMove, InvalidState, Move, make_game
from tutor.engine.play import bot_rng, simulate
from tutor.engine.twenty_nine import (
    ACE_PLAY,
    END,
    FROM_BENCH,
    LET_GO,
    PASS,
    PLAY,
    BeginnerBot,
    StrongBot,
    is_ace,
    on_place,
    pile_place,
    pile_value,
    take_place,
)
from tutor.lessons import LESSONS
from tutor.lessons.base import move_token
from tutor.lessons.runner import PUPIL, LessonRun
from tutor.text import say

GAME = make_game("twenty-nine")
JOKERS = (52, 53)


def ids(*codes) -> tuple[int, ...]:
    """Card ids from plain letters ("10H", "QS"), or a joker ("joker", "joker2")."""
    return tuple({"joker": JOKERS[0], "joker2": JOKERS[1]}.get(code) or std(code) for code in codes)


def stored_pile(entries=(), jacks=(), owner=0) -> dict:
    """A pile from entries "8H" or ("8H", ["KD", ...]) or ("8H", [("KD", by), ...]); a face card's player is the
    pile's owner unless given."""
    cards = []
    for entry in entries:
        number, faces = (entry, []) if isinstance(entry, str) else entry
        faces = [(face, owner) if isinstance(face, str) else face for face in faces]
        cards.append({"card": std(number), "faces": [{"card": std(face), "by": by} for face, by in faces]})
    return {"cards": cards, "jacks": list(ids(*jacks)), "won": 0}


def position(hands, piles=None, benches=((), ()), draw=20, turn=0, phase="play", played=False, acted=None, won=None):
    """A 29 position: the cards named where they are, ``draw`` more in the draw pile, every other card discarded.

    ``piles`` maps (owner, index) to a stored pile; ``won`` maps (owner, index) to a number of face-down cards
    (taken from the cards no zone names).
    """
    piles = piles or {}
    won = won or {}
    rows = [[piles.get((owner, index), stored_pile(owner=owner)) for index in range(3)] for owner in range(2)]
    named = [c for hand in hands for c in ids(*hand)] + [c for bench in benches for c in ids(*bench)]
    named += [
        c for row in rows for pile in row for e in pile["cards"] for c in [e["card"], *(f["card"] for f in e["faces"])]
    ]
    named += [c for row in rows for pile in row for c in pile["jacks"]]
    rest = [c for c in GAME.card_ids() if c not in named]
    won_cards = [[], []]
    for (owner, index), count in won.items():
        rows[owner][index] = {"cards": [], "jacks": [], "won": count}
        won_cards[owner] += [rest.pop() for _ in range(count)]
    drawn = 44 - draw
    data = {
        "hands": [sorted(ids(*hand)) for hand in hands],
        "draw_pile": rest[:draw],
        "benches": [list(ids(*bench)) for bench in benches],
        "piles": rows,
        "won": won_cards,
        "discard": rest[draw:],
        "phase": phase,
        "turn": turn,
        "turns": drawn - 1,
        "played": played,
        "acted": played if acted is None else acted,
        "drawn": drawn,
        "plies": 0,
        "ended_by": "",
        "events": [],
    }
    return GAME.state_from_dict(data)


def refused(state, move: Move, reason: str) -> None:
    """The rules refuse ``move`` for ``reason``: it is not a legal move, and applying it changes nothing."""
    assert state.refusal(move) == reason
    assert move not in state.legal_moves()
    before = state.to_dict()
    with pytest.raises(IllegalMove):
        state.apply(move)
    assert state.to_dict() == before


def example_1a():
    """The source's pile of 10, 8 and 2 (20); the player holds a 7 and has a Queen on the bench, the other
    player an ace and a King."""
    return position(
        hands=[("7D", "3C", "4C"), ("AS", "KH", "5D")],
        piles={(0, 0): stored_pile(["10H", "8S", "2C"])},
        benches=[("QC",), ()],
    )


# --- the source's examples -------------------------------------------------------------------------------------
def test_example_1a_three_number_cards_make_20():
    state = example_1a()
    assert pile_value(state.piles[0][0]) == 20 and state.values()[0] == [20, 0, 0]


def test_example_1b_an_ace_and_a_king_on_the_10_make_37_out_of_turn():
    state = example_1a()
    state.apply(Move(PLAY, 0, ids("7D"), pile_place(0, 0)))
    assert state.values()[0][0] == 27
    assert state.phase == "react" and state.current_player == 1  # the window: the ace up the sleeve
    state.apply(Move(ACE_PLAY, 1, ids("AS", "KH"), on_place(std("10H"))))
    assert state.values()[0][0] == 37
    assert std("AS") in state.discard  # a used ace goes face down out of play
    assert state.phase == "play" and state.current_player == 0  # no ace left: the turn goes on
    face = state.piles[0][0]["cards"][0]["faces"][0]
    assert face == {"card": std("KH"), "by": 1}  # tucked under the 10, pointing at who played it
    state.apply(Move(END, 0))
    assert state.piles[0][0] == {"cards": [], "jacks": [], "won": 0}  # over 29 at the end of the turn: thrown away
    assert set(ids("10H", "8S", "2C", "7D", "KH")) <= set(state.discard)
    bust = next(event for event in state.events if event["kind"] == "bust")
    assert (bust["owner"], bust["pile"], bust["value"], bust["cards"]) == (0, 0, 37, 5)


def test_example_1c_a_queen_from_the_bench_on_the_8_makes_29_and_wins_the_pile():
    state = example_1a()
    state.apply(Move(PLAY, 0, ids("7D"), pile_place(0, 0)))
    state.apply(Move(ACE_PLAY, 1, ids("AS", "KH"), on_place(std("10H"))))
    state.apply(Move(FROM_BENCH, 0, ids("QC"), on_place(std("8S"))))
    assert state.piles[0][0]["won"] == 6 and state.values()[0][0] is None
    assert sorted(state.won[0]) == sorted(ids("10H", "8S", "2C", "7D", "KH", "QC"))
    played = next(event for event in state.events if event["kind"] == FROM_BENCH)
    assert (played["before"], played["after"], played["won"]) == (37, 29, True)


# --- what goes where ----------------------------------------------------------------------------------------------
def test_number_cards_go_only_on_your_own_piles_that_are_not_won():
    state = position(hands=[("7D", "3C"), ("5D",)], won={(0, 1): 4})
    refused(state, Move(PLAY, 0, ids("7D"), pile_place(1, 0)), "not_your_pile")
    refused(state, Move(PLAY, 0, ids("7D"), pile_place(0, 1)), "pile_won")
    refused(state, Move(PLAY, 0, ids("7D"), "bench"), "number_to_bench")
    refused(state, Move(PLAY, 0, ids("7D"), "pile:00:0"), "no_such_place")
    refused(state, Move(PLAY, 0, ids("7D"), pile_place(2, 0)), "no_such_place")
    assert {m.detail for m in state.legal_moves() if m.kind == PLAY and m.cards == tuple(ids("7D"))} == {
        pile_place(0, 0),
        pile_place(0, 2),
    }


def test_one_card_a_turn_and_more_only_with_an_ace():
    state = position(hands=[("7D", "3C", "AH", "AS", "4C"), ("5D",)])
    refused(state, Move(PLAY, 0, ids("AH"), pile_place(0, 0)), "ace_alone")
    refused(state, Move(ACE_PLAY, 0, ids("AH", "AS"), pile_place(0, 0)), "ace_carries_ace")
    refused(state, Move(ACE_PLAY, 0, ids("7D", "3C"), pile_place(0, 0)), "not_an_ace")
    refused(state, Move(END, 0), "nothing_played")
    state.apply(Move(PLAY, 0, ids("7D"), pile_place(0, 0)))
    refused(state, Move(PLAY, 0, ids("3C"), pile_place(0, 0)), "played_already")
    refused(state, Move(PASS, 0), "played_already")
    state.apply(Move(ACE_PLAY, 0, ids("AH", "3C"), pile_place(0, 0)))
    state.apply(Move(ACE_PLAY, 0, ids("AS", "4C"), pile_place(0, 0)))
    assert state.values()[0][0] == 14 and set(ids("AH", "AS")) <= set(state.discard)
    assert state.turn == 1  # nothing more to play: the turn ended by itself


def test_bench_cards_do_not_count_as_the_turns_card_and_playing_them_is_playing():
    state = position(hands=[("3C", "4C"), ("5D",)], piles={(0, 0): stored_pile(["8H"])}, benches=[("KS", "QS"), ()])
    state.apply(Move(FROM_BENCH, 0, ids("KS"), on_place(std("8H"))))
    refused(state, Move(PASS, 0), "played_already")  # something was played: no extra card
    assert state.is_legal(Move(PLAY, 0, ids("3C"), pile_place(0, 0)))  # the turn's one card is still to come
    state.apply(Move(PLAY, 0, ids("3C"), pile_place(0, 0)))
    assert state.turn == 0 and state.values()[0][0] == 19  # the Queen on the bench could still go
    state.apply(Move(FROM_BENCH, 0, ids("QS"), on_place(std("3C"))))
    assert state.values()[0][0] == 16 and state.turn == 1  # 19 - 3, and nothing more to play: the turn is over


def test_kings_and_queens_stack_on_any_number_card():
    state = position(
        hands=[("KD", "KS", "QC"), ("5D",)],
        piles={(0, 0): stored_pile(["8H", "3C"]), (1, 0): stored_pile(["9H"], owner=1)},
        benches=[("KC",), ()],
    )
    state.apply(Move(PLAY, 0, ids("KD"), on_place(std("8H"))))
    refused(state, Move(PLAY, 0, ids("QC"), on_place(std("9H"))), "played_already")
    state.apply(Move(FROM_BENCH, 0, ids("KC"), on_place(std("8H"))))
    assert state.values()[0][0] == 8 * 3 + 3  # two Kings on an 8 add 16


def test_a_queen_may_not_take_a_pile_below_zero_and_a_king_or_queen_goes_only_on_a_number_card():
    state = position(
        hands=[("QD", "KS", "joker"), ("5D",)],
        piles={(0, 0): stored_pile([("8H", ["QC", "QS"]), "9C"]), (1, 0): stored_pile(["2H"], jacks=["JD"], owner=1)},
    )
    assert state.values()[0][0] == 1  # 8 - 8 - 8 + 9
    refused(state, Move(PLAY, 0, ids("QD"), on_place(std("8H"))), "below_zero")  # 1 - 8
    refused(state, Move(PLAY, 0, ids("KS"), on_place(std("QC"))), "face_needs_a_number_card")
    refused(state, Move(PLAY, 0, ids("KS"), pile_place(0, 1)), "face_needs_a_number_card")
    refused(state, Move(PLAY, 0, ids("joker"), "bench"), "joker_to_bench")
    refused(state, Move(PLAY, 0, ids("joker"), pile_place(0, 0)), "joker_takes_a_card")
    refused(state, Move(PLAY, 0, ids("joker"), take_place(std("9C"))), "below_zero")  # 1 - 9
    assert state.is_legal(Move(PLAY, 0, ids("joker"), take_place(std("QC"))))  # the Queen taken away: 9


def test_a_jack_protects_a_pile_of_its_own_from_the_other_players_kings_and_queens():
    state = position(
        hands=[("KD", "JC", "joker"), ("5D",)],
        piles={(0, 0): stored_pile(["8H"]), (1, 0): stored_pile(["9H", "4S"], jacks=["JD"], owner=1)},
    )
    refused(state, Move(PLAY, 0, ids("KD"), on_place(std("9H"))), "protected")
    refused(state, Move(PLAY, 0, ids("JC"), pile_place(1, 1)), "jack_not_your_pile")
    assert state.is_legal(Move(PLAY, 0, ids("JC"), pile_place(0, 1)))  # an empty pile of one's own
    assert state.is_legal(Move(PLAY, 0, ids("KD"), on_place(std("8H"))))
    assert state.is_legal(Move(PLAY, 0, ids("joker"), take_place(std("JD"))))  # a Joker takes even a Jack
    state.apply(Move(PLAY, 0, ids("joker"), take_place(std("JD"))))
    assert state.piles[1][0]["jacks"] == [] and set(ids("joker", "JD")) <= set(state.discard)


def test_the_owner_may_put_kings_on_a_protected_pile():
    state = position(
        hands=[("5D",), ("KD", "3C")],
        piles={(1, 0): stored_pile(["9H"], jacks=["JD"], owner=1)},
        turn=1,
    )
    assert state.is_legal(Move(PLAY, 1, ids("KD"), on_place(std("9H"))))


def test_a_joker_takes_a_number_card_with_its_face_cards_and_a_pile_at_29_is_won():
    state = position(
        hands=[("joker", "3C"), ("5D",)],
        piles={
            (1, 0): stored_pile(["10H", ("8S", ["KD"]), "5C"], owner=1),
            (0, 0): stored_pile(["9S", "10S", "10C", "3D"]),
        },
    )
    assert state.values() == [[32, 0, 0], [31, 0, 0]]
    state.apply(Move(PLAY, 0, ids("joker"), take_place(std("3D"))))
    assert state.piles[0][0]["won"] == 3 and state.values()[0][0] is None  # 32 - 3 = 29: won
    state = position(
        hands=[("joker", "3C"), ("5D",)],
        piles={(1, 0): stored_pile(["10H", ("8S", ["KD"]), "5C"], owner=1)},
    )
    state.apply(Move(PLAY, 0, ids("joker"), take_place(std("8S"))))
    assert state.values()[1][0] == 15 and set(ids("joker", "8S", "KD")) <= set(state.discard)


def test_a_pile_is_won_by_its_owner_whoever_brings_it_to_29_and_then_nobody_touches_it():
    state = position(
        hands=[("QD", "3C"), ("5D", "2S")],
        piles={(1, 0): stored_pile(["10H", "9S", "10C", "8D"], owner=1)},  # 37
    )
    state.apply(Move(PLAY, 0, ids("QD"), on_place(std("8D"))))
    assert state.piles[1][0]["won"] == 5 and state.won_piles(1) == 1 and state.won_piles(0) == 0
    assert state.turn == 1  # nothing more to play: the turn ended by itself
    refused(state, Move(PLAY, 1, ids("5D"), pile_place(1, 0)), "pile_won")
    assert all(m.detail != pile_place(1, 0) for m in state.legal_moves())


def test_every_pile_over_29_is_thrown_away_at_the_end_of_the_turn_and_starts_again_empty():
    state = position(
        hands=[("KD", "3C", "AC"), ("5D",)],
        piles={(0, 1): stored_pile(["10H", "9S", "8D"]), (1, 2): stored_pile(["10C", "9C", "6D"], owner=1)},
    )
    state.apply(Move(PLAY, 0, ids("KD"), on_place(std("10C"))))  # 25 + 10 = 35
    state.apply(Move(ACE_PLAY, 0, ids("AC", "3C"), pile_place(0, 1)))  # 27 + 3 = 30: one's own over too
    assert state.turn == 1  # nothing more to play: the turn ended by itself, and both piles were thrown away
    assert state.values() == [[0, 0, 0], [0, 0, 0]]
    busts = [(e["owner"], e["pile"], e["value"]) for e in state.events if e["kind"] == "bust"]
    assert busts == [(0, 1, 30), (1, 2, 35)]


def test_playing_nothing_draws_one_more_card_and_ends_the_turn():
    state = position(hands=[("3C",), ("5D",)], draw=10)
    top = state.draw_pile[-2]  # the card under the one drawn at the start of the turn (already drawn here)
    state.apply(Move(PASS, 0))
    assert len(state.hands[0]) == 2 and state.turn == 1 and len(state.hands[1]) == 2
    assert top in state.hands[0] or top in state.hands[1]


def test_the_turn_ends_by_itself_only_when_nothing_more_can_be_played():
    state = position(hands=[("3C", "4C"), ("5D",)], benches=[("QS",), ()])
    state.apply(Move(PLAY, 0, ids("3C"), pile_place(0, 0)))
    assert state.turn == 0 and Move(END, 0) in state.legal_moves()  # the Queen on the bench could still go
    state.apply(Move(END, 0))
    assert state.turn == 1


# --- the reaction window ------------------------------------------------------------------------------------------
def test_a_window_opens_only_for_a_player_with_an_ace_and_a_card_it_can_carry():
    state = position(hands=[("3C", "4C"), ("AS",)])
    state.apply(Move(PLAY, 0, ids("3C"), pile_place(0, 0)))
    assert state.turn == 1  # an ace alone answers nothing: no window, and the turn ended by itself
    state = position(hands=[("3C", "4C"), ("AS", "5D")])
    state.apply(Move(PLAY, 0, ids("3C"), pile_place(0, 0)))
    assert state.phase == "react" and state.legal_moves()[-1] == Move(LET_GO, 1)
    refused(state, Move(PLAY, 1, ids("5D"), pile_place(1, 0)), "needs_an_ace")
    refused(state, Move(END, 1), "answer_or_let_go")
    refused(state, Move(PASS, 0), "not_your_turn")
    state.apply(Move(LET_GO, 1))
    assert state.turn == 1 and state.phase == "play"  # let go, so player 0 had nothing more: turn over


def test_a_reactor_may_play_ace_after_ace_and_the_bench_waits_for_its_own_turn():
    state = position(hands=[("3C", "4C"), ("AS", "AD", "5D", "6D")], benches=[(), ("QS",)])
    state.apply(Move(PLAY, 0, ids("3C"), pile_place(0, 0)))
    refused(state, Move(FROM_BENCH, 1, ids("QS"), on_place(std("3C"))), "bench_in_window")
    state.apply(Move(ACE_PLAY, 1, ids("AS", "5D"), pile_place(1, 0)))
    assert state.phase == "react" and state.current_player == 1
    state.apply(Move(ACE_PLAY, 1, ids("AD", "6D"), pile_place(1, 0)))
    assert state.values()[1][0] == 11 and state.phase == "play"
    assert state.turn == 1  # no ace left, and player 0 had nothing more to play: the turn ended by itself


def test_the_other_player_can_rescue_their_pile_out_of_turn():
    state = position(
        hands=[("KD", "4C"), ("AS", "QH", "2D")],
        piles={(1, 0): stored_pile(["10H", "9S", "8D"], owner=1)},
    )
    state.apply(Move(PLAY, 0, ids("KD"), on_place(std("10H"))))  # 27 + 10 = 37
    state.apply(Move(ACE_PLAY, 1, ids("AS", "QH"), on_place(std("8D"))))  # 37 - 8 = 29
    assert state.piles[1][0]["won"] == 5


# --- the end ------------------------------------------------------------------------------------------------------
def test_three_won_piles_win_at_once():
    state = position(
        hands=[("9D", "4C"), ("5D",)], piles={(0, 2): stored_pile(["10H", "10S"])}, won={(0, 0): 3, (0, 1): 4}
    )
    state.apply(Move(PLAY, 0, ids("9D"), pile_place(0, 2)))
    assert state.is_over and state.ended_by == "three_piles" and state.winners() == [0]
    assert state.legal_moves() == []


def test_an_empty_draw_pile_ends_the_game_most_piles_then_the_larger_sum():
    state = position(hands=[("4C",), ("5D",)], piles={(1, 0): stored_pile(["10H"], owner=1)}, draw=0, won={(0, 0): 4})
    state.apply(Move(PASS, 0))  # nothing to draw, and the next player must draw: over
    assert state.is_over and state.ended_by == "draw_pile" and state.winners() == [0]
    state = position(hands=[("4C",), ("5D",)], piles={(1, 0): stored_pile(["10H"], owner=1)}, draw=0)
    state.apply(Move(PLAY, 0, ids("4C"), pile_place(0, 0)))
    assert state.is_over and state.winners() == [1]  # no pile won: 10 beats 4
    state = position(hands=[("10C",), ("5D",)], piles={(1, 0): stored_pile(["10H"], owner=1)}, draw=0)
    state.apply(Move(PLAY, 0, ids("10C"), pile_place(0, 0)))
    assert state.winners() == [0, 1]  # still equal: a draw


# --- what a player sees, and stored states --------------------------------------------------------------------------
def test_the_bench_and_the_piles_are_seen_by_both_and_a_drawn_card_only_by_its_player():
    state = position(hands=[("3C", "4C"), ("5D",)], benches=[("QS",), ()])
    state.apply(Move(PASS, 0))
    view = state.player_view(0)
    assert view["benches"] == [list(ids("QS")), []] and "hand" in view and view["hand_counts"] == [3, 2]
    theirs = state.player_view(1)
    drawn = [e for e in theirs["events"] if e["kind"] in ("draw", "pass")]
    assert [("card" in e) == (e["player"] == 1) for e in drawn] == [True] * len(drawn)


def taken_out(data: dict, code: str) -> int:
    """A card taken out of the draw pile or the discard of a stored state, to be put somewhere else."""
    card_id = std(code)
    (data["draw_pile"] if card_id in data["draw_pile"] else data["discard"]).remove(card_id)
    return card_id


def test_stored_positions_the_rules_cannot_reach_are_refused():
    good = example_1a().to_dict()
    corruptions = {
        "cards on a won pile": lambda d: d["piles"][0][0].update(won=3),
        "a pile at 29 not won": lambda d: d["piles"][0][0]["cards"].append({"card": taken_out(d, "9D"), "faces": []}),
        "a face card by nobody": lambda d: d["piles"][0][0]["cards"][0]["faces"].append(
            {"card": taken_out(d, "KS"), "by": 2}
        ),
        "a number card on the bench": lambda d: d["benches"][0].append(taken_out(d, "9D")),
        "a window without an ace": lambda d: d.update(phase="react", turn=1),
        "played without acting": lambda d: d.update(played=True, acted=False),
        "a flag as a number": lambda d: d.update(played=1),
        "an unknown end": lambda d: d.update(phase="over", ended_by="bored"),
    }
    for name, corrupt in corruptions.items():
        data = copy.deepcopy(good)
        corrupt(data)
        with pytest.raises(InvalidState):
            GAME.state_from_dict(data)
            pytest.fail(f"accepted {name}")


def test_is_legal_agrees_with_the_legal_moves_on_random_positions():
    for seed in range(6):
        rng, state = random.Random(seed), GAME.new_state()
        state.apply(state.chance_move(rng))
        while not state.is_over:
            legal = state.legal_moves()
            assert all(state.is_legal(move) for move in legal)
            player = state.current_player
            for card_id in state.hands[player] + state.benches[player]:
                for detail in ("bench", *(pile_place(o, i) for o in (0, 1) for i in range(3))):
                    for kind in (PLAY, FROM_BENCH):
                        move = Move(kind, player, (card_id,), detail)
                        assert state.is_legal(move) == (move in legal), move
            state.apply(rng.choice(legal))


# --- the computer players -------------------------------------------------------------------------------------------
def choose(bot, state):
    return bot.choose(state.player_view(state.current_player), state.legal_moves(), bot_rng(1, 1))


def test_the_strong_player_rescues_with_a_queen_from_the_bench_and_busts_with_a_king():
    rescue = position(
        hands=[("5D",), ("3C", "4C")],
        piles={(1, 0): stored_pile(["10H", "9S", "8D", ("6C", ["KD"])], owner=1)},
        turn=1,
        benches=[(), ("QS",)],
    )
    assert rescue.values()[1][0] == 39
    assert choose(StrongBot(), rescue) == Move(FROM_BENCH, 1, ids("QS"), on_place(std("10H")))  # 39 - 10 = 29
    bust = position(
        hands=[("5D",), ("3C", "4C")], piles={(0, 0): stored_pile(["10H", "9S", "3D"])}, turn=1, benches=[(), ("KS",)]
    )
    assert choose(StrongBot(), bust) == Move(FROM_BENCH, 1, ids("KS"), on_place(std("10H")))  # 22 + 10 = 32


def test_the_strong_player_answers_out_of_turn_to_win_a_pile_and_the_beginner_never_does():
    state = position(hands=[("3C", "4C"), ("AS", "9D")], piles={(1, 0): stored_pile(["10H", "10S"], owner=1)})
    state.apply(Move(PLAY, 0, ids("3C"), pile_place(0, 0)))
    assert state.phase == "react"
    assert choose(StrongBot(), state) == Move(ACE_PLAY, 1, ids("AS", "9D"), pile_place(1, 0))
    assert choose(BeginnerBot(), state) == Move(LET_GO, 1)


def test_whole_games_end_with_every_card_accounted_for_and_the_strong_player_wins_most():
    wins = 0
    for seed in range(30):
        result = simulate(GAME, seed, ["strong", "beginner"])
        assert result.state.is_over and result.accounted
        wins += result.state.winners() == [0]
    assert wins >= 20


# --- the lesson -----------------------------------------------------------------------------------------------------
LESSON = LESSONS["twenty-nine"]


def english(text) -> str:
    return say(text, "en")


def story_after(state, moves: list[Move]) -> list[str]:
    """Apply the computer's ``moves`` and tell them as the lesson's story does."""
    for move in moves:
        state.apply(move)
    return [english(line) for line in LESSON.round_story(state, PUPIL, moves)]


def test_the_sources_examples_through_the_lesson():
    state = example_1a()
    pile = next(zone for zone in LESSON.table(state, PUPIL) if zone.key == "your-piles").rows[0]
    assert pile.badge == 20 and english(pile.note) == "worth 20"  # 1a: the value at a glance
    seven = Move(PLAY, 0, ids("7D"), pile_place(0, 0))
    judged = LESSON.judge(state, PUPIL, seven)
    assert judged.correct and judged.skill is None
    assert english(judged.told) == "You laid your 7 on your pile 1: 20 + 7 = 27."
    state.apply(seven)
    story = story_after(state, [Move(ACE_PLAY, 1, ids("AS", "KH"), on_place(std("10H")))])  # 1b
    assert story == [
        "Computer 1 played an ace, so it may play one more card, even in your turn.",
        "Computer 1 put a King on the 10 in your pile 1: 27 + 10 = 37.",
        "Over 29! Unless it comes back to 29 or less, your pile 1 is thrown away at the end of the turn.",
    ]
    pile = next(zone for zone in LESSON.table(state, PUPIL) if zone.key == "your-piles").rows[0]
    assert pile.badge == 37 and [(t.card, t.towards) for t in pile.tucked[std("10H")]] == [(std("KH"), "them")]
    assert english(LESSON.turn_narration(state, PUPIL)).startswith("Your pile 1 is worth 37, over 29.")
    places = [english(choice.label) for choice in LESSON.places(state, PUPIL, list(ids("QC")))]
    assert "on the 8 in your pile 1" in places and "your bench" not in places  # a bench card goes to the table
    queen = Move(FROM_BENCH, 0, ids("QC"), on_place(std("8S")))
    judged = LESSON.judge(state, PUPIL, queen)  # 1c
    assert judged.correct and judged.skill == "missing_addend"
    assert english(judged.told) == (
        "You put your Queen on the 8 in your pile 1: 37 − 8 = 29. Exactly 29: your pile 1 is won!"
    )
    state.apply(queen)
    won = next(zone for zone in LESSON.table(state, PUPIL) if zone.key == "your-piles").rows[0]
    assert won.cards == [None] * 6 and english(won.mark) == "won with exactly 29"


def test_a_refused_place_is_explained_and_a_refused_sum_counts_for_its_skill():
    state = position(
        hands=[("7D", "QD", "KS"), ("5D",)],
        piles={(0, 0): stored_pile([("8H", ["QC", "QS"]), "9C"]), (1, 0): stored_pile(["2H"], jacks=["JD"], owner=1)},
    )
    number = LESSON.judge(state, PUPIL, Move(PLAY, 0, ids("7D"), pile_place(1, 1)))
    assert not number.correct and number.skill is None
    assert english(number.told) == "Number cards go only on your own piles."
    below = LESSON.judge(state, PUPIL, Move(PLAY, 0, ids("QD"), on_place(std("8H"))))
    assert not below.correct and below.skill == "add_sub"
    assert english(below.told) == "1 − 8 = −7: that is below 0, and a pile can never be worth less than 0."
    protected = LESSON.judge(state, PUPIL, Move(PLAY, 0, ids("KS"), on_place(std("2H"))))
    assert english(protected.told) == (
        "Computer 1 put a Jack on that pile: you may not put a King or a Queen on its cards."
    )


def test_a_pile_pushed_over_29_is_played_and_counts_as_a_wrong_compare_answer():
    state = position(hands=[("9D", "3C"), ("5D",)], piles={(0, 0): stored_pile(["10H", "10S", "2C"])})
    judged = LESSON.judge(state, PUPIL, Move(PLAY, 0, ids("9D"), pile_place(0, 0)))
    assert state.is_legal(Move(PLAY, 0, ids("9D"), pile_place(0, 0)))  # the rules allow it: the pupil decides
    assert not judged.correct and judged.skill == "compare"
    assert english(judged.told) == (
        "You laid your 9 on your pile 1: 22 + 9 = 31. Over 29! Unless it comes back to 29 or less, your pile 1 is "
        "thrown away at the end of the turn."
    )
    gift = position(hands=[("KD", "3C"), ("5D",)], piles={(1, 0): stored_pile(["10H", "9S", "2C"], owner=1)})
    given = LESSON.judge(gift, PUPIL, Move(PLAY, 0, ids("KD"), on_place(std("9S"))))  # 21 + 9 = 30: a bust
    assert given.correct and given.skill is None
    gift = position(hands=[("QD", "3C"), ("5D",)], piles={(1, 0): stored_pile(["10H", "9S", "8C", "10C"], owner=1)})
    given = LESSON.judge(gift, PUPIL, Move(PLAY, 0, ids("QD"), on_place(std("8C"))))  # 29 given away: a wrong answer
    assert not given.correct and given.skill == "missing_addend"
    assert english(given.told) == (
        "You put your Queen on the 8 in Computer 1's pile 1: 37 − 8 = 29. Exactly 29: Computer 1 wins its pile 1."
    )


def test_every_card_can_be_picked_and_every_open_pile_or_card_is_a_place():
    state = position(
        hands=[("7D", "KD", "joker", "AC", "JS"), ("5D",)],
        piles={(0, 0): stored_pile(["8H"]), (1, 1): stored_pile(["9H", "4S"], owner=1)},
        benches=[("QS",), ()],
        won={(1, 2): 5},
    )
    assert LESSON.pickable(state, PUPIL) == [
        *ids("7D", "JS", "KD", "AC", "joker"),
        std("QS"),
    ]  # by rank, then the bench
    assert english(LESSON.pick_where(state, PUPIL, std("QS"))) == "on your bench"
    seven = [english(c.label) for c in LESSON.places(state, PUPIL, list(ids("7D")))]
    assert seven == [
        "your pile 1 (8)",
        "your pile 2 (0)",
        "your pile 3 (0)",
        "Computer 1's pile 1 (0)",
        "Computer 1's pile 2 (13)",
    ]  # the won pile is no place
    king = [english(c.label) for c in LESSON.places(state, PUPIL, list(ids("KD")))]
    assert king == [
        "on the 8 in your pile 1",
        "on the 9 in Computer 1's pile 2",
        "on the 4 in Computer 1's pile 2",
        "your bench",
    ]
    joker = LESSON.places(state, PUPIL, list(ids("joker")))
    assert [c.cards for c in joker] == [[std("8H")], [std("9H")], [std("4S")], []]
    assert english(joker[1].label) == "take 9♥ off Computer 1's pile 2"
    carried = LESSON.places(state, PUPIL, list(ids("AC", "7D")))
    assert {c.token.split(":")[0] for c in carried} == {ACE_PLAY}
    assert LESSON.places(state, PUPIL, list(ids("AC"))) == []
    assert english(LESSON.picked_note(state, PUPIL, list(ids("AC")))) == (
        "An ace carries one more card: pick the card it carries too."
    )
    assert LESSON.places(state, PUPIL, list(ids("7D", "KD"))) == []


def reaction_run(seed_from: int = 0) -> LessonRun:
    """A lesson at a window of the pupil's: the computer has played and the pupil holds an ace."""
    for seed in range(seed_from, seed_from + 300):
        run = LessonRun.start(LESSON, 2, {}, ["strong"], seed, 0)
        run.skip_intro(LESSON, {}, 0)
        for step in range(60):
            while run.drill.question:
                run.close_question(LESSON, {}, step)
            state = run.game_state()
            if run.stage != "play":
                break
            if state.phase == "react":
                return run
            plays = [m for m in state.legal_moves() if m.kind == PLAY and not is_ace(m.cards[0])]
            move = plays[0] if plays else state.legal_moves()[-1]
            run.move(move_token(move), LESSON, {}, step)
    raise AssertionError("no window for the pupil in 300 seeds")


def test_a_window_the_pupil_does_not_use_closes_with_one_tap():
    run = reaction_run()
    state = run.game_state()
    actions = [c for c in LESSON.choices(state, PUPIL) if c.place != "hand"]
    assert [english(c.label) for c in actions] == ["Let it go"]
    assert english(LESSON.turn_narration(state, PUPIL)).startswith("You have an ace: you may answer Computer 1 now")
    assert not run.options.get("turn_seconds")  # no hourglass: the window waits for the pupil
    before = len(run.moves)
    run.move(actions[0].token, LESSON, {}, 1)
    assert run.moves[before] == {"kind": LET_GO, "player": PUPIL}
    assert run.current_told() is None  # nothing to judge: the game goes on


def test_a_window_the_pupil_uses_plays_the_ace_and_its_card():
    run = reaction_run()
    state = run.game_state()
    answer = next(m for m in state.legal_moves() if m.kind == ACE_PLAY)
    for card_id in answer.cards:
        run.pick(card_id, LESSON)
    places = LESSON.places(state, PUPIL, run.turn.picked)
    assert move_token(answer) in {c.token for c in places}
    run.move(move_token(answer), LESSON, {}, 1)
    assert Move.from_dict(run.moves[-len(run.recent_moves()) - 1]) == answer
    assert answer.cards[0] in run.game_state().discard  # the ace goes face down out of play
    alone = reaction_run()
    state = alone.game_state()
    card_id = next(c for c in state.hands[PUPIL] if not is_ace(c) and state.places(PUPIL, c))
    refused_move = Move(PLAY, PUPIL, (card_id,), state.places(PUPIL, card_id)[0])
    alone.move(move_token(refused_move), LESSON, {}, 1)
    assert (
        english(alone.current_told().told)
        == "It is Computer 1's turn: you may only answer with an ace and one more card."
    )
    assert alone.game_state().phase == "react"  # nothing was played


def test_the_questions_come_at_the_start_of_the_pupils_turn_at_the_pupils_level():
    state = position(hands=[("9D", "KD", "3C"), ("5D",)], piles={(0, 0): stored_pile(["10H", "8S", "2C"])})
    kinds = set()
    for draw in range(40):
        for question in LESSON.before_move(state, PUPIL, random.Random(draw), {"add_sub": 3, "compare": 2}):
            kinds.add(question.kind)
            assert question.difficulty == {"add_sub": 3, "compare": 2, "missing_addend": 1}[question.skill]
    assert kinds == {
        "twentynine_missing_value",
        "twentynine_which_card",
        "twentynine_number_played",
        "twentynine_king_played",
        "twentynine_bust",
    }
    state.apply(Move(PLAY, 0, ids("3C"), pile_place(0, 1)))
    assert LESSON.before_move(state, PUPIL, random.Random(1), {}) == []  # not in the middle of a turn


def test_the_end_is_told_with_the_piles_won_and_the_sums():
    state = position(hands=[("10C",), ("5D",)], piles={(1, 0): stored_pile(["10H"], owner=1)}, draw=0)
    state.apply(Move(PLAY, 0, ids("10C"), pile_place(0, 0)))
    assert [english(line) for line in LESSON.finish_story(state, PUPIL)] == [
        "The draw pile is empty: the game is over.",
        "Piles won: you 0, Computer 1 0.",
        "The same number of piles won, so the piles not yet won decide: yours add up to 10, Computer 1's to 10.",
        "It is a draw between you and Computer 1.",
    ]
