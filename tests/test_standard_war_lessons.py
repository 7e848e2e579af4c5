"""The War family's lessons: what they ask, when they refuse a choice, and how a round is told."""

from __future__ import annotations

import pytest

from tests.test_classic_war import c, make, stack, turn_round
from tutor.engine import Move, make_game
from tutor.lessons import LESSONS
from tutor.lessons.runner import PUPIL
from tutor.standard_deck import ACE, JACK, KING, QUEEN
from tutor.text import say


def told(lines) -> list[str]:
    return [say(line) for line in lines]


def after(game_id: str, tops, players: int = 2, sizes=None):
    """The lesson and the state after one round whose first cards are ``tops``."""
    state = stack(make(game_id, players), tops, sizes)
    turn_round(state)
    return LESSONS[game_id], state


# --- telling a round -----------------------------------------------------------------------------------
def test_a_round_is_told_with_its_cards_and_who_takes_how_many():
    lesson, state = after("war", [[c(QUEEN)], [c(7)]])
    story = told(lesson.round_story(state, PUPIL, [Move("turn", PUPIL)]))
    assert story == ["Your queen beats Computer 1's 7.", "You win round 1 and take the 2 cards!"]


def test_a_war_is_told_with_the_tied_card_then_the_deciding_cards():
    lesson, state = after(
        "war", [[c(9, 0), c(2, 0), c(3, 0), c(4, 0), c(KING)], [c(9, 1), c(2, 1), c(3, 1), c(4, 1), c(5)]]
    )
    story = told(lesson.round_story(state, PUPIL, [Move("turn", PUPIL)]))
    assert story == [
        "Your 9 and Computer 1's 9 are equal: war!",
        "Your king beats Computer 1's 5.",
        "You win round 1 and take the 10 cards!",
    ]


def test_the_games_own_rule_is_told_when_it_decides_the_round():
    lesson, state = after("pyanitsa", [[c(6)], [c(ACE)]])
    assert told(lesson.round_story(state, PUPIL, [Move("turn", PUPIL)])) == [
        "Your 6 beats Computer 1's ace.",
        "In this game the 6 beats the ace, and only the ace.",
        "You win round 1 and take the 2 cards!",
    ]
    lesson, state = after("pyanitsa", [[c(6)], [c(KING)]])
    assert told(lesson.round_story(state, PUPIL, [Move("turn", PUPIL)]))[0] == "Computer 1's king beats your 6."


def test_pyanitsa_tells_that_everyone_lays_a_new_card_at_a_tie():
    lesson, state = after("pyanitsa", [[c(12), c(9)], [c(7), c(14)], [c(12, 1), c(10)]], players=3)
    assert told(lesson.round_story(state, PUPIL, [Move("turn", PUPIL)])) == [
        "Your queen and Computer 2's queen are equal: war!",
        "Computer 1 did not tie, but lay a new card too: at a tie, everyone does.",
        "Computer 1's ace beats your 9 and Computer 2's 10.",
        "Computer 1 wins round 1 and takes the 6 cards.",
    ]
    lesson, state = after("pyanitsa", [[c(7), c(9)], [c(12), c(14)], [c(12, 1), c(10)]], players=3)
    assert told(lesson.round_story(state, PUPIL, [Move("turn", PUPIL)]))[:2] == [
        "Computer 1's queen and Computer 2's queen are equal: war!",
        "Your card did not tie, but you lay a new card too: at a tie, everyone does.",
    ]


def test_tod_und_leben_tells_the_cards_each_player_takes_back_when_the_last_cards_tie():
    from tests.test_classic_war import tod_und_leben_grown_trick_on_the_last_cards

    _, state = tod_und_leben_grown_trick_on_the_last_cards()
    lines = told(LESSONS["tod-und-leben"].tell_round(state, state.last_round, PUPIL))
    assert lines == [
        "Your ace and Computer 1's ace are equal: war!",
        "Your last cards are equal too, so nobody wins this trick: you take back the 2 cards you laid in it, and "
        "Computer 1 takes back theirs.",
    ]


