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
        assert (
            page.locator("section.drill .feedback").count() == 1 and page.locator("section.drill .read-as").count() == 0
        )  # read as typed
        kind = "number"
    else:
        buttons = drill.locator("button.card-button")
        sums = circled_sums(buttons)
        best = sums.index(max(sums))
        assert "card-button" in visit.focused()
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
    steps_swapped = []  # how htmx was told to swap each lesson step: "none" when only the changed parts came
    page.on(
        "response",
        lambda response: (
            steps_swapped.append(response.headers.get("hx-reswap"))
            if "/runs/" in response.url and response.request.method == "POST"
            else None
        ),
    )
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
    assert steps_swapped.count("none") >= 2, steps_swapped  # the answers came as parts, and focus still moved on
    visit.axe("the table after answering")

    page.reload()
    assert page.locator("section#lesson").count() == 1, "reloading resumes the game"
    page.goto(live_server + "/progress")
    visit.axe("the progress page")
    assert page.locator(".skill-card .star-on").count() >= 1  # a skill answered has its first star
    assert not visit.problems, visit.problems
    visit.close()


def test_a_page_left_open_in_another_tab_is_refused_and_shows_the_lesson_as_it_is_now(browser, live_server):
    visit = Visit(browser, live_server)
    visit.sign_in("Tabs")
    visit.start("calculation-war")
    old_tab = visit.page
    new_tab = visit.context.new_page()
    new_tab.goto(old_tab.url)
    with new_tab.expect_response(lambda response: response.request.method == "POST"):
        new_tab.locator("form[action$='/next-step'] button").click()
    new_tab.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    assert new_tab.locator(".coach .step").inner_text().startswith("Step 2 of")
    visit.click(old_tab.locator("form[action$='/next-step'] button"))  # the old tab's Next belongs to step 1
    assert "This page was out of date" in old_tab.locator("section#lesson .lesson-flashes").inner_text()
    assert old_tab.locator(".coach .step").inner_text().startswith("Step 2 of"), (
        "the lesson moved on once, and the old tab shows it"
    )
    steps = old_tab.locator("section#lesson input[name=step]").evaluate_all(
        "inputs => [...new Set(inputs.map(i => i.value))]"
    )
    assert steps == new_tab.locator("section#lesson input[name=step]").first.input_value().split(), (
        "the old tab's forms now carry the current step"
    )
    assert old_tab.locator("#request-problem").is_hidden()
    visit.axe("a page that was out of date")
    assert all("409" in problem for problem in visit.problems), visit.problems  # the browser notes the 409 itself
    visit.close()


def test_a_request_that_fails_says_so_and_offers_a_reload(browser, live_server):
    visit = Visit(browser, live_server)
    visit.sign_in("Offline")
    visit.start("calculation-war")
    page = visit.page
    box = page.locator("#request-problem")
    assert box.is_hidden()
    # a form from an earlier session: the server refuses it (400), htmx does not swap it in
    page.evaluate("""() => {
        document.body.setAttribute('hx-headers', JSON.stringify({'X-CSRFToken': 'from-another-session'}));
        document.querySelectorAll('input[name=csrf_token]').forEach(input => { input.value = 'from-another-session'; });
    }""")
    with page.expect_response(lambda response: response.status == 400):
        page.locator("form[action$='/next-step'] button").click()
    box.wait_for(state="visible")
    assert box.locator("[data-problem=response]").is_visible() and box.locator("[data-problem=send]").is_hidden()
    assert "did not work" in box.inner_text()
    assert "data-reload" in visit.focused(), "the reload button has the focus"
    visit.axe("the message for a failed request")
    page.locator("#request-problem [data-reload]").click()
    page.wait_for_load_state("networkidle")
    assert box.is_hidden() and page.locator(".coach .step").inner_text().startswith("Step 1 of"), "nothing was changed"
    # the server cannot be reached
    page.route("**/next-step", lambda route: route.abort())
    page.locator("form[action$='/next-step'] button").click()
    box.wait_for(state="visible")
    assert box.locator("[data-problem=send]").is_visible() and box.locator("[data-problem=response]").is_hidden()
    page.unroute("**/next-step")
    visit.click(page.locator("form[action$='/next-step'] button"))
    assert box.is_hidden(), "a request that works takes the message away"
    assert page.locator(".coach .step").inner_text().startswith("Step 2 of")
    visit.close()
