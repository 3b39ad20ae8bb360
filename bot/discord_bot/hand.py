"""The state of one ephemeral hand message, carried in its custom ids.

Why in the custom ids and not in memory: a card select tells the bot only its own
values, and the buttons tell nothing; so the selection must be kept somewhere between
clicks. Keeping it in the components themselves (every select change re-draws the
message, which Discord needs as an answer anyway) survives a bot restart, needs no
clean-up of per-user memory, and keeps two hand messages of the same player
independent. It fits: a selection is a bit mask over the hand in the display order of
the hand model (:func:`bot.interaction.hand.order_cards`), in hex (15 cards: 4
characters; 60 tiles: 15).

A :class:`HandState` is valid only for the hand it was drawn for: ``digest``
(:func:`bot.interaction.hand.hand_digest`, 4 hex digits of a hash of the hand) travels
with every control as :attr:`bot.ports.intents.Selection.digest`, and the service
refuses a control drawn for a hand that changed since (answering with the fresh hand)
instead of acting on positions that moved. A state that cannot be read is refused, never
guessed (:meth:`HandState.decode` raises).

Text form: ``<digest><sort><mask>``, e.g. ``3fa221c`` (melds first, cards 2-4 selected).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from bot.interaction.hand import hand_digest
from bot.ports.hand import HandModel, SortMode
from bot.ports.intents import Selection
from engine.cards import Card

__all__ = ["HandState", "hand_digest"]

_STATE = re.compile(r"^([0-9a-f]{4})([012])([0-9a-f]{1,16})$")


@dataclass(frozen=True, slots=True)
class HandState:
    """What a hand message shows beyond the hand: the ``sort`` order and the ``mask`` of
    selected cards in that order, for the hand with ``digest``."""

    digest: str
    sort: SortMode = SortMode.SUIT
    mask: int = 0

    @staticmethod
    def fresh(hand: Iterable[Card], sort: SortMode = SortMode.SUIT) -> HandState:
        """Nothing selected, for ``hand`` in order ``sort``."""
        return HandState(hand_digest(hand), sort)

    @staticmethod
    def of(model: HandModel) -> HandState:
        """The state a hand model shows (its digest, order and selection)."""
        return HandState(model.digest, model.sort, model.mask)

    def encode(self) -> str:
        """The text form (see the module docstring)."""
        return f"{self.digest}{int(self.sort)}{self.mask:x}"

    @staticmethod
    def decode(text: str) -> HandState:
        """Read the text form back; raises ``ValueError`` for anything else."""
        found = _STATE.match(text)
        if found is None:
            raise ValueError(f"not a hand state: {text!r}")
        return HandState(found.group(1), SortMode(int(found.group(2))), int(found.group(3), 16))

    def matches(self, hand: Iterable[Card]) -> bool:
        """True when the state was drawn for exactly these cards."""
        return self.digest == hand_digest(hand)

    def with_mask(self, mask: int) -> HandState:
        """The same hand and order with another selection."""
        return replace(self, mask=mask)

    def selection(self, offer: int | None = None) -> Selection:
        """The service's :class:`~bot.ports.intents.Selection` of this state (the digest
        is checked), with the pressed ``offer`` number, if any."""
        return Selection(self.mask, self.sort, self.digest, offer)
