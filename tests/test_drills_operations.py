"""TripleSmart, 29 and Războiul drills: right answers, named misconceptions, unreadable input, stored questions."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest
from babel.messages.extract import extract_from_file
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tutor import ROOT
from tutor.answers import MESSAGES, describe
from tutor.checks import exact, run_check
from tutor.content import drill_texts, load, translatable_plurals, translatable_strings
from tutor.deck import kids2
from tutor.drills import CHOICE, NO, YES, Question, Text
from tutor.drills.marking import RIGHT, UNREADABLE, USED_OTHER_NUMBERS, WRONG, mark
from tutor.drills.operations import (
    GENERATORS,
    pile_value,
    razboiul_war_cards,
    triplesmart_better,
    triplesmart_distance,
    triplesmart_expression,
    triplesmart_extreme_better,
    triplesmart_extreme_distance,
    triplesmart_extreme_expression,
    twentynine_missing_value,
    twentynine_pile_value,
    twentynine_which_card,
)
from tutor.expressions import ADD_SUB, FOUR_OPS, closest, reachable
from tutor.signs import FRACTION, plain_formula, write
from tutor.text import LOCALES, spell_in

DECK = kids2()
NUMBER_CARDS = list(DECK.number_card_ids)
#: What the extractor finds: our content file, and the N_() texts of the drill core (the yes/no buttons).
OUR_TEXTS = (
    set(translatable_strings(load("drills/operations")))
    | {one for one, _, _ in translatable_plurals(load("drills/operations"))}
    | {
        message
        for _, message, _, _ in extract_from_file(
            "python", ROOT / "tutor" / "drills" / "__init__.py", keywords={"N_": None}
        )
    }
)
OUR_KINDS = set(load("drills/operations"))


def cards(*tops: int) -> list[int]:
    """Kids2 number cards with these top numbers (a repeated top gets another copy)."""
    ids = []
    for top in tops:
        ids.append(next(c for c in NUMBER_CARDS if DECK[c].top == top and c not in ids))
    return ids


def target(top: int) -> int:
    return next(c for c in reversed(NUMBER_CARDS) if DECK[c].top == top)


def right_answer(question: Question, locale: str) -> str:
    """What a pupil who knows the answer types: the best expression from tutor.expressions, the exact number, or a right button."""
    if question.answer == CHOICE:
        return question.check["expected"][0]
    if question.check["rule"] == "closest_to_target":  # typed as the worked solution writes it, in the locale's signs
        return write(question.hints[0].params["best_expression"], locale)
    return describe(exact(question.check["expected"]), locale)


def is_right(question: Question, value: str) -> bool:
    return value in question.check["expected"] if question.answer == CHOICE else run_check(question.check, exact(value))


def assert_well_formed(question: Question, locale: str = "en") -> None:
    """Answerable, stored losslessly, every text in the content file and filled, no misconception value right."""
    assert mark(question, right_answer(question, locale), locale).status == RIGHT
    assert Question.from_dict(json.loads(json.dumps(question.to_dict()))) == question
    assert question.kind in OUR_KINDS and question.skill in GENERATORS
    entry = drill_texts()[question.kind]
    params = question.hints[0].params
    fields = {key for key in params if key != "num"}  # a text with a plural form adds the count it chooses by
    assert question.hints and all(
        {key: h.params[key] for key in fields} == {key: params[key] for key in fields} for h in question.hints
    )
    for text in [question.prompt, *question.hints, *question.solution, *(c["label"] for c in question.choices)]:
        assert text.msgid in OUR_TEXTS
        assert "%(" not in spell_in(text, locale) and "maths" not in spell_in(text, locale)
    for message in entry["misconceptions"].values():
        said = spell_in(Text.from_content(message, params), locale)
        assert "%(" not in said and "maths" not in said
    if "numbers" in question.check:
        assert USED_OTHER_NUMBERS in entry["misconceptions"]
    claimed = set()
    for named in question.misconceptions:
        assert named["id"] in entry["misconceptions"] and named["values"]
        for value in named["values"]:
            assert not is_right(question, value), (named, question.check)
            assert value not in claimed
            claimed.add(value)
            if question.answer == CHOICE:
                assert value in {c["value"] for c in question.choices}
                assert mark(question, value, locale).misconception == named["id"]
            elif question.allow == "number":
                marked = mark(question, describe(exact(value), locale), locale)
                assert marked.status == WRONG and marked.misconception == named["id"]


def misconception_of(question: Question, typed: str, locale: str = "en") -> str | None:
    """Mark a wrong answer; the misconception it names, whose feedback comes from the content file."""
    marked = mark(question, typed, locale)
    assert marked.status == WRONG, (typed, marked)
    if marked.misconception:
        assert marked.feedback[-1] == Text.from_content(
            drill_texts()[question.kind]["misconceptions"][marked.misconception], question.hints[0].params
        )
    return marked.misconception


def examples() -> list[tuple[object, Question]]:
    """(generator, question): at least one question of every kind, at every difficulty."""
    out = []
    hand, goal = cards(3, 5, 7), target(9)
    for d in (1, 2, 3):
        calls = [
            (triplesmart_expression, (hand, goal, d)),
            (triplesmart_distance, (hand, goal, 4, d)),
            (triplesmart_better, (hand, goal, 8, d)),
            (triplesmart_extreme_expression, (hand, target(2), d)),
            (triplesmart_extreme_distance, (hand, target(2), "7/2", d)),
            (triplesmart_extreme_better, (hand, target(2), 3, d)),
            (twentynine_pile_value, ([10, 8, 2], 7, d)),
            (twentynine_pile_value, ([10, 8, 2, 7], ("K", 0), d)),
            (twentynine_pile_value, ([(10, "K"), 8, 2, 7], ("Q", 1), d)),
            (twentynine_missing_value, ([(10, "K"), (8, "Q"), 2], d)),
            (twentynine_which_card, ([10, 8, 2], [7, "K", 9, "Q"], d)),
            (twentynine_which_card, ([(10, "K"), 8, 2, 7], [7, "K", "Q"], d)),
            (twentynine_which_card, ([(10, "K"), 8, 2], [5], d)),
            (twentynine_which_card, ([(10, "K"), 8, 2, 3, 7], ["Q", 3], d)),
            (razboiul_war_cards, (8, 2, d)),
            (razboiul_war_cards, ("K", 3, d)),
            (razboiul_war_cards, (9, 2, d, 4)),
        ]
        out += [(make, make(*args)) for make, args in calls]
    return out


EXAMPLES = examples()


@pytest.mark.parametrize("locale", LOCALES)
def test_right_answers_are_right_in_every_locale(locale):
    for _, question in EXAMPLES:
        assert_well_formed(question, locale)
    assert {q.kind for _, q in EXAMPLES} == OUR_KINDS


def test_the_catalogue_lists_every_generator_under_its_skill_and_each_skill_knows_three_misconceptions():
    skills = load("skills")
    assert set(GENERATORS) == {"add_sub", "four_ops", "missing_addend"} and set(GENERATORS) <= set(skills)
    assert {make for _, generators in GENERATORS.items() for make in generators} == {make for make, _ in EXAMPLES}
    for make, question in EXAMPLES:
        assert make in GENERATORS[question.skill], (make.__name__, question.skill)
    for skill in GENERATORS:
        named = {m for _, q in EXAMPLES if q.skill == skill for m in drill_texts()[q.kind]["misconceptions"]}
        assert len(named) >= 3, skill
    assert not OUR_KINDS & set(load("drills/card_sums"))  # drill_texts() also refuses a kind defined twice


def test_difficulty_one_gives_a_tip_and_three_leaves_out_the_last_hint():
    easy, plain, hard = (triplesmart_expression(cards(3, 5, 7), target(9), d) for d in (1, 2, 3))
    assert easy.prompt.msgid != plain.prompt.msgid == hard.prompt.msgid
    assert len(hard.hints) == len(plain.hints) - 1 == len(easy.hints) - 1
    assert hard.solution == plain.solution
    shown = twentynine_missing_value([(10, "K"), (8, "Q"), 2], 3).prompt
    assert shown.msgid == drill_texts()["twentynine_missing_value"]["kings_queens"]["prompt"]
    assert shown.params["kings"] == "10" and shown.params["queens"] == "8"
    assert (
        write(twentynine_missing_value([(10, "K"), (8, "Q"), 2], 2).prompt.params["pile"], "en")
        == "10 + 10 + 8 − 8 + 2"
    )


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


def test_four_ops_expression_misconceptions():
    question = triplesmart_extreme_expression(cards(3, 5, 7), target(2))
    assert question.allow == "four_ops"
    assert misconception_of(question, "3 + 7 ÷ 5") == "order_of_operations"  # meant (3 + 7) ÷ 5 = 2; read as 22/5
    assert misconception_of(question, "5 ÷ (7 + 3)") == "divided_wrong_way"  # (7 + 3) ÷ 5 = 2 turned round
    assert mark(question, "(3 + 7) / 5", "it").status == RIGHT
    six = triplesmart_extreme_expression(cards(3, 5, 7), target(6))  # + and - reach 5 or 7 at best; (7 - 5) × 3 = 6
    assert misconception_of(six, "3 + 7 - 5") == "only_add_sub"
    assert misconception_of(six, "7 - 5 × 3") == "order_of_operations"  # meant (7 - 5) × 3
    assert misconception_of(six, "(7 - 5) × 3 × 1") == USED_OTHER_NUMBERS
    assert misconception_of(six, "3 × 2") == USED_OTHER_NUMBERS
    assert mark(six, "(7 − 5) * 3", "sv").status == RIGHT


def test_division_by_zero_is_unreadable_with_a_clear_message():
    question = triplesmart_extreme_expression(cards(2, 2, 8), target(6))
    for typed in ("8 ÷ (2 - 2)", "8 / 0", "8 : (2 − 2)"):
        marked = mark(question, typed, "en")
        assert marked.status == UNREADABLE and marked.error_code == "division_by_zero"
        assert marked.feedback[0].msgid == MESSAGES["division_by_zero"] and marked.feedback[0].params["text"] == typed


def test_distance_misconceptions():
    question = triplesmart_distance(cards(3, 5, 7), target(9), 4)
    assert mark(question, "5", "en").status == RIGHT
    assert misconception_of(question, "-5") == "negative_distance"
    assert misconception_of(question, "13") == "added_instead"
    assert misconception_of(question, "4") == "gave_a_number"
    assert misconception_of(question, "6") == "counted_on_wrong"
    assert mark(question, "9 - 4", "en").status == UNREADABLE  # a distance is one number
    fraction = triplesmart_extreme_distance(cards(3, 5, 7), target(2), Fraction(7, 2))
    assert [
        mark(fraction, typed, locale).status
        for typed, locale in [("3/2", "en"), ("1,5", "nb"), ("1 1/2", "it"), ("1.5", "en")]
    ] == [RIGHT] * 4
    assert misconception_of(fraction, "-1,5", "sv") == "negative_distance"
    assert misconception_of(fraction, "11/2") == "added_instead"
    assert misconception_of(fraction, "5/2") == "counted_on_wrong"
    assert misconception_of(fraction, "7/2") == "gave_a_number"


def test_is_there_a_better_one():
    hand, goal = cards(3, 5, 7), target(9)
    closer = triplesmart_better(hand, goal, 8)
    assert closer.answer == CHOICE and closer.check["expected"] == [YES]
    assert misconception_of(closer, NO) == "missed_closer"
    assert closer.solution[1].params["best_expression"] == plain_formula(closest([3, 5, 7], 9, ADD_SUB)[2], FRACTION)
    nothing_closer = triplesmart_better(cards(2, 2), target(9), 4)  # 2 + 2 = 4 is the best: 5 away
    assert misconception_of(nothing_closer, YES) == "already_best"
    assert mark(nothing_closer, "maybe", "en").status == UNREADABLE
    extreme = triplesmart_extreme_better(hand, target(6), 5)
    assert extreme.check["expected"] == [YES] and misconception_of(extreme, NO) == "missed_closer"
    assert "×" in write(extreme.solution[1].params["best_expression"], "en")
    assert "·" in write(extreme.solution[1].params["best_expression"], "nb")


def test_a_perfect_hit_asks_neither_how_far_nor_whether_closer():
    hand, goal = cards(3, 5, 7), target(9)  # 5 + 7 - 3 = 9
    for value in (9, "9", Fraction(9)):
        assert triplesmart_distance(hand, goal, value) is None
        assert triplesmart_better(hand, goal, value) is None
        assert triplesmart_extreme_distance(hand, goal, value) is None
        assert triplesmart_extreme_better(hand, goal, value) is None
    one_off = triplesmart_distance(hand, goal, 8)
    assert one_off.check["expected"] == "1" and triplesmart_better(hand, goal, 8).check["expected"] == [YES]


# 29 --------------------------------------------------------------------------------------


def test_the_sources_examples_1a_to_1c():
    assert pile_value([10, 8, 2]) == 20  # 1a
    assert pile_value([10, 8, 2, 7]) == 27 and pile_value([(10, "K"), 8, 2, 7]) == 37  # 1b: a King on the 10
    assert pile_value([(10, "K"), (8, "Q"), 2, 7]) == 29  # 1c: a Queen on the 8
    assert mark(twentynine_pile_value([10, 8, 2], 7), "27", "en").status == RIGHT
    assert mark(twentynine_pile_value([10, 8, 2, 7], ("K", 0)), "37", "en").status == RIGHT
    assert mark(twentynine_pile_value([(10, "K"), 8, 2, 7], ("Q", 1)), "29", "en").status == RIGHT
    which = twentynine_which_card([(10, "K"), 8, 2, 7], [4, "K", "Q"])  # 37: only the Queen (on the 8) makes 29
    assert which.check["expected"] == ["2"]


def test_pile_value_misconceptions():
    laid = twentynine_pile_value([10, 8, 2], 7)
    assert misconception_of(laid, "20") == "forgot_new_card"
    assert misconception_of(laid, "13") == "took_card_away"
    assert misconception_of(laid, "28") == "counted_on_wrong"
    king = twentynine_pile_value([8, 2, 7], ("K", 0))
    assert mark(king, "25", "en").status == RIGHT
    assert misconception_of(king, "17") == "king_counted_once"
    assert misconception_of(king, "9") == "king_took_away"
    assert misconception_of(king, "27") == "king_as_ten"
    assert misconception_of(king, "33") == "king_counted_three_times"
    queen = twentynine_pile_value([(10, "K"), 8, 2, 7], ("Q", 1))
    assert misconception_of(queen, "45") == "queen_added"
    assert misconception_of(queen, "37") == "queen_ignored"
    assert misconception_of(queen, "27") == "queen_as_ten"


def test_missing_value_misconceptions():
    question = twentynine_missing_value([10, 8, 2])
    assert mark(question, "9", "en").status == RIGHT
    assert misconception_of(question, "20") == "gave_pile_total"
    assert misconception_of(question, "49") == "added_instead"
    assert misconception_of(question, "10") == "from_thirty"
    assert misconception_of(question, "0") == "from_twenty"
    assert misconception_of(question, "8") == "off_by_one"
    faces = twentynine_missing_value([(10, "K"), (8, "Q"), 2], 3)  # worth 22
    assert mark(faces, "7", "en").status == RIGHT
    assert misconception_of(faces, "17") == "face_cards_misread"  # the King's 10 counted once
    assert misconception_of(faces, "-1") == "face_cards_misread"  # the Queen ignored: 30
    with pytest.raises(ValueError):
        twentynine_missing_value([10, 10, 9])


def test_which_card_misconceptions():
    question = twentynine_which_card([10, 8, 2], [9, 10, 8, 6, "Q", "K"])  # needs 9
    assert question.check["expected"] == ["0"] and question.choices[-1]["value"] == "none"
    assert [c["label"].msgid for c in question.choices[4:]] == ["Queen", "King", "None of them"]
    assert misconception_of(question, "1") == "from_thirty"
    assert misconception_of(question, "2") == "off_by_one"
    assert misconception_of(question, "4") == "queen_adds"
    assert misconception_of(question, "5") == "king_needs_matching_card"
    assert misconception_of(question, "none") == "missed_a_card"
    assert mark(question, "6", "en").status == UNREADABLE
    bust = twentynine_which_card([10, 8], [3, 5])  # needs 11: no card does it
    assert bust.check["expected"] == ["none"]
    king = twentynine_which_card([9, 8, 2, 3], ["K", 10])  # needs 7: no 7 in hand, and no 7 in the pile for the King
    assert king.check["expected"] == ["none"] and misconception_of(king, "1") == "over_29"
    king_fits = twentynine_which_card([10, 7, 3, 2], ["K", 6])  # needs 7: a King on the 7
    assert king_fits.check["expected"] == ["0"] and misconception_of(king_fits, "1") == "off_by_one"
    over = twentynine_which_card([(10, "K"), 8, 2, 7], [4, "K", "Q"])
    assert misconception_of(over, "0") == "adds_when_over"
    wrong_queen = twentynine_which_card([(10, "K"), 9, 2, 7], ["Q"])  # 38: 9 too many, a Queen on the 9
    assert wrong_queen.check["expected"] == ["0"]
    no_nine = twentynine_which_card([(10, "K"), 8, 3, 7], ["Q", 5])  # 38: 9 too many, no 9 to cover
    assert misconception_of(no_nine, "0") == "queen_needs_matching_card"


# Războiul --------------------------------------------------------------------------------


def test_war_card_count_misconceptions():
    question = razboiul_war_cards(8, 2)
    assert mark(question, "16", "en").status == RIGHT
    assert misconception_of(question, "8") == "one_player_only"
    assert misconception_of(question, "14") == "face_up_card_forgotten"
    assert misconception_of(question, "18") == "tied_card_counted"
    assert misconception_of(question, "10") == "added_players"
    pictures = razboiul_war_cards("Q", 2)
    assert mark(pictures, "20", "en").status == RIGHT
    assert misconception_of(pictures, "24") == "picture_as_rank"
    assert misconception_of(pictures, "22") == "tied_card_counted"
    short = razboiul_war_cards("K", 3, shortest=4)
    assert mark(short, "12", "en").status == RIGHT
    assert misconception_of(short, "30") == "shortest_ignored"
    assert misconception_of(short, "9") == "face_up_card_forgotten"
    for bad in [dict(rank="A"), dict(rank=1), dict(rank=8, players=5), dict(rank=8, shortest=0)]:
        with pytest.raises(ValueError):
            razboiul_war_cards(**bad)


# Properties ------------------------------------------------------------------------------

hands = st.lists(
    st.sampled_from(NUMBER_CARDS), min_size=1, max_size=4, unique=True
)  # four when a Kocha card was among the three
difficulties = st.integers(1, 3)
locales = st.sampled_from(LOCALES)


@settings(max_examples=25, deadline=None)
@given(hands, st.sampled_from(NUMBER_CARDS), difficulties, locales, st.data())
def test_every_triplesmart_question_is_answerable_and_consistent(hand, goal, difficulty, locale, data):
    values, aim = [DECK[c].top for c in hand], DECK[goal].top
    for make, search in ((triplesmart_expression, ADD_SUB), (triplesmart_extreme_expression, FOUR_OPS)):
        question = make(hand, goal, difficulty)
        assert question.hints[0].params["best_expression"] == plain_formula(closest(values, aim, search)[2], FRACTION)
        assert_well_formed(question, locale)
        reached = {str(exact(str(v))) for v in reachable(values, search)}
        assert all(
            v in reached for named in question.misconceptions for v in named["values"]
        )  # typed with the cards alone
        value = data.draw(st.sampled_from(sorted(reachable(values, search))))
        distance = triplesmart_distance if search == ADD_SUB else triplesmart_extreme_distance
        better = triplesmart_better if search == ADD_SUB else triplesmart_extreme_better
        if value == aim:  # a perfect hit asks neither
            assert distance(hand, goal, value, difficulty) is None and better(hand, goal, value, difficulty) is None
            continue
        assert_well_formed(distance(hand, goal, value, difficulty), locale)
        assert_well_formed(better(hand, goal, value, difficulty), locale)


piles = st.lists(
    st.tuples(st.integers(2, 10), st.sampled_from(["", "", "", "K", "Q", "J", "KQ", "KK", "QQ"])), max_size=5
)


@settings(max_examples=40, deadline=None)
@given(piles, st.one_of(st.integers(2, 10), st.tuples(st.sampled_from("KQ"), st.integers(0, 4))), difficulties, locales)
def test_every_pile_value_question_is_consistent(pile, play, difficulty, locale):
    assume(isinstance(play, int) or play[1] < len(pile))
    assert_well_formed(twentynine_pile_value(pile, play, difficulty), locale)


@settings(max_examples=40, deadline=None)
@given(
    piles, st.lists(st.one_of(st.integers(2, 10), st.sampled_from("KQ")), min_size=1, max_size=5), difficulties, locales
)
def test_every_missing_addend_question_is_consistent(pile, hand, difficulty, locale):
    total = pile_value(pile)
    assume(total != 29)
    if total < 29:
        assert_well_formed(twentynine_missing_value(pile, difficulty), locale)
    question = twentynine_which_card(pile, hand, difficulty)
    assert_well_formed(question, locale)
    fits = {str(i) for i, card in enumerate(hand) if isinstance(card, int) and total + card == 29}
    assert fits <= set(question.check["expected"])


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([*range(2, 11), "J", "Q", "K"]),
    st.integers(2, 4),
    difficulties,
    st.none() | st.integers(1, 12),
    locales,
)
def test_every_war_question_is_consistent(rank, players, difficulty, shortest, locale):
    question = razboiul_war_cards(rank, players, difficulty, shortest)
    worth = 10 if isinstance(rank, str) else rank
    assert question.check["expected"] == str(min(worth, shortest or worth) * players)
    assert_well_formed(question, locale)


def test_the_module_is_pure_python_without_flask():
    code = "import sys, tutor.drills.operations; assert 'flask' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
