"""Evidence that means something: a number is typed at every difficulty, never picked from buttons.

A tap on one of three numbers is a guess that looks like knowing, so every question whose answer
is a number (a count, a product, a sum, a difference, a tens-friend) is typed, and the difficulty
changes only the support: a tip in the prompt at 1, the last hint left out at 3. Only a question
whose answer is truly a choice has buttons, and :data:`CHOICES` names every such kind with what its
buttons choose between: a new question kind with buttons fails here until it is listed, so number
buttons cannot come back unnoticed. Every generator of the drill catalogue is drawn across its
arguments and difficulties with the strategies of ``tests/test_answer_key.py``.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.drill_support import card, misconception_of, said
from tests.test_answer_key import ARGUMENTS, GENERATORS, question_from
from tutor.content import drill_texts
from tutor.drills import CHOICE, NUMBER
from tutor.drills.common import DIFFICULTIES
from tutor.drills.count import cards_after_loss, cards_after_win, cards_on_table
from tutor.drills.factor_pairs import missing_factor
from tutor.drills.marking import WRONG, mark
from tutor.drills.multiply import multiply_top_numbers
from tutor.drills.tens_friends import tens_friend_number
from tutor.text import LOCALES

#: Every question kind answered with buttons, and what its buttons choose between: never a number to work out.
CHOICES = {
    "winning_card": "which card on the table wins",
    "compare_numbers": "which of the numbers the prompt lists is the biggest, or a tie",
    "compare_ranks": "which card on the table is higher, or a tie",
    "special_rank_rule": "which card on the table wins by the game's own rule, or a tie",
    "least_waste_card": "which card of the hand beats a card on the table with the least waste, or none",
    "best_card": "which card of the hand",
    "tens_friend_card": "which card of the hand, or none",
    "factor_pair_cards": "which pair of cards of the hand, or none",
    "factor_pair_for_value": "which pair of cards of the hand, or none",
    "twentynine_which_card": "which card of the hand, or none",
    "twentynine_bust": "under, exactly or over 29",
    "compare_gnav": "which of two Gnav cards is higher, or a tie",
    "playable_card": "which card of the hand may go on the row, or none",
    "rank_parity": "odd, even, both or neither",
    "rank_size": "low, high or both",
    "shared_traits": "which traits two cards share",
    "fraction_in_interval": "yes or no",
    "fraction_larger": "which of two fractions on the table, or equal",
    "fraction_order": "which order of three fractions on the table",
    "fraction_equivalent": "yes or no",
    "fraction_from_hand": "which fraction the hand can make, or none",
    "prime_is_prime": "yes or no",
    "prime_which_sum": "which pair of a card's circled values, or none",
    "triplesmart_better": "yes or no",
    "triplesmart_extreme_better": "yes or no",
}
#: A button whose label is a bare number, as a number button of old would be ("56").
BARE_NUMBER = re.compile(r"^−?\d+$")


def test_every_kind_listed_as_a_choice_exists():
    assert set(CHOICES) <= set(drill_texts())


@pytest.mark.parametrize("make", GENERATORS, ids=lambda make: make.__name__)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(data=st.data())
def test_no_number_question_offers_buttons(make, data):
    question = question_from(make, data.draw(ARGUMENTS[make], label="arguments"))
    if question.answer != CHOICE:
        assert question.answer == NUMBER and not question.choices and question.check["rule"] != "choice"
        return
    assert question.kind in CHOICES, f"{question.kind} has buttons: a number is typed, a choice is listed here"
    assert len(question.choices) >= 2, question.kind
    prompt = said(question.prompt, "en")
    for choice in question.choices:
        label = said(choice["label"], "en")
        if BARE_NUMBER.match(label) and question.kind == "compare_numbers":
            assert re.search(rf"(?<!\d){label}(?!\d)", prompt), (label, prompt)  # one of the numbers asked about


#: The kinds whose answer once was a number picked from 3 (difficulty 1) or 5 (difficulty 2) buttons.
ONCE_ON_BUTTONS = [
    (lambda d: cards_after_win(12, 2, d), "16", "pot_twice"),
    (lambda d: cards_after_loss(10, 3, d), "13", "added_instead"),
    (lambda d: cards_on_table([4, 5], d), "4", "only_own"),
    (lambda d: multiply_top_numbers(card(7), card(8), d), "15", "added"),
    (lambda d: tens_friend_number(card(3), d), "13", "added_ten"),
    (lambda d: missing_factor(card(4), card(4), d, value=28), "24", "subtracted"),
]


@pytest.mark.parametrize("make,telling,named", ONCE_ON_BUTTONS)
def test_a_number_once_picked_from_buttons_is_typed_and_the_difficulty_sets_only_the_support(make, telling, named):
    easy, middle, hard = (make(d) for d in DIFFICULTIES)
    for question in (easy, middle, hard):
        assert question.answer == NUMBER and not question.choices and question.check["rule"] == "equals"
        assert question.check == middle.check and question.misconceptions == middle.misconceptions
        for locale in LOCALES:  # a typed wrong value a misconception lists is still named
            assert misconception_of(question, telling, locale) == named
    assert said(easy.prompt, "en") != said(middle.prompt, "en") and "Tip:" in said(easy.prompt, "en")
    assert easy.hints == middle.hints and hard.hints == middle.hints[:-1]
    assert mark(hard, "999", "en").status == WRONG
