"""A lesson run kept in the database between every step plays exactly like one kept in memory.

Every request of the web layer loads the run from ``LessonRunRecord.data``, acts and saves
it again, so anything the round trip loses (a retry counter, a picked card, the time a
question opened) changes the lesson. Here a pupil plays whole lessons of every game
through the routes (wrong answers, retries, hints, refused choices, picks, typed moves,
the hourglass) while the same steps are played on a run that never leaves memory; after
each step the stored run must equal that one, and the stored answers its answers.

A stored run that cannot occur is refused when it is loaded (``InvalidState``), before
it can crash a page or corrupt play.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest
from sqlalchemy import select, update

from tests.answer_key import accepted_move
from tests.conftest import run_record, with_turn_clock
from tests.seeds import game_seed
from tutor import steps
from tutor.answer_key import right_answer
from tutor.code_version import code_version
from tutor.drills import Question
from tutor.drills.marking import Attempt
from tutor.engine import GAMES, InvalidState, make_game
from tutor.engine.play import make_bots
from tutor.lessons import LESSONS
from tutor.lessons.base import move_from_token, move_token
from tutor.lessons.runner import FINISHED, INTRO, PUPIL, STORED, LessonRun, tries_allowed
from tutor.models import AttemptRecord, LessonRunRecord
from tutor.skill_model.progress import PupilPitch, load_model
from tutor.web import db
from tutor.web import lessons as web_lessons

UNREADABLE = "seventeen"
WRONG_NUMBER = "987654"
#: A typed move that can never be made: a player has at most three number cards in a battle.
IMPOSSIBLE_EXPRESSION = "9+9+9+9"


@dataclass
class Step:
    """One request of the pupil, and the same runner call made on the run kept in memory."""

    route: str
    form: dict
    act: Callable[[LessonRun, object, dict, int], Attempt | None]
    wait_ms: int = 1500


def answer(text):
    return Step("answer", {"answer": text}, lambda run, lesson, levels, now: run.answer(text, "en", now))


def move(token):
    return Step("move", {"move": token}, lambda run, lesson, levels, now: run.move(token, lesson, levels, now))


def pick(card_id):
    return Step("pick", {"card": str(card_id)}, lambda run, lesson, levels, now: run.pick(card_id, lesson))


def typed_move(text):
    return Step(
        "typed-move",
        {"expression": text},
        lambda run, lesson, levels, now: run.typed_move(text, "en", lesson, levels, now),
    )


NEXT_STEP = Step("next-step", {}, lambda run, lesson, levels, now: run.next_intro(lesson, levels, now))
SKIP_INTRO = Step("skip-intro", {}, lambda run, lesson, levels, now: run.skip_intro(lesson, levels, now))
HINT = Step("hint", {}, lambda run, lesson, levels, now: run.hint())
SOLUTION = Step("solution", {}, lambda run, lesson, levels, now: run.show_solution())
GO_ON = Step("go-on", {}, lambda run, lesson, levels, now: run.close_question(lesson, levels, now))
PLAY_PICKED = Step("play-picked", {}, lambda run, lesson, levels, now: run.play_picked(lesson, levels, now))
SHOW_PLAYABLE = Step("show-playable", {}, lambda run, lesson, levels, now: run.show_what_I_can_play())


def hourglass(wait_ms):
    return Step("hourglass", {}, lambda run, lesson, levels, now: run.hourglass_ran_out(lesson, levels, now), wait_ms)


class Pupil:
    """Decides the next steps from the run kept in memory: mostly wrong at first, sometimes twice, then right."""

    def __init__(self, lesson, seed: int) -> None:
        self.lesson, self.chance = lesson, random.Random(seed)

    def next_steps(self, run: LessonRun) -> list[Step]:
        if run.stage == INTRO:
            return [NEXT_STEP if run.intro_step == 0 else SKIP_INTRO]
        if run.drill.question is not None:
            return [self.about_question(run)]
        return self.turn(run)

    def about_question(self, run: LessonRun) -> Step:
        question = run.current_question()
        roll = self.chance.random()
        if not run.drill.open:
            return GO_ON
        if roll < 0.05:
            return SOLUTION
        if roll < 0.15 and run.drill.hints_shown < len(question.hints):
            return HINT
        if roll < 0.2:
            return answer(UNREADABLE)
        if roll < (0.9 if run.drill.tries == 0 else 0.4):
            wrong = [c["value"] for c in question.choices if c["value"] not in question.check["expected"]]
            if question.answer != "choice":
                return answer(WRONG_NUMBER)
            if wrong:
                return answer(wrong[run.drill.tries % len(wrong)])
        return answer(right_answer(run.drill.question, "en"))

    def turn(self, run: LessonRun) -> list[Step]:
        state = run.game_state()
        roll = self.chance.random()
        if run.options.get("turn_seconds") and roll < 0.3:
            return [hourglass(run.options["turn_seconds"] * 1000 + (500 if roll < 0.2 else -2000))]  # late, or not yet
        if roll < 0.4 and run.turn.tries < 2:
            refused = self.refused_choice(run, state)
            if refused:
                return refused
        if roll < 0.5 and not run.turn.show_playable:
            return [SHOW_PLAYABLE]
        bot = make_bots(run.game, ["beginner"])[PUPIL]
        return self.make(run, state, bot.choose(state.player_view(PUPIL), state.legal_moves(), self.chance))

    def refused_choice(self, run: LessonRun, state) -> list[Step]:
        """A choice the rules refuse and the lesson explains: nothing is played, the pupil tries again."""
        if self.lesson.typed_move:
            return [typed_move(IMPOSSIBLE_EXPRESSION)]
        for card_id in self.lesson.pickable(state, PUPIL):
            choice = move_from_token(self.lesson.hand_choice(state, PUPIL, card_id).token, PUPIL)
            if not state.is_legal(choice) and self.lesson.judge(state, PUPIL, choice) is not None:
                return self.make(run, state, choice)
        return []

    def make(self, run: LessonRun, state, chosen) -> list[Step]:
        """The move as the page makes it: typed, picked card by card, or a button."""
        if self.lesson.typed_move and chosen.kind == "submit":
            return [typed_move(chosen.detail)]
        if (
            self.lesson.picks_cards
            and chosen.cards
            and self.lesson.move_from_picks(state, PUPIL, list(chosen.cards)) == chosen
        ):
            return (
                [pick(card_id) for card_id in run.turn.picked]
                + [pick(card_id) for card_id in chosen.cards]
                + [PLAY_PICKED]
            )
        return [move(move_token(chosen))]


def as_stored(run: LessonRun) -> dict:
    """The run as the JSON column gives it back (flat: see :data:`tutor.lessons.runner.STORED`)."""
    return json.loads(json.dumps(run.to_dict()))


def held(run: LessonRun) -> dict:
    """Everything the run holds, its named parts included, as plain JSON data (whatever ``to_dict`` stores)."""
    return json.loads(json.dumps(asdict(run)))


def attempt_facts(attempt) -> tuple:
    kind = attempt.kind if isinstance(attempt, Attempt) else attempt.question_kind
    return (
        attempt.skill,
        kind,
        attempt.question,
        attempt.correct,
        attempt.readable,
        attempt.first_try,
        attempt.hints_used,
        attempt.time_ms,
        attempt.move_index,
    )


def stored_attempts(app) -> list[AttemptRecord]:
    with app.app_context():
        return list(db.session().scalars(select(AttemptRecord).order_by(AttemptRecord.id)))


def play_through_the_database(app, client, guest, monkeypatch, game_id, players, options, seed, max_steps=1500):
    """Play a whole lesson through the routes and in memory side by side; returns the answers kept in memory."""
    lesson = LESSONS[game_id]
    clock = [1_000_000]
    monkeypatch.setattr(web_lessons, "now_ms", lambda: clock[0])
    monkeypatch.setattr(web_lessons, "secrets", SimpleNamespace(randbits=lambda bits: seed))
    app.config["CASINO_WAR_FOR_GUESTS"] = True
    guest.sign_in()
    run_id = guest.start(game_id, players=str(players), **options)
    record = run_record(app, run_id)
    kept = LessonRun.start(lesson, players, options, ["beginner"], record.seed, clock[0])
    assert held(LessonRun.from_dict(record.data)) == held(kept)
    pupil, attempts, planned = Pupil(lesson, seed), [], []
    for _ in range(max_steps):
        if kept.stage == FINISHED:
            break
        planned = planned or pupil.next_steps(kept)
        step = planned.pop(0)
        clock[0] += step.wait_ms
        with app.app_context():
            model = load_model(db.session(), record.pupil_id)
            levels = PupilPitch(lambda model=model: model)  # as the step chooses: levels and kinds
            dict(levels)  # worked out while the session is open
        response = client.post(f"/runs/{run_id}/{step.route}", data={**step.form, "step": str(kept.step)})
        assert response.status_code == 302, (step.route, response.status_code)
        attempt = step.act(kept, lesson, levels, clock[0])
        kept.step += 1
        if isinstance(attempt, Attempt):  # the hourglass says whether it ran out
            attempts.append(attempt)
        loaded = held(LessonRun.from_dict(run_record(app, run_id).data))
        assert loaded == held(kept), (
            game_id,
            step.route,
            {k: (loaded[k], v) for k, v in held(kept).items() if loaded[k] != v},
        )
    assert kept.stage == FINISHED and run_record(app, run_id).stage == FINISHED, f"{game_id}: the lesson did not finish"
    assert [attempt_facts(a) for a in stored_attempts(app)] == [attempt_facts(a) for a in attempts]
    return attempts


def lesson_play(game_id: str) -> tuple:
    """A short lesson of the game: its own seed, as many players as it takes up to four, its turn clock if any."""
    return game_id, min(4, GAMES[game_id].max_players), with_turn_clock(game_id), game_seed(game_id)


LESSON_PLAYS = [lesson_play(game_id) for game_id in GAMES]


@pytest.mark.parametrize("game_id,players,options,seed", LESSON_PLAYS)
def test_a_run_reloaded_from_the_database_at_every_step_plays_like_one_kept_in_memory(
    app, client, guest, monkeypatch, game_id, players, options, seed
):
    attempts = play_through_the_database(app, client, guest, monkeypatch, game_id, players, options, seed)
    drills = [a for a in attempts if not a.kind.startswith("choice:")]
    # The lesson must have tried what a lost field would break: a wrong first try, and a retry after it
    # wherever a question allowed one (a choice of two or three buttons closes after its first answer).
    assert any(a.first_try and not a.correct for a in drills), game_id
    retry_allowed = any(
        a.first_try and not a.correct and tries_allowed(Question.from_dict(a.question)) > 1 for a in drills
    )
    assert any(not a.first_try and a.readable for a in drills) or not retry_allowed, game_id


# --- a stored run that cannot occur is refused when it is loaded --------------------------------------


def stored_run(game_id="calculation-war", players=2, question=True) -> dict:
    """A stored run in play, with an open question when ``question``."""
    lesson = LESSONS[game_id]
    run = LessonRun.start(lesson, players, {}, ["beginner"], seed=4, now_ms=0)
    run.skip_intro(lesson, {}, 0)
    while question and run.drill.question is None:
        run.move(move_token(run.game_state().legal_moves()[0]), lesson, {}, 0)
    return as_stored(run)


def other_games_state() -> dict:
    state = make_game("multiwar", 2).new_state()
    while state.is_chance:
        state.apply(state.chance_move(random.Random(1)))
    return state.to_dict()


def changed(data: dict, **fields) -> dict:
    return {**copy.deepcopy(data), **fields}


CORRUPT_RUNS = {
    "an unknown game": lambda d: changed(d, game_id="chess"),
    "too many players": lambda d: changed(d, players=7),
    "players as text": lambda d: changed(d, players="2"),
    "an unknown option": lambda d: changed(d, options={**d["options"], "jokers": 2}),
    "an unknown computer player": lambda d: changed(d, bots=["grandmaster"]),
    "an unknown stage": lambda d: changed(d, stage="paused"),
    "an intro step past the intro": lambda d: changed(
        d, stage=INTRO, intro_step=len(LESSONS[d["game_id"]].intro_steps())
    ),
    "a negative step": lambda d: changed(d, step=-1),
    "tries as text": lambda d: changed(d, tries="1"),
    "tries as true": lambda d: changed(d, tries=True),
    "a negative hint count": lambda d: changed(d, hints_shown=-1),
    "more hints than the question has": lambda d: changed(d, hints_shown=len(d["question"]["hints"]) + 1),
    "a question open flag as text": lambda d: changed(d, question_open="yes"),
    "a question that is not a question": lambda d: changed(d, question={"kind": "sum"}),
    "a queued question that is not a question": lambda d: changed(d, queued=[{"prompt": "?"}]),
    "a malformed move": lambda d: changed(d, moves=d["moves"] + [{"kind": "play"}]),
    "a picked card as text": lambda d: changed(d, picked=["12"]),
    "a judgement that is not one": lambda d: changed(d, told={"correct": True}),
    "a marked answer that is not one": lambda d: changed(d, marked={"status": "right"}),
    "the state of another game": lambda d: changed(d, state=other_games_state()),
    "an impossible position": lambda d: changed(d, state={**d["state"], "hands": [[], []]}),
    "a missing field": lambda d: {k: v for k, v in d.items() if k != "state"},
    "an unknown field": lambda d: changed(d, mood="happy"),
    "a named part stored whole, not flat": lambda d: changed(d, turn={"tries": 0}),
}


def test_a_valid_stored_run_loads():
    for data in (stored_run(), stored_run("fraction-master", 3, question=False)):
        assert as_stored(LessonRun.from_dict(data)) == data


@pytest.mark.parametrize("corruption", sorted(CORRUPT_RUNS))
def test_a_corrupt_stored_run_is_refused_when_loaded(corruption):
    data = stored_run()
    with pytest.raises(InvalidState):
        LessonRun.from_dict(CORRUPT_RUNS[corruption](data))


# --- runs stored before the run had named parts play on ----------------------------------------------

#: Runs as schools' databases hold them: stored by the runner before it had named parts (Drill, Pace,
#: Turn; commit fdfba51), each with the run it becomes when the runner plays it on with :func:`play_on`
#: (played on again when numbers became typed and a choice of two lost its second try).
#: One has an open typed question after a wrong try and a hint, a queued question and a paid pace; the
#: other two cards picked towards a refused pair, the refusal told and the playable cards shown.
RUNS_STORED_BEFORE_PARTS = json.loads((Path(__file__).parent / "stored_runs.json").read_text())
#: Keys a run has gained since those runs were stored, each with the value such a run loads with.
KEYS_ADDED_SINCE = {"two_option_kind": ""}


def stored_today(stored: dict) -> dict:
    """A run stored before :data:`KEYS_ADDED_SINCE` as the runner stores it now: those keys in their places."""
    data = {**stored, **KEYS_ADDED_SINCE}
    return {key: data[key] for key in [*(key for key in STORED if key != "moves"), "moves"]}


def play_on(run: LessonRun) -> LessonRun:
    """Play a loaded run to its end, reloaded before every step: a typed question wrong at first, then right."""
    lesson = LESSONS[run.game_id]
    now = max(run.drill.asked_at_ms, run.turn.started_ms) + 1000
    for _ in range(2000):
        if run.stage == FINISHED:
            return run
        now += 1000
        if run.drill.question is not None and run.drill.open:
            wrong = run.drill.tries == 0 and run.drill.question["answer"] != "choice"
            run.answer(WRONG_NUMBER if wrong else right_answer(run.drill.question, "en"), "en", now)
        elif run.drill.question is not None:
            run.close_question(lesson, {}, now)
        else:
            run.move(move_token(accepted_move(lesson, run.game_state())), lesson, {}, now)
        run.step += 1
        run = LessonRun.from_dict(as_stored(run))
    raise AssertionError(f"{run.game_id}: the lesson did not finish")


@pytest.mark.parametrize("name", sorted(RUNS_STORED_BEFORE_PARTS))
def test_a_run_stored_before_the_named_parts_loads_plays_on_and_is_stored_the_same_way(name):
    before = RUNS_STORED_BEFORE_PARTS[name]
    run = LessonRun.from_dict(copy.deepcopy(before["stored"]))  # a loaded run plays on in the lists it was given
    today = stored_today(before["stored"])
    assert as_stored(run) == today and list(as_stored(run)) == list(today)  # keys in order
    played_on = as_stored(play_on(run))
    assert played_on == before["played_on"] and list(played_on) == list(before["played_on"])


# --- a run this code wrote is read back without checking it again ---------------------------------


def store(app, run_id: str, data: dict, written_by: str | None) -> None:
    """Put ``data`` into the run's row as if ``written_by`` had written it (None: before runs had fingerprints)."""
    with app.app_context():
        database = db.session()
        database.execute(
            update(LessonRunRecord)
            .where(LessonRunRecord.public_id == run_id)
            .values(data=data, written_by=written_by, version=LessonRunRecord.version + 1)
        )
        database.commit()


