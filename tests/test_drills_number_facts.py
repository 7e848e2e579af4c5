"""Number-fact drills: times tables, factor pairs, tens-friends, counting, comparing, odd/even and low/high."""

from __future__ import annotations

import json
import re
from itertools import combinations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tutor import content
from tutor.checks import exact, run_check
from tutor.deck import kids2
from tutor.drills import CHOICE, NUMBER, Question, Text
from tutor.drills import number_facts as nf
from tutor.drills.marking import RIGHT, UNREADABLE, WRONG, mark
from tutor.text import LOCALES, spell_in

DECK = kids2()
NUMBER_CARDS = list(DECK.number_card_ids)
ALL_CARDS = list(range(len(DECK)))
SPECIAL_CARDS = [c for c in ALL_CARDS if DECK[c].is_special]
TOML = content.load("drills/number_facts")
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
STANDARD_CARDS = [rank + suit for rank in nf.RANKS for suit in nf.SUITS]
SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)


def cards_with_top(top: int, colour: str | None = None) -> list[int]:
    return [c for c in NUMBER_CARDS if DECK[c].top == top and (colour is None or DECK[c].colour == colour)]


def card(top: int, colour: str | None = None, skip: int = 0) -> int:
    return cards_with_top(top, colour)[skip]


def render(text, locale: str) -> str:
    """A text as a pupil reads it: translated, its fields filled, fields that are texts translated too."""
    shown = spell_in(text, locale)
    assert "%(" not in shown, shown
    return shown


def right_answers(question: Question) -> list[str]:
    return list(question.check["expected"]) if question.answer == CHOICE else [question.check["expected"]]


def is_right(question: Question, value: str) -> bool:
    return run_check(question.check, value if question.answer == CHOICE else exact(value))


def answerable(question: Question, value: str) -> bool:
    return question.answer == NUMBER or value in {c["value"] for c in question.choices}


def assert_well_formed(question: Question, locales=LOCALES) -> None:
    """Every text filled in every locale, a right answer offered and marked right, every
    misconception value wrong and named, and the question survives storage as JSON."""
    entry = TOML[question.kind]
    assert question.skill == entry["skill"] and question.skill in nf.GENERATORS
    assert len(question.hints) == 3 and len(question.solution) >= 2
    assert question.difficulty in nf.DIFFICULTIES
    assert Question.from_dict(json.loads(json.dumps(question.to_dict()))) == question
    values = [c["value"] for c in question.choices]
    assert len(values) == len(set(values))
    if question.answer == CHOICE:
        assert set(right_answers(question)) <= set(values)
        assert all("card" not in c or DECK[c["card"]].kind == "number" for c in question.choices)
    for locale in locales:
        for text in [question.prompt, *question.hints, *question.solution]:
            render(text, locale)
        labels = [render(c["label"], locale) for c in question.choices]
        assert len(labels) == len(set(labels)), labels
        for value in right_answers(question):
            assert mark(question, value, locale).status == RIGHT, (question.kind, value, locale)
    for item in question.misconceptions:
        assert item["id"] in entry["misconceptions"], (question.kind, item["id"])
        render(Text.from_content(entry["misconceptions"][item["id"]], question.hints[0].params), "en")
        for value in item["values"]:
            assert not is_right(question, value), (question.kind, item["id"], value)
            if answerable(question, value):
                marked = mark(question, value, "en")
                assert marked.status == WRONG and marked.misconception is not None


def misconception_of(question: Question, typed: str, locale: str = "en") -> str | None:
    marked = mark(question, typed, locale)
    assert marked.status == WRONG, (typed, marked.status)
    if marked.misconception:
        assert marked.feedback[-1] == Text.from_content(
            TOML[question.kind]["misconceptions"][marked.misconception], question.hints[0].params
        )
    return marked.misconception


# ---------------------------------------------------------------- a catalogue of questions


