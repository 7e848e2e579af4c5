"""Read aloud in a real Chromium (issue 28): every speaker button says its text in the page's language.

The browser's speech synthesis is replaced by an init script that records each utterance with
its language and offers one voice on the device (or none for the page's language), so the test
hears what a child would. A War lesson in Norwegian is played through its intro, moves, a
question and its feedback; at each step every speaker button is pressed from the keyboard, and
its utterance must be in Norwegian with no digit or sign left. Without a local voice for the
page's language the buttons stay hidden and the lesson plays silently. A class that reads aloud
hears each new text by itself (a class without the setting does not), and a Crazy Banana:
Tiervenner lesson of such a class is played with a refused card, questions, a hint and a worked
solution: every text of its steps must have been heard, in Norwegian, each number as a word. A device
with no voice at all plays the server's recorded clips of a text instead, one after another.
"""

from __future__ import annotations

import re

import pytest
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from tests.browser_support import Visit, serving
from tests.test_audio import build_from_pupil_texts
from tests.test_browser_games import stored_question
from tutor import classroom
from tutor.answer_key import right_answer
from tutor.models import Teacher
from tutor.speech import nb, speakable

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
    assert speak_every_button(visit, heard) == 3, "the first intro step, the scoreboard and the table have speakers"
    assert page.locator(".coach button.speak").get_attribute("aria-label") == "Les opp"
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
    speakers = visit.page.locator("button.speak")
    assert speakers.count() == 3
    assert not any(button.is_visible() for button in speakers.all())
    visit.click(visit.page.locator("form[action$='/next-step'] button"))
    assert speakers.count() and not any(button.is_visible() for button in speakers.all())
    assert not visit.problems, visit.problems
    visit.close()


def pupil_of_a_class(visit: Visit, live_server, name: str, read_aloud: bool) -> None:
    """Sign in a pupil of a new Norwegian class whose teacher has switched reading aloud on or off."""
    engine = create_engine(live_server.database_url)
    with Session(engine) as session:
        teacher = Teacher(email=f"{name.lower()}-teacher@school.example", name="Tove", password_hash="-", locale="nb")
        session.add(teacher)
        school_class = classroom.create_class(session, teacher, f"1A {name}", "nb", "Europe/Oslo", "pin")
        school_class.read_aloud_on = read_aloud
        classroom.add_pupils(session, school_class, name)
        session.commit()
        pupil = school_class.pupils[0]
        url, pin = f"/class/{school_class.code}/{pupil.public_id}", pupil.secret
    engine.dispose()
    visit.page.goto(live_server + url)
    visit.page.locator("#pin").fill(pin)
    with visit.page.expect_navigation():
        visit.page.locator("#pin").press("Enter")
    visit.page.wait_for_load_state("networkidle")


@pytest.mark.parametrize("read_aloud", [True, False])
def test_a_class_that_reads_aloud_hears_each_new_text_by_itself(browser, live_server, read_aloud):
    visit = Visit(browser, live_server)
    with_voice(visit, "nb-NO")
    page = visit.page
    pupil_of_a_class(visit, live_server, "Mia" if read_aloud else "Leo", read_aloud)
    visit.start("war")
    heard_at_start = page.evaluate("() => window.spoken")
    for _ in range(2):
        visit.click(page.locator("form[action$='/next-step'] button"))
        coach = page.locator(".coach button.speak").get_attribute("data-speak")
        spoken = page.evaluate("() => window.spoken")
        if read_aloud:
            assert spoken[-1] == {"text": coach, "lang": "nb-NO"}, spoken
            assert not UNSPOKEN.search(coach), coach
        else:
            assert spoken == [], spoken
    if read_aloud:
        assert heard_at_start and heard_at_start[0]["lang"] == "nb-NO", "the first step is read when the page opens"
        before = len(page.evaluate("() => window.spoken"))
        visit.click(page.locator("form[action$='/skip-intro'] button"))
        spoken = page.evaluate("() => window.spoken")
        assert len(spoken) > before and all(said["lang"] == "nb-NO" for said in spoken), spoken
        assert [said["text"] for said in spoken[before:]] == [
            button.get_attribute("data-speak") for button in page.locator("button[data-speak-auto]").all()
        ], "the texts are read in the page's order, each once"
    else:
        assert heard_at_start == []
    assert not visit.problems, visit.problems
    visit.close()


#: The texts of a lesson's steps that a child must hear: the coach, the question and what it offers, the
#: feedback, the hints, the worked solution and the notes on the hand ("Step n of m" is not one of them).
STEP_TEXTS = (
    "#lesson .coach p.told, #lesson .coach p.story, #lesson .coach p.narration, #lesson .drill p.prompt, "
    "#lesson .drill .choice-label, #lesson .drill button.choice-button, #lesson .feedback p, #lesson .hints li, "
    "#lesson .solution li, #lesson .hand p.note"
)


def heard_every_text(visit: Visit, heard: list) -> int:
    """Each text of the step as it is shown was said in Norwegian, with each of its numbers as a word."""
    page = visit.page
    said = " ".join(heard)
    texts = [text.strip() for text in page.locator(STEP_TEXTS).all_inner_texts() if text.strip()]
    for shown in texts:
        words = speakable(shown, "nb")
        assert words in said, (shown, words, heard)
        for number in re.findall(r"(?<![\d/,])\d+(?![\d/,])", shown):
            said_as = {nb.number(int(number)), "ett"} if number == "1" else {nb.number(int(number))}
            assert any(re.search(rf"\b{word}\b", words) for word in said_as), (shown, words)
    return len(texts)


