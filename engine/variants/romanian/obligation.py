"""The meld owed this turn (:class:`engine.variants.romanian.state.Obligation`): which
melds pay it. One definition for the move checks (:mod:`.moves`) and the going-out
planner (:mod:`.plan`), so a plan never proposes what the moves refuse.

romanian-rummy.de.txt:

- a tile taken from deeper in the discard row: "Wenn man zwei Steine auf seinem Ständer
  hat, mit denen man einen Satz oder eine Folge mit irgendeinem Stein der abgelegten
  Steine vervollständigen kann, darf man diesen Stein aufnehmen und die Meldung machen";
- a freed Joly: "Hat man genau den Stein, den ein Joly ... ersetzt, darf man den Joly
  nehmen und durch diesen Stein ersetzen, vorausgesetzt, man gebraucht ihn sofort mit
  zwei Steinen vom eigenen Ständer";
- the previous discard taken for the opening (variation ``opening_take``): it goes into
  the opening at once.

Until the owed meld is down nothing else may happen: no lay-off, no Joly exchange, no
discard (:class:`engine.variants.romanian.errors.ObligationPending`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.melds import Meld
from engine.variants.romanian.state import Obligation


def pays(obligation: Obligation, meld: Meld) -> bool:
    """True when the new ``meld`` holds the owed tile with at least two more tiles (for a
    row tile: at least two that were on the rack before the take; tiles taken with it may
    join the meld too)."""
    cards = [p.card for p in meld.cards]
    if obligation.tile not in cards:
        return False
    others = list(cards)
    others.remove(obligation.tile)
    if len(others) < 2:
        return False
    if obligation.kind == "row":
        return sum((Counter(others) & Counter(obligation.rack)).values()) >= 2
    return True


def paid_by(obligation: Obligation, melds: Sequence[Meld]) -> bool:
    """True when one of the new ``melds`` (one meld action) pays ``obligation``."""
    return any(pays(obligation, meld) for meld in melds)