def catalogue() -> list[Question]:
    """Questions from every generator at every difficulty, over a broad spread of inputs."""
    one_per_top = {top: card(top) for top in range(1, 10)}
    hands = [NUMBER_CARDS[i : i + 6] for i in range(0, len(NUMBER_CARDS) - 6, 5)] + [
        [*NUMBER_CARDS[:3], *SPECIAL_CARDS[:3]]
    ]
    questions = []
    for d in nf.DIFFICULTIES:
        for a, b in combinations(range(1, 10), 2):
            questions.append(nf.multiply_top_numbers(one_per_top[a], one_per_top[b], d))
        for top in range(1, 10):
            questions.append(nf.multiply_top_numbers(one_per_top[top], card(top, skip=1), d))
            questions.append(nf.tens_friend_number(one_per_top[top], d))
        for i, hand in enumerate(hands):
            discard = NUMBER_CARDS[(7 * i) % len(NUMBER_CARDS)]
            questions.append(nf.factor_pair_cards(hand, discard, d))
            questions.append(nf.factor_pair_for_value(hand, DECK[discard].circled[i % 4], d, discard))
            questions.append(nf.tens_friend_card(hand, discard, d))
        questions.append(nf.factor_pair_for_value(TWELVE_HAND, 12, d))
        for discard, hand in adding_hands()[:4]:
            questions.append(nf.factor_pair_cards(hand, discard, d))
        for c in NUMBER_CARDS[::3]:
            for discard in NUMBER_CARDS[1::9]:
                if nf.reachable_values(c, discard):
                    questions.append(nf.missing_factor(c, discard, d))
        for held, change in [(0, 2), (12, 2), (5, 10), (26, 1), (9, 4)]:
            questions.append(nf.cards_after_win(held, change, d))
        for held, change in [(2, 2), (12, 2), (10, 3), (26, 1), (13, 10)]:
            questions.append(nf.cards_after_loss(held, change, d))
        for laid in [[1, 1], [4, 4], [4, 5], [1, 1, 1, 1], [10, 10], [5, 3, 2]]:
            questions.append(nf.cards_on_table(laid, d))
        for numbers in [[9, 12], [19, 21], [3, 8, 15], [7, 7], [12, 12, 5], [0, 100], [45, 54, 9]]:
            questions.append(nf.compare_numbers(numbers, d))
        for ranks in [
            ["A", "K"],
            ["J", "10"],
            ["9", "J"],
            ["3", "5", "8"],
            ["Q", "Q", "2"],
            ["A", "A"],
            ["joker", "A", "2"],
            ["KH", "10S"],
        ]:
            questions.append(nf.compare_ranks(ranks, d))
            questions.append(nf.compare_ranks(ranks, d, ace_high=False))
        for c in STANDARD_CARDS[::3]:
            questions.append(nf.rank_parity(c, d))
            questions.append(nf.rank_size(c, d))
        for a, b in combinations(STANDARD_CARDS[::5], 2):
            questions.append(nf.shared_traits(a, b, d))
    return questions


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
    return catalogue()


def test_every_catalogue_question_is_well_formed(questions):
    for question in questions:
        assert_well_formed(question, locales=("en",))


@pytest.mark.parametrize("locale", LOCALES)
def test_right_answers_are_right_in_every_locale(questions, locale):
    for question in questions[::7]:
        for value in right_answers(question):
            marked = mark(question, value, locale)
            assert marked.status == RIGHT and marked.misconception is None, (question.kind, value, locale)


def test_every_kind_every_misconception_and_every_skill_is_used(questions):
    kinds = {q.kind for q in questions}
    assert kinds == set(TOML)
    assert {q.skill for q in questions} == set(nf.GENERATORS)
    for kind, entry in TOML.items():
        seen = {m["id"] for q in questions if q.kind == kind for m in q.misconceptions if m["values"]}
        assert seen == set(entry["misconceptions"]), (kind, set(entry["misconceptions"]) - seen)
    for skill in nf.GENERATORS:
        ids = {m["id"] for q in questions if q.skill == skill for m in q.misconceptions if m["values"]}
        assert len(ids) >= 3, skill


# ---------------------------------------------------------------- content


def forms(text) -> list[str]:
    """A content text's source strings: itself, or both forms of a plural table."""
    plural = content.plural_forms(text)
    return list(plural[:2]) if plural else [text]


