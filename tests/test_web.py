"""Routes through the Flask test client: what a pupil does, and what must be refused."""

from __future__ import annotations

import difflib
import html
import json
import re

import pytest
from sqlalchemy import select

from tests.conftest import run_record
from tutor.answer_key import right_answer, wrong_answer
from tutor.app import create_app
from tutor.deck import kids2
from tutor.engine import GAMES
from tutor.lessons import LESSONS
from tutor.lessons.base import move_token
from tutor.lessons.runner import LessonRun
from tutor.models import AttemptRecord, SkillRecord
from tutor.web import db

DECK = kids2()


def run_of(app, run_id) -> LessonRun:
    return LessonRun.from_dict(run_record(app, run_id).data)


def attempts(app):
    with app.app_context():
        return list(db.session().scalars(select(AttemptRecord).order_by(AttemptRecord.id)))


def skills(app):
    with app.app_context():
        return {row.skill: row for row in db.session().scalars(select(SkillRecord))}


def through_intro(client, run_id):
    return client.post(f"/runs/{run_id}/skip-intro", follow_redirects=True)


def play_until_question(client, app, run_id, limit=60):
    for _ in range(limit):
        run = run_of(app, run_id)
        if run.drill.question:
            return run.current_question()
        hand = sorted(run.game_state().hands[0])
        client.post(f"/runs/{run_id}/move", data={"move": f"play:{hand[0]}:"})
    raise AssertionError("no drill question came up")


def test_home_page_offers_the_game_and_a_name_form(client):
    page = client.get("/").get_data(as_text=True)
    assert "Calculation War" in page and 'name="name"' in page
    assert not re.search(r'(src|href)="https?://', page)


def test_htmx_is_served_by_the_app_itself(client):
    page = client.get("/").get_data(as_text=True)
    src = re.search(r'<script src="([^"]+htmx[^"]+)"', page).group(1)
    response = client.get(src)
    assert response.status_code == 200 and b"htmx" in response.data[:2000]
    response.close()


@pytest.mark.parametrize("name", ["", "   ", "x" * 41, "bad\x00name", "tab\u202ename"])
def test_bad_guest_names_are_refused(client, name):
    page = client.post("/guest", data={"name": name}, follow_redirects=True).get_data(as_text=True)
    assert "Please type a name" in page
    assert "Sign out" not in page


def test_lessons_need_a_name_first(client):
    response = client.get("/lessons/calculation-war")
    assert response.status_code == 302 and response.headers["Location"].endswith("/")


@pytest.mark.parametrize(
    "form",
    [{"players": "5"}, {"players": "two"}, {"strength": "cheater"}, {"round_limit": "-1"}, {"turn_seconds": "9999"}],
)
def test_impossible_settings_are_refused(guest, client, form):
    guest.sign_in()
    response = client.post(
        "/lessons/calculation-war/start", data={"players": "2", "strength": "beginner", **form}, follow_redirects=True
    )
    assert "Those settings do not work" in response.get_data(as_text=True)


@pytest.mark.parametrize("players,starts", [("2", False), ("3", True), ("6", True), ("12", False)])
def test_a_lesson_starts_only_with_a_player_count_it_offers(guest, client, players, starts):
    """Gnav's rules take 2 to 12 players; its lesson offers 3 to 6."""
    guest.sign_in()
    response = client.post("/lessons/gnav/start", data={"players": players, "strength": "beginner"})
    assert ("/runs/" in response.headers["Location"]) is starts


def test_unknown_game_is_404(guest, client):
    guest.sign_in()
    assert client.get("/lessons/no-such-game").status_code == 404


def test_a_lesson_teaches_the_rules_on_the_real_deal_then_plays(guest, client, app):
    guest.sign_in()
    run_id = guest.start()
    page = client.get(f"/runs/{run_id}").get_data(as_text=True)
    run = run_of(app, run_id)
    first = min(run.game_state().hands[0])
    assert "Step 1 of" in page and "Welcome to Calculation War" in page
    client.post(f"/runs/{run_id}/next-step")
    page = client.get(f"/runs/{run_id}").get_data(as_text=True)
    from tutor.deck import kids2

    assert " + ".join(map(str, kids2()[first].circled)) in page
    page = through_intro(client, run_id).get_data(as_text=True)
    assert run_of(app, run_id).stage == "play"
    assert "Question" in page or "Your turn" in page


