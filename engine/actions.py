"""Actions: frozen records of what a seat does. Their text form is in :mod:`engine.commands`."""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import Card
from engine.melds import CardSpec
from engine.record_class import record


@record
class Draw:
    """Draw the top card of the stock (``draw``)."""

    seat: int


@record
class TakeDiscard:
    """Take the upcard (``take``), or, where a variant allows it, the named ``card`` from
    deeper in the discard pile together with every card above it (``take 7h``)."""

    seat: int
    card: Card | None = None


@record
class MeldCards:
    """Put one or more new melds on the table (``meld 7h 8h 9h`` or ``meld 7h 8h 9h | 2c 2d 2s``).

    ``groups`` holds one tuple of card specs per new meld. Several groups in one
    action are how a whole hand goes down at once (Wrotham deals 4-6).
    """

    seat: int
    groups: tuple[tuple[CardSpec, ...], ...]


@record
class LayOff:
    """Add cards from the hand to meld number ``meld`` (0-based) on the table (``layoff 10h 3``)."""

    seat: int
    cards: tuple[CardSpec, ...]
    meld: int


@record
class SwapJoker:
    """Exchange the natural ``card`` in hand for the joker in meld ``meld`` (``swap 8h 3``)."""

    seat: int
    card: Card
    meld: int


@record
class Discard:
    """Discard ``card`` onto the discard pile, ending the turn (``discard ks``)."""

    seat: int
    card: Card


@record
class NextDeal:
    """After a hand is scored, deal the next one (``next``); any seat may do it."""

    seat: int


Action = Draw | TakeDiscard | MeldCards | LayOff | SwapJoker | Discard | NextDeal

_DISCARDS: dict[int, Discard] = {}


def discards(seat: int, cards: Iterable[Card], skip: Card | None = None) -> list[Action]:
    """The :class:`Discard` of ``seat`` for each card of ``cards`` but ``skip`` (the card
    taken this turn, where a rule forbids discarding it), in the order given. The records
    are shared, one per (seat, card): they are immutable, and a move list makes one per
    distinct card of the hand on every play-phase call (building them cost half the time
    of a German discard list)."""
    table = _DISCARDS
    skipped = -1 if skip is None else skip._hash
    out: list[Action] = []
    for card in cards:
        code = card._hash  # rank << 4 | suit code, < 512
        if code == skipped:
            continue
        found = table.get(seat << 9 | code)
        if found is None:
            found = table[seat << 9 | code] = Discard(seat, card)
        out.append(found)
    return out
