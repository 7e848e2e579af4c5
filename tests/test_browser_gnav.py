"""Gnav in a real Chromium in all four languages: a refused refusal with its reason, a matador's call, a round's
result with the new points, and the cards named in the page's language.

The journey of tests/test_browser_decisions.py (its Gnav plan: the pupil knocks, refuses with a matador, gives
any other card, trades a low card) is played once in each language, not only in the one the rotation there
gives Gnav.
"""

from __future__ import annotations

import pytest

from tests.browser_support import Visit
from tests.test_browser_decisions import LANGUAGES, STARTS, STEP_BOUND, Journey, Stored, plan_for, steps_needed
from tutor import gnav_deck
from tutor.lessons.runner import PUPIL
from tutor.text import say

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("locale,button", LANGUAGES)
def test_gnav_refuses_a_refusal_tells_a_call_and_a_result_in_every_language(browser, live_server, locale, button):
    plan = plan_for("gnav", locale)
    name = f"Gnav {locale}"
    visit = Visit(browser, live_server)
    stored = Stored(live_server.database_url, name)
    journey = Journey(visit, stored, plan)
    try:
        visit.sign_in(name, button)
        missing: set[str] = set()
        for _ in range(STARTS):
            journey.start()
            if steps_needed(plan, stored.run(), missing) is not None:
                break
        else:
            raise AssertionError(f"no Gnav game in {STARTS} starts showed everything in {STEP_BOUND} steps: {missing}")
        assert journey.play() >= {"refusal", "outcome", "effect"}
        held = stored.run().game_state().hands[PUPIL]
        if held:  # the pupil's card, face up at their seat, named in the page's language (for screen readers too)
            seat = visit.page.locator("section.zone-this-round li.seat").first
            name = say(gnav_deck.card_name(held[0]), locale)
            assert seat.locator(".card-figure").first.get_attribute("aria-label") == name
            assert name in seat.locator(".seat-name").inner_text()
        assert not visit.problems, visit.problems
    finally:
        stored.close()
        visit.close()
