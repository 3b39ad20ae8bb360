"""The play-money score sheet in chips (german-romme.de.txt, "Wertung mit Spielgeld").

Chips are points on a sheet, never money: each seat's balance starts at 0, a payment
moves chips from one balance to another or into / out of the pot, so the balances and
the pot always add up to 0. Amounts are :class:`fractions.Fraction` (a pot shared by a
tie, a buy-back price of pot / players).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from engine.frozen import replace
from engine.options import RuleSet
from engine.variants.german.events import POT, ChipsMoved, Payment
from engine.variants.german.state import GermanState


def chips_on(rules: RuleSet) -> bool:
    """True when the table keeps a chip sheet (``chips`` is not ``off``)."""
    return rules.text("chips") != "off"


def pay(
    extra: GermanState,
    payments: Iterable[Payment],
    reason: str,
) -> tuple[GermanState, ChipsMoved | None]:
    """Apply ``payments`` to the sheet; returns the new state and the event (``None`` when
    nothing moved)."""
    done = tuple(p for p in payments if p.amount != 0)
    if not done:
        return extra, None
    chips = list(extra.chips)
    pot = extra.pot
    for p in done:
        if p.payer == POT:
            pot -= p.amount
        else:
            chips[p.payer] -= p.amount
        if p.payee == POT:
            pot += p.amount
        else:
            chips[p.payee] += p.amount
    new = replace(extra, chips=tuple(chips), pot=pot)
    return new, ChipsMoved(reason, done, new.chips, new.pot)


def stakes(rules: RuleSet, seats: Sequence[int]) -> list[Payment]:
    """Pot play: "Vor jeder Runde leistet jeder (verbleibende) Spieler einen im voraus zu
    bestimmenden Betrag (E) in den Spielpot." """
    if rules.text("chips") != "pot":
        return []
    stake = Fraction(rules.number("stake") or 0)
    return [Payment(s, POT, stake) for s in seats]


def deal_payments(
    rules: RuleSet, winner: int | None, rummy: bool, losers: Sequence[int]
) -> list[tuple[str, list[Payment]]]:
    """Chips paid at the end of a deal, as (reason, payments) in order.

    Round bonus: "dass die Verlierer einer einzelnen Runde dem Rundensieger eine
    Siegesprämie bezahlen, gewöhnlich ein Betrag der 10 Punkten in der Endabrechnung
    entspricht, 20 Punkten bei Rummy gehen". Pot play: "Geht ein Spieler Rummy so erhält er
    von jedem (verbliebenen) Spieler den Betrag E ausbezahlt, der Spielpot bleibt
    unangetastet."
    """
    if winner is None or not chips_on(rules):
        return []
    out: list[tuple[str, list[Payment]]] = []
    if rules.text("chips") == "pot" and rummy:
        stake = Fraction(rules.number("stake") or 0)
        out.append(("rummy_stakes", [Payment(s, winner, stake) for s in losers]))
    bonus = rules.number("round_bonus") or 0
    if bonus:
        rate = rules.number("chip_rate") or 0
        amount = Fraction(bonus * rate * (2 if rummy else 1))
        out.append(("round_bonus", [Payment(s, winner, amount) for s in losers]))
    return out


def settlement(
    rules: RuleSet,
    totals: Sequence[Fraction],
    winners: Sequence[int],
) -> list[Payment]:
    """Per-point settlement at the end of the match (chips=points): "werden die Differenzen
    der Verlustpunkte der Verlierer zu den Verlustpunkten des Gesamtsiegers berechnet. Jeder
    Verlierer bezahlt für seine Differenz pro Punkt einen bestimmten Betrag". Tied winners
    share each payment."""
    if rules.text("chips") != "points" or not winners:
        return []
    rate = rules.number("chip_rate") or 0
    best = totals[winners[0]]
    out: list[Payment] = []
    for seat, total in enumerate(totals):
        if seat in winners:
            continue
        share = (total - best) * rate / len(winners)
        out.extend(Payment(seat, w, share) for w in winners)
    return out


def pot_payout(
    rules: RuleSet, pot: Fraction, first: Sequence[int], second: Sequence[int], seats: int
) -> list[Payment]:
    """Pot play: "Der letzte übrigbleibende Spieler wird Gesamtsieger und erhält den Pot.
    Optional kann bei 3 oder mehr Spieler der Pot auch zwischen dem 1. und 2. geteilt
    werden, üblicher weise 70% für den 1. und 30 % für den 2." Ties share their part."""
    if rules.text("chips") != "pot" or pot == 0 or not first:
        return []
    if rules.flag("pot_split") and seats >= 3 and second:
        top = pot * Fraction(7, 10)
        rest = pot - top
        return [Payment(POT, s, top / len(first)) for s in first] + [
            Payment(POT, s, rest / len(second)) for s in second
        ]
    return [Payment(POT, s, pot / len(first)) for s in first]
