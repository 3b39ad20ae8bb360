"""End of a hand and of the match: hand values, deal scores, running totals."""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import Card
from engine.events import Event, GameEnded, HandEnded
from engine.frozen import replace
from engine.options import RuleSet
from engine.state import DealResult, GameState, Phase


def hand_points(rules: RuleSet, cards: Iterable[Card]) -> int:
    """The penalty value of ``cards`` (deadwood) under the variant's card values."""
    var = rules.var
    return sum(var.card_points(rules, c) for c in cards)


def end_hand(
    state: GameState, winner: int | None, rummy: bool = False
) -> tuple[GameState, tuple[Event, ...]]:
    """Score the hand (``winner`` went out, or ``None`` when the stock ran out) and end the
    match when its end condition holds. Returns the new state and the
    :class:`HandEnded` (and :class:`GameEnded`) events."""
    rules = state.rules
    var = rules.var
    points = tuple(hand_points(rules, h) for h in state.hands)
    scores = var.score_deal(state, points, winner, rummy)
    totals = tuple(t + s for t, s in zip(state.totals, scores, strict=True))
    result = DealResult(state.deal_number, state.dealer, winner, rummy, points, scores)
    events: list[Event] = [
        HandEnded(state.deal_number, winner, rummy, state.hands, points, scores, totals)
    ]
    over = var.match_over(rules, totals, state.deal_number)
    winners = var.match_winners(rules, totals) if over else ()
    if over:
        events.append(GameEnded(winners, totals))
    new = replace(
        state,
        totals=totals,
        results=(*state.results, result),
        phase=Phase.GAME_OVER if over else Phase.HAND_OVER,
        winners=winners,
    )
    return new, tuple(events)
