"""No English and no internal code on a page a pupil reads in nb, sv or it.

A translated sentence can still carry English: a game's or a skill's English name filled into a
field, or an internal id (a misconception's ``highest_top``, a ``(type: ...)`` note) that was
never meant to be read. This test renders the pupil's pages (sign-in, home, progress, every
game's start and rules page) and plays a seeded lesson of every game through the routes, answering
each question wrongly first (with a misconception where the question names one) and then right,
and scans every page's visible text for such English and code.
"""

from __future__ import annotations

import html
import re
import tomllib
from collections import Counter
from functools import cache

import pytest
from babel.messages.pofile import read_po

from tests.conftest import run_record
from tests.test_lessons import DECK
from tutor import ROOT
from tutor.answer_key import right_answer, wrong_answer
from tutor.engine import GAMES
from tutor.lessons import LESSONS
from tutor.lessons.runner import FINISHED, INTRO, PUPIL, LessonRun

LOCALES = ("nb", "sv", "it")
#: Steps of one lesson a test plays at most (enough for several questions, refusals and a round's outcome).
STEPS = 90
#: Attributes whose text a person reads (or hears from a screen reader).
READ_ATTRIBUTES = re.compile(r'\b(?:title|aria-label|placeholder|alt)="([^"]*)"')
#: Internal code: a snake_case id, a question's type or a move's kind written out.
CODE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b|\(type: |\bkind: ")


@cache
def catalogue(locale: str) -> dict:
    with open(ROOT / "translations" / locale / "LC_MESSAGES" / "messages.po", "rb") as handle:
        return {message.id: message.string for message in read_po(handle) if message.id}


@cache
def english_names() -> tuple[str, ...]:
    """The games' and the skills' English names."""
    games = []
    for path in sorted((ROOT / "content" / "games").glob("*.toml")):
        with open(path, "rb") as handle:
            name = tomllib.load(handle).get("name")
        if name:
            games.append(name)
    with open(ROOT / "content" / "skills.toml", "rb") as handle:
        skills = [skill["name"] for skill in tomllib.load(handle).values()]
    with open(ROOT / "content" / "terminology.toml", "rb") as handle:
        terms = [
            term
            for concept in tomllib.load(handle)["concept"]
            if concept["id"].startswith("game_")
            for term in concept["en"]
        ]
    return tuple(sorted(set(games + skills + terms), key=len, reverse=True))


def english_in(locale: str) -> re.Pattern:
    """The English names a page in ``locale`` must not show: those the catalogue translates with other words."""
    names = [name for name in english_names() if catalogue(locale).get(name, name) != name]
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, names)) + r")(?!\w)")


def read_text(page: str) -> str:
    """The text a person reads on a page: its visible text and the attributes that are read aloud.

    English marked as such (the name printed on the Kids2 cards, ``<span lang="en">``) is left out.
    """
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.DOTALL)
    page = re.sub(r'<span lang="en">[^<]*</span>', " ", page)  # a name printed on the cards, marked as English
    attributes = " ".join(READ_ATTRIBUTES.findall(page))
    return html.unescape(re.sub(r"<[^>]+>", " ", page) + " " + attributes)


class Scan:
    """What was found on the pages, counted by the text found, with the page and sentence it was in."""

    def __init__(self, locale: str):
        self.locale = locale
        self.english = english_in(locale)
        self.found: Counter = Counter()
        self.where: dict = {}

    def page(self, where: str, response) -> None:
        assert response.status_code in (200, 409), (where, response.status_code)
        text = read_text(response.get_data(as_text=True))
        for pattern, kind in ((self.english, "English"), (CODE, "code")):
            for match in pattern.finditer(text):
                key = (kind, match.group(0))
                self.found[key] += 1
                line = text[max(0, match.start() - 80) : match.end() + 80]
                self.where.setdefault(key, f"{where}: {' '.join(line.split())}")

    def report(self) -> str:
        return "\n".join(
            f"{count} x {kind} {text!r} ({self.where[kind, text]})" for (kind, text), count in self.found.items()
        )


def play(client, app, scan: Scan, game_id: str, locale: str) -> None:
    """A seeded lesson of ``game_id`` through the routes: every intro step, then moves and questions."""
    lesson = LESSONS[game_id]
    scan.page(f"{game_id} start", client.get(f"/lessons/{game_id}"))
    scan.page(f"{game_id} rules", client.get(f"/games/{game_id}/rules"))
    players = max(2, lesson.player_choices(GAMES[game_id])[0])
    response = client.post(f"/lessons/{game_id}/start", data={"players": str(players), "strength": "beginner"})
    run_id = re.search(r"/runs/([\w-]+)", response.headers["Location"]).group(1)
    base = f"/runs/{run_id}"
    scan.page(f"{game_id} intro", client.get(base))
    answered = set()
    for step in range(STEPS):
        run = LessonRun.from_dict(run_record(app, run_id).data)
        form = {"step": str(run.step)}
        question = run.current_question()
        if run.stage == FINISHED:
            break
        if run.stage == INTRO:
            action = "next-step"
        elif question and run.drill.open:
            if run.step not in answered:  # first a wrong answer (a misconception where the question names one)
                answered.add(run.step)
                typed = wrong_answer(question, locale, misconception=True) or right_answer(question, locale)
                if step % 3 == 0:
                    scan.page(f"{game_id} hint", client.post(f"{base}/hint", data=form, follow_redirects=True))
                    form["step"] = str(LessonRun.from_dict(run_record(app, run_id).data).step)
            else:
                typed = right_answer(question, locale)
            action, form["answer"] = "answer", typed
        elif question:
            action = "go-on"
        elif lesson.typed_move:
            state = run.game_state()
            mine = [DECK[c].top for c in state.turned[PUPIL] if not DECK[c].is_special]
            action, form["expression"] = "typed-move", " + ".join(map(str, mine[:2]))
        else:
            choices = lesson.choices(run.game_state(), PUPIL)
            action, form["move"] = "move", choices[step % len(choices)].token
        scan.page(f"{game_id} {action}", client.post(f"{base}/{action}", data=form, follow_redirects=True))


@pytest.mark.parametrize("locale", LOCALES)
def test_no_english_name_or_internal_code_on_a_pupils_pages(app, client, guest, staff, fixed_deal, locale):
    app.config["CASINO_WAR_FOR_GUESTS"] = True
    scan = Scan(locale)
    code = staff.school_class(staff.teacher(), locale=locale, sign_in="pin").code
    pupil = staff.pupil(code, "Ada")
    client.post("/language", data={"locale": locale})
    scan.page("class sign-in", client.get(f"/class/{code}"))
    scan.page("PIN page", client.get(f"/class/{code}/{pupil.public_id}"))
    guest.sign_in("Tilde", locale)
    for game_id in sorted(LESSONS):
        fixed_deal(len(game_id))
        play(client, app, scan, game_id, locale)
    scan.page("home", client.get("/"))
    scan.page("progress", client.get("/progress"))
    assert not scan.found, f"{sum(scan.found.values())} found in {locale}:\n{scan.report()}"
