"""Card values of Rummy 500: in a hand and on the table, and each seat's melded points.

rummy-500.de.txt: "2, 3, 4, 5, 6, 7, 8, 9, 10 ... Nennwert"; "Bube, Dame, König ... je
10 Punkte"; "Ass, Joker ... je 15 Punkte"; "Ausnahme: Ein Ass, das mit der 2 und der 3
derselben Farbe als Teil einer Folgenkombination ... kombiniert wird, zählt 1 Punkt
anstatt 15." Option ``values=5_10_15``: "zählen die Zahlenkarten 2 bis 9 jeweils 5
Punkte. Die Zehner und die Bildkarten B, D, K zählen jeweils 10 und die Joker zählen 15
Punkte. Das Ass zählt 5 Punkte anstatt 15, wenn es als niedrige Karte in einer Folge
verwendet wird".
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from engine.cards import ACE, Card
from engine.melds import Meld, MeldKind
from engine.memo import reuse_last
from engine.options import RuleSet


def card_value(rules: RuleSet, card: Card) -> int:
    """The value of ``card`` in a hand (and on the table, except a low ace): 2-10 face
    value, J Q K 10, ace and joker 15; with ``values=5_10_15`` 2-9 count 5, 10-K 10."""
    if card.is_joker or card.rank == ACE:
        return 15
    if rules.text("values") == "5_10_15":
        return 5 if card.rank <= 9 else 10
    return min(card.rank, 10)


def low_ace_value(rules: RuleSet) -> int:
    """A natural ace at the low end of a run (A-2-3): 1, or 5 with ``values=5_10_15``."""
    return 5 if rules.text("values") == "5_10_15" else 1


def placed_value(rules: RuleSet, meld: Meld, index: int) -> int:
    """The value of the card at ``index`` of ``meld`` on the table.

    A natural ace that starts a run stands below the two (A-2-3...) and counts low; a
    joker always counts 15, whatever it stands for (the text values the joker alone).
    """
    placed = meld.cards[index]
    if (
        meld.kind is MeldKind.RUN
        and index == 0
        and not placed.card.is_joker
        and placed.card.rank == ACE
        and len(meld.cards) > 1
    ):
        return low_ace_value(rules)
    return card_value(rules, placed.card)


def melded_points(rules: RuleSet, melds: Sequence[Meld], seats: int) -> tuple[int, ...]:
    """Points on the table per seat: every card counts for the seat that put it there.

    rummy-500.de.txt: "Da alle ausgelegten Karten dem Spieler Punkte bringen, der sie
    ausgelegt hat, legen Sie eine Karte, die Sie an die Auslage eines anderen Spielers
    anlegen wollen, vor sich auf den Tisch".

    Every view asks, and the table changes only when a card is played: for a tuple (a
    state's table, immutable) the last answer is reused while the same objects are asked
    about again (:func:`engine.memo.reuse_last`).
    """
    if type(melds) is not tuple:
        return _melded_points(rules, melds, seats)
    return _table_points(melds, rules, seats)


def _melded_points(rules: RuleSet, melds: Sequence[Meld], seats: int) -> tuple[int, ...]:
    points = [0] * seats
    low = low_ace_value(rules)
    table = _values(rules.text("values"))
    for meld in melds:
        cards = meld.cards
        for placed in cards:
            points[placed.owner] += table[placed.card.rank]
        first = cards[0]
        if (
            meld.kind is MeldKind.RUN
            and len(cards) > 1
            and not first.card.is_joker
            and first.card.rank == ACE
        ):
            points[first.owner] += low - table[ACE]
    return tuple(points)


@reuse_last
def _table_points(melds: tuple[Meld, ...], rules: RuleSet, seats: int) -> tuple[int, ...]:
    return _melded_points(rules, melds, seats)


@functools.cache
def _values(values: str) -> dict[int, int]:
    """Rank (joker 0) -> value in hand, as :func:`card_value` gives it."""
    out = {0: 15, ACE: 15}
    for rank in range(2, 14):
        out[rank] = (5 if rank <= 9 else 10) if values == "5_10_15" else min(rank, 10)
    return out
