"""Three Traits' lesson: every choice judged with its attributes, the source's example, the evidence each choice gives,
the table with the attributes on request, the story of every round, the drill points, and homework with its skill."""

from __future__ import annotations

import csv
import io
import random

import pytest

from tests.conftest import run_id_in, run_record
from tests.test_teacher import homework_form, take_a_step
from tests.test_three_traits import c, position, without_draw_pile
from tutor.engine import Move
from tutor.engine.three_traits import AT_LEAST_ONE
from tutor.lessons import LESSONS
from tutor.lessons.base import move_token
from tutor.lessons.runner import PUPIL, LessonRun
from tutor.lessons.three_traits import DRILL_ORDER, attributes
from tutor.standard_deck import card
from tutor.text import LOCALES, say

LESSON = LESSONS["three-traits"]
TWO_BUTTON_KINDS = {"rank_parity", "rank_size"}


def told(state, code: str, locale: str = "en"):
    judged = LESSON.judge(state, PUPIL, Move("play", PUPIL, (c(code),)))
    return judged, say(judged.told, locale)


def judged_move(state, kind: str):
    judged = LESSON.judge(state, PUPIL, Move(kind, PUPIL))
    return judged, say(judged.told, "en")


# --- the source's example ---------------------------------------------------------------------------------------


