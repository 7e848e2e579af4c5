"""The lesson runner: intro on a real deal, drill points, answers, hourglass and clock; pure and replayable."""

from __future__ import annotations

import json
import random
from dataclasses import asdict

import pytest

from tests.answer_key import accepted_move
from tutor.answer_key import right_answer, wrong_answer
from tutor.drills import Question
from tutor.drills.compare import compare_ranks
from tutor.drills.estimate_sum import best_card
from tutor.drills.exact_sum import exact_card_sum
from tutor.drills.primes import prime_is_prime
from tutor.engine import GAMES
from tutor.engine.play import bot_rng, make_bots
from tutor.lessons import LESSONS
from tutor.lessons.base import move_token
from tutor.lessons.runner import FINISHED, INTRO, PLAY, PUPIL, LessonError, LessonRun, tries_allowed
from tutor.standard_deck import ACE
from tutor.standard_deck import card_id as standard_card

LESSON = LESSONS["calculation-war"]


def started(seed=7, options=None, players=2, bots=("beginner",)):
    return LessonRun.start(LESSON, players, options or {}, list(bots), seed, now_ms=0)


def right(question):
    return right_answer(question, "en")


def play_lesson(run, answer=right, now=0, max_steps=500):
    """A pupil who answers every question with ``answer`` and lays their first card the rules allow."""
    kinds = []
    run.skip_intro(LESSON, {}, now)
    for _ in range(max_steps):
        if run.stage == FINISHED:
            return kinds
        now += 1000
        question = run.current_question()
        if question and run.drill.open:
            kinds.append(question.kind)
            run.answer(answer(question), "en", now)
        elif question:
            run.close_question(LESSON, {}, now)
        else:
            run.move(move_token(accepted_move(LESSON, run.game_state())), LESSON, {}, now)
    raise AssertionError("the lesson did not finish")


def test_the_intro_is_taught_on_a_dealt_hand():
    run = started()
    assert run.stage == INTRO and len(run.game_state().hands[0]) == 5
    text = LESSON.intro_text(1, run.game_state(), 0)
    card = min(run.game_state().hands[0])
    assert text.params["example_sum"] == sum(__import__("tutor.deck", fromlist=["kids2"]).kids2()[card].circled)
    for _ in range(len(LESSON.intro_steps()) - 1):
        run.next_intro(LESSON, {}, 0)
        assert run.stage == INTRO
    run.next_intro(LESSON, {}, 0)
    assert run.stage == PLAY


def test_a_whole_lesson_ends_and_asks_every_kind_of_question():
    run = started(seed=3)
    kinds = play_lesson(run)
    state = run.game_state()
    assert state.is_over and state.rounds == 10
    assert {"estimate_card_sum", "best_card", "winning_card"} <= set(kinds)


def test_close_sums_ask_for_the_exact_sum_somewhere_in_a_few_lessons():
    kinds = set()
    for seed in range(8):
        kinds |= set(play_lesson(started(seed=seed)))
    assert "exact_card_sum" in kinds


def test_the_same_seed_and_the_same_actions_give_the_same_lesson():
    first, second = started(seed=11), started(seed=11)
    play_lesson(first)
    play_lesson(second)
    assert first.to_dict() == second.to_dict()


def wrong(question):
    return wrong_answer(question, "en")


def pupil_step(run, now):
    """Wrong at the first try of every question, then right; lays the first card the lesson accepts."""
    question = run.current_question()
    if question and run.drill.open:
        return run.answer(wrong(question) if run.drill.tries == 0 else right(question), "en", now)
    if question:
        return run.close_question(LESSON, {}, now)
    return run.move(move_token(accepted_move(LESSON, run.game_state())), LESSON, {}, now)


def held(run) -> dict:
    """Everything the run holds, its named parts included, as plain JSON data."""
    return json.loads(json.dumps(asdict(run)))


