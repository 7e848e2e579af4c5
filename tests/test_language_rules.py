"""The rules a translator needs: whole sentences, a context for short texts with two meanings, plurals for counts.

A sentence is one message with named fields, and the pupil has sentences of their own
("You win round 3"), never the word "You" slotted in where another player's name goes
("You wins round 3", Italian "Tu ha vinto"). A short text that means two things ("Last
round", "Play", a colour's name) carries a msgctxt. A number of things chooses its plural
form. These are checked on the catalogue as extracted now and on every line a pupil reads
in whole games of every lesson.
"""

from __future__ import annotations

import html
import json
import re

import pytest
from babel.messages.pofile import read_po
from flask import render_template_string

from tests.test_lessons import pupil_moves
from tutor import ROOT
from tutor.cli import pybabel
from tutor.deck import kids2
from tutor.engine import GAMES
from tutor.lessons import LESSONS
from tutor.lessons.base import NEXT_MARK, WINNER_MARK, YOU
from tutor.lessons.runner import FINISHED, PUPIL, LessonRun
from tutor.text import COLOUR_ADJECTIVE, COLOUR_NOUN, Text, say

#: Short texts with more than one meaning: each may be extracted only with a context.
#: ("won" and "plays next" were marks that agreed with the name beside them: gone for good.)
AMBIGUOUS = {
    "Last round",
    "won",
    "plays next",
    "winner of this round",
    "next to play",
    "right",
    "wrong",
    "Play",
    "Games",
    "Turn %(n)s",
    "Turn %(n)s of %(total)s",
    "Round %(n)s",
    "Round %(n)s of %(total)s",
    "Target",
    "Pass",
    "You",
}
COLOURS = {colour.name for colour in kids2().colours}

#: A field that counts things: a number field right before a plural noun ("%(each)s cards",
#: "%(others)s other cards", but not "%(n)s times table"), or the fields the code names counts
#: (``num`` is the field ngettext chooses by, ``count`` a count). Ordinals ("Turn %(n)s") and
#: values ("Computer %(n)s", "%(colour)s card") do not match.
COUNTED = re.compile(
    r"%\((\w+)\)s (?:other )?"
    r"(?:cards|seconds|minutes|rounds|turns|fractions|players|pupils|questions|answers|games|weeks|days|steps|hints"
    r"|times(?! table))\b"
    r"|%\((?:num|count)\)s"
)
#: Fields that hold a player's name or a list of names: a translator must be told which.
#: (``target`` is a player in the shedding games but a number in TripleSmart: not listed.)
NAME_FIELDS = re.compile(r"%\((name|names|others|players|next|mate|side)\)s")
#: Where the lessons' texts are written (this rule's scope; teacher pages name pupils and classes plainly).
LESSON_TEXTS = ("tutor/lessons/", "content/games/", "templates/lesson.html", "templates/macros/cards.html")
#: "You" with a verb in the third person: the pupil slotted into another player's sentence.
THIRD_PERSON = re.compile(
    r"\bYou (?:keeps|has|loses|plays|lays|laid "
    r"no|draws|wins|takes|misses|is|was|passes|knocks|turns|writes|gets|holds|ends|goes|says|chooses|uses)\b"
)
SEAT_YOU = Text.in_context(YOU)


@pytest.fixture(scope="module")
def pot(tmp_path_factory):
    """Every message pybabel extracts now, with its context and where it is written (paths from the project root)."""
    path = tmp_path_factory.mktemp("pot") / "messages.pot"
    pybabel("extract", path, locations=True)
    with open(path, "rb") as handle:
        messages = [message for message in read_po(handle) if message.id]
    for message in messages:
        message.locations = [
            (str(ROOT.joinpath(file).relative_to(ROOT)) if ROOT.joinpath(file).is_relative_to(ROOT) else file, line)
            for file, line in message.locations
        ]
    return messages


def singular(message) -> str:
    return message.id[0] if message.pluralizable else message.id


# --- the catalogue -------------------------------------------------------------------------------
def test_short_texts_with_two_meanings_are_extracted_only_with_a_context(pot):
    bare = sorted(message.id for message in pot if message.id in AMBIGUOUS and not message.context)
    assert not bare, f"give these a context (pgettext, NC_): {bare}"


def test_every_colour_is_extracted_as_a_noun_and_as_describing_a_card(pot):
    contexts = {(message.context, message.id) for message in pot if message.id in COLOURS}
    assert {(context, name) for name in COLOURS for context in (COLOUR_NOUN, COLOUR_ADJECTIVE)} <= contexts


def test_every_count_chooses_its_plural_form(pot):
    single = [message.id for message in pot if not message.pluralizable and COUNTED.search(message.id)]
    assert not single, f"a count needs ngettext (NP_, or a plural table in content): {single}"


