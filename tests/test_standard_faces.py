"""The standard deck's faces (templates/macros/standard_cards.html) as the card macros draw and name them."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from flask import render_template_string

import tutor.web.i18n
from tutor import standard_deck
from tutor.web import assets

SVG = "{http://www.w3.org/2000/svg}"
RED, BLACK, WHITE = "#c62828", "#1a1a1a", "#ffffff"
ALL_CARDS = [standard_deck.card(card_id) for card_id in range(standard_deck.COPY_SIZE)]


def macros(app):
    return app.jinja_env.get_template("macros/cards.html").module


def drawn(app, card, highlight="") -> ET.Element:
    """The card's SVG as card_svg draws it, parsed (a parse error fails the test)."""
    text = str(macros(app).card_svg(card, {}, highlight))
    return ET.fromstring(text.replace("<svg ", f'<svg xmlns="{SVG[1:-1]}" ', 1))


def suit_shapes(svg: ET.Element) -> list[ET.Element]:
    """The suit shapes in the corner and on the face (not the white emblem on a figure's chest)."""
    return [path for path in svg.iter(f"{SVG}path") if path.get("class") == "suit"]


def rank_text(svg: ET.Element) -> str | None:
    ranks = [text for text in svg.iter(f"{SVG}text") if text.get("class") == "rank"]
    return ranks[0].text if ranks else None


def luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.fixture
def request_context(app):
    with app.test_request_context(headers={"Accept-Language": "en"}):
        yield


@pytest.mark.usefixtures("request_context")
@pytest.mark.parametrize("card", ALL_CARDS, ids=lambda card: card.code + str(card.id))
def test_every_card_is_well_formed_svg_in_the_card_frame(app, card):
    svg = drawn(app, card)
    assert svg.tag == f"{SVG}svg" and svg.get("viewBox") == "0 0 120 168" and svg.get("class") == "card"
    assert svg.get("aria-hidden") == "true" and svg.get("focusable") == "false"
    assert not svg.findall(f".//{SVG}image") and "font-face" not in ET.tostring(svg, encoding="unicode")


@pytest.mark.usefixtures("request_context")
@pytest.mark.parametrize("card", ALL_CARDS, ids=lambda card: card.code + str(card.id))
def test_every_card_shows_its_rank_and_its_suit_in_the_suits_colour(app, card):
    svg = drawn(app, card)
    shapes = suit_shapes(svg)
    if card.is_joker:
        assert rank_text(svg) is None and not shapes
        assert len([c for c in svg.iter(f"{SVG}circle") if c.get("class") == "bell"]) == 3  # the jester's hat
        assert not [t for t in svg.iter(f"{SVG}text")]  # no word, no letter
        return
    colour = RED if card.is_red else BLACK
    assert rank_text(svg) == card.rank_text
    assert [t.get("fill") for t in svg.iter(f"{SVG}text")] == [colour]
    assert {shape.get("fill") for shape in shapes} == {colour}
    if card.rank <= 10:
        assert len(shapes) == 1 + card.rank  # the corner's suit and one pip per point
    elif card.rank == standard_deck.ACE:
        assert len(shapes) == 2
    else:
        figure = {standard_deck.KING: "crown", standard_deck.QUEEN: "tiara", standard_deck.JACK: "cap"}[card.rank]
        assert [p.get("class") for p in svg.iter(f"{SVG}path") if p.get("class") in ("crown", "tiara", "cap")] == [
            figure
        ]


def test_the_suits_differ_in_shape_not_only_in_colour_and_use_no_font_glyphs(app, request_context):
    shapes = {
        suit: suit_shapes(drawn(app, standard_deck.card(standard_deck.card_id(standard_deck.ACE, suit))))[0].get("d")
        for suit in "CDHS"
    }
    assert len(set(shapes.values())) == 4
    everything = "".join(str(macros(app).card_svg(card, {})) for card in ALL_CARDS)
    assert not re.search("[♠♣♥♦♤♧♡♢]", everything)


def test_red_and_black_reach_wcag_aa_against_the_white_card(app, request_context):
    fills = {drawn(app, card).find(f".//{SVG}text").get("fill") for card in ALL_CARDS if not card.is_joker}
    assert fills == {RED, BLACK}
    assert all(contrast(fill, WHITE) >= 4.5 for fill in fills)


def test_each_card_is_named_in_english_and_every_name_is_its_own(app, request_context):
    names = {card.code: str(macros(app).card_label(card, {})) for card in ALL_CARDS}
    assert (names["QH"], names["10S"], names["AC"], names["2D"], names["JC"], names["KD"]) == (
        "queen of hearts",
        "10 of spades",
        "ace of clubs",
        "2 of diamonds",
        "jack of clubs",
        "king of diamonds",
    )
    assert names["joker"] == "joker"
    assert len(set(names.values())) == 53  # 52 cards and the joker (both jokers are called so)


def test_a_card_figure_gives_the_name_to_screen_readers(app, request_context):
    page = render_template_string(
        '{% from "macros/cards.html" import card_figure %}{{ card_figure(card, {}) }}',
        card=standard_deck.card(standard_deck.card_id(12, "H")),
    )
    assert 'role="img" aria-label="queen of hearts"' in page and "<svg" in page


class Reordered:
    """A catalogue that names a card suit first, as Norwegian does ("hjerter dame")."""

    WORDS = {"queen": "dame", "hearts": "hjerter", "%(rank)s of %(suit)s": "%(suit)s %(rank)s"}

    def ugettext(self, message):
        return self.WORDS.get(message, message)

    def upgettext(self, context, message):
        return self.WORDS.get(message, message)


def test_translators_can_reorder_the_name_and_the_drawing_holds_no_translated_word(app, request_context, monkeypatch):
    queen = standard_deck.card(standard_deck.card_id(12, "H"))
    english_drawing = str(macros(app).card_svg(queen, {}))
    monkeypatch.setattr(tutor.web.i18n, "translations", Reordered)
    assert str(macros(app).card_label(queen, {})) == "hjerter dame"
    assert str(macros(app).card_svg(queen, {})) == english_drawing  # one cached drawing serves every language


def test_the_face_down_card_still_draws_its_back(app, request_context):
    svg = drawn(app, None)
    assert svg.get("viewBox") == "0 0 120 168" and svg.find(f"{SVG}rect").get("fill") == "#25406b"
    assert str(macros(app).card_label(None, {})) == "a card lying face down"


def test_a_highlight_marks_a_standard_card_as_it_marks_a_kids2_card(app, request_context):
    assert drawn(app, ALL_CARDS[0], "hand").get("class") == "card card-focus-hand"


def test_card_drawing_draws_a_standard_card_once_and_every_copy_of_the_deck_shares_it(app, request_context):
    drawings = app.extensions["card_drawings"]
    ace_of_hearts = standard_deck.card_id(standard_deck.ACE, "H")
    first = assets.card_drawing(standard_deck.card(ace_of_hearts), {})
    assert len(drawings) == 1 and "<svg" in first
    again = assets.card_drawing(standard_deck.card(ace_of_hearts + standard_deck.COPY_SIZE * 3), {})
    assert again is first and len(drawings) == 1
    drawings[next(iter(drawings))] = "kept"  # what is kept is what is given back
    assert assets.card_drawing(standard_deck.card(ace_of_hearts), {}) == "kept"
    assert assets.card_drawing(standard_deck.card(ace_of_hearts), {}, "hand") != "kept"
    assert assets.card_drawing(standard_deck.card(ace_of_hearts + 1 - 13), {}) != "kept"  # the king of diamonds
    assert len(drawings) == 3