def test_a_run_survives_a_round_trip_through_a_dict_at_every_step():
    """Rebuilt from its stored dict before every step (as every request does), a run plays like one kept in memory."""
    kept = started(seed=5)
    kept.skip_intro(LESSON, {}, 0)
    stored, attempts = json.loads(json.dumps(kept.to_dict())), []
    for now in range(1000, 1_000_000, 1000):
        if kept.stage == FINISHED:
            break
        reloaded = LessonRun.from_dict(stored)
        attempt = pupil_step(kept, now)
        assert pupil_step(reloaded, now) == attempt, now  # the same answer, first try or not, the same time taken
        stored = json.loads(json.dumps(reloaded.to_dict()))
        assert held(LessonRun.from_dict(stored)) == held(kept), now
        attempts.append(attempt)
    assert kept.stage == FINISHED
    assert any(
        a and not a.first_try and a.correct for a in attempts
    )  # right after a wrong first try: the retry counter was kept


def test_a_stored_dict_does_not_change_when_the_run_plays_on():
    """The web layer keeps the dict it saved; later steps change the run's lists in place, never the saved copy."""
    run = started(seed=5)
    run.skip_intro(LESSON, {}, 0)
    saved = run.to_dict()
    frozen = json.loads(json.dumps(saved))
    for now in range(1000, 40_000, 1000):
        if run.stage == FINISHED:
            break
        pupil_step(run, now)
    assert run.moves != frozen["moves"] and saved == frozen


def test_wrong_then_right_answers_make_two_attempts_but_only_the_first_counts_for_the_skill():
    run = started(seed=2)
    run.skip_intro(LESSON, {}, 0)
    while run.current_question() is None:
        run.move(f"play:{min(run.game_state().hands[0])}:", LESSON, {}, 0)
    question = run.current_question()
    wrong = (
        next(c["value"] for c in question.choices if c["value"] not in question.check["expected"])
        if question.answer == "choice"
        else "1"
    )
    first = run.answer(wrong, "en", 4000)
    assert first.first_try and not first.correct and first.time_ms == 4000
    second = run.answer(right(question), "en", 6000)
    assert second.correct and not second.first_try and second.time_ms == 2000
    assert not run.drill.open


def test_an_unreadable_answer_is_not_a_try():
    run = started(seed=2)
    run.skip_intro(LESSON, {}, 0)
    while run.current_question() is None:
        run.move(f"play:{min(run.game_state().hands[0])}:", LESSON, {}, 0)
    attempt = run.answer("seventeen", "en", 100)
    assert not attempt.readable and not attempt.first_try and run.drill.tries == 0 and run.drill.open


def test_steps_that_do_not_fit_are_refused():
    run = started()
    with pytest.raises(LessonError):
        run.move(f"play:{min(run.game_state().hands[0])}:", LESSON, {}, 0)
    with pytest.raises(LessonError):
        run.answer("3", "en", 0)
    with pytest.raises(LessonError):
        run.hint()
    run.skip_intro(LESSON, {}, 0)
    with pytest.raises(LessonError):
        run.next_intro(LESSON, {}, 0)
    while run.current_question() is None:
        run.move(f"play:{min(run.game_state().hands[0])}:", LESSON, {}, 0)
    with pytest.raises(LessonError):
        run.move(f"play:{min(run.game_state().hands[0])}:", LESSON, {}, 0)
    with pytest.raises(LessonError):
        run.move("play:9999:", LESSON, {}, 0)


def test_hints_are_graded_and_stop_at_the_last():
    run = started(seed=2)
    run.skip_intro(LESSON, {}, 0)
    while run.current_question() is None:
        run.move(f"play:{min(run.game_state().hands[0])}:", LESSON, {}, 0)
    hints = run.current_question().hints
    shown = [run.hint() for _ in range(len(hints) + 2)]
    assert shown[: len(hints)] == hints and run.drill.hints_shown == len(hints)
    run.show_solution()
    assert run.drill.solution_shown and not run.drill.open


def asked_now(question):
    """A lesson in play with ``question`` open, as a drill point would ask it."""
    run = started(seed=2)
    run.skip_intro(LESSON, {}, 0)
    while run.drill.question is not None:
        run.close_question(LESSON, {}, 0)
    run.drill.ask(question.to_dict(), 0)
    return run


def wrong_values(question) -> list[str]:
    return [c["value"] for c in question.choices if c["value"] not in question.check["expected"]]


