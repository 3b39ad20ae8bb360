"""The small state API: who acts, which actions are legal, verify / can / apply.

Example::

    >>> from engine.rules import make_rules
    >>> from engine.game import new_game, apply, legal_actions
    >>> state = new_game(make_rules("basic"), ["ana", "ben"], seed=7)
    >>> actions = legal_actions(state, state.current)
    >>> state, events = apply(state, actions[0])
    >>> state.version
    1
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine import moves
from engine.actions import (
    Action,
    Discard,
    Draw,
    LayOff,
    MeldCards,
    NextDeal,
    SwapJoker,
    TakeDiscard,
)
from engine.candidates import candidate_melds
from engine.cards import Card
from engine.dealing import DealSpec, new_game
from engine.errors import GameOver, IllegalMove, NotYourTurn
from engine.events import Event
from engine.melds import CardSpec, extend_readings, joker_swap_target
from engine.state import GameState, Phase
from engine.variants import get_variant

__all__ = ["DealSpec", "apply", "can", "current_player", "is_over", "legal_actions",
           "new_game", "verify"]

_HANDLERS: dict[type, tuple[Callable[[GameState, Any], None],
                            Callable[[GameState, Any], moves.Result]]] = {
    Draw: (moves.verify_draw, moves.apply_draw),
    TakeDiscard: (moves.verify_take, moves.apply_take),
    MeldCards: (moves.verify_meld, moves.apply_meld),
    LayOff: (moves.verify_layoff, moves.apply_layoff),
    SwapJoker: (moves.verify_swap, moves.apply_swap),
    Discard: (moves.verify_discard, moves.apply_discard),
    NextDeal: (moves.verify_next, moves.apply_next),
}


def current_player(state: GameState) -> int | None:
    """The seat to act, or ``None`` between deals (anyone may say ``next``) and at the end."""
    if state.phase in (Phase.DRAW, Phase.PLAY):
        return state.current
    return None


def is_over(state: GameState) -> bool:
    """True when the match has ended."""
    return state.phase is Phase.GAME_OVER


def verify(state: GameState, action: Action) -> None:
    """Raise the :class:`engine.errors.IllegalMove` subclass that forbids ``action``, if any."""
    if state.phase is Phase.GAME_OVER:
        raise GameOver()
    if not 0 <= action.seat < state.seats:
        raise NotYourTurn(player=state.players[state.current], seat=action.seat)
    if not isinstance(action, NextDeal) and state.phase in (Phase.DRAW, Phase.PLAY) \
            and action.seat != state.current:
        raise NotYourTurn(player=state.players[state.current], seat=action.seat)
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalMove()
    handler[0](state, action)


def can(state: GameState, action: Action) -> bool:
    """True when ``action`` is legal now."""
    try:
        verify(state, action)
    except IllegalMove:
        return False
    return True


def apply(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """Apply ``action``: the new state (``version`` + 1) and what happened.

    Raises an :class:`engine.errors.IllegalMove` subclass and changes nothing
    (the state is immutable) when the action is not legal.
    """
    verify(state, action)
    new, events = _HANDLERS[type(action)][1](state, action)
    return replace(new, version=state.version + 1), events


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """The legal actions of ``seat`` now, in a stable order.

    Complete for draw, take, discard, lay-offs of one card and joker swaps;
    meld actions are listed in canonical form (every single meld the hand can
    make, jokers declared, a joker never standing in for a card the hand
    holds; in all-at-once deals every whole-hand partition found by
    :func:`engine.search.going_out_partitions`). Empty when the seat may not act.
    """
    if state.phase is Phase.GAME_OVER:
        return []
    if state.phase is Phase.HAND_OVER:
        return [NextDeal(seat)]
    if seat != state.current:
        return []
    if state.phase is Phase.DRAW:
        out: list[Action] = [Draw(seat)]
        if state.discard:
            out.append(TakeDiscard(seat))
        return out
    return _play_actions(state, seat)


def _play_actions(state: GameState, seat: int) -> list[Action]:
    rules = state.rules
    var = get_variant(rules.variant)
    mrules = var.meld_rules(rules)
    hand = state.hands[seat]
    out: list[Action] = []
    if var.all_at_once(rules, state.deal_number):
        from engine.search import going_out_partitions

        for groups in going_out_partitions(hand, mrules):
            out.append(MeldCards(seat, groups))
    else:
        for group in candidate_melds(hand, mrules):
            out.append(MeldCards(seat, (group,)))
        for card in sorted(set(hand), key=lambda c: c.sort_key):
            specs = _layoff_specs(card, state)
            for index, spec in specs:
                out.append(LayOff(seat, (spec,), index))
    if var.joker_swap(rules):
        for index, meld in enumerate(state.melds):
            for card in sorted(set(hand), key=lambda c: c.sort_key):
                if joker_swap_target(meld, card) >= 0:
                    out.append(SwapJoker(seat, card, index))
    for card in sorted(set(hand), key=lambda c: c.sort_key):
        out.append(Discard(seat, card))
    return [a for a in out if can(state, a)]


def _layoff_specs(card: Card, state: GameState) -> list[tuple[int, CardSpec]]:
    """Single-card lay-offs of ``card``: one per meld, or per joker face when a joker fits
    more than one place (e.g. either end of a run)."""
    mrules = get_variant(state.rules.variant).meld_rules(state.rules)
    out: list[tuple[int, CardSpec]] = []
    for index, meld in enumerate(state.melds):
        found = extend_readings(meld, (CardSpec(card),), state.current, mrules)
        if len(found) == 1:
            out.append((index, CardSpec(card)))
        elif card.is_joker:
            old = list(meld.faces)
            for reading in found:
                new = list(reading.faces)
                for face in old:
                    new.remove(face)
                out.append((index, CardSpec(card, new[0])))
    return out