def test_answering_a_drill_records_the_attempt_and_updates_the_skill(guest, client, app):
    guest.sign_in()
    run_id = guest.start()
    through_intro(client, run_id)
    question = play_until_question(client, app, run_id)
    page = client.post(
        f"/runs/{run_id}/answer", data={"answer": right_answer(question, "en")}, follow_redirects=True
    ).get_data(as_text=True)
    assert "Continue the game" in page
    [attempt] = attempts(app)
    assert attempt.correct and attempt.readable and attempt.first_try and attempt.skill == question.skill
    assert attempt.time_ms >= 0
    record = skills(app)[question.skill]
    assert record.attempts == 1 and record.correct == 1 and record.p_known > 0.2


def test_unreadable_answers_cost_nothing_and_their_text_is_shown_back_but_never_stored(guest, client, app):
    guest.sign_in()
    run_id = guest.start()
    through_intro(client, run_id)
    question = play_until_question(client, app, run_id)
    free_text = "Kari Hansen tlf 41234567"
    if question.answer == "choice":
        response = client.post(f"/runs/{run_id}/answer", data={"answer": free_text}, follow_redirects=True)
        assert "Please choose one of the buttons" in response.get_data(as_text=True)
    else:
        fragment = client.post(f"/runs/{run_id}/answer", data={"answer": free_text}, headers={"HX-Request": "true"})
        assert f'value="{free_text}"' in fragment.get_data(as_text=True)  # back in the box to correct, this once
        assert free_text not in client.get(f"/runs/{run_id}").get_data(as_text=True)
    stored = run_record(app, run_id).data
    assert "Kari" not in json.dumps(stored) and stored["marked"]["typed"] == ""
    assert stored["marked"]["error_code"]  # the refusal code is what is kept
    with client.session_transaction() as cookie:
        assert "Kari" not in json.dumps(dict(cookie))
    [attempt] = attempts(app)
    assert attempt.typed == "" and attempt.error_code
    assert not attempt.readable and not attempt.correct and not attempt.first_try
    assert skills(app) == {}
    assert run_of(app, run_id).drill.open


