"""The Rummy 500 action of its own: calling "Rommé!" (its text form is in
:mod:`engine.variants.rummy500.commands`)."""

from __future__ import annotations

from engine.cards import Card
from engine.record_class import record


@record
class CallRummy:
    """``seat`` calls "Rommé!" (``call``) during the call window after a discard.

    ``card``: the deepest card of the discard pile to take (``None``: the only card
    that can be called). ``meld``: the 0-based meld to lay the last discard off on and
    ``face``: a joker's declared face (both only with ``calling=last_layoff``).
    rummy-500.de.txt: "außer dem Spieler, der gerade eine Karte abgelegt hat, jeder
    Spieler "Rommé!" rufen und alle Karten vom Ablagestapel bis zur entsprechenden
    Karte aufnehmen".
    """

    seat: int
    card: Card | None = None
    meld: int | None = None
    face: Card | None = None
