"""Skill factor_pairs: which two cards multiply to a circled value, and what times a card makes one."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.drill_support import (
    ALL_CARDS,
    DECK,
    NUMBER_CARDS,
    SPECIAL_CARDS,
    assert_content_complete,
    assert_every_kind_and_misconception_used,
    assert_messages_use_only_fields_every_hint_has,
    assert_right_in_every_locale,
    assert_well_formed,
    card,
    misconception_of,
    right_answers,
)
from tutor.drills.common import DIFFICULTIES
from tutor.drills.factor_pairs import factor_pair_cards, factor_pair_for_value, missing_factor, reachable_values
from tutor.drills.marking import RIGHT, UNREADABLE, mark
from tutor.text import LOCALES

SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
#: Top numbers 2, 5, 7, 4, 3 and the value 12: 3 x 4 makes it, 5 + 7 adds up to it, 2 x 5 is a table step off.
TWELVE_HAND = [card(2), card(5), card(7), card(4), card(3)]


def adding_hands() -> list[tuple[int, list[int]]]:
    """Top cards with a small circled value, and a hand whose two top numbers add up to it."""
    found = []
    for discard in NUMBER_CARDS:
        small = min(DECK[discard].circled)
        if small <= 17:
            found.append((discard, [card(9, skip=1), card(small - 9, skip=2), card(2, skip=3)]))
    return found


@pytest.fixture(scope="module")
def questions():
    """Questions of every kind at every difficulty, over a broad spread of hands and top cards."""
    hands = [NUMBER_CARDS[i : i + 6] for i in range(0, len(NUMBER_CARDS) - 6, 5)] + [
        [*NUMBER_CARDS[:3], *SPECIAL_CARDS[:3]]
    ]
    found = []
    for d in DIFFICULTIES:
        for i, hand in enumerate(hands):
            discard = NUMBER_CARDS[(7 * i) % len(NUMBER_CARDS)]
            found.append(factor_pair_cards(hand, discard, d))
            found.append(factor_pair_for_value(hand, DECK[discard].circled[i % 4], d, discard))
        found.append(factor_pair_for_value(TWELVE_HAND, 12, d))
        for discard, hand in adding_hands()[:4]:
            found.append(factor_pair_cards(hand, discard, d))
        for c in NUMBER_CARDS[::3]:
            for discard in NUMBER_CARDS[1::9]:
                if reachable_values(c, discard):
                    found.append(missing_factor(c, discard, d))
    return found


def test_every_question_is_well_formed(questions):
    for question in questions:
        assert_well_formed(question, lists_every_mistake=True)


@pytest.mark.parametrize("locale", LOCALES)
def test_right_answers_are_right_in_every_locale(questions, locale):
    assert_right_in_every_locale(questions[::7], locale)


def test_every_kind_and_misconception_is_used_and_its_message_fills(questions):
    assert_every_kind_and_misconception_used(questions, "factor_pairs")
    assert_messages_use_only_fields_every_hint_has(questions)
    assert_content_complete("factor_pairs")


def products() -> set[int]:
    return {a * b for a in range(2, 10) for b in range(2, 10)}


def factorisation(value: int) -> tuple[int, int]:
    return next((a, value // a) for a in range(2, 10) if value % a == 0 and 2 <= value // a <= 9)


def test_factor_pairs_name_the_sum_the_table_step_and_another_circled_value():
    question = factor_pair_for_value(TWELVE_HAND, 12, 3)
    value = {
        tuple(sorted(DECK[int(i)].top for i in c["value"].split(","))): c["value"]
        for c in question.choices
        if c["value"] != "none"
    }
    assert mark(question, value[(3, 4)], "en").status == RIGHT
    assert misconception_of(question, value[(5, 7)]) == "sum_not_product"
    assert misconception_of(question, value[(2, 5)]) == "table_step_off"
    assert misconception_of(question, "none") is None
    # another circled value of the top card: the deck puts two times-table products on every card
    top = NUMBER_CARDS[10]
    target, other = [v for v in DECK[top].circled if v in products()][:2]
    (x, y), (u, w) = factorisation(target), factorisation(other)
    hand = [card(x), card(y, skip=1), card(u, skip=2), card(w, skip=3)]
    question = factor_pair_for_value(hand, target, 3, top)
    pair = f"{min(card(u, skip=2), card(w, skip=3))},{max(card(u, skip=2), card(w, skip=3))}"
    assert misconception_of(question, pair) == "other_circled_value"


def test_a_pair_making_a_value_on_your_own_card_is_recognised():
    for first, second in combinations(NUMBER_CARDS, 2):
        made = DECK[first].top * DECK[second].top
        if made in DECK[first].circled + DECK[second].circled:
            discard = next(c for c in NUMBER_CARDS if made not in DECK[c].circled)
            question = factor_pair_cards([first, second], discard, 1)
            assert misconception_of(question, f"{first},{second}") == "own_card_value"
            assert mark(question, "none", "sv").status == RIGHT
            return
    pytest.fail("no pair makes a value on its own cards")


def test_a_pair_adding_up_to_a_circled_value_is_recognised():
    discard, hand = adding_hands()[0]
    question = factor_pair_cards(hand, discard, 3)
    assert misconception_of(question, f"{hand[0]},{hand[1]}", "it") == "sum_not_product"


def test_factor_pair_buttons_grow_with_difficulty_and_always_offer_none():
    hand = NUMBER_CARDS[:8]
    sizes = [len(factor_pair_cards(hand, NUMBER_CARDS[40], d).choices) for d in DIFFICULTIES]
    assert sizes == [3, 4, 6]
    question = factor_pair_cards(hand, NUMBER_CARDS[40], 2)
    assert question.choices[-1]["value"] == "none" and "card" not in question.choices[-1]


def test_missing_factor_names_subtracting_a_table_step_and_another_value():
    for c in NUMBER_CARDS:
        for discard in NUMBER_CARDS:
            values = reachable_values(c, discard)
            n = DECK[c].top
            if len(values) >= 2 and n >= 2 and values[-1] // n not in (values[0] // n - 1, values[0] // n + 1):
                question = missing_factor(c, discard, 3, values[-1])
                right = values[-1] // n
                assert mark(question, str(right), "nb").status == RIGHT
                assert misconception_of(question, str(values[-1] - n)) == "subtracted"
                assert misconception_of(question, str(right + 1)) == "table_step_off"
                assert misconception_of(question, str(values[0] // n)) == "other_circled_value"
                return
    pytest.fail("no card reaches two circled values")


def test_unreadable_answers_are_not_wrong_answers():
    question = factor_pair_cards(NUMBER_CARDS[:5], NUMBER_CARDS[30])
    for text in ["", "banana", "42", "ODD"]:
        assert mark(question, text, "en").status == UNREADABLE, text


@pytest.mark.parametrize(
    "make",
    [
        lambda: factor_pair_cards([card(3), *SPECIAL_CARDS[:3]], card(4)),
        lambda: factor_pair_cards([card(3), card(3)], card(4)),
        lambda: factor_pair_cards([card(3), card(4)], SPECIAL_CARDS[0]),
        lambda: missing_factor(card(7), card(2), 2, value=50),
    ],
)
def test_impossible_inputs_are_refused(make):
    with pytest.raises(ValueError):
        make()


def number_cards_in(hand) -> int:
    return sum(not DECK[c].is_special for c in hand)


@SETTINGS
@given(
    st.lists(st.sampled_from(ALL_CARDS), min_size=2, max_size=8, unique=True),
    st.sampled_from(NUMBER_CARDS),
    st.sampled_from(DIFFICULTIES),
    st.integers(0, 3),
)
def test_every_factor_pair_question_is_answerable(hand, discard, difficulty, which):
    assume(number_cards_in(hand) >= 2)
    for question in (
        factor_pair_cards(hand, discard, difficulty),
        factor_pair_for_value(hand, DECK[discard].circled[which], difficulty, discard),
    ):
        assert_well_formed(question, LOCALES, lists_every_mistake=True)
        targets = DECK[discard].circled if question.kind == "factor_pair_cards" else [DECK[discard].circled[which]]
        for value in right_answers(question):
            if value != "none":
                first, second = (DECK[int(i)] for i in value.split(","))
                assert first.top * second.top in targets


@SETTINGS
@given(st.sampled_from(NUMBER_CARDS), st.sampled_from(NUMBER_CARDS), st.sampled_from(DIFFICULTIES))
def test_every_missing_factor_question_is_answerable(c, discard, difficulty):
    assume(reachable_values(c, discard))
    question = missing_factor(c, discard, difficulty)
    assert_well_formed(question, LOCALES, lists_every_mistake=True)
    assert int(question.hints[0].params["value"]) == DECK[c].top * int(right_answers(question)[0])
