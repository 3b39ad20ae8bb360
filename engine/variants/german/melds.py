"""What a meld is in German Rommé (german-romme.de.txt), as :class:`engine.melds.MeldRules`.

- "Sequenzen sind 3 oder mehr Karten des gleichen Farbsymbols in Reihenfolge";
  "Asse können als niedrigste Karte (1) und höchste Karte benutzt werden: z.B. A 2 3 oder
  Q K A"; "Sequenzen 'um die Ecke' sind nicht erlaubt" (option ``around``: allowed).
- "Sequenzen dürfen nicht mehr Joker als natürliche Karten enthalten. Richtig z.B. 5 J J 8,
  aber falsch J 10 J oder 9 J J Q J": jokers <= natural cards in a run.
- "Sätze sind 3 oder 4 gleichrangige Karten"; "Sätze dürfen keine gleichrangige Karten des
  selben Symbols beinhalten"; "Ein Satz muss mindestens zwei natürliche Karten enthalten".
- House rule ``one_joker``: "Eine Figur darf grundsätzlich nicht mehr als ein Joker
  enthalten."
"""

from __future__ import annotations

from engine.melds import AceMode, Meld, MeldKind, MeldProblem, MeldRules
from engine.options import RuleSet


def check_jokers(meld: Meld) -> MeldProblem | None:
    """The joker rules of every meld: a set keeps two natural cards, a run has no more
    jokers than natural cards."""
    jokers = sum(1 for p in meld.cards if p.card.is_joker)
    naturals = len(meld.cards) - jokers
    if meld.kind is MeldKind.SET and naturals < 2:
        return MeldProblem("too_many_jokers", "a set needs at least two natural cards")
    if meld.kind is MeldKind.RUN and jokers > naturals:
        return MeldProblem("too_many_jokers", "a run may not hold more jokers than natural cards")
    return None


def check_one_joker(meld: Meld) -> MeldProblem | None:
    """:func:`check_jokers` plus the house rule of at most one joker per meld."""
    problem = check_jokers(meld)
    if problem is None and sum(1 for p in meld.cards if p.card.is_joker) > 1:
        return MeldProblem("too_many_jokers", "a meld may hold at most one joker")
    return problem


def meld_rules(rules: RuleSet) -> MeldRules:
    """Runs of 3+, sets of 3-4, two natural cards at least, the joker checks above; the ace
    low or high (or around the corner with ``around``)."""
    return _MELD_RULES[rules.flag("around"), rules.flag("one_joker")]


#: One shared record per option pair (the lay-off index is reused per record).
_MELD_RULES = {
    (around, one): MeldRules(
        ace=AceMode.AROUND if around else AceMode.HIGH_OR_LOW,
        min_cards=3,
        max_set=4,
        min_naturals=2,
        check=check_one_joker if one else check_jokers,
    )
    for around in (False, True)
    for one in (False, True)
}