def test_a_choice_of_four_or_more_stays_open_after_one_wrong_try_and_closes_after_the_second():
    question = best_card(sorted(started(seed=2).game_state().hands[0]))
    assert len(question.choices) >= 4
    run = asked_now(question)
    wrongs = wrong_values(question)
    first = run.answer(wrongs[0], "en", 1000)
    assert first.first_try and not first.correct and run.drill.open and run.drill.tries == 1
    assert run.hint() == question.hints[0]  # still open: a hint helps the second try
    second = run.answer(wrongs[1], "en", 2000)
    assert not second.first_try and not second.correct and not run.drill.open and run.drill.tries == 2
    assert run.drill.solution_shown  # the right answer with its reason
    with pytest.raises(LessonError):
        run.answer(question.check["expected"][0], "en", 3000)


@pytest.mark.parametrize(
    "question",
    [
        prime_is_prime(9, 1),  # yes or no
        compare_ranks([standard_card(ACE, "S"), standard_card(7, "H")], 1),  # one of two cards
        compare_ranks([standard_card(ACE, "S"), standard_card(7, "H")], 2),  # one of two cards, or a tie
    ],
    ids=["yes-no", "two-cards", "two-cards-or-a-tie"],
)
def test_a_choice_of_two_or_three_closes_after_its_first_wrong_answer_and_shows_the_right_one_with_its_reason(
    question,
):
    """A second try would pick between at most two: a coin toss that would look like knowing."""
    assert len(question.choices) in (2, 3)
    run = asked_now(question)
    attempt = run.answer(wrong_values(question)[0], "en", 1000)
    assert attempt.first_try and not attempt.correct and attempt.choices == len(question.choices)
    assert not run.drill.open and run.drill.tries == 1 and run.drill.solution_shown
    with pytest.raises(LessonError):
        run.answer(question.check["expected"][0], "en", 2000)


@pytest.mark.parametrize("options,tries", [(2, 1), (3, 1), (4, 2), (5, 2), (9, 2)])
def test_a_choice_allows_a_second_try_only_while_three_options_are_left_untried(options, tries):
    question = Question.from_dict(
        {
            **prime_is_prime(9).to_dict(),
            "choices": [{"value": str(n), "label": {"msgid": str(n)}} for n in range(options)],
        }
    )
    assert tries_allowed(question) == tries
    assert tries_allowed(exact_card_sum(min(started().game_state().hands[0]))) == 5  # a typed answer


def test_a_second_two_option_question_of_one_kind_in_a_row_is_not_asked_and_costs_the_pace_nothing():
    run = asked_now(prime_is_prime(9, 1))  # yes or no
    run.answer("yes", "en", 1000)  # wrong: the lesson's follow-up may come in this gap
    run.drill.close()
    credit, gap = run.pace.credit, (run.pace.gap, run.pace.asked_in_gap)
    run._ask([prime_is_prime(15, 1), prime_is_prime(21, 2)], 2000)  # yes or no again, twice
    assert run.drill.question is None and not run.drill.queued
    assert run.pace.follow_up_allowed and run.pace.credit == credit and (run.pace.gap, run.pace.asked_in_gap) == gap
    other = compare_ranks([standard_card(ACE, "S"), standard_card(7, "H")], 1)  # two options of another kind
    run._ask([prime_is_prime(15, 1), other], 3000)
    assert run.current_question() == other and run.drill.two_option_kind == "compare_ranks"
    run.answer(wrong_values(other)[0], "en", 4000)
    run.drill.close()
    run._ask([prime_is_prime(15, 1)], 5000)  # not in a row any more
    assert run.current_question().kind == "prime_is_prime"


def asked_in_order(game_id: str, players: int, seed: int) -> list[tuple[str, int]]:
    """Every question a whole lesson asks, in order, with its number of buttons; answered wrong at first, then
    right."""
    lesson = LESSONS[game_id]
    run = LessonRun.start(lesson, players, {}, ["beginner"], seed, now_ms=0)
    asked, now = [], 0
    run.skip_intro(lesson, {}, now)
    while run.stage != FINISHED:
        now += 1000
        question = run.drill.question
        if question is not None and run.drill.open:
            if run.drill.tries == 0:
                asked.append((question["kind"], len(question["choices"])))
            wrong = wrong_answer(question, "en")
            run.answer(wrong if run.drill.tries == 0 and wrong else right_answer(question, "en"), "en", now)
        elif question is not None:
            run.close_question(lesson, {}, now)
        else:
            run.move(move_token(accepted_move(lesson, run.game_state())), lesson, {}, now)
    return asked


