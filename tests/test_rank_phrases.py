"""Card sentences in nb, sv and it: the card with its article and whose it is, never a bare rank name."""

from __future__ import annotations

import pytest

from tests.test_classic_war import c
from tests.test_standard_war_lessons import after
from tutor.engine import Move, make_game
from tutor.lessons import LESSONS
from tutor.lessons.rank_phrases import HOUSES, PLAYERS, THE, YOUR
from tutor.lessons.runner import PUPIL
from tutor.standard_deck import ACE, JACK, KING, QUEEN
from tutor.text import Text, say

#: The definite form of each rank, per locale: what every phrase of the rank must contain.
DEFINITE = {
    "nb": {ACE: "esset", KING: "kongen", QUEEN: "damen", JACK: "knekten", 6: "sekseren", 7: "sjueren", 8: "åtteren"},
    "sv": {ACE: "esset", KING: "kungen", QUEEN: "damen", JACK: "knekten", 6: "sexan", 7: "sjuan", 8: "åttan"},
    "it": {ACE: "l'asso", KING: "il re", QUEEN: "la donna", JACK: "il fante", 6: "il 6", 7: "il 7", 8: "l'8"},
}


@pytest.mark.parametrize("locale", ["nb", "sv", "it"])
def test_every_rank_phrase_is_translated_with_its_article_and_keeps_the_players_name(locale):
    for table in (THE, YOUR, PLAYERS, HOUSES):
        assert set(table) == set(THE)
        for marked in table.values():
            words = say(Text.in_context(marked, name="NAME"), locale)
            assert words != marked[1], (locale, marked)
            assert ("NAME" in words) == (table is PLAYERS), (locale, marked, words)
    for rank, definite in DEFINITE[locale].items():
        assert say(Text.in_context(THE[rank]), locale) == definite


@pytest.mark.parametrize(
    ("locale", "beats", "war"),
    [
        ("en", "Your queen beats Computer 1's 7.", "Your 9 and Computer 1's 9 are equal: war!"),
        ("nb", "Damen din slår sjueren til Datamaskin 1.", "Nieren din og nieren til Datamaskin 1 er like høye: krig!"),
        ("sv", "Din dam slår Dator 1:s sjua.", "Din nia och Dator 1:s nia är lika höga: krig!"),
        ("it", "La tua donna batte il 7 di Computer 1.", "Il tuo 9 e il 9 di Computer 1 sono uguali: guerra!"),
    ],
)
def test_a_round_names_each_card_with_its_article_and_whose_it_is(locale, beats, war):
    lesson, state = after("war", [[c(QUEEN)], [c(7)]])
    assert say(lesson.round_story(state, PUPIL, [Move("turn", PUPIL)])[0], locale) == beats
    lesson, state = after(
        "war", [[c(9, 0), c(2, 0), c(3, 0), c(4, 0), c(KING)], [c(9, 1), c(2, 1), c(3, 1), c(4, 1), c(5)]]
    )
    assert say(lesson.round_story(state, PUPIL, [Move("turn", PUPIL)])[0], locale) == war


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("nb", "Kongen din slår femmeren til banken: du vinner 2 sjetonger."),
        ("sv", "Din kung slår bankens femma: du vinner 2 spelmarker."),
        ("it", "Il tuo re batte il 5 del banco: vinci 2 gettoni."),
    ],
)
def test_a_casino_hand_names_your_card_and_the_houses(locale, expected):
    state = make_game("casino-war", 1).new_state()
    state.apply(Move("bet", 0, (), "plain"))
    state.apply(Move("deal", -1, (c(KING), c(5))))
    assert say(LESSONS["casino-war"].round_story(state, PUPIL, [])[0], locale) == expected


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("en", "Computer 1's king beats your 6."),
        ("nb", "Kongen til Datamaskin 1 slår sekseren din."),
        ("sv", "Dator 1:s kung slår din sexa."),  # Swedish: the indefinite noun after a possessive
        ("it", "Il re di Computer 1 batte il tuo 6."),
    ],
)
def test_a_computer_players_win_names_its_card_and_yours_and_starts_with_a_capital(locale, expected):
    lesson, state = after("pyanitsa", [[c(6)], [c(KING)]])
    assert say(lesson.round_story(state, PUPIL, [Move("turn", PUPIL)])[0], locale) == expected
