"""Rummy 500 melds: the meld rules and the choice among several readings of a move.

rummy-500.de.txt: "Ein Satz besteht aus drei oder vier Karten desselben Werts"; "Wenn
mit mehr als einem Kartenspiel gespielt wird, müssen die Karten eines Satzes alle
unterschiedliche Farben haben"; "Eine Folge besteht aus drei oder mehr aufeinanderfolgenden
Karten derselben Farbe ... Ein Ass kann eins oder fünfzehn zählen, jedoch nicht beides
gleichzeitig. Somit sind -A -2 -3 -4 und -D -K -A beides gültige Folgen, aber -K -A -2 ist
keine gültige Folge."
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import ACE
from engine.errors import AmbiguousJoker
from engine.melds import AceMode, CardSpec, Meld, MeldKind, MeldRules

MELD_RULES = MeldRules(ace=AceMode.HIGH_OR_LOW, min_cards=3, max_set=4, min_naturals=1)
"""Sets of 3-4 in distinct suits (so no joker stands for a fifth card of a rank), runs of
3 or more with the ace low or high but not both (K-A-2 is no run)."""


def one_reading(found: Sequence[Meld], specs: Sequence[CardSpec]) -> Meld:
    """The meld a move makes, from the readings ``found`` for the cards ``specs``.

    Several readings with every joker declared can only differ in where a natural ace
    stands: it completes a run 2..K (A-2-...-K or 2-...-K-A). The ace then goes high,
    where it counts 15 instead of 1 ("Ein Ass kann eins oder fünfzehn zählen") and no
    card could be laid off at either end anyway. Otherwise several readings raise
    :class:`engine.errors.AmbiguousJoker` listing them (rummy-500.de.txt: "Wenn ein
    Spieler einen Joker auslegt, muss er ansagen, für welchen Wert der Joker steht").
    """
    if len(found) == 1:
        return found[0]
    if all(s.face is not None for s in specs if s.card.is_joker):
        high = [
            m
            for m in found
            if m.kind is MeldKind.RUN
            and m.cards[-1].face.rank == ACE
            and not m.cards[-1].card.is_joker
        ]
        if len(high) == 1:
            return high[0]
    raise AmbiguousJoker(
        readings=" | ".join(str(m) for m in found), options=[str(m) for m in found]
    )
