"""The number pad on a touch screen, in a real Chromium: War and MultiWar played by tapping, numbers typed on the pad.

A phone's tab (Playwright ``has_touch`` and ``is_mobile``: the page sees ``pointer: coarse``)
plays each game in two languages, the four languages between them, tapping its moves and the
right button of every choice until a question to type comes up (a count in War, a product in
MultiWar). Then the pad must be shown with the locale's decimal sign and named for screen
readers, and the answer box must not have the focus (that would open the phone's own keyboard
over the pad). A wrong answer that shows a misconception is typed key by key on the pad (never
the keyboard) and marked wrong with the misconception named, taken back with the pad's delete
key, and the right answer typed and marked right. The same page on a desktop, and on a phone
without the script, shows the plain answer box and no pad. axe-core checks every step.
"""

from __future__ import annotations

import pytest

from tests.browser_support import Visit
from tests.test_browser_games import stored_question
from tutor.answer_key import right_answer, wrong_answer

pytestmark = pytest.mark.browser

CASES = [
    ("war", "nb", "Norsk bokmål"),
    ("war", "en", "English"),
    ("multiwar", "sv", "Svenska"),
    ("multiwar", "it", "Italiano"),
]
PAD_NAME = {"en": "Number pad", "nb": "Talltastatur", "sv": "Sifferknappar", "it": "Tastierino numerico"}
DECIMAL_SIGN = {"en": ".", "nb": ",", "sv": ",", "it": ","}
PHONE = (412, 860)


def start_playing(visit: Visit, game_id: str) -> None:
    visit.start(game_id)
    visit.axe(f"the first {game_id} intro step on a phone")
    visit.tap(visit.page.locator("form[action$='/skip-intro'] button"))


def play_to_a_typed_question(visit: Visit, name: str, game_id: str) -> dict:
    """Tap moves, the right button of each choice and "Continue" until a question to type is open; return it."""
    page = visit.page
    for _ in range(150):
        if page.locator("section.drill").count():
            question = stored_question(visit.base_url.database_url, name)
            if not page.locator("section.drill form.answer-form").count():
                visit.tap(page.locator("form[action$='/go-on'] button"))
            elif question["answer"] == "number":
                return question
            else:
                right = right_answer(question, "en")
                visit.tap(page.locator(f'section.drill button[name="answer"][value="{right}"]'))
        elif page.locator("section#lesson.stage-finished").count():
            start_playing(visit, game_id)  # a short game can end before a question to type: play again
        else:
            visit.tap(page.locator("section.hand button.card-button, section.moves button.move-button").first)
    raise AssertionError(f"{game_id}: no question to type in 150 steps")


def type_on_the_pad(visit: Visit, typed: str) -> None:
    """Tap the pad's key for each sign (a keyboard's "-" is the pad's minus sign)."""
    for sign in typed:
        visit.page.locator(f'.number-pad button[data-pad-insert="{"−" if sign == "-" else sign}"]').tap()


def no_pad_elsewhere(browser, visit: Visit) -> None:
    """The open question's page on a desktop (the box has the focus) and on a phone without the script."""
    state = visit.context.storage_state()
    for label, options in (
        ("a desktop", {}),
        ("a phone without the script", {"has_touch": True, "is_mobile": True, "java_script_enabled": False}),
    ):
        context = browser.new_context(storage_state=state, viewport={"width": 1200, "height": 900}, **options)
        page = context.new_page()
        page.goto(visit.page.url)
        page.wait_for_load_state("networkidle")
        assert page.locator("input#answer").is_visible() and page.locator(".number-pad").is_hidden(), label
        if options.get("java_script_enabled", True):
            assert page.evaluate("() => document.activeElement.id") == "answer", label
        context.close()


@pytest.mark.parametrize("game_id,locale,button", CASES)
def test_numbers_are_typed_on_the_touch_screens_number_pad(browser, live_server, game_id, locale, button):
    visit = Visit(browser, live_server, viewport=PHONE, touch=True)
    page = visit.page
    name = f"Pad {game_id} {locale}"
    visit.sign_in(name, button)
    start_playing(visit, game_id)
    question = play_to_a_typed_question(visit, name, game_id)

    pad = page.locator("section.drill .number-pad")
    assert pad.is_visible() and pad.get_attribute("aria-label") == PAD_NAME[locale]
    assert pad.locator(f'button[data-pad-insert="{DECIMAL_SIGN[locale]}"]').count() == 1
    assert page.locator("input#answer").get_attribute("inputmode") == "decimal"
    assert 'id="answer"' not in visit.focused(), "the phone's own keyboard would cover the pad"
    visit.axe(f"a {game_id} question with the number pad ({locale})")
    no_pad_elsewhere(browser, visit)

    wrong = wrong_answer(question, locale, misconception=True) or wrong_answer(question, locale)
    type_on_the_pad(visit, wrong)
    assert page.locator("input#answer").input_value() == wrong.replace("-", "−")
    visit.tap(page.locator("section.drill button.answer-submit"))
    feedback = page.locator("section.drill .feedback-wrong p")
    assert feedback.count() >= 2, page.locator("section.drill").inner_text()  # wrong, and the misconception named
    visit.axe(f"a wrong answer typed on the pad ({locale})")

    for _ in page.locator("input#answer").input_value():
        pad.locator("button[data-pad-delete]").tap()
    assert page.locator("input#answer").input_value() == ""
    type_on_the_pad(visit, right_answer(question, locale))
    visit.tap(page.locator("section.drill button.answer-submit"))
    assert page.locator("section.drill .feedback-right").count() == 1, page.locator("section.drill").inner_text()
    visit.axe(f"a right answer typed on the pad ({locale})")
    visit.tap(page.locator("form[action$='/go-on'] button"))
    assert page.locator("section#lesson").count() == 1
    assert not visit.problems, visit.problems
    visit.close()
