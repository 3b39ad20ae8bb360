"""What makes a meld valid in Romanian Rummy.

romanian-rummy.de.txt:

- "Eine Folge (suita), die aus mindestens drei Zahlen der gleichen Farbe besteht.
  Eine 1 kann für eine Folge von 1 – 2 – 3 benutzt werden, oder man kann sie
  benutzen als die Zahl, die der 13 folgt und so eine Folge von 12 – 13 – 1 melden.
  Aber eine 1 darf nicht in der Mitte einer Folge stehen": runs with the 1 low or
  high, never round the corner (:attr:`engine.melds.AceMode.HIGH_OR_LOW`).
- "Ein Satz (terta) besteht aus drei oder vier Steinen mit derselben Zahl und in
  verschiedenen Farben."
- "Eine Meldung muss immer mindestens doppelt so viele echte Steine enthalten wie
  Jolys." (:func:`check`).
- "Wenn man einen Joly am Ende einer Folge benutzt, muss es klar sein, welchen
  Stein der Joly ersetzt": a Joly whose place is not clear must be declared
  (``jo=b11``; the shared flow refuses an unclear one), and its face is fixed
  from then on.

In a set a Joly stands for the number only: its colour is one of the missing
ones ("Hat man ... ein Paar gleicher Zahlen mit einem Joly als einen Satz von
drei Steinen gemeldet und hat die beiden Steine gleichen Ranges in den beiden
fehlenden Farben ..."), so a colour may not be declared for it (``jo=7`` or
just ``jo``).
"""

from __future__ import annotations

from engine.melds import AceMode, Meld, MeldKind, MeldProblem, MeldRules


def check(meld: Meld) -> MeldProblem | None:
    """The further conditions of a Romanian meld: at least twice as many real tiles as
    Jolys, and no colour declared for a Joly in a set."""
    jolys = sum(1 for p in meld.cards if p.card.is_joker)
    real = len(meld.cards) - jolys
    if real < 2 * jolys:
        return MeldProblem("joly_ratio", "a meld needs at least twice as many real tiles as Jolys")
    if meld.kind is MeldKind.SET and any(
        p.card.is_joker and p.face.suit is not None for p in meld.cards
    ):
        return MeldProblem(
            "joly_set_colour",
            "a Joly in a set stands for the number only; write jo or jo=7, not a colour",
        )
    return None


MELD_RULES = MeldRules(ace=AceMode.HIGH_OR_LOW, min_cards=3, max_set=4, min_naturals=2, check=check)
"""The meld rules of every Romanian table (no option changes them)."""
