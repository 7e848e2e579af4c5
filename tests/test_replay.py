"""Replay of a pupil's lesson run: the rebuild is exact, frames and answers line up, the page is the teacher's only.

The oracle for "which frame" is taken while the lesson is played: what the pupil saw
just before each of their moves, and how many moves the pupil had made when each
answer was given. The replay must reproduce both from the stored run alone.
"""

from __future__ import annotations

import html
import re
from dataclasses import asdict

import pytest
from sqlalchemy import select

from tests.conftest import run_record
from tests.test_lessons import pupil_moves
from tests.test_web import play_until_question, run_of, through_intro
from tutor.answer_key import right_answer
from tutor.drills import CHOICE
from tutor.drills.marking import REFUSAL_DESCRIPTIONS, UNKNOWN_REFUSAL, WRONG, mark, refusal_description
from tutor.engine import GAMES, Move
from tutor.lessons import LESSONS
from tutor.lessons.base import move_token
from tutor.lessons.runner import FINISHED, PUPIL, LessonRun
from tutor.models import AttemptRecord, LessonRunRecord
from tutor.reports.replay import frame_count, group_questions, rebuild, refusal_text, replay, replays_exactly
from tutor.text import say
from tutor.web import db


def a_wrong_answer(question) -> str | None:
    """A readable answer the marking calls wrong (None when there is no such simple one)."""
    candidates = [c["value"] for c in question.choices] if question.answer == CHOICE else ["99999", "0"]
    return next((c for c in candidates if mark(question, c, "en").status == WRONG), None)


def pupil_saw(lesson, run) -> dict:
    state = run.game_state()
    view = state.player_view(PUPIL)
    return {
        "scoreboard": lesson.scoreboard(state, PUPIL),
        "zones": lesson.table(state, PUPIL),
        "hand": sorted(view["hand"]) if "hand" in view else None,
        "story": lesson.round_story(state, PUPIL, run.recent_moves()),
    }


def play_whole_lesson(game_id: str, players: int, seed: int):
    """Play a lesson to its end: every question gets an unreadable, a wrong and a right answer.

    Returns the run, its attempts (as stored dicts), what the pupil saw before each of
    their moves, and for each attempt the frame it must appear in.
    """
    lesson = LESSONS[game_id]
    run = LessonRun.start(lesson, players, {}, ["beginner", "strong"], seed=seed, now_ms=0)
    run.skip_intro(lesson, {}, 0)
    attempts, seen, expected_frames = [], [], []
    for step in range(1, 4000):
        if run.stage == FINISHED:
            break
        question = run.current_question()
        if question and run.drill.open:
            pupil_moves_so_far = sum(1 for m in run.moves if m["player"] == PUPIL)
            tried = sum(
                1 for a in attempts if a["question"] == run.drill.question and a["move_index"] == len(run.moves)
            )
            wrong = a_wrong_answer(question)
            typed = (
                ["abc", wrong or right_answer(question.to_dict(), "en")][tried]
                if tried < 2
                else right_answer(question.to_dict(), "en")
            )
            attempts.append(asdict(run.answer(typed, "en", step * 1000)))
            expected_frames.append(pupil_moves_so_far + 1)
        elif question:
            run.close_question(lesson, {}, step * 1000)
        else:
            saw, moves_before = pupil_saw(lesson, run), len(run.moves)
            pupil_moves(lesson, run, step)
            if len(run.moves) > moves_before:  # a refused choice (a steal in Steal War) plays nothing: no frame
                seen.append(saw)
    assert run.stage == FINISHED
    return run, attempts, seen, expected_frames


#: Every game with two players and with as many as it takes up to four.
SETUPS = [
    (game_id, players)
    for game_id, game in GAMES.items()
    for players in sorted({max(2, game.min_players), min(4, game.max_players)})
]


