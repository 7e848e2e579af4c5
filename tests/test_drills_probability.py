"""Skill probability: the chance that a card beats yours or ties, as a fraction, and what a tie bet is worth."""

from __future__ import annotations

import json

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.drill_support import assert_content_complete, assert_well_formed, kinds_of
from tests.drill_support import misconception_of as named_by
from tutor.answers import describe
from tutor.checks import check_text, exact
from tutor.drills import Question, texts
from tutor.drills.marking import NOT_SIMPLEST, RIGHT, UNREADABLE, WRONG, mark
from tutor.drills.probability import (
    casino_expected_loss,
    casino_house_edge,
    gnav_chance_higher,
    gnav_unseen_higher,
    probability_card_beats,
    probability_tie,
    probability_tie_bet,
)
from tutor.gnav_deck import deck
from tutor.text import LOCALES, say

MISCONCEPTIONS = {
    "probability_card_beats": {"odds", "own_card_kept", "count_not_fraction", "inverted", "complement", "not_simplest"},
    "probability_tie": {"odds", "own_card_kept", "count_not_fraction", "inverted", "not_simplest"},
    "probability_tie_bet": {"ignored_loss", "stake_always_lost", "sign_flipped", "odds", "own_card_kept"},
    "casino_house_edge": {"forgot_half", "half_not_chance", "own_card_kept", "sign_flipped", "not_simplest"},
    "casino_expected_loss": {"forgot_half", "one_hand_only", "every_stake_lost", "sign_flipped"},
    "gnav_unseen_higher": {"seen_not_taken_away", "kinds_not_cards", "twin_counted", "counted_lower", "off_by_one"},
    "gnav_chance_higher": {"odds", "seen_counted", "count_not_fraction", "inverted", "complement", "not_simplest"},
}
#: Gnav cards (tutor/gnav_deck.py: the first copy of each face, from the top; a second copy is 21 more).
CUCKOO, DRAGOON, CAT, SEVEN, ONE, FOOL, ZERO = 0, 1, 2, 10, 16, 17, 20


def shows(question: Question, typed: str, misconception: str, locale: str = "en") -> None:
    assert named_by(question, typed, locale) == misconception, (typed, question.misconceptions)


def well_formed(question: Question) -> None:
    assert_well_formed(question, LOCALES)


def test_every_kind_has_its_texts_and_each_misconception_its_message():
    kinds = kinds_of("probability")
    assert {kind: set(entry["misconceptions"]) for kind, entry in kinds.items()} == MISCONCEPTIONS
    assert_content_complete("probability")


@pytest.mark.parametrize("locale", LOCALES)
def test_chances_are_fractions_and_any_equivalent_form_counts_below_difficulty_3(locale):
    question = probability_card_beats(49, 12, 2)  # 12/48 = 1/4
    for typed in ("12/48", "1/4", describe(sympy.Rational(1, 4), locale)):
        assert mark(question, typed, locale).status == RIGHT, typed
    simplest = probability_card_beats(49, 12, 3)
    assert "simplest form" in simplest.prompt.msgid and "Any equivalent" in question.prompt.msgid
    assert mark(simplest, "1/4", locale).status == RIGHT
    marked = mark(simplest, "12/48", locale)
    assert marked.status == WRONG and marked.misconception == NOT_SIMPLEST


@pytest.mark.parametrize("locale", LOCALES)
def test_21_81_for_7_27_is_not_in_simplest_form_and_is_read_back_as_21_81(locale):
    question = probability_card_beats(28, 7, 3)  # 7 of the other 27 cards beat yours, in simplest form
    assert question.check == {"rule": "equivalent_simplest", "expected": "7/27"}
    marked = mark(question, "21/81", locale)
    assert marked.read_as == "21/81" and marked.misconception == NOT_SIMPLEST and marked.status == WRONG
    assert "wrong" not in say(marked.feedback[0], "en").lower() and "simplest form" in say(marked.feedback[0], "en")


@pytest.mark.parametrize("locale", LOCALES)
def test_a_right_value_not_in_simplest_form_is_told_so_not_that_it_is_wrong(locale):
    question = probability_tie(1, 3)  # 3/51 = 1/17, asked in simplest form
    for typed, read in (("3/51", "3/51"), ("6/102", "6/102"), (" 3 / 51 ", "3/51")):
        marked = mark(question, typed, locale)
        assert marked.status == WRONG and marked.misconception == NOT_SIMPLEST, typed
        assert marked.read_as == read  # read back as typed, not as 1/17
        assert [line.msgid for line in marked.feedback] == [texts(question.kind)["misconceptions"][NOT_SIMPLEST]]
        assert check_text("equivalent_simplest", False) not in [line.msgid for line in marked.feedback]
    for typed in ("1/17", "1∕17", "1⁄17"):
        assert mark(question, typed, locale).status == RIGHT, typed
    wrong = mark(question, "3/52", locale)  # a wrong value is wrong, whatever its form
    assert wrong.status == WRONG and wrong.misconception != NOT_SIMPLEST
    assert wrong.feedback[0].msgid == check_text("equivalent_simplest", False)


