"""The wall: how the tiles are dealt and in which order they are drawn.

romanian-rummy.de.txt, "Spielvorbereitung und die Zuteilung der Steine":

- "eine Mauer von 15 Stapeln von je sieben Steinen ... (ein Stein bleibt dabei
  übrig)": the shuffled tiles, front first, are stacks 1..15 (seven each, top
  tile first); the 106th tile is the extra tile.
- "Der Geber dreht den Extrastein um und zählt die Zahl auf dem Stein von einem
  Ende der Mauer. Von dem Stapel, der durch den Extrastein bestimmt wurde, nimmt
  er den obersten Stein und ersetzt ihn durch den offenen Extrastein, der neue
  Extrastein wird verdeckt auf den nächsten Stapel gelegt, der dadurch 8 Steine
  hoch ist.": stack N (N = the extra tile's number) gets the face-up tile on top;
  its old top tile goes on top of stack N+1.
- "Der Spieler rechts vom Geber bekommt den Stapel mit dem Extrastein, und der
  Geber gibt gegen den Uhrzeigersinn jedem Spieler einen der folgenden Stapel ...
  bis jeder Spieler zwei Stapel bekommen hat. Wenn das rechte Ende der Mauer
  erreicht ist, macht er von der linken Seite der Mauer weiter.": stacks N+1,
  N+2, ... (after 15 comes 1) go one at a time to the players in play order,
  starting with the player right of the dealer, twice round; that player has
  15 tiles, the others 14. Play runs in seat order (the text's counterclockwise
  order), so "right of the dealer" is the next seat after the dealer.
- "Der erste Stapel, von dem ein Stein gezogen wird, ist der nächste Stapel, der
  bei einem weiteren Geben an der Reihe gewesen wäre" and "danach von dem anderen
  Teil ... in Richtung des Stapels mit dem aufgedeckten Stein": the draw order
  is the following stacks, top tile first, wrapping round, up to stack N.
- "Der aufgedeckte Stein wird nie gezogen. Wenn alle anderen Stapel verbraucht
  sind, wird der aufgedeckte Stein von seinem Stapel weggenommen, so dass die
  sechs Steine, die sich unter ihm befinden, gezogen werden können.": the six
  tiles under the face-up tile are drawn last; the face-up tile stays aside.

A Joly as the extra tile has no number to count; the text does not say what
happens then, so the tiles are mixed again (a new shuffle of the same deal).

The result is a :class:`engine.dealing.DealSpec`: ``hands``, ``upcard`` ``None``
(the first player starts by discarding), ``stock`` = the draw order and
``extra`` = the face-up tile.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card, shuffled
from engine.dealing import DealKey, DealSpec, deal_rng
from engine.errors import RuleOptionError
from engine.variants.romanian.tiles import TILE_COUNT, tile_set

STACKS = 15
STACK_HEIGHT = 7


def wall_deal(deck: Sequence[Card], seats: int, dealer: int) -> DealSpec:
    """Build the wall from ``deck`` (106 tiles, front first) and deal it; ``dealer`` deals.

    Raises ``RuleOptionError`` when ``deck`` is not 106 tiles or its last tile (the
    extra tile) is a Joly.
    """
    if len(deck) != TILE_COUNT:
        raise RuleOptionError(
            detail=f"the wall needs {TILE_COUNT} tiles, not {len(deck)}",
            option="deck",
            value=str(len(deck)),
            accepts=str(TILE_COUNT),
        )
    extra = deck[-1]
    if extra.is_joker:
        raise RuleOptionError(
            detail="the extra tile (the last tile of the deck) is a Joly: "
            "it has no number to count the wall with",
            option="deck",
            value=str(extra),
            accepts="a numbered tile",
        )
    stacks = [list(deck[k * STACK_HEIGHT : (k + 1) * STACK_HEIGHT]) for k in range(STACKS)]
    marked = extra.rank - 1
    moved = stacks[marked][0]
    stacks[marked][0] = extra
    stacks[(marked + 1) % STACKS].insert(0, moved)
    order = [(dealer + 1 + j) % seats for j in range(seats)]
    hands: list[list[Card]] = [[] for _ in range(seats)]
    index = marked + 1
    for _ in range(2):
        for seat in order:
            hands[seat].extend(stacks[index % STACKS])
            index += 1
    stock: list[Card] = []
    while index % STACKS != marked:
        stock.extend(stacks[index % STACKS])
        index += 1
    stock.extend(stacks[marked][1:])
    return DealSpec(tuple(tuple(h) for h in hands), None, tuple(stock), extra)


def shuffled_wall(seats: int, dealer: int, seed: DealKey, deal_number: int) -> DealSpec:
    """Mix the tiles with the deal's random source and deal the wall
    (:func:`wall_deck`, :func:`wall_deal`)."""
    return wall_deal(wall_deck(seed, deal_number), seats, dealer)


def wall_deck(seed: DealKey, deal_number: int) -> list[Card]:
    """The tiles in the order the wall is built from (:func:`wall_deal`): mixed with
    ``deal_rng(seed, deal_number)``; a Joly as the extra tile (the last) mixes again
    (``deal_rng(seed, deal_number, "wall1")``, ``"wall2"``, ...)."""
    rng = deal_rng(seed, deal_number)
    attempt = 0
    while True:
        deck = shuffled(tile_set(), rng)
        if not deck[-1].is_joker:
            return deck
        attempt += 1
        rng = deal_rng(seed, deal_number, f"wall{attempt}")