@pytest.fixture
def checks(monkeypatch) -> list[int]:
    """The step of every run checked through as it is read, in order."""
    checked, original = [], LessonRun._problems
    monkeypatch.setattr(LessonRun, "_problems", lambda run: checked.append(run.step) or original(run))
    return checked


def test_a_run_written_by_this_code_is_read_back_without_checking_it_again(app, client, guest, checks):
    guest.sign_in()
    run_id = guest.start()
    assert run_record(app, run_id).written_by == code_version()  # started by this code
    for _ in range(3):
        assert client.post(f"/runs/{run_id}/next-step").status_code == 302
    assert client.get(f"/runs/{run_id}").status_code == 200
    assert checks == [] and run_record(app, run_id).written_by == code_version()
    record = run_record(app, run_id)
    assert as_stored(steps.read_run(record)) == as_stored(LessonRun.from_dict(record.data)) == record.data


@pytest.mark.parametrize("written_by", [None, "0123456789abcdef"])
def test_a_run_written_by_other_code_is_checked_when_read_and_trusted_once_saved_again(
    app, client, guest, checks, written_by
):
    guest.sign_in()
    run_id = guest.start()
    store(app, run_id, run_record(app, run_id).data, written_by)
    assert client.get(f"/runs/{run_id}").status_code == 200 and checks == [0]
    assert client.post(f"/runs/{run_id}/skip-intro").status_code == 302 and checks == [0, 0]
    assert run_record(app, run_id).written_by == code_version()
    assert client.get(f"/runs/{run_id}").status_code == 200 and checks == [0, 0]


@pytest.mark.parametrize("corruption", ["an impossible position", "a malformed move", "an unknown field"])
def test_a_corrupt_run_written_by_other_code_is_refused_with_a_page_not_played(app, client, guest, corruption):
    guest.sign_in()
    run_id = guest.start()
    store(app, run_id, CORRUPT_RUNS[corruption](stored_run()), None)
    for response in (client.get(f"/runs/{run_id}"), client.post(f"/runs/{run_id}/skip-intro")):
        assert response.status_code == 500 and b"This game cannot go on" in response.data
