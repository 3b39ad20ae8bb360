"""The shared turn flow as a variant base class: :class:`SharedFlow`.

A variant that plays the shared moves (:mod:`engine.moves`), lists the shared legal
actions (:mod:`engine.legal`) and deals one card at a time (:mod:`engine.dealing`)
subclasses :class:`SharedFlow` and overrides only what differs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.actions import Action, Discard, Draw, TakeDiscard
from engine.cards import Card
from engine.dealing import DealKey, deal_from_deck, shuffled_deal
from engine.legal import standard_legal_actions
from engine.moves import BASE_HANDLERS
from engine.options import RuleSet
from engine.state import DealSpec, GameState, Phase
from engine.variant import Apply, Variant, Verify


class SharedFlow(Variant):
    """A :class:`engine.variant.Variant` with the shared moves, legal actions and deal."""

    def handlers(self) -> Mapping[type, tuple[Verify, Apply]]:
        """The shared table :data:`engine.moves.BASE_HANDLERS`."""
        return BASE_HANDLERS

    def legal_actions(self, state: GameState, seat: int) -> list[Action]:
        """:func:`engine.legal.standard_legal_actions`."""
        return standard_legal_actions(state, seat)

    def quick_actions(self, state: GameState, seat: int) -> list[Action]:
        """Draw (or take) at the start of a turn, else a discard of each distinct card."""
        return shared_quick_actions(state, seat)

    def deal(
        self, rules: RuleSet, seats: int, dealer: int, seed: DealKey, deal_number: int
    ) -> DealSpec:
        """Shuffle the deck and deal it one card at a time
        (:func:`engine.dealing.shuffled_deal`)."""
        return shuffled_deal(rules, seats, dealer, seed, deal_number)

    def deal_from_deck(
        self, rules: RuleSet, seats: int, dealer: int, deck: Sequence[Card]
    ) -> DealSpec:
        """:func:`engine.dealing.deal_from_deck`."""
        return deal_from_deck(rules, seats, dealer, deck)


def shared_quick_actions(state: GameState, seat: int) -> list[Action]:
    """The cheap candidates of the shared flow (:meth:`engine.variant.Variant.quick_actions`):
    draw or take in the draw phase, a discard of each distinct card of the hand in the
    play phase (the card taken this turn last)."""
    if state.phase is Phase.DRAW:
        return [Draw(seat), TakeDiscard(seat)]
    taken = state.turn.taken
    cards = sorted(set(state.hands[seat]), key=lambda c: (c == taken, c.sort_key))
    return [Discard(seat, c) for c in cards]
