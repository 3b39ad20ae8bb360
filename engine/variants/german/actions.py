"""Actions only German Rommé has (their text form is in :mod:`.commands`)."""

from __future__ import annotations

from engine.cards import Card
from engine.melds import CardSpec
from engine.record_class import record


@record
class ExchangeJoker:
    """Exchange the natural ``cards`` for the joker(s) of meld ``meld`` (0-based) and meld the
    freed joker(s) at once in the new meld ``group`` (``exchange 8h 3 | jk 9h 10h``).

    ``group`` lists the whole new meld: the freed joker(s) as ``jk`` (or ``jk=face``) and
    cards from the hand. Usually ``cards`` is one card; with the house rule
    ``set_swap_four`` a joker in a set takes all its missing cards (``exchange 8c 8d 3 |
    ...``).
    """

    seat: int
    cards: tuple[Card, ...]
    meld: int
    group: tuple[CardSpec, ...]


@record
class TakeBack:
    """Take back the melds of this turn while they are below the first-meld minimum
    (``takeback``)."""

    seat: int


@record
class EndLayOffs:
    """End one's lay-offs after someone went out (``done``; option ``closing_layoffs``)."""

    seat: int


@record
class BuyBack:
    """An eliminated player buys back into the game once (``buyback``; chips=pot)."""

    seat: int


@record
class DeclineBuyBack:
    """An eliminated player stays out (``decline``; chips=pot)."""

    seat: int
