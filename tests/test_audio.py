"""Recorded speech for devices without a voice (issue 28): the clips built once, stitched by number slots, served.

A fake synthesiser stands in for eSpeak NG in most tests: its "recording" of a phrase is the
phrase's own bytes, so a test can read which words a sentence's clips say. One test runs the
real synthesiser when it is installed (scripts/system-packages.sh installs it for ``make test``).
"""

from __future__ import annotations

import html
import json
import re
import tempfile
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from tutor.app import create_app
from tutor.cli import pybabel
from tutor.speech import SPELLERS, audio
from tutor.speech.audio import key
from tutor.web.assets import IMMUTABLE

TEXTS = {
    "nb": [
        "%(a)s + %(b)s = %(sum)s, ikke %(target)s: ikke en tiervenn. Velg igjen.",
        "%(name)s har %(num)s kort.",
        "Du vant runden!",
    ],
    "en": ["%(name)s has %(num)s cards.", "You won the round!"],
}


class FakeSynthesiser(audio.Synthesiser):
    """Records a phrase as its own words (one "file" per phrase), counting the phrases it was asked for."""

    identity = "fake 1"

    def __init__(self):
        self.asked: list[tuple[str, str]] = []

    def __call__(self, text: str, locale: str) -> bytes:
        self.asked.append((text, locale))
        return f"{locale}:{text}".encode()


def build(directory, synthesiser=None, locales=("nb",)):
    synthesiser = synthesiser or FakeSynthesiser()
    return audio.build(directory, synthesiser, lambda locale: TEXTS[locale], locales=locales, workers=2), synthesiser


@pytest.fixture(scope="module")
def library_dir(tmp_path_factory):
    """A library of Norwegian and English clips built once for the tests that only read it."""
    directory = tmp_path_factory.mktemp("audio")
    build(directory, locales=("nb", "en"))
    return directory


def build_from_pupil_texts(directory, locales=("nb",)) -> None:
    """Record the real pupils' texts of ``locales`` with the fake synthesiser (as ``kortmatte audio build`` does)."""
    with tempfile.TemporaryDirectory() as scratch:
        pot = Path(scratch) / "pupil.pot"
        pybabel("extract", pot=pot, locations=True)
        with pot.open("rb") as handle:
            template = read_po(handle)
    audio.build(directory, FakeSynthesiser(), lambda locale: audio.pupil_texts(template, locale), locales=locales)


def heard(directory, clips: list[str]) -> list[str]:
    """What the clips say, in turn (the fake synthesiser's bytes)."""
    return [(directory / f"{digest}.opus").read_bytes().decode().split(":", 1)[1] for digest in clips]


def test_a_sentence_with_numbers_is_its_fixed_pieces_and_the_number_words_in_turn(library_dir):
    library = audio.load_library(library_dir, "nb")
    clips = library.recording(SPELLERS["nb"].pieces("7 + 1 = 8, ikke 10: ikke en tiervenn. Velg igjen."))
    assert heard(library_dir, clips) == [
        "sju",
        "pluss",
        "en",
        "er lik",
        "åtte",
        ", ikke",
        "ti",
        ": ikke en tiervenn. Velg igjen.",
    ]
    assert heard(library_dir, library.recording(SPELLERS["nb"].pieces("Du vant runden!"))) == ["Du vant runden!"]


def test_a_slot_filled_with_words_is_covered_by_whole_words_or_not_at_all(library_dir):
    library = audio.load_library(library_dir, "nb")
    assert library.cover("Ada har") is None, "a pupil's name was never recorded"
    assert library.cover("Du har") is None, "no clip says 'Du' alone: only the whole 'Du vant runden!'"
    assert library.cover("run") is None and library.cover("rundenvant") is None, "never a fragment of a word"
    assert heard(library_dir, library.cover("Ikke, ikke ti")) == [", ikke", ", ikke", "ti"]
    assert heard(library_dir, library.recording(["har", "tjueett", "kort."])) == ["har", "tjueett", "kort."]


def test_every_number_to_a_thousand_fractions_to_twelfths_signs_and_cards_are_recorded(library_dir):
    library = audio.load_library(library_dir, "nb")
    speller = SPELLERS["nb"]
    for written in ["0", "27", "999", "1000", "3/4", "11/12", "2 1/2", "Q♥", "10♠", "🃏", "7 × 8 ≠ 54", "ett kort"]:
        assert library.recording(speller.pieces(written)), written


def test_a_build_records_only_what_is_new_and_deletes_what_no_library_names(tmp_path):
    sizes, first = build(tmp_path)
    clips, size = sizes["nb"]
    assert clips > 1000 and size == sum(path.stat().st_size for path in tmp_path.glob("*.opus"))
    assert len({text for text, _ in first.asked}) == len(first.asked), "each phrase is synthesised once"
    _, again = build(tmp_path)
    assert again.asked == [], "nothing new: nothing synthesised"
    TEXTS["nb"].append("Ny setning.")
    try:
        _, third = build(tmp_path)
    finally:
        TEXTS["nb"].pop()
    assert [text for text, _ in third.asked] == ["Ny setning."]
    renamed = FakeSynthesiser()
    renamed.identity = "fake 2"
    _, fourth = build(tmp_path, renamed)
    assert len(fourth.asked) == len(first.asked), "another synthesiser records everything again"
    manifest = json.loads((tmp_path / "nb.json").read_text())
    assert set(manifest["clips"].values()) == {path.stem for path in tmp_path.glob("*.opus")}
    assert not list(tmp_path.glob("*.part"))