def test_the_sources_example_through_the_lesson():
    """J♦ then 5♠: 3♣ fits with odd and low; Q♥ waits while a card fits, then goes on by the fallback; A♠ fits both."""
    state = position([["3C", "QH", "AS", "KH", "2D"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"])
    judged, line = told(state, "3C")
    assert judged.correct and line == "3♣ fits: it shares odd and low with 5♠, and odd with J♦."
    judged, line = told(state, "QH")
    assert not judged.correct and judged.skill == "parity_size"
    assert line == (
        "Q♥ shares nothing with 5♠. That is allowed only when none of your cards fits the main rule, "
        "and 2 of your cards do."
    )
    judged, line = told(state, "AS")
    assert judged.correct and line == (
        "A♠ fits: it shares spades, odd and low (the ace as 1) with 5♠, and odd (the ace as 1) with J♦."
    )
    judged, line = told(state, "KH")
    assert not judged.correct and line == "K♥ shares only one attribute with 5♠, odd: you need two."

    fallback = position([["QH", "KH", "2D"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"])
    judged, line = told(fallback, "QH")
    assert judged.correct and line == (
        "None of your cards fits the main rule, so Q♥ may go on: it shares nothing with 5♠, and high with J♦."
    )
    judged, line = told(fallback, "KH")
    assert not judged.correct and "look for one that shares nothing with 5♠" in line

    after_queen = position([["AS", "KH"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S", "QH"])
    judged, line = told(after_queen, "AS")
    assert judged.correct and line == (
        "A♠ fits: it shares even and high (the ace as 14) with Q♥, and spades, odd and low (the ace as 1) with 5♠."
    )


def test_the_sources_example_through_the_runner_a_refused_card_plays_nothing():
    run = LessonRun.start(LESSON, 2, {}, ["beginner"], 1, now_ms=0)
    state = position([["3C", "QH", "AS", "KH", "2D"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"])
    run.state, run.stage = state.to_dict(), "play"
    before = run.to_dict()
    attempt = run.move(move_token(Move("play", PUPIL, (c("QH"),))), LESSON, {}, 1000)
    assert attempt.skill == "parity_size" and not attempt.correct and attempt.first_try
    assert run.state == before["state"] and run.moves == before["moves"]
    assert not run.current_told().correct and "Q♥ shares nothing with 5♠" in say(run.current_told().told)
    attempt = run.move(move_token(Move("play", PUPIL, (c("3C"),))), LESSON, {}, 2000)
    assert attempt.correct and not attempt.first_try  # the second try of the same decision
    assert run.game_state().row == [c("JD"), c("5S"), c("3C")]


# --- why a card is refused -----------------------------------------------------------------------------------------


def test_a_refused_card_is_told_with_the_attributes_it_shares():
    hands = [["7S", "8H", "2D"], ["4C", "6C", "7H", "9H", "10C"]]
    judged, line = told(position(hands, ["QH", "5S"]), "7S")
    assert line == (
        "7♠ shares spades, odd and low with 5♠, but nothing with Q♥: it must share at least one attribute with the "
        "card before."
    )
    hands = [["QD", "KH"], ["4C", "6C", "7H", "9H", "10S"]]
    judged, line = told(position(hands, ["JD", "5S"]), "QD")
    assert line == (
        "Q♦ shares nothing with 5♠, but diamonds and high with J♦: then it may share at most one attribute with the "
        "card before."
    )
    hands = [["8H", "10D"], ["4C", "6C", "7H", "9H", "10S"]]
    judged, line = told(position(hands, ["3C", "5S"], fallback_rule=AT_LEAST_ONE), "8H")
    assert line == (
        "8♥ shares nothing with 5♠ and nothing with 3♣: then it must share at least one attribute with the card before."
    )
    assert all(not j.correct and j.skill == "parity_size" for j in [judged])


@pytest.mark.parametrize("locale", LOCALES)
def test_every_told_line_is_in_the_pupils_language(locale):
    state = position([["3C", "QH", "AS", "KH", "2D"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"])
    for code in ("3C", "QH", "AS", "KH", "2D"):
        line = told(state, code, locale)[1]
        assert "%(" not in line and "5♠" in line
        if locale != "en":
            assert line != told(state, code)[1]


# --- drawing and "I cannot play" ----------------------------------------------------------------------------------


def test_drawing_while_a_card_fits_is_refused_with_how_many_fit():
    state = position([["3C", "QH", "AS", "KH", "2D"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"])
    judged, line = judged_move(state, "draw")
    assert not judged.correct and judged.skill == "parity_size"
    assert line == (
        "You may not draw: 2 of your cards fit. Look for one that shares two attributes with 5♠ and one with J♦."
    )
    state = position([["QH", "KH", "2D"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"])
    judged, line = judged_move(state, "draw")
    assert line == (
        "You may not draw: none of your cards fits the main rule, but 1 shares nothing with 5♠, so it may go on."
    )
    judged, line = judged_move(state, "cannot_play")
    assert not judged.correct and line.startswith("You can still play: none of your cards fits the main rule")


def test_drawing_when_nothing_fits_is_right_and_names_the_card_drawn():
    state = position([["KH", "QD"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"], draw=["3C"])
    judged, line = judged_move(state, "cannot_play")
    assert not judged.correct and judged.skill is None and line == "First draw a card: it may fit."
    judged, line = judged_move(state, "draw")
    assert judged.correct and judged.skill == "parity_size"
    assert line == "None of your cards fits, so you draw a card: 3♣."


def test_i_cannot_play_is_right_only_when_nothing_fits_and_nothing_can_be_drawn():
    state = without_draw_pile(position([["KH", "QD"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"]))
    assert [choice.label.msgid for choice in LESSON.choices(state, PUPIL)] == ["I cannot play"]
    judged, line = judged_move(state, "cannot_play")
    assert judged.correct and judged.skill == "parity_size"
    assert line == "None of your cards fits, and you cannot draw: you cannot play."


def test_the_buttons_offer_drawing_even_when_a_card_fits_and_ending_the_turn_after_a_card():
    state = position([["3C", "7C", "KH"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"])
    actions = [choice for choice in LESSON.choices(state, PUPIL) if choice.place != "hand"]
    assert [choice.token for choice in actions] == ["draw::"]  # not legal now: the rules judge it when chosen
    state.apply(Move("play", PUPIL, (c("3C"),)))
    actions = [choice for choice in LESSON.choices(state, PUPIL) if choice.place != "hand"]
    assert [choice.token for choice in actions] == ["end_turn::"]
    assert LESSON.judge(state, PUPIL, Move("end_turn", PUPIL)) is None  # strategy, not maths: nothing to judge


# --- what a choice is evidence of ---------------------------------------------------------------------------------


def test_a_right_card_counts_only_when_at_most_half_the_hand_fits():
    few = position([["3C", "QH", "AS", "KH", "2D"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"])
    assert told(few, "3C")[0].skill == "parity_size"  # 2 of 5 fit
    many = position([["3C", "7C", "AS", "KH"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"])
    assert told(many, "3C")[0].skill is None  # 3 of 4 fit: a tap would be right anyway
    assert told(many, "KH")[0].skill == "parity_size"  # a refused card always counts


def test_after_which_of_your_cards_fits_is_asked_the_play_does_not_count_again():
    state = position([["3C", "QH", "AS", "KH", "2D"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"])
    state.turns[PUPIL] = DRILL_ORDER.index("playable_card") + 1
    asked = LESSON.before_move(state, PUPIL, random.Random(1), {"parity_size": 2})
    assert [q.kind for q in asked] == ["playable_card"]
    assert sorted(asked[0].check["expected"]) == sorted([str(c("3C")), str(c("AS"))])
    assert told(state, "3C")[0].skill is None and told(state, "QH")[0].skill == "parity_size"


def test_the_drill_points_take_turns_and_never_ask_odd_or_even_and_low_or_high_back_to_back():
    state = position([["3C", "QH", "AS", "KH", "2D"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"])
    kinds = []
    for turn in range(1, 13):
        state.turns[PUPIL] = turn
        kinds += [q.kind for q in LESSON.before_move(state, PUPIL, random.Random(turn), {})]
    assert kinds[:4] == list(DRILL_ORDER) and set(kinds) == set(DRILL_ORDER)
    assert not any(a == b or {a, b} <= TWO_BUTTON_KINDS for a, b in zip(kinds, kinds[1:]))
    state.apply(Move("play", PUPIL, (c("3C"),)))
    assert LESSON.before_move(state, PUPIL, random.Random(1), {}) == []  # only at a turn's start


# --- the table and the story ----------------------------------------------------------------------------------


def test_the_table_shows_the_last_two_cards_and_their_attributes_on_request():
    state = position([["3C", "QH"], ["4H", "6H", "8H", "9H", "10S"]], ["7D", "AH", "5S"])
    row, others = LESSON.table(state, PUPIL)
    assert row.key == "row" and row.rows[0].cards == [c("AH"), c("5S")]
    assert say(row.rows[0].note) == "3 cards in the row"
    assert say(row.details_title) == "Show the attributes"
    assert [say(line) for line in row.details] == [
        "A♥: hearts; odd and low as 1, or even and high as 14",
        "5♠: spades, odd and low",
    ]
    assert [say(line, "nb") for line in row.details] == [
        "A♥: hjerter; oddetall og lavt som 1, eller partall og høyt som 14",
        "5♠: spar, oddetall og lavt",
    ]
    assert others.rows[0].cards == [None] * 5 and say(others.rows[0].note) == "5 cards in hand"
    assert say(attributes(c("QC")), "sv") == "Q♣: klöver, jämnt och högt"
    assert say(attributes(c("7H")), "it") == "7♥: cuori, dispari e bassa"


def test_every_play_and_every_round_end_is_told_with_its_numbers():
    run = LessonRun.start(LESSON, 2, {}, ["strong"], 3, now_ms=0)
    run.skip_intro(LESSON, {}, 0)
    seen_plays = seen_rounds = 0
    for step in range(400):
        state = run.game_state()
        story = [say(line) for line in LESSON.round_story(state, PUPIL, run.recent_moves())]
        seen_plays += sum(" laid " in line and " like " in line for line in story)
        seen_rounds += sum(" round " in line and ("wins" in line or "win" in line or "loses" in line) for line in story)
        assert all("penalty card" in line for line in story if " takes " in line or line.startswith("You take "))
        if run.stage == "finished":
            break
        if run.drill.question is not None:
            run.close_question(LESSON, {}, step)
            continue
        move = next(m for m in state.legal_moves() if m.kind != "end_turn" or not state.playable(PUPIL))
        run.move(move_token(move), LESSON, {}, step)
    assert run.stage == "finished" and seen_plays and seen_rounds >= 2
    finish = [say(line) for line in LESSON.finish_story(run.game_state(), PUPIL)]
    assert finish[-1].startswith("The fewest penalty cards wins: ")


def test_a_round_won_with_the_pupils_last_card_is_told_after_it():
    state = position([["3C"], ["4H", "6H", "8H", "9H", "10S"]], ["JD", "5S"])
    state.apply(Move("play", PUPIL, (c("3C"),)))
    lines = [say(line) for line in LESSON.round_story(state, PUPIL, [])]
    assert lines[:2] == [
        "You have no cards left: you win round 1!",
        "Computer 1 takes 8 penalty cards: the row and their hand.",
    ]
    first, last = (card(x).corner for x in state.row)
    assert (
        lines[2] == f"Round 2: five new cards each, and {first} and {last} start the row. "
        "Computer 1 took the row, so Computer 1 begins."
    )


# --- homework -----------------------------------------------------------------------------------------------------


def test_homework_with_a_parity_size_goal_counts_the_choices_and_the_grid_shows_them(app, staff, client):
    staff.teacher()
    teacher = app.test_client()
    staff.sign_in(teacher)
    school_class = staff.school_class(pupils=("Ada",))
    form = homework_form(
        game="three-traits", goal="skill", **{"three-traits-goal_skill": "parity_size"}, goal_level="familiar"
    )
    page = teacher.get(f"/teacher/classes/{school_class.public_id}/homework/new?game=three-traits").get_data(
        as_text=True
    )
    assert 'value="three-traits"' in page and 'value="parity_size"' in page
    response = teacher.post(f"/teacher/classes/{school_class.public_id}/homework/new", data=form)
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    assignment_id = response.headers["Location"].rsplit("/", 1)[1]
    staff.sign_in_pupil(client, school_class.code, "Ada")
    run_id = run_id_in(client.post(f"/homework/{assignment_id}/start").headers["Location"])
    client.post(f"/runs/{run_id}/skip-intro")
    for _ in range(30):
        run = LessonRun.from_dict(run_record(app, run_id).data)
        state = run.game_state()
        if run.drill.question is None and state.current_player == PUPIL and state.phase == "play":
            wrong = [x for x in state.hands[PUPIL] if x not in state.playable(PUPIL)]
            if wrong:
                client.post(f"/runs/{run_id}/move", data={"move": move_token(Move("play", PUPIL, (wrong[0],)))})
                break
        take_a_step(client, run_id, run)
    grid = teacher.get(f"/teacher/classes/{school_class.public_id}/grid.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(grid)))
    column = rows[0].index("Odd, even, low, high: level")
    assert rows[1][column] not in ("", "not started"), rows


@pytest.mark.parametrize(
    "options, rule", [({}, "at most one attribute"), ({"fallback_rule": AT_LEAST_ONE}, "at least one")]
)
def test_the_intro_teaches_on_the_real_deal_and_says_the_options_rule_when_no_card_fits(options, rule):
    run = LessonRun.start(LESSON, 2, options, ["beginner"], 5, now_ms=0)
    state = run.game_state()
    steps = [say(LESSON.intro_text(step, state, PUPIL)) for step in range(len(LESSON.intro_steps()))]
    last = card(state.last).corner
    assert any(rule in step and f"shares nothing with {last}" in step for step in steps)
    assert any(step.startswith(say(attributes(state.last))) for step in steps)
    assert steps[-1].endswith("Let's play!") and "4 rounds" in steps[-1]
