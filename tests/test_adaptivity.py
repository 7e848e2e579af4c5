"""The pupil's skill levels set how hard the next questions are: in every game, and through the web layer.

The web layer chooses a level (1 to 3) per skill for the pupil (:func:`tutor.skill_model.progress.choose_levels`,
tested with hand-worked figures in tests/test_progress.py). A pupil given the easiest level
in every skill and one given the hardest play the same deal: every question asked must have
the level chosen for its own skill.
"""

from __future__ import annotations

import json
import random

import pytest
from sqlalchemy import select

from tests.answer_key import accepted_move
from tests.conftest import Guest, run_record
from tutor import classroom
from tutor.answer_key import right_answer, wrong_answer
from tutor.checks import exact
from tutor.deck import kids2
from tutor.drills import Question
from tutor.drills.estimate_sum import TOLERANCE, estimate_card_sum
from tutor.drills.mean import MEAN_TOLERANCE, mean_estimate
from tutor.engine import GAMES, Move
from tutor.lessons import LESSONS
from tutor.lessons.base import move_token
from tutor.lessons.runner import FINISHED, PUPIL, Drill, LessonRun
from tutor.models import Pupil, SkillRecord
from tutor.skill_model.progress import choose_levels
from tutor.skill_model.skills import SKILLS
from tutor.web import db

EASIEST, HARDEST = 1, 3
WEAK, STRONG = dict.fromkeys(SKILLS, EASIEST), dict.fromkeys(SKILLS, HARDEST)

#: Every kind of question each lesson's drill points ask; the walk below must meet them all.
DRILL_KINDS = {
    "calculation-war": {"estimate_card_sum", "best_card", "winning_card", "exact_card_sum"},
    "multimatch": {"multiply_top_numbers", "factor_pair_cards"},
    "crazy-banana-overslag": {"estimate_card_sum", "exact_card_sum"},
    "crazy-banana-tiervenner": {"tens_friend_number", "tens_friend_card"},
    "crazy-banana-extreme": {"estimate_card_sum", "exact_card_sum", "mean_estimate", "mean_exact", "prime_which_sum"},
    "multiwar": {"multiply_top_numbers", "compare_numbers"},
    "triplesmart": {"triplesmart_distance", "triplesmart_better"},
    "triplesmart-extreme": {"triplesmart_extreme_distance", "triplesmart_extreme_better"},
    "fraction-master": {
        "fraction_in_interval",
        "fraction_from_hand",
        "fraction_larger",
        "fraction_order",
        "fraction_equivalent",
    },
    **{
        game_id: {"compare_ranks", "rank_difference", "cards_on_table", "winner_takes", "cards_ahead"}
        for game_id in ("joker-war", "steal-war", "tod-und-leben")
    },
    **{
        game_id: {"compare_ranks", "rank_difference", "cards_on_table", "winner_takes", "cards_ahead", "war_cards"}
        for game_id in ("war", "two-deck-war")
    },
    "pyanitsa": {
        "compare_ranks",
        "rank_difference",
        "cards_on_table",
        "winner_takes",
        "cards_ahead",
        "special_rank_rule",
    },
    "strategy-war": {
        "compare_ranks",
        "rank_difference",
        "winner_takes",
        "cards_ahead",
        "least_waste_card",
        "unseen_beat_count",
        "war_cards",
    },
    "razboiul": {
        "compare_ranks",
        "rank_difference",
        "cards_on_table",
        "winner_takes",
        "cards_ahead",
        "razboiul_short_war_cards",
    },
    "casino-war": {
        "compare_ranks",
        "rank_difference",
        "probability_tie",
        "probability_tie_bet",
        "casino_house_edge",
        "casino_expected_loss",
    },
    "twenty-nine": {"twentynine_missing_value", "twentynine_which_card", "twentynine_number_played", "twentynine_bust"},
    "three-traits": {"rank_parity", "rank_size", "shared_traits", "playable_card"},
    "gnav": {"compare_gnav", "gnav_unseen_higher", "gnav_chance_higher"},
}


def test_every_game_says_which_questions_its_lesson_asks():
    assert sorted(DRILL_KINDS) == sorted(LESSONS)


def pupils(game_id: str) -> list[dict[str, int]]:
    """The weak and the strong pupil, and pupils who know some of the game's skills and not the others.

    Pupil ``b`` knows the skills whose place in the game's list has bit ``b`` set, so any two
    of the game's skills differ for one of them: a drill point that reads another skill's
    level than its question's is caught.
    """
    game_skills = classroom.game_skills(game_id)
    mixed = [
        {**WEAK, **{skill: HARDEST for place, skill in enumerate(game_skills) if place >> bit & 1}}
        for bit in range((len(game_skills) - 1).bit_length())
    ]
    return [WEAK, STRONG, *mixed]


