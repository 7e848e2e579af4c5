"""The exhaustive expression search agrees with our own answer grammar and with brute force."""

from fractions import Fraction
from itertools import combinations, product

from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.answers import ALLOW_ADD_SUB, ALLOW_FOUR_OPS, parse_answer
from tutor.expressions import ADD_SUB, FOUR_OPS, closest, reachable

card_values = st.lists(st.integers(1, 9), min_size=1, max_size=4)


@settings(max_examples=40, deadline=None)
@given(card_values)
def test_every_expression_reads_back_as_its_value(numbers):
    for allow, grammar in ((ADD_SUB, ALLOW_ADD_SUB), (FOUR_OPS, ALLOW_FOUR_OPS)):
        for value, expression in reachable(numbers, allow).items():
            assert parse_answer(expression, "en", allow=grammar) == value, expression


@settings(max_examples=60, deadline=None)
@given(card_values)
def test_plus_minus_reaches_exactly_the_signed_subset_sums(numbers):
    expected = set()
    for size in range(1, len(numbers) + 1):
        for chosen in combinations(numbers, size):
            for signs in product((1, -1), repeat=size):
                total = sum(s * n for s, n in zip(signs, chosen))
                if any(s == 1 for s in signs):  # an expression starts with a card, not a minus sign
                    expected.add(Fraction(total))
    assert set(reachable(numbers, ADD_SUB)) == expected


def test_closest_finds_the_best_and_refuses_division_by_zero():
    assert closest([3, 5, 7], 10, ADD_SUB)[0] == 0
    assert closest([1, 1, 1], 9, ADD_SUB) == (Fraction(6), Fraction(3), "1 + 1 + 1")
    distance, value, _ = closest([2, 3, 4], 1, FOUR_OPS)
    assert distance == 0
    assert all(v.denominator != 0 for v in reachable([1, 1, 2], FOUR_OPS))


def test_expressions_are_plain_ascii_for_every_locale_to_write_in_its_own_signs():
    texts = reachable([2, 3, 4, 6], FOUR_OPS).values()
    assert all(text.isascii() for text in texts)
    assert any(" * " in text for text in texts) and any(" / " in text for text in texts)