def test_clips_are_named_by_their_contents_hash(library_dir):
    for path in library_dir.glob("*.opus"):
        assert re.fullmatch(r"[0-9a-f]{16}", path.stem)
        assert audio.hashlib.sha256(path.read_bytes()).hexdigest().startswith(path.stem)


@pytest.mark.skipif(not audio.Espeak.available(), reason="espeak-ng and opusenc are not installed")
@pytest.mark.parametrize("locale", ["nb", "sv", "it", "en"])
def test_espeak_records_a_phrase_as_a_small_opus_file(tmp_path, locale):
    digest = audio.record(tmp_path, audio.Espeak(), SPELLERS[locale].speakable("27 + 3/4"), locale)
    body = (tmp_path / f"{digest}.opus").read_bytes()
    assert body.startswith(b"OggS") and b"OpusHead" in body[:100]
    assert 1_000 < len(body) < 20_000
    assert audio.record(tmp_path, audio.Espeak(), SPELLERS[locale].speakable("27 + 3/4"), locale) == digest, (
        "the same phrase gives the same file"
    )
    hyphen = audio.record(tmp_path, audio.Espeak(), "-second hourglass", locale)  # a piece after a slot
    assert (tmp_path / f"{hyphen}.opus").stat().st_size > 1_000


@pytest.fixture
def recorded_app(library_dir, database_url):
    app = create_app(
        {"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "test", "AUDIO_DIR": str(library_dir)}
    )
    yield app
    app.extensions["db_engine"].dispose()


def test_a_clip_is_served_for_good_and_an_unknown_one_is_not_found(recorded_app, library_dir):
    client = recorded_app.test_client()
    digest = next(library_dir.glob("*.opus")).stem
    response = client.get(f"/audio/{digest}.opus")
    assert response.status_code == 200 and response.mimetype == "audio/ogg"
    assert response.headers["Cache-Control"] == IMMUTABLE
    assert response.get_data() == (library_dir / f"{digest}.opus").read_bytes()
    assert client.get(f"/audio/{digest}.opus", headers={"If-None-Match": response.headers["ETag"]}).status_code == 304
    for missing in ["0123456789abcdef", digest[:-1], digest.upper(), "nb", "..%2Fnb.json"]:
        response = client.get(f"/audio/{missing}.opus")
        assert response.status_code == 404, missing
        assert response.headers["Cache-Control"] == "no-store"
    assert client.get("/audio/nb.json").status_code == 404
    stray = library_dir / "notes.opus"  # a file in the folder that is no clip named by its hash
    stray.write_bytes(b"OggS")
    try:
        assert client.get("/audio/notes.opus").status_code == 404
    finally:
        stray.unlink()


def test_without_a_library_there_are_no_clips(app):
    assert app.test_client().get("/audio/0123456789abcdef.opus").status_code == 404
    with app.test_request_context():
        assert app.extensions["recordings"].clip_urls(["7 + 1 = 8"], "nb") == []


def test_a_lesson_pages_speakers_name_the_clips_that_say_their_text(tmp_path, database_url, guest):
    build_from_pupil_texts(tmp_path)
    app = create_app(
        {"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False}
        | {"AUDIO_DIR": str(tmp_path)}
    )
    client = app.test_client()
    client.post("/language", data={"locale": "nb"})
    client.post("/guest", data={"name": "Ada"})
    start = client.post("/lessons/war/start", data={"players": "2", "strength": "beginner"})
    page = client.get(start.headers["Location"]).get_data(as_text=True)
    coach = re.search(r'<div class="coach".*?</button>', page, re.S).group(0)
    words = html.unescape(re.search(r'data-speak="([^"]+)"', coach).group(1))
    urls = re.search(r'data-speak-audio="([^"]+)"', coach).group(1).split()
    said = [client.get(url).get_data().decode().split(":", 1)[1] for url in urls]
    assert key(" ".join(said)) == key(words), "the clips say the speaker's words, in turn"
    app.extensions["db_engine"].dispose()


def test_kortmatte_audio_build_records_into_the_folder_or_says_why_not(tmp_path, monkeypatch, capsys):
    from tutor import cli

    monkeypatch.setattr(audio.Espeak, "available", staticmethod(lambda: False))
    assert cli.main(["audio", "build", "--dir", str(tmp_path)]) == 0
    assert "espeak-ng and opusenc are not installed" in capsys.readouterr().out
    assert not list(tmp_path.iterdir()), "no synthesiser: nothing recorded, the speakers need the devices' voices"
    monkeypatch.setattr(audio, "Espeak", type("Fake", (FakeSynthesiser,), {"available": staticmethod(lambda: True)}))
    assert cli.main(["audio", "build", "--dir", str(tmp_path), "--locale", "nb"]) == 0
    assert re.fullmatch(rf"nb: \d{{4}} clips, 0\.\d MB in {re.escape(str(tmp_path))}\n", capsys.readouterr().out)
    assert (tmp_path / "nb.json").is_file() and not (tmp_path / "en.json").exists()