def test_chance_mistakes_are_named():
    question = probability_card_beats(42, 12)  # Gnav: 12 of the other 41 cards beat yours
    assert question.check["expected"] == "12/41"
    shows(question, "12/29", "odds")
    shows(question, "12/42", "own_card_kept")
    shows(question, "12", "count_not_fraction")
    shows(question, "41/12", "inverted")
    shows(question, "29/41", "complement")
    tie = probability_tie(1, 3)
    assert tie.check == {"rule": "equivalent_simplest", "expected": "1/17"}
    shows(tie, "1/13", "own_card_kept")
    shows(tie, "3/48", "odds")
    shows(tie, "3", "count_not_fraction")
    shows(tie, "17", "inverted")
    assert mark(probability_tie(6), "23/311", "nb").status == RIGHT


@pytest.mark.parametrize("locale", LOCALES)
def test_the_tie_bet_loses_six_seventeenths_of_a_token_per_token(locale):
    question = probability_tie_bet(1, 3)
    assert question.check == {"rule": "equals", "expected": "-6/17"}
    for typed in ("-6/17", "−6/17", "-12/34"):
        assert mark(question, typed, locale).status == RIGHT
    shows(question, "10/17", "ignored_loss", locale)
    shows(question, "-7/17", "stake_always_lost", locale)
    shows(question, "6/17", "sign_flipped", locale)
    shows(question, "-2/13", "own_card_kept", locale)


@pytest.mark.parametrize("make", [lambda d: probability_tie(6, d), lambda d: probability_tie_bet(1, d)])
def test_casino_war_prompts_give_no_working_the_hints_do(make):
    """The chance of a tie (1/17, 23/311) and the cards left are worked out in the hints, never given in the prompt."""
    for difficulty in (1, 2, 3):
        question = make(difficulty)
        prompt = say(question.prompt, "en")
        assert "1/17" not in prompt and "23/311" not in prompt and "311" not in prompt, prompt
        assert any("311" in say(hint, "en") or "1/17" in say(hint, "en") for hint in question.hints)


@pytest.mark.parametrize("locale", LOCALES)
def test_the_house_edge_of_the_stake_is_half_the_chance_of_a_tie(locale):
    question = casino_house_edge(1, 2)
    assert question.check == {"rule": "equals", "expected": "1/34"}
    for typed in ("1/34", "2/68"):
        assert mark(question, typed, locale).status == RIGHT
    shows(question, "1/17", "forgot_half", locale)
    shows(question, "1/2", "half_not_chance", locale)
    shows(question, "1/26", "own_card_kept", locale)
    shows(question, "-1/34", "sign_flipped", locale)
    assert casino_house_edge(6, 3).check == {"rule": "equivalent_simplest", "expected": "23/622"}


@pytest.mark.parametrize("locale", LOCALES)
def test_the_tokens_lost_over_many_hands_are_the_hands_times_the_edge(locale):
    question = casino_expected_loss(6, 2, 311)
    assert question.check == {"rule": "equals", "expected": "23"}
    assert mark(question, "23", locale).status == RIGHT
    shows(question, "46", "forgot_half", locale)
    shows(question, "23/311", "one_hand_only", locale)
    shows(question, "622", "every_stake_lost", locale)
    shows(question, "-23", "sign_flipped", locale)
    assert casino_expected_loss(1, 4, 17).check["expected"] == "2"  # 17 hands x 1/17 x 2 tokens


def test_unreadable_answers_are_not_wrong_answers():
    for question in [probability_tie(2), probability_tie_bet(2)]:
        for text in ["", "abc", "2^3", "1,5 + 2", "3/0"]:
            marked = mark(question, text, "en")
            assert marked.status == UNREADABLE and marked.error_code and marked.misconception is None, text
        assert mark(question, "0,5", "en").status == UNREADABLE  # a comma decimal in English


