"""The share of pupil-facing sentences with a speakable form, and with a speaker that reads it (issue 28).

Plays a seeded lesson of every game through the routes in each locale, as
tests/test_no_english_on_pages.py does (every intro step, a wrong answer and then the right
one, hints, moves), gathers the sentences the lesson pages show a pupil (the intro step, the
coach's story and narration, what the game told, the question, the feedback, the hints, the
worked solution, the answer buttons' labels and the scoreboard) and spells each with the
locale's speller (:mod:`tutor.speech`). A sentence counts as speakable when its speakable form
holds no digit, no sign, no fraction bar and no suit or joker symbol; it counts as read when a
speaker button of its page says its words (in the same order, punctuation aside), and as recorded
when that speaker also has recorded clips (``--audio DIR``, a library ``kortmatte audio build``
made). Prints the shares per locale and the sentences left over (goal: all).

    .venv/bin/python bench/speech.py [--locale nb] [--show 10] [--audio instance/audio]
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
from tutor.speech.audio import key  # noqa: E402
from tutor.speech.reading import SIGNS  # noqa: E402

LOCALES = ("en", "nb", "sv", "it")
#: The elements of the lesson page whose text a pupil must read.
PUPIL_TEXT = re.compile(
    r'<p class="(?:step|told[^"]*|story|narration|prompt|read-as)">(.*?)</p>'
    r'|<div class="feedback[^"]*">(.*?)</div>'
    r'|<div class="(?:hints|solution)">(.*?)</div>'
    r'|<ul class="sides">(.*?)</ul>'
    r'|<span class="choice-label">(.*?)</span>'
    r'|<span class="seat-name">(.*?)</span>\s*<span class="cards">'
    r'|<h2 id="zone-heading-\d+">(.*?)</h2>'
    r'|<span class="empty-slot">(.*?)</span>',
    re.DOTALL,
)
SEAT_NAME = 6  # the group of PUPIL_TEXT that finds a seat's name
SPEAKER = re.compile(r'<button type="button" class="speak" data-speak="([^"]*)"( data-speak-audio="[^"]+")?')
UNSPOKEN = re.compile(rf"[\d{re.escape(SIGNS)}/♥♠♦♣🃏]")


class Sentences:
    """The pupil-facing sentences of every page a lesson showed, each once, with whether a speaker read them."""

    def __init__(self, locale: str):
        self.locale = locale
        #: Each sentence, and whether a speaker of some page said it, and with recorded clips.
        self.found: dict[str, tuple[bool, bool]] = {}

    def page(self, where: str, response) -> None:
        page = response.get_data(as_text=True)
        speakers = [(f" {key(html.unescape(words))} ", bool(clips)) for words, clips in SPEAKER.findall(page)]
        for match in PUPIL_TEXT.finditer(page):
            block = next(part for part in match.groups() if part is not None)
            block = re.sub(r"<h3>.*?</h3>|<button[^>]*>.*?</button>", " ", block)  # a heading, a speaker
            seat = match.group(SEAT_NAME) is not None
            for line in re.split(r"</(?:p|li)>", block):
                text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", line)).split())
                if text:
                    # as the speaker spelt it: "3/4" written with markup around its numbers is one fraction
                    tight = " ".join(html.unescape(re.sub(r"<[^>]+>", "", line)).split())
                    # a seat's name, note and mark (parted by " · ", not a product) may be read in another order
                    parts = tight.split(" · ") if seat else [tight]
                    forms = [[f" {key(speakable(part, self.locale))} " for part in parts]]
                    forms.append([f" {key(speakable(text, self.locale))} "])
                    said = [
                        clips
                        for speaker, clips in speakers
                        if any(all(words in speaker for words in form) for form in forms)
                    ]
                    before = self.found.get(text, (False, False))
                    self.found[text] = (before[0] or bool(said), before[1] or any(said))


def sentences(locale: str, audio_dir: str) -> dict[str, tuple[bool, bool]]:
    workdir = tempfile.mkdtemp(prefix="kortmatte-speech-")
    url = f"sqlite:///{workdir}/speech.db"
    upgrade(url)
    app = create_app(
        {"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False}
        | {"AUDIO_DIR": audio_dir}
    )
    app.config["CASINO_WAR_FOR_GUESTS"] = True
    client = app.test_client()
    client.post("/language", data={"locale": locale})
    client.post("/guest", data={"name": "Tilde"})
    found = Sentences(locale)
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
    parser.add_argument("--audio", default="", help="a library of recorded clips (kortmatte audio build --dir)")
    args = parser.parse_args()
    limits.LESSON_STEPS = limits.LESSON_STARTS = limits.Limit("bench", 10**9, 60)
    for locale in args.locale or LOCALES:
        found = sentences(locale, args.audio)
        shown = sorted(found)
        left = [(text, speakable(text, locale)) for text in shown]
        left = [(text, spoken) for text, spoken in left if UNSPOKEN.search(spoken)]
        unread = [text for text in shown if not found[text][0]]
        recorded = sum(recorded for _, recorded in found.values())
        print(
            f"{locale}: {len(shown)} sentences: {len(shown) - len(left)} speakable ({1 - len(left) / len(shown):.1%}), "
            f"{len(shown) - len(unread)} read by a speaker ({1 - len(unread) / len(shown):.1%})"
            + (f", {recorded} recorded ({recorded / len(shown):.1%})" if args.audio else "")
        )
        for text, spoken in left[: args.show]:
            print(f"    not speakable: {text!r} -> {spoken!r}")
        for text in unread[: args.show]:
            print(f"    no speaker: {text!r}")
        if args.audio:
            unrecorded = [text for text in shown if found[text][0] and not found[text][1]]
            for text in unrecorded[: args.show]:
                print(f"    no recording: {text!r}")


if __name__ == "__main__":
    main()
