"""What the lessons' drill points ask, when and how often: about what is on the table, at a steady pace.

Every game is played through the runner; at each question the page's table (the lesson's
:meth:`shown_while_asking`) must hold the cards the question asks about, in the round being
played, never only under "Last round" or in the next round's place (TripleSmart: Extreme
asked about the last target under the next; Calculation War showed "no card yet"). A War
game's lesson of 10 rounds asks the kinds of its table below, and every game asks 6 to 12
questions per 10 rounds (``bench/pace.py`` measures the same).
"""

from __future__ import annotations

import importlib.util
import random
import sys

import pytest

from tutor import ROOT
from tutor.answer_key import right_answer, wrong_answer
from tutor.deck import kids2
from tutor.engine import GAMES
from tutor.engine.play import bot_rng, make_bots
from tutor.lessons import LESSONS
from tutor.lessons.base import move_token
from tutor.lessons.runner import FINISHED, PUPIL, LessonRun
from tutor.standard_deck import card, rank_corner
from tutor.text import say

#: The questions whose prompt names the standard cards it asks about by their corner ("Q", "7").
NAMES_EVERY_CARD = {"compare_ranks", "rank_difference", "special_rank_rule"}
NAMES_FIRST_CARD = {"least_waste_card", "unseen_beat_count"}


def lesson_questions(game_id: str, players: int, seed: int, levels: dict | None = None):
    """Each question a lesson opens, with the run as it stands then (the pupil moves like a beginner computer)."""
    lesson = LESSONS[game_id]
    levels = levels or {}
    run = LessonRun.start(lesson, players, {}, ["strong", "beginner"], seed, now_ms=0)
    pupil = make_bots(run.game, ["beginner"])[PUPIL]
    answers = random.Random(seed)
    run.skip_intro(lesson, levels, 0)
    for step in range(1, 4000):
        if run.stage == FINISHED:
            return
        question = run.current_question()
        if question is not None and run.drill.open:
            if run.drill.tries == 0:
                yield run, question
            wrong = wrong_answer(run.drill.question, "en") if run.drill.tries == 0 and answers.random() < 0.3 else None
            run.answer(wrong or right_answer(run.drill.question, "en"), "en", step)
        elif question is not None:
            run.close_question(lesson, levels, step)
        else:
            state = run.game_state()
            move = pupil.choose(state.player_view(PUPIL), state.legal_moves(), bot_rng(seed, len(run.moves)))
            run.move(move_token(move), lesson, levels, step)
    raise AssertionError(f"{game_id} did not finish")


def cards_shown(zones, keys=None) -> set[int]:
    return {
        c for zone in zones if keys is None or zone.key in keys for row in zone.rows for c in row.cards if c is not None
    }


@pytest.mark.parametrize("game_id", sorted(LESSONS))
def test_a_question_is_asked_while_its_cards_are_on_the_table_before_the_next_round(game_id):
    """The cards a question asks about lie on the table of the round being played (or in the pupil's hand); a
    question about a decided round shows that round on the table, its round line on the scoreboard, and nothing
    of the next round: no "Last round" beside an empty table, no next target."""
    lesson = LESSONS[game_id]
    asked = 0
    for players, seed in ((2, 3), (3, 4)):
        if not GAMES[game_id].min_players <= players <= GAMES[game_id].max_players:
            continue
        for run, question in lesson_questions(game_id, players, seed):
            asked += 1
            state = run.game_state()
            shown = lesson.shown_while_asking(state, PUPIL, question)
            on_table = cards_shown([zone for zone in shown.zones if zone.key != "last-round"])
            hand = set(state.player_view(PUPIL).get("hand", []))
            assert set(question.cards) <= on_table | hand, (game_id, question.kind, question.cards)
            if not question.about_round:
                continue
            assert all(zone.key != "last-round" for zone in shown.zones), (game_id, question.kind)
            in_round = cards_shown(shown.zones, {"this-round", "target"})
            assert set(question.cards) <= in_round | hand, (game_id, question.kind)
            line = shown.scoreboard[0]
            if "n" in line.params and game_id != "tod-und-leben":  # Tod und Leben's line counts deals of 16 tricks
                assert line.params["n"] == question.about_round, (game_id, question.kind, say(line))
            target = next((zone for zone in shown.zones if zone.key == "target"), None)
            if target is not None:  # TripleSmart: the target the question names, not the next round's
                assert target.rows[0].name.params["target"] == question.hints[0].params["target"]
    assert asked, game_id


