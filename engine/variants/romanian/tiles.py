"""The tiles of Romanian Rummy and what they are worth.

romanian-rummy.de.txt: "Ein Satz für das Spiel besteht aus 106 hölzernen Steinen. 104
davon haben verschiedenfarbige Zahlen. Es gibt vier Farben: rot, gelb, blau und
schwarz, und in jeder Farbe gibt es zwei Steine von jeder Zahl von 1 bis 13. Die
beiden übrigen Steine haben keine Zahl" (the two Jolys, :data:`engine.cards.JOKER`).

Values ("Die Steine haben folgende Punktwerte"): 2 to 9 five points, 10 to 13 ten,
a 1 five in a run 1-2-3, ten in a run ...-12-13-1, 25 in a set of 1s; a Joly is
worth the tile it stands for. Those values depend on where a tile lies; a tile
left on the rack is valued by :func:`rack_value`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from engine.cards import JOKER, TILE_COLOURS, Card, shared_card
from engine.melds import Meld, MeldKind

#: Every tile of the set, in a fixed order: two of each colour and number, two Jolys.
TILE_COUNT = 106


def tile_set() -> list[Card]:
    """The 106 tiles, unshuffled: red 1..13 twice, yellow, blue, black, then two Jolys."""
    tiles = [
        shared_card(number, colour)
        for colour in TILE_COLOURS
        for _ in range(2)
        for number in range(1, 14)
    ]
    tiles.extend((JOKER, JOKER))
    return tiles


def number_value(number: int) -> int:
    """The value of a number that is not a 1: "2 bis 9 jeder Stein 5 Punkte; 10 bis 13
    jeder Stein 10 Punkte"."""
    return 5 if number <= 9 else 10


def most_value(tile: Card) -> int:
    """The most ``tile`` can add to the value of new melds: a 1 25 (in a set of 1s), a
    Joly 25 (it counts as the tile it stands for), 2-9 five, 10-13 ten."""
    if tile.is_joker or tile.rank == 1:
        return 25
    return number_value(tile.rank)


def face_value(meld: Meld, index: int) -> int:
    """The value of position ``index`` of ``meld`` (a Joly counts as the tile it stands for).

    A 1 counts 25 in a set ("Jede 1 in einem Satz von Einsen 25 Punkte"), 5 at the low
    end of a run ("1 in einer Folge von 1-2-3-… 5 Punkte") and 10 after the 13
    ("1 in einer Folge von …-12-13-1 10 Punkte").
    """
    face = meld.cards[index].face
    if face.rank != 1:
        return number_value(face.rank)
    if meld.kind is MeldKind.SET:
        return 25
    return 5 if index == 0 else 10


def meld_value(meld: Meld) -> int:
    """The opening value of a meld: every position at its face value (Jolys included)."""
    return sum(face_value(meld, i) for i in range(len(meld.cards)))


def rack_value(card: Card, one: int, joly: int) -> int:
    """The value of a tile left on a rack: a Joly ``joly`` (25: "– 25 Punkte für einen
    Spieler, der ihn am Ende des Spiels noch auf seinem Ständer hat"), a 1 ``one`` (the
    text gives a 1 only values inside melds; the ``rack_one`` option), else its number's
    value ("Der Punktwert der Steine ist derselbe, wie in der Tabelle für die
    Anfangsmeldung")."""
    if card.is_joker:
        return joly
    if card.rank == 1:
        return one
    return number_value(card.rank)


@functools.cache
def rack_points(one: int) -> Callable[[Card], int]:
    """:func:`rack_value` with a Joly at 25 and a 1 at ``one``, one shared function per
    value: the best-partition search caches its card values per function
    (:func:`engine.search.best_partition`), and a new one each call would miss."""
    return functools.partial(rack_value, one=one, joly=25)
