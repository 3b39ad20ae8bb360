"""Card values: penalty points of cards left in a hand, and the points of a first meld.

german-romme.de.txt, "Kartenwerte" / "Abrechnung": "Joker = 25 (30) Punkte; As = 11 (15)
Punkte; König, Dame, Bube, 10 = 10 Punkte; 9 = 9 Punkte ... 2 = 2 Punkte". House rule
(``card_values=flat``): "2 - 8 = 5 Punkte, 9 - K = 10 Punkte, As = 11 Joker = 25".
First meld: "Asse zählen bei der Erstmeldung in Sequenzen 1 Punkte wenn als 1 benutzt und
11 Punkte wenn es nach dem König benutzt wird. In Sätzen zählen Asse immer 11 Punkte. Joker
zählen bei der Erstmeldung jeweils den Wert der Karte den sie ersetzen."
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import ACE, KING, Card
from engine.melds import Meld, MeldKind
from engine.options import RuleSet


def pip_value(rules: RuleSet, rank: int) -> int:
    """Value of a rank 2..13: face value with 10-K = 10, or 5 / 10 with ``card_values=flat``."""
    if rules.text("card_values") == "flat":
        return 5 if rank <= 8 else 10
    return min(rank, 10)


def card_points(rules: RuleSet, card: Card) -> int:
    """Penalty points of ``card`` left in a hand: joker ``joker_points`` (25), ace
    ``ace_points`` (11), else :func:`pip_value`."""
    if card.is_joker:
        return rules.number("joker_points") or 0
    if card.rank == ACE:
        return rules.number("ace_points") or 0
    return pip_value(rules, card.rank)


def meld_value(rules: RuleSet, meld: Meld) -> int:
    """First-meld points of ``meld``: every card (a joker as the card it stands for) by
    :func:`pip_value`; an ace 11 in a set or right after a king in a run, else 1."""
    total = 0
    faces = meld.faces
    for i, face in enumerate(faces):
        if face.rank != ACE:
            total += pip_value(rules, face.rank)
        elif meld.kind is MeldKind.SET or (i > 0 and faces[i - 1].rank == KING):
            total += 11
        else:
            total += 1
    return total


def melds_value(rules: RuleSet, melds: Iterable[Meld]) -> int:
    """Sum of :func:`meld_value` over ``melds``."""
    return sum(meld_value(rules, m) for m in melds)
