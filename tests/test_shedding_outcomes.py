"""Every outcome of a shedding game is told with its numbers, to the right player.

The computers' plays are told with the card they went on and the numbers of the game's
rule; special cards with whom they hit ("you miss your turn", "Computer 2 draws 2 cards");
knocks with their penalty; the pupil's own moves in the judgement shown after them. The
stories of whole simulated games are checked against an independent replay of the moves,
also across reshuffles, for 2, 3 and 4 players.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from tests.test_shedding import BANANA, BANANA2, DRAW_TWO, REVERSE, SHEDDING, SKIP, arrange, dealt, number
from tutor.deck import kids2
from tutor.engine import InvalidState, Move, make_game
from tutor.engine.play import simulate
from tutor.engine.shedding import PLAY_LOG, extreme_witness
from tutor.lessons import LESSONS
from tutor.lessons.base import YOU as SEAT_YOU
from tutor.lessons.base import Judged, computer_name, move_token
from tutor.lessons.calculation_war import CalculationWarLesson
from tutor.lessons.runner import PLAY, PUPIL, LessonRun
from tutor.lessons.shedding import mixed
from tutor.primes import is_prime
from tutor.text import Text, say

DECK = kids2()
NUMBERS = [c for c in DECK.cards if not c.is_special]
YOU = Text.in_context(SEAT_YOU)  # the pupil's seat, as the lessons name it


def english(text) -> str:
    """A Text as the English page shows it (fields that are Texts filled, the plural chosen by ``num``)."""
    return say(text, "en")


def narration_ids(lesson, *keys) -> set[str]:
    return {lesson.content()["narration"][key] for key in keys}


def names_in(text: Text) -> list:
    """Every Text field of a line, nested ones too (seat names, colours)."""
    found = []
    for value in text.params.values():
        if isinstance(value, Text):
            found += [value, *names_in(value)]
    return found


# --- the play log in the state ------------------------------------------------------------------
def test_the_play_log_remembers_the_card_under_each_play_and_whom_a_kocha_card_hit():
    state = dealt("crazy-banana-tiervenner", 3)
    top = number("purple", 3)
    arrange(
        state,
        [
            [SKIP, number("purple", 7), number("blue", 1)],
            [DRAW_TWO, number("green", 2)],
            [number("orange", 4), number("orange", 5)],
        ],
        top,
    )
    state.apply(Move("play", 0, (SKIP,), "green"))
    assert state.play_log[-1] == {"player": 0, "cards": [SKIP], "on": top, "target": 1, "next": 2}
    state.apply(Move("draw", 2))
    assert state.turn == 2


def test_the_play_log_is_bounded_and_survives_a_reshuffle():
    state = dealt("crazy-banana-overslag", 2)
    arrange(
        state,
        [[number("orange", 2), number("orange", 3)], [number("green", 4), number("green", 5)]],
        number("purple", 1),
        rest="discard",
    )
    state.play_log = [
        {"player": 1, "cards": [number("orange", 9)], "on": number("blue", 9), "target": None, "next": 0}
    ] * PLAY_LOG
    state.validate()
    state.apply(Move("draw", 0))  # the draw pile is empty: a reshuffle comes first
    assert state.phase == "reshuffle" and len(state.play_log) == PLAY_LOG
    again = state.game.state_from_dict(state.to_dict())
    assert again.play_log == state.play_log
    state.play_log.append(state.play_log[0])
    with pytest.raises(InvalidState):
        state.game.state_from_dict(state.to_dict())


def test_a_state_stored_before_the_log_existed_still_loads():
    state = dealt("multimatch", 2)
    data = state.to_dict()
    del data["play_log"]
    assert state.game.state_from_dict(data).play_log == []


# --- special cards, told to the right player ------------------------------------------------------
def kocha_position(game_id, players, player, card, hands=None):
    """A position where ``player`` holds ``card`` and two number cards, the others two each, and it is their turn."""
    state = dealt(game_id, players)
    spare = [number(colour, top) for colour in ("orange", "green", "blue") for top in (4, 5, 6)]
    hands = [[spare.pop(), spare.pop()] for _ in range(players)]
    hands[player] = [card, number("purple", 8), number("purple", 9)]
    arrange(state, hands, number("purple", 2))
    state.turn = player
    return state


def story_after(game_id, state, move):
    lesson = LESSONS[game_id]
    state.apply(move)
    return [english(line) for line in lesson.round_story(state, PUPIL, [move])], state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_computer_skip_card_tells_who_misses_a_turn(players):
    game_id = "crazy-banana-tiervenner"
    before_pupil = players - 1  # the pupil follows this computer clockwise
    story, _ = story_after(
        game_id, kocha_position(game_id, players, before_pupil, SKIP), Move("play", before_pupil, (SKIP,), "blue")
    )
    assert story == [f"Computer {before_pupil} played a Kocha skip card and chose blue: you miss your turn."]
    if players > 2:
        story, state = story_after(game_id, kocha_position(game_id, players, 1, SKIP), Move("play", 1, (SKIP,), "blue"))
        assert (
            story == ["Computer 1 played a Kocha skip card and chose blue: Computer 2 misses a turn."]
            and state.turn == 3 % players
        )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_computer_draw_two_card_tells_who_draws_two(players):
    game_id = "crazy-banana-overslag"
    seat = players - 1
    state = kocha_position(game_id, players, seat, DRAW_TWO)
    hand = len(state.hands[PUPIL])
    story, state = story_after(game_id, state, Move("play", seat, (DRAW_TWO,), "green"))
    assert story == [f"Computer {seat} played a Kocha draw-two card and chose green: you draw 2 cards."]
    assert len(state.hands[PUPIL]) == hand + 2
    if players > 2:
        story, state = story_after(
            game_id, kocha_position(game_id, players, 1, DRAW_TWO), Move("play", 1, (DRAW_TWO,), "green")
        )
        assert (
            story == ["Computer 1 played a Kocha draw-two card and chose green: Computer 2 draws 2 cards."]
            and len(state.hands[2]) == 4
        )


def test_a_computer_reverse_card_tells_the_new_order_or_works_as_a_skip():
    game_id = "multimatch"
    story, _ = story_after(game_id, kocha_position(game_id, 2, 1, REVERSE), Move("play", 1, (REVERSE,), "orange"))
    assert story == [
        "Computer 1 played a Kocha reverse card and chose orange. With two players it works like a skip: you miss your "
        "turn."
    ]
    story, state = story_after(game_id, kocha_position(game_id, 3, 1, REVERSE), Move("play", 1, (REVERSE,), "orange"))
    assert (
        story
        == [
            "Computer 1 played a Kocha reverse card and chose orange: the direction of play turns round, so you play "
            "next."
        ]
        and state.turn == 0
    )
    story, state = story_after(game_id, kocha_position(game_id, 4, 3, REVERSE), Move("play", 3, (REVERSE,), "orange"))
    assert (
        story
        == [
            "Computer 3 played a Kocha reverse card and chose orange: the direction of play turns round, so Computer 2 "
            "plays next."
        ]
        and state.turn == 2
    )


def test_a_computer_banana_card_tells_the_colour_chosen_and_without_power_that_it_stays():
    story, _ = story_after(
        "crazy-banana-extreme", kocha_position("crazy-banana-extreme", 3, 2, BANANA), Move("play", 2, (BANANA,), "blue")
    )
    assert story == ["Computer 2 played a banana card and chose blue."]
    state = dealt("multimatch", 2, banana_has_no_power=True)
    arrange(
        state,
        [[number("orange", 4), number("orange", 5)], [BANANA, number("green", 5), number("green", 6)]],
        SKIP,
        colour="green",
    )
    state.turn = 1
    story, state = story_after("multimatch", state, Move("play", 1, (BANANA,)))
    assert (
        story == ["Computer 1 played a banana card. It has no power, so the colour to follow stays the same."]
        and state.colour == "green"
    )


@pytest.mark.parametrize(
    "players, card, expected",
    [
        (2, SKIP, "You played a Kocha skip card and chose blue: Computer 1 misses a turn, so you play again."),
        (3, SKIP, "You played a Kocha skip card and chose blue: Computer 1 misses a turn."),
        (
            2,
            REVERSE,
            "You played a Kocha reverse card and chose blue. With two players it works like a skip: Computer 1 misses "
            "a turn, so you play again.",
        ),
        (
            4,
            REVERSE,
            "You played a Kocha reverse card and chose blue: the direction of play turns round, so Computer 3 plays "
            "next.",
        ),
        (2, DRAW_TWO, "You played a Kocha draw-two card and chose blue: Computer 1 draws 2 cards."),
        (4, DRAW_TWO, "You played a Kocha draw-two card and chose blue: Computer 1 draws 2 cards."),
        (3, BANANA, "You played a banana card and chose blue."),
    ],
)
def test_the_pupils_special_card_is_told_with_its_effect_and_played(players, card, expected):
    game_id = "crazy-banana-tiervenner"
    lesson = LESSONS[game_id]
    state = kocha_position(game_id, players, PUPIL, card)
    before = state.to_dict()
    judged = lesson.judge(state, PUPIL, Move("play", PUPIL, (card,), "blue"))
    assert judged.correct and judged.skill is None and english(judged.told) == expected
    assert state.to_dict() == before  # judging plays the move on a copy


def test_the_pupils_draw_names_the_card_drawn():
    lesson = LESSONS["crazy-banana-overslag"]
    state = dealt("crazy-banana-overslag", 2)
    arrange(
        state,
        [[number("orange", 4), number("orange", 5)], [number("green", 4), number("green", 5)]],
        number("purple", 2),
        draw_top=[number("blue", 6), SKIP],
    )
    judged = lesson.judge(state, PUPIL, Move("draw", PUPIL))
    assert english(judged.told) == "You drew the blue 6." and judged.correct and judged.skill is None
    state.apply(Move("draw", PUPIL))
    assert number("blue", 6) in state.hands[PUPIL]
    assert english(lesson.judge(state, PUPIL, Move("draw", PUPIL)).told) == "You drew a special card."


def test_the_pupils_colour_play_is_told():
    lesson = LESSONS["crazy-banana-overslag"]
    state = kocha_position("crazy-banana-overslag", 2, PUPIL, SKIP)
    judged = lesson.judge(state, PUPIL, Move("play", PUPIL, (number("purple", 8),)))
    assert (
        judged.correct
        and judged.skill is None
        and english(judged.told) == "You played the purple 8: it follows the colour."
    )


# --- the computers' maths plays, called out with their numbers ----------------------------------
def computer_play_line(game_id, move, on):
    lesson = LESSONS[game_id]
    entry = {"player": 1, "cards": list(move.cards), "on": on.id, "target": None, "next": 0}
    return lesson.play_story(computer_name(1), move, entry, PUPIL, 2)


def test_tiervenner_calls_out_every_tens_friend_play_on_the_card_under_it():
    for mine, on in itertools.product(NUMBERS, NUMBERS):
        if mine.colour == on.colour or mine.top + on.top != 10:
            continue
        line = english(computer_play_line("crazy-banana-tiervenner", Move("play", 1, (mine.id,)), on))
        assert (
            line
            == f"Computer 1 played the {mine.colour} {mine.top} on the {on.colour} {on.top}: {on.top} + {mine.top} = "
            "10, tens friends."
        )


def test_overslag_calls_out_every_higher_sum_with_both_sums():
    for mine, on in itertools.product(NUMBERS, NUMBERS):
        if mine.colour == on.colour or mine.circled_sum <= on.circled_sum:
            continue
        line = english(computer_play_line("crazy-banana-overslag", Move("play", 1, (mine.id,)), on))
        assert line.endswith(
            f"on the {on.colour} {on.top}: its circled values add up to {mine.circled_sum}, more than {on.circled_sum}."
        )


def test_extreme_calls_out_every_vri_with_the_two_values_and_the_total_or_the_prime_and_mean():
    told = {"beats_total": 0, "prime_above_mean": 0}
    for mine, on in itertools.product(NUMBERS, NUMBERS):
        witness = extreme_witness(mine.circled, on.circled)
        if mine.colour == on.colour or witness is None:
            continue
        line = english(computer_play_line("crazy-banana-extreme", Move("play", 1, (mine.id,)), on))
        (a, b), mean = witness[1], Fraction(on.circled_sum, 4)
        assert a in mine.circled and b in mine.circled
        if witness[0] == "beats_total":
            assert (
                f": {a} + {b} = {a + b}, more than {on.circled_sum}, all four values" in line and a + b > on.circled_sum
            )
        else:
            assert (
                f": {a} + {b} = {a + b}, a prime above the mean {mixed(mean)} of that card." in line
                and is_prime(a + b)
                and a + b > mean
            )
        told[witness[0]] += 1
    assert all(told.values())


def test_multimatch_calls_out_every_pair_product_on_the_card_under_it():
    by_top = {top: next(c for c in NUMBERS if c.top == top and c.colour == "blue") for top in range(1, 10)}
    seconds = {top: next(c for c in NUMBERS if c.top == top and c.colour == "green") for top in range(1, 10)}
    for on in NUMBERS:
        for a, b in itertools.product(range(1, 10), repeat=2):
            if a * b not in on.circled:
                continue
            move = Move("play_pair", 1, (by_top[a].id, seconds[b].id))
            line = english(computer_play_line("multimatch", move, on))
            assert (
                line
                == f"Computer 1 played {a} and {b} together on the {on.colour} {on.top}: {a} × {b} = {a * b}, one of "
                f"its circled values. The green {b} lies on top."
            )


def test_a_colour_play_is_told_as_following_the_colour_even_when_the_maths_would_fit():
    on, mine = number("blue", 3), number("blue", 7)
    line = english(computer_play_line("crazy-banana-tiervenner", Move("play", 1, (mine,)), DECK[on]))
    assert line == "Computer 1 played the blue 7: it follows the colour."


# --- knocks, calls and draws ---------------------------------------------------------------------------
def forgetful_position(game_id="crazy-banana-overslag", players=3, forgetter=PUPIL):
    state = dealt(game_id, players)
    hands = [
        [number("green", 4), number("green", 5)],
        [number("orange", 4), number("orange", 5)],
        [number("blue", 4), number("blue", 5)],
    ][:players]
    hands[forgetter] = [number("purple", 4), number("purple", 5)]
    arrange(state, hands, number("purple", 2))
    state.turn = forgetter
    return state


def test_a_knock_on_the_pupil_is_told_with_its_penalty():
    lesson = LESSONS["crazy-banana-overslag"]
    state = forgetful_position()
    state.apply(Move("play", PUPIL, (number("purple", 4),)))
    assert state.phase == "knock" and state.knock_queue == [1, 2]
    recent = [Move("knock", 1)]
    state.apply(recent[0])
    assert [english(t) for t in lesson.round_story(state, PUPIL, recent)] == [
        'Computer 1 knocked on the table: you did not say "one card left", so you draw 2 cards.'
    ]
    assert len(state.hands[PUPIL]) == 3


def test_when_nobody_knocks_the_pupil_is_told_they_got_away_with_it():
    lesson = LESSONS["crazy-banana-overslag"]
    state = forgetful_position()
    state.apply(Move("play", PUPIL, (number("purple", 4),)))
    recent = [Move("no_knock", 1), Move("no_knock", 2)]
    for move in recent:
        state.apply(move)
    recent.append(Move("draw", 1))
    state.apply(recent[-1])
    story = [english(t) for t in lesson.round_story(state, PUPIL, recent)]
    assert story == ['You did not say "one card left" in time, but nobody knocked.', "Computer 1 drew 1 card."]


def test_nobody_knocked_is_told_when_the_window_closes_just_before_the_pupils_turn():
    lesson = LESSONS["crazy-banana-overslag"]
    state = dealt("crazy-banana-overslag", 2)
    arrange(state, [[SKIP, number("purple", 5)], [number("orange", 4), number("orange", 5)]], number("purple", 2))
    state.apply(
        Move("play", PUPIL, (SKIP,), "purple")
    )  # one card left, not said; the skip gives the pupil the next turn
    recent = [Move("no_knock", 1)]
    state.apply(recent[0])
    assert state.current_player == PUPIL
    assert [english(t) for t in lesson.round_story(state, PUPIL, recent)] == [
        'You did not say "one card left" in time, but nobody knocked.'
    ]


def test_a_knock_on_another_computer_names_it_and_the_pupils_own_knock_is_told():
    lesson = LESSONS["crazy-banana-overslag"]
    state = forgetful_position(forgetter=1)
    recent = [Move("play", 1, (number("purple", 4),))]
    state.apply(recent[0])
    assert state.knock_queue == [2, PUPIL]
    recent.append(Move("knock", 2))
    state.apply(recent[-1])
    story = [english(t) for t in lesson.round_story(state, PUPIL, recent)]
    assert story[-1] == 'Computer 2 knocked on the table: Computer 1 did not say "one card left" and draws 2 cards.'
    state = forgetful_position(forgetter=2)
    state.apply(Move("play", 2, (number("purple", 4),)))
    assert state.current_player == PUPIL and state.phase == "knock"
    judged = lesson.judge(state, PUPIL, Move("knock", PUPIL))
    assert (
        judged.correct
        and english(judged.told)
        == 'You knocked on the table: Computer 2 did not say "one card left" and draws 2 cards.'
    )


def test_a_card_chosen_in_the_knock_window_is_refused_with_what_to_decide_first():
    lesson = LESSONS["crazy-banana-overslag"]
    state = forgetful_position(forgetter=2)
    state.apply(Move("play", 2, (number("purple", 4),)))
    judged = lesson.judge(state, PUPIL, Move("play", PUPIL, (state.hands[PUPIL][0],)))
    assert not judged.correct and judged.skill is None
    assert english(judged.told).startswith(
        'Computer 2 did not say "one card left". First choose: knock on the table, or do not knock.'
    )


# --- the pupil's choices of special cards -------------------------------------------------------------
def test_a_special_card_chosen_without_a_colour_leads_to_its_colour_buttons():
    lesson = LESSONS["crazy-banana-tiervenner"]
    state = kocha_position("crazy-banana-tiervenner", 2, PUPIL, SKIP)
    choice = lesson.hand_choice(state, PUPIL, SKIP)
    judged = lesson.judge(state, PUPIL, Move("play", PUPIL, (SKIP,)))
    assert choice.token == f"play:{SKIP}:" and not judged.correct and judged.skill is None
    assert "Your move" in english(judged.told)
    buttons = [c for c in lesson.choices(state, PUPIL) if c.cards == [SKIP]]
    assert sorted(c.token for c in buttons) == sorted(f"play:{SKIP}:{colour.id}" for colour in DECK.colours)


def test_two_alike_special_cards_get_one_set_of_colour_buttons():
    lesson = LESSONS["crazy-banana-tiervenner"]
    state = dealt("crazy-banana-tiervenner", 2)
    arrange(
        state, [[BANANA, BANANA2, number("blue", 1)], [number("green", 4), number("green", 5)]], number("purple", 2)
    )
    buttons = [c for c in lesson.choices(state, PUPIL) if c.cards and DECK[c.cards[0]].is_special]
    assert len(buttons) == len(DECK.colours)


def test_a_special_card_as_the_last_card_is_refused_with_the_rule():
    lesson = LESSONS["crazy-banana-extreme"]
    state = dealt("crazy-banana-extreme", 2)
    arrange(state, [[SKIP], [number("green", 4), number("green", 5)]], number("purple", 2))
    judged = lesson.judge(state, PUPIL, Move("play", PUPIL, (SKIP,), "blue"))
    assert not judged.correct and english(judged.told) == "A special card may not be your last card: draw a card first."


def test_a_banana_without_power_on_a_number_card_is_refused_with_the_rule():
    lesson = LESSONS["multimatch"]
    state = dealt("multimatch", 2, banana_has_no_power=True)
    arrange(state, [[BANANA, number("blue", 1)], [number("green", 4), number("green", 5)]], number("purple", 2))
    judged = lesson.judge(state, PUPIL, Move("play", PUPIL, (BANANA,)))
    assert not judged.correct and "banana card has no power" in english(judged.told)


def test_show_me_what_i_can_play_marks_the_cards_of_pairs_in_multimatch():
    lesson = LESSONS["multimatch"]
    state = dealt("multimatch", 2)
    top = next(c for c in NUMBERS if c.colour == "purple" and 12 in c.circled and not {21, 28, 49} & set(c.circled))
    three, four, seven = number("blue", 3), number("green", 4), number("orange", 7)
    arrange(state, [[three, four, seven], [number("green", 5), number("green", 6)]], top.id)
    assert not any(m.kind == "play" for m in state.legal_moves())  # no single card fits: only the pair
    assert lesson.playable(state, PUPIL) == {three, four}


@pytest.mark.parametrize("game_id", SHEDDING)
def test_every_hand_card_can_be_chosen_in_every_phase_and_is_played_or_refused_with_a_reason(game_id):
    """After drawing, after saying "one card left", in a knock window: any card is played or explained."""
    import random

    lesson = LESSONS[game_id]
    rng, seen = random.Random(game_id), set()
    for seed in range(3):
        run = LessonRun.start(lesson, 2 + seed, {}, ["beginner"], seed, 0)
        run.skip_intro(lesson, {}, 0)
        for _ in range(12):
            while run.drill.question:
                run.close_question(lesson, {}, 0)
            state = run.game_state()
            if run.stage != PLAY:
                break
            seen.add(
                "knock" if state.phase == "knock" else "drawn" if state.drawn else "called" if state.called else "start"
            )
            for card in state.hands[PUPIL]:
                trial = LessonRun.from_dict(run.to_dict())
                if lesson.picks_cards:
                    trial.pick(card, lesson)
                    trial.play_picked(lesson, {}, 0)
                else:
                    trial.move(lesson.hand_choice(state, PUPIL, card).token, lesson, {}, 0)
                played = len(trial.moves) > len(run.moves)
                assert played or (
                    trial.turn.told and not trial.current_told().correct and english(trial.current_told().told)
                ), (card, state.phase)
                if not played:
                    assert "not allowed now" not in english(trial.current_told().told)  # always the rule's own reason
            legal = state.legal_moves()
            calls = [m for m in legal if m.kind == "call_one_card"]
            run.move(move_token(calls[0] if calls else rng.choice(legal)), lesson, {}, 0)
    assert {"drawn", "start"} <= seen


def run_at(game_id, state) -> LessonRun:
    """A lesson run at a hand-made position, the pupil to choose."""
    lesson = LESSONS[game_id]
    run = LessonRun.start(lesson, state.game.players, {}, ["beginner"], 1, 0)
    run.skip_intro(lesson, {}, 0)
    run.drill.question, run.drill.queued, run.stage, run.state = None, [], PLAY, state.to_dict()
    return run


@pytest.mark.parametrize("game_id", SHEDDING)
@pytest.mark.parametrize("phase", ["knock", "drawn", "called"])
def test_every_hand_card_of_a_made_position_is_played_or_refused_with_its_reason(game_id, phase):
    lesson = LESSONS[game_id]
    state = dealt(game_id, 3)
    hand = (
        [number("purple", 7), number("blue", 3), number("orange", 6), SKIP]
        if phase != "called"
        else [number("purple", 7), number("blue", 3)]
    )
    arrange(
        state,
        [hand, [number("green", 4), number("green", 5)], [number("purple", 4), number("purple", 5)]],
        number("purple", 2),
    )
    if phase == "knock":
        state.turn = 2
        state.apply(Move("play", 2, (number("purple", 4),)))  # computer 2 forgets to say "one card left"
    else:
        state.apply(Move("call_one_card" if phase == "called" else "draw", PUPIL))
    assert state.current_player == PUPIL and (state.phase == "knock") == (phase == "knock")
    run = run_at(game_id, state)
    for card in state.hands[PUPIL]:
        trial = LessonRun.from_dict(run.to_dict())
        if lesson.picks_cards:
            trial.pick(card, lesson)
            trial.play_picked(lesson, {}, 0)
        else:
            trial.move(lesson.hand_choice(state, PUPIL, card).token, lesson, {}, 0)
        told = english(trial.current_told().told)
        if len(trial.moves) > len(run.moves):
            assert trial.current_told().correct and state.is_legal(Move("play", PUPIL, (card,)))
        else:
            assert not trial.current_told().correct and "not allowed now" not in told
            if phase == "knock":
                assert "First choose: knock on the table, or do not knock." in told
            elif card == SKIP:
                assert "Your move" in told


# --- whole games: every story line checked against an independent replay -----------------------------
def independent_facts(state, move):
    """What a play does, read from the engine before and after it (not from the play log)."""
    top_before = state.top
    following = state.next_active(move.player)
    active = len(state.active_players())
    return top_before, following, active


PLAY_IDS: dict[str, set[str]] = {}


def play_line_ids(lesson) -> set[str]:
    from tutor.lessons import shedding

    if lesson.game_id not in PLAY_IDS:
        keys = [k for k in lesson.content()["narration"] if k.startswith(("played", "called_", "special_"))]
        forms = [shedding.DRAWS_TWO_YOU[0], shedding.DRAWS_TWO_OTHER[0]]
        PLAY_IDS[lesson.game_id] = narration_ids(lesson, *keys) | set(forms)
    return PLAY_IDS[lesson.game_id]


def check_play_line(lesson, line: Text, move: Move, facts, after, players: int) -> None:
    top_before, following, active = facts
    card = DECK[move.cards[-1]]
    said = english(line)
    for name in names_in(line):
        assert name != YOU, said  # the pupil is never slotted in as a name: a "you" sentence of its own
    if card.is_special:
        if move.detail:
            assert f"chose {move.detail}" in said
        if card.instruction in ("skip", "draw_two") or (card.instruction == "reverse" and active == 2):
            victim = following
            if card.instruction == "draw_two":
                assert said.endswith("you draw 2 cards." if victim == PUPIL else f"Computer {victim} draws 2 cards."), (
                    said
                )
            else:
                assert said.endswith(
                    "you miss your turn." if victim == PUPIL else f"Computer {victim} misses a turn."
                ), said
        elif card.instruction == "reverse" and not after.is_over:
            assert said.endswith(
                "so you play next." if after.turn == PUPIL else f"so Computer {after.turn} plays next."
            ), said
        return
    assert f"the {card.colour} {card.top}" in said.lower(), said
    follows = move.kind == "play" and (top_before.is_special or top_before.colour == card.colour)
    if follows:
        assert said.endswith("it follows the colour."), said
        return
    on = f"on the {top_before.colour} {top_before.top}"
    assert on in said, said
    game = lesson.game_id
    if game == "crazy-banana-tiervenner":
        assert f"{top_before.top} + {card.top} = 10" in said
    elif game == "crazy-banana-overslag":
        assert (
            f"add up to {card.circled_sum}, more than {top_before.circled_sum}" in said
            and card.circled_sum > top_before.circled_sum
        )
    elif game == "crazy-banana-extreme":
        a, b, total = line.params["a"], line.params["b"], line.params["sum"]
        assert a + b == total and {a, b} <= set(card.circled) and f"{a} + {b} = {total}" in said
        assert (
            total > top_before.circled_sum
            if "more than" in said
            else is_prime(total) and total > Fraction(top_before.circled_sum, 4)
        )
    else:
        first = DECK[move.cards[0]]
        assert (
            f"{first.top} × {card.top} = {first.top * card.top}" in said and first.top * card.top in top_before.circled
        )


def check_game(game_id, players, seed, bots, options=None):
    """Simulate a game and check every window's story (the moves between two of seat 0's moves)."""
    lesson = LESSONS[game_id]
    game = make_game(game_id, players, options or {})
    moves = simulate(game, seed, bots).moves
    state = game.new_state()
    window, facts, checked, across = [], [], 0, 0
    for index, move in enumerate([*moves, None]):
        if move is None or move.player == PUPIL:
            story = lesson.round_story(state, PUPIL, window)
            lines = [line for line in story if line.msgid in play_line_ids(lesson)]
            assert len(lines) == len(facts), (game_id, seed, index)
            reshuffle_at = max((i for i, m in enumerate(window) if m.kind == "reshuffle"), default=-1)
            for age, line, (played, fact, after, at) in zip(range(len(facts), 0, -1), lines, facts):
                if age > PLAY_LOG:  # older than the log remembers (the pupil is out and the others play on)
                    assert line.msgid in narration_ids(
                        lesson, "played", "played_pair", "special_banana", "special_banana_plain", "special_kocha"
                    )
                    continue
                check_play_line(lesson, line, played, fact, after, players)
                checked += 1
                across += at < reshuffle_at
            window, facts = [], []
            if move is None:
                break
            state.apply(move)
            continue
        if move.kind in ("play", "play_pair"):
            fact = independent_facts(state, move)
            state.apply(move)
            facts.append((move, fact, state.clone(), len(window)))
        else:
            state.apply(move)
        window.append(move)
    return checked, across


@pytest.mark.parametrize("game_id", SHEDDING)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_computer_play_of_whole_games_is_told_with_the_right_numbers_and_player(game_id, players):
    checked = across = 0
    for seed in range(4):
        bots = ["beginner", "strong"] if seed % 2 else ["strong", "beginner"]
        done = check_game(game_id, players, seed, bots, {"play_until_one_left": seed == 3})
        checked, across = checked + done[0], across + done[1]
    assert checked > 20


def test_plays_before_a_reshuffle_in_the_same_window_are_still_called_out():
    """A reshuffle forgets the discard pile's order; the story still names the card each play went on."""
    checked = across = 0
    for seed in range(3):
        done = check_game("multimatch", 4, seed, ["beginner"])
        checked, across = checked + done[0], across + done[1]
    assert across >= 5  # such windows really occurred and were checked


