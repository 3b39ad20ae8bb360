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
    var = state.rules.var
    open_hands = state.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
    visible = state.discard if var.discard_pile_public(state.rules) else state.discard[-1:]
    current = state.current if state.phase in (Phase.DRAW, Phase.PLAY) else None
    return PublicView(
        rules=state.rules, players=state.players, deal_number=state.deal_number,
        dealer=state.dealer, phase=state.phase, current=current, melds=state.melds,
        discard=visible, discard_size=len(state.discard),
        stock_size=len(state.stock), hand_sizes=tuple(map(len, state.hands)),
        has_melded=state.has_melded, totals=state.totals, results=state.results,
        winners=state.winners, taken=state.turn.taken if current is not None else None,
        reuses=state.reuses, version=state.version,
        shown_hands=state.hands if open_hands else None, extra=var.public_extra(state))


def view_for(state: GameState, seat: int) -> PlayerView:
    """The view of ``seat`` (0-based); raises ``IndexError`` for a seat not at the table."""
    if not 0 <= seat < state.seats:
        raise IndexError(seat)
    var = state.rules.var
    return PlayerView(seat=seat, hand=state.hands[seat], table=public_view(state),
                      extra=var.private_extra(state, seat))