@pytest.mark.parametrize("game_id", sorted(LESSONS))
def test_no_lesson_asks_two_two_option_questions_of_one_kind_in_a_row(game_id):
    asked = asked_in_order(game_id, 2 if GAMES[game_id].min_players <= 2 else GAMES[game_id].min_players, 1)
    for before, after in zip(asked, asked[1:]):
        assert not (before == after and before[1] == 2), (game_id, asked)


def test_a_typed_question_stays_open_until_it_is_answered_right():
    run = started(seed=2)
    run.skip_intro(LESSON, {}, 0)
    question = exact_card_sum(min(run.game_state().hands[0]))
    run.drill.question, run.drill.open, run.drill.tries = question.to_dict(), True, 0
    for tries in range(1, 4):
        assert not run.answer("100000", "en", tries * 1000).correct
        assert run.drill.open and run.drill.tries == tries
    assert run.answer(right(question), "en", 5000).correct and not run.drill.open


def test_the_hourglass_gives_turn_seconds_counted_in_milliseconds():
    start = 1_000_000
    run = LessonRun.start(LESSON, 2, {"turn_seconds": 30}, ["beginner"], 7, now_ms=start)
    run.skip_intro(LESSON, {}, start + 4_000)  # the pupil's first turn begins now
    assert run.turn.started_ms == start + 4_000
    while run.drill.question is not None:
        run.close_question(LESSON, {}, start + 9_000)  # the turn begins again after the question
    turn_start = run.turn.started_ms
    assert turn_start in (start + 4_000, start + 9_000)
    moves = len(run.moves)
    assert not run.hourglass_ran_out(LESSON, {}, turn_start + 29_999) and len(run.moves) == moves
    assert run.hourglass_ran_out(LESSON, {}, turn_start + 30_000) and len(run.moves) > moves


def test_the_playing_time_limit_counts_minutes_in_milliseconds():
    start = 1_000_000
    run = LessonRun.start(LESSON, 2, {"time_limit_minutes": 1, "round_limit": 0}, ["beginner"], 7, now_ms=start)
    run.skip_intro(LESSON, {}, start)
    for now in (start + 59_999, start + 60_000):  # a round decided just before the minute is up, then one at the minute
        rounds = run.game_state().rounds
        while run.game_state().rounds == rounds and not run.game_state().is_over:
            if run.drill.question is not None:
                run.close_question(LESSON, {}, now)
            else:
                run.move(move_token(accepted_move(LESSON, run.game_state())), LESSON, {}, now)
        state = run.game_state()
        assert state.is_over == (now == start + 60_000), now
    assert state.ended_by == "time_limit"


def test_the_hourglass_lays_a_card_when_time_runs_out():
    run = started(options={"turn_seconds": 30})
    run.skip_intro(LESSON, {}, 0)
    while run.drill.question is not None:
        run.close_question(LESSON, {}, 0)
    moves = len(run.moves)
    assert not run.hourglass_ran_out(LESSON, {}, 29_000)
    assert run.hourglass_ran_out(LESSON, {}, 31_000)
    assert len(run.moves) > moves


def test_the_playing_time_limit_ends_the_game_at_a_round_boundary():
    run = started(options={"time_limit_minutes": 1, "round_limit": 0})
    run.skip_intro(LESSON, {}, 0)
    while run.drill.question is not None:
        run.close_question(LESSON, {}, 0)
    run.move(f"play:{min(run.game_state().hands[0])}:", LESSON, {}, 61_000)
    while run.drill.question is not None:
        run.close_question(LESSON, {}, 61_000)
    state = run.game_state()
    assert state.is_over and state.ended_by == "time_limit" and run.stage == FINISHED


def test_four_players_play_in_teams_with_a_computer_partner():
    run = started(players=4, bots=("strong",))
    play_lesson(run)
    assert run.game_state().winners() in ([0, 2], [1, 3])


# --- pace ---------------------------------------------------------------------------------------