@pytest.mark.parametrize(
    ("locale", "takes", "heading"),
    [
        ("en", "You win the trick and take the 2 cards!", "Last trick"),
        ("nb", "Du vinner stikket og tar de 2 kortene!", "Forrige stikk"),
        ("sv", "Du vinner sticket och tar de 2 korten!", "Förra sticket"),
        ("it", "Fai la presa e prendi le 2 carte!", "Presa precedente"),
    ],
)
def test_tod_und_leben_calls_what_one_battle_wins_a_trick_not_a_round(locale, takes, heading):
    """A round of Tod und Leben is sixteen cards each ("Round 1 of 1"); one battle wins a trick."""
    lesson, state = after("tod-und-leben", [[c(QUEEN)], [c(7)]])
    assert say(lesson.round_story(state, PUPIL, [Move("turn", PUPIL)])[-1], locale) == takes
    assert say(lesson.table(state, PUPIL)[0].title, locale) == heading


def strategy_round(hands, codes, jokers="high"):
    """Strategy War's lesson and the state after one round in which the players lay ``codes`` from ``hands``."""
    from tests.test_strategy_war import c as code_card
    from tests.test_strategy_war import play, position

    state = position([[code_card(code) for code in hand] for hand in hands], jokers=jokers)
    play(state, *codes)
    return LESSONS["strategy-war"], state


def test_strategy_war_with_jokers_tells_that_the_ace_beats_the_2_and_the_2_the_joker():
    lesson, state = strategy_round([["2C", "3C"], ["AD", "4D"]], ["2C", "AD"])
    assert told(lesson.round_story(state, PUPIL, [])) == [
        "Computer 1's ace beats your 2.",
        "With the jokers in the game, the ace beats the 2: the 2 beats only the joker.",
        "Computer 1 wins round 1 and takes the 2 cards.",
    ]
    lesson, state = strategy_round([["2C", "3C"], ["joker", "4D"]], ["2C", "joker"])
    assert told(lesson.round_story(state, PUPIL, []))[:2] == [
        "Your 2 beats Computer 1's joker.",
        "With the jokers in the game, the 2 beats the joker.",
    ]
    lesson, state = strategy_round([["2C", "3C"], ["AD", "4D"]], ["2C", "AD"], jokers="none")
    assert told(lesson.round_story(state, PUPIL, []))[:2] == [
        "Your 2 beats Computer 1's ace.",
        "In this game the 2 beats the ace.",
    ]


def test_strategy_war_with_jokers_introduces_the_2s_rule_with_jokers():
    lesson = LESSONS["strategy-war"]
    step = next(i for i, entry in enumerate(lesson.intro_steps()) if entry["focus"] == "ranks")
    with_jokers = make_game("strategy-war", 2, {"jokers": "high"}).new_state()
    assert "the ace beats the 2" in say(lesson.intro_text(step, with_jokers, PUPIL))
    assert "beats the ace" in say(lesson.intro_text(step, make_game("strategy-war", 2).new_state(), PUPIL))


# --- the drills -------------------------------------------------------------------------------------------
LEVEL_2 = {"compare": 2, "count": 2}


def rounds_played(game_id: str, tops, rounds: int, players: int = 2):
    """The lesson and the state after ``rounds`` rounds whose first cards are ``tops``."""
    state = stack(make(game_id, players), tops)
    for _ in range(rounds):
        turn_round(state)
    return LESSONS[game_id], state


def test_the_questions_about_a_round_take_turns_how_many_cards_who_is_ahead_how_much_higher():
    tops = [[c(5), c(4), c(QUEEN)], [c(2), c(3), c(7)]]
    lesson, state = rounds_played("war", tops, 1)
    [taken] = lesson.after_round(state, PUPIL, None, LEVEL_2)  # round 1: the pupil's 5 takes the 2
    assert taken.kind == "cards_on_table" and taken.check["expected"] == "2" and taken.hides_result
    lesson, state = rounds_played("war", tops, 2)
    [ahead] = lesson.after_round(state, PUPIL, None, LEVEL_2)  # round 2: 28 cards against 24
    assert ahead.kind == "cards_ahead" and ahead.check == {"rule": "equals", "expected": "4"}
    assert say(ahead.prompt) == "You have 28 cards and Computer 1 has 24. How many more cards do you have?"
    lesson, state = rounds_played("war", tops, 3)
    [higher] = lesson.after_round(state, PUPIL, None, LEVEL_2)  # round 3: the queen beats the 7
    assert higher.kind == "rank_difference" and higher.check == {"rule": "equals", "expected": "5"}
    assert higher.answer == "number" and higher.hides_result and higher.cards == [c(QUEEN), c(7)]
    assert say(higher.prompt) == "How much higher is Q (12) than 7?"


