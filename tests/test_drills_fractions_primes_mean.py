"""Fraction Master, Crazy Banana: Extreme, Gnav/War/Casino War drills: fractions, primes, means, chances."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutor.answers import describe
from tutor.checks import check_text, exact
from tutor.content import drill_texts
from tutor.deck import kids2
from tutor.drills import CHOICE, NO, NUMBER, YES, Question, Text, texts
from tutor.drills.fractions_primes_mean import (
    GENERATORS,
    NONE,
    fraction_equivalent,
    fraction_from_hand,
    fraction_in_interval,
    fraction_larger,
    fraction_order,
    hand_fractions,
    mean_estimate,
    mean_exact,
    prime_card_sum,
    prime_is_prime,
    prime_which_sum,
    primes_up_to,
    probability_card_beats,
    probability_tie,
    probability_tie_bet,
    table_fractions,
)
from tutor.drills.marking import NOT_SIMPLEST, RIGHT, UNREADABLE, WRONG, mark
from tutor.text import spell_in

DECK = kids2()
NUMBER_CARDS = list(DECK.number_card_ids)
LOCALES = ["en", "nb", "sv", "it"]
SKILLS = {"fractions", "primes", "mean", "probability"}
MY_KINDS = {
    "fraction_in_interval": {"equivalent_fractions", "only_numerators", "only_denominators", "flipped"},
    "fraction_larger": {
        "only_numerators",
        "bigger_denominator",
        "only_denominators",
        "equivalent_fractions",
        "same_gap",
    },
    "fraction_order": {"only_numerators", "bigger_denominator", "only_denominators", "largest_first"},
    "fraction_equivalent": {"equivalent_fractions", "same_gap", "only_numerators", "only_denominators"},
    "fraction_from_hand": {"flipped", "only_numerators", "only_denominators", "equivalent_fractions"},
    "prime_is_prime": {"one_is_prime", "two_not_prime", "odd_means_prime", "prime_square", "even_means_prime"},
    "prime_which_sum": {"odd_means_prime", "prime_square", "even_means_prime"},
    "mean_estimate": {"forgot_to_divide", "wrong_count", "median_like", "times_ten", "place_value"},
    "mean_exact": {
        "forgot_to_divide",
        "wrong_count",
        "rounded_mean",
        "remainder_as_decimal",
        "median_like",
        "off_by_one",
        "times_ten",
        "place_value",
    },
    "probability_card_beats": {"odds", "own_card_kept", "count_not_fraction", "inverted", "complement", "not_simplest"},
    "probability_tie": {"odds", "own_card_kept", "count_not_fraction", "inverted", "not_simplest"},
    "probability_tie_bet": {"ignored_loss", "stake_always_lost", "sign_flipped", "odds", "own_card_kept"},
}


def lay(*tops: int) -> list[int]:
    """Distinct number cards with these top numbers, in order (a second 3 is another card)."""
    used: list[int] = []
    for top in tops:
        used.append(next(c for c in NUMBER_CARDS if DECK[c].top == top and c not in used))
    return used


def table(interval_tops, hand_tops):
    cards = lay(*interval_tops, *hand_tops)
    return cards[:4], cards[4:]


def card_with(predicate):
    return next(c for c in NUMBER_CARDS if predicate(DECK[c]))


def shows(question: Question, typed: str, misconception: str, locale: str = "en"):
    marked = mark(question, typed, locale)
    assert marked.status == WRONG, (typed, marked)
    assert marked.misconception == misconception, (typed, marked.misconception, question.misconceptions)
    message = texts(question.kind)["misconceptions"][misconception]
    assert marked.feedback[-1] == Text.from_content(message, question.hints[0].params)
    return marked


def assert_well_formed(question: Question) -> None:
    """Answerable, misconceptions never right, every text filled, and it survives JSON."""
    entry = drill_texts()[question.kind]
    assert question.skill == entry["skill"] in SKILLS
    assert question.hints and question.solution and len(question.hints) == 3
    params = question.prompt.params
    variants = [
        text
        for case in entry.get("cases", {}).values()
        for text in ([case["prompt"]] if "prompt" in case else []) + case.get("hints", []) + case.get("solution", [])
    ]
    said = [
        question.prompt,
        *question.hints,
        *question.solution,
        *(Text.from_content(message, params) for message in [*variants, *entry.get("misconceptions", {}).values()]),
    ]
    for text in said:  # every text and every variant fills, its calculations written out
        shown = spell_in(text, "nb")
        assert shown and "%(" not in shown and "maths" not in shown, shown
    for choice in question.choices:
        label = choice["label"]
        assert label.msgid in entry.get("labels", {}).values() or label.msgid in ("Yes", "No")
        assert label.msgid % label.params if label.params else label.msgid
    if question.answer == CHOICE:
        values = [c["value"] for c in question.choices]
        assert len(values) == len(set(values))
        for value in question.check["expected"]:
            assert value in values
            assert mark(question, value, "en").status == RIGHT
    else:
        expected = question.check["expected"]
        for locale in LOCALES:
            assert mark(question, expected, locale).status == RIGHT
    for found in question.misconceptions:
        assert found["id"] in entry["misconceptions"]
        assert found["id"] in MY_KINDS[question.kind]
        for value in found["values"]:
            if question.answer == CHOICE:
                assert value in [c["value"] for c in question.choices]
            marked = mark(question, value, "en")
            assert marked.status == WRONG and marked.misconception == found["id"], (value, found, marked)
    data = json.loads(json.dumps(question.to_dict()))
    assert Question.from_dict(data) == question


# --- content ----------------------------------------------------------------------------


def test_every_kind_has_its_texts_and_each_misconception_its_message():
    kinds = drill_texts()
    for kind, ids in MY_KINDS.items():
        entry = kinds[kind]
        assert entry["skill"] in SKILLS
        assert len(entry["hints"]) == 3 and entry["solution"]
        assert set(entry["misconceptions"]) == ids
    for skill in SKILLS:
        ids = set().union(*(ids for kind, ids in MY_KINDS.items() if kinds[kind]["skill"] == skill))
        assert len(ids) >= 3, skill


def test_the_catalogue_lists_every_generator_by_skill():
    assert set(GENERATORS) == SKILLS
    assert all(callable(g) for generators in GENERATORS.values() for g in generators)


def test_primes_up_to_200():
    assert primes_up_to() == list(sympy.primerange(2, 201))
    assert primes_up_to(10) == [2, 3, 5, 7] and primes_up_to(1) == []


# --- fractions --------------------------------------------------------------------------


def test_an_equivalent_end_counts_when_the_ends_count_and_the_feedback_says_why():
    interval, hand = table((1, 2, 3, 4), (2, 4))
    question = fraction_in_interval(interval, fraction=hand)  # 2/4 in [1/2, 3/4]
    assert question.check["expected"] == [YES]
    marked = shows(question, NO, "equivalent_fractions")
    assert "equivalent fractions" in marked.feedback[-1].msgid % marked.feedback[-1].params
    assert any("equivalent fractions" in step.msgid for step in question.solution)
    strict = fraction_in_interval(interval, fraction=hand, strict=True)
    assert strict.check["expected"] == [NO] and "strictly" in strict.prompt.msgid
    shows(strict, YES, "equivalent_fractions")


@pytest.mark.parametrize(
    "tops,strict,wrong,mistake",
    [
        ((1, 1), False, YES, "only_numerators"),  # 1/1 is outside [1/2, 3/4], but 1 lies between the numerators 1 and 3
        ((4, 3), False, YES, "only_denominators"),  # 4/3 is outside, but 3 lies between the denominators 2 and 4
        ((2, 3), False, NO, "flipped"),  # 2/3 is inside; read as 3/2 it is not
        ((2, 5), True, YES, "only_numerators"),
        ((1, 3), True, YES, "only_denominators"),
    ],
)
def test_is_it_inside_names_the_whole_number_mistakes(tops, strict, wrong, mistake):
    interval, hand = table((1, 2, 3, 4), tops)
    shows(fraction_in_interval(interval, fraction=hand, strict=strict), wrong, mistake)


@pytest.mark.parametrize(
    "first,second,wrong,mistake",
    [
        ((5, 9), (2, 3), "5/9", "only_numerators"),
        ((3, 4), (3, 8), "3/8", "bigger_denominator"),
        ((1, 2), (5, 6), "1/2", "only_denominators"),
        ((2, 3), (3, 4), "equal", "same_gap"),
        ((3, 8), (5, 8), "equal", "only_denominators"),
        ((1, 2), (3, 6), "3/6", "equivalent_fractions"),
    ],
)
def test_which_is_larger_names_the_mistake(first, second, wrong, mistake):
    cards = lay(*first, *second)
    question = fraction_larger(fractions=(cards[:2], cards[2:]))
    assert [c["value"] for c in question.choices] == [f"{first[0]}/{first[1]}", f"{second[0]}/{second[1]}", "equal"]
    shows(question, wrong, mistake)
    assert_well_formed(question)


def test_ordering_three_fractions_with_buttons_of_orderings():
    cards = lay(3, 4, 1, 2, 5, 8)  # 3/4, 1/2, 5/8
    question = fraction_order(fractions=(cards[:2], cards[2:4], cards[4:]), difficulty=3)
    assert len(question.choices) == 6 and question.check["expected"] == ["120"]
    label = next(c["label"] for c in question.choices if c["value"] == "120")
    assert label.msgid % label.params == "1/2, 5/8, 3/4"
    assert mark(question, "120", "sv").status == RIGHT
    shows(question, "021", "largest_first")  # 3/4, 5/8, 1/2
    shows(question, "102", "only_numerators")  # numerators 1, 3, 5: 1/2, 3/4, 5/8
    shows(question, "201", "only_denominators")  # denominators 8, 4, 2: 5/8, 3/4, 1/2
    assert_well_formed(question)


def test_ordering_by_bigger_denominators_is_recognised():
    cards = lay(1, 4, 1, 2, 1, 8)  # 1/4, 1/2, 1/8
    question = fraction_order(fractions=(cards[:2], cards[2:4], cards[4:]), difficulty=3)
    assert question.check["expected"] == ["201"]
    shows(question, "102", "bigger_denominator")  # 1/2, 1/4, 1/8: "8 is more than 2"


def test_equivalent_fractions_either_order_is_right():
    cards = lay(1, 2, 2, 4, 3, 4)
    question = fraction_order(fractions=(cards[:2], cards[2:4], cards[4:]))
    assert sorted(question.check["expected"]) == ["012", "102"]
    assert len(question.solution) == 3


@pytest.mark.parametrize(
    "first,second,wrong,mistake",
    [
        ((4, 6), (6, 9), NO, "equivalent_fractions"),
        ((2, 3), (3, 4), YES, "same_gap"),
        ((3, 4), (3, 5), YES, "only_numerators"),
        ((3, 8), (5, 8), YES, "only_denominators"),
    ],
)
def test_equivalent_or_not_names_the_mistake(first, second, wrong, mistake):
    cards = lay(*first, *second)
    question = fraction_equivalent(fractions=(cards[:2], cards[2:]))
    shows(question, wrong, mistake)
    assert_well_formed(question)


def test_a_fraction_from_your_cards_is_picked_from_the_pairs_of_your_cards():
    interval, hand = table((1, 2, 3, 4), (3, 2, 5, 7))
    question = fraction_from_hand(interval, hand, 3)
    assert [c["value"] for c in question.choices] == [f.text for f in hand_fractions(hand)] + [NONE]
    assert sorted(question.check["expected"]) == ["2/3", "3/5", "5/7"]
    assert mark(question, "2/3", "it").status == RIGHT
    shows(question, "3/2", "flipped")
    shows(question, "2/7", "only_numerators")
    shows(question, "7/3", "only_denominators")
    assert mark(question, NONE, "en").status == WRONG
    assert mark(question, "1/2", "en").status == UNREADABLE  # not a fraction of your cards
    assert_well_formed(question)


def test_none_fits_is_right_when_no_pair_of_your_cards_fits():
    interval, hand = table((1, 2, 3, 4), (9, 8))
    question = fraction_from_hand(interval, hand, 2)
    assert question.check["expected"] == [NONE]
    assert "keep your cards" in question.solution[-1].msgid
    strict, hand = table((1, 2, 3, 4), (2, 4))
    question = fraction_from_hand(strict, hand, 2, strict=True)  # 2/4 is the end 1/2: out when the ends do not count
    assert question.check["expected"] == [NONE]
    shows(question, "2/4", "equivalent_fractions")
    inclusive = fraction_from_hand(strict, hand, 2)
    assert inclusive.check["expected"] == ["2/4"]
    shows(inclusive, NONE, "equivalent_fractions")


def test_difficulty_picks_an_easier_or_harder_fraction_and_shows_fewer_or_more_buttons():
    interval, hand = table((1, 2, 3, 4), (3, 2, 5, 7, 6))
    easy, hard = fraction_from_hand(interval, hand, 1), fraction_from_hand(interval, hand, 3)
    assert len(easy.choices) == 4 < len(hard.choices) == len(hand_fractions(hand)) + 1
    distances = []
    for difficulty in (1, 3):
        question = fraction_in_interval(interval, hand, difficulty)
        x = exact(question.prompt.params["fraction"])
        distances.append(min(abs(x - Fraction(1, 2)), abs(x - Fraction(3, 4))))
    assert distances[0] > distances[1]
    assert len(fraction_order(interval, hand, 1).choices) == 3 and len(fraction_order(interval, hand, 3).choices) == 6


# --- primes -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "n,wrong,mistake",
    [
        (1, YES, "one_is_prime"),
        (2, NO, "two_not_prime"),
        (9, YES, "odd_means_prime"),
        (91, YES, "odd_means_prime"),
        (87, YES, "odd_means_prime"),
        (49, YES, "prime_square"),
        (121, YES, "prime_square"),
        (169, YES, "prime_square"),
        (64, YES, "even_means_prime"),
    ],
)
def test_prime_mistakes_are_named(n, wrong, mistake):
    shows(prime_is_prime(n), wrong, mistake, "nb")


def test_is_n_prime_agrees_with_sympy_for_every_n_to_200():
    for n in range(1, 201):
        for difficulty in (1, 3):
            question = prime_is_prime(n, difficulty)
            assert question.check["expected"] == [YES if sympy.isprime(n) else NO], n
            assert_well_formed(question)
    with pytest.raises(ValueError):
        prime_is_prime(201)


def test_which_sum_is_prime_names_odd_squares_and_even_sums():
    card_id = card_with(lambda c: any(a + b in (49, 121, 169) for a in c.circled for b in c.circled if a != b))
    question = prime_which_sum(card_id, 2)
    by_id = {m["id"]: m["values"] for m in question.misconceptions}
    shows(question, by_id["prime_square"][0], "prime_square")
    shows(question, by_id["even_means_prime"][0], "even_means_prime")
    odd = card_with(
        lambda c: any(
            (a + b) % 2 and not sympy.isprime(a + b) and a + b not in (49, 121, 169)
            for a in c.circled
            for b in c.circled
            if a != b
        )
    )
    question = prime_which_sum(odd, 3)
    shows(question, {m["id"]: m["values"] for m in question.misconceptions}["odd_means_prime"][0], "odd_means_prime")
    assert all("=" not in c["label"].msgid for c in question.choices)  # at difficulty 3 the pupil adds


# --- mean -------------------------------------------------------------------------------

QUARTER_CARD = card_with(lambda c: c.circled_sum % 4 == 3)  # mean ends in .75


@pytest.mark.parametrize("locale", LOCALES)
def test_an_exact_mean_may_be_a_decimal_in_the_pupils_notation_a_fraction_or_a_mixed_number(locale):
    total = DECK[QUARTER_CARD].circled_sum
    mean = sympy.Rational(total, 4)
    question = mean_exact(QUARTER_CARD, 2)
    decimal = describe(mean, locale)
    assert decimal.endswith(",75" if locale != "en" else ".75")
    for typed in (decimal, f"{total}/4", f"{total // 4} 3/4"):  # {total}/4 is in simplest form: a fraction answer
        assert mark(question, typed, locale).status == RIGHT, typed
    estimate = mean_estimate(QUARTER_CARD, 2)
    assert mark(estimate, decimal, locale).status == RIGHT


def test_exact_mean_mistakes_are_named():
    card = DECK[QUARTER_CARD]
    total, question = card.circled_sum, mean_exact(QUARTER_CARD, 1)
    assert str(total) in question.prompt.msgid % question.prompt.params  # difficulty 1 gives the sum
    shows(question, str(total), "forgot_to_divide")
    shows(question, f"{total}/3", "wrong_count")
    shows(question, f"{total}/2", "wrong_count")
    shows(question, str(total // 4), "rounded_mean")
    shows(question, str(total // 4 + 1), "rounded_mean")
    shows(question, f"{total // 4}.3", "remainder_as_decimal")
    assert_well_formed(question)
    card_id = card_with(
        lambda c: c.circled_sum % 4 and all(abs(v - c.circled_sum / 4) > 2 for v in sorted(c.circled)[1:3])
    )
    middle = sorted(DECK[card_id].circled)[1]
    shows(mean_exact(card_id), str(middle), "median_like")


def test_estimated_mean_counts_within_the_stated_tolerance_and_names_mistakes():
    def middle_far_from_mean(card):
        mean = Fraction(card.circled_sum, 4)
        return card.circled_sum > 150 and abs(sorted(card.circled)[1] - mean) > 8

    card_id = card_with(middle_far_from_mean)
    card = DECK[card_id]
    question = mean_estimate(card_id, 3)
    tolerance, mean = exact(question.check["tolerance"]), Fraction(card.circled_sum, 4)
    assert f"within {tolerance} " in question.prompt.msgid % question.prompt.params
    assert mark(question, str(mean + int(tolerance) + 1), "en").status == WRONG
    shows(question, str(card.circled_sum), "forgot_to_divide")
    shows(question, str(card.circled_sum // 3), "wrong_count")
    shows(question, str(sorted(card.circled)[1]), "median_like")


def test_estimate_tolerance_is_never_tighter_than_the_taught_rounding():
    for card_id in NUMBER_CARDS:
        question = mean_estimate(card_id, 3)
        rounded = sum(10 * ((v + 5) // 10) for v in DECK[card_id].circled)
        for typed in (str(rounded // 4), str(-(-rounded // 4))):
            assert mark(question, typed, "en").status == RIGHT, (card_id, typed)


@pytest.mark.parametrize("locale", LOCALES)
def test_the_mean_question_typed_back_is_refused_kindly_not_marked(locale):
    card_id = card_with(lambda c: c.circled_sum % 4 == 0)  # the "224/4" of the issue: the mean is 56
    total = DECK[card_id].circled_sum
    rounded = sum(10 * ((v + 5) // 10) for v in DECK[card_id].circled)
    exact, estimate = mean_exact(card_id, 2), mean_estimate(card_id, 2)
    for question, typed in (
        (exact, f"{total}/4"),
        (exact, f" {total} / 4"),
        (exact, f"{total}⁄4"),
        (estimate, f"{total}/4"),
        (estimate, f"{rounded}/4"),
    ):
        marked = mark(question, typed, locale)
        assert marked.status == UNREADABLE and marked.error_code == "type_the_result", (question.kind, typed)
        assert "type the result" in marked.feedback[0].msgid and marked.feedback[0].params["division"] == typed.replace(
            " ", ""
        ).replace("⁄", "/")
    assert mark(exact, f"-{total}/4", locale).status == WRONG  # a minus makes it another number: simply wrong
    assert mark(exact, f"{total // 2}/2", locale).status == RIGHT  # halved once: worked on, and right
    assert mark(exact, describe(sympy.Rational(total, 4), locale), locale).status == RIGHT
    half = card_with(lambda c: c.circled_sum % 4 == 2)  # 226/4 can still be halved: 113/2 is a result
    assert mark(mean_exact(half), f"{DECK[half].circled_sum}/4", locale).error_code == "type_the_result"
    assert mark(mean_exact(half), f"{DECK[half].circled_sum // 2}/2", locale).status == RIGHT


def test_exact_mean_slips_get_their_own_feedback():
    card_id = card_with(
        lambda c: (
            c.circled_sum % 4 == 0
            and c.circled_sum // 4 >= 12
            and 0 != (c.circled_sum // 4) % 10 != (c.circled_sum // 40) % 10
        )
    )
    mean = DECK[card_id].circled_sum // 4
    question = mean_exact(card_id, 2)
    shows(question, str(mean * 10), "times_ten")
    shows(question, str(mean)[::-1], "place_value")
    estimate = mean_estimate(card_id, 2)
    shows(estimate, str(mean * 10), "times_ten")


# --- probability ------------------------------------------------------------------------


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
def test_a_mean_is_written_one_way_on_the_whole_screen(locale):
    """The solution and the feedback write the mean alike, as a mixed number, whatever form the pupil typed."""
    card_id = next(c for c in NUMBER_CARDS if DECK[c].circled_sum % 4 == 1)
    question = mean_exact(card_id, 2)
    total = DECK[card_id].circled_sum
    mixed = f"{total // 4} 1/4"
    marked = mark(question, describe(sympy.Rational(total, 4), locale), locale)  # typed as a decimal
    assert marked.status == RIGHT and marked.read_as == describe(sympy.Rational(total, 4), locale)
    assert spell_in(marked.feedback[0], locale).count(mixed) == 1
    assert mixed in spell_in(question.solution[-1], locale)
    assert mark(mean_estimate(card_id, 2), "1", locale).feedback[0].params["expected"] == mixed  # the estimate's too


@pytest.mark.parametrize("locale", LOCALES)
def test_21_81_for_7_27_is_not_in_simplest_form_and_is_read_back_as_21_81(locale):
    question = probability_card_beats(28, 7, 3)  # 7 of the other 27 cards beat yours, in simplest form
    assert question.check == {"rule": "equivalent_simplest", "expected": "7/27"}
    marked = mark(question, "21/81", locale)
    assert marked.read_as == "21/81" and marked.misconception == NOT_SIMPLEST and marked.status == WRONG
    assert "wrong" not in spell_in(marked.feedback[0], "en").lower() and "simplest form" in spell_in(
        marked.feedback[0], "en"
    )


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
    assert "1/17" in probability_tie_bet(1, 1).prompt.msgid % probability_tie_bet(1, 1).prompt.params


# --- reading, storing -------------------------------------------------------------------


def test_unreadable_answers_are_not_wrong_answers():
    typed_questions = [
        mean_exact(QUARTER_CARD),
        mean_estimate(QUARTER_CARD),
        probability_tie(2),
        probability_tie_bet(2),
    ]
    for question in typed_questions:
        for text in ["", "abc", "2^3", "1,5 + 2", "3/0"]:
            marked = mark(question, text, "en")
            assert marked.status == UNREADABLE and marked.error_code and marked.misconception is None, text
        assert mark(question, "0,5", "en").status == UNREADABLE  # a comma decimal in English
    for question in [prime_is_prime(7), fraction_from_hand(*table((1, 2, 3, 4), (3, 5)))]:
        assert mark(question, "maybe", "en").status == UNREADABLE
        assert mark(question, "7", "en").status == UNREADABLE


def test_questions_survive_a_round_trip():
    interval, hand = table((1, 2, 3, 4), (3, 2, 5, 7))
    for question in [
        fraction_in_interval(interval, hand),
        fraction_larger(interval, hand),
        fraction_order(interval, hand),
        fraction_equivalent(interval, hand),
        fraction_from_hand(interval, hand, strict=True),
        prime_is_prime(97),
        prime_card_sum(NUMBER_CARDS[5]),
        prime_which_sum(NUMBER_CARDS[5]),
        mean_estimate(NUMBER_CARDS[9]),
        mean_exact(NUMBER_CARDS[9]),
        probability_card_beats(52, 20),
        probability_tie(4),
        probability_tie_bet(8),
    ]:
        assert Question.from_dict(json.loads(json.dumps(question.to_dict()))) == question


# --- properties -------------------------------------------------------------------------

difficulties = st.integers(1, 3)
tables = st.lists(st.sampled_from(NUMBER_CARDS), min_size=6, max_size=9, unique=True)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables, difficulties, st.booleans())
def test_fraction_questions_from_any_table_are_answerable(cards, difficulty, strict):
    interval, hand = cards[:4], cards[4:]
    assert_well_formed(fraction_in_interval(interval, hand, difficulty, strict))
    assert_well_formed(fraction_from_hand(interval, hand, difficulty, strict))
    fractions = table_fractions(interval, hand)
    for generator, needs in ((fraction_larger, 2), (fraction_order, 3), (fraction_equivalent, 2)):
        try:
            assert_well_formed(generator(interval, hand, difficulty))
        except ValueError:  # only when the table makes too few different fractions
            assert len(fractions) < needs or len({f.value for f in fractions}) == 1


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(NUMBER_CARDS), difficulties)
def test_card_questions_are_answerable(card_id, difficulty):
    for generator in (prime_card_sum, prime_which_sum, mean_estimate, mean_exact):
        question = generator(card_id, difficulty)
        assert_well_formed(question)
        assert question.answer in (CHOICE, NUMBER)
    question = prime_card_sum(card_id, difficulty)
    n = question.prompt.params["n"]
    assert question.check["expected"] == [YES if sympy.isprime(n) else NO]


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 104).flatmap(lambda size: st.tuples(st.just(size), st.integers(0, size - 1))), difficulties)
def test_card_beats_questions_are_answerable(deck, difficulty):
    deck_size, higher = deck
    question = probability_card_beats(deck_size, higher, difficulty)
    assert exact(question.check["expected"]) == sympy.Rational(higher, deck_size - 1)
    assert_well_formed(question)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 8), difficulties, st.integers(1, 30))
def test_tie_questions_are_answerable(decks, difficulty, payout):
    assert_well_formed(probability_tie(decks, difficulty))
    question = probability_tie_bet(decks, difficulty, payout)
    p = sympy.Rational(4 * decks - 1, 52 * decks - 1)
    assert exact(question.check["expected"]) == payout * p - (1 - p)
    assert_well_formed(question)
