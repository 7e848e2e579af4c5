"""Every game's lesson in a real Chromium: start it, play with the keyboard, answer a drill right.

Each registered game is played until its first drill point (Calculation War also has its
own, longer journey in test_browser.py); the right answer is worked out from the question
the server stored (as a teacher's answer key would be), typed or chosen, and must be
marked right. The languages rotate so that every game is seen in one of the four.
"""

from __future__ import annotations

import json

import pytest
from sqlalchemy import create_engine, text

from tests.answer_key import right_answer
from tests.browser_support import Visit
from tutor.lessons import LESSONS

pytestmark = pytest.mark.browser

LANGUAGES = [("en", "English"), ("nb", "Norsk bokmål"), ("sv", "Svenska"), ("it", "Italiano")]
CASES = [(game_id, *LANGUAGES[index % len(LANGUAGES)]) for index, game_id in enumerate(sorted(LESSONS))]
# War, where the youngest pupils start, in every language (the standard cards' names and the story)
CASES += [("war", *language) for language in LANGUAGES if ("war", *language) not in CASES]


def stored_question(database_url: str, pupil_name: str) -> dict:
    """The open question of this pupil's newest lesson, as the server stored it."""
    engine = create_engine(database_url)
    with engine.connect() as connection:
        row = connection.execute(
            text(
                "SELECT r.data FROM lesson_run r JOIN pupil p ON p.id = r.pupil_id WHERE p.name = :name ORDER BY r.id "
                "DESC LIMIT 1"
            ),
            {"name": pupil_name},
        ).one()
    engine.dispose()
    data = row[0] if isinstance(row[0], dict) else json.loads(row[0])
    return data["question"]


def make_a_move(visit: Visit, game_id: str) -> None:
    """Make the first move offered: a card from the hand, a move button, or a typed expression."""
    page = visit.page
    if page.locator("input#expression").count():
        assert 'id="expression"' in visit.focused(), "the expression box should have the focus"
        mine = page.locator("section.zone-this-round li.seat").first.locator("text.top-number").all_text_contents()
        page.keyboard.type(" + ".join(mine[:2]))
        visit.press("Enter")
        if page.locator("input#expression").count() and page.locator(".flash-error").count():
            raise AssertionError(page.locator(".flash-error").inner_text())
        return
    if page.locator("section.hand form[action$='/pick']").count() and LESSONS[game_id].places_cards:
        place_a_card(visit)
        return
    if page.locator("section.hand form[action$='/pick']").count() and pick_marked_cards(visit):
        return
    buttons = page.locator("section.hand button.card-button, section.moves button.move-button")
    assert buttons.count(), "the pupil should have a move: " + page.locator("section#lesson").inner_text()[:500]
    assert "data-autofocus" in visit.focused() or "button" in visit.focused()
    buttons.first.focus()
    visit.press("Enter")


def place_a_card(visit: Visit) -> None:
    """In a game of a card and a place (29): ask what can be played, pick the first marked card and try its first
    two places until the rules take one (a refused place keeps the card picked); else put the card back and make
    the last move button (draw a card instead, end the turn, let it go). A few requests a move: the lesson's
    steps are rate-limited."""
    page = visit.page
    if page.locator("form[action$='/show-playable'] button").count():
        page.locator("form[action$='/show-playable'] button").focus()
        visit.press("Enter")
    if page.locator("section.hand button.card-button.playable").count():
        page.locator("section.hand button.card-button.playable").first.focus()
        visit.press("Enter")
        for place in range(min(2, page.locator("section.moves button.place-button").count())):
            page.locator("section.moves button.place-button").nth(place).focus()
            visit.press("Enter")
            if (
                not page.locator(".told-refused").count()
                or not page.locator("section.moves button.place-button").count()
            ):
                return
        page.locator("section.hand button.card-button.picked").first.focus()  # put it back
        visit.press("Enter")
    page.locator("section.moves button.move-button").last.focus()
    visit.press("Enter")


def pick_marked_cards(visit: Visit) -> bool:
    """In a game of picked cards: ask what can be played, then pick the marked cards one by one,
    trying to play them after each, until the rules take them (False: they never did)."""
    page = visit.page
    if page.locator("form[action$='/show-playable'] button").count():
        page.locator("form[action$='/show-playable'] button").focus()
        visit.press("Enter")
    for index in range(page.locator("section.hand button.card-button.playable").count()):
        page.locator("section.hand button.card-button.playable").nth(index).focus()
        visit.press("Enter")
        page.locator("form[action$='/play-picked'] button").focus()
        visit.press("Enter")
        if not page.locator(".told-refused").count():
            return True
    return False


@pytest.mark.parametrize("game_id,language,button", CASES)
def test_each_game_is_played_to_a_drill_that_is_answered_right(browser, live_server, game_id, language, button):
    visit = Visit(browser, live_server)
    page = visit.page
    page.goto(live_server + "/")
    page.get_by_role("button", name=button).click()
    page.wait_for_load_state("networkidle")
    name = f"Pupil {game_id} {language}"
    page.locator("input#name").fill(name)
    page.locator("input#name").press("Enter")
    page.wait_for_load_state("networkidle")
    page.locator(f'a[href="/lessons/{game_id}"]').click()
    page.wait_for_load_state("networkidle")
    visit.axe(f"the {game_id} start page")
    page.locator("form.panel button.primary").click()
    page.wait_for_load_state("networkidle")
    assert page.locator("section#lesson.stage-intro").count(), "the lesson starts with the rules"
    visit.axe(f"the first {game_id} intro step")
    page.locator("form[action$='/skip-intro'] button").focus()
    visit.press("Enter")

    for _ in range(80):
        if page.locator("section.drill").count():
            break
        if page.locator("section#lesson.stage-finished").count():
            # A short game can end before its first drill point (a war in round one that
            # takes every card): start a new game, as a pupil would.
            page.locator("section#lesson a.button.primary").click()
            page.wait_for_load_state("networkidle")
            page.locator("form.panel button.primary").click()
            page.wait_for_load_state("networkidle")
            page.locator("form[action$='/skip-intro'] button").focus()
            visit.press("Enter")
            continue
        make_a_move(visit, game_id)
    else:
        raise AssertionError(f"{game_id}: no drill in 80 moves")
    visit.axe(f"a {game_id} drill")
    question = stored_question(live_server.database_url, name)
    answer = right_answer(question, language)
    if question["answer"] == "choice":
        page.locator(f'section.drill button[name="answer"][value="{answer}"]').focus()
    else:
        page.locator("input#answer").focus()
        page.keyboard.type(answer)
    visit.press("Enter")
    assert page.locator("section.drill .feedback-right").count() == 1, page.locator("section.drill").inner_text()
    visit.axe(f"feedback in {game_id}")
    visit.press("Enter")  # "Continue the game" has the focus
    assert page.locator("section#lesson").count() == 1
    assert not visit.problems, visit.problems
    visit.close()