def test_the_youngest_are_asked_which_card_is_higher_now_and_then_never_only_that():
    tops = [[c(5), c(4), c(JACK)], [c(2), c(3), c(7)]]
    lesson, state = rounds_played("war", tops, 3)
    [question] = lesson.after_round(state, PUPIL, None, {"compare": 1, "count": 1})
    assert question.kind == "compare_ranks" and question.hides_result
    assert question.cards == [c(JACK), c(7)] and question.check["expected"] == ["J"]
    assert lesson.after_round(state, PUPIL, None, LEVEL_2)[0].kind == "rank_difference"


def test_the_winner_is_asked_how_many_cards_it_takes_when_it_is_not_the_pupil():
    lesson, state = rounds_played("war", [[c(2)], [c(5)]], 1)
    [question] = lesson.after_round(state, PUPIL, None, LEVEL_2)
    assert question.kind == "winner_takes" and question.check["expected"] == "2" and question.answer == "number"


@pytest.mark.parametrize(
    "game_id,mine,theirs,rule",
    [("pyanitsa", 6, ACE, "six_beats_ace"), ("joker-war", 2, 15, "two_beats_joker")],
)
def test_the_games_own_rule_is_asked_when_it_decides_the_round(game_id, mine, theirs, rule):
    """The usual order would give the wrong answer: a 6 beats the ace in P'yanitsa, a 2 the joker in Joker War."""
    lesson, state = rounds_played(game_id, [[c(mine)], [52 if theirs == 15 else c(theirs)]], 1)
    [question] = lesson.after_round(state, PUPIL, None, LEVEL_2)
    assert question.kind == "special_rank_rule" and question.check["expected"] == [str(mine)]
    assert question.hints[1].params["winner"] == str(mine)
    lesson, state = rounds_played(game_id, [[c(mine)], [c(KING)]], 1)  # the usual order decides: no rule to ask
    assert all(q.kind != "special_rank_rule" for q in lesson.after_round(state, PUPIL, None, LEVEL_2))


@pytest.mark.parametrize(
    "theirs,jokers,rule",
    [("joker", "high", "two_beats_joker"), ("AD", "none", "two_beats_ace")],
)
def test_strategy_war_asks_the_2s_rule_as_the_game_plays_it(theirs, jokers, rule):
    """Without jokers the 2 beats the ace; with jokers it beats the joker (and the ace beats it)."""
    lesson, state = strategy_round([["2C", "3C"], [theirs, "4D"]], ["2C", theirs], jokers)
    [question] = lesson.after_round(state, PUPIL, None, LEVEL_2)
    assert question.kind == "special_rank_rule" and question.check["expected"] == ["2"]


def test_strategy_war_with_jokers_asks_no_usual_order_question_when_the_ace_beats_the_2():
    lesson, state = strategy_round([["2C", "3C"], ["AD", "4D"]], ["2C", "AD"])
    kinds = {q.kind for q in lesson.after_round(state, PUPIL, None, LEVEL_2)}
    assert not kinds & {"special_rank_rule", "rank_difference", "compare_ranks"}