def test_content_is_complete_and_extractable():
    skills = content.load("skills")
    extractable = set(content.translatable_strings(TOML)) | {
        form for forms_ in content.translatable_plurals(TOML) for form in forms_[:2]
    }
    for kind, entry in TOML.items():
        assert entry["skill"] in skills and entry["skill"] in nf.GENERATORS
        texts = [
            form
            for text in [entry["prompt"], *entry["hints"], *entry["solution"], *entry["misconceptions"].values()]
            for form in forms(text)
        ]
        assert set(texts) <= extractable
        assert len(entry["hints"]) == 3 and len(entry["misconceptions"]) >= 3
        assert set(entry.get("labels", {}).values()) <= extractable
        assert {p["text"] for p in entry.get("phrases", {}).values()} <= extractable
        for text in texts:
            assert "%" not in PLACEHOLDER.sub("", text), text  # a stray % would break filling
    drills = content.drill_texts()  # kinds are unique across all drill files, or this raises
    assert set(TOML) <= set(drills)


def test_misconception_messages_only_use_fields_every_hint_has(questions):
    for question in questions:
        params = set(question.hints[0].params)
        for text in TOML[question.kind]["misconceptions"].values():
            assert set(PLACEHOLDER.findall(" ".join(forms(text)))) <= params, (question.kind, text)


def test_generators_are_listed_by_skill():
    assert set(nf.GENERATORS) == {"multiply", "factor_pairs", "tens_friends", "count", "compare", "parity_size"}
    q = nf.multiply_top_numbers(card(3), card(4))
    assert q.skill == "multiply" and nf.multiply_top_numbers in nf.GENERATORS["multiply"]


# ---------------------------------------------------------------- multiply


def test_multiply_is_typed_when_hard_and_names_each_mistake():
    question = nf.multiply_top_numbers(card(7), card(8), 3)
    assert question.answer == NUMBER and question.check == {"rule": "equals", "expected": "56"}
    for locale in LOCALES:
        assert mark(question, "56", locale).status == RIGHT
    assert misconception_of(question, "15") == "added"
    for neighbour in ("49", "63", "48", "64"):
        assert misconception_of(question, neighbour, "nb") == "neighbour_fact"
    assert misconception_of(question, "65") == "digits_swapped"
    assert misconception_of(question, "57") == misconception_of(question, "55") == "off_by_one"
    assert misconception_of(question, "560") == "times_ten"
    assert misconception_of(question, "58") is None
    assert question.hides_result and question.cards == [card(7), card(8)]


def test_easier_multiply_offers_fewer_buttons_that_each_show_a_mistake():
    easy, middle = nf.multiply_top_numbers(card(7), card(8), 1), nf.multiply_top_numbers(card(7), card(8), 2)
    assert [len(q.choices) for q in (easy, middle)] == [3, 5]
    assert [c["value"] for c in easy.choices] == ["15", "49", "56"]
    assert misconception_of(easy, "15", "it") == "added"
    assert misconception_of(middle, "49", "sv") == "neighbour_fact"
    assert mark(easy, "48", "en").status == UNREADABLE  # not one of the buttons


# ---------------------------------------------------------------- factor pairs


def test_factor_pairs_name_the_sum_the_table_step_and_another_circled_value():
    question = nf.factor_pair_for_value(TWELVE_HAND, 12, 3)
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
    target, other = [v for v in DECK[top].circled if v in nf_products()][:2]
    (x, y), (u, w) = factorisation(target), factorisation(other)
    hand = [card(x), card(y, skip=1), card(u, skip=2), card(w, skip=3)]
    question = nf.factor_pair_for_value(hand, target, 3, top)
    pair = f"{min(card(u, skip=2), card(w, skip=3))},{max(card(u, skip=2), card(w, skip=3))}"
    assert misconception_of(question, pair) == "other_circled_value"


def nf_products() -> set[int]:
    return {a * b for a in range(2, 10) for b in range(2, 10)}


