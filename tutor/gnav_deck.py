"""The Gnav deck: 42 cards, two each of 21 faces, read from ``content/gnav_deck.toml``.

A card is a small integer so that engine states stay plain JSON: ``21 * copy + face``,
the faces numbered from the top of the seed's order (0 the Cuckoo, 1 the Dragoon, ...,
5 the 12, ..., 16 the 1, 17 the Fool, 18 the Pot, 19 the Owl, 20 the 0). How high a card
ranks depends on the game's low-card order (:data:`ORDERS`, a named option): :func:`rank`
gives 20 for the top card and 0 for the lowest. A card's name is English source text from
the data file, translated where it is shown.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

from tutor import ROOT
from tutor.text import Text

DECK_FILE = ROOT / "content" / "gnav_deck.toml"
SEED_ORDER, FOOL_LOWEST = "seed", "fool_lowest"
#: The low-card orders the game offers, the seed's first (the default).
ORDERS = (SEED_ORDER, FOOL_LOWEST)
#: What the holder of a matador does when asked to trade (``refuses`` in the data file).
STOP, CUT_OFF, TRY_NEXT = "stop", "cut_off", "try_next"
FOOL = "fool"


@dataclass(frozen=True)
class Face:
    """One of the 21 faces: its id, its number (number cards only), how it refuses a trade, and its name."""

    id: str
    name: str
    number: int | None = None
    refuses: str | None = None


@dataclass(frozen=True)
class GnavCard:
    """One card: its id and face."""

    id: int
    face: Face
    #: What the card macros (templates/macros/cards.html) draw: a Gnav card.
    kind: ClassVar[str] = "gnav"
    #: Only Kids2 cards have a colour.
    colour: ClassVar[None] = None

    @property
    def name(self) -> str:
        """The card's name as a sentence says it, English source text ("the Cat", "the 7")."""
        return self.face.name

    @property
    def is_number(self) -> bool:
        return self.face.number is not None


@cache
def _data() -> dict:
    with DECK_FILE.open("rb") as handle:
        return tomllib.load(handle)


@cache
def faces() -> tuple[Face, ...]:
    """The 21 faces, from the top of the seed's order."""
    return tuple(
        Face(entry["id"], entry["name"], entry.get("number"), entry.get("refuses")) for entry in _data()["faces"]
    )


def face_count() -> int:
    return len(faces())


@cache
def deck() -> tuple[int, ...]:
    """Every card id, in id order."""
    return tuple(range(face_count() * _data()["copies"]))


def card(card_id: int) -> GnavCard:
    """The card with this id; raises ValueError for an id the deck does not have."""
    if isinstance(card_id, bool) or not isinstance(card_id, int) or card_id not in range(len(deck())):
        raise ValueError(f"not a Gnav card id: {card_id!r}")
    return GnavCard(card_id, faces()[card_id % face_count()])


def face_of(card_id: int) -> str:
    """The face's id: "cuckoo", "cat", "7", "0", ..."""
    return card(card_id).face.id


def card_name(card_id: int) -> Text:
    """The card as a sentence names it, to be translated where shown ("the Cat", "the 7")."""
    return Text(card(card_id).name)


@cache
def order(name: str = SEED_ORDER) -> tuple[str, ...]:
    """The face ids of a low-card order, from the top; raises KeyError for an unknown order."""
    return tuple(_data()["orders"][name])


def face_rank(face: str, order_name: str = SEED_ORDER) -> int:
    """How high a face ranks in the order: 20 for the Cuckoo, 0 for the lowest face."""
    faces_from_top = order(order_name)
    return len(faces_from_top) - 1 - faces_from_top.index(face)


def rank(card_id: int, order_name: str = SEED_ORDER) -> int:
    """How high the card ranks in the order: 20 for the Cuckoo, 0 for the lowest card."""
    return face_rank(face_of(card_id), order_name)


def place(card_id: int, order_name: str = SEED_ORDER) -> int:
    """The card's place counted from the top of the order: 1 for the Cuckoo, 21 for the lowest card."""
    return order(order_name).index(face_of(card_id)) + 1


def refusal(card_id: int) -> str | None:
    """What the card's holder does when asked to trade (:data:`STOP`, :data:`CUT_OFF`, :data:`TRY_NEXT`), or None."""
    return card(card_id).face.refuses


def is_fool(card_id: int) -> bool:
    return face_of(card_id) == FOOL


class GnavCards:
    """The Gnav cards as the pages look them up: ``cards[id]``, and no Kids2 colours."""

    colours: tuple = ()

    def __getitem__(self, card_id: int) -> GnavCard:
        return card(card_id)


GNAV_CARDS = GnavCards()
