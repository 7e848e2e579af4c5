"""No 500s and no silent failures: hostile requests get a 4xx, error pages speak the reader's language.

Error pages (400, 404, 405, 413, 429, 500, a form from an earlier session) use the site's
layout and translated text; nothing a request carried reaches the log. The lesson routes
are walked with hostile forms against real runs in every stage.
"""

from __future__ import annotations

import html
import logging
import re
import time

import flask_babel
import pytest
from babel import support

from tests.conftest import run_record, with_turn_clock
from tutor.app import create_app
from tutor.engine import GAMES
from tutor.lessons.runner import LessonRun

SECRET = "Zebulonia Quartzfield"  # a pupil's name or answer: must never reach a log


class Pseudo(support.NullTranslations):
    """Marks every translated text, so a page shows which of its words went through gettext."""

    def gettext(self, message):
        return f"‹{message}›"

    def ngettext(self, singular, plural, n):
        return f"‹{singular if n == 1 else plural}›"

    ugettext, ungettext = gettext, ngettext


@pytest.fixture
def pseudo(monkeypatch):
    monkeypatch.setattr(flask_babel.Domain, "get_translations", lambda self: Pseudo())


def run_of(app, run_id) -> LessonRun:
    return LessonRun.from_dict(run_record(app, run_id).data)


def step_of(page: str) -> str:
    return re.search(r'name="step" value="([^"]*)"', page).group(1)


# --- the reported 500s ---------------------------------------------------------------------------
def test_a_huge_run_number_is_a_404_page(guest, client):
    guest.sign_in()
    for url in ("/runs/9223372036854775808", "/runs/9223372036854775808/answer", "/runs/-1/move"):
        response = client.get(url) if url.count("/") == 2 else client.post(url, data={"answer": "1"})
        assert response.status_code == 404, url
        assert "Page not found" in response.get_data(as_text=True)


def test_a_typed_move_in_a_game_without_typed_moves_is_told_kindly(guest, client, app):
    guest.sign_in()
    run_id = guest.start("calculation-war")
    client.post(f"/runs/{run_id}/skip-intro")
    while run_of(app, run_id).drill.question:
        client.post(f"/runs/{run_id}/go-on")
    before = run_of(app, run_id).to_dict()
    response = client.post(
        f"/runs/{run_id}/typed-move",
        data={"expression": "3 + 4", "step": str(before["step"])},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 409
    assert "This page was out of date" in response.get_data(as_text=True)
    assert run_of(app, run_id).to_dict() == before


@pytest.mark.parametrize(
    "target",
    [
        "/\n/evil.example",
        "/x\r\nSet-Cookie: a=b",
        "\t//evil.example",
        "/\t/evil.example",
        "//evil.example",
        "/\\evil.example",
        "https://evil.example/",
        " //evil.example",
        "/%0a/evil.example",
    ],
)
def test_the_language_form_only_goes_back_to_this_site(client, target):
    response = client.post("/language", data={"locale": "sv", "next": target})
    assert response.status_code == 302
    location = response.headers["Location"]
    assert location == ("/%0a/evil.example" if target.startswith("/%") else "/"), (
        "an encoded line break is only a path on this site"
    )


def test_the_language_form_keeps_a_local_next_page(client):
    assert (
        client.post("/language", data={"locale": "sv", "next": "/progress?x=1"}).headers["Location"] == "/progress?x=1"
    )


# --- error pages ---------------------------------------------------------------------------------
def error_routes(app):
    """Routes that fail on purpose, added before the app's first request."""

    def fail(code):
        if code == 500:
            raise RuntimeError("a bug")
        from flask import abort

        abort(code)

    app.add_url_rule("/fail/<int:code>", "fail", fail, methods=["GET", "POST"])
    app.config["PROPAGATE_EXCEPTIONS"] = False  # as in production: the 500 page, not the test's traceback


@pytest.mark.parametrize(
    "code,heading",
    [
        (400, "That did not work"),
        (404, "Page not found"),
        (405, "That did not work"),
        (413, "That was too much"),
        (429, "Please wait a moment"),
        (500, "Something went wrong"),
    ],
)
def test_error_pages_are_translated_and_use_the_site_layout(app, client, pseudo, code, heading):
    error_routes(app)
    client.post("/language", data={"locale": "nb"})
    if code == 405:
        response = client.get("/guest")
    elif code == 413:
        response = client.post("/guest", data={"name": "x" * 70_000})
    elif code == 404:
        response = client.get("/no/such/page")
    else:
        response = client.get(f"/fail/{code}")
    page = response.get_data(as_text=True)
    assert response.status_code == code
    assert 'lang="nb"' in page and 'class="site-header"' in page and 'href="/static/app.' in page
    assert f'<h1 id="error-heading">‹{heading}›</h1>' in page, page[page.find("<main") :][:600]
    advice = re.search(r'<p class="lead">(.*?)</p>', page, flags=re.S).group(1)
    assert advice.startswith("‹") and advice.endswith("›"), advice
    assert "‹Go to the home page›" in page


def test_error_handlers_do_not_log_what_the_form_carried(app, client, caplog):
    error_routes(app)
    caplog.set_level(logging.DEBUG)
    for url in ("/fail/500", "/fail/400", "/fail/404", "/fail/429"):
        response = client.post(url, data={"name": SECRET, "answer": SECRET})
        assert response.status_code == int(url.rsplit("/", 1)[1])
    client.post("/guest", data={"name": SECRET + "x" * 70_000})
    assert "a bug" in caplog.text, "the 500 itself is logged for the developers"
    assert "Zebulonia" not in caplog.text


@pytest.fixture
def csrf_app(database_url):
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "csrf-test"})
    yield app
    app.extensions["db_engine"].dispose()


