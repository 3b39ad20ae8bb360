"""The shared turn flow as a variant base class: :class:`SharedFlow`.

A variant that plays the shared moves (:mod:`engine.moves`), lists the shared legal
actions (:mod:`engine.legal`) and deals one card at a time (:mod:`engine.dealing`)
subclasses :class:`SharedFlow` and overrides only what differs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.actions import Action
from engine.cards import Card
from engine.dealing import deal_from_deck, shuffled_deal
from engine.legal import standard_legal_actions
from engine.moves import BASE_HANDLERS
from engine.options import RuleSet
from engine.state import DealSpec, GameState
from engine.variant import Apply, Variant, Verify


class SharedFlow(Variant):
    """A :class:`engine.variant.Variant` with the shared moves, legal actions and deal."""

    def handlers(self) -> Mapping[type, tuple[Verify, Apply]]:
        """The shared table :data:`engine.moves.BASE_HANDLERS`."""
        return BASE_HANDLERS

    def legal_actions(self, state: GameState, seat: int) -> list[Action]:
        """:func:`engine.legal.standard_legal_actions`."""
        return standard_legal_actions(state, seat)

    def deal(self, rules: RuleSet, seats: int, dealer: int, seed: int,
             deal_number: int) -> DealSpec:
        """Shuffle the deck and deal it one card at a time
        (:func:`engine.dealing.shuffled_deal`)."""
        return shuffled_deal(rules, seats, dealer, seed, deal_number)

    def deal_from_deck(self, rules: RuleSet, seats: int, dealer: int,
                       deck: Sequence[Card]) -> DealSpec:
        """:func:`engine.dealing.deal_from_deck`."""
        return deal_from_deck(rules, seats, dealer, deck)
