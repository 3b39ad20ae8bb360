"""End of a Rummy 500 hand: each seat scores its melded points minus its hand, and the
match ends at the target (ties play on), or, with ``win_needs_out``, only when the
player who went out reaches it.

rummy-500.de.txt: "Alle Spieler zählen den gesamten Wert der Karten, die sie kombiniert
haben, und ziehen davon den Wert der Karten, die sie noch auf der Hand haben, ab. Das
Ergebnis jedes Spielers wird zu dessen Gesamtpunktzahl addiert."
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from engine.events import Event
from engine.options import RuleSet
from engine.scoring import close_hand, top_seats
from engine.state import GameState
from engine.variants.rummy500.state import GameExtra
from engine.variants.rummy500.values import card_value, melded_points


def hand_values(state: GameState) -> tuple[int, ...]:
    """The value of the cards left in each hand ("Jegliche Karten, die die Spieler noch
    auf der Hand haben, müssen abgezogen werden, selbst wenn diese noch hätten ausgelegt
    werden können")."""
    return tuple(sum(card_value(state.rules, c) for c in hand) for hand in state.hands)


def deal_scores(state: GameState, points: Sequence[int]) -> tuple[Fraction, ...]:
    """Melded points minus ``points`` (the hand values) per seat; may be negative ("Wenn
    die Summe der Karten, die Sie noch auf der Hand haben, größer ist ..., dann ist Ihre
    Punktzahl für dieses Blatt negativ")."""
    melded = melded_points(state.rules, state.melds, state.seats)
    return tuple(Fraction(m - p) for m, p in zip(melded, points, strict=True))


def target_reached(rules: RuleSet, totals: Sequence[Fraction]) -> bool:
    """Someone has the target or more and the highest total is not shared: "bis ein
    Spieler eine Punktzahl von mindestens 500 erreicht. Dann endet das Spiel, und der
    Spieler mit der höchsten Punktzahl gewinnt. Falls es einen Gleichstand gibt, werden
    weitere Runden gespielt, bis es nur einen Sieger gibt."""
    target = rules.number("target") or 0
    best = max(totals)
    return best >= target and sum(1 for t in totals if t == best) == 1


def match_result(rules: RuleSet, totals: Sequence[Fraction], out: int | None) -> tuple[int, ...]:
    """The winners when the match ends now (one seat), else ``()``. With
    ``win_needs_out`` only ``out``, the seat that went out, can win: "Wenn der Spieler,
    der alle Karten ausgelegt hat, 500 oder mehr Punkte erzielt hat, gewinnt er"."""
    if rules.flag("win_needs_out"):
        target = rules.number("target") or 0
        return (out,) if out is not None and totals[out] >= target else ()
    if not target_reached(rules, totals):
        return ()
    return top_seats(totals)


def end_hand(state: GameState, out: int | None) -> tuple[GameState, tuple[Event, ...]]:
    """Score the hand (``out`` went out, or ``None`` when the stock ran out) and end the
    match when it is decided. The call window closes: "Denken Sie daran, dass es nicht
    möglich ist, "Rommé!" zu rufen, nachdem das Spiel beendet ist."
    """
    points = hand_values(state)
    scores = deal_scores(state, points)
    totals = tuple(t + s for t, s in zip(state.totals, scores, strict=True))
    winners = match_result(state.rules, totals, out)
    return close_hand(
        state, out, False, points, scores, totals, winners, bool(winners), extra=GameExtra(None)
    )
