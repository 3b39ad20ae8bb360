"""Per-seat observations: what one seat (or a spectator) may see.

A :class:`PlayerView` holds the public table plus that seat's own hand and
never another seat's hidden cards. AIs and renderers only ever get views.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.cards import Card
from engine.frozen import fast_init
from engine.melds import Meld
from engine.options import RuleSet
from engine.state import DealResult, GameState, Phase


@fast_init
@dataclass(frozen=True, slots=True)
class PublicView:
    """The public table.

    ``discard``: the visible part of the discard pile, bottom first (only the
    upcard in Basic Rummy; all of it where the variant spreads the pile).
    ``stock_size`` is public: basic-rummy.de.txt "Die Spieler dürfen, wenn sie
    an der Reihe sind, die Anzahl der verbleibenden Karten im verdeckten Vorrat
    zählen". ``taken``: the card the current seat
    took from the pile this turn (it was face up). ``current`` is ``None``
    between deals and at the end. ``extra``: the variant's public information.
    ``commitment``: the running (or last) deal's commitment (:mod:`engine.fairness`), or
    ``None``; its secret is never in a view before the deal ends (then it is in
    ``results``).
    """

    rules: RuleSet
    players: tuple[str, ...]
    deal_number: int
    dealer: int
    phase: Phase
    current: int | None
    melds: tuple[Meld, ...]
    discard: tuple[Card, ...]
    discard_size: int
    stock_size: int
    hand_sizes: tuple[int, ...]
    has_melded: tuple[bool, ...]
    totals: tuple[Fraction, ...]
    results: tuple[DealResult, ...]
    winners: tuple[int, ...]
    taken: Card | None
    reuses: int
    version: int
    shown_hands: tuple[tuple[Card, ...], ...] | None
    extra: Any = None
    commitment: str | None = None

    @property
    def upcard(self) -> Card | None:
        """The top card of the discard pile."""
        return self.discard[-1] if self.discard else None


@fast_init
@dataclass(frozen=True, slots=True)
class PlayerView:
    """What ``seat`` sees: the public table, its own ``hand`` and the variant's private
    information for this seat (``extra``)."""

    seat: int
    hand: tuple[Card, ...]
    table: PublicView
    extra: Any = None


def public_view(state: GameState) -> PublicView:
    """The spectators' view of ``state``. Hands are shown (``shown_hands``) only once the
    hand is over, when they are laid open for scoring."""
    rules = state.rules
    var = rules.var
    phase = state.phase
    discard = state.discard
    moving = phase is Phase.DRAW or phase is Phase.PLAY
    # positional, in field order: a view is built for every action of a simulation
    return PublicView(
        rules,
        state.players,
        state.deal_number,
        state.dealer,
        phase,
        state.current if moving else None,
        state.melds,
        discard if var.discard_pile_public(rules) else discard[-1:],
        len(discard),
        len(state.stock),
        tuple(map(len, state.hands)),
        state.has_melded,
        state.totals,
        state.results,
        state.winners,
        state.turn.taken if moving else None,
        state.reuses,
        state.version,
        None if moving else state.hands,
        var.public_extra(state),
        state.commitment,
    )


def view_for(state: GameState, seat: int) -> PlayerView:
    """The view of ``seat`` (0-based); raises ``IndexError`` for a seat not at the table."""
    if not 0 <= seat < state.seats:
        raise IndexError(seat)
    return PlayerView(
        seat, state.hands[seat], public_view(state), state.rules.var.private_extra(state, seat)
    )
