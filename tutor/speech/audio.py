"""Recorded speech for devices without a voice of their own: clips built once, stitched by number slots.

A tablet without a local voice for the lesson's language cannot read aloud (issue 28). For it the
server keeps a recording of every fixed piece of a pupil's sentence (a translated text split where
a number, sign or card stands, :meth:`tutor.speech.reading.Speller.pieces`) and of every number
word, fraction, sign and card name, synthesised offline by :class:`Espeak` and stored as Opus
files named by their content's hash. A sentence is said by playing its pieces' clips in turn:
"sju" + "pluss" + "en" + "er lik" + "åtte" + "ikke" + "ti" + "ikke en tiervenn. Velg igjen." A
piece is matched to clips only at word boundaries, never by fragments of words; a sentence with a
piece no clip covers (a pupil's name) has no recording, and its speaker needs the device's voice.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import repeat
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from tutor import ROOT
from tutor.speech import SPELLERS, it
from tutor.speech.reading import RANK_WORDS, SUIT_WORDS, Speller
from tutor.text import LOCALES

#: The length of a clip's name: the first hex digits of its file's SHA-256.
DIGEST_LENGTH = 16
#: The texts a pupil reads are written in these files (paths from the repository's root); teachers' pages are not.
PUPIL_SOURCES = (
    "content/",
    "tutor/lessons/",
    "tutor/engine/",
    "tutor/drills/",
    "tutor/answers.py",
    "tutor/speech/",
    "tutor/skill_model/",
    "templates/lesson.html",
    "templates/progress.html",
    "templates/macros/",
)
#: A translated text's slots (``%(num)s``, ``{name}``): a recording of the text is cut there.
SLOT = re.compile(r"%\(\w+\)[sdif]|%[sdif]|\{\w*\}")
#: A word as a clip is looked up: letters and digits, with an apostrophe inside (Italian "l'asso").
WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
#: Fractions up to twelfths are recorded, also improper ones up to twice the whole.
LARGEST_RECORDED_DENOMINATOR = 12
#: Every whole number up to this is recorded as a word; a larger one's sentence needs the device's voice.
LARGEST_RECORDED_NUMBER = 1000


def key(words: str) -> str:
    """The words of a clip as they are looked up: lower case, without punctuation."""
    return " ".join(WORD.findall(words.casefold().replace("’", "'")))


class Synthesiser:
    """Turns one phrase of one locale into the bytes of an Opus file."""

    #: Names the program, its version, its voices and its settings: a clip built by another is built again.
    identity: str

    def __call__(self, text: str, locale: str) -> bytes:
        raise NotImplementedError


class Espeak(Synthesiser):
    """eSpeak NG's voices (GPL-3.0-or-later, Debian's espeak-ng), encoded as Opus speech by opus-tools' opusenc."""

    VOICES = {"en": "en-gb", "nb": "nb", "sv": "sv", "it": "it"}
    #: Bits per second: speech at 16 kbit/s is clear on a tablet's speaker.
    BITRATE = 16
    #: eSpeak's words per minute: a little slower than its 175, for children.
    SPEED = 150

    def __init__(self):
        version = subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True, check=True).stdout
        self.identity = f"{version.strip()} opusenc {self.BITRATE}k speed {self.SPEED}"

    @staticmethod
    def available() -> bool:
        return bool(shutil.which("espeak-ng") and shutil.which("opusenc"))

    def __call__(self, text: str, locale: str) -> bytes:
        wave = subprocess.run(  # the text on standard input: "-second hourglass" is no option
            ["espeak-ng", "-v", self.VOICES[locale], "-s", str(self.SPEED), "--stdout", "--stdin"],
            input=text.encode(),
            capture_output=True,
            check=True,
        ).stdout
        encode = ["opusenc", "--quiet", "--speech", "--bitrate", str(self.BITRATE), "--serial", "0", "-", "-"]
        return subprocess.run(encode, input=wave, capture_output=True, check=True).stdout


