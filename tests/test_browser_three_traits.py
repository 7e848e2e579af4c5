"""Three Traits in a real Chromium, in all four languages: the lesson is played to its end, the row's attributes
are shown on request and fit the screen, a card the rules refuse is told with the attributes it shares, and a card
that fits is told too.

What the pupil does is worked out from the run the server stored (as in tests/test_browser_decisions.py): the
lesson's own ``judge`` finds a card that does not fit, the rules the cards that do.
"""

from __future__ import annotations

import pytest

from tests.browser_support import Visit
from tests.seeds import game_seed
from tests.test_browser_decisions import Stored, squeeze
from tests.test_browser_layout import out_of_view
from tutor.answer_key import right_answer
from tutor.engine import Move
from tutor.lessons import LESSONS
from tutor.lessons.base import HAND, move_token
from tutor.lessons.runner import FINISHED, PUPIL
from tutor.lessons.three_traits import attributes
from tutor.standard_deck import card
from tutor.text import say

pytestmark = pytest.mark.browser

LESSON = LESSONS["three-traits"]
LANGUAGES = [("en", "English"), ("nb", "Norsk bokmål"), ("sv", "Svenska"), ("it", "Italiano")]
#: Requests a whole lesson may take (questions, refused and played cards, draws, ends of turns).
BOUND = 150


class Journey:
    def __init__(self, visit: Visit, stored: Stored, locale: str) -> None:
        self.visit, self.page, self.stored, self.locale = visit, visit.page, stored, locale
        self.lesson_section = self.page.locator("section#lesson")

    def text(self) -> str:
        return squeeze(self.lesson_section.text_content())

    def press(self, selector: str) -> None:
        button = self.lesson_section.locator(selector)
        assert button.count() == 1, selector
        self.visit.click(button)

    def check_the_attributes_on_request(self, run) -> None:
        """The list under the row is closed, opens on a tap, names both cards in the page's language, and fits."""
        state = run.game_state()
        details = self.lesson_section.locator("details.zone-details")
        assert details.count() == 1 and details.get_attribute("open") is None
        summary = details.locator("summary")
        assert squeeze(summary.text_content()) == say("Show the attributes", self.locale)
        lines = details.locator("li")
        assert not lines.first.is_visible()
        summary.click()
        expected = [squeeze(say(attributes(c), self.locale)) for c in state.row[-2:]]
        assert [squeeze(text) for text in lines.all_text_contents()] == expected
        assert lines.first.is_visible() and lines.last.is_visible()
        assert not out_of_view(self.visit, ["section.zone-row", "section.zone-row details.zone-details"])
        assert self.page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0
        self.visit.axe(f"Three Traits in {self.locale}: the attributes shown")
        summary.click()

    def refuse_a_card(self, run) -> bool:
        """Tap a card that does not fit: nothing is played, and the reason names the cards in the page's language."""
        state = run.game_state()
        for card_id in state.hands[PUPIL]:
            move = Move("play", PUPIL, (card_id,))
            judged = LESSON.judge(state, PUPIL, move)
            if judged is None or judged.correct:
                continue
            self.press(f"button[name=move][value='{move_token(move)}']")
            after = self.stored.run()
            assert after.moves == run.moves and after.state == run.state, "a refused card plays nothing"
            refused = self.lesson_section.locator(".told-refused")
            assert refused.count() == 1, self.text()[:600]
            line = squeeze(refused.text_content())
            assert line == squeeze(say(judged.told, self.locale))
            assert card(card_id).corner in line and card(state.last).corner in line
            if self.locale != "en":
                assert line != squeeze(say(judged.told, "en")), "the reason is in the page's language"
            self.visit.axe(f"Three Traits in {self.locale}: a refused card")
            return True
        return False

    def next_step(self, run) -> str:
        """The form a pupil who plays the rules sends next: an answer, going on, a card that fits, or the other move."""
        if run.drill.question is not None and run.drill.open:
            return f"section.drill button[name=answer][value='{right_answer(run.drill.question, self.locale)}']"
        if run.drill.question is not None:
            return "form[action$='/go-on'] button"
        state = run.game_state()
        fitting = state.playable(PUPIL)
        if fitting:
            return f"button[name=move][value='{move_token(Move('play', PUPIL, (fitting[0],)))}']"
        action = next(choice for choice in LESSON.choices(state, PUPIL) if choice.place != HAND)
        return f"button[name=move][value='{action.token}']"


@pytest.mark.parametrize("locale,button", LANGUAGES)
def test_three_traits_is_played_to_its_end_with_a_refused_card_told_in_every_language(
    browser, live_server, fixed_deal, locale, button
):
    fixed_deal(game_seed("three-traits"))
    name = f"Traits {locale}"
    visit = Visit(browser, live_server, viewport=(1024, 768))
    stored = Stored(live_server.database_url, name)
    journey = Journey(visit, stored, locale)
    try:
        visit.sign_in(name, button)
        assert visit.page.locator("html").get_attribute("lang") == locale
        visit.start("three-traits")
        intro = squeeze(visit.page.locator("section#lesson .coach").text_content())
        assert say("Three Traits", locale) in intro
        journey.press("form[action$='/skip-intro'] button")
        attributes_checked = refused = told_right = False
        for _ in range(BOUND):
            run = stored.run()
            if run.stage == FINISHED:
                break
            state = run.game_state()
            pupil_to_move = run.drill.question is None and state.current_player == PUPIL
            if pupil_to_move and not attributes_checked:
                journey.check_the_attributes_on_request(run)
                attributes_checked = True
            if pupil_to_move and not refused and journey.refuse_a_card(run):
                refused = True
                continue
            journey.press(journey.next_step(run))
            told = journey.lesson_section.locator(".told-right")
            told_right |= told.count() == 1 and bool(squeeze(told.text_content()))
        run = stored.run()
        assert run.stage == FINISHED, "the lesson did not end"
        assert attributes_checked and refused and told_right
        page_text = journey.text()
        for line in LESSON.finish_story(run.game_state(), PUPIL):
            assert squeeze(say(line, locale)) in page_text
        assert not visit.problems, visit.problems
    finally:
        stored.close()
        visit.close()


@pytest.mark.parametrize("size", [(1024, 768), (390, 844)], ids=lambda size: f"{size[0]}x{size[1]}")
def test_the_attributes_on_request_fit_a_laptop_and_a_phone(browser, live_server, fixed_deal, size):
    fixed_deal(game_seed("three-traits"))
    visit = Visit(browser, live_server, viewport=size)
    stored = Stored(live_server.database_url, f"Attributes {size[0]}")
    journey = Journey(visit, stored, "en")
    try:
        visit.sign_in(f"Attributes {size[0]}")
        visit.start("three-traits")
        journey.press("form[action$='/skip-intro'] button")
        for _ in range(10):
            run = stored.run()
            if run.drill.question is None and run.game_state().current_player == PUPIL:
                break
            journey.press(journey.next_step(run))
        journey.check_the_attributes_on_request(stored.run())
        assert not visit.problems, visit.problems
    finally:
        stored.close()
        visit.close()
