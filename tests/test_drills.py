"""Marking, named checks, levels and the language of drill texts (each skill's generators: test_drills_<skill>.py)."""

from __future__ import annotations

import pytest
from babel.support import Translations

from tests.drill_support import DECK, NUMBER_CARDS, card_with, std
from tutor.checks import CHECKS, exact, run_check
from tutor.content import drill_texts, load
from tutor.drills import NUMBER, level_of
from tutor.drills.add_sub import razboiul_war_cards, triplesmart_better
from tutor.drills.compare import compare_numbers, winning_card
from tutor.drills.estimate_sum import best_card
from tutor.drills.exact_sum import exact_card_sum
from tutor.drills.factor_pairs import factor_pair_cards, factor_pair_for_value, missing_factor
from tutor.drills.marking import RIGHT, UNREADABLE, mark
from tutor.drills.multiply import multiply_top_numbers
from tutor.drills.parity_size import shared_traits
from tutor.drills.primes import prime_which_sum
from tutor.drills.probability import probability_card_beats
from tutor.drills.tens_friends import tens_friend_card, tens_friend_number
from tutor.standard_deck import SUIT_SYMBOLS
from tutor.text import COLOUR_ADJECTIVE, TRANSLATIONS_DIR, Text, plural_forms, say


def test_answers_are_read_in_the_pupils_notation():
    question = exact_card_sum(NUMBER_CARDS[3])
    assert mark(question, "3,5", "nb").read_as == "3,5"
    assert mark(question, "3.5", "en").read_as == "3.5"
    assert mark(question, "3,5", "en").status == UNREADABLE


def test_a_fraction_is_read_back_as_the_pupil_wrote_it_not_as_its_value():
    half = probability_card_beats(3, 1)  # one of the two other cards beats yours: 1/2, any equivalent fraction counts
    for locale in ("en", "nb", "sv", "it"):
        assert mark(half, "1/2", locale).read_as == "1/2"  # not "0,5"
        assert mark(half, "2/4", locale).read_as == "2/4" and mark(half, "2/4", locale).status == RIGHT
        assert mark(half, "-1/2", locale).read_as == "−1/2"
    assert mark(half, "0,5", "nb").read_as == "0,5" and mark(half, "0.5", "en").read_as == "0.5"


def test_the_feedback_writes_the_expected_value_by_the_questions_own_rule():
    half = probability_card_beats(3, 1)
    assert half.number_form == "fraction"
    marked = mark(half, "0,5", "nb")
    assert (
        marked.status == RIGHT and marked.feedback[0].params["expected"] == "1/2"
    )  # a chance is a fraction, also after a decimal
    assert mark(exact_card_sum(NUMBER_CARDS[3]), "-3,5", "nb").feedback[0].params["value"] == "−3,5"  # one minus sign


def test_every_named_check_has_feedback_in_content():
    checks = load("checks")
    assert set(CHECKS) == set(checks)
    for entry in checks.values():
        assert entry["right"] and entry["wrong"] and entry["description"]


@pytest.mark.parametrize(
    "rule,spec,value,expected",
    [
        ("equals", {"expected": "7/2"}, "7/2", True),
        ("within_tolerance", {"expected": "100", "tolerance": "10"}, "111", False),
        ("between_inclusive", {"low": "1/2", "high": "3/4"}, "3/4", True),
        ("between_strict", {"low": "1/2", "high": "3/4"}, "3/4", False),
        ("is_prime", {}, "91", False),
        ("is_prime", {}, "97", True),
        ("equivalent_simplest", {"expected": "1/2"}, "1/2", True),
    ],
)
def test_named_checks(rule, spec, value, expected):
    assert run_check({"rule": rule, **spec}, exact(value)) is expected


def test_a_skill_without_a_chosen_level_gets_the_easiest_questions():
    assert [level_of({"multiply": 3}, "multiply"), level_of({"multiply": 3}, "compare"), level_of({}, "compare")] == [
        3,
        1,
        1,
    ]


# --- cards on questions about cards --------------------------------------------------------------


