"""Every game's lesson, played to its end by the pure lesson runner, in every locale.

The pupil makes the first move offered (or types the sum of two card values in
TripleSmart) and answers every question from the answer key: each answer must be marked
right, every question must round-trip, and the lesson must reach its end.
"""

from __future__ import annotations

import pytest

from tutor.answer_key import right_answer
from tutor.deck import kids2
from tutor.engine import GAMES
from tutor.lessons import LESSONS
from tutor.lessons.runner import FINISHED, PUPIL, LessonRun
from tutor.signs import FRACTION, format_number
from tutor.text import LOCALES, say

DECK = kids2()


def pupil_moves(lesson, run, now):
    state = run.game_state()
    if lesson.typed_move:
        mine = [DECK[c].top for c in state.turned[PUPIL] if not DECK[c].is_special]
        run.typed_move(" + ".join(map(str, mine[:2])), "en", lesson, {}, now)
    else:
        choices = lesson.choices(state, PUPIL)
        run.move(choices[now % len(choices)].token, lesson, {}, now)


@pytest.mark.parametrize(
    "game_id,players",
    [(g, n) for g in sorted(LESSONS) for n in (2, 3, 4) if GAMES[g].min_players <= n <= GAMES[g].max_players],
)
def test_a_whole_lesson_is_played_with_every_answer_right(game_id, players):
    lesson = LESSONS[game_id]
    run = LessonRun.start(lesson, players, {}, ["beginner", "strong"], seed=players * 7, now_ms=0)
    run.skip_intro(lesson, {}, 0)
    asked = set()
    for step in range(1, 3000):
        if run.stage == FINISHED:
            break
        question = run.current_question()
        if question and run.drill.open:
            locale = LOCALES[step % len(LOCALES)]
            assert type(question).from_dict(question.to_dict()) == question
            attempt = run.answer(right_answer(question.to_dict(), locale), locale, step)
            assert attempt.correct, (question.kind, question.check, attempt.read_as, locale)
            asked.add(question.kind)
        elif question:
            run.close_question(lesson, {}, step)
        else:
            pupil_moves(lesson, run, step)
        assert lesson.scoreboard(run.game_state(), PUPIL) and lesson.table(run.game_state(), PUPIL)
    assert run.stage == FINISHED, f"{game_id} with {players} players did not end"
    assert asked, f"{game_id} asked no question in a whole game"
    assert lesson.finish_story(run.game_state(), PUPIL)


def test_after_a_triplesmart_round_the_best_reachable_value_and_an_expression_are_shown():
    lesson = LESSONS["triplesmart-extreme"]
    run = LessonRun.start(lesson, 2, {}, ["strong"], seed=5, now_ms=0)
    run.skip_intro(lesson, {}, 0)
    while run.game_state().rounds == 0:
        pupil_moves(lesson, run, 1)
    story = lesson.round_story(run.game_state(), PUPIL, run.recent_moves())
    best = next(line for line in story if line.msgid == lesson.content()["narration"]["best_reachable"])
    battle = run.game_state().last_round["battles"][-1]["players"][str(PUPIL)]
    assert say(best.params["value"], "en") == format_number(battle["best_value"], "en", FRACTION)
    expression = say(best.params["expression"], "en")
    assert "*" not in expression and "/" not in expression


def test_the_crazy_banana_extreme_intro_lists_the_primes_to_200():
    lesson = LESSONS["crazy-banana-extreme"]
    run = LessonRun.start(lesson, 2, {}, ["beginner"], seed=1, now_ms=0)
    texts = [lesson.intro_text(step, run.game_state(), PUPIL) for step in range(len(lesson.intro_steps()))]
    listed = next(text.params["primes"] for text in texts if "primes" in text.params)
    assert listed.startswith("2, 3, 5, 7") and listed.endswith("193, 197, 199") and listed.count(",") == 45


@pytest.mark.parametrize(
    ("game_id", "players", "winners", "key", "names"),
    [
        ("calculation-war", 4, [0], "finished_you", []),
        ("calculation-war", 4, [3], "finished_other", ["Computer 3"]),
        ("calculation-war", 4, [1, 3], "finished_others", ["Computer 1", "Computer 3"]),
        ("crazy-banana-tiervenner", 4, [0, 2], "finished_draw", ["Computer 2"]),
        ("crazy-banana-overslag", 3, [2, 1], "finished_others", ["Computer 2", "Computer 1"]),
        ("fraction-master", 4, [0, 2], "finished_team", []),  # partners: the pupil and Computer 2
        ("fraction-master", 4, [1, 3], "finished_others", ["Computer 1", "Computer 3"]),
    ],
)
def test_the_end_of_a_game_names_every_winner(game_id, players, winners, key, names):
    from types import SimpleNamespace

    lesson = LESSONS[game_id]
    state = SimpleNamespace(game=SimpleNamespace(players=players), ended_by=None, winners=lambda: winners)
    [line] = lesson.finish_story(state, PUPIL)
    assert line.msgid == lesson.content()["narration"][key]
    said = say(line, "en")
    for name in names:
        assert name in said, said