def paced_lesson(game_id, players, seed, wrong_share):
    """A lesson played by a pupil who moves like a beginner computer and answers wrong at first with chance
    ``wrong_share``.

    Returns the pupil's turns and, per gap between two of the pupil's moves, whether each
    question asked in it got a wrong first answer.
    """
    lesson = LESSONS[game_id]
    run = LessonRun.start(lesson, players, {}, ["strong", "beginner"], seed, now_ms=0)
    pupil = make_bots(run.game, ["beginner"])[PUPIL]
    chance = random.Random(seed)
    gaps, now = [[]], 0
    run.skip_intro(lesson, {}, now)
    while run.stage != FINISHED:
        now += 1000
        question = run.drill.question
        if question is not None and run.drill.open:
            wrong = wrong_answer(question, "en")
            give_wrong = run.drill.tries == 0 and wrong is not None and chance.random() < wrong_share
            attempt = run.answer(wrong if give_wrong else right_answer(question, "en"), "en", now)
            if attempt.first_try:
                gaps[-1].append(not attempt.correct)
        elif question is not None:
            run.close_question(lesson, {}, now)
        else:
            state = run.game_state()
            run.move(
                move_token(pupil.choose(state.player_view(PUPIL), state.legal_moves(), bot_rng(seed, len(run.moves)))),
                lesson,
                {},
                now,
            )
            gaps.append([])
    turns, previous = 0, None
    for move in run.moves:
        if move["player"] >= 0:
            turns += move["player"] == PUPIL and previous != PUPIL
            previous = move["player"]
    return turns, gaps


@pytest.mark.parametrize("game_id", sorted(LESSONS))
def test_the_pace_holds_in_every_game_one_question_between_two_moves_unless_an_answer_was_wrong(game_id):
    rate = LESSONS[game_id].questions_per_turn
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        if not GAMES[game_id].min_players <= players <= GAMES[game_id].max_players:
            continue
        turns, gaps = paced_lesson(game_id, players, seed, wrong_share=0.3)
        for gap in gaps:
            for before, _ in zip(gap, gap[1:]):
                assert before, (game_id, players, seed, gap)  # a second question only after a wrong answer
        first_questions = sum(1 for gap in gaps if gap)
        assert first_questions <= 1 + rate * turns, (game_id, players, turns, first_questions)
        assert first_questions, (game_id, players)


def test_a_wrong_answer_keeps_the_lessons_follow_up_question():
    follow_ups = 0
    for seed in range(4):
        _, gaps = paced_lesson("calculation-war", 2, seed, wrong_share=1.0)
        follow_ups += sum(1 for gap in gaps if len(gap) > 1)
    assert follow_ups  # after a wrong answer the next offered question is asked in the same gap


def test_a_typed_question_closes_with_its_worked_solution_after_five_wrong_tries():
    from tests.test_progress import open_question

    run = open_question("estimate_card_sum")
    assert run.drill.question["answer"] != "choice"
    for tries in range(1, 6):
        run.answer("my name is Ada", "en", tries * 1000 - 500)  # unreadable: not a try
        assert run.drill.open and not run.drill.solution_shown, tries
        run.answer(wrong_answer(run.drill.question, "en"), "en", tries * 1000)
    assert run.drill.tries == 5 and not run.drill.open and run.drill.solution_shown
    with pytest.raises(LessonError):
        run.answer(wrong_answer(run.drill.question, "en"), "en", 9000)


class LooksBackLesson(type(LESSON)):
    """A lesson whose every round review offers one question about round 1 again."""

    def after_round(self, game_state, pupil, rng, levels):
        question = exact_card_sum(min(game_state.hands[pupil] or [1]))
        question.about_round = 1
        return [question]


def test_a_round_reviewed_before_is_not_asked_about_again():
    lesson = LooksBackLesson()
    run = LessonRun.start(lesson, 2, {}, ["beginner"], 5, now_ms=0)
    run.skip_intro(lesson, {}, 0)
    about_first_round, now = 0, 0
    while run.stage != FINISHED:
        now += 1000
        question = run.current_question()
        if question and run.drill.open:
            about_first_round += question.about_round == 1
            run.answer(right(question), "en", now)
        elif question:
            run.close_question(lesson, {}, now)
        else:
            run.move(move_token(accepted_move(lesson, run.game_state())), lesson, {}, now)
    assert run.rounds_reviewed >= 3 and about_first_round <= 1