def pupil_texts(template: Catalog, locale: str) -> list[str]:
    """Every text a pupil reads, as translated for ``locale`` (each plural form): ``template`` is the catalogue
    template extracted with each text's locations, which say whether a pupil reads it (:data:`PUPIL_SOURCES`)."""
    root = f"{ROOT}/"
    pupil = {
        (message.context, first_id(message)): message
        for message in template
        if message.id
        and any(str(path).removeprefix(root).startswith(PUPIL_SOURCES) for path, _line in message.locations)
    }
    if locale == "en":
        return [form for message in pupil.values() for form in forms(message.id)]
    with (ROOT / "translations" / locale / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        catalogue = read_po(handle)
    return [
        form
        for message in catalogue
        if message.id and (message.context, first_id(message)) in pupil
        for form in forms(message.string)
    ]


def first_id(message: Message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


def forms(text: str | tuple[str, ...]) -> list[str]:
    return [text] if isinstance(text, str) else list(text)


def token_words(speller: Speller) -> set[str]:
    """The words a speller says for a number, fraction, sign or card: each is recorded on its own."""
    words = set(speller.signs.values()) | {speller.mixed, speller.decimal_word}
    nouns = {*speller.one_before, *it.PLURAL_NOUNS}  # a count ending in one agrees with its noun ("ett kort")
    for value in range(LARGEST_RECORDED_NUMBER + 1):
        words.add(speller.number(value))
        if value % 10 == 1:
            words |= {speller.count(str(value), f" {noun}") for noun in nouns}
    for denominator in range(2, LARGEST_RECORDED_DENOMINATOR + 1):
        for numerator in range(1, 2 * denominator + 1):
            words.add(speller.fraction(numerator, denominator))
    ranks = [*RANK_WORDS, *map(str, range(2, 11))]
    words |= {speller.card(rank, suit) for rank in ranks for suit in (None, *SUIT_WORDS)}
    words |= {speller.speakable(suit) for suit in SUIT_WORDS} | {speller.speakable("🃏")}
    return words


def phrases(speller: Speller, texts: Iterable[str]) -> dict[str, str]:
    """What to record for a locale, by :func:`key`: each text's pieces between its slots, and the token words."""
    found: dict[str, str] = {}
    for text in texts:
        for part in SLOT.split(text):
            for piece in speller.pieces(part):
                found.setdefault(key(piece), piece)
    for words in token_words(speller):
        found.setdefault(key(words), words)
    found.pop("", None)
    return found


@dataclass
class Library:
    """A locale's clips by :func:`key`, and how a sentence is said with them."""

    clips: dict[str, str]

    def __post_init__(self):
        #: The lengths in words of the clips that begin with each word: where a clip may end.
        self.lengths: dict[str, set[int]] = {}
        for phrase in self.clips:
            first, *rest = phrase.split(" ")
            self.lengths.setdefault(first, set()).add(len(rest) + 1)

    def cover(self, piece: str) -> list[str] | None:
        """The fewest clips that say ``piece`` word by word, or None when a word has none."""
        words = key(piece).split()
        best: list[list[str] | None] = [[]] + [None] * len(words)
        for start, word in enumerate(words):
            if best[start] is None:
                continue
            for length in self.lengths.get(word, ()):
                end = start + length
                clip = end <= len(words) and self.clips.get(" ".join(words[start:end]))
                if clip and (best[end] is None or len(best[start]) + 1 < len(best[end])):
                    best[end] = best[start] + [clip]
        return best[-1]

    def recording(self, pieces: Iterable[str]) -> list[str] | None:
        """The clips of a sentence's pieces in turn, each piece covered on its own (a clip never spans a slot)."""
        clips: list[str] = []
        for piece in pieces:
            covered = self.cover(piece)
            if covered is None:
                return None
            clips += covered
        return clips or None


def manifest_path(directory: Path, locale: str) -> Path:
    return directory / f"{locale}.json"


def load_library(directory: Path, locale: str) -> Library | None:
    path = manifest_path(directory, locale)
    if not path.is_file():
        return None
    return Library(json.loads(path.read_text())["clips"])


def record(directory: Path, synthesise: Synthesiser, words: str, locale: str) -> str:
    """Synthesise ``words`` into a file named by its content's hash; return the hash."""
    body = synthesise(words, locale)
    digest = hashlib.sha256(body).hexdigest()[:DIGEST_LENGTH]
    target = directory / f"{digest}.opus"
    if not target.is_file():  # written whole under another name first: a server never serves half a file
        handle, scratch = tempfile.mkstemp(dir=directory, suffix=".part")
        with os.fdopen(handle, "wb") as file:
            file.write(body)
        os.replace(scratch, target)
    return digest


def build(
    directory: Path,
    synthesise: Synthesiser,
    texts: Callable[[str], list[str]],
    locales: Iterable[str] = LOCALES,
    workers: int = 2,
) -> dict[str, tuple[int, int]]:
    """Record every phrase of ``locales`` (``texts`` gives a locale's texts) not recorded before by the same
    synthesiser; return each locale's number of clips and their bytes. Files no manifest names are deleted."""
    directory.mkdir(parents=True, exist_ok=True)
    sizes = {}
    for locale in locales:
        wanted = phrases(SPELLERS[locale], texts(locale))
        path = manifest_path(directory, locale)
        old = json.loads(path.read_text()) if path.is_file() else {"clips": {}, "sources": {}}
        sources = {
            phrase: hashlib.sha256(f"{synthesise.identity}\n{locale}\n{words}".encode()).hexdigest()
            for phrase, words in wanted.items()
        }
        kept = {
            phrase: old["clips"][phrase]
            for phrase, source in sources.items()
            if old["sources"].get(phrase) == source and (directory / f"{old['clips'].get(phrase)}.opus").is_file()
        }
        missing = [phrase for phrase in wanted if phrase not in kept]
        with ThreadPoolExecutor(max_workers=workers) as pool:
            digests = pool.map(record, repeat(directory), repeat(synthesise), map(wanted.get, missing), repeat(locale))
            clips = {**kept, **dict(zip(missing, digests, strict=True))}
        manifest = {"identity": synthesise.identity, "clips": clips, "sources": sources}
        path.write_text(json.dumps(manifest, ensure_ascii=False, sort_keys=True))
        unique = set(clips.values())
        sizes[locale] = (len(unique), sum((directory / f"{digest}.opus").stat().st_size for digest in unique))
    named = {
        digest for manifest in directory.glob("*.json") for digest in json.loads(manifest.read_text())["clips"].values()
    }
    for clip in directory.glob("*.opus"):
        if clip.stem not in named:
            clip.unlink()
    return sizes