def test_every_name_field_in_a_lesson_text_is_explained_to_the_translators(pot):
    unexplained = [
        singular(message)
        for message in pot
        if any(file.startswith(LESSON_TEXTS) for file, _ in message.locations)
        and NAME_FIELDS.search(singular(message))
        and not any(not comment.startswith("content: ") for comment in message.auto_comments)  # only the file's name
    ]
    assert not unexplained, f"add a '# Translators:' comment (or the file's [placeholders]): {unexplained}"


def test_the_extractor_brings_a_content_files_placeholders_to_the_translators(pot):
    played = next(message for message in pot if message.id == LESSONS["multimatch"].content()["narration"]["played"])
    assert any(
        comment.startswith("Translators: %(name)s is a computer player's name") for comment in played.auto_comments
    ), played.auto_comments


# --- what a pupil reads -----------------------------------------------------------------------
def texts_within(text):
    """A Text and every Text among its fields, nested ones too."""
    if isinstance(text, Text):
        yield text
        for value in text.params.values():
            yield from texts_within(value)


def read_now(lesson, run) -> tuple[list[Text], list[Text]]:
    """What the lesson page shows now: the sentences (story, narration, judgement) and the labels (table, scoreboard,
    buttons)."""
    state = run.game_state()
    sentences = list(lesson.round_story(state, PUPIL, run.recent_moves()))
    if run.stage == FINISHED:
        sentences += lesson.finish_story(state, PUPIL)
    elif state.current_player == PUPIL and not state.is_over:
        sentences.append(lesson.turn_narration(state, PUPIL))
    if run.current_told():
        sentences.append(run.current_told().told)
    labels = list(lesson.scoreboard(state, PUPIL))
    for zone in lesson.table(state, PUPIL):
        labels += [zone.title] + [
            text for row in zone.rows for text in (row.name, row.note, row.mark) if text is not None
        ]
    if state.current_player == PUPIL and not state.is_over:
        labels += [choice.label for choice in lesson.choices(state, PUPIL)]
    return sentences, labels


def played_lines(game_id: str, players: int):
    """Every (sentences, labels) a pupil reads in a whole game: the intro, then each step (questions skipped)."""
    lesson = LESSONS[game_id]
    run = LessonRun.start(lesson, players, {}, ["beginner", "strong"], seed=players * 11, now_ms=0)
    yield [lesson.intro_text(step, run.game_state(), PUPIL) for step in range(len(lesson.intro_steps()))], []
    run.skip_intro(lesson, {}, 0)
    for step in range(1, 3000):
        yield read_now(lesson, run)
        if run.stage == FINISHED:
            return
        if run.current_question():
            run.close_question(lesson, {}, step)
        else:
            pupil_moves(lesson, run, step)
    pytest.fail(f"{game_id} with {players} players did not end")


@pytest.mark.parametrize("game_id", sorted(LESSONS))
def test_every_line_of_a_whole_game_is_a_sentence_for_the_right_person(game_id):
    for players in range(GAMES[game_id].min_players, min(GAMES[game_id].max_players, 4) + 1):
        for sentences, labels in played_lines(game_id, players):
            for sentence in sentences:
                said = say(sentence, "en")
                assert SEAT_YOU not in list(texts_within(sentence))[1:], (
                    f"the pupil slotted in as a name: {said!r} ({sentence.msgid!r})"
                )
                assert not THIRD_PERSON.search(said), said
            for text in (found for line in sentences + labels for found in texts_within(line)):
                if text.msgid in AMBIGUOUS or text.msgid in COLOURS:
                    assert text.context, f"{text.msgid!r} without its context"


def marks_in(zones) -> set:
    return {(row.mark.context, row.mark.msgid) for zone in zones for row in zone.rows if row.mark is not None}


def test_a_marked_row_says_why_with_a_phrase_of_its_own():
    """The winner of the last round and the player who plays next are marked with a phrase that fits any name."""
    lesson = LESSONS["calculation-war"]
    marks = set()
    for _, labels in played_lines("calculation-war", 3):
        marks |= {(text.context, text.msgid) for text in labels if text.msgid in {WINNER_MARK[1], NEXT_MARK[1]}}
    assert marks == {WINNER_MARK}, marks
    lesson = LESSONS["crazy-banana-tiervenner"]
    run = LessonRun.start(lesson, 3, {}, ["beginner"], seed=3, now_ms=0)
    state = run.game_state()
    state.apply(next(move for move in state.legal_moves() if move.kind == "draw"))  # the pupil draws ...
    while state.current_player == PUPIL:
        state.apply(next(move for move in state.legal_moves() if move.kind in ("draw", "pass")))  # ... and passes
    assert marks_in(lesson.table(state, PUPIL)) == {NEXT_MARK}


LIMIT_OPTIONS = ("round_limit", "turn_limit", "rounds", "hands")