def token_of(page: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def test_a_form_from_an_earlier_session_gets_a_translated_page(csrf_app, monkeypatch, caplog):
    monkeypatch.setattr(flask_babel.Domain, "get_translations", lambda self: Pseudo())
    client = csrf_app.test_client()
    token = token_of(client.get("/").get_data(as_text=True))
    assert client.post("/guest", data={"name": "Ada", "csrf_token": token}).status_code == 302
    # the old page's token belongs to the session before signing in
    response = client.post("/language", data={"locale": "sv", "csrf_token": token, "next": SECRET})
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert '<h1 id="error-heading">‹This page is too old›</h1>' in page and 'class="site-header"' in page
    assert SECRET not in caplog.text
    response = csrf_app.test_client().post("/guest", data={"name": "x" * 70_000})
    assert response.status_code == 413 and "‹That was too much›" in response.get_data(as_text=True)


def test_the_form_token_lives_as_long_as_the_session(csrf_app, monkeypatch):
    client = csrf_app.test_client()
    token = token_of(client.get("/").get_data(as_text=True))
    later = time.time() + 3 * 3600  # a lesson left open all morning
    monkeypatch.setattr(time, "time", lambda: later)
    assert client.post("/language", data={"locale": "sv", "csrf_token": token}).status_code == 302


def test_htmx_pages_carry_the_message_for_a_failed_request(client, guest):
    guest.sign_in()
    page = client.get("/").get_data(as_text=True)
    box = re.search(r'<div id="request-problem"[^>]*>(.*?)</div>', page, flags=re.S)
    assert box and "hidden" in box.group(0).split(">")[0] and 'role="alert"' in box.group(0)
    assert (
        'data-problem="response"' in box.group(1)
        and 'data-problem="send"' in box.group(1)
        and "data-reload" in box.group(1)
    )
    config = re.search(r'<meta name="htmx-config" content=\'([^\']+)\'', page).group(1)
    assert '{"code": "409", "swap": true, "error": false}' in config, "htmx shows the lesson a 409 brings"


# --- hostile forms on every lesson route, against real runs ---------------------------------------
HOSTILE = {
    "move": [
        "play:9999999999999:x",
        "play:-1:",
        "play::",
        ":::::",
        "play:1,2,3,4,5,6,7,8,9:",
        "draw::",
        "pass:",
        "\x00",
        "play:0:" * 300,
        "lay_interval:1,2,3,4:",
        "play_pair:1,2:",
        "play_fraction:1,2:",
    ],
    "card": ["-1", "9" * 30, "abc", "", "1e5", "0x1f"],
    "answer": ["1/0", "9" * 120, "\u202e12", "", "((((((", "NaN", "x" * 5000],
    "expression": ["", "1/0", "(" * 40 + "1" + ")" * 40, "9" * 70, "2**99", "1 + + 1"],
    "step": ["NaN", "-1", "99999999999999999999999", "", "0 ", "\n"],
}


FIELD = {"move": "move", "pick": "card", "answer": "answer", "typed-move": "expression"}


def hostile_forms(action: str, step: str):
    """The route's own field hostile (with the page's own step, so it reaches the runner), then the step itself."""
    field = FIELD.get(action)
    for value in HOSTILE.get(field, []):
        yield {field: value, "step": step}
    if field == "answer":  # the step is checked the same way on every route
        for value in HOSTILE["step"]:
            yield {field: "1", "step": value}
    yield {}


@pytest.mark.parametrize("game_id", GAMES)
def test_hostile_forms_on_every_lesson_route_in_every_stage_never_give_a_server_error(app, client, guest, game_id):
    app.config["CASINO_WAR_FOR_GUESTS"] = True  # off unless the operator switches it on
    guest.sign_in()
    run_id = guest.start(game_id, **with_turn_clock(game_id))
    if game_id != "calculation-war":  # one game is enough for the intro
        client.post(f"/runs/{run_id}/skip-intro")
    routes = [rule.rule for rule in app.url_map.iter_rules() if rule.rule.startswith("/runs/<run_id>/")]
    assert len(routes) >= 12
    stages, checked = set(), 0
    for _ in range(
        3 if game_id == "calculation-war" else 2
    ):  # (the intro,) a question or the pupil's turn, then wherever the hostile forms led
        run = run_of(app, run_id)
        stages.add("question" if run.drill.question else run.stage)
        for rule in routes:
            url = rule.replace("<run_id>", run_id)
            for index, form in enumerate(hostile_forms(rule.rsplit("/", 1)[1], str(run_of(app, run_id).step))):
                response = client.post(url, data=form, headers={} if index % 4 == 1 else {"HX-Request": "true"})
                assert response.status_code < 500, f"{url} {form}: {response.status_code}"
                checked += 1
        if run.stage == "intro":
            client.post(f"/runs/{run_id}/skip-intro")
    assert checked > 80 and len(stages) >= 1, stages


def test_hostile_forms_on_a_finished_lesson_never_give_a_server_error(app, client, guest):
    guest.sign_in()
    run_id = guest.start("calculation-war", round_limit="1")
    client.post(f"/runs/{run_id}/skip-intro")
    for _ in range(40):
        run = run_of(app, run_id)
        if run.stage == "finished":
            break
        if run.drill.question:
            client.post(f"/runs/{run_id}/go-on")
            continue
        page = client.get(f"/runs/{run_id}").get_data(as_text=True)
        token = html.unescape(re.search(r'name="move" value="([^"]+)"', page).group(1))
        client.post(f"/runs/{run_id}/move", data={"move": token, "step": step_of(page)})
    assert run_of(app, run_id).stage == "finished"
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/runs/<run_id>/"):
            for form in hostile_forms(rule.rule.rsplit("/", 1)[1], str(run_of(app, run_id).step)):
                assert client.post(rule.rule.replace("<run_id>", run_id), data=form).status_code in (302, 409)


def test_a_stored_run_that_cannot_be_read_back_gets_a_page_that_says_so(app, client, guest, caplog):
    from sqlalchemy import update

    from tutor.models import LessonRunRecord
    from tutor.web import db

    guest.sign_in()
    run_id = guest.start()
    data = run_record(app, run_id).data
    data["tries"] = "1"  # a count stored as text: the runner refuses it on load
    with app.app_context():
        database = db.session()
        database.execute(  # as other code stored it (this code's own runs are read unchecked: tutor.code_version)
            update(LessonRunRecord).where(LessonRunRecord.public_id == run_id).values(data=data, written_by=None)
        )
        database.commit()
    for response in (client.get(f"/runs/{run_id}"), client.post(f"/runs/{run_id}/go-on")):
        page = response.get_data(as_text=True)
        assert response.status_code == 500 and "This game cannot go on" in page and "Start a new game" in page
    assert "Ada" not in caplog.text and '"tries"' not in caplog.text