@pytest.mark.parametrize("game_id,players", SETUPS)
def test_a_whole_lesson_replays_frame_by_frame(game_id, players):
    lesson = LESSONS[game_id]
    run, attempts, seen, expected_frames = play_whole_lesson(game_id, players, seed=players * 13 + 1)
    stored = LessonRun.from_dict(run.to_dict())
    assert replays_exactly(stored) and replays_exactly(run.to_dict())
    assert rebuild(stored).to_dict() == run.state
    pupil_moves_made = [Move.from_dict(m) for m in run.moves if m["player"] == PUPIL]
    assert frame_count(stored) == len(pupil_moves_made) + 1 == len(seen) + 1
    assert (
        attempts
        and any(not a["readable"] for a in attempts)
        and any(a["readable"] and not a["correct"] for a in attempts)
    )

    for number in range(1, frame_count(stored) + 1):
        shown = replay(stored, attempts, number)
        frame = shown.frame
        assert shown.exact and frame.number == number and frame.total == len(seen) + 1
        tries = [t for asked in frame.questions for t in asked.tries]
        wanted = [a for a, n in zip(attempts, expected_frames) if n == number]
        assert [(t.readable, t.correct, t.hints_used) for t in tries] == [
            (a["readable"], a["correct"], a["hints_used"]) for a in wanted
        ]
        assert [asked.question.to_dict() for asked in frame.questions] == [
            q for i, q in enumerate(a["question"] for a in wanted) if i == 0 or q != wanted[i - 1]["question"]
        ]
        assert all(t.typed == "" and t.refusal is not None for t in tries if not t.readable)
        assert (number in shown.question_frames) is bool(wanted)
        if number <= len(seen):
            saw = seen[number - 1]
            assert (frame.scoreboard, frame.zones, frame.hand, frame.story) == (
                saw["scoreboard"],
                saw["zones"],
                saw["hand"],
                saw["story"],
            )
            assert frame.move.cards == list(pupil_moves_made[number - 1].cards) and not frame.is_end
            assert frame.move.label.msgid
        else:
            final = stored.game_state()
            assert frame.is_end and frame.move is None and shown.finished
            assert frame.zones == lesson.table(final, PUPIL) and frame.finish == lesson.finish_story(final, PUPIL)
    assert sum(
        len(asked.tries)
        for n in range(1, frame_count(stored) + 1)
        for asked in replay(stored, attempts, n).frame.questions
    ) == len(attempts)


def test_the_pupils_move_is_described_with_the_lessons_own_label():
    lesson = LESSONS["fraction-master"]
    run, attempts, _, _ = play_whole_lesson("fraction-master", 2, seed=3)
    stored = LessonRun.from_dict(run.to_dict())
    state = stored.game.new_state()
    pupil_index = 0
    for move in (Move.from_dict(m) for m in run.moves):
        if move.player == PUPIL:
            pupil_index += 1
            label = next(c.label for c in lesson.choices(state, PUPIL) if c.token == move_token(move))
            assert replay(stored, attempts, pupil_index).frame.move.label == label
        state.apply(move)


def test_an_unfinished_run_ends_in_a_frame_for_now_and_steps_are_clamped():
    lesson = LESSONS["calculation-war"]
    run = LessonRun.start(lesson, 3, {}, ["beginner"], seed=8, now_ms=0)
    assert frame_count(run) == 1 and replay(run, [], 1).frame.is_end and not replay(run, [], 1).finished
    run.skip_intro(lesson, {}, 0)
    for step in range(4):
        while run.drill.question:
            run.close_question(lesson, {}, step)
        pupil_moves(lesson, run, step)
    total = frame_count(run)
    assert replay(run, [], 0).frame.number == 1 and replay(run, [], 10**6).frame.number == total
    now = replay(run, [], total)
    assert now.exact and now.frame.is_end and not now.finished and now.frame.finish == []
    assert now.frame.zones == lesson.table(run.game_state(), PUPIL)