def test_a_tiervenner_lesson_is_read_aloud_in_norwegian_with_numbers_as_words(browser, live_server, fixed_deal):
    fixed_deal(5)
    visit = Visit(browser, live_server)
    with_voice(visit, "nb-NO")
    page = visit.page
    pupil_of_a_class(visit, live_server, "Siri", read_aloud=True)
    visit.start("crazy-banana-tiervenner")
    every = {"texts": 0, "coach": 0, "question": 0, "feedback": 0, "hint": 0, "solution": 0, "refused": 0}

    def step() -> None:
        heard = [said["text"] for said in page.evaluate("() => window.spoken")]  # read by itself since the step
        page.evaluate("() => { window.spoken = []; }")
        speak_every_button(visit, heard)
        every["texts"] += heard_every_text(visit, heard)
        page.evaluate("() => { window.spoken = []; }")
        every["coach"] += page.locator(".coach p").count() > 0
        every["refused"] += page.locator(".coach p.told-refused").count()

    step()
    while page.locator("form[action$='/next-step'] button").count():
        visit.click(page.locator("form[action$='/next-step'] button"))
        step()
    questions = 0
    for _ in range(50):
        if page.locator(".coach .actions a.button.primary").count() or (all(every.values()) and questions > 1):
            break  # the game is over, or every kind of text has been heard (a lesson limits its steps a minute)
        if page.locator("section.drill form.answer-form").count():
            questions += 1
            if page.locator("form[action$='/hint'] button").count():
                visit.click(page.locator("form[action$='/hint'] button"))
                step()
                every["hint"] += 1
            question = stored_question(live_server.database_url, "Siri")
            every["question"] += 1
            answer = right_answer(question, "nb")
            if question["answer"] == "choice":
                visit.click(page.locator(f'section.drill button[name="answer"][value="{answer}"]'))
            else:
                page.locator("input#answer").fill(answer)
                visit.click(page.locator("button.answer-submit"))
            step()
            every["feedback"] += page.locator(".feedback p").count() > 0
            if questions == 1 and page.locator("form[action$='/solution'] button").count():
                visit.click(page.locator("form[action$='/solution'] button"))
                step()
                every["solution"] += 1
            visit.click(page.locator("form[action$='/go-on'] button"))
        elif page.locator("form[action$='/show-playable'] button").count():
            visit.click(page.locator("form[action$='/show-playable'] button"))  # marks the cards it allows
        elif every["refused"] == 0 and page.locator("section.hand button.card-button:not(.playable)").count():
            visit.click(page.locator("section.hand button.card-button:not(.playable)").first)  # a card it refuses
        elif page.locator("section.hand button.card-button.playable").count():
            visit.click(page.locator("section.hand button.card-button.playable").first)
        else:  # draw, pass, or name a colour
            visit.click(page.locator("section.moves button.move-button").first)
        step()
    assert all(every.values()) and every["texts"] > 20, every
    assert not visit.problems, visit.problems
    visit.close()


#: A device without any voice, whose media elements record what they are asked to play (and end at once).
NO_VOICE_RECORDING_PLAYS = """
(() => {
  window.played = [];
  window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; } };
  Object.defineProperty(window, "speechSynthesis", {configurable: true, value: {
    getVoices: () => [],
    speak: () => { throw new Error("no voice to speak with"); },
    cancel: () => {},
    addEventListener: () => {},
  }});
  HTMLMediaElement.prototype.play = function () {
    window.played.push(this.src);
    setTimeout(() => this.dispatchEvent(new Event("ended")), 0);
    return Promise.resolve();
  };
})();
"""


@pytest.fixture(scope="module")
def recorded_server(tmp_path_factory):
    """A server with Norwegian recordings (a fake synthesiser's, of the real pupils' texts)."""
    directory = tmp_path_factory.mktemp("audio")
    build_from_pupil_texts(directory)
    with serving(tmp_path_factory, AUDIO_DIR=str(directory)) as base:
        yield base


def test_without_a_voice_the_page_plays_the_recorded_clips_of_its_texts(browser, recorded_server):
    visit = Visit(browser, recorded_server)
    visit.context.add_init_script(script=NO_VOICE_RECORDING_PLAYS)
    page = visit.page
    pupil_of_a_class(visit, recorded_server, "Ida", read_aloud=True)
    visit.start("war")
    coach = page.locator(".coach button.speak")
    assert coach.is_visible(), "the speaker shows: the device has no voice, but the server has the recording"
    clips = [recorded_server + url for url in coach.get_attribute("data-speak-audio").split()]
    page.wait_for_function(f"() => window.played.length >= {len(clips)}")
    assert page.evaluate("() => window.played") == clips, "the class reads aloud: the first step plays by itself"
    page.evaluate("() => { window.played = []; }")
    coach.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => window.played.length >= {len(clips)}")
    assert page.evaluate("() => window.played") == clips, "the clips play in turn, each once"
    for url in set(clips):
        response = page.request.get(url)
        assert response.status == 200 and response.headers["content-type"] == "audio/ogg", url
        assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
    visit.click(page.locator("form[action$='/next-step'] button"))
    coach = page.locator(".coach button.speak")
    assert coach.is_visible() and coach.get_attribute("data-speak-audio"), "the next step has its recording too"
    visit.axe("an intro step whose speaker plays recordings")
    assert not visit.problems, visit.problems
    visit.close()