def limit_option(game_id: str) -> str | None:
    """The option a lesson limits its game with; None for a game that ends by itself (29: the draw pile runs out)."""
    return next((key for key in LESSONS[game_id].lesson_options if key in LIMIT_OPTIONS), None)


def limit_allowed(game_id: str, limit: int) -> bool:
    """Some games always have a limit (Tod und Leben's rounds, Casino War's hands): 0 is not an option there."""
    if limit_option(game_id) is None:
        return False
    spec = next(spec for spec in GAMES[game_id].option_specs if spec.key == limit_option(game_id))
    return limit >= (spec.minimum or 0)


@pytest.mark.parametrize("game_id,limit", [(g, n) for g in sorted(LESSONS) for n in (0, 1, 7) if limit_allowed(g, n)])
def test_the_intro_says_the_number_of_rounds_in_words_a_pupil_can_read(game_id, limit):
    """No "after ∞ rounds" without a limit, and "1 round", not "1 rounds"."""
    lesson = LESSONS[game_id]
    run = LessonRun.start(lesson, 2, {limit_option(game_id): limit}, ["beginner"], seed=1, now_ms=0)
    said = " ".join(
        say(lesson.intro_text(step, run.game_state(), PUPIL), "en") for step in range(len(lesson.intro_steps()))
    )
    assert (
        "∞" not in said
        and not re.search(r"\b0 (rounds?|turns?|hands?)\b", said)
        and not re.search(r"\b1 (rounds|turns|hands)\b", said)
    ), said
    says_the_limit = any("text_without_limit" in step for step in lesson.intro_steps())  # a step about the limit
    if limit == 7 and says_the_limit:
        assert re.search(r"\b7 (rounds|turns)\b", said), said


# --- the page ----------------------------------------------------------------------------------
def test_the_hourglass_gives_the_script_the_whole_sentence_for_every_second(app):
    with app.test_request_context(headers={"Accept-Language": "en"}):
        page = render_template_string(
            '{% from "macros/hourglass.html" import hourglass_line %}{{ hourglass_line(3, "hourglass-form") }}'
        )
    forms = json.loads(html.unescape(re.search(r"data-hourglass-forms='([^']*)'", page).group(1)))
    assert forms == {
        "templates": ["Hourglass: {num} seconds left", "Hourglass: {num} second left"],
        "form_of": [0, 1, 0, 0],
    }  # each sentence once, with a slot
    assert re.search(r">\s*Hourglass: 3 seconds left\s*</p>", page), page
    script = (ROOT / "tutor" / "static" / "app.js").read_text()
    assert "data-hourglass-forms" in script and "form_of" in script  # the script counts down with these sentences


def test_a_cards_name_for_screen_readers_says_its_colour_as_describing_the_card():
    """The template cannot import the constant: the context is written out there and must match."""
    assert (
        f'pgettext("{COLOUR_ADJECTIVE}", colours[card.colour].name)'
        in (ROOT / "templates" / "macros" / "cards.html").read_text()
    )


@pytest.mark.browser
def test_the_hourglass_counts_down_in_whole_sentences_in_the_browser(browser, live_server):
    from playwright.sync_api import expect

    from tests.browser_support import Visit

    visit = Visit(browser, live_server)
    page = visit.page
    visit.sign_in("Tilde")
    page.goto(f"{live_server}/lessons/calculation-war")
    page.locator("#opt-turn_seconds").fill("3")
    page.locator("form.panel button.primary").click()
    page.wait_for_load_state("networkidle")
    visit.click(page.locator("form[action$='/skip-intro'] button"))
    while page.locator("section.drill").count():  # the game's first question, if any, is skipped
        visit.click(page.locator("form[action$='/go-on'] button"))
    expect(page.locator("p.hourglass")).to_have_text(
        "Hourglass: 1 second left", timeout=10_000
    )  # the singular, counted down by the script
    visit.close()


# --- sentences that read as calques ------------------------------------------------------------------
#: A sentence may not open with a bare "equal" ("Like produkter ... betyr krig", "Lika kort: ..."): language.md asks
#: for a clause ("Er produktene like, blir det krig", "Om korten är lika ...").
BARE_EQUAL_OPENING = {"nb": re.compile(r"(?:^|[.!?]\s+)Like\s"), "sv": re.compile(r"(?:^|[.!?]\s+)Lika\s")}


@pytest.mark.parametrize("locale", sorted(BARE_EQUAL_OPENING))
def test_no_sentence_opens_with_a_bare_equal(locale):
    with open(ROOT / "translations" / locale / "LC_MESSAGES" / "messages.po", "rb") as handle:
        catalogue = read_po(handle)
    opening = BARE_EQUAL_OPENING[locale]
    found = [
        words
        for message in catalogue
        if message.id
        for words in (message.string if isinstance(message.string, tuple) else (message.string,))
        if opening.search(words)
    ]
    assert not found, found