def test_every_war_game_asks_how_many_cards_the_war_puts_down_before_the_pupil_lays_them():
    lesson = LESSONS["war"]
    state = stack(make("war", 2), [[c(9, 0), c(2, 0), c(3, 0), c(4, 0), c(KING)], [c(9, 1), c(2, 1), c(3, 1), c(4, 1)]])
    state.apply(Move("turn", 0))
    state.apply(Move("turn", 1))
    assert state.in_war and state.current_player == PUPIL
    [yours] = lesson.before_move(state, PUPIL, None, {"count": 1})
    assert yours.kind == "war_cards" and yours.check["expected"] == "4"  # three face down, one face up
    [everyone] = lesson.before_move(state, PUPIL, None, {"count": 2})
    assert everyone.check["expected"] == "8"
    [table] = lesson.before_move(state, PUPIL, None, {"count": 3})
    assert table.check["expected"] == "10"  # and the two nines already on the table
    assert lesson.before_move(stack(make("war", 2), [[c(8)], [c(9)]]), PUPIL, None, {}) == []  # no war


def test_razboiul_asks_how_many_cards_go_into_the_war_before_the_pupil_lays_them():
    lesson = LESSONS["razboiul"]
    state = stack(make("razboiul", 2), [[c(8, 0)], [c(8, 1)]])
    state.apply(Move("turn", 0))
    state.apply(Move("turn", 1))
    assert state.in_war and state.current_player == PUPIL
    [question] = lesson.before_move(state, PUPIL, None, {})
    assert (
        question.kind == "razboiul_war_cards" and question.check["expected"] == "16"
    )  # eight each: seven down, one up
    assert (
        lesson.before_move(stack(make("razboiul", 2), [[c(8)], [c(9)]]), PUPIL, None, {}) == []
    )  # no war: nothing to ask


def test_tod_und_leben_asks_who_is_ahead_in_cards_won():
    lesson, state = rounds_played("tod-und-leben", [[c(ACE), c(KING)], [c(7), c(8)]], 2)
    [question] = lesson.after_round(state, PUPIL, None, LEVEL_2)  # round 2: 4 cards won against none
    assert question.kind == "cards_ahead" and question.check["expected"] == "4"
    assert say(question.prompt).startswith("You have won 4 cards and Computer 1 has won 0.")


# --- Strategy War: decisions ---------------------------------------------------------------------------------
def test_strategy_war_asks_how_many_unseen_cards_beat_a_card_of_the_hand_before_the_first_choice():
    from tests.test_strategy_war import cards, position

    state = position([cards("9S", "KH", "4D"), cards("2C", "5C", "6C")])
    [question] = LESSONS["strategy-war"].before_move(state, PUPIL, None, LEVEL_2)
    assert question.kind == "unseen_beat_count" and question.hints[0].params["card"] == "9"
    assert question.check["expected"] == "19"  # 10 J Q K A: 20 cards, and the pupil holds a king


def test_strategy_war_asks_which_card_beats_the_card_on_the_table_with_the_least_waste():
    from tests.test_strategy_war import cards, play, position

    state = position([cards("9S", "KH", "4D", "3S", "QD"), cards("2C", "5C", "6C", "JC", "8C")])
    play(state, "3S", "2C")
    play(state, "4D", "5C")
    assert state.rounds == 2
    [question] = LESSONS["strategy-war"].after_round(state, PUPIL, None, LEVEL_2)
    assert question.kind == "least_waste_card" and question.prompt.params["shown"] == "5"
    assert question.check["expected"] == ["9"]  # the 9 beats the 5 that Computer 1 laid, and wastes least
    assert LESSONS["strategy-war"].before_move(state, PUPIL, None, LEVEL_2) == []  # one question between choices


def test_strategy_war_asks_about_the_round_every_other_round_and_the_2_that_beats_the_ace():
    from tests.test_strategy_war import cards, play, position

    state = position([cards("2S", "KH", "3D", "4D"), cards("AC", "5C", "6C", "7C")])
    play(state, "2S", "AC")
    [question] = LESSONS["strategy-war"].after_round(state, PUPIL, None, LEVEL_2)
    assert question.kind == "special_rank_rule" and question.check["expected"] == ["2"]
    play(state, "KH", "5C")
    play(state, "3D", "6C")
    play(state, "4D", "7C")
    assert state.rounds == 4 and LESSONS["strategy-war"].after_round(state, PUPIL, None, LEVEL_2) == []
    assert LESSONS["strategy-war"].before_move(state, PUPIL, None, LEVEL_2)[0].kind == "unseen_beat_count"


