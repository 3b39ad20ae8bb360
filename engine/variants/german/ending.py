"""The end of a deal and of the match: lay-offs after going out, scores, eliminations,
buy-back offers, chips, the winners.

german-romme.de.txt: "Am Ende eines Spiels zählen die Verlierer ihre verbliebenen Karten in
ihren Händen ... Jeder Verlierer notiert die Summe aller Karten in seiner Hand als
Verlustpunkte. Wenn der Rundensieger 'Rummy geht' schreiben die Verlierer ihre
Verlustpunkte doppelt auf."
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from engine.events import GameEnded, HandEnded
from engine.frozen import replace
from engine.options import RuleSet
from engine.state import DealResult, GameState, Phase, TurnState
from engine.variants.german.chips import deal_payments, pay, pot_payout, settlement
from engine.variants.german.events import BuyBackOffered, ClosingLayOffs, Eliminated
from engine.variants.german.state import (
    Closing,
    GermanState,
    GermanTurn,
    active_seats,
    eliminated,
    game_extra,
)
from engine.variants.german.values import card_points

Result = tuple[GameState, tuple[Any, ...]]


def seats_after(state: GameState, seat: int, among: tuple[int, ...]) -> tuple[int, ...]:
    """The seats of ``among`` in playing order, starting left of ``seat``."""
    return tuple(sorted(among, key=lambda s: (s - seat - 1) % state.seats))


def deal_scores(
    state: GameState, points: tuple[int, ...], winner: int | None, rummy: bool
) -> tuple[Fraction, ...]:
    """Penalty points of one deal: each loser its hand (doubled after hand rummy), the
    winner 0. Nobody out (the stock could not be renewed): everyone scores the hand."""
    factor = 2 if rummy else 1
    return tuple(
        Fraction(0) if seat == winner else Fraction(p * factor) for seat, p in enumerate(points)
    )


def finish_out(state: GameState, winner: int, rummy: bool, events: list[Any]) -> Result:
    """``winner`` went out. With ``closing_layoffs`` the others who have melded lay off in
    turn first ("Hat ein Spieler eine Runde beendet, dürfen die Spieler der Reihe nach eine
    oder mehrere Karten an (alle) Figuren ergänzen, bevor abgerechnet wird"); else score."""
    if state.rules.flag("closing_layoffs"):
        queue = tuple(
            s
            for s in seats_after(state, winner, active_seats(state))
            if s != winner and state.has_melded[s] and state.hands[s]
        )
        if queue:
            extra = replace(game_extra(state), closing=Closing(winner, rummy, queue))
            state = replace(
                state,
                extra=extra,
                phase=Phase.PLAY,
                current=queue[0],
                turn=TurnState(extra=GermanTurn()),
            )
            events.append(ClosingLayOffs(winner, queue))
            return state, tuple(events)
    return score_hand(state, winner, rummy, events)


def score_hand(state: GameState, winner: int | None, rummy: bool, events: list[Any]) -> Result:
    """Score the deal, pay the deal's chips, eliminate, offer buy-backs, then
    :func:`conclude`."""
    rules = state.rules
    extra = replace(game_extra(state), closing=None)
    points = tuple(sum(card_points(rules, c) for c in hand) for hand in state.hands)
    scores = deal_scores(state, points, winner, rummy)
    totals = tuple(t + s for t, s in zip(state.totals, scores, strict=True))
    before = active_seats(state)
    events.append(HandEnded(state.deal_number, winner, rummy, state.hands, points, scores, totals))
    result = DealResult(state.deal_number, state.dealer, winner, rummy, points, scores)
    state = replace(state, totals=totals, results=(*state.results, result))
    losers = tuple(s for s in before if s != winner)
    for reason, payments in deal_payments(rules, winner, rummy, losers):
        extra, moved = pay(extra, payments, reason)
        if moved is not None:
            events.append(moved)
    extra, newly = _eliminate(state, extra, before, winner, events)
    state = replace(state, extra=extra)
    if rules.text("chips") == "pot" and newly and not deals_done(state) and active_seats(state):
        queue = tuple(s for s in newly if not extra.bought_back[s])
        if queue:
            return offer_buyback(state, queue, events)
    return conclude(state, events)


def _eliminate(
    state: GameState,
    extra: GermanState,
    before: tuple[int, ...],
    winner: int | None,
    events: list[Any],
) -> tuple[GermanState, tuple[int, ...]]:
    """The seats of ``before`` (in the match before this deal) that the new totals of
    ``state`` put out, in playing order from the left of the ``winner`` (of the dealer
    when nobody went out): "ein Spieler welcher mehr Verlustpunkte geschrieben hat scheidet
    aus" (german-romme.de.txt). Returns ``extra`` with this deal noted in their ``out_in``
    and the seats; appends an ``Eliminated`` event to ``events`` when there are any."""
    start = winner if winner is not None else state.dealer
    newly = seats_after(state, start, tuple(s for s in before if eliminated(state, s)))
    if newly:
        out_in = list(extra.out_in)
        for seat in newly:
            out_in[seat] = state.deal_number
        extra = replace(extra, out_in=tuple(out_in))
        events.append(Eliminated(newly, state.rules.number("target") or 0))
    return extra, newly


def deals_done(state: GameState) -> bool:
    """True when the agreed number of deals has been played."""
    limit = state.rules.number("deals")
    return limit is not None and state.deal_number >= limit


def buyback_terms(state: GameState) -> tuple[Fraction, Fraction]:
    """(price, points) of a buy-back now: "Er muss den Betrag in den Pot bezahlen welcher dem
    derzeitigen Pot geteilt durch die Anzahl Spieler (inkl. dem Ausgeschiedenen) entspricht.
    Kauft sich der Spieler ein, so bekommt er die Punktzahl des Spielers mit den meisten
    Verlustpunkten welcher noch im Spiel ist." """
    active = active_seats(state)
    price = game_extra(state).pot / (len(active) + 1)
    points = max((state.totals[s] for s in active), default=Fraction(0))
    return price, points


def offer_buyback(state: GameState, queue: tuple[int, ...], events: list[Any]) -> Result:
    """Let ``queue[0]`` decide on a buy-back (phase PLAY, it is the seat to act)."""
    extra = replace(game_extra(state), buyback=queue)
    state = replace(
        state, extra=extra, phase=Phase.PLAY, current=queue[0], turn=TurnState(extra=GermanTurn())
    )
    price, points = buyback_terms(state)
    events.append(BuyBackOffered(queue[0], price, points))
    return state, tuple(events)


def _rank_key(state: GameState, seat: int) -> tuple[int, int, Fraction]:
    """Order of the final standings: players still in (fewest points first), then the
    eliminated, the last eliminated first."""
    if not eliminated(state, seat):
        return (0, 0, state.totals[seat])
    return (1, -game_extra(state).out_in[seat], state.totals[seat])


def standings(state: GameState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(first place, second place): the seats sharing each."""
    keys = {s: _rank_key(state, s) for s in range(state.seats)}
    best = min(keys.values())
    first = tuple(s for s in range(state.seats) if keys[s] == best)
    rest = [keys[s] for s in range(state.seats) if s not in first]
    if not rest:
        return first, ()
    runner = min(rest)
    return first, tuple(s for s in range(state.seats) if s not in first and keys[s] == runner)


def match_is_over(state: GameState) -> bool:
    """The agreed deals are played, or at most one player is left: "Die anderen Spieler
    spielen weiter, bis nur noch ein Spieler übrig ist und die Partie gewinnt." """
    if deals_done(state):
        return True
    return state.rules.number("target") is not None and len(active_seats(state)) <= 1


def conclude(state: GameState, events: list[Any]) -> Result:
    """End the deal (HAND_OVER) or the match (GAME_OVER, with the settlement in chips)."""
    extra = replace(game_extra(state), buyback=())
    state = replace(state, extra=extra)
    if not match_is_over(state):
        return replace(state, phase=Phase.HAND_OVER), tuple(events)
    rules = state.rules
    first, second = standings(state)
    extra, moved = pay(extra, settlement(rules, state.totals, first), "settlement")
    if moved is not None:
        events.append(moved)
    extra, moved = pay(extra, pot_payout(rules, extra.pot, first, second, state.seats), "pot")
    if moved is not None:
        events.append(moved)
    events.append(GameEnded(first, state.totals))
    return replace(state, extra=extra, phase=Phase.GAME_OVER, winners=first), tuple(events)


def totals_over(rules: RuleSet, totals: tuple[Fraction, ...], deals: int) -> bool:
    """:meth:`Variant.match_over` from the totals alone (see :func:`match_is_over`)."""
    limit = rules.number("deals")
    if limit is not None and deals >= limit:
        return True
    target = rules.number("target")
    return target is not None and sum(1 for t in totals if t <= target) <= 1


def totals_winners(rules: RuleSet, totals: tuple[Fraction, ...]) -> tuple[int, ...]:
    """:meth:`Variant.match_winners` from the totals alone: the fewest points among the
    players still in (all players when nobody is)."""
    target = rules.number("target")
    pool = [s for s, t in enumerate(totals) if target is None or t <= target]
    if not pool:
        pool = list(range(len(totals)))
    best = min(totals[s] for s in pool)
    return tuple(s for s in pool if totals[s] == best)
