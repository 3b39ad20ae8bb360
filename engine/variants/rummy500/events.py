"""Public events of Rummy 500's own moves (the discard pile is spread, so every card
named here was face up).

They are not members of the shared :data:`engine.events.Event` union; :func:`as_events`
passes them through the shared move signature, and ``bot/render/variants/rummy500.py``
writes their text.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from engine.cards import Card
from engine.events import Event
from engine.melds import Meld
from engine.record_class import record


@record
class PileTaken:
    """``seat`` took ``cards`` (bottom first) from the discard pile, down to ``card``,
    which it must play this turn."""

    seat: int
    card: Card
    cards: tuple[Card, ...]


@record
class RummyCalled:
    """``seat`` called "Rommé!" on ``discarder``'s discard and took ``cards`` (bottom
    first) down to ``card``. With ``calling=last_layoff`` the card went straight onto
    meld ``index`` (0-based), which now reads ``meld``; else ``index`` and ``meld`` are
    ``None`` and the caller plays a turn of their own."""

    seat: int
    discarder: int
    card: Card
    cards: tuple[Card, ...]
    index: int | None = None
    meld: Meld | None = None


@record
class Floated:
    """``seat`` melded its last card and floats: it has no cards and plays on next turn
    (rummy-500.de.txt: "Schweben")."""

    seat: int


def as_events(items: Iterable[object]) -> tuple[Event, ...]:
    """The shared and variant events of a move, typed as the shared move result."""
    return cast("tuple[Event, ...]", tuple(items))
