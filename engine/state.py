"""The game state: a frozen snapshot. :func:`engine.game.apply` returns a new one."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine.cards import Card, parse_card, parse_cards
from engine.frozen import fast_init, replace
from engine.melds import Meld
from engine.options import RuleSet


class Phase(enum.Enum):
    """Where the turn stands.

    DRAW: the current seat must draw or take the upcard. PLAY: it may meld,
    lay off, swap jokers, and must discard (or go out). HAND_OVER: the hand is
    scored and the next deal waits for ``next``. GAME_OVER: the match ended.
    """

    DRAW = "draw"
    PLAY = "play"
    HAND_OVER = "hand_over"
    GAME_OVER = "game_over"


@fast_init
@dataclass(frozen=True, slots=True)
class TurnState:
    """What the current seat has done this turn.

    ``taken``: the card taken from the discard pile (may not be discarded this
    turn). ``melds``: new melds made. ``played``: cards melded or laid off.
    ``fresh``: the seat had melded or laid off nothing this deal when the turn
    began (going rummy). ``extra``: the variant's own frozen turn record (or
    ``None``), e.g. an obligation to meld a card taken from deep in the pile.
    """

    taken: Card | None = None
    fresh: bool = False
    melds: int = 0
    played: int = 0
    extra: Any = None


@fast_init
@dataclass(frozen=True, slots=True)
class DealResult:
    """The score of one finished deal (see :class:`engine.events.HandEnded`); in a fair game
    (:mod:`engine.fairness`) also the deal's revealed ``secret`` (64 hex digits) and its
    ``commitment`` (the SHA-256 announced when it started), else ``None``."""

    deal_number: int
    dealer: int
    winner: int | None
    rummy: bool
    points: tuple[int, ...]
    scores: tuple[Fraction, ...]
    secret: str | None = None
    commitment: str | None = None


@fast_init
@dataclass(frozen=True, slots=True)
class GameState:
    """A whole match at one moment.

    ``hands[seat]``: that seat's cards. ``stock``: top card first.
    ``discard``: bottom first, top (the upcard) last. ``melds``: the table,
    numbered from 0 internally and from 1 for players. ``has_played[seat]``:
    melded or laid off this deal (for going rummy and the lay-off house rule).
    ``version`` grows by one with every applied action. ``extra``: the
    variant's own frozen state record (or ``None``); the variant serialises it.

    Fair dealing (:mod:`engine.fairness`): ``fair_key`` (32 bytes, hidden, or ``None`` for a
    game dealt from its ``seed`` as before) gives each deal its secret; ``deal_secret`` is
    the running deal's secret (hidden until the deal ends) and ``commitment`` its public
    commitment (64 hex digits), both ``None`` for a deal not shuffled from a secret.
    """

    rules: RuleSet
    players: tuple[str, ...]
    seed: int
    deal_number: int
    dealer: int
    phase: Phase
    current: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    discard: tuple[Card, ...]
    melds: tuple[Meld, ...] = ()
    turn: TurnState = field(default_factory=TurnState)
    has_melded: tuple[bool, ...] = ()
    has_played: tuple[bool, ...] = ()
    reuses: int = 0
    totals: tuple[Fraction, ...] = ()
    results: tuple[DealResult, ...] = ()
    winners: tuple[int, ...] = ()
    version: int = 0
    extra: Any = None
    fair_key: bytes | None = None
    deal_secret: bytes | None = None
    commitment: str | None = None

    @property
    def seats(self) -> int:
        """Number of seats."""
        return len(self.players)

    @property
    def upcard(self) -> Card | None:
        """The top card of the discard pile, or ``None`` when it is empty."""
        return self.discard[-1] if self.discard else None

    def with_hand(self, seat: int, hand: tuple[Card, ...]) -> GameState:
        """A copy with ``seat``'s hand replaced."""
        return replace(self, hands=self.hands_with(seat, hand))

    def hands_with(self, seat: int, hand: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
        """The hands with ``seat``'s replaced by ``hand`` (for a move that changes more
        fields in one copy)."""
        hands = list(self.hands)
        hands[seat] = hand
        return tuple(hands)

    def next_seat(self, seat: int) -> int:
        """The seat to the left (clockwise, in seat order)."""
        return (seat + 1) % self.seats

    def card_count(self) -> int:
        """Cards in hands, stock, discard pile and melds (for the accounting invariant)."""
        return (
            sum(len(h) for h in self.hands)
            + len(self.stock)
            + len(self.discard)
            + sum(len(m.cards) for m in self.melds)
        )


@dataclass(frozen=True, slots=True)
class DealSpec:
    """An explicit deal: ``hands`` per seat, the ``upcard`` (or ``None``) and the
    ``stock`` top card first; ``extra``: what else a variant deals (or ``None``). Used by
    game records and stacked-deck tests."""

    hands: tuple[tuple[Card, ...], ...]
    upcard: Card | None
    stock: tuple[Card, ...]
    extra: Any = None

    @staticmethod
    def parse(hands: Sequence[str], upcard: str | None, stock: str = "") -> DealSpec:
        """Build a deal from notation: one string per hand (``"7h 8h 9h"``), the upcard
        (or ``None``) and the stock top first. Raises ``CardParseError``."""
        return DealSpec(
            tuple(parse_cards(h) for h in hands),
            parse_card(upcard) if upcard else None,
            parse_cards(stock),
        )

    def cards(self) -> list[Card]:
        """Every card of the deal."""
        up = [self.upcard] if self.upcard is not None else []
        return [c for h in self.hands for c in h] + up + list(self.stock)
