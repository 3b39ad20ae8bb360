"""The hand model's records: what one seat's hand screen shows and offers for its current
selection. They are built by :func:`bot.interaction.hand.build_hand_model` (pure, from the
seat's view and the engine's legal actions) and laid out by every front end: an inline
keyboard, Discord components, terminal lines, the web page.

A selection is a bit set over the hand *in display order* (bit ``i`` = the ``i``-th card
shown) and the order a function of the hand and the :class:`SortMode`, so a control that
carries (table, version, sort, mask, offer number) means the same move after a restart.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from bot.ports.model import TableInfo
from engine.cards import Card
from engine.views import PlayerView

if TYPE_CHECKING:
    from engine.search import Partition

__all__ = ["Group", "HandModel", "Offer", "SortMode", "Tone", "selected_cards"]

Tone = Literal["go", "stop", "plain"]
"""How a button of an action should look: ``go`` (finishes a step, e.g. meld, ready),
``stop`` (gives something away or declines, e.g. discard, reject), ``plain`` (anything
else)."""


class SortMode(enum.IntEnum):
    """The hand's display order."""

    SUIT = 0
    RANK = 1
    MELDS = 2

    def next(self) -> SortMode:
        """The order the Sort button switches to."""
        return SortMode((self.value + 1) % len(SortMode))


class Group(enum.Enum):
    """Where an offer belongs on the screen: ``MOVE`` needs the selection, ``CONTROL`` does
    not, ``PILE`` picks a card deeper in a spread discard pile."""

    MOVE = "move"
    CONTROL = "control"
    PILE = "pile"


@dataclass(frozen=True, slots=True)
class Offer:
    """One offered move: the engine ``action`` (the seat's own), the hand ``cards`` it puts
    down (empty for a control), its ``group``, and the button's localised ``label`` and
    ``tone``."""

    action: object
    cards: tuple[Card, ...]
    group: Group
    label: str
    tone: Tone


def selected_cards(order: tuple[Card, ...], mask: int) -> tuple[Card, ...]:
    """The cards whose bits are set in ``mask``, in display order."""
    return tuple(card for index, card in enumerate(order) if mask >> index & 1)


@dataclass(frozen=True)
class HandModel:
    """One seat's hand screen.

    ``cards``: the hand in display order; ``mask``: the selection over ``cards``;
    ``phase_line``: what the seat may do now; ``moves``: the offers for exactly this
    selection, ``controls`` / ``pile``: offers that need none; ``hint``: the suggested
    offer and ``hint_mask`` its cards in display order; ``melds``: the best melds when
    sorted melds first; ``complete``: False when the engine gave no legal list in time
    (nothing is offered; typed commands still work); ``digest``: the hand's digest
    (:func:`bot.interaction.hand.hand_digest`) a control drawn for this model carries."""

    info: TableInfo
    view: PlayerView
    sort: SortMode
    cards: tuple[Card, ...]
    mask: int
    phase_line: str
    moves: tuple[Offer, ...]
    controls: tuple[Offer, ...]
    pile: tuple[Offer, ...]
    hint: Offer | None
    hint_mask: int
    melds: Partition | None
    complete: bool = True
    digest: str = ""

    @property
    def selected(self) -> tuple[Card, ...]:
        """The selected cards in display order."""
        return selected_cards(self.cards, self.mask)

    @property
    def offers(self) -> tuple[Offer, ...]:
        """Every offer of this screen: moves, controls, pile, in that order (the numbers
        a control carries)."""
        return (*self.moves, *self.controls, *self.pile)

    @property
    def my_turn(self) -> bool:
        """True when the seat is to move (draw or play)."""
        return self.view.table.current == self.view.seat