def test_a_wrong_answer_gets_feedback_hints_and_a_worked_solution(guest, client, app):
    """Every number shown is worked out here from the card in the stored deal, not read from the question."""
    from tutor.drills.exact_sum import exact_card_sum

    guest.sign_in()
    run_id = guest.start()
    through_intro(client, run_id)
    card = DECK[min(run_of(app, run_id).game_state().hands[0])]
    ask_now(app, run_id, exact_card_sum(card.id))
    tens, ones = [v // 10 * 10 for v in card.circled], [v % 10 for v in card.circled]
    exact, wrong = sum(card.circled), sum(card.circled) + card.top  # the top number added too: a known mistake
    drill = drill_section(
        client.post(f"/runs/{run_id}/answer", data={"answer": str(wrong)}, follow_redirects=True).get_data(as_text=True)
    )
    feedback = re.search(r'<div class="feedback feedback-wrong">(.*?)</div>', drill, re.S).group(1)
    assert "I read" not in feedback and "Not quite right yet." in feedback  # read as typed: not said back
    assert "It looks as if you added the big top number too. Only the circled values count." in feedback
    [attempt] = attempts(app)
    stored = (
        attempt.typed,
        attempt.read_as,
        attempt.correct,
        attempt.readable,
        attempt.first_try,
        attempt.misconception,
        attempt.skill,
        attempt.hints_used,
    )
    assert stored == (str(wrong), str(wrong), False, True, True, "added_top", "exact_sum", 0)
    assert skills(app)["exact_sum"].attempts == 1 and skills(app)["exact_sum"].correct == 0
    client.post(f"/runs/{run_id}/hint")
    drill = drill_section(client.post(f"/runs/{run_id}/hint", follow_redirects=True).get_data(as_text=True))
    assert listed(drill, "hints") == [
        "Add the tens first, then the ones, then put them together.",
        f"Tens: {plus(tens)} = {sum(tens)}. Ones: {plus(ones)} = {sum(ones)}.",
    ]
    drill = drill_section(client.post(f"/runs/{run_id}/solution", follow_redirects=True).get_data(as_text=True))
    assert listed(drill, "solution") == [
        f"Add the tens: {plus(tens)} = {sum(tens)}.",
        f"Add the ones: {plus(ones)} = {sum(ones)}.",
        f"Put them together: {sum(tens)} + {sum(ones)} = {exact}.",
    ]
    assert len(attempts(app)) == 1, "hints and the solution are not answers"
    client.post(f"/runs/{run_id}/go-on")
    run = run_of(app, run_id)
    assert run.stage == "play" and (run.drill.question is None or run.current_question().kind != "exact_card_sum")


def plus(values) -> str:
    return " + ".join(map(str, values))


def listed(drill: str, box: str) -> list[str]:
    """The items of the drill's hints or worked solution, as the pupil reads them."""
    items = re.search(rf'<div class="{box}">.*?<ol>(.*?)</ol>', drill, re.S).group(1)
    return [html.unescape(item) for item in re.findall(r"<li>(.*?)</li>", items, re.S)]


def test_htmx_requests_get_the_lesson_fragment(guest, client, app):
    guest.sign_in()
    run_id = guest.start()
    response = client.post(f"/runs/{run_id}/next-step", headers={"HX-Request": "true"})
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and html.lstrip().startswith('<section id="lesson"') and "<html" not in html


def stored_run(app, run_id) -> tuple:
    record = run_record(app, run_id)
    return record.data, record.version, record.stage, record.finished_at


def refused_without_change(client, app, run_id, action, form):
    """Post one step the lesson must refuse: a 409 that says so once, and the stored run as it was."""
    before = stored_run(app, run_id)
    response = client.post(f"/runs/{run_id}/{action}", data=form)
    page = response.get_data(as_text=True)
    assert response.status_code == 409, f"{action} {form} gave {response.status_code}"
    assert page.count("This page was out of date, so nothing was changed.") == 1, f"{action} {form}"
    assert stored_run(app, run_id) == before, f"{action} {form} changed the stored run"


def test_stale_or_illegal_steps_are_refused_without_changing_the_game(guest, client, app):
    guest.sign_in()
    run_id = guest.start()
    refused_without_change(client, app, run_id, "move", {"move": "play:0:"})  # still in the intro
    through_intro(client, run_id)
    while run_of(app, run_id).drill.question:
        client.post(f"/runs/{run_id}/go-on")
    run = run_of(app, run_id)
    mine, theirs = sorted(run.game_state().hands[0]), sorted(run.game_state().hands[1])
    for action, form in [
        ("move", {"move": "play:999:"}),
        ("move", {"move": "play:abc:"}),
        ("move", {"move": ""}),
        ("move", {"move": f"play:{theirs[0]}:"}),  # the other player's card
        ("move", {"move": f"play:{mine[0]},{mine[1]}:"}),  # two cards at once
        ("move", {"move": f"play:{mine[0]}:", "step": str(run.step - 1)}),  # a right move from an old page
        ("answer", {"answer": "12"}),  # no question is open
        ("hint", {}),
        ("solution", {}),
        ("go-on", {}),
        ("next-step", {}),  # the intro is over
        ("skip-intro", {}),
        ("pick", {"card": str(mine[0])}),  # not how this game is played
        ("play-picked", {}),
        ("typed-move", {"expression": f"{DECK[mine[0]].top} + {DECK[mine[1]].top}"}),
    ]:
        refused_without_change(client, app, run_id, action, form)
    assert attempts(app) == []
    response = client.post(f"/runs/{run_id}/move", data={"move": f"play:{mine[0]}:", "step": str(run.step)})
    assert response.status_code == 302 and run_of(app, run_id).step == run.step + 1, (
        "the same move from the page as it is now is played"
    )


def test_a_pupil_cannot_open_another_pupils_game(guest, client, app):
    guest.sign_in("Ada")
    run_id = guest.start()
    other = app.test_client()
    other.post("/guest", data={"name": "Bo"})
    assert other.get(f"/runs/{run_id}").status_code == 404
    assert other.post(f"/runs/{run_id}/skip-intro").status_code == 404


def test_the_game_survives_a_server_restart(guest, client, app, database_url):
    guest.sign_in()
    run_id = guest.start()
    through_intro(client, run_id)
    page_before = client.get(f"/runs/{run_id}").get_data(as_text=True)
    restarted = create_app(
        {"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "test-secret", "WTF_CSRF_ENABLED": False}
    )
    second = restarted.test_client()
    second.set_cookie("session", client.get_cookie("session").value)
    page_after = second.get(f"/runs/{run_id}").get_data(as_text=True)
    # CSRF tokens carry the second they were signed in; everything else must be identical.
    page_before, page_after = (
        re.sub(r'(csrf_token" value="|X-CSRFToken": ")[^"]+', r"\1…", page) for page in (page_before, page_after)
    )
    assert page_after == page_before, "\n".join(
        difflib.unified_diff(page_before.splitlines(), page_after.splitlines(), lineterm="", n=1)
    )
    restarted.extensions["db_engine"].dispose()


def test_home_page_offers_to_continue_an_unfinished_game(guest, client):
    guest.sign_in()
    run_id = guest.start()
    assert f"/runs/{run_id}" in client.get("/").get_data(as_text=True)


def test_progress_page_lists_the_skills_the_games_practise(guest, client):
    from tutor.classroom import game_skills

    guest.sign_in()
    page = client.get("/progress").get_data(as_text=True)
    practised = {skill for game_id in LESSONS for skill in game_skills(game_id)}
    assert page.count('<li class="skill-card') == len(practised) and "You have not tried this yet." in page
    assert "Missing number" in page  # missing_addend, practised in 29


def test_language_choice_is_remembered_and_only_local_redirects_are_followed(client):
    response = client.post("/language", data={"locale": "nb", "next": "https://evil.example/"})
    assert response.headers["Location"] == "/"
    assert 'lang="nb"' in client.get("/").get_data(as_text=True)
    client.post("/language", data={"locale": "xx"})
    assert 'lang="nb"' in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize("game_id", sorted(LESSONS))
def test_every_lesson_is_played_through_the_routes_to_a_right_answer(client, app, guest, game_id):
    """Start each game's lesson, make the first move offered until a drill comes, answer it right."""
    app.config["CASINO_WAR_FOR_GUESTS"] = True  # off unless the operator switches it on (tests/test_casino_switch.py)
    guest.sign_in()
    assert game_id in client.get("/").get_data(as_text=True)
    assert client.get(f"/lessons/{game_id}").status_code == 200
    players = str(min(3, GAMES[game_id].max_players))
    response = client.post(f"/lessons/{game_id}/start", data={"players": players, "strength": "beginner"})
    run_id = response.headers["Location"].rsplit("/", 1)[1]
    through_intro(client, run_id)
    for _ in range(200):
        run = run_of(app, run_id)
        if run.drill.question:
            break
        if run.stage == "finished":  # a short game can end before its first drill point: play again
            response = client.post(f"/lessons/{game_id}/start", data={"players": players, "strength": "beginner"})
            run_id = response.headers["Location"].rsplit("/", 1)[1]
            through_intro(client, run_id)
            continue
        page = client.get(f"/runs/{run_id}").get_data(as_text=True)
        token = re.search(r'name="move" value="([^"]+)"', page)
        state = run.game_state()
        placed = next(  # a card picked, then a place (29): the first legal one, as the page makes it
            (m for m in state.legal_moves() if LESSONS[game_id].places_cards and m.cards), None
        )
        if placed is not None:
            for card in placed.cards:
                client.post(f"/runs/{run_id}/pick", data={"card": str(card)})
            client.post(f"/runs/{run_id}/move", data={"move": move_token(placed)})
        elif token:
            client.post(f"/runs/{run_id}/move", data={"move": html.unescape(token.group(1))})
        else:
            mine = [c for c in run.game_state().turned[0] if not DECK[c].is_special]
            client.post(f"/runs/{run_id}/typed-move", data={"expression": f"{DECK[mine[0]].top} + {DECK[mine[1]].top}"})
    question = run.current_question()
    page = client.post(
        f"/runs/{run_id}/answer", data={"answer": right_answer(question, "en")}, follow_redirects=True
    ).get_data(as_text=True)
    assert "feedback-right" in page, page[page.find("drill") :][:800]
    assert attempts(app)[-1].correct


def test_a_typed_move_that_breaks_the_rules_is_refused_kindly_and_kept(client, app, guest):
    guest.sign_in()
    response = client.post("/lessons/triplesmart-extreme/start", data={"players": "2", "strength": "beginner"})
    run_id = response.headers["Location"].rsplit("/", 1)[1]
    through_intro(client, run_id)
    run = run_of(app, run_id)
    mine = [DECK[c].top for c in run.game_state().turned[0] if not DECK[c].is_special]
    missing = next(n for n in range(1, 10) if n not in mine)
    # A readable expression the rules refuse is told in the coach box with the numbers; unreadable text under the box.
    for typed, message, shown, fragment in [
        (f"{missing} + {mine[0]}", f"There is no {missing} on your cards", "told-refused", False),
        ("tolv", "", "flash-error", True),
        ("Kari Hansen tlf 41234567", "", "flash-error", True),
    ]:
        headers = {"HX-Request": "true"} if fragment else {}
        page = client.post(
            f"/runs/{run_id}/typed-move", data={"expression": typed}, headers=headers, follow_redirects=True
        ).get_data(as_text=True)
        assert shown in page and message in page
        assert f'value="{html.escape(typed)}"' in page, "the typed text must not be lost"
        assert run_of(app, run_id).moves == run.moves
    # unreadable text (it may be a name) rides in no cookie: without JavaScript the box is empty after the redirect
    page = client.post(f"/runs/{run_id}/typed-move", data={"expression": "Kari"}, follow_redirects=True)
    assert 'value="Kari"' not in page.get_data(as_text=True)
    with client.session_transaction() as cookie:
        assert "Kari" not in json.dumps(dict(cookie))


def test_games_without_a_hand_show_no_empty_hand(client, app, guest):
    guest.sign_in()
    for game_id, has_hand in (("triplesmart", False), ("multiwar", False), ("multimatch", True)):
        response = client.post(f"/lessons/{game_id}/start", data={"players": "2", "strength": "beginner"})
        run_id = response.headers["Location"].rsplit("/", 1)[1]
        page = through_intro(client, run_id).get_data(as_text=True)
        assert ('id="hand-heading"' in page) is has_hand, game_id


# --- drill questions on the page: the cards asked about, the right answer after the last wrong choice, progress


def ask_now(app, run_id, question):
    """Put ``question`` up as the open question of a lesson in play (as a drill point would)."""
    from tutor.models import LessonRunRecord

    with app.app_context():
        database = db.session()
        record = database.scalar(select(LessonRunRecord).where(LessonRunRecord.public_id == run_id))
        run = LessonRun.from_dict(record.data)
        (
            run.drill.question,
            run.drill.open,
            run.drill.tries,
            run.drill.hints_shown,
            run.drill.solution_shown,
            run.drill.marked,
        ) = (
            question.to_dict(),
            True,
            0,
            0,
            False,
            None,
        )
        record.data = run.to_dict()
        database.commit()


def drill_section(page: str) -> str:
    return page[page.index('<section class="drill"') : page.index("</section>", page.index('<section class="drill"'))]


def test_a_choice_question_shows_the_cards_it_asks_about(guest, client, app):
    from tutor.drills.multiply import multiply_top_numbers

    guest.sign_in()
    run_id = guest.start("multimatch")
    through_intro(client, run_id)
    fives = [c for c in DECK.number_card_ids if DECK[c].top == 5][:2]
    seven = next(c for c in DECK.number_card_ids if DECK[c].top == 7)
    ask_now(app, run_id, multiply_top_numbers(fives[1], seven, 1))  # buttons: 35 and two wrong products
    drill = drill_section(client.get(f"/runs/{run_id}").get_data(as_text=True))
    shown = drill[drill.index('class="cards question-cards"') :]
    labels = re.findall(r'class="card-figure" role="img" aria-label="([^"]+)"', shown)
    circled = [", ".join(map(str, DECK[c].circled)) for c in (fives[1], seven)]
    assert len(labels) == 2 and all(values in label for values, label in zip(circled, labels))
    assert ", ".join(map(str, DECK[fives[0]].circled)) not in drill  # the other 5 is not the one asked about


def test_after_the_last_wrong_choice_the_right_answer_is_shown_and_the_pupils_choice_marked(
    guest, client, app, fixed_deal
):
    from tutor.drills.estimate_sum import best_card

    fixed_deal(1)
    guest.sign_in()
    run_id = guest.start()
    through_intro(client, run_id)
    hand = sorted(run_of(app, run_id).game_state().hands[0])
    question = best_card(hand)
    wrong = [c["value"] for c in question.choices if c["value"] not in question.check["expected"]]
    ask_now(app, run_id, question)
    page = client.post(f"/runs/{run_id}/answer", data={"answer": wrong[0]}, follow_redirects=True).get_data(
        as_text=True
    )
    assert "choices-reveal" not in page  # a second try is still open
    page = client.post(f"/runs/{run_id}/answer", data={"answer": wrong[1]}, follow_redirects=True).get_data(
        as_text=True
    )
    reveal = page[
        page.index('<ul class="choices-reveal"') : page.index("</ul>", page.index('<ul class="choices-reveal"'))
    ]
    items = re.findall(r'<li class="reveal([^"]*)">(.*?)</li>', reveal, re.S)
    right = [body for marks, body in items if "reveal-right" in marks]
    picked = [body for marks, body in items if "reveal-picked" in marks]
    best = question.check["expected"][0]
    assert len(items) == len(hand) and len(right) == 1 and len(picked) == 1
    assert " + ".join(map(str, DECK[int(best)].circled)) in right[0] and "the right answer" in right[0]
    assert " + ".join(map(str, DECK[int(wrong[1])].circled)) in picked[0] and "your choice" in picked[0]


def test_the_progress_page_counts_right_after_trying_again_apart_from_first_tries(guest, client, app):
    from tutor.drills.exact_sum import exact_card_sum

    guest.sign_in()
    run_id = guest.start()
    through_intro(client, run_id)
    question = exact_card_sum(min(run_of(app, run_id).game_state().hands[0]))
    ask_now(app, run_id, question)
    client.post(f"/runs/{run_id}/answer", data={"answer": wrong_answer(question, "en")})
    client.post(f"/runs/{run_id}/answer", data={"answer": right_answer(question, "en")})
    page = client.get("/progress").get_data(as_text=True)
    card = next(c for c in page.split('<li class="skill-card') if "Exact sums" in c)
    assert "You fixed 1 mistake by trying again." in card  # the right retry, apart from the wrong first try
    assert "status-attempted" in card and "You have made a start." in card and 'aria-label="1 star of 4"' in card
    assert page.count("by trying again") == 1  # only the skill that was retried


def test_translations_are_looked_up_once_per_request_and_again_under_another_locale(app):
    from flask_babel import force_locale

    from tutor.web.i18n import current_locale, say

    with app.test_request_context(headers={"Accept-Language": "nb"}):
        assert say("Computer players") == "Datamaskinspillere" and current_locale() == "nb"
        with force_locale("it"):  # a teacher's page printing a class's cards in the class's language
            assert say("Computer players") == "Giocatori computer" and current_locale() == "it"
        assert say("Computer players") == "Datamaskinspillere"


def test_a_lesson_step_sends_no_new_session_cookie(guest, client):
    """The cookie set at sign-in lasts as long as the sign-in may: signing it again every step is wasted work."""
    guest.sign_in()
    run_id = guest.start()
    client.get(f"/runs/{run_id}")
    response = client.post(f"/runs/{run_id}/next-step", headers={"HX-Request": "true"})
    assert response.status_code == 200 and "Set-Cookie" not in response.headers
