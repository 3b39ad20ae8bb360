"""End of a hand and of the match: hand values, deal scores, running totals."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

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
    over = var.match_over(rules, totals, state.deal_number)
    winners = var.match_winners(rules, totals) if over else ()
    return close_hand(state, winner, rummy, points, scores, totals, winners, over)


def close_hand(
    state: GameState,
    winner: int | None,
    rummy: bool,
    points: tuple[int, ...],
    scores: tuple[Fraction, ...],
    totals: tuple[Fraction, ...],
    winners: tuple[int, ...],
    over: bool,
    **changes: Any,
) -> tuple[GameState, tuple[Event, ...]]:
    """The state and events after a scored hand: its :class:`DealResult` recorded, the
    new ``totals``, the phase ``GAME_OVER`` (with ``winners``) when ``over`` else
    ``HAND_OVER``, and ``changes`` to further fields; the events are :class:`HandEnded`
    and, when ``over``, :class:`GameEnded`."""
    result = DealResult(state.deal_number, state.dealer, winner, rummy, points, scores)
    events: list[Event] = [
        HandEnded(state.deal_number, winner, rummy, state.hands, points, scores, totals)
    ]
    if over:
        events.append(GameEnded(winners, totals))
    new = replace(
        state,
        totals=totals,
        results=(*state.results, result),
        phase=Phase.GAME_OVER if over else Phase.HAND_OVER,
        winners=winners,
        **changes,
    )
    return new, tuple(events)


def top_seats(totals: Sequence[Fraction]) -> tuple[int, ...]:
    """The seats whose total is the highest (several when it is shared)."""
    best = max(totals)
    return tuple(s for s, t in enumerate(totals) if t == best)
