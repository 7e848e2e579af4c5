"""Skill add_sub: TripleSmart with + and -, what a 29 pile is worth, and how many cards go into a Războiul war."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.drill_support import (
    DECK,
    JOKER,
    NUMBER_CARDS,
    assert_content_complete,
    assert_well_formed,
    kinds_of,
    misconception_of,
    std,
    twentynine,
)
from tutor.checks import exact
from tutor.drills import CHOICE, NO, YES
from tutor.drills.add_sub import (
    GENERATORS,
    pile_value,
    razboiul_war_cards,
    triplesmart_better,
    triplesmart_distance,
    triplesmart_expression,
    twentynine_pile_value,
)
from tutor.drills.marking import RIGHT, UNREADABLE, USED_OTHER_NUMBERS, WRONG, mark
from tutor.expressions import ADD_SUB, closest, reachable
from tutor.signs import FRACTION, plain_formula
from tutor.standard_deck import card_id
from tutor.text import LOCALES, Text, say


def cards(*tops: int) -> list[int]:
    """Kids2 number cards with these top numbers (a repeated top gets another copy)."""
    ids = []
    for top in tops:
        ids.append(next(c for c in NUMBER_CARDS if DECK[c].top == top and c not in ids))
    return ids


def target(top: int) -> int:
    return next(c for c in reversed(NUMBER_CARDS) if DECK[c].top == top)


def examples() -> list[tuple[object, object]]:
    """(generator, question): at least one question of every kind, at every difficulty."""
    out = []
    hand, goal = cards(3, 5, 7), target(9)
    for d in (1, 2, 3):
        calls = [
            (triplesmart_expression, (hand, goal, d)),
            (triplesmart_distance, (hand, goal, 4, d)),
            (triplesmart_better, (hand, goal, 8, d)),
            (twentynine_pile_value, (*twentynine([10, 8, 2], 7), d)),
            (twentynine_pile_value, (*twentynine([10, 8, 2, 7], ("K", 0)), d)),
            (twentynine_pile_value, (*twentynine([(10, "K"), 8, 2, 7], ("Q", 1)), d)),
            (razboiul_war_cards, (std("8H"), 2, d)),
            (razboiul_war_cards, (std("KD"), 3, d)),
            (razboiul_war_cards, (std("9C"), 2, d, 4)),
        ]
        out += [(make, make(*args)) for make, args in calls]
    return out


EXAMPLES = examples()


@pytest.mark.parametrize("locale", LOCALES)
def test_right_answers_are_right_in_every_locale(locale):
    for _, question in EXAMPLES:
        assert_well_formed(question, (locale,))
    assert {q.kind for _, q in EXAMPLES} == set(kinds_of("add_sub"))


def test_every_generator_is_listed_and_the_skill_knows_three_misconceptions():
    assert set(GENERATORS) == {make for make, _ in EXAMPLES}
    assert all(question.skill == "add_sub" for _, question in EXAMPLES)
    assert len({m for kind in kinds_of("add_sub").values() for m in kind["misconceptions"]}) >= 3
    assert_content_complete("add_sub", fewest={"triplesmart_better": 2})


def test_difficulty_one_gives_a_tip_and_three_leaves_out_the_last_hint():
    easy, plain, hard = (triplesmart_expression(cards(3, 5, 7), target(9), d) for d in (1, 2, 3))
    assert easy.prompt.msgid != plain.prompt.msgid == hard.prompt.msgid
    assert len(hard.hints) == len(plain.hints) - 1 == len(easy.hints) - 1
    assert hard.solution == plain.solution


# TripleSmart -----------------------------------------------------------------------------


def test_plus_minus_expression_misconceptions():
    question = triplesmart_expression(cards(3, 5, 7), target(9))
    assert question.allow == "add_sub" and question.check["best_distance"] == "0"
    assert mark(question, "5 + 7 - 3", "nb").status == RIGHT
    assert misconception_of(question, "3 + 5 + 7") == "added_all_cards"
    assert misconception_of(question, "3 - 7") == "below_zero"
    assert misconception_of(question, "7") == "one_card_only"
    assert misconception_of(question, "5 + 4") == USED_OTHER_NUMBERS  # 4 is not on the cards
    assert misconception_of(question, "7 + 7 - 5") == USED_OTHER_NUMBERS  # the 7 used twice


def test_numbers_not_on_the_cards_are_flagged_even_when_the_value_is_right():
    question = triplesmart_expression(cards(3, 5, 7), target(9))
    for typed in ("9", "4 + 5", "3 + 3 + 3", "1/2 + 8 1/2"):
        marked = mark(question, typed, "en")
        assert marked.status == WRONG and marked.misconception == USED_OTHER_NUMBERS, typed
    assert mark(triplesmart_expression(cards(3, 3, 7), target(6)), "3 + 3", "en").status == RIGHT  # two 3s: each once


@pytest.mark.parametrize("typed", ["x", "3 x 5", "7 × 3", "7 * 3", "15 ÷ 3", "", "seven", "3 +", "(3 + 5", "5^2"])
def test_unreadable_expressions_are_not_wrong(typed):
    marked = mark(triplesmart_expression(cards(3, 5, 7), target(9)), typed, "en")
    assert marked.status == UNREADABLE and marked.error_code and marked.misconception is None


def test_distance_misconceptions():
    question = triplesmart_distance(cards(3, 5, 7), target(9), 4)
    assert mark(question, "5", "en").status == RIGHT
    assert misconception_of(question, "-5") == "negative_distance"
    assert misconception_of(question, "13") == "added_instead"
    assert misconception_of(question, "4") == "gave_a_number"
    assert misconception_of(question, "6") == "counted_on_wrong"
    assert mark(question, "9 - 4", "en").status == UNREADABLE  # a distance is one number


def test_how_far_another_players_calculation_is_names_that_player():
    maker = Text("Computer %(n)s", {"n": 2}).to_dict()
    question = triplesmart_distance(cards(3, 5, 7), target(9), 12, 2, maker)
    assert question.check["expected"] == "3" and misconception_of(question, "21") == "added_instead"
    assert say(question.prompt, "en") == "Computer 2 made 12 and the target is 9. How far is 12 from 9?"
    assert_well_formed(question, LOCALES)


def test_is_there_a_better_one():
    hand, goal = cards(3, 5, 7), target(9)
    closer = triplesmart_better(hand, goal, 8)
    assert closer.answer == CHOICE and closer.check["expected"] == [YES]
    assert misconception_of(closer, NO) == "missed_closer"
    assert closer.solution[1].params["best_expression"] == plain_formula(closest([3, 5, 7], 9, ADD_SUB)[2], FRACTION)
    nothing_closer = triplesmart_better(cards(2, 2), target(9), 4)  # 2 + 2 = 4 is the best: 5 away
    assert misconception_of(nothing_closer, YES) == "already_best"
    assert mark(nothing_closer, "maybe", "en").status == UNREADABLE


def test_a_perfect_hit_asks_neither_how_far_nor_whether_closer():
    hand, goal = cards(3, 5, 7), target(9)  # 5 + 7 - 3 = 9
    for value in (9, "9", Fraction(9)):
        assert triplesmart_distance(hand, goal, value) is None
        assert triplesmart_better(hand, goal, value) is None
    one_off = triplesmart_distance(hand, goal, 8)
    assert one_off.check["expected"] == "1" and triplesmart_better(hand, goal, 8).check["expected"] == [YES]


# 29 --------------------------------------------------------------------------------------


def test_the_sources_examples_1a_to_1c():
    assert pile_value(*twentynine([10, 8, 2])) == 20  # 1a
    assert pile_value(*twentynine([10, 8, 2, 7])) == 27
    assert pile_value(*twentynine([(10, "K"), 8, 2, 7])) == 37  # 1b: a King on the 10
    assert pile_value(*twentynine([(10, "K"), (8, "Q"), 2, 7])) == 29  # 1c: a Queen on the 8
    assert mark(twentynine_pile_value(*twentynine([10, 8, 2], 7)), "27", "en").status == RIGHT
    assert mark(twentynine_pile_value(*twentynine([10, 8, 2, 7], ("K", 0))), "37", "en").status == RIGHT
    assert mark(twentynine_pile_value(*twentynine([(10, "K"), 8, 2, 7], ("Q", 1))), "29", "en").status == RIGHT


def test_a_pile_is_standard_card_ids_and_a_play_names_the_card_it_goes_on():
    ten, eight, king = std("10H"), std("8S"), std("KD")
    assert pile_value([ten, (eight, [king])]) == 26
    assert twentynine_pile_value([ten, eight], (king, eight)).check["expected"] == "26"
    for bad_pile in ([10, 8], [std("AS")], [(ten, [std("5C")])], [JOKER]):
        with pytest.raises(ValueError):
            pile_value(bad_pile)
    for bad_play in ((king, std("9C")), (std("JD"), ten), ("K", 0), std("QC")):
        with pytest.raises(ValueError):
            twentynine_pile_value([ten, eight], bad_play)


def test_pile_value_misconceptions():
    laid = twentynine_pile_value(*twentynine([10, 8, 2], 7))
    assert misconception_of(laid, "20") == "forgot_new_card"
    assert misconception_of(laid, "13") == "took_card_away"
    assert misconception_of(laid, "28") == "counted_on_wrong"
    king = twentynine_pile_value(*twentynine([8, 2, 7], ("K", 0)))
    assert mark(king, "25", "en").status == RIGHT
    assert misconception_of(king, "17") == "king_counted_once"
    assert misconception_of(king, "9") == "king_took_away"
    assert misconception_of(king, "27") == "king_as_ten"
    assert misconception_of(king, "33") == "king_counted_three_times"
    queen = twentynine_pile_value(*twentynine([(10, "K"), 8, 2, 7], ("Q", 1)))
    assert misconception_of(queen, "45") == "queen_added"
    assert misconception_of(queen, "37") == "queen_ignored"
    assert misconception_of(queen, "27") == "queen_as_ten"


# Războiul --------------------------------------------------------------------------------


def test_war_card_count_misconceptions():
    question = razboiul_war_cards(std("8S"), 2)
    assert mark(question, "16", "en").status == RIGHT
    assert misconception_of(question, "8") == "one_player_only"
    assert misconception_of(question, "14") == "face_up_card_forgotten"
    assert misconception_of(question, "18") == "tied_card_counted"
    assert misconception_of(question, "10") == "added_players"
    pictures = razboiul_war_cards(std("QH"), 2)
    assert mark(pictures, "20", "en").status == RIGHT and pictures.prompt.params["rank"] == "Q"
    assert misconception_of(pictures, "24") == "picture_as_rank"
    assert misconception_of(pictures, "22") == "tied_card_counted"
    short = razboiul_war_cards(std("KC"), 3, shortest=4)
    assert mark(short, "12", "en").status == RIGHT
    assert misconception_of(short, "30") == "shortest_ignored"
    assert misconception_of(short, "9") == "face_up_card_forgotten"
    for bad in [
        dict(card_id=std("AS")),
        dict(card_id=JOKER),
        dict(card_id=8 * 54),
        dict(card_id="8S"),  # cards are ids of tutor.standard_deck, not their letters
        dict(card_id=std("8S"), players=5),
        dict(card_id=std("8S"), shortest=0),
    ]:
        with pytest.raises(ValueError):
            razboiul_war_cards(**bad)


# Properties ------------------------------------------------------------------------------

difficulties = st.integers(1, 3)
locales = st.sampled_from(LOCALES)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.sampled_from(NUMBER_CARDS), min_size=1, max_size=4, unique=True
    ),  # four when a Kocha card was among three
    st.sampled_from(NUMBER_CARDS),
    difficulties,
    locales,
    st.data(),
)
def test_every_triplesmart_question_is_answerable_and_consistent(hand, goal, difficulty, locale, data):
    values, aim = [DECK[c].top for c in hand], DECK[goal].top
    question = triplesmart_expression(hand, goal, difficulty)
    assert question.hints[0].params["best_expression"] == plain_formula(closest(values, aim, ADD_SUB)[2], FRACTION)
    assert_well_formed(question, (locale,))
    reached = {str(exact(str(v))) for v in reachable(values, ADD_SUB)}
    assert all(v in reached for named in question.misconceptions for v in named["values"])  # typed with the cards alone
    value = data.draw(st.sampled_from(sorted(reachable(values, ADD_SUB))))
    if value == aim:  # a perfect hit asks neither
        assert triplesmart_distance(hand, goal, value, difficulty) is None
        assert triplesmart_better(hand, goal, value, difficulty) is None
        return
    assert_well_formed(triplesmart_distance(hand, goal, value, difficulty), (locale,))
    assert_well_formed(triplesmart_better(hand, goal, value, difficulty), (locale,))


piles = st.lists(
    st.tuples(st.integers(2, 10), st.sampled_from(["", "", "", "K", "Q", "J", "KQ", "KK", "QQ"])), max_size=5
)


@settings(max_examples=40, deadline=None)
@given(piles, st.one_of(st.integers(2, 10), st.tuples(st.sampled_from("KQ"), st.integers(0, 4))), difficulties, locales)
def test_every_pile_value_question_is_consistent(pile, play, difficulty, locale):
    assume(isinstance(play, int) or play[1] < len(pile))
    assert_well_formed(twentynine_pile_value(*twentynine(pile, play), difficulty), (locale,))


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([card_id(rank, suit) for rank in range(2, 14) for suit in "CDHS"]),
    st.integers(2, 4),
    difficulties,
    st.none() | st.integers(1, 12),
    locales,
)
def test_every_war_question_is_consistent(tied, players, difficulty, shortest, locale):
    question = razboiul_war_cards(tied, players, difficulty, shortest)
    rank = tied % 13 + 2
    worth = 10 if rank > 10 else rank
    assert question.check["expected"] == str(min(worth, shortest or worth) * players)
    assert_well_formed(question, (locale,))
