"""Question generators, named checks and marking with misconceptions."""

from __future__ import annotations

import pytest
from babel.support import Translations
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.checks import CHECKS, exact, run_check
from tutor.content import drill_texts, load, plural_forms
from tutor.deck import kids2
from tutor.drills import CHOICE, OFF_BY_ONE, PLACE_VALUE, TIMES_TEN, Question, Text, level_of
from tutor.drills import number_facts as nf
from tutor.drills.card_sums import best_card, estimate_card_sum, exact_card_sum, round_to_ten, winning_card
from tutor.drills.fractions_primes_mean import prime_which_sum, probability_card_beats
from tutor.drills.marking import RIGHT, UNREADABLE, WRONG, mark
from tutor.drills.operations import razboiul_war_cards, triplesmart_better
from tutor.text import COLOUR_ADJECTIVE, TRANSLATIONS_DIR, spell_in

DECK = kids2()
NUMBER_CARDS = list(DECK.number_card_ids)


def card_with(predicate):
    return next(c for c in NUMBER_CARDS if predicate(DECK[c]))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(NUMBER_CARDS), st.integers(1, 3), st.sampled_from(["en", "nb", "sv", "it"]))
def test_estimates_count_within_the_stated_tolerance_and_the_taught_rounding_always_counts(card_id, difficulty, locale):
    question = estimate_card_sum(card_id, difficulty)
    total, tolerance = DECK[card_id].circled_sum, int(question.check["tolerance"])
    assert mark(question, str(total - tolerance), locale).status == RIGHT
    assert mark(question, str(total + tolerance), locale).status == RIGHT
    assert mark(question, str(total + tolerance + 1), locale).status == WRONG
    assert mark(question, str(sum(round_to_ten(v) for v in DECK[card_id].circled)), locale).status == RIGHT
    assert Question.from_dict(question.to_dict()) == question