def test_a_replay_that_diverges_is_reported_not_hidden():
    run, attempts, _, _ = play_whole_lesson("calculation-war", 2, seed=5)
    tampered_state = run.to_dict()
    tampered_state["state"] = {**tampered_state["state"], "rounds": tampered_state["state"]["rounds"] + 1}
    assert not replays_exactly(tampered_state) and not replay(tampered_state, attempts, 2).exact
    impossible = run.to_dict()
    impossible["state"] = {"nonsense": True}  # a stored position the game would refuse to load
    assert not replays_exactly(impossible) and replay(impossible, attempts, 2).frame.number == 2
    tampered_moves = run.to_dict()
    first_pupil = next(i for i, m in enumerate(tampered_moves["moves"]) if m["player"] == PUPIL)
    swapped = tampered_moves["moves"][first_pupil + 1 :]
    tampered_moves["moves"] = tampered_moves["moves"][:first_pupil] + swapped  # the pupil's first move is lost
    assert not replays_exactly(tampered_moves)
    shown = replay(tampered_moves, attempts, 3)
    assert not shown.exact  # the frame may or may not be built, but nothing breaks


def test_an_unreadable_answer_is_described_with_the_dashboards_words():
    assert refusal_text("letters").msgid == REFUSAL_DESCRIPTIONS["letters"]
    assert refusal_text("not_a_choice").msgid == REFUSAL_DESCRIPTIONS["not_a_choice"]
    assert refusal_text("no-such-code").msgid == refusal_text(None).msgid == UNKNOWN_REFUSAL


def test_an_unreadable_answer_does_not_count_as_the_first_try():
    _, attempts, _, _ = play_whole_lesson("calculation-war", 2, seed=5)
    unreadable, wrong, right = attempts[:3]
    assert not unreadable["readable"] and wrong["readable"] and not wrong["correct"] and right["correct"]
    [asked] = group_questions([unreadable, right])
    assert asked.first_try_right and asked.tries[0].typed == "" and asked.tries[0].refusal is not None
    [asked] = group_questions([unreadable, wrong, right])
    assert not asked.first_try_right and [t.typed for t in asked.tries] == ["", wrong["typed"], right["typed"]]


# --- the page ----------------------------------------------------------------------------------
def visible(page: str) -> str:
    """The page's text without attribute values (CSRF tokens and ids are random)."""
    return html.unescape(re.sub(r'"[^"]*"', '""', page))


def say_en(text: dict) -> str:
    return say(text)


@pytest.fixture
def played(app, client, staff, fixed_deal):
    """Ada, in Tove's class, plays Calculation War and answers a question unreadably, wrong, then right."""
    fixed_deal(1)
    staff.teacher()
    school_class = staff.school_class()
    staff.sign_in_pupil(client, school_class.code, "Ada")
    response = client.post("/lessons/calculation-war/start", data={"players": "2", "strength": "beginner"})
    run_id = response.headers["Location"].rsplit("/", 1)[1]
    through_intro(client, run_id)
    question = play_until_question(client, app, run_id)
    run = run_of(app, run_id)
    frame = sum(1 for m in run.moves if m["player"] == PUPIL) + 1
    wrong = a_wrong_answer(question)
    for typed in ("abc", wrong, right_answer(question.to_dict(), "en")):
        client.post(f"/runs/{run_id}/answer", data={"answer": typed})
    client.post(f"/runs/{run_id}/go-on")
    for _ in range(30):  # play on for two more moves, so the question's frame is neither the last nor the one before
        run = run_of(app, run_id)
        if run.stage == FINISHED or sum(1 for m in run.moves if m["player"] == PUPIL) + 1 >= frame + 2:
            break
        if run.drill.question:
            client.post(f"/runs/{run_id}/go-on")
        else:
            client.post(f"/runs/{run_id}/move", data={"move": f"play:{sorted(run.game_state().hands[0])[0]}:"})
    teacher = app.test_client()
    staff.sign_in(teacher)
    return {
        "run_id": run_id,
        "question": question,
        "frame": frame,
        "wrong": wrong,
        "teacher": teacher,
        "code": school_class.code,
    }