def test_every_question_about_kids2_cards_carries_the_cards_it_asks_about():
    fives, sevens = [c for c in NUMBER_CARDS if DECK[c].top == 5][:2], [c for c in NUMBER_CARDS if DECK[c].top == 7][:2]
    hand = [*fives, *sevens]  # two 5s and two 7s: "the two cards" must be shown
    multiply = multiply_top_numbers(fives[1], sevens[0], 1)
    assert multiply.answer == NUMBER and multiply.cards == [fives[1], sevens[0]]  # typed, the two cards shown
    discard = card_with(lambda c: 35 in c.circled or 25 in c.circled)
    pairs = factor_pair_cards(hand, discard, 1)
    on_buttons = {int(c) for choice in pairs.choices if choice["value"] != "none" for c in choice["value"].split(",")}
    assert pairs.cards[0] == discard and set(pairs.cards[1:]) == on_buttons  # the top card and the cards on the buttons
    friend = tens_friend_card(hand, card_with(lambda c: c.top == 3), 1)
    assert DECK[friend.cards[0]].top == 3
    assert set(friend.cards[1:]) == {choice["card"] for choice in friend.choices if "card" in choice}
    target = card_with(lambda c: c.top == 9)
    asked = [
        multiply,
        pairs,
        friend,
        factor_pair_for_value(hand, 35, 1, discard),
        tens_friend_number(fives[0], 1),
        missing_factor(fives[0], card_with(lambda c: any(v % 5 == 0 and v <= 45 for v in c.circled)), 1),
        compare_numbers([35, 25], 2, cards=hand),
        best_card(hand),
        winning_card(hand[:2], {}),
        prime_which_sum(hand[0]),
        triplesmart_better(hand[:3], target, 11),
    ]
    for question in asked:
        assert question.cards, question.kind


# --- language a child understands ----------------------------------------------------------------
@pytest.mark.parametrize("locale", ["en", "nb"])
def test_a_drill_text_with_a_count_says_one_card_and_two_cards(locale):
    """A short war (one player has only 1 or 2 cards) counts the cards each player lays with the plural form
    it needs."""
    one, other, counted = plural_forms(
        drill_texts()["razboiul_short_war_cards"]["hints"][1]
    )  # "So each player lays %(each)s cards, ..."
    catalogue = Translations.load(str(TRANSLATIONS_DIR), [locale])
    for shortest in (1, 2):
        hint = razboiul_war_cards(std("9H"), 3, 2, shortest=shortest).hints[1]
        assert hint.params[counted] == shortest
        assert say(hint, locale) == catalogue.ngettext(one, other, shortest) % hint.params
    if locale == "en":
        assert "lays 1 card," in say(razboiul_war_cards(std("9H"), 3, 2, shortest=1).hints[1], "en")
        assert "lays 2 cards," in say(razboiul_war_cards(std("9H"), 3, 2, shortest=2).hints[1], "en")


@pytest.mark.parametrize("locale", ["nb", "sv", "it"])
def test_what_a_card_is_names_its_suit_in_words(locale):
    """ "Q♥ is a heart, even and high", never "Q♥ is ♥": a symbol alone is no word to read aloud."""
    question = shared_traits(std("QH"), std("3S"))
    described = say(question.solution[0], locale).replace("Q♥", "")  # "%(a)s is %(a_traits)s."
    assert not set(described) & set(SUIT_SYMBOLS.values()), described
    assert say(Text(drill_texts()["shared_traits"]["phrases"]["heart"]["text"]), locale) in described
    assert say(Text(drill_texts()["shared_traits"]["phrases"]["spade"]["text"]), locale) in say(
        question.solution[1], locale
    )


def test_a_cards_colour_in_a_drill_is_said_as_describing_the_card():
    """ "the green 7": the colour's name in the context translators give the adjective (as the cards' names
    for screen readers)."""
    hand = [card_with(lambda c: c.top == 3), card_with(lambda c: c.top == 7)]
    question = tens_friend_card(hand, card_with(lambda c: c.top == 7))
    colours = [choice["label"].params["colour"] for choice in question.choices if "card" in choice]
    assert colours and all(colour["context"] == COLOUR_ADJECTIVE for colour in colours)
