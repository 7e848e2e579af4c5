"""Read aloud in a real Chromium (issue 28): every speaker button says its text in the page's language.

The browser's speech synthesis is replaced by an init script that records each utterance with
its language and offers one voice on the device (or none for the page's language), so the test
hears what a child would. A War lesson in Norwegian is played through its intro, moves, a
question and its feedback; at each step every speaker button is pressed from the keyboard, and
its utterance must be in Norwegian with no digit or sign left. Without a local voice for the
page's language the buttons stay hidden and the lesson plays silently.
"""

from __future__ import annotations

import re

import pytest

from tests.browser_support import Visit
from tests.test_browser_games import stored_question
from tutor.answer_key import right_answer

pytestmark = pytest.mark.browser

#: A device's speech synthesis with one local voice (VOICE_LANG), recording what is spoken in window.spoken.
FAKE_SPEECH = """
(() => {
  const voice = {name: "Test voice", lang: VOICE_LANG, localService: true, voiceURI: "test", default: true};
  window.spoken = [];
  window.SpeechSynthesisUtterance = class {
    constructor(text) { this.text = text; this.lang = ""; this.voice = null; }
  };
  Object.defineProperty(window, "speechSynthesis", {configurable: true, value: {
    getVoices: () => [voice],
    speak: (utterance) => window.spoken.push({text: utterance.text, lang: utterance.lang}),
    cancel: () => {},
    addEventListener: () => {},
  }});
})();
"""
UNSPOKEN = re.compile(r"[\d+−·×÷=<>≤≥≠≈%/♥♠♦♣🃏]")


def with_voice(visit: Visit, lang: str) -> None:
    visit.context.add_init_script(script=FAKE_SPEECH.replace("VOICE_LANG", repr(lang)))


def speak_every_button(visit: Visit, heard: list) -> int:
    """Press every speaker button of the page from the keyboard; check each utterance; return how many."""
    page = visit.page
    buttons = page.locator("button.speak")
    for index in range(buttons.count()):
        button = buttons.nth(index)
        assert button.is_visible(), "a speaker button is hidden although the device has a voice"
        before = page.evaluate("() => window.spoken.length")
        button.focus()
        page.keyboard.press("Enter")
        spoken = page.evaluate("() => window.spoken")
        assert len(spoken) == before + 1, "the button said nothing"
        said = spoken[-1]
        assert said["lang"] == "nb-NO", said
        assert said["text"] == button.get_attribute("data-speak") and said["text"].strip(), said
        assert not UNSPOKEN.search(said["text"]), said
        heard.append(said["text"])
    return buttons.count()


def test_a_war_lesson_in_norwegian_is_read_aloud_in_norwegian_with_numbers_as_words(browser, live_server):
    visit = Visit(browser, live_server)
    with_voice(visit, "nb-NO")
    page = visit.page
    visit.sign_in("Ada", "Norsk bokmål")
    visit.start("war")
    heard: list[str] = []
    assert speak_every_button(visit, heard) == 1, "the first intro step has its speaker"
    assert page.locator("button.speak").get_attribute("aria-label") == "Les opp"
    visit.axe("an intro step with its speaker button")
    for _ in range(3):
        visit.click(page.locator("form[action$='/next-step'] button"))
        speak_every_button(visit, heard)
    visit.click(page.locator("form[action$='/skip-intro'] button"))
    for _ in range(80):
        speak_every_button(visit, heard)
        if page.locator("section.drill form.answer-form").count():
            break
        if page.locator("section.drill").count():
            visit.click(page.locator("form[action$='/go-on'] button"))
        else:
            visit.click(page.locator("section.hand button.card-button, section.moves button.move-button").first)
    else:
        raise AssertionError("no question in 80 steps")
    assert page.locator("section.drill button.speak").count() == 1, "the question has its speaker"
    question = stored_question(live_server.database_url, "Ada")
    answer = right_answer(question, "nb")
    if question["answer"] == "choice":
        visit.click(page.locator(f'section.drill button[name="answer"][value="{answer}"]'))
    else:
        page.locator("input#answer").fill(answer)
        visit.click(page.locator("button.answer-submit"))
    assert page.locator("section.drill .feedback button.speak").count() == 1, "the feedback has its speaker"
    speak_every_button(visit, heard)
    visit.axe("feedback with its speaker button")
    assert any(re.search(r"\b(en|to|tre|fire|fem|seks|sju|åtte|ni|ti)\b", text) for text in heard), heard
    assert not visit.problems, visit.problems
    visit.close()


@pytest.mark.parametrize("voice_lang", ["sv-SE", ""])
def test_without_a_voice_for_the_pages_language_the_lesson_is_silent(browser, live_server, voice_lang):
    visit = Visit(browser, live_server)
    if voice_lang:
        with_voice(visit, voice_lang)  # a Swedish voice does not read a Norwegian page
    visit.sign_in("Bo", "Norsk bokmål")
    visit.start("war")
    assert visit.page.locator("button.speak").count() == 1
    assert not visit.page.locator("button.speak").is_visible()
    visit.click(visit.page.locator("form[action$='/next-step'] button"))
    assert not visit.page.locator("button.speak").is_visible()
    assert not visit.problems, visit.problems
    visit.close()