def test_the_teacher_steps_to_the_question_and_sees_every_try(app, played):
    teacher, run_id, number = played["teacher"], played["run_id"], played["frame"]
    with app.app_context():
        record = db.session().scalar(select(LessonRunRecord).where(LessonRunRecord.public_id == run_id))
        rows = list(
            db.session().scalars(
                select(AttemptRecord).where(AttemptRecord.run_id == record.id).order_by(AttemptRecord.id)
            )
        )
        total = frame_count(record.data)
    assert [(r.readable, r.correct) for r in rows] == [(False, False), (True, False), (True, True)]
    assert number + 2 <= total, "the question's frame must have frames after it"

    page = teacher.get(f"/teacher/runs/{run_id}/replay").get_data(as_text=True)
    assert "Ada" in page and "Calculation War" in page and f"Frame 1 of {total}" in page
    assert 'href="/teacher/pupils/' in page

    page = teacher.get(f"/teacher/runs/{run_id}/replay?step={number}").get_data(as_text=True)
    text = visible(page)
    prompt = say_en(played["question"].to_dict()["prompt"])
    assert prompt in text and f"Frame {number} of {total}" in text
    assert refusal_description(rows[0].error_code) in text and "abc" not in text
    wrong_row = rows[1]
    if played["question"].answer == CHOICE:
        chosen = next(c for c in played["question"].choices if c["value"] == played["wrong"])
        assert say_en(chosen["label"].to_dict()) in text
    else:
        assert f">{wrong_row.typed}<" in page and wrong_row.read_as in text
    for line in wrong_row.feedback + rows[2].feedback:
        assert say_en(line) in text
    assert text.count("Tries at question") == 1 and ">wrong<" in page and ">right<" in page and ">not read<" in page

    for other in {max(1, number - 1), min(total, number + 1)} - {number}:
        elsewhere = visible(teacher.get(f"/teacher/runs/{run_id}/replay?step={other}").get_data(as_text=True))
        assert refusal_description(rows[0].error_code) not in elsewhere, (
            f"the tries belong to frame {number}, not {other}"
        )


@pytest.mark.parametrize("step", ["0", "99999", "abc", "-3", "", "1e9", "٣"])
def test_odd_steps_are_clamped(played, step):
    response = played["teacher"].get(f"/teacher/runs/{played['run_id']}/replay?step={step}")
    assert response.status_code == 200 and "Frame " in response.get_data(as_text=True)