# --- Casino War: the chances, hand by hand ----------------------------------------------------------------------
def test_casino_war_asks_a_different_chance_before_each_stake_with_no_working_in_the_prompt():
    lesson = LESSONS["casino-war"]
    state = make_game("casino-war", 1).new_state()
    kinds, prompts = [], []
    for _ in range(5):
        [question] = lesson.before_move(state, PUPIL, None, {"probability": 2})
        kinds.append(question.kind)
        prompts.append(say(question.prompt))
        state.apply(Move("bet", 0, (), "plain"))
        state.apply(Move("deal", -1, (c(KING, len(kinds) % 4), c(5, len(kinds) % 4))))
    assert kinds == [
        "probability_tie",
        "casino_house_edge",
        "casino_expected_loss",
        "probability_tie",
        "probability_tie_bet",
    ]
    assert "with 1 deck" in prompts[1] and "6 × 52" in prompts[3]  # the chance of a tie for 1 and for 6 decks
    assert all("1/17" not in prompt and "51" not in prompt for prompt in prompts)


# --- Steal War: the pupil's decision ------------------------------------------------------------------------
def steal_position(own_top: int, their_top: int):
    """Steal War: Computer 1's face-up pile has ``their_top`` on top; the pupil looks at ``own_top``."""
    game = make_game("steal-war", 2)
    order = [card for card in game.card_ids() if card not in (own_top, their_top)]
    order[26:26] = [own_top, their_top]  # the top of the pupil's pack, the bottom of Computer 1's
    state = game.new_state()
    state.apply(Move("shuffle", -1, tuple(order)))
    data = state.to_dict()
    data["faceup"][1] = [data["piles"][1].pop(0)]
    return game.state_from_dict(data)


def test_a_steal_with_another_rank_is_refused_with_both_ranks_and_counts_as_a_compare_answer():
    lesson = LESSONS["steal-war"]
    state = steal_position(c(7, 0), c(QUEEN, 1))
    judged = lesson.judge(state, PUPIL, Move("steal", PUPIL, (), "1"))
    assert not judged.correct and judged.skill == "compare"
    assert (
        say(judged.told)
        == "Your 7 and the queen on top of Computer 1's pile are not the same rank: you can only steal with the same "
        "rank."
    )
    assert any(
        choice.token == "steal::1" for choice in lesson.choices(state, PUPIL)
    )  # offered although it cannot be made


def test_a_matching_steal_is_a_right_compare_answer():
    lesson = LESSONS["steal-war"]
    state = steal_position(c(7, 0), c(7, 1))
    judged = lesson.judge(state, PUPIL, Move("steal", PUPIL, (), "1"))
    assert judged.correct and judged.skill == "compare" and "you steal 2 cards" in say(judged.told)


def test_a_card_matching_several_piles_is_judged_and_told_with_every_pile_and_the_cards_taken():
    from tests.test_steal_war import position

    lesson = LESSONS["steal-war"]
    state = position(3, [[c(7), c(5)], [c(4)], [c(6)]], [[c(2)], [c(3), c(7, 1)], [c(QUEEN), c(7, 2)]])
    judged = lesson.judge(state, PUPIL, Move("steal", PUPIL, (), "1"))
    assert judged.correct and judged.skill == "compare"
    assert (
        say(judged.told)
        == "Your 7 matches the top of the piles of Computer 1 and Computer 2: you steal them all, 5 cards!"
    )
    state.apply(Move("steal", PUPIL, (), "1"))
    assert told(lesson.round_story(state, PUPIL, [])) == [
        "You stole the piles of Computer 1 and Computer 2 with your 7: 5 cards."
    ]


