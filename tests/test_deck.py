"""The deck file is the output of its own rule and has the anatomy games.md asks for."""

from collections import Counter

from tutor.deck import BANANA, KOCHA, KOCHA_INSTRUCTIONS, NUMBER, generate, kids2, read_deck_file, two_digit_products


def test_the_card_list_is_what_the_rule_generates():
    data = read_deck_file()
    generated = generate(data["rule"], [c["id"] for c in data["colours"]])
    assert [card.to_dict() for card in generated] == data["deck"]["cards"]


def test_anatomy():
    deck = kids2()
    kinds = Counter(card.kind for card in deck.cards)
    assert kinds == {NUMBER: 72, BANANA: 4, KOCHA: 6}
    assert [card.id for card in deck.cards] == list(range(len(deck)))
    assert {c.id for c in deck.colours} == {"purple", "blue", "green", "orange"}
    assert len({c.symbol for c in deck.colours}) == 4
    products = set(two_digit_products(2, 9))
    for card in deck.cards:
        if card.kind == NUMBER:
            assert card.colour in {c.id for c in deck.colours}
            assert 1 <= card.top <= 9
            assert len(card.circled) == 4 and len(set(card.circled)) == 4
            assert all(10 <= value <= 99 for value in card.circled)
            assert sum(value in products for value in card.circled) >= 2
        else:
            assert card.top is None and card.circled == ()
    assert sorted(c.instruction for c in deck.cards if c.kind == KOCHA) == sorted(KOCHA_INSTRUCTIONS * 2)
    per_colour_top = Counter((c.colour, c.top) for c in deck.cards if c.kind == NUMBER)
    assert set(per_colour_top.values()) == {2}
