"""Rule texts a young child can follow: an intro step of a game marked 6+ or 7+ says at most two sentences."""

from __future__ import annotations

import re

import pytest

from tutor import content
from tutor.lessons import LESSONS
from tutor.text import LOCALES, _catalogue, plural_forms

#: The youngest ages on the games' marks whose intros are held to two sentences a step (language.md: "at most two
#: sentences of rules at a time").
YOUNG = 7
MOST_SENTENCES = 2
#: A sentence ends with . ! ? or … before a space, a closing quote or the end ("1.5" and "7 + 3" do not end one).
SENTENCE_END = re.compile(r"[.!?…](?=[\s\"”»)]|$)")
YOUNG_GAMES = sorted(game_id for game_id in LESSONS if content.load(f"games/{game_id}")["age"] <= YOUNG)


def step_texts(game_id: str) -> list[str | tuple[str, str]]:
    """Every English text an intro step can show: each step's text (both plural forms, the text without a limit) and
    the narration that stands in for a step (keys starting with "intro")."""
    lesson = LESSONS[game_id]
    texts: list = []
    for entry in lesson.intro_steps():
        for key in ("text", "text_without_limit"):
            if key in entry:
                forms = plural_forms(entry[key])
                texts.append(forms[:2] if forms else entry[key])
    narration = lesson.content().get("narration", {})
    texts += [
        plural_forms(value)[:2] if plural_forms(value) else value
        for key, value in narration.items()
        if key.startswith("intro")
    ]
    return texts


def said(text, locale: str) -> list[str]:
    """The text in ``locale`` as the catalogue has it: one string, or each plural form."""
    catalogue = _catalogue(locale)
    if isinstance(text, tuple):
        return [catalogue.ngettext(*text, n) for n in (1, 2)]
    return [catalogue.gettext(text)]


def test_the_young_games_are_the_ones_marked_6_and_7():
    assert {"war", "pyanitsa", "three-traits", "tod-und-leben"} <= set(YOUNG_GAMES)


@pytest.mark.parametrize("game_id", YOUNG_GAMES)
@pytest.mark.parametrize("locale", LOCALES)
def test_an_intro_step_for_young_children_says_at_most_two_sentences(game_id, locale):
    too_long = [
        words
        for text in step_texts(game_id)
        for words in said(text, locale)
        if len(SENTENCE_END.findall(words.strip())) > MOST_SENTENCES
    ]
    assert not too_long, f"split these steps into more steps of at most two short sentences: {too_long}"
