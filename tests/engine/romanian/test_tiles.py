"""Tiles: notation, the set, values (romanian-rummy.de.txt)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import (
    CARD_SUITS,
    JOKER,
    TILE_COLOURS,
    Card,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
    standard_deck,
)
from engine.errors import CardParseError
from engine.melds import CardSpec
from engine.variants.romanian.tiles import rack_value, tile_set


@pytest.mark.parametrize(
    ("text", "tile"),
    [
        ("r7", Card(7, Suit.RED)),
        ("y13", Card(13, Suit.YELLOW)),
        ("b1", Card(1, Suit.BLUE)),
        ("k5", Card(5, Suit.BLACK)),
        ("R10", Card(10, Suit.RED)),
        ("rot7", Card(7, Suit.RED)),
        ("red7", Card(7, Suit.RED)),
        ("gelb12", Card(12, Suit.YELLOW)),
        ("yellow12", Card(12, Suit.YELLOW)),
        ("blau3", Card(3, Suit.BLUE)),
        ("blue3", Card(3, Suit.BLUE)),
        ("schwarz11", Card(11, Suit.BLACK)),
        ("black11", Card(11, Suit.BLACK)),
        ("🔴4", Card(4, Suit.RED)),
        ("jo", JOKER),
        ("Joly", JOKER),
    ],
)
def test_tile_notation(text: str, tile: Card) -> None:
    """Tiles are written colour first (k = black), colour words in German and English."""
    assert parse_card(text) == tile


@pytest.mark.parametrize("text", ["r14", "r0", "r07", "x7", "rot", "7r", "gruen5", "k"])
def test_bad_tile_names_raise(text: str) -> None:
    with pytest.raises(CardParseError):
        parse_card(text)


def test_cards_keep_their_notation() -> None:
    """The card notation is unchanged: a card ends with its suit, a tile with a number."""
    assert parse_card("bs") == Card(11, Suit.SPADES)
    assert parse_card("kh") == Card(13, Suit.HEARTS)
    assert [c.suit for c in standard_deck()[::13]] == list(CARD_SUITS)
    assert len(standard_deck(2, 2)) == 106
    assert all(not c.suit.is_colour for c in standard_deck() if c.suit is not None)


def test_tile_text_and_display() -> None:
    assert str(Card(7, Suit.RED)) == "r7"
    assert Card(13, Suit.BLACK).pretty() == "⚫13"
    assert str(CardSpec.parse("jo=b11")) == "jk=b11"
    assert CardSpec.parse("jo=12").face == Card(12, None)


@given(st.lists(st.sampled_from(tile_set()), max_size=20))
def test_tile_notation_round_trip(tiles: list[Card]) -> None:
    assert list(parse_cards(format_cards(tiles))) == tiles


def test_the_set_has_106_tiles() -> None:
    """ "Ein Satz für das Spiel besteht aus 106 hölzernen Steinen. ... Es gibt vier Farben:
    rot, gelb, blau und schwarz, und in jeder Farbe gibt es zwei Steine von jeder Zahl von
    1 bis 13. Die beiden übrigen Steine haben keine Zahl\""""
    tiles = tile_set()
    counts = Counter(tiles)
    assert len(tiles) == 106
    assert counts[JOKER] == 2
    assert all(counts[Card(n, c)] == 2 for c in TILE_COLOURS for n in range(1, 14))


def test_rack_values() -> None:
    """ "2 bis 9 jeder Stein 5 Punkte; 10 bis 13 jeder Stein 10 Punkte"; a Joly on the rack
    -25; a 1 on the rack the ``rack_one`` value."""
    assert rack_value(Card(2, Suit.RED), 25, 25) == 5
    assert rack_value(Card(9, Suit.RED), 25, 25) == 5
    assert rack_value(Card(10, Suit.RED), 25, 25) == 10
    assert rack_value(Card(13, Suit.RED), 25, 25) == 10
    assert rack_value(Card(1, Suit.RED), 25, 25) == 25
    assert rack_value(Card(1, Suit.RED), 10, 25) == 10
    assert rack_value(JOKER, 25, 25) == 25
