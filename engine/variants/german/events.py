"""Public events only German Rommé has; ``bot/render/variants/german.py`` gives their text."""

from __future__ import annotations

from fractions import Fraction

from engine.cards import Card
from engine.melds import Meld
from engine.record_class import record

POT = -1
"""The payee (or payer) of a :class:`Payment` that goes into (or comes out of) the pot."""


@record
class OpeningProgress:
    """``seat`` melded towards its first meld: ``total`` points this turn of ``needed``;
    ``reached`` when the first meld now stands; ``cards_left`` in the hand (with one card
    left, discarding it goes out with hand rummy, where the minimum does not apply)."""

    seat: int
    total: int
    needed: int
    reached: bool
    cards_left: int = 0


@record
class OpeningWithdrawn:
    """``seat`` took its unfinished first meld (``melds`` melds, ``cards``) back."""

    seat: int
    cards: tuple[Card, ...]
    melds: int


@record
class JokerExchanged:
    """``seat`` put ``cards`` into meld ``index`` (now ``meld``) for its joker(s); the freed
    ``jokers`` go into the new meld announced next (a :class:`engine.events.Melded`)."""

    seat: int
    index: int
    cards: tuple[Card, ...]
    meld: Meld
    jokers: int


@record
class DealBlocked:
    """Nobody can go out any more (every player holds at most two cards and no card in
    play fits a meld): the deal ends without a winner."""

    deal_number: int


@record
class JokerStolen:
    """When cutting, ``seat`` found a joker at the bottom of the cut and kept it."""

    seat: int


@record
class ClosingLayOffs:
    """``winner`` went out; ``seats`` (in this order) may lay off before the scoring."""

    winner: int
    seats: tuple[int, ...]


@record
class LayOffsDone:
    """``seat`` ended its lay-offs after someone went out."""

    seat: int


@record
class Eliminated:
    """``seats`` have more penalty points than ``target`` and are out of the match."""

    seats: tuple[int, ...]
    target: int


@record
class BuyBackOffered:
    """``seat`` may buy back into the game for ``price`` chips and take ``points``."""

    seat: int
    price: Fraction
    points: Fraction


@record
class BoughtBack:
    """``seat`` paid ``price`` chips into the pot and plays on with ``points``."""

    seat: int
    price: Fraction
    points: Fraction


@record
class BuyBackDeclined:
    """``seat`` stays out of the match."""

    seat: int


@record
class Payment:
    """``amount`` chips from ``payer`` to ``payee`` (seats, or :data:`POT`)."""

    payer: int
    payee: int
    amount: Fraction


@record
class ChipsMoved:
    """Chips changed hands (play money, no real money). ``reason``: ``stakes`` (into the
    pot before a deal), ``rummy_stakes`` (hand rummy in pot play), ``round_bonus``,
    ``settlement`` (per point at the end), ``pot`` (the pot paid out). ``balances``: every
    seat's chips afterwards; ``pot``: the pot afterwards."""

    reason: str
    payments: tuple[Payment, ...]
    balances: tuple[Fraction, ...]
    pot: Fraction
