"""The share of pupil-facing sentences with a speakable form: no digit or sign left once spelt (issue 28).

Plays a seeded lesson of every game through the routes in each locale, as
tests/test_no_english_on_pages.py does (every intro step, a wrong answer and then the right
one, hints, moves), gathers the sentences the lesson pages show a pupil (the intro step, the
coach's story and narration, what the game told, the question, the feedback, the hints, the
worked solution, the answer buttons' labels and the scoreboard) and spells each with the
locale's speller (:mod:`tutor.speech`). A sentence counts as speakable when its speakable form
holds no digit, no sign, no fraction bar and no suit or joker symbol. Prints the share per
locale and the sentences left over (goal: all speakable).

    .venv/bin/python bench/speech.py [--locale nb] [--show 10]
"""

from __future__ import annotations

import argparse
import html
import re
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import tutor.web.lessons  # noqa: E402
from tests.test_no_english_on_pages import play  # noqa: E402
from tutor import limits  # noqa: E402
from tutor.app import create_app  # noqa: E402
from tutor.db import upgrade  # noqa: E402
from tutor.lessons import LESSONS  # noqa: E402
from tutor.speech import speakable  # noqa: E402
from tutor.speech.reading import SIGNS  # noqa: E402

LOCALES = ("en", "nb", "sv", "it")
#: The elements of the lesson page whose text a pupil must read.
PUPIL_TEXT = re.compile(
    r'<p class="(?:step|told[^"]*|story|narration|prompt|read-as)">(.*?)</p>'
    r'|<div class="feedback[^"]*">(.*?)</div>'
    r'|<div class="(?:hints|solution)">(.*?)</div>'
    r'|<ul class="sides">(.*?)</ul>'
    r'|<span class="choice-label">(.*?)</span>',
    re.DOTALL,
)
UNSPOKEN = re.compile(rf"[\d{re.escape(SIGNS)}/♥♠♦♣🃏]")


class Sentences:
    """The pupil-facing sentences of every page a lesson showed, each once."""

    def __init__(self):
        self.found: set[str] = set()

    def page(self, where: str, response) -> None:
        for match in PUPIL_TEXT.finditer(response.get_data(as_text=True)):
            block = next(part for part in match.groups() if part is not None)
            block = re.sub(r"<h3>.*?</h3>|<button[^>]*>.*?</button>", " ", block)  # a heading, a speaker
            for line in re.split(r"</(?:p|li)>", block):
                text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", line)).split())
                if text:
                    self.found.add(text)


def sentences(locale: str) -> set[str]:
    workdir = tempfile.mkdtemp(prefix="kortmatte-speech-")
    url = f"sqlite:///{workdir}/speech.db"
    upgrade(url)
    app = create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False})
    app.config["CASINO_WAR_FOR_GUESTS"] = True
    client = app.test_client()
    client.post("/language", data={"locale": locale})
    client.post("/guest", data={"name": "Tilde"})
    found = Sentences()
    for game_id in sorted(LESSONS):
        seed = len(game_id)  # as the test seeds each game's deal
        tutor.web.lessons.secrets = SimpleNamespace(randbits=lambda bits, seed=seed: seed)
        play(client, app, found, game_id, locale)
    app.extensions["db_engine"].dispose()
    return found.found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locale", choices=LOCALES, action="append", help="one locale (default: all four)")
    parser.add_argument("--show", type=int, default=10, help="sentences left over to print per locale")
    args = parser.parse_args()
    limits.LESSON_STEPS = limits.LESSON_STARTS = limits.Limit("bench", 10**9, 60)
    for locale in args.locale or LOCALES:
        shown = sorted(sentences(locale))
        left = [(text, speakable(text, locale)) for text in shown]
        left = [(text, spoken) for text, spoken in left if UNSPOKEN.search(spoken)]
        share = 1 - len(left) / len(shown)
        print(f"{locale}: {len(shown) - len(left)} of {len(shown)} sentences speakable ({share:.1%})")
        for text, spoken in left[: args.show]:
            print(f"    {text!r} -> {spoken!r}")


if __name__ == "__main__":
    main()
