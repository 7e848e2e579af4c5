"""The standard 52-card deck and its cut-down and doubled forms, for the War family.

A card is a small integer so that engine states stay plain JSON: ``13 * suit + (rank - 2)``
with the suits in the order clubs, diamonds, hearts, spades and the ranks 2 to 14 (the ace
high), the two jokers 52 and 53, and further copies of the deck (Two-deck War, Casino War's
shoe) at ``id + 54 * copy``.
Which cards a game uses is named in ``content/standard_decks.toml`` (``full``, ``jokers``,
``piquet36``, ``piquet32``, ``double``). Suits never decide a War battle; they are kept so a
card can be drawn and named.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import ClassVar

from tutor import ROOT

DECKS_FILE = ROOT / "content" / "standard_decks.toml"
SUIT_LETTERS = ("C", "D", "H", "S")
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
#: How a card's corner writes its suit in a text ("Q♥"), the same in every language.
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RED = frozenset({"D", "H"})
ACE, KING, QUEEN, JACK = 14, 13, 12, 11
#: What the ace counts in a game that ranks it low, below the 2.
ACE_LOW = 1
#: The rank a joker has in the games that rank it: above the ace.
JOKER_RANK = 15
JOKER_IDS = (52, 53)
COPY_SIZE = 54
#: The most copies of the deck a game may use (a casino shoe holds up to eight decks).
MAX_COPIES = 8
RANK_LETTERS = {ACE: "A", KING: "K", QUEEN: "Q", JACK: "J"}
#: How a text writes a joker, which has no rank or suit in its corner.
JOKER_SIGN = "🃏"


@dataclass(frozen=True)
class StandardCard:
    """One card: its id, rank (2-14, 15 for a joker) and suit letter (None for a joker)."""

    id: int
    rank: int
    suit: str | None
    #: What the card macros (templates/macros/cards.html) draw: a standard card, not a Kids2 one.
    kind: ClassVar[str] = "standard"
    #: Kids2 cards have a colour; a standard card's colour is its suit's.
    colour: ClassVar[None] = None

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def is_picture(self) -> bool:
        """Jack, queen or king (Războiul counts them 10)."""
        return self.rank in (JACK, QUEEN, KING)

    @property
    def is_red(self) -> bool:
        return self.suit in RED

    @property
    def code(self) -> str:
        """The card in plain letters, to name it in tests and test ids: "QH", "10S", "AC", "joker"."""
        if self.is_joker:
            return "joker"
        return RANK_LETTERS.get(self.rank, str(self.rank)) + self.suit

    @property
    def rank_text(self) -> str:
        """The rank as printed in the corner: "A", "K", "10", "2" (a joker: "")."""
        return "" if self.is_joker else RANK_LETTERS.get(self.rank, str(self.rank))

    @property
    def corner(self) -> str:
        """The card as a text writes it, rank and suit symbol: "Q♥", "10♠", and "🃏" for a joker."""
        return JOKER_SIGN if self.is_joker else self.rank_text + SUIT_SYMBOLS[self.suit]


def rank_corner(rank: int) -> str:
    """A rank as a text writes it where suits do not count: "Q", "10", "A", and "🃏" for a joker's rank."""
    return JOKER_SIGN if rank == JOKER_RANK else RANK_LETTERS.get(rank, str(rank))


def card(card_id: int) -> StandardCard:
    """The card with this id; raises ValueError for an id no deck has."""
    if isinstance(card_id, bool) or not isinstance(card_id, int) or not 0 <= card_id < MAX_COPIES * COPY_SIZE:
        raise ValueError(f"not a standard card id: {card_id!r}")
    index = card_id % COPY_SIZE
    if index in JOKER_IDS:
        return StandardCard(card_id, JOKER_RANK, None)
    suit, rank = divmod(index, 13)
    return StandardCard(card_id, rank + 2, SUIT_LETTERS[suit])


def rank(card_id: int) -> int:
    return card(card_id).rank


def card_id(rank: int, suit: str, copy: int = 0) -> int:
    """The id of ``rank`` (2-14) of ``suit`` ("C", "D", "H", "S") in deck copy 0 to 7."""
    if not 2 <= rank <= ACE or suit not in SUIT_LETTERS or copy not in range(MAX_COPIES):
        raise ValueError(f"no such card: {rank!r} {suit!r} copy {copy!r}")
    return copy * COPY_SIZE + 13 * SUIT_LETTERS.index(suit) + rank - 2


@lru_cache(maxsize=1)
def deck_specs() -> dict[str, dict]:
    with DECKS_FILE.open("rb") as handle:
        return tomllib.load(handle)["decks"]


@cache
def deck(name: str) -> tuple[int, ...]:
    """The card ids of a named deck, in id order; raises KeyError for an unknown name."""
    spec = deck_specs()[name]
    return copies(spec["copies"], spec["low"], spec["jokers"])


@cache
def copies(count: int, low: int = 2, jokers: int = 0) -> tuple[int, ...]:
    """``count`` copies of the deck from rank ``low`` to the ace with ``jokers`` jokers each, in id order."""
    if count not in range(1, MAX_COPIES + 1) or not 2 <= low <= ACE or jokers not in (0, 1, 2):
        raise ValueError(f"no such deck: {count} copies from {low} with {jokers} jokers")
    ids = []
    for copy in range(count):
        for suit in SUIT_LETTERS:
            ids.extend(card_id(r, suit, copy) for r in range(low, ACE + 1))
        ids.extend(copy * COPY_SIZE + joker for joker in JOKER_IDS[:jokers])
    return tuple(sorted(ids))


class StandardCards:
    """The standard cards as the pages look them up: ``cards[id]``, and no Kids2 colours."""

    colours: tuple = ()

    def __getitem__(self, card_id: int) -> StandardCard:
        return card(card_id)


STANDARD_CARDS = StandardCards()
