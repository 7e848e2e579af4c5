"""A step can't land on the wrong question: every lesson form carries the step it was drawn at.

A page left open in a second tab, a double click and two copies of one request racing each
other are all answered 409 with "this page was out of date" and the lesson as it is now;
nothing is played or stored twice.
"""

from __future__ import annotations

import fcntl
import html
import os
import re
import sqlite3
import threading

from sqlalchemy import event, func, select

from tests.conftest import run_record, with_turn_clock
from tutor.answer_key import wrong_answer
from tutor.engine import GAMES
from tutor.lessons.runner import LessonRun
from tutor.models import AttemptRecord
from tutor.web import db

OUT_OF_DATE = "This page was out of date"


def run_of(app, run_id) -> LessonRun:
    return LessonRun.from_dict(run_record(app, run_id).data)


def stored_answers(app) -> int:
    with app.app_context():
        return db.session().scalar(select(func.count()).select_from(AttemptRecord))


def forms(page: str) -> list[str]:
    lesson = page[page.index('<section id="lesson"') :]
    return re.findall(r"<form\b.*?</form>", lesson, flags=re.S)


def step_of(page: str) -> str:
    """The step every lesson form on the page carries (they must all agree)."""
    steps = {re.search(r'name="step" value="([^"]*)"', form).group(1) for form in forms(page)}
    assert len(steps) == 1, steps
    return steps.pop()


def start(guest, client, game_id="calculation-war", **form) -> str:
    guest.sign_in()
    run_id = guest.start(game_id, **form)
    client.post(f"/runs/{run_id}/skip-intro")
    return run_id


def move_until_question(client, app, run_id, limit=60):
    for _ in range(limit):
        run = run_of(app, run_id)
        if run.drill.question:
            return run.current_question()
        page = client.get(f"/runs/{run_id}").get_data(as_text=True)
        token = html.unescape(re.search(r'name="move" value="([^"]+)"', page).group(1))
        client.post(f"/runs/{run_id}/move", data={"move": token, "step": step_of(page)})
    raise AssertionError("no drill question came up")


def pupils_turn(client, app, run_id) -> str:
    """Close any open question; the page at the pupil's turn."""
    while run_of(app, run_id).drill.question:
        client.post(f"/runs/{run_id}/go-on")
    return client.get(f"/runs/{run_id}").get_data(as_text=True)


def test_every_lesson_form_carries_the_current_step(guest, client, app):
    """Walk every game through intro, question and turn: every form says the step it belongs to."""
    app.config["CASINO_WAR_FOR_GUESTS"] = True  # off unless the operator switches it on
    guest.sign_in()
    seen = set()
    for game_id in GAMES:
        run_id = guest.start(game_id, **with_turn_clock(game_id))
        pages = [client.get(f"/runs/{run_id}").get_data(as_text=True)]
        pages.append(
            client.post(
                f"/runs/{run_id}/skip-intro", data={"step": step_of(pages[0])}, headers={"HX-Request": "true"}
            ).get_data(as_text=True)
        )
        assert step_of(pages[1]) == str(int(step_of(pages[0])) + 1), "every saved step moves the counter on"
        if run_of(app, run_id).drill.question:
            pages.append(client.post(f"/runs/{run_id}/hint", headers={"HX-Request": "true"}).get_data(as_text=True))
        pages.append(pupils_turn(client, app, run_id))
        card = re.search(r'name="card" value="(\d+)"', pages[-1])
        if card:  # a move made of picked cards (MultiMatch's pair, Fraction Master's fraction): pick one
            pages.append(
                client.post(
                    f"/runs/{run_id}/pick", data={"card": card.group(1)}, headers={"HX-Request": "true"}
                ).get_data(as_text=True)
            )
        assert str(run_of(app, run_id).step) == step_of(pages[-1])
        for page in pages:
            step = step_of(page)
            for form in forms(page):
                assert f'name="step" value="{step}"' in form, form[:300]
                seen.add(re.search(r'action="/runs/[^/]+/([a-z-]+)"', form).group(1))
    assert seen >= {
        "next-step",
        "skip-intro",
        "answer",
        "hint",
        "solution",
        "go-on",
        "move",
        "pick",
        "play-picked",
        "typed-move",
        "hourglass",
        "show-playable",
    }, seen