@pytest.mark.parametrize("game_id", sorted(LESSONS))
def test_a_questions_text_names_the_cards_it_asks_about(game_id):
    for _, question in lesson_questions(game_id, 2, 5, {"compare": 2, "count": 2}):
        prompt = say(question.prompt, "en")
        assert "not enough" not in prompt and "are close" not in prompt, prompt  # no verdict before an estimate
        if question.kind in NAMES_EVERY_CARD | NAMES_FIRST_CARD:
            named = question.cards if question.kind in NAMES_EVERY_CARD else question.cards[:1]
            for card_id in named:
                assert rank_corner(card(card_id).rank) in prompt, (question.kind, prompt)
        if question.kind == "exact_card_sum":
            assert ", ".join(map(str, kids2()[question.cards[0]].circled)) in prompt, prompt
        if "target" in question.hints[0].params and question.kind.startswith("triplesmart"):
            assert str(question.hints[0].params["target"]) in prompt


#: What a War game's lesson of 10 rounds asks a pupil at the middle level: (players, seed) and the kinds asked.
WAR_LESSONS = {
    "war": ((2, 2), {"rank_difference", "cards_on_table", "winner_takes", "cards_ahead", "war_cards"}),
    "joker-war": (
        (3, 5),
        {"rank_difference", "cards_on_table", "winner_takes", "cards_ahead", "war_cards", "special_rank_rule"},
    ),
    "two-deck-war": ((2, 1), {"rank_difference", "cards_on_table", "winner_takes", "cards_ahead", "war_cards"}),
    "pyanitsa": ((3, 5), {"rank_difference", "cards_on_table", "winner_takes", "cards_ahead", "special_rank_rule"}),
    "razboiul": (
        (3, 2),
        {
            "rank_difference",
            "cards_on_table",
            "winner_takes",
            "cards_ahead",
            "razboiul_war_cards",
            "razboiul_picture_war_cards",
        },
    ),
    "tod-und-leben": ((2, 1), {"rank_difference", "cards_on_table", "winner_takes", "cards_ahead"}),
    "steal-war": ((3, 1), {"rank_difference", "cards_on_table", "winner_takes", "cards_ahead", "war_cards"}),
    "strategy-war": (
        (2, 1),
        {"rank_difference", "winner_takes", "cards_ahead", "least_waste_card", "unseen_beat_count"},
    ),
    "casino-war": (
        (2, 1),
        {"probability_tie", "casino_house_edge", "casino_expected_loss", "probability_tie_bet", "rank_difference"},
    ),
}


@pytest.mark.parametrize("game_id", sorted(WAR_LESSONS))
def test_a_war_games_lesson_of_10_rounds_asks_more_than_which_card_is_higher(game_id):
    (players, seed), kinds = WAR_LESSONS[game_id]
    levels = {"compare": 2, "count": 2, "probability": 2, "add_sub": 2}
    asked = [question.kind for _, question in lesson_questions(game_id, players, seed, levels)]
    assert set(asked) == kinds, (game_id, asked)
    assert 6 <= len(asked) <= 12 or game_id == "tod-und-leben" and len(asked) <= 16  # its lesson is 16 tricks
    youngest = [q.kind for _, q in lesson_questions(game_id, players, seed, {"compare": 1, "count": 1})]
    assert set(youngest) - {"compare_ranks"}  # which card is higher stays for the youngest, never alone


def pace_bench():
    """bench/pace.py as a module (the bench is a script, not a package)."""
    spec = importlib.util.spec_from_file_location("bench_pace", ROOT / "bench" / "pace.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_every_game_and_player_count_asks_6_to_12_questions_per_10_rounds():
    pace = pace_bench()
    for row in pace.measure(LESSONS, 4, 0.8, "strong"):
        assert 6 <= row.per_10_rounds <= 12, row.summary()
        assert all(lesson.after_right == 0 for lesson in row.lessons), row.summary()  # one between two moves
