"""A lesson step sends only the parts of the page that changed, and the page ends up exactly as a whole render.

Each game below is played step by step through the routes as htmx does it (the page's ``shown`` parts
sent back with each form); every answer that leaves parts out is applied to the page before it as htmx
would (each out-of-band part replaces the element with its id) and compared with the whole lesson
rendered from the same step.
"""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest
from jinja2_fragments.flask import render_block

import tutor.web.lessons
from tests.conftest import run_record
from tutor.answer_key import right_answer
from tutor.lessons import LESSONS
from tutor.lessons.base import move_token
from tutor.lessons.runner import LessonRun

HTMX = {"HX-Request": "true"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Element:
    def __init__(self, tag: str, attrs: dict) -> None:
        self.tag, self.attrs, self.children = tag, attrs, []

    def canonical(self) -> str:
        """The element as a browser sees it: attributes in any order, whitespace between elements ignored."""
        attrs = {**self.attrs}
        if attrs.get("name") == "csrf_token":
            attrs["value"] = ""  # a token drawn a step earlier is as good as a fresh one
        inner = "".join(child.canonical() if isinstance(child, Element) else child for child in self.children)
        return f"<{self.tag} {sorted(attrs.items())}>{inner}</{self.tag}>"

    def find(self, element_id: str) -> tuple[Element, int] | None:
        """The parent of the element with this id, and its place there."""
        for index, child in enumerate(self.children):
            if isinstance(child, Element):
                if child.attrs.get("id") == element_id:
                    return self, index
                found = child.find(element_id)
                if found:
                    return found
        return None


class Tree(HTMLParser):
    """A small DOM of an HTML fragment (the standard library has no DOM of HTML)."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("fragment", {})
        self.open = [self.root]
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        element = Element(tag, dict(attrs))
        self.open[-1].children.append(element)
        if tag not in VOID:
            self.open.append(element)

    def handle_startendtag(self, tag, attrs):
        self.open[-1].children.append(Element(tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        assert self.open[-1].tag == tag, (self.open[-1].tag, tag)
        self.open.pop()

    def handle_data(self, data):
        text = " ".join(data.split())
        if text:
            self.open[-1].children.append(text)


def lesson_of(html: str) -> Element:
    parent, index = Tree(html).root.find("lesson")
    return parent.children[index]


def apply_parts(page: Element, response_html: str) -> None:
    """What htmx does with out-of-band parts: each replaces the element with its id (and loses the attribute)."""
    parts = [child for child in Tree(response_html).root.children if isinstance(child, Element)]
    assert parts and all(part.attrs.pop("hx-swap-oob") == "true" for part in parts)
    for part in parts:
        parent, index = page.find(part.attrs["id"])
        parent.children[index] = part


def next_form(run: LessonRun, choose: random.Random) -> tuple[str, dict]:
    """A step a pupil might take now: answers right and wrong, hints, picks, moves, typed calculations."""
    question = run.current_question()
    if run.stage == "intro":
        return ("next-step", {}) if choose.random() < 0.5 else ("skip-intro", {})
    if question and run.drill.open:
        roll = choose.random()
        if roll < 0.1 and question.hints and run.drill.hints_shown < len(question.hints):
            return "hint", {}
        if roll < 0.15:
            return "solution", {}
        if roll < 0.25 and question.answer == "number":
            return "answer", {"answer": "seven and a bit"}  # unreadable: back into the box
        if roll < 0.35:
            return "answer", {"answer": question.choices[-1]["value"] if question.answer == "choice" else "9999"}
        return "answer", {"answer": right_answer(question, "en")}
    if question:
        return "go-on", {}
    lesson, state = LESSONS[run.game_id], run.game_state()
    if lesson.typed_move and choose.random() < 0.3:
        return "typed-move", {"expression": choose.choice(["(((", "1+1"])}
    if lesson.picks_cards and choose.random() < 0.4:
        pickable = lesson.pickable(state, 0)
        if pickable:
            return "pick", {"card": str(choose.choice(pickable))}
    if choose.random() < 0.1:
        return "show-playable", {}
    return "move", {"move": move_token(choose.choice(state.legal_moves()))}


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        ("calculation-war", {}),
        ("calculation-war", {"turn_seconds": "30"}),  # the hourglass: a form in the coach's box
        ("multimatch", {}),
        ("triplesmart", {}),
        ("twenty-nine", {}),
        ("gnav", {}),
    ],
)
def test_a_step_sends_the_changed_parts_and_the_page_equals_a_whole_render(
    app, client, guest, monkeypatch, game_id, options
):
    whole = []
    send_parts = tutor.web.lessons.render_parts

    def also_whole(record, context, changed):
        whole.append(render_block("lesson.html", "lesson", record=record, **context))
        return send_parts(record, context, changed)

    monkeypatch.setattr(tutor.web.lessons, "render_parts", also_whole)
    guest.sign_in()
    run_id = guest.start(game_id, **options)
    page = lesson_of(client.get(f"/runs/{run_id}").get_data(as_text=True))
    choose, sent_parts, left_out = random.Random(game_id), 0, 0
    for _ in range(60):
        run = LessonRun.from_dict(run_record(app, run_id).data)
        if run.stage == "finished":
            break
        action, form = next_form(run, choose)
        shown = re.search(
            r"<input \[\('id', 'lesson-shown'\), \('name', 'shown'\), \('type', 'hidden'\), "
            r"\('value', '([^']*)'\)\]>",
            page.canonical(),
        ).group(1)
        response = client.post(
            f"/runs/{run_id}/{action}", data={"step": str(run.step), "shown": shown, **form}, headers=HTMX
        )
        assert response.status_code in (200, 409), (action, response.status_code)
        html = response.get_data(as_text=True)
        if response.headers.get("HX-Reswap") == "none":
            sent_parts += 1
            left_out += 6 - html.count('hx-swap-oob="true"') + 2  # the shown parts and the flashes always go
            apply_parts(page, html)
            assert page.canonical() == lesson_of(whole.pop()).canonical(), (game_id, action, form)
        else:
            page = lesson_of(html)
    assert sent_parts >= 10 and left_out >= 10, (sent_parts, left_out)


def test_a_page_that_says_nothing_or_is_from_other_code_gets_the_whole_lesson(app, client, guest):
    guest.sign_in()
    run_id = guest.start("calculation-war")
    client.post(f"/runs/{run_id}/skip-intro")
    step = str(LessonRun.from_dict(run_record(app, run_id).data).step)
    response = client.post(f"/runs/{run_id}/go-on", data={"step": step}, headers=HTMX)  # no shown parts
    assert response.headers.get("HX-Reswap") is None and response.get_data(as_text=True).lstrip().startswith(
        '<section id="lesson"'
    )
    step = str(LessonRun.from_dict(run_record(app, run_id).data).step)
    response = client.post(f"/runs/{run_id}/hint", data={"step": step, "shown": "0.1.2"}, headers=HTMX)
    assert response.headers.get("HX-Reswap") is None


def test_an_answer_sends_only_the_question(app, client, guest):
    """Answering changes only the question's part: the table, the hand and the score are not drawn again."""
    guest.sign_in()
    run_id = guest.start("calculation-war")
    page = client.post(f"/runs/{run_id}/skip-intro", headers=HTMX).get_data(as_text=True)
    for _ in range(40):
        run = LessonRun.from_dict(run_record(app, run_id).data)
        shown = re.search(r'name="shown" value="([^"]*)"', page)[1]
        question = run.current_question()
        if question and run.drill.open:
            break
        action, form = ("go-on", {}) if question else ("move", {"move": move_token(run.game_state().legal_moves()[0])})
        page = client.post(
            f"/runs/{run_id}/{action}", data={"step": str(run.step), "shown": shown, **form}, headers=HTMX
        ).get_data(as_text=True)
    response = client.post(
        f"/runs/{run_id}/answer",
        data={"step": str(run.step), "shown": shown, "answer": right_answer(question, "en")},
        headers=HTMX,
    )
    parts = re.findall(r'id="(lesson-\w+)"[^>]*hx-swap-oob="true"', response.get_data(as_text=True))
    assert response.headers["HX-Reswap"] == "none" and parts == ["lesson-shown", "lesson-flashes", "lesson-drill"]
