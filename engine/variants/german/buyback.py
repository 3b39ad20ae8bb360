"""Pot play (``chips=pot``): "Scheidet ein Spieler aus, darf er sich einmal ins Spiel
zurückkaufen ... Er muss den Betrag in den Pot bezahlen welcher dem derzeitigen Pot geteilt
durch die Anzahl Spieler (inkl. dem Ausgeschiedenen) entspricht. Kauft sich der Spieler
ein, so bekommt er die Punktzahl des Spielers mit den meisten Verlustpunkten welcher noch
im Spiel ist. ... Ein Spieler darf sich nur einmal zurückkaufen".

Each newly eliminated player who has not bought back yet decides, from the deal winner's
left: ``buyback`` or ``decline``. Chips are play money on a score sheet.
"""

from __future__ import annotations

from typing import Any

from engine.frozen import replace
from engine.moves import require_phase
from engine.state import GameState, Phase
from engine.variants.german.actions import BuyBack, DeclineBuyBack
from engine.variants.german.chips import pay
from engine.variants.german.ending import buyback_terms, conclude, offer_buyback
from engine.variants.german.errors import NoBuyBack
from engine.variants.german.events import POT, BoughtBack, BuyBackDeclined, Payment
from engine.variants.german.state import game_extra, with_flag

Result = tuple[GameState, tuple[Any, ...]]


def verify_decision(state: GameState, action: BuyBack | DeclineBuyBack) -> None:
    """A buy-back is being offered to this seat."""
    require_phase(state, Phase.PLAY, "buy back")
    queue = game_extra(state).buyback
    if not queue or queue[0] != action.seat:
        raise NoBuyBack()


def apply_buyback(state: GameState, action: BuyBack) -> Result:
    """Pay the price into the pot and take the points of the worst player still in."""
    price, points = buyback_terms(state)
    seat = action.seat
    extra, moved = pay(game_extra(state), [Payment(seat, POT, price)], "buyback")
    out_in = tuple(0 if i == seat else d for i, d in enumerate(extra.out_in))
    extra = replace(extra, bought_back=with_flag(extra.bought_back, seat), out_in=out_in)
    totals = tuple(points if i == seat else t for i, t in enumerate(state.totals))
    state = replace(state, extra=extra, totals=totals)
    events: list[Any] = [BoughtBack(seat, price, points)]
    if moved is not None:
        events.append(moved)
    return _next(state, events)


def apply_decline(state: GameState, action: DeclineBuyBack) -> Result:
    """The seat stays out."""
    return _next(state, [BuyBackDeclined(action.seat)])


def _next(state: GameState, events: list[Any]) -> Result:
    queue = game_extra(state).buyback[1:]
    if queue:
        return offer_buyback(state, queue, events)
    return conclude(state, events)
