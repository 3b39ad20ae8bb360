"""Card and tile codes of every language (engine/cards.py ``NOTATIONS``): each code reads
back as its card, German and English codes of one card read as the same card, and no code
of one language means another card in the other (issue 37: "Every card and tile typed in
German notation is parsed to the same card as its English code")."""

from __future__ import annotations

import pytest

from engine.cards import (
    CARD_SUITS,
    JOKER,
    NOTATIONS,
    TILE_COLOURS,
    Card,
    card_code,
    parse_card,
    parse_face,
)
from engine.errors import CardParseError
from engine.melds import CardSpec

CARDS = [Card(rank, suit) for suit in CARD_SUITS for rank in range(1, 14)]
TILES = [Card(number, colour) for colour in TILE_COLOURS for number in range(1, 14)]


@pytest.mark.parametrize("piece", [*CARDS, *TILES], ids=str)
def test_every_code_reads_back_as_its_card(piece: Card) -> None:
    tiles = piece in TILES
    english = card_code(piece, "en", tiles)
    german = card_code(piece, "de", tiles)
    assert english == str(piece)  # the records' code
    for code in (english, german, german.upper(), german.capitalize()):
        assert parse_card(code) == piece, code
    # the screen's display form (suit symbol) reads back too
    assert parse_card(piece.pretty()) == piece


def test_no_code_means_two_cards() -> None:
    """One table of every code of every language: a code that two languages give two
    different cards would show up as a clash."""
    seen: dict[str, Card] = {}
    for language in NOTATIONS:
        for piece in [*CARDS, *TILES]:
            code = card_code(piece, language, piece in TILES)
            assert seen.setdefault(code, piece) == piece, (language, code)
    assert len(seen) == len(set(seen))
    # every code of the table is read as exactly the card it names
    assert all(parse_card(code) == piece for code, piece in seen.items())


def test_german_codes_are_the_german_names() -> None:
    """German ranks Bube, Dame, König, Ass; suits Kreuz, Karo, Herz, Pik; colours rot, gelb,
    blau, schwarz (romanian-rummy.de.txt: "Es gibt vier Farben: rot, gelb, blau und
    schwarz")."""
    assert [card_code(parse_card(c), "de") for c in ("jc", "qd", "kh", "as", "10h")] == [
        "bkr",
        "dka",
        "khe",
        "api",
        "10he",
    ]
    assert [card_code(parse_card(t), "de", tiles=True) for t in ("r7", "y11", "b1", "k13")] == [
        "r7",
        "g11",
        "b1",
        "s13",
    ]
    assert card_code(JOKER, "de") == "jk" and card_code(JOKER, "de", tiles=True) == "jo"


def test_jokers_and_declared_faces_in_both_notations() -> None:
    for word in ("jk", "jo", "joker", "joly", "JK", "🃏"):
        assert parse_card(word) == JOKER
    assert CardSpec.parse("jk=dhe") == CardSpec.parse("jk=qh")
    assert CardSpec.parse("jk=d") == CardSpec.parse("jk=q") == CardSpec(JOKER, Card(12, None))
    assert CardSpec.parse("jo=g8") == CardSpec.parse("jo=y8")
    assert parse_face("b") == parse_face("j") == Card(11, None)
    assert card_code(Card(12, None), "de") == "d" and card_code(Card(12, None), "en") == "q"
    assert card_code(Card(12, None), "de", tiles=True) == "12"


@pytest.mark.parametrize("text", ["kr", "he", "11he", "xhe", "dx", "g14", "s0", "gg7", "p7"])
def test_what_is_no_code_is_refused(text: str) -> None:
    with pytest.raises(CardParseError):
        parse_card(text)
