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

from engine.actions import (
    Action,
    NextDeal,
)
from engine.dealing import DealSpec, new_game
from engine.errors import GameOver, IllegalMove, NotYourTurn
from engine.events import Event
from engine.frozen import replace
from engine.state import GameState, Phase
from engine.variants import get_variant

__all__ = ["DealSpec", "apply", "can", "current_player", "is_over", "legal_actions",
           "new_game", "verify"]

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
    var = get_variant(state.rules.variant)
    if not isinstance(action, NextDeal) and state.phase in (Phase.DRAW, Phase.PLAY) \
            and action.seat != state.current and not var.may_act(state, action):
        raise NotYourTurn(player=state.players[state.current], seat=action.seat)
    handler = var.handlers().get(type(action))
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
    handlers = get_variant(state.rules.variant).handlers()
    new, events = handlers[type(action)][1](state, action)
    return replace(new, version=state.version + 1), events


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """The legal actions of ``seat`` now, in a stable order; empty when it may not act.

    Complete for draw, take, discard, lay-offs of one card and joker swaps;
    meld actions are listed in canonical form (every single meld the hand can
    make, jokers declared, a joker never standing in for a card the hand
    holds; in all-at-once deals every whole-hand partition found by
    :func:`engine.search.going_out_partitions`). Variants may add their moves.
    """
    return get_variant(state.rules.variant).legal_actions(state, seat)


def quick_action(state: GameState, seat: int) -> Action:
    """A legal action for ``seat`` (the seat to move) found with little work, for when an
    AI or autopilot decision ran out of its time budget.

    Placeholder: draw when drawing is legal, else the first discard of the hand that
    :func:`can` accepts, else the first of :func:`legal_actions`. The engine's bounded
    version (a move generator with a bounded worst case) replaces it. Raises
    :class:`engine.errors.IllegalMove` when the seat has no legal action.
    """
    from engine.actions import Discard, Draw

    draw = Draw(seat)
    if can(state, draw):
        return draw
    for card in state.hands[seat]:
        discard = Discard(seat, card)
        if can(state, discard):
            return discard
    actions = legal_actions(state, seat)
    if not actions:
        raise IllegalMove()
    return actions[0]
