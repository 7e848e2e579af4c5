"""Skill missing_addend: what brings a 29 pile to exactly 29, typed or as one of your cards."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.drill_support import (
    assert_content_complete,
    assert_well_formed,
    kinds_of,
    misconception_of,
    std,
    twentynine,
)
from tutor.content import drill_texts
from tutor.drills.add_sub import pile_value
from tutor.drills.marking import RIGHT, UNREADABLE, mark
from tutor.drills.missing_addend import GENERATORS, twentynine_missing_value, twentynine_which_card
from tutor.signs import write
from tutor.text import LOCALES


def examples() -> list[tuple[object, object]]:
    """(generator, question): every kind at every difficulty, under and over 29, with and without a card that fits."""
    calls = [
        (make, args)
        for d in (1, 2, 3)
        for make, args in (
            (twentynine_missing_value, (*twentynine([(10, "K"), (8, "Q"), 2]), d)),
            (twentynine_which_card, (*twentynine([10, 8, 2], hand=[7, "K", 9, "Q"]), d)),
            (twentynine_which_card, (*twentynine([(10, "K"), 8, 2, 7], hand=[7, "K", "Q"]), d)),
            (twentynine_which_card, (*twentynine([(10, "K"), 8, 2], hand=[5]), d)),
            (twentynine_which_card, (*twentynine([(10, "K"), 8, 2, 3, 7], hand=["Q", 3]), d)),
        )
    ]
    return [(make, make(*args)) for make, args in calls]


EXAMPLES = examples()


@pytest.mark.parametrize("locale", LOCALES)
def test_right_answers_are_right_in_every_locale(locale):
    for _, question in EXAMPLES:
        assert_well_formed(question, (locale,))
    assert {q.kind for _, q in EXAMPLES} == set(kinds_of("missing_addend"))


def test_every_generator_is_listed_and_the_skill_knows_three_misconceptions():
    assert set(GENERATORS) == {make for make, _ in EXAMPLES}
    assert all(question.skill == "missing_addend" for _, question in EXAMPLES)
    assert_content_complete("missing_addend")


def missing(pile, difficulty: int = 2):
    return twentynine_missing_value(*twentynine(pile), difficulty)


def which(pile, hand, difficulty: int = 2):
    """The which-card question, and each hand card's choice value (its id as text), in the hand's order."""
    pile_ids, hand_ids = twentynine(pile, hand=hand)
    return twentynine_which_card(pile_ids, hand_ids, difficulty), [str(c) for c in hand_ids]


def test_difficulty_three_shows_the_kings_and_queens_and_two_works_the_pile_out():
    shown = missing([(10, "K"), (8, "Q"), 2], 3).prompt
    assert shown.msgid == drill_texts()["twentynine_missing_value"]["cases"]["kings_queens"]["prompt"]
    assert shown.params["kings"] == "10" and shown.params["queens"] == "8"
    assert write(missing([(10, "K"), (8, "Q"), 2], 2).prompt.params["pile"], "en") == "10 + 10 + 8 − 8 + 2"


def test_only_the_queen_makes_the_sources_example_29():
    question, values = which([(10, "K"), 8, 2, 7], [4, "K", "Q"])  # 37: only the Queen (on the 8) makes 29
    assert question.check["expected"] == [values[2]]


def test_the_buttons_are_the_cards_of_the_hand():
    question, values = which([10, 8, 2], [9, "Q"])
    assert [c.get("card") for c in question.choices] == [int(values[0]), int(values[1]), None]
    for bad_hand in ([std("AS")], [std("JD")], [52], ["K"]):
        with pytest.raises(ValueError):
            twentynine_which_card(twentynine([10, 8, 2])[0], bad_hand)


def test_missing_value_misconceptions():
    question = missing([10, 8, 2])
    assert mark(question, "9", "en").status == RIGHT
    assert misconception_of(question, "20") == "gave_pile_total"
    assert misconception_of(question, "49") == "added_instead"
    assert misconception_of(question, "10") == "from_thirty"
    assert misconception_of(question, "0") == "from_twenty"
    assert misconception_of(question, "8") == "off_by_one"
    faces = missing([(10, "K"), (8, "Q"), 2], 3)  # worth 22
    assert mark(faces, "7", "en").status == RIGHT
    assert misconception_of(faces, "17") == "face_cards_misread"  # the King's 10 counted once
    assert misconception_of(faces, "-1") == "face_cards_misread"  # the Queen ignored: 30
    with pytest.raises(ValueError):
        missing([10, 10, 9])


def test_which_card_misconceptions():
    question, values = which([10, 8, 2], [9, 10, 8, 6, "Q", "K"])  # needs 9
    assert question.check["expected"] == [values[0]] and question.choices[-1]["value"] == "none"
    assert [c["label"].msgid for c in question.choices[4:]] == ["Queen", "King", "None of them"]
    assert misconception_of(question, values[1]) == "from_thirty"
    assert misconception_of(question, values[2]) == "off_by_one"
    assert misconception_of(question, values[4]) == "queen_adds"
    assert misconception_of(question, values[5]) == "king_needs_matching_card"
    assert misconception_of(question, "none") == "missed_a_card"
    assert mark(question, "6", "en").status == UNREADABLE
    bust, _ = which([10, 8], [3, 5])  # needs 11: no card does it
    assert bust.check["expected"] == ["none"]
    king, values = which([9, 8, 2, 3], ["K", 10])  # needs 7: no 7 in hand, and no 7 in the pile for the King
    assert king.check["expected"] == ["none"] and misconception_of(king, values[1]) == "over_29"
    king_fits, values = which([10, 7, 3, 2], ["K", 6])  # needs 7: a King on the 7
    assert king_fits.check["expected"] == [values[0]] and misconception_of(king_fits, values[1]) == "off_by_one"
    over, values = which([(10, "K"), 8, 2, 7], [4, "K", "Q"])
    assert misconception_of(over, values[0]) == "adds_when_over"
    wrong_queen, values = which([(10, "K"), 9, 2, 7], ["Q"])  # 38: 9 too many, a Queen on the 9
    assert wrong_queen.check["expected"] == [values[0]]
    no_nine, values = which([(10, "K"), 8, 3, 7], ["Q", 5])  # 38: 9 too many, no 9 to cover
    assert misconception_of(no_nine, values[0]) == "queen_needs_matching_card"


piles = st.lists(
    st.tuples(st.integers(2, 10), st.sampled_from(["", "", "", "K", "Q", "J", "KQ", "KK", "QQ"])), max_size=5
)


@settings(max_examples=40, deadline=None)
@given(
    piles,
    st.lists(st.one_of(st.integers(2, 10), st.sampled_from("KQ")), min_size=1, max_size=5),
    st.integers(1, 3),
    st.sampled_from(LOCALES),
)
def test_every_missing_addend_question_is_consistent(pile, hand, difficulty, locale):
    pile_ids, hand_ids = twentynine(pile, hand=hand)
    total = pile_value(pile_ids)
    assume(total != 29)
    if total < 29:
        assert_well_formed(twentynine_missing_value(pile_ids, difficulty), (locale,))
    question = twentynine_which_card(pile_ids, hand_ids, difficulty)
    assert_well_formed(question, (locale,))
    fits = {str(c) for c, value in zip(hand_ids, hand) if isinstance(value, int) and total + value == 29}
    assert fits <= set(question.check["expected"])