def test_a_play_then_a_reshuffle_in_one_window_keeps_the_card_it_went_on():
    lesson = LESSONS["crazy-banana-tiervenner"]
    state = dealt("crazy-banana-tiervenner", 3)
    three, seven = number("purple", 3), number("blue", 7)
    arrange(
        state,
        [
            [number("green", 4), number("green", 5)],
            [seven, number("orange", 1), number("orange", 2)],
            [number("blue", 4), number("blue", 5)],
        ],
        three,
        rest="discard",
    )
    state.turn = 1
    recent = [Move("play", 1, (seven,)), Move("draw", 2)]
    for move in recent:
        state.apply(move)
    assert state.phase == "reshuffle"
    recent.append(state.chance_move(__import__("random").Random(1)))
    state.apply(recent[-1])
    assert three not in state.discard_pile  # the card the 7 went on is gone into the draw pile
    story = [english(t) for t in lesson.round_story(state, PUPIL, recent)]
    assert story[0] == "Computer 1 played the blue 7 on the purple 3: 3 + 7 = 10, tens friends."
    assert "The draw pile was empty, so the discard pile was shuffled into a new draw pile." in story


# --- the hourglass ---------------------------------------------------------------------------------------
class TellingCalculationWar(CalculationWarLesson):
    """Calculation War (the game with an hourglass) whose judge tells every legal card, as the shedding lessons do."""

    def judge(self, game_state, pupil, move):
        if game_state.is_legal(move):
            return Judged(
                True, Text("You played the card with circled sum %(sum)s.", {"sum": DECK[move.cards[0]].circled_sum})
            )
        return super().judge(game_state, pupil, move)