def test_an_answer_from_a_second_tab_is_not_marked_against_a_later_question(guest, client, app, fixed_deal):
    fixed_deal(7)  # a deal with two questions before the game ends (a random one sometimes ended first)
    run_id = start(guest, client)
    first = move_until_question(client, app, run_id)
    old_tab = client.get(f"/runs/{run_id}").get_data(as_text=True)
    old_step = step_of(old_tab)
    # The other tab answers, goes on and plays until the next question is open.
    client.post(f"/runs/{run_id}/answer", data={"answer": wrong_answer(first, "en")})
    client.post(f"/runs/{run_id}/go-on")
    later = move_until_question(client, app, run_id)
    assert later is not None
    before, stored = run_of(app, run_id).to_dict(), stored_answers(app)
    response = client.post(
        f"/runs/{run_id}/answer",
        data={"answer": wrong_answer(later, "en"), "step": old_step},
        headers={"HX-Request": "true"},
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 409
    assert page.lstrip().startswith('<section id="lesson"') and OUT_OF_DATE in page
    assert step_of(page) == str(run_of(app, run_id).step), "the answer shows the table as it is now"
    assert run_of(app, run_id).to_dict() == before and stored_answers(app) == stored


def test_a_move_from_a_second_tab_is_not_played_a_turn_later(guest, client, app):
    run_id = start(guest, client)
    old_tab = pupils_turn(client, app, run_id)
    token = html.unescape(re.search(r'name="move" value="([^"]+)"', old_tab).group(1))
    client.post(f"/runs/{run_id}/move", data={"move": token, "step": step_of(old_tab)})
    later = pupils_turn(client, app, run_id)
    run = run_of(app, run_id)
    still_mine = html.unescape(re.search(r'name="move" value="([^"]+)"', later).group(1))
    response = client.post(f"/runs/{run_id}/move", data={"move": still_mine, "step": step_of(old_tab)})
    assert response.status_code == 409 and OUT_OF_DATE in response.get_data(as_text=True)
    assert "<html" in response.get_data(as_text=True), "a plain form gets the whole page"
    assert run_of(app, run_id).moves == run.moves


def test_a_double_submit_counts_once(guest, client, app):
    run_id = start(guest, client)
    question = move_until_question(client, app, run_id)
    step = step_of(client.get(f"/runs/{run_id}").get_data(as_text=True))
    stored = stored_answers(app)
    first = client.post(f"/runs/{run_id}/answer", data={"answer": wrong_answer(question, "en"), "step": step})
    second = client.post(f"/runs/{run_id}/answer", data={"answer": wrong_answer(question, "en"), "step": step})
    assert (first.status_code, second.status_code) == (302, 409)
    assert stored_answers(app) == stored + 1
    assert run_of(app, run_id).drill.tries == 1


def test_two_copies_of_one_answer_posted_at_once_store_one_row(guest, client, app):
    """Two browsers (two clients with one session) post the same wrong answer at the same moment."""
    run_id = start(guest, client)
    question = move_until_question(client, app, run_id)
    cookie = client.get_cookie("session").value
    copies = [app.test_client() for _ in range(2)]
    for copy in copies:
        copy.set_cookie("session", cookie)
    for _ in range(4):
        run = run_of(app, run_id)
        if not run.drill.open:
            break
        stored, statuses = stored_answers(app), []
        barrier = threading.Barrier(2)

        def post(copy, barrier=barrier, statuses=statuses, run=run):
            barrier.wait()
            statuses.append(
                copy.post(
                    f"/runs/{run_id}/answer",
                    data={"answer": wrong_answer(question, "en"), "step": str(run.step)},
                    headers={"HX-Request": "true"},
                ).status_code
            )

        threads = [threading.Thread(target=post, args=(copy,)) for copy in copies]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(statuses) == [200, 409], statuses
        assert stored_answers(app) == stored + 1
        assert run_of(app, run_id).step == run.step + 1


# --- the short write path -------------------------------------------------------------------------


def test_an_answer_reads_first_and_writes_its_few_rows_under_one_write_lock(guest, client, app):
    run_id = start(guest, client)
    question = move_until_question(client, app, run_id)
    step = str(run_of(app, run_id).step)
    statements = []
    listen = lambda conn, cursor, statement, *rest: statements.append(statement.split(None, 1)[0].upper())  # noqa: E731
    event.listen(app.extensions["db_engine"], "before_cursor_execute", listen)
    try:
        assert (
            client.post(
                f"/runs/{run_id}/answer", data={"answer": wrong_answer(question, "en"), "step": step}
            ).status_code
            == 302
        )
    finally:
        event.remove(app.extensions["db_engine"], "before_cursor_execute", listen)
    lock = statements.index("BEGIN")
    assert set(statements[:lock]) == {"SELECT"}, statements  # everything read and computed before the lock
    writes = statements[lock + 1 :]
    # the run (with its step count), the answer, the new skill record and the question's difficulty (an upsert)
    assert sorted(writes) == ["INSERT", "INSERT", "INSERT", "UPDATE"], statements
    assert len(statements[:lock]) <= 3, statements  # the sign-in with its pupil, the run, the skill records


def test_a_step_waits_at_the_write_gate_while_another_process_holds_it(guest, client, app, database_url):
    run_id = start(guest, client)
    question = move_until_question(client, app, run_id)
    step, before = run_of(app, run_id).step, stored_answers(app)
    statuses = []
    other_process = os.open(database_url.split("///", 1)[1] + ".write-lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(other_process, fcntl.LOCK_EX)  # a descriptor of its own locks like another process would
    try:
        answering = threading.Thread(
            target=lambda: statuses.append(
                client.post(
                    f"/runs/{run_id}/answer", data={"answer": wrong_answer(question, "en"), "step": str(step)}
                ).status_code
            )
        )
        answering.start()
        answering.join(0.5)
        assert answering.is_alive() and stored_answers(app) == before  # queued at the gate, nothing written
    finally:
        fcntl.flock(other_process, fcntl.LOCK_UN)
        os.close(other_process)
    answering.join(10)
    assert statuses == [302] and stored_answers(app) == before + 1


def test_a_database_locked_past_its_timeout_answers_503_and_the_same_step_works_afterwards(
    guest, client, app, database_url, monkeypatch
):
    run_id = start(guest, client)
    question = move_until_question(client, app, run_id)
    step, before = run_of(app, run_id).step, stored_answers(app)
    app.extensions["db_engine"].dispose()
    monkeypatch.setattr("tutor.db.SQLITE_BUSY_TIMEOUT_MS", 200)  # new connections give up after 0.2 s
    other = sqlite3.connect(database_url.split("///", 1)[1], isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the lock
    try:
        app.extensions["db_engine"].pool.dispose()
        response = client.post(
            f"/runs/{run_id}/answer",
            data={"answer": wrong_answer(question, "en"), "step": str(step)},
            headers={"HX-Request": "true"},
        )
        assert response.status_code == 503 and response.headers["Retry-After"] == "2"
        assert "Very busy just now" in response.get_data(as_text=True)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert run_of(app, run_id).step == step and stored_answers(app) == before  # nothing saved, nothing half-saved
    response = client.post(f"/runs/{run_id}/answer", data={"answer": wrong_answer(question, "en"), "step": str(step)})
    assert response.status_code == 302 and stored_answers(app) == before + 1 and run_of(app, run_id).step == step + 1
