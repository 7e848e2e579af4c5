"""Skill primes: is a number prime, and which sums of a card's circled values are prime?"""

from __future__ import annotations

import json

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.drill_support import NUMBER_CARDS, assert_content_complete, assert_well_formed, card_with, kinds_of
from tests.drill_support import misconception_of as named_by
from tutor.drills import CHOICE, NO, YES, Question
from tutor.drills.marking import UNREADABLE, mark
from tutor.drills.primes import prime_card_sum, prime_is_prime, prime_which_sum
from tutor.primes import primes_up_to

MISCONCEPTIONS = {
    "prime_is_prime": {"one_is_prime", "two_not_prime", "odd_means_prime", "prime_square", "even_means_prime"},
    "prime_which_sum": {"odd_means_prime", "prime_square", "even_means_prime"},
}


def shows(question: Question, typed: str, misconception: str, locale: str = "en") -> None:
    assert named_by(question, typed, locale) == misconception, (typed, question.misconceptions)


def well_formed(question: Question) -> None:
    assert_well_formed(question, ("nb",))


def test_every_kind_has_its_texts_and_each_misconception_its_message():
    kinds = kinds_of("primes")
    assert {kind: set(entry["misconceptions"]) for kind, entry in kinds.items()} == MISCONCEPTIONS
    assert_content_complete("primes")


def test_primes_up_to_200():
    assert primes_up_to() == list(sympy.primerange(2, 201))
    assert primes_up_to(10) == [2, 3, 5, 7] and primes_up_to(1) == []


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
            well_formed(question)
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


def test_unreadable_answers_are_not_wrong_answers():
    question = prime_is_prime(7)
    assert mark(question, "maybe", "en").status == UNREADABLE
    assert mark(question, "7", "en").status == UNREADABLE


def test_questions_survive_a_round_trip():
    for question in [prime_is_prime(97), prime_card_sum(NUMBER_CARDS[5]), prime_which_sum(NUMBER_CARDS[5])]:
        assert Question.from_dict(json.loads(json.dumps(question.to_dict()))) == question


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(NUMBER_CARDS), st.integers(1, 3))
def test_card_questions_are_answerable(card_id, difficulty):
    for generator in (prime_card_sum, prime_which_sum):
        question = generator(card_id, difficulty)
        well_formed(question)
        assert question.answer == CHOICE
    question = prime_card_sum(card_id, difficulty)
    n = question.prompt.params["n"]
    assert question.check["expected"] == [YES if sympy.isprime(n) else NO]