def test_the_hourglass_tells_which_card_was_played_for_the_pupil():
    lesson = TellingCalculationWar()
    run = LessonRun.start(lesson, 2, {"turn_seconds": 30}, ["strong"], 4, 0)
    run.skip_intro(lesson, {}, 0)
    while run.drill.question is not None:
        run.close_question(lesson, {}, 0)
    before = len(run.moves)
    assert run.hourglass_ran_out(lesson, {}, 31_000)
    played = next(move for move in run.moves[before:] if move["player"] == PUPIL)
    told = english(run.current_told().told)
    assert (
        told == "The hourglass ran out, so a move was chosen for you. You played the card with circled sum "
        f"{DECK[played['cards'][0]].circled_sum}."
    )


@pytest.mark.parametrize("game_id", SHEDDING)
def test_every_legal_move_of_the_pupil_is_told_so_a_move_made_for_them_is_too(game_id):
    """The hourglass tells what the shedding lesson's judge says of the chosen move: every legal move has a told."""
    lesson = LESSONS[game_id]
    for players in (2, 3, 4):
        run = LessonRun.start(lesson, players, {}, ["beginner"], 3, 0)
        run.skip_intro(lesson, {}, 0)
        for _ in range(15):
            while run.drill.question:
                run.close_question(lesson, {}, 0)
            state = run.game_state()
            if run.stage != PLAY:
                break
            for move in state.legal_moves():
                judged = lesson.judge(state, PUPIL, move)
                assert judged is not None and judged.correct, move
                said = english(judged.told)
                if (
                    move.kind == "play"
                    and not DECK[move.cards[0]].is_special
                    and DECK[move.cards[0]].colour == state.colour
                ):
                    assert said == f"You played the {state.colour} {DECK[move.cards[0]].top}: it follows the colour."
            run.move(move_token(state.legal_moves()[-1]), lesson, {}, 0)