def played(game_id: str, levels: dict, players: int = 2, seed: int = 7) -> tuple[LessonRun, list[Question]]:
    """A whole lesson through the runner for a pupil with ``levels``; the questions asked.

    The pupil first gives a wrong answer where one is easy to give, then the right one: a
    wrong answer lets one more question follow, which is made when the pupil goes on.
    """
    lesson = LESSONS[game_id]
    run = LessonRun.start(lesson, players, {}, ["beginner"], seed, now_ms=0)
    run.skip_intro(lesson, levels, 0)
    asked = []
    for step in range(1, 3000):
        if run.stage == FINISHED:
            return run, asked
        question = run.current_question()
        if question and run.drill.open:
            if not run.drill.tries:
                asked.append(question)
            wrong = wrong_answer(run.drill.question, "en") if not run.drill.tries else None
            run.answer(wrong or right_answer(run.drill.question, "en"), "en", step)
        elif question:
            run.close_question(lesson, levels, step)
        else:
            pupil_moves(run, lesson, levels, step)
    raise AssertionError(f"{game_id} did not end")


def pupil_moves(run: LessonRun, lesson, levels: dict, now: int) -> None:
    """The pupil's move as the lesson page makes it: typed, picked card by card, or one button."""
    if lesson.typed_move:
        tops = [kids2()[c].top for c in run.game_state().turned[PUPIL] if not kids2()[c].is_special]
        run.typed_move(" + ".join(map(str, tops[:2])), "en", lesson, levels, now)
        return
    move = accepted_move(lesson, run.game_state())
    if lesson.picks_cards and move.cards and not move.detail:  # a special card's colour is a button of its own
        for card in move.cards:
            run.pick(card, lesson)
        run.play_picked(lesson, levels, now)
    else:
        run.move(move_token(move), lesson, levels, now)


def without_difficulty(question: Question) -> dict:
    return {**question.to_dict(), "difficulty": None}


@pytest.mark.parametrize("game_id", sorted(LESSONS))
def test_the_runner_passes_the_pupils_levels_to_the_drill_points(game_id, monkeypatch):
    # A level may add a button (a tie from level 2), and a second two-option question of one kind in a row is
    # not asked (tests/test_lesson_runner.py): set that rule aside, so that the same deal asks the same questions.
    monkeypatch.setattr(Drill, "repeats_two_options", lambda drill, question: False)
    _, weak = played(game_id, WEAK)
    _, strong = played(game_id, STRONG)
    # the same deal asks about the same skills at the same points; the youngest may be asked which card is higher
    # where the others are asked by how much
    assert weak and [q.skill for q in weak] == [q.skill for q in strong]
    assert {(w.kind, s.kind) for w, s in zip(weak, strong) if w.kind != s.kind} <= {
        ("compare_ranks", "rank_difference")
    }
    assert {q.difficulty for q in weak} == {EASIEST} and {q.difficulty for q in strong} == {HARDEST}
    assert any(
        without_difficulty(a) != without_difficulty(b) for a, b in zip(weak, strong)
    )  # not only the label differs


def drill_points(game_id: str, run: LessonRun):
    """Every position of a played run at which the runner consults a drill point, with that drill point."""
    lesson = LESSONS[game_id]
    state, rounds = run.game.new_state(), 0
    for index, move in enumerate(run.moves):
        state.apply(Move.from_dict(move))
        if lesson.round_number(state) > rounds:
            rounds = lesson.round_number(state)
            yield index, state, lesson.after_round
        if not state.is_over and state.current_player == PUPIL:
            yield index, state, lesson.before_move


@pytest.mark.parametrize("game_id", sorted(LESSONS))
def test_every_drill_point_asks_at_the_difficulty_of_the_pupils_level_in_the_questions_skill(game_id):
    asked, differs = set(), False
    for players, seed in ((2, 0), (3, 1), (4, 2)):
        if not GAMES[game_id].min_players <= players <= GAMES[game_id].max_players:
            continue
        run, _ = played(game_id, {}, players, seed)
        for index, state, drill_point in drill_points(game_id, run):
            for draw in range(4):  # several draws, so every kind a drill point chooses among comes up
                questions = {}
                for number, levels in enumerate(pupils(game_id)):
                    questions[number] = [
                        q
                        for q in drill_point(state, PUPIL, random.Random(f"{players}:{index}:{draw}"), levels)
                        if q is not None
                    ]
                    for question in questions[number]:
                        assert question.difficulty == levels[question.skill], (
                            question.kind,
                            question.skill,
                            levels[question.skill],
                        )
                        asked.add(question.kind)
                differs |= any(
                    without_difficulty(a) != without_difficulty(b) for a, b in zip(questions[0], questions[1])
                )
    assert asked >= DRILL_KINDS[game_id], f"{game_id} never asked {DRILL_KINDS[game_id] - asked}"
    assert differs


