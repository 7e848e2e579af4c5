"""Skill count: how many cards a player holds or takes after a round of War."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.drill_support import (
    JOKER,
    assert_content_complete,
    assert_every_kind_and_misconception_used,
    assert_messages_use_only_fields_every_hint_has,
    assert_right_in_every_locale,
    assert_well_formed,
    misconception_of,
    std,
)
from tutor.drills.common import DIFFICULTIES
from tutor.drills.count import (
    cards_after_loss,
    cards_after_win,
    cards_ahead,
    cards_on_table,
    unseen_beat_count,
    war_cards,
    winner_takes,
)
from tutor.drills.marking import RIGHT, UNREADABLE, mark
from tutor.text import LOCALES, Text, say

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def questions():
    found = []
    for d in DIFFICULTIES:
        for held, change in [(0, 2), (12, 2), (5, 10), (26, 1), (9, 4)]:
            found.append(cards_after_win(held, change, d))
        for held, change in [(2, 2), (12, 2), (10, 3), (26, 1), (13, 10)]:
            found.append(cards_after_loss(held, change, d))
        for laid in [[1, 1], [4, 4], [4, 5], [1, 1, 1, 1], [10, 10], [5, 3, 2]]:
            found.append(cards_on_table(laid, d))
            found.append(winner_takes(laid, d))
        for players, down, on_table in [(2, 3, 2), (3, 1, 3), (4, 2, 4), (2, 7, 6)]:
            found.append(war_cards(players, down, d, on_table))
        for mine, theirs in [(30, 22), (22, 30), (1, 0), (13, 39)]:
            found.append(cards_ahead(mine, theirs, OTHER, d))
        for mine, seen in [
            (std("9S"), [std("KS"), std("4H"), std("9D")]),
            (std("AS"), [std("2H")]),
            (std("2S"), []),
            (std("QS"), [std("AH"), std("AD"), std("KC")]),
        ]:
            found.append(unseen_beat_count(mine, seen, False, d))
        found.append(unseen_beat_count(std("KS"), [JOKER], True, d))
    return found


#: A computer player's name, as the lessons pass it.
OTHER = Text("Computer %(n)s", {"n": 1}).to_dict()


def test_every_question_is_well_formed(questions):
    for question in questions:
        assert_well_formed(question, lists_every_mistake=True)


@pytest.mark.parametrize("locale", LOCALES)
def test_right_answers_are_right_in_every_locale(questions, locale):
    assert_right_in_every_locale(questions, locale)


def test_every_kind_and_misconception_is_used_and_its_message_fills(questions):
    assert_every_kind_and_misconception_used(questions, "count")
    assert_messages_use_only_fields_every_hint_has(questions)
    assert_content_complete("count")


def test_counting_won_cards_names_each_mistake():
    question = cards_after_win(12, 2, 3)
    assert mark(question, "14", "sv").status == RIGHT
    assert misconception_of(question, "2") == "forgot_held"
    assert misconception_of(question, "16") == "pot_twice"
    assert misconception_of(question, "10") == "subtracted"
    assert misconception_of(question, "13") == misconception_of(question, "15") == "off_by_one"


def test_counting_lost_cards_names_each_mistake():
    question = cards_after_loss(10, 3, 3)
    assert mark(question, "7", "it").status == RIGHT
    assert misconception_of(question, "3") == "answered_lost"
    assert misconception_of(question, "13") == "added_instead"
    assert misconception_of(question, "6") == "off_by_one"


def test_counting_the_cards_on_the_table_names_each_mistake():
    question = cards_on_table([4, 5], 3)
    assert mark(question, "9", "nb").status == RIGHT
    assert misconception_of(question, "4") == "only_own"
    assert misconception_of(question, "5") == "forgot_own"
    assert misconception_of(question, "18") == "pot_twice"
    assert misconception_of(question, "10") == "off_by_one"


def test_the_winner_takes_every_card_of_every_player():
    question = winner_takes([4, 4, 2], 2)
    assert question.answer == "number" and question.check == {"rule": "equals", "expected": "10"}
    assert misconception_of(question, "3") == "only_face_up"
    assert misconception_of(question, "6") == misconception_of(question, "8") == "forgot_one_player"
    assert misconception_of(question, "20") == "pot_twice"


def test_a_war_is_counted_for_you_for_everyone_and_with_the_table():
    assert war_cards(2, 3, 1).check["expected"] == "4"
    everyone = war_cards(3, 3, 2)
    assert everyone.check["expected"] == "12" and everyone.answer == "number"
    assert misconception_of(everyone, "9") == "forgot_face_up"
    assert misconception_of(everyone, "4") == "only_yours"
    assert misconception_of(everyone, "7") == "added_not_multiplied"
    table = war_cards(2, 3, 3, on_table=2)
    assert table.check["expected"] == "10" and misconception_of(table, "8") == "forgot_face_up"
    assert misconception_of(table, "6") == "only_yours"
    assert misconception_of(war_cards(3, 3, 3, on_table=5), "12") == "forgot_table"


def test_who_is_ahead_is_the_difference_of_the_counts():
    ahead = cards_ahead(30, 22, OTHER)
    assert ahead.check["expected"] == "8" and misconception_of(ahead, "52") == "added"
    assert misconception_of(ahead, "30") == misconception_of(ahead, "22") == "answered_count"
    behind = cards_ahead(22, 30, OTHER)
    assert behind.check["expected"] == "8" and "does %(other)s have" in behind.prompt.msgid
    won = cards_ahead(6, 10, OTHER, won=True)  # Tod und Leben counts the cards won
    assert say(won.prompt) == "You have won 6 cards and Computer 1 has won 10. How many more cards has Computer 1 won?"
    assert_well_formed(won, LOCALES)


def test_the_unseen_cards_that_beat_yours_leave_out_the_cards_you_see():
    question = unseen_beat_count(std("9S"), [std("KS"), std("4H"), std("9D")])
    assert question.check["expected"] == "19"  # 10, J, Q, K, A: 20 cards, one king seen
    assert misconception_of(question, "20") == "forgot_seen"
    assert misconception_of(question, "5") == "counted_ranks"
    assert misconception_of(question, "21") == "counted_equal"
    assert unseen_beat_count(std("AS"), [std("2H")]).check["expected"] == "3"  # the 2s beat the ace
    assert unseen_beat_count(std("2S"), []).check["expected"] == "44"  # 3 to K beat a 2; the ace does not
    assert unseen_beat_count(std("KS"), [], jokers=True).check["expected"] == "6"  # the aces and the jokers


def test_unreadable_answers_are_not_wrong_answers():
    question = cards_after_win(3, 2, 3)
    for text in ["", "abc", "7 + 3", "2^3", "1.234"]:
        marked = mark(question, text, "nb")
        assert marked.status == UNREADABLE and marked.misconception is None, text


@pytest.mark.parametrize(
    "make",
    [
        lambda: cards_after_win(3, 0),
        lambda: cards_after_win(-1, 2),
        lambda: cards_after_loss(2, 3),
        lambda: cards_on_table([3]),
        lambda: cards_on_table([0, 3]),
        lambda: winner_takes([3]),
        lambda: winner_takes([3, 0]),
        lambda: war_cards(1, 3),
        lambda: war_cards(2, 0),
        lambda: war_cards(3, 3, 3, on_table=2),
        lambda: cards_ahead(5, 5, OTHER),
        lambda: unseen_beat_count(std("9S"), [std("9S")]),
        lambda: unseen_beat_count(JOKER, []),
    ],
)
def test_impossible_inputs_are_refused(make):
    with pytest.raises(ValueError):
        make()


@SETTINGS
@given(
    st.integers(0, 60),
    st.integers(1, 30),
    st.lists(st.integers(0, 12), min_size=1, max_size=3),
    st.sampled_from(DIFFICULTIES),
)
def test_every_count_question_is_answerable(held, change, others, difficulty):
    assert_well_formed(cards_after_win(held, change, difficulty), LOCALES, lists_every_mistake=True)
    if change <= held:
        assert_well_formed(cards_after_loss(held, change, difficulty), LOCALES, lists_every_mistake=True)
    assert_well_formed(cards_on_table([change, *others], difficulty), LOCALES, lists_every_mistake=True)
    laid = [change, *(n for n in others if n)]
    if len(laid) > 1:
        assert_well_formed(winner_takes(laid, difficulty), LOCALES)
    players = 2 + len(others)
    assert_well_formed(war_cards(players, change, difficulty, on_table=held + players), LOCALES)
    if held != change:
        assert_well_formed(cards_ahead(held, change, OTHER, difficulty), LOCALES)