def factorisation(value: int) -> tuple[int, int]:
    return next((a, value // a) for a in range(2, 10) if value % a == 0 and 2 <= value // a <= 9)


def test_a_pair_making_a_value_on_your_own_card_is_recognised():
    for first, second in combinations(NUMBER_CARDS, 2):
        made = DECK[first].top * DECK[second].top
        if made in DECK[first].circled + DECK[second].circled:
            discard = next(c for c in NUMBER_CARDS if made not in DECK[c].circled)
            question = nf.factor_pair_cards([first, second], discard, 1)
            assert misconception_of(question, f"{first},{second}") == "own_card_value"
            assert mark(question, "none", "sv").status == RIGHT
            return
    pytest.fail("no pair makes a value on its own cards")


def test_a_pair_adding_up_to_a_circled_value_is_recognised():
    discard, hand = adding_hands()[0]
    question = nf.factor_pair_cards(hand, discard, 3)
    assert misconception_of(question, f"{hand[0]},{hand[1]}", "it") == "sum_not_product"


def test_factor_pair_buttons_grow_with_difficulty_and_always_offer_none():
    hand = NUMBER_CARDS[:8]
    sizes = [len(nf.factor_pair_cards(hand, NUMBER_CARDS[40], d).choices) for d in nf.DIFFICULTIES]
    assert sizes == [3, 4, 6]
    question = nf.factor_pair_cards(hand, NUMBER_CARDS[40], 2)
    assert question.choices[-1]["value"] == "none" and "card" not in question.choices[-1]


def test_missing_factor_names_subtracting_a_table_step_and_another_value():
    for c in NUMBER_CARDS:
        for discard in NUMBER_CARDS:
            values = nf.reachable_values(c, discard)
            n = DECK[c].top
            if len(values) >= 2 and n >= 2 and values[-1] // n not in (values[0] // n - 1, values[0] // n + 1):
                question = nf.missing_factor(c, discard, 3, values[-1])
                right = values[-1] // n
                assert mark(question, str(right), "nb").status == RIGHT
                assert misconception_of(question, str(values[-1] - n)) == "subtracted"
                assert misconception_of(question, str(right + 1)) == "table_step_off"
                assert misconception_of(question, str(values[0] // n)) == "other_circled_value"
                return
    pytest.fail("no card reaches two circled values")


# ---------------------------------------------------------------- tens friends


def test_tens_friend_of_a_number_names_each_mistake():
    question = nf.tens_friend_number(card(3), 3)
    for locale in LOCALES:
        assert mark(question, "7", locale).status == RIGHT
    assert misconception_of(question, "3") == "same_number"
    assert misconception_of(question, "13") == "added_ten"
    assert misconception_of(question, "6") == misconception_of(question, "8") == "counting_slip"
    assert misconception_of(question, "97") == "friend_of_100"
    five = nf.tens_friend_number(card(5), 3)
    assert mark(five, "5", "en").status == RIGHT  # 5 is its own tens-friend, not a mistake


def test_tens_friend_card_names_the_same_number_a_slip_and_the_same_colour():
    top = card(3, "purple")
    friend, same, slip, colour = card(7, "blue"), card(3, "green"), card(6, "orange"), card(2, "purple")
    question = nf.tens_friend_card([same, slip, friend, colour], top, 3)
    assert [c["value"] for c in question.choices] == [str(same), str(slip), str(friend), str(colour), "none"]
    assert mark(question, str(friend), "it").status == RIGHT
    assert misconception_of(question, str(same)) == "same_number"
    assert misconception_of(question, str(slip)) == "counting_slip"
    assert misconception_of(question, str(colour)) == "same_colour"
    assert misconception_of(question, "none") is None
    without = nf.tens_friend_card([same, slip, *SPECIAL_CARDS[:2]], top, 1)
    assert without.check["expected"] == ["none"] and mark(without, "none", "nb").status == RIGHT


# ---------------------------------------------------------------- count


def test_counting_won_cards_names_each_mistake():
    question = nf.cards_after_win(12, 2, 3)
    assert mark(question, "14", "sv").status == RIGHT
    assert misconception_of(question, "2") == "forgot_held"
    assert misconception_of(question, "16") == "pot_twice"
    assert misconception_of(question, "10") == "subtracted"
    assert misconception_of(question, "13") == misconception_of(question, "15") == "off_by_one"


def test_counting_lost_cards_names_each_mistake():
    question = nf.cards_after_loss(10, 3, 3)
    assert mark(question, "7", "it").status == RIGHT
    assert misconception_of(question, "3") == "answered_lost"
    assert misconception_of(question, "13") == "added_instead"
    assert misconception_of(question, "6") == "off_by_one"


def test_counting_the_cards_on_the_table_names_each_mistake():
    question = nf.cards_on_table([4, 5], 3)
    assert mark(question, "9", "nb").status == RIGHT
    assert misconception_of(question, "4") == "only_own"
    assert misconception_of(question, "5") == "forgot_own"
    assert misconception_of(question, "18") == "pot_twice"
    assert misconception_of(question, "10") == "off_by_one"


# ---------------------------------------------------------------- compare


def test_comparing_numbers_names_each_mistake():
    assert misconception_of(nf.compare_numbers([9, 12]), "9") == "first_digit_only"
    assert misconception_of(nf.compare_numbers([19, 21]), "19") == "last_digit_only"
    question = nf.compare_numbers([3, 8, 15])
    assert misconception_of(question, "3") == "picked_smaller"
    assert misconception_of(question, "8") == "first_digit_only"
    assert mark(question, "15", "it").status == RIGHT
    tie = nf.compare_numbers([7, 7], 1)
    assert tie.check["expected"] == ["tie"] and misconception_of(tie, "7") is None


def test_comparing_ranks_names_the_ace_and_picture_card_mistakes():
    assert misconception_of(nf.compare_ranks(["AH", "KS"]), "K") == "ace_as_one"
    ace_low = nf.compare_ranks(["A", "K"], ace_high=False)
    assert mark(ace_low, "K", "nb").status == RIGHT and misconception_of(ace_low, "A") == "ace_as_high"
    assert misconception_of(nf.compare_ranks(["J", "10"], 2), "tie") == "face_cards_ten"
    assert misconception_of(nf.compare_ranks(["9", "J"]), "9") == "face_cards_low"
    assert misconception_of(nf.compare_ranks(["3", "5", "8"]), "3") == "picked_smaller"
    assert mark(nf.compare_ranks(["Q", "Q", "2"]), "tie", "sv").status == RIGHT


def test_a_tie_button_is_offered_from_difficulty_two_or_when_there_is_a_tie():
    assert [c["value"] for c in nf.compare_ranks(["J", "10"], 1).choices] == ["J", "10"]
    assert [c["value"] for c in nf.compare_ranks(["J", "10"], 2).choices] == ["J", "10", "tie"]
    assert [c["value"] for c in nf.compare_ranks(["J", "J"], 1).choices] == ["J", "tie"]


# ---------------------------------------------------------------- parity and size


def test_odd_or_even_names_each_mistake():
    assert misconception_of(nf.rank_parity("10H", 2), "odd") == "parity_swapped"
    assert misconception_of(nf.rank_parity("2", 2), "odd") == "parity_swapped"
    assert misconception_of(nf.rank_parity("QH", 2), "odd") == "face_value_unknown"
    assert misconception_of(nf.rank_parity("KS", 3), "neither") == "face_no_parity"
    ace = nf.rank_parity("AS", 1)
    assert [c["value"] for c in ace.choices] == ["odd", "even", "both"]
    assert mark(ace, "both", "it").status == RIGHT
    assert misconception_of(ace, "odd") == "ace_only_one"
    assert misconception_of(ace, "even") == "ace_only_fourteen"
    assert [c["value"] for c in nf.rank_parity("7", 1).choices] == ["odd", "even"]


def test_low_or_high_names_each_mistake():
    assert misconception_of(nf.rank_size("7D"), "high") == "boundary_7_8"
    assert misconception_of(nf.rank_size("8D"), "low") == "boundary_7_8"
    assert misconception_of(nf.rank_size("JC"), "low") == "face_cards_low"
    assert misconception_of(nf.rank_size("A"), "low") == "ace_only_one"
    assert misconception_of(nf.rank_size("A"), "high") == "ace_only_fourteen"
    assert misconception_of(nf.rank_size("3"), "high") == "size_swapped"
    assert mark(nf.rank_size("14"), "both", "sv").status == RIGHT


def test_shared_attributes_follow_the_source_example_and_name_each_mistake():
    # The source's example: after J♦ and 5♠, 3♣ shares odd and low with 5♠.
    assert nf.shared_traits("5S", "3C").check["expected"] == ["parity+size"]
    assert nf.shared_traits("JD", "5S").check["expected"] == ["parity"]
    # An ace counts as 1 or 14, whichever shares more; with a 2 either way shares one.
    assert nf.shared_traits("AS", "QH").check["expected"] == ["parity+size"]
    assert nf.shared_traits("AS", "2H").check["expected"] == ["parity", "size"]
    assert misconception_of(nf.shared_traits("AS", "QH", 3), "none") == "ace_only_one"
    assert misconception_of(nf.shared_traits("QH", "2S", 3), "none") == "face_no_parity"
    assert misconception_of(nf.shared_traits("7H", "9S", 3), "parity+size") == "boundary_7_8"
    assert misconception_of(nf.shared_traits("3H", "8D", 3), "suit") == "colour_not_suit"
    assert misconception_of(nf.shared_traits("3H", "9H", 3), "parity") == "forgot_suit"
    assert [len(nf.shared_traits("3H", "9H", d).choices) for d in nf.DIFFICULTIES] == [4, 6, 8]


# ---------------------------------------------------------------- reading answers and inputs


def test_unreadable_answers_are_not_wrong_answers():
    typed = [
        nf.multiply_top_numbers(card(6), card(7), 3),
        nf.tens_friend_number(card(4), 3),
        nf.cards_after_win(3, 2, 3),
    ]
    for question in typed:
        for text in ["", "abc", "7 + 3", "2^3", "1.234"]:
            marked = mark(question, text, "nb")
            assert marked.status == UNREADABLE and marked.misconception is None, text
    buttons = [
        nf.compare_ranks(["A", "K"]),
        nf.rank_parity("5"),
        nf.shared_traits("AS", "2H"),
        nf.factor_pair_cards(NUMBER_CARDS[:5], NUMBER_CARDS[30]),
    ]
    for question in buttons:
        for text in ["", "banana", "42", "ODD"]:
            assert mark(question, text, "en").status == UNREADABLE, text


@pytest.mark.parametrize(
    "make",
    [
        lambda: nf.multiply_top_numbers(SPECIAL_CARDS[0], card(3)),
        lambda: nf.multiply_top_numbers(card(3), card(4), 4),
        lambda: nf.tens_friend_number(card(3), 0),
        lambda: nf.factor_pair_cards([card(3), *SPECIAL_CARDS[:3]], card(4)),
        lambda: nf.factor_pair_cards([card(3), card(3)], card(4)),
        lambda: nf.missing_factor(card(7), card(2), 2, value=50),
        lambda: nf.cards_after_win(3, 0),
        lambda: nf.cards_after_loss(2, 3),
        lambda: nf.cards_on_table([3]),
        lambda: nf.compare_numbers([4]),
        lambda: nf.compare_numbers([-1, 3]),
        lambda: nf.compare_ranks(["15", "KH"]),
        lambda: nf.compare_ranks(["2S", "KX"]),
        lambda: nf.rank_parity("joker"),
        lambda: nf.shared_traits("5", "6H"),
        lambda: nf.shared_traits("5H", "5H"),
    ],
)
def test_impossible_inputs_are_refused(make):
    with pytest.raises(ValueError):
        make()


def test_cards_are_read_in_every_form_the_games_pass():
    assert nf.parse_card("QH") == nf.parse_card("q♥") == ("Q", "H")
    assert nf.parse_card("10S") == ("10", "S") and nf.parse_card(10) == ("10", None)
    assert nf.parse_card(1) == nf.parse_card(14) == nf.parse_card("14") == nf.parse_card("A") == ("A", None)
    assert nf.parse_card("1S") == ("A", "S") and nf.parse_card("11D") == ("J", "D")
    assert nf.parse_card(12) == ("Q", None) and nf.parse_card("Joker") == ("joker", None)
    assert [nf.rank_value(r) for r in ("2", "10", "J", "Q", "K", "A")] == [2, 10, 11, 12, 13, 14]
    assert nf.rank_value("A", ace_high=False) == 1


# ---------------------------------------------------------------- properties

difficulties = st.sampled_from(nf.DIFFICULTIES)
number_cards = st.sampled_from(NUMBER_CARDS)
hands = st.lists(st.sampled_from(ALL_CARDS), min_size=2, max_size=8, unique=True)
standard_cards = st.sampled_from(STANDARD_CARDS)
ranks = st.one_of(standard_cards, st.sampled_from([*nf.RANKS, "joker"]), st.integers(1, 14))


def number_cards_in(hand) -> int:
    return sum(not DECK[c].is_special for c in hand)


@SETTINGS
@given(number_cards, number_cards, difficulties)
def test_every_product_question_is_answerable(a, b, difficulty):
    assume(a != b)
    question = nf.multiply_top_numbers(a, b, difficulty)
    assert_well_formed(question)
    assert right_answers(question) == [str(DECK[a].top * DECK[b].top)]


@SETTINGS
@given(hands, number_cards, difficulties, st.integers(0, 3))
def test_every_factor_pair_question_is_answerable(hand, discard, difficulty, which):
    assume(number_cards_in(hand) >= 2)
    for question in (
        nf.factor_pair_cards(hand, discard, difficulty),
        nf.factor_pair_for_value(hand, DECK[discard].circled[which], difficulty, discard),
    ):
        assert_well_formed(question)
        targets = DECK[discard].circled if question.kind == "factor_pair_cards" else [DECK[discard].circled[which]]
        for value in right_answers(question):
            if value != "none":
                first, second = (DECK[int(i)] for i in value.split(","))
                assert first.top * second.top in targets


@SETTINGS
@given(number_cards, number_cards, difficulties)
def test_every_missing_factor_question_is_answerable(c, discard, difficulty):
    assume(nf.reachable_values(c, discard))
    question = nf.missing_factor(c, discard, difficulty)
    assert_well_formed(question)
    assert int(question.hints[0].params["value"]) == DECK[c].top * int(right_answers(question)[0])


@SETTINGS
@given(number_cards, hands, difficulties)
def test_every_tens_friend_question_is_answerable(top, hand, difficulty):
    assert_well_formed(nf.tens_friend_number(top, difficulty))
    assume(number_cards_in(hand) >= 1)
    question = nf.tens_friend_card(hand, top, difficulty)
    assert_well_formed(question)
    friends = [c for c in hand if not DECK[c].is_special and DECK[c].top + DECK[top].top == 10]
    assert (right_answers(question) == ["none"]) == (not friends)


@SETTINGS
@given(st.integers(0, 60), st.integers(1, 30), st.lists(st.integers(0, 12), min_size=1, max_size=3), difficulties)
def test_every_count_question_is_answerable(held, change, others, difficulty):
    assert_well_formed(nf.cards_after_win(held, change, difficulty))
    if change <= held:
        assert_well_formed(nf.cards_after_loss(held, change, difficulty))
    assert_well_formed(nf.cards_on_table([change, *others], difficulty))


@SETTINGS
@given(
    st.lists(st.integers(0, 120), min_size=2, max_size=5),
    st.lists(ranks, min_size=2, max_size=4),
    st.booleans(),
    difficulties,
)
def test_every_compare_question_is_answerable(numbers, cards, ace_high, difficulty):
    question = nf.compare_numbers(numbers, difficulty)
    assert_well_formed(question)
    assert right_answers(question) == (["tie"] if numbers.count(max(numbers)) > 1 else [str(max(numbers))])
    assert_well_formed(nf.compare_ranks(cards, difficulty, ace_high))


@SETTINGS
@given(standard_cards, standard_cards, difficulties)
def test_every_parity_and_size_question_is_answerable(a, b, difficulty):
    assert_well_formed(nf.rank_parity(a, difficulty))
    assert_well_formed(nf.rank_size(b, difficulty))
    assume(a != b)
    question = nf.shared_traits(a, b, difficulty)
    assert_well_formed(question)
    assert len(question.choices) == nf.TRAIT_BUTTONS[difficulty]