def signed_in_guest(app, name: str, abilities: dict[str, float]) -> tuple[Guest, int]:
    """A guest signed in on a client of their own, with skill records stored at these Elo ``abilities``."""
    guest = Guest(app.test_client())
    guest.sign_in(name)
    with app.app_context():
        database = db.session()
        pupil_id = database.scalar(select(Pupil.id).where(Pupil.name == name))
        for skill, ability in abilities.items():
            database.add(
                SkillRecord(
                    pupil_id=pupil_id,
                    skill=skill,
                    p_known=0.5,
                    attempts=5,
                    correct=3,
                    streak=1,
                    mastery_threshold=0.95,
                    ability=ability,
                    ability_count=5,
                )
            )
        database.commit()
    return guest, pupil_id


def next_form(run: LessonRun) -> tuple[str, dict]:
    """What the pupil posts next: a right answer, going on after it, or a move the lesson accepts."""
    if run.drill.question and run.drill.open:
        return "answer", {"answer": right_answer(run.drill.question, "en")}
    if run.drill.question:
        return "go-on", {}
    return "move", {"move": move_token(accepted_move(LESSONS[run.game_id], run.game_state()))}


@pytest.mark.parametrize(
    "name, stored", [("Ada", {"estimate_sum": 3.0, "compare": -3.0, "exact_sum": 1.1}), ("Ola", {})]
)
def test_the_web_layer_makes_each_question_at_the_level_chosen_when_it_is_made(app, name, stored):
    """A new pupil starts at the easiest level; the answers given on the way move the abilities and the choice."""
    guest, pupil_id = signed_in_guest(app, name, stored)
    run_id = guest.start("calculation-war")
    made = {}  # each question (as stored) -> the levels stored just before the step that made it
    action, form = "skip-intro", {}
    for _ in range(80):
        with app.app_context():
            levels = choose_levels(db.session(), pupil_id)
        assert guest.client.post(f"/runs/{run_id}/{action}", data=form).status_code == 302
        run = LessonRun.from_dict(run_record(app, run_id).data)
        for question in filter(None, [run.drill.question, *run.drill.queued]):
            made.setdefault(json.dumps(question, sort_keys=True), (Question.from_dict(question), levels))
        if len(made) >= 4 or run.stage == FINISHED:
            break
        action, form = next_form(run)
    first, _ = next(iter(made.values()))
    # A new pupil gets the lesson's first kind at the easiest level. Ada's first drill point offers an estimate, the
    # best card and an exact sum: she gets the one pitched nearest her target, the exact sum at level 2 (ability 1.1
    # against the level's prior 0: 0.75), not the estimates she has mastered (level 3, ability 3.0 against 1.1: 0.87).
    expected = ("exact_sum", 2) if name == "Ada" else ("estimate_sum", EASIEST)
    assert (first.skill, first.difficulty) == expected
    assert len(made) >= 3
    if name == "Ola":  # Ada's exact sums stay nearest her target; only a close round's comparison may join them
        assert len({q.skill for q, _ in made.values()}) >= 2
    assert [q.difficulty for q, _ in made.values()] == [levels[q.skill] for q, levels in made.values()]


def estimate_tolerances(ask, card: int) -> list:
    return [exact(ask(card, difficulty).check["tolerance"]) for difficulty in (1, 2, 3)]


@pytest.mark.parametrize("ask, stated", [(estimate_card_sum, TOLERANCE), (mean_estimate, MEAN_TOLERANCE)])
def test_a_harder_estimate_never_allows_more_and_the_hardest_allows_least(ask, stated):
    assert stated[1] > stated[2] > stated[3]
    by_card = [estimate_tolerances(ask, card.id) for card in kids2().cards if not card.is_special]
    assert all(easy >= middle >= hard for easy, middle, hard in by_card)
    assert any(middle > hard for _, middle, hard in by_card) and any(easy > middle for easy, middle, _ in by_card)
