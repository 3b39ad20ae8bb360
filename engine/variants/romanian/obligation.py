"""The meld owed this turn (:class:`engine.variants.romanian.state.Obligation`): which
melds pay it. One definition for the move checks (:mod:`.moves`) and the going-out
planner (:mod:`.plan`), so a plan never proposes what the moves refuse.

romanian-rummy.de.txt:

- a tile taken from deeper in the discard row: "Wenn man zwei Steine auf seinem Ständer
  hat, mit denen man einen Satz oder eine Folge mit irgendeinem Stein der abgelegten
  Steine vervollständigen kann, darf man diesen Stein aufnehmen und die Meldung machen";
- a freed Joly: "Hat man genau den Stein, den ein Joly ... ersetzt, darf man den Joly
  nehmen und durch diesen Stein ersetzen, vorausgesetzt, man gebraucht ihn sofort mit
  zwei Steinen vom eigenen Ständer";
- the previous discard taken for the opening (variation ``opening_take``): it goes into
  the opening at once.

Until the owed meld is down nothing else may happen: no lay-off, no Joly exchange, no
discard (:class:`engine.variants.romanian.errors.ObligationPending`).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence

from engine.cards import Card, Suit
from engine.melds import Meld, MeldKind
from engine.variants.romanian.state import Obligation


def pays(obligation: Obligation, meld: Meld) -> bool:
    """True when the new ``meld`` holds the owed tile with at least two more tiles (for a
    row tile: at least two that were on the rack before the take; tiles taken with it may
    join the meld too)."""
    first = meld.cards[0].face
    return pays_with(
        obligation, meld.kind is MeldKind.RUN, first.suit, first.rank, [p.card for p in meld.cards]
    )


def pays_with(
    obligation: Obligation, run: bool, colour: Suit | None, number: int, cards: Sequence[Card]
) -> bool:
    """:func:`pays` for a new meld given by its tiles (``cards``, Jolys as Jolys): a run
    (``run``) of ``colour`` or a set of ``number``."""
    tile = obligation.tile
    rank, suit = tile.rank, tile.suit
    # attributes compared, not cards: legal-move lists ask this of thousands of melds
    if not tile.is_joker and (colour is not suit if run else number != rank):
        return False
    if len(cards) < 3 or not any(c.rank == rank and c.suit is suit for c in cards):
        return False
    return obligation.kind != "row" or from_the_rack(obligation, cards) >= 2


def from_the_rack(obligation: Obligation, cards: Sequence[Card]) -> int:
    """How many of ``cards`` (a meld holding the tile owed) count as tiles that were on the
    rack before the take, up to two: the owed tile itself once does not, and a tile counts
    only as often as the rack held it."""
    before = _counts(obligation.rack)
    tile = obligation.tile
    seen: dict[Card, int] = {}
    skipped = False
    found = 0
    for card in cards:
        if card == tile and not skipped:
            skipped = True
            continue
        n = seen.get(card, 0) + 1
        seen[card] = n
        if n <= before.get(card, 0):
            found += 1
            if found == 2:
                break
    return found


# The rack before the take is the same for every meld a turn's legal moves ask about.
@functools.lru_cache(maxsize=8)
def _counts(rack: tuple[Card, ...]) -> dict[Card, int]:
    return dict(Counter(rack))


def paid_by(obligation: Obligation, melds: Sequence[Meld]) -> bool:
    """True when one of the new ``melds`` (one meld action) pays ``obligation``."""
    return any(pays(obligation, meld) for meld in melds)
