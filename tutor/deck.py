"""The Kids2 maths deck: card anatomy, the rule that generates it, and loading.

The commercial getsmart Kids2 deck is not ours, so the tutor ships its own deck with
the same anatomy (see ``content/kids2_deck.toml``). The card list in that file is the
output of :func:`generate` applied to the file's own ``[rule]`` table; a test checks
that they agree, so the data can be read by a teacher and the rule cannot drift.
Regenerate with ``python -m tutor.deck``.
"""

from __future__ import annotations

import random
import tomllib
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

from tutor import ROOT

DECK_FILE = ROOT / "content" / "kids2_deck.toml"
NUMBER, BANANA, KOCHA = "number", "banana", "kocha"
KOCHA_INSTRUCTIONS = ("skip", "reverse", "draw_two")


@dataclass(frozen=True)
class Card:
    """One card: a number card has a colour, a top number and four circled values."""

    id: int
    kind: str
    colour: str | None = None
    top: int | None = None
    circled: tuple[int, ...] = ()
    instruction: str | None = None

    @property
    def is_special(self) -> bool:
        return self.kind != NUMBER

    @property
    def circled_sum(self) -> int:
        return sum(self.circled)

    def to_dict(self) -> dict:
        data = {"id": self.id, "kind": self.kind}
        if self.kind == NUMBER:
            data.update(colour=self.colour, top=self.top, circled=list(self.circled))
        if self.instruction:
            data["instruction"] = self.instruction
        return data


@dataclass(frozen=True)
class Colour:
    id: str
    name: str  # English source text, translated where shown
    fill: str
    symbol: str  # a shape, so colour is never the only cue


@dataclass(frozen=True)
class Deck:
    colours: tuple[Colour, ...]
    cards: tuple[Card, ...]

    def __getitem__(self, card_id: int) -> Card:
        return self.cards[card_id]

    def __len__(self) -> int:
        return len(self.cards)

    @cached_property
    def number_card_ids(self) -> tuple[int, ...]:
        return tuple(card.id for card in self.cards if card.kind == NUMBER)

    def colour(self, colour_id: str) -> Colour:
        return next(c for c in self.colours if c.id == colour_id)


def two_digit_products(low: int, high: int) -> list[int]:
    """Products a*b of top numbers (low..high) that are two-digit numbers."""
    return sorted({a * b for a in range(low, high + 1) for b in range(low, high + 1) if 10 <= a * b <= 99})


def circled_values(rule: dict, colour: str, top: int, copy: int) -> tuple[int, ...]:
    """The four circled values of one number card, from a generator seeded by the card's name.

    ``rule["product_values"]`` of them are distinct two-digit products of two top
    numbers (so MultiMatch product plays happen); the rest are distinct two-digit
    numbers drawn uniformly. The order is shuffled so products are not always first.
    """
    rng = random.Random(f"{rule['seed']}:{colour}:{top}:{copy}")
    products = two_digit_products(rule["product_factor_min"], rule["top_max"])
    values = rng.sample(products, rule["product_values"])
    while len(values) < rule["circled_per_card"]:
        candidate = rng.randint(rule["value_min"], rule["value_max"])
        if candidate not in values:
            values.append(candidate)
    rng.shuffle(values)
    return tuple(values)


def generate(rule: dict, colour_ids: list[str]) -> list[Card]:
    """Every card of the deck, in id order: number cards, then banana, then Kocha cards."""
    cards: list[Card] = []
    for colour in colour_ids:
        for top in range(rule["top_min"], rule["top_max"] + 1):
            for copy in range(1, rule["copies"] + 1):
                cards.append(Card(len(cards), NUMBER, colour, top, circled_values(rule, colour, top, copy)))
    for _ in range(rule["banana_cards"]):
        cards.append(Card(len(cards), BANANA))
    for instruction in rule["kocha_cards"]:
        cards.append(Card(len(cards), KOCHA, instruction=instruction))
    return cards


def card_from_dict(data: dict) -> Card:
    return Card(
        id=data["id"],
        kind=data["kind"],
        colour=data.get("colour"),
        top=data.get("top"),
        circled=tuple(data.get("circled", ())),
        instruction=data.get("instruction"),
    )


def read_deck_file(path: Path = DECK_FILE) -> dict:
    with open(path, "rb") as handle:
        return tomllib.load(handle)


@cache
def kids2() -> Deck:
    """The Kids2 deck as stored in ``content/kids2_deck.toml``."""
    data = read_deck_file()
    colours = tuple(Colour(c["id"], c["name"], c["fill"], c["symbol"]) for c in data["colours"])
    return Deck(colours, tuple(card_from_dict(c) for c in data["deck"]["cards"]))


def _card_line(card: Card) -> str:
    fields = [f"id = {card.id}", f'kind = "{card.kind}"']
    if card.kind == NUMBER:
        fields += [f'colour = "{card.colour}"', f"top = {card.top}", f"circled = {list(card.circled)}"]
    if card.instruction:
        fields.append(f'instruction = "{card.instruction}"')
    return "  { " + ", ".join(fields) + " },"


def rewrite_card_list(path: Path = DECK_FILE) -> None:
    """Replace the card list in the deck file with the output of the file's rule."""
    text = path.read_text(encoding="utf-8")
    head = text.split("\n[deck]\n", 1)[0] + "\n"
    data = tomllib.loads(text)
    cards = generate(data["rule"], [c["id"] for c in data["colours"]])
    body = "\n".join(_card_line(card) for card in cards)
    path.write_text(f"{head}[deck]\ncards = [\n{body}\n]\n", encoding="utf-8")


if __name__ == "__main__":
    rewrite_card_list()