def test_htmx_gets_only_the_frame_and_keeps_the_focus_on_next(played):
    url = f"/teacher/runs/{played['run_id']}/replay"
    fragment = played["teacher"].get(url + "?step=2&nav=next", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "<html" not in fragment and "<h1" not in fragment and 'hx-swap-oob="innerHTML"' in fragment
    assert re.search(r'<a [^>]*rel="next"[^>]*data-autofocus', fragment) and not re.search(
        r'rel="prev"[^>]*data-autofocus', fragment
    )
    fragment = (
        played["teacher"].get(url + "?step=99999&nav=next", headers={"HX-Request": "true"}).get_data(as_text=True)
    )
    assert 'rel="next"' not in fragment and re.search(
        r'<a [^>]*rel="prev"[^>]*data-autofocus', fragment
    )  # at the end, Previous takes the focus
    assert "data-autofocus" not in played["teacher"].get(url + "?step=2").get_data(
        as_text=True
    )  # a page load does not move the focus
    restore = played["teacher"].get(
        f"/teacher/runs/{played['run_id']}/replay?step=2",
        headers={"HX-Request": "true", "HX-History-Restore-Request": "true"},
    )
    assert "<html" in restore.get_data(as_text=True)


def test_only_the_pupils_teachers_may_replay(app, staff, played):
    url = f"/teacher/runs/{played['run_id']}/replay"
    staff.teacher(email="other@school.example", name="Other")
    other = app.test_client()
    staff.sign_in(other, email="other@school.example")
    assert other.get(url).status_code == 404
    assert other.get(url + "?step=2").status_code == 404
    assert played["teacher"].get("/teacher/runs/no-such-run/replay").status_code == 404
    pupil = app.test_client()
    staff.sign_in_pupil(pupil, played["code"], "Ola")
    response = pupil.get(url)
    assert response.status_code == 302 and "/teacher/sign-in" in response.headers["Location"]
    assert app.test_client().get(url).status_code == 302
    visitor = app.test_client()
    visitor.post("/guest", data={"name": "Bo"})
    response = visitor.post("/lessons/calculation-war/start", data={"players": "2", "strength": "beginner"})
    guest_run = response.headers["Location"].rsplit("/", 1)[1]
    assert played["teacher"].get(f"/teacher/runs/{guest_run}/replay").status_code == 404


def test_a_stored_run_that_no_longer_replays_shows_a_warning(app, played):
    with app.app_context():
        database = db.session()
        record = database.scalar(select(LessonRunRecord).where(LessonRunRecord.public_id == played["run_id"]))
        data = dict(record.data)
        data["state"] = {**data["state"], "rounds": data["state"]["rounds"] + 5}
        record.data = data
        database.commit()
    response = played["teacher"].get(f"/teacher/runs/{played['run_id']}/replay?step=2")
    assert response.status_code == 200 and "do not rebuild this lesson exactly" in response.get_data(as_text=True)
    assert not replays_exactly(run_record(app, played["run_id"]).data)


# --- in a real browser ---------------------------------------------------------------------------
def store_played_run(database_url: str) -> str:
    """A teacher, a class with Ada, and a finished lesson of hers with its answers; returns the run's public id."""
    from tests.conftest import PASSWORD
    from tutor import accounts, classroom
    from tutor.app import create_app
    from tutor.drills.marking import Attempt
    from tutor.models import Pupil, Teacher, utcnow
    from tutor.skill_model.progress import record_attempt

    app = create_app({"DATABASE_URL": database_url, "SECRET_KEY": "browser-test"})
    run, attempts, _, _ = play_whole_lesson("calculation-war", 2, seed=3)
    with app.app_context():
        database = db.session()
        teacher = Teacher(email="replay@school.example", name="Rita", password_hash=accounts.hash_password(PASSWORD))
        database.add(teacher)
        database.flush()
        school_class = classroom.create_class(database, teacher, "5A", "en", "Europe/Oslo", "pictures")
        classroom.add_pupils(database, school_class, "Ada")
        pupil = database.scalar(select(Pupil).where(Pupil.class_id == school_class.id))
        record = LessonRunRecord(
            pupil_id=pupil.id,
            game_id=run.game_id,
            seed=run.seed,
            stage=run.stage,
            data=run.to_dict(),
            finished_at=utcnow(),
        )
        database.add(record)
        database.flush()
        for attempt in attempts:
            record_attempt(database, pupil.id, record.id, Attempt(**attempt))
        database.commit()
        public_id = record.public_id
    app.extensions["db_engine"].dispose()
    return public_id


@pytest.mark.browser
def test_a_teacher_steps_through_a_replay_with_the_keyboard(browser, live_server):
    from tests.browser_support import Visit
    from tests.conftest import PASSWORD

    run_id = store_played_run(live_server.database_url)
    visit = Visit(browser, live_server)
    page = visit.page
    page.goto(live_server + "/teacher/sign-in")
    page.locator("input#email").fill("replay@school.example")
    page.locator("input#password").fill(PASSWORD)
    page.locator("input#password").press("Enter")
    page.wait_for_load_state("networkidle")
    page.goto(f"{live_server}/teacher/runs/{run_id}/replay")
    visit.axe("the first frame of a replay")

    def settle(action):
        with page.expect_response(lambda response: "/replay" in response.url):
            action()
        page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
        page.wait_for_timeout(50)

    page.locator('a[rel="next"]').focus()
    for step in (2, 3):
        settle(lambda: page.keyboard.press("Enter"))
        assert f"Frame {step} of" in page.locator(".replay-position").inner_text()
        assert 'rel="next"' in visit.focused(), "the Next link keeps the focus"
        assert page.url.endswith(f"step={step}") and page.locator("h1").count() == 1
    assert page.locator("#replay-status").inner_text().startswith("Frame 3 of")

    first_question = page.locator(".replay-question-frames a").first
    settle(lambda: first_question.click())
    assert page.locator("table.replay-tries caption").count() >= 1
    assert "Could not be read" in page.locator("table.replay-tries").first.inner_text()
    visit.axe("a frame with questions")
    settle(lambda: page.go_back())  # htmx keeps no history cache: the page asks the server again
    assert "Frame 3 of" in page.locator(".replay-position").inner_text()
    assert page.locator("h1").count() == 1 and page.locator("#replay-frame").count() == 1
    assert not visit.problems, visit.problems
    visit.close()
