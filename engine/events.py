"""Events: what happened, as frozen records returned by :func:`engine.game.apply`.

Events are public: none carries a card that is still hidden (a drawn card is
never named; hands appear only in :class:`HandEnded`, when they are shown).
"""

from __future__ import annotations

from fractions import Fraction

from engine.cards import Card
from engine.melds import Meld
from engine.record_class import record


@record
class DealStarted:
    """A new deal: its number (1-based), the dealer seat and the upcard (or ``None``);
    ``commitment``: the SHA-256 of the deck and the deal's secret (64 hex digits,
    :mod:`engine.fairness`), or ``None`` for a deal not shuffled from a secret."""

    deal_number: int
    dealer: int
    upcard: Card | None
    commitment: str | None = None


@record
class Drew:
    """``seat`` drew from the stock (the card stays hidden)."""

    seat: int


@record
class TookDiscard:
    """``seat`` took ``card`` from the discard pile."""

    seat: int
    card: Card


@record
class StockRenewed:
    """The discard pile became the new stock; ``shuffled`` says whether it was shuffled."""

    cards: int
    shuffled: bool
    reuse: int


@record
class Melded:
    """``seat`` put ``meld`` on the table as meld number ``index`` (0-based)."""

    seat: int
    index: int
    meld: Meld


@record
class LaidOff:
    """``seat`` laid ``cards`` off on meld ``index``, which now reads ``meld``."""

    seat: int
    index: int
    cards: tuple[Card, ...]
    meld: Meld


@record
class JokerSwapped:
    """``seat`` exchanged ``card`` for the joker in meld ``index``."""

    seat: int
    index: int
    card: Card


@record
class Discarded:
    """``seat`` discarded ``card``."""

    seat: int
    card: Card


@record
class WentOut:
    """``seat`` went out; ``rummy`` when the whole hand went down in one turn."""

    seat: int
    rummy: bool


@record
class HandEnded:
    """The hand is scored. ``winner`` is ``None`` when nobody went out (stock exhausted).

    ``hands``: the cards left per seat (now shown); ``points``: their values;
    ``scores``: this deal's score per seat; ``totals``: running totals. In a fair game
    (:mod:`engine.fairness`) ``secret`` reveals the deal's secret (64 hex digits) and
    ``commitment`` repeats the deal's commitment; else both are ``None``.
    """

    deal_number: int
    winner: int | None
    rummy: bool
    hands: tuple[tuple[Card, ...], ...]
    points: tuple[int, ...]
    scores: tuple[Fraction, ...]
    totals: tuple[Fraction, ...]
    secret: str | None = None
    commitment: str | None = None


@record
class GameEnded:
    """The match is over; ``winners`` are the seats that share first place."""

    winners: tuple[int, ...]
    totals: tuple[Fraction, ...]


Event = (
    DealStarted
    | Drew
    | TookDiscard
    | StockRenewed
    | Melded
    | LaidOff
    | JokerSwapped
    | Discarded
    | WentOut
    | HandEnded
    | GameEnded
)