def test_a_computer_stealing_your_pile_and_another_is_told_with_the_cards_in_all():
    from tests.test_steal_war import position

    lesson = LESSONS["steal-war"]
    state = position(3, [[c(4)], [c(7), c(5)], [c(6)]], [[c(3), c(7, 1)], [], [c(QUEEN), c(7, 2)]])
    state.apply(Move("turn", PUPIL))
    state.apply(Move("steal", 1, (), "0"))
    assert told(lesson.round_story(state, PUPIL, [])) == [
        "Computer 1 stole your pile with the 7, and stole from Computer 2 too: 5 cards in all."
    ]


def test_a_swap_is_told_from_the_side_of_the_pile_given_and_between_two_computers():
    """The pupil moves first, so a computer player takes a pile back: from the pupil, or from another computer."""
    from tests.test_steal_war import position

    lesson = LESSONS["steal-war"]
    state = position(2, [[c(3, 1), c(4)], [c(9, 1), c(6)]], [[c(5), c(9)], [c(KING), c(3)]])
    state.apply(Move("steal", PUPIL, (), "1"))
    state.apply(Move("turn", PUPIL))
    state.apply(Move("steal", 1, (), "0"))
    assert told(lesson.round_story(state, PUPIL, [])) == [
        "You stole Computer 1's pile with your 3: 3 cards.",
        "Swap! Computer 1's 9 matches the top of the pile you had before: you and Computer 1 swap piles, and "
        "Computer 1 takes 3 cards.",
    ]
    three = position(3, [[c(4)], [c(3, 1), c(5, 2)], [c(9, 1), c(6)]], [[], [c(5), c(9)], [c(KING), c(3)]])
    three.apply(Move("turn", PUPIL))
    three.apply(Move("steal", 1, (), "2"))
    three.apply(Move("turn", 1))
    three.apply(Move("steal", 2, (), "1"))
    assert told(lesson.round_story(three, PUPIL, [])) == [
        "Computer 1 stole Computer 2's pile with the 3: 3 cards.",
        "Swap! Computer 2's 9 matches the top of the pile Computer 1 had before: Computer 2 and Computer 1 swap piles, "
        "and Computer 2 takes 3 cards.",
    ]


# --- Casino War -------------------------------------------------------------------------------------------------
def test_casino_war_refuses_a_war_the_pupil_cannot_afford_with_the_tokens():
    lesson = LESSONS["casino-war"]
    game = make_game("casino-war", 1, {"tokens": 4, "stake": 4})
    state = game.new_state()
    state.apply(Move("bet", 0, (), "plain"))
    state.apply(Move("deal", -1, (c(9, 0), c(9, 1))))
    assert state.phase == "decide" and state.tokens[0] == 0
    judged = lesson.judge(state, PUPIL, Move("war", PUPIL))
    assert (
        not judged.correct and say(judged.told) == "You have 0 tokens left: the war needs 4 more. You can only give up."
    )
    assert [choice.token for choice in lesson.choices(state, PUPIL)] == ["surrender::", "war::"]  # both offered


def test_a_casino_hand_is_told_in_tokens():
    lesson = LESSONS["casino-war"]
    state = make_game("casino-war", 1).new_state()
    state.apply(Move("bet", 0, (), "tie"))
    state.apply(Move("deal", -1, (c(KING), c(5))))
    assert told(lesson.round_story(state, PUPIL, [Move("bet", PUPIL, (), "tie")])) == [
        "Your king beats the house's 5: you win 2 tokens.",
        "Your tie bet of 2 tokens is lost.",
    ]


# --- the page ---------------------------------------------------------------------------------------------------------
def test_while_a_question_hides_the_result_the_card_counts_are_hidden_too(app):
    from tutor.lessons.runner import LessonRun
    from tutor.web.lesson_view import lesson_context

    lesson = LESSONS["war"]
    run = LessonRun.start(lesson, 2, {}, ["beginner"], 3, now_ms=0)
    run.skip_intro(lesson, {}, 0)
    while not (run.drill.question and run.current_question().hides_result):
        run.move(lesson.choices(run.game_state(), PUPIL)[0].token, lesson, {}, 0)
    with app.test_request_context():
        context = lesson_context(run, "Ada", 0)
    assert [say(line) for line in context["scoreboard"]] == ["Round 1 of 10"] and not context["story"]