def test_questions_survive_a_round_trip():
    for question in [
        probability_card_beats(52, 20),
        probability_tie(4),
        probability_tie_bet(8),
        casino_house_edge(3),
        casino_expected_loss(2, 6, 40),
    ]:
        assert Question.from_dict(json.loads(json.dumps(question.to_dict()))) == question


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 104).flatmap(lambda size: st.tuples(st.just(size), st.integers(0, size - 1))), st.integers(1, 3))
def test_card_beats_questions_are_answerable(deck, difficulty):
    deck_size, higher = deck
    question = probability_card_beats(deck_size, higher, difficulty)
    assert exact(question.check["expected"]) == sympy.Rational(higher, deck_size - 1)
    well_formed(question)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 8), st.integers(1, 3), st.integers(1, 30))
def test_tie_questions_are_answerable(decks, difficulty, payout):
    well_formed(probability_tie(decks, difficulty))
    question = probability_tie_bet(decks, difficulty, payout)
    p = sympy.Rational(4 * decks - 1, 52 * decks - 1)
    assert exact(question.check["expected"]) == payout * p - (1 - p)
    well_formed(question)
    well_formed(casino_house_edge(decks, difficulty))
    loss = casino_expected_loss(decks, 2 * difficulty, payout + 1, difficulty)
    assert exact(loss.check["expected"]) == (payout + 1) * difficulty * p
    well_formed(loss)


@pytest.mark.parametrize("make", [lambda: casino_expected_loss(1, 3, 17), lambda: casino_expected_loss(1, 2, 1)])
def test_impossible_casino_questions_are_refused(make):
    with pytest.raises(ValueError):
        make()


def test_the_unseen_cards_that_beat_yours_are_counted_two_of_each_less_the_seen_ones():
    # the 7: ten kinds above it (five pictures, 12 to 8), twenty cards; the Cuckoo, a Cat and an 8 are seen
    question = gnav_unseen_higher(SEVEN, [CUCKOO, CAT + 21, 9, ONE], 2)
    assert question.check == {"rule": "equals", "expected": "17"}
    shows(question, "20", "seen_not_taken_away")
    shows(question, "10", "kinds_not_cards")
    shows(question, "18", "twin_counted")  # the other 7 is as high, not higher
    shows(question, "16", "off_by_one")
    lower = 42 - 5 - 17 - 1  # the unseen cards below the 7 (the other 7 is neither)
    shows(question, str(lower), "counted_lower")
    assert gnav_unseen_higher(CUCKOO, [], 3).check["expected"] == "0"
    assert gnav_unseen_higher(ZERO, [], 1).check["expected"] == "40"  # every card but the two 0s
    assert gnav_unseen_higher(ZERO, [], 1, "fool_lowest").check["expected"] == "34"  # not the Pots, Owls and Fools


def test_the_chance_of_a_higher_card_counts_only_the_cards_not_seen():
    question = gnav_chance_higher(SEVEN, [CUCKOO, CAT + 21, 9, ONE], 2)  # 17 of the 37 unseen cards beat the 7
    assert question.check == {"rule": "equals", "expected": "17/37"}
    shows(question, "17/20", "odds")
    shows(question, "17/42", "seen_counted")
    shows(question, "17", "count_not_fraction")
    shows(question, "37/17", "inverted")
    shows(question, "20/37", "complement")
    simplest = gnav_chance_higher(ONE, [SEVEN, 24], 3)  # the 1: 32 higher, 39 unseen... in simplest form
    assert simplest.check["rule"] == "equivalent_simplest"
    deck_question = gnav_chance_higher(FOOL, [], 1, from_deck=True)
    assert "top card of the deck" in say(deck_question.prompt, "en")
    assert "left" in say(gnav_chance_higher(FOOL, [], 1).prompt, "en")


def test_gnav_questions_refuse_impossible_positions():
    with pytest.raises(ValueError):
        gnav_chance_higher(SEVEN, list(deck()))  # nothing left unseen
    with pytest.raises(ValueError):
        gnav_unseen_higher(SEVEN, [99])
    with pytest.raises(ValueError):
        gnav_unseen_higher(42, [])


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(deck()),
    st.lists(st.sampled_from(deck()), max_size=40, unique=True),
    st.integers(1, 3),
    st.sampled_from(["seed", "fool_lowest"]),
    st.booleans(),
)
def test_gnav_questions_are_answerable(card, seen, difficulty, order, from_deck):
    try:
        count = gnav_unseen_higher(card, seen, difficulty, order)
        chance = gnav_chance_higher(card, seen, difficulty, order, from_deck)
    except ValueError:
        return  # every card seen: nothing is left to ask about
    unseen = [c for c in deck() if c not in {*seen, card}]
    higher = int(count.check["expected"])
    assert exact(chance.check["expected"]) == sympy.Rational(higher, len(unseen))
    well_formed(count)
    well_formed(chance)
