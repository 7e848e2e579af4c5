"""The standard decks of the War family: sizes, ids and card names."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tutor import standard_deck as sd


@pytest.mark.parametrize(
    "name, size, lowest_rank",
    [("full", 52, 2), ("jokers", 54, 2), ("piquet36", 36, 6), ("piquet32", 32, 7), ("double", 104, 2)],
)
def test_every_deck_has_its_size_and_lowest_rank(name, size, lowest_rank):
    ids = sd.deck(name)
    assert len(ids) == len(set(ids)) == size
    assert min(sd.rank(i) for i in ids) == lowest_rank
    assert max(sd.rank(i) for i in ids) == (sd.JOKER_RANK if name == "jokers" else sd.ACE)


def test_each_rank_comes_once_per_suit_and_copy():
    for name, copies in [("full", 1), ("double", 2)]:
        cards = [sd.card(i) for i in sd.deck(name)]
        for suit in sd.SUIT_LETTERS:
            assert sorted(c.rank for c in cards if c.suit == suit) == sorted(list(range(2, 15)) * copies)


@given(st.integers(2, 14), st.sampled_from(sd.SUIT_LETTERS), st.integers(0, 7))
def test_an_id_names_its_card(rank, suit, copy):
    card = sd.card(sd.card_id(rank, suit, copy))
    assert (card.rank, card.suit) == (rank, suit)


def test_plain_letter_codes_name_the_cards():
    assert sd.card(sd.card_id(12, "H")).code == "QH"
    assert sd.card(sd.card_id(10, "S")).code == "10S"
    assert sd.card(sd.card_id(14, "C", 1)).code == "AC"
    assert sd.card(52).code == "joker" and sd.card(53).is_joker and sd.card(53 + sd.COPY_SIZE).is_joker
    assert sd.card(sd.card_id(11, "D")).is_picture and not sd.card(sd.card_id(14, "D")).is_picture
    assert sd.card(sd.card_id(2, "D")).is_red and not sd.card(sd.card_id(2, "S")).is_red


def test_a_text_writes_a_card_as_its_corner_and_a_rank_without_suit():
    assert sd.card(sd.card_id(12, "H")).corner == "Q♥" and sd.card(sd.card_id(10, "S", 1)).corner == "10♠"
    assert sd.card(sd.card_id(14, "D")).corner == "A♦" and sd.card(sd.card_id(2, "C")).corner == "2♣"
    assert sd.card(52).corner == sd.card(53 + sd.COPY_SIZE).corner == "🃏"
    assert [sd.rank_corner(r) for r in (2, 10, sd.JACK, sd.QUEEN, sd.KING, sd.ACE, sd.JOKER_RANK)] == [
        "2",
        "10",
        "J",
        "Q",
        "K",
        "A",
        "🃏",
    ]


@pytest.mark.parametrize("bad", [-1, 8 * 54, True, "3", 3.0, None])
def test_an_id_no_deck_has_is_refused(bad):
    with pytest.raises(ValueError):
        sd.card(bad)


@pytest.mark.parametrize("rank, suit, copy", [(1, "H", 0), (15, "H", 0), (5, "X", 0), (5, "H", 8), (5, "H", -1)])
def test_a_card_no_deck_has_is_refused(rank, suit, copy):
    with pytest.raises(ValueError):
        sd.card_id(rank, suit, copy)


def test_a_casino_shoe_holds_several_decks():
    shoe = sd.copies(6)
    assert len(shoe) == len(set(shoe)) == 6 * 52
    assert sum(1 for i in shoe if sd.rank(i) == sd.ACE) == 24
    with pytest.raises(ValueError):
        sd.copies(9)