# --- through the routes -----------------------------------------------------------------------------
SPECIAL_CARD_DEAL = 1  # a Tiervenner deal in which the pupil soon holds a Kocha card


def test_through_the_routes_a_special_card_asks_for_its_colour_then_its_effect_is_shown(app, guest, client, fixed_deal):
    fixed_deal(SPECIAL_CARD_DEAL)
    guest.sign_in()
    run_id = guest.start("crazy-banana-tiervenner")
    client.post(f"/runs/{run_id}/skip-intro")
    _, _, special = guest.play_until(
        app,
        run_id,
        lambda state: next(
            (m for m in state.legal_moves() if m.kind == "play" and DECK[m.cards[0]].kind == "kocha"), None
        ),
    )
    card = special.cards[0]
    page = client.post(f"/runs/{run_id}/move", data={"move": f"play:{card}:"}, follow_redirects=True).get_data(
        as_text=True
    )
    assert "told-refused" in page and "A special card needs a colour" in page
    assert page.count(f'value="play:{card}:') == 1 + len(DECK.colours)  # the hand card, and its colour buttons
    page = client.post(f"/runs/{run_id}/move", data={"move": f"play:{card}:blue"}, follow_redirects=True).get_data(
        as_text=True
    )
    instruction = {"skip": "skip", "reverse": "reverse", "draw_two": "draw-two"}[DECK[card].instruction]
    assert "told-right" in page and f"You played a Kocha {instruction} card and chose blue" in page
    assert "Computer 1" in page.split("told-right", 1)[1].split("</p>", 1)[0]  # whom it hit (two players: the computer)