def test_truncating_instead_of_rounding_is_recognised():
    def truncation_is_far_off(card):
        return abs(sum(10 * (v // 10) for v in card.circled) - card.circled_sum) > 10

    card_id = card_with(truncation_is_far_off)
    question = estimate_card_sum(card_id, 2)
    truncated = sum(10 * (v // 10) for v in DECK[card_id].circled)
    marked = mark(question, str(truncated), "en")
    assert marked.status == WRONG and marked.misconception == "truncated"
    assert marked.feedback[-1].msgid == drill_texts()["estimate_card_sum"]["misconceptions"]["truncated"]


def test_adding_the_top_number_and_leaving_a_value_out_are_recognised():
    card_id = card_with(lambda c: c.top >= 9 and min(c.circled) > 30)
    question = exact_card_sum(card_id)
    card = DECK[card_id]
    assert mark(question, str(card.circled_sum + card.top), "en").misconception == "added_top"
    assert mark(question, str(card.circled_sum - card.circled[0]), "en").misconception == "left_out_value"
    assert mark(question, str(card.circled_sum), "en").status == RIGHT


def test_a_lost_carry_is_recognised():
    card_id = card_with(lambda c: sum(v % 10 for v in c.circled) >= 10)
    question = exact_card_sum(card_id)
    marked = mark(question, str(DECK[card_id].circled_sum - 10), "nb")
    assert marked.status == WRONG and marked.misconception == "carry_forgotten"


def test_best_card_is_answered_with_card_buttons_and_names_the_mistake():
    hand = NUMBER_CARDS[:5]
    question = best_card(hand)
    best = max(hand, key=lambda c: DECK[c].circled_sum)
    lowest = min(hand, key=lambda c: DECK[c].circled_sum)
    assert [choice["card"] for choice in question.choices] == hand
    assert mark(question, str(best), "en").status == RIGHT
    assert mark(question, str(lowest), "en").misconception in {"lowest_sum", "highest_top", "biggest_single_value"}
    assert mark(question, "17 + 3", "en").status == UNREADABLE
    assert mark(question, str(NUMBER_CARDS[30]), "en").status == UNREADABLE


def test_winning_card_hides_the_result_until_answered():
    table = [NUMBER_CARDS[0], NUMBER_CARDS[40]]
    question = winning_card(table, {})
    assert question.hides_result and question.skill == "compare"


def test_unreadable_answers_are_not_wrong_answers():
    question = exact_card_sum(NUMBER_CARDS[3])
    for text in ["", "abc", "2^3", "1.234", "((1))"]:
        marked = mark(question, text, "nb")
        assert marked.status == UNREADABLE and marked.error_code and marked.read_as is None


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


# --- slips, cards on choice questions ---------------------------------------------------------


def test_exact_sum_slips_get_their_own_feedback():
    card_id = card_with(
        lambda c: (
            c.circled_sum >= 100
            and len(set(str(c.circled_sum))) == 3
            and sum(v % 10 for v in c.circled) < 10
            and c.top > 1
        )
    )
    total = DECK[card_id].circled_sum
    question = exact_card_sum(card_id)
    swapped = str(total)[0] + str(total)[2] + str(total)[1]
    for typed, slip in (
        (total + 1, OFF_BY_ONE),
        (total - 1, OFF_BY_ONE),
        (total * 10, TIMES_TEN),
        (swapped, PLACE_VALUE),
    ):
        marked = mark(question, str(typed), "en")
        assert marked.status == WRONG and marked.misconception == slip, typed
        assert marked.feedback[-1].msgid == drill_texts()["exact_card_sum"]["misconceptions"][slip]
    assert mark(question, str(total + 50), "en").misconception is None
    assert (
        mark(question, str(total - DECK[card_id].circled[0]), "en").misconception == "left_out_value"
    )  # the telling mistake comes first


def test_an_estimate_ten_times_too_big_is_named_and_one_out_is_still_right():
    card_id = NUMBER_CARDS[5]
    question = estimate_card_sum(card_id, 2)
    rounded = sum(round_to_ten(v) for v in DECK[card_id].circled)
    assert mark(question, str(rounded * 10), "en").misconception == TIMES_TEN
    assert mark(question, str(DECK[card_id].circled_sum + 1), "en").status == RIGHT


def test_every_choice_question_about_kids2_cards_carries_the_cards_it_asks_about():
    fives, sevens = [c for c in NUMBER_CARDS if DECK[c].top == 5][:2], [c for c in NUMBER_CARDS if DECK[c].top == 7][:2]
    hand = [*fives, *sevens]  # two 5s and two 7s: "the two cards" must be shown
    multiply = nf.multiply_top_numbers(fives[1], sevens[0], 1)
    assert multiply.answer == CHOICE and multiply.cards == [fives[1], sevens[0]]
    discard = card_with(lambda c: 35 in c.circled or 25 in c.circled)
    pairs = nf.factor_pair_cards(hand, discard, 1)
    on_buttons = {int(c) for choice in pairs.choices if choice["value"] != "none" for c in choice["value"].split(",")}
    assert pairs.cards[0] == discard and set(pairs.cards[1:]) == on_buttons  # the top card and the cards on the buttons
    friend = nf.tens_friend_card(hand, card_with(lambda c: c.top == 3), 1)
    assert DECK[friend.cards[0]].top == 3
    assert set(friend.cards[1:]) == {choice["card"] for choice in friend.choices if "card" in choice}
    target = card_with(lambda c: c.top == 9)
    asked = [
        multiply,
        pairs,
        friend,
        nf.factor_pair_for_value(hand, 35, 1, discard),
        nf.tens_friend_number(fives[0], 1),
        nf.missing_factor(fives[0], card_with(lambda c: any(v % 5 == 0 and v <= 45 for v in c.circled)), 1),
        nf.compare_numbers([35, 25], 2, cards=hand),
        best_card(hand),
        winning_card(hand[:2], {}),
        prime_which_sum(hand[0]),
        triplesmart_better(hand[:3], target, 11),
    ]
    for question in asked:
        assert question.answer == CHOICE and question.cards, question.kind


# --- language a child understands ----------------------------------------------------------------
@pytest.mark.parametrize("locale", ["en", "nb"])
def test_a_drill_text_with_a_count_says_one_card_and_two_cards(locale):
    """A short war (one player has only 1 or 2 cards) counts the cards each player lays with the plural form it needs."""
    one, other, counted = plural_forms(
        drill_texts()["razboiul_short_war_cards"]["hints"][1]
    )  # "So each player lays %(each)s cards, ..."
    catalogue = Translations.load(str(TRANSLATIONS_DIR), [locale])
    for shortest in (1, 2):
        hint = razboiul_war_cards(9, 3, 2, shortest=shortest).hints[1]
        assert hint.params[counted] == shortest
        assert spell_in(hint, locale) == catalogue.ngettext(one, other, shortest) % hint.params
    if locale == "en":
        assert "lays 1 card," in spell_in(razboiul_war_cards(9, 3, 2, shortest=1).hints[1], "en")
        assert "lays 2 cards," in spell_in(razboiul_war_cards(9, 3, 2, shortest=2).hints[1], "en")


@pytest.mark.parametrize("locale", ["nb", "sv", "it"])
def test_what_a_card_is_names_its_suit_in_words(locale):
    """ "Q♥ is a heart, even and high", never "Q♥ is ♥": a symbol alone is no word to read aloud."""
    question = nf.shared_traits("QH", "3S")
    described = spell_in(question.solution[0], locale).replace("Q♥", "")  # "%(a)s is %(a_traits)s."
    assert not set(described) & set(nf.SUITS.values()), described
    assert spell_in(Text(drill_texts()["shared_traits"]["phrases"]["heart"]["text"]), locale) in described
    assert spell_in(Text(drill_texts()["shared_traits"]["phrases"]["spade"]["text"]), locale) in spell_in(
        question.solution[1], locale
    )


def test_a_cards_colour_in_a_drill_is_said_as_describing_the_card():
    """ "the green 7": the colour's name in the context translators give the adjective (as the cards' names for screen readers)."""
    hand = [card_with(lambda c: c.top == 3), card_with(lambda c: c.top == 7)]
    question = nf.tens_friend_card(hand, card_with(lambda c: c.top == 7))
    colours = [choice["label"].params["colour"] for choice in question.choices if "card" in choice]
    assert colours and all(colour["context"] == COLOUR_ADJECTIVE for colour in colours)
