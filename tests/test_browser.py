"""A pupil's journey in a real headless Chromium (Debian's package, driven by Playwright).

The lesson is played with the keyboard alone, up to and through drill answers, in two
languages. axe-core checks every page visited for serious or critical accessibility
violations; no request may leave the machine, and the Content-Security-Policy must not
have to block anything.
"""

from __future__ import annotations

import re

import pytest

from tests.browser_support import Visit

pytestmark = pytest.mark.browser

def circled_sums(locator) -> list[int]:
    """The circled sums of the cards inside each element matched by ``locator``, read off the SVG."""
    sums = []
    for index in range(locator.count()):
        values = locator.nth(index).locator("text.circled-value").all_text_contents()
        sums.append(sum(int(v) for v in values))
    return sums


def answer_question(visit: Visit, language_check: re.Pattern) -> str:
    """Answer the open drill with the keyboard: first something unreadable, then the right answer."""
    page = visit.page
    drill = page.locator("section.drill")
    prompt = drill.locator(".prompt").inner_text()
    assert language_check.search(prompt), f"prompt not in the chosen language: {prompt}"
    text_input = drill.locator("input#answer")
    if text_input.count():
        assert 'id="answer"' in visit.focused(), "the answer box should have the focus"
        page.keyboard.type("tolv pluss tre")
        visit.press("Enter")
        assert drill.locator(".feedback-unreadable").count() == 1
        assert page.locator("input#answer").input_value() == "tolv pluss tre", "the typed text must not be lost"
        visit.axe("an unreadable answer")
        total = circled_sums(page.locator("section.drill .cards"))[0]
        page.locator("input#answer").fill("")
        page.locator("input#answer").focus()
        page.keyboard.type(str(total))
        visit.press("Enter")
        assert page.locator("section.drill .read-as").count() == 1
        kind = "number"
    else:
        buttons = drill.locator("button.card-button")
        sums = circled_sums(buttons)
        best = sums.index(max(sums))
        assert 'card-button' in visit.focused()
        for _ in range(best):
            page.keyboard.press("Tab")
        visit.press("Enter")
        kind = "choice"
    assert page.locator("section.drill .feedback-right").count() == 1, page.locator("section.drill").inner_text()
    visit.axe("feedback on a right answer")
    visit.press("Enter")  # "Continue the game" has the focus
    return kind


@pytest.mark.parametrize(
    "language,button,check",
    [("en", "English", re.compile(r"card|sum|Which")), ("nb", "Norsk bokmål", re.compile(r"kort|sum|Hvilket|[æøå]"))],
)
def test_a_pupil_plays_a_lesson_with_the_keyboard_through_drill_answers(browser, live_server, language, button, check):
    visit = Visit(browser, live_server)
    page = visit.page
    page.goto(live_server + "/")
    visit.axe("the home page")
    page.get_by_role("button", name=button).click()
    page.wait_for_load_state("networkidle")
    assert page.locator("html").get_attribute("lang") == language
    page.locator("input#name").fill(f"Pupil {language}")
    page.locator("input#name").press("Enter")
    page.wait_for_load_state("networkidle")
    page.locator('a[href="/lessons/calculation-war"]').click()
    page.wait_for_load_state("networkidle")
    visit.axe("the lesson start page")
    page.locator("form.panel button.primary").click()
    page.wait_for_load_state("networkidle")
    assert "/runs/" in page.url
    assert "data-autofocus" in visit.focused(), "the Next button should have the focus"
    visit.axe("the first intro step")

    steps = 0
    while page.locator("section#lesson.stage-intro").count():
        if steps:
            assert "data-autofocus" in visit.focused(), "the Next button should have the focus"
        else:
            page.locator("section#lesson button[data-autofocus]").focus()
        visit.press("Enter")
        steps += 1
        assert steps < 20
    assert steps >= 5

    answered = []
    for _ in range(40):
        if page.locator("section.drill").count():
            if not answered:
                visit.axe("a drill question")
            answered.append(answer_question(visit, check))
            if len(answered) >= 3:
                break
            continue
        assert page.locator("section.hand button.card-button").count(), "the pupil should be able to lay a card"
        assert "card-button" in visit.focused()
        page.keyboard.press("Tab")
        visit.press("Enter")
    assert len(answered) >= 2 and "number" in answered
    visit.axe("the table after answering")

    page.reload()
    assert page.locator("section#lesson").count() == 1, "reloading resumes the game"
    page.goto(live_server + "/progress")
    visit.axe("the progress page")
    assert page.locator("table.progress meter").count() >= 1
    assert not visit.problems, visit.problems
    visit.close()
