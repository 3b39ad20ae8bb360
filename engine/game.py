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
from engine.events import Event, HandEnded
from engine.frozen import replace
from engine.state import GameState, Phase

__all__ = [
    "DealSpec",
    "apply",
    "apply_legal",
    "can",
    "current_player",
    "is_over",
    "legal_actions",
    "new_game",
    "quick_action",
    "verify",
]


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
    var = state.rules.var
    if (
        not isinstance(action, NextDeal)
        and state.phase in (Phase.DRAW, Phase.PLAY)
        and action.seat != state.current
        and not var.may_act(state, action)
    ):
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
    handlers = state.rules.var.handlers()
    new, events = handlers[type(action)][1](state, action)
    if new.deal_secret is not None and len(new.results) > len(state.results):
        new, events = _reveal(new, events)
    return _next_version(state, new), events


def apply_legal(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """:func:`apply` for an action taken from :func:`legal_actions` of this very ``state``:
    the trusted path (AI seats, simulations) that skips the second verification. Input
    from people goes through :func:`apply`, which verifies; an action that is not in the
    legal list of ``state`` must never come here."""
    new, events = state.rules.var.handlers()[type(action)][1](state, action)
    if new.deal_secret is not None and len(new.results) > len(state.results):
        new, events = _reveal(new, events)
    return _next_version(state, new), events


def _reveal(state: GameState, events: tuple[Event, ...]) -> tuple[GameState, tuple[Event, ...]]:
    """The deal of ``state`` has just been scored: its secret is revealed (fair dealing,
    :mod:`engine.fairness`) in its :class:`engine.state.DealResult` and in the
    :class:`engine.events.HandEnded` event, next to its commitment."""
    assert state.deal_secret is not None
    secret = state.deal_secret.hex()
    last = replace(state.results[-1], secret=secret, commitment=state.commitment)
    shown = tuple(
        replace(e, secret=secret, commitment=state.commitment) if isinstance(e, HandEnded) else e
        for e in events
    )
    return replace(state, results=(*state.results[:-1], last)), shown


_SET_VERSION = GameState.__dict__["version"].__set__


def _next_version(state: GameState, new: GameState) -> GameState:
    """``new`` (a handler's result for ``state``) with ``version`` one above ``state``'s.
    A handler's result is a copy of its own that nothing else holds yet, so its version is
    set in place (the slot's descriptor; a second copy of the whole state cost 4 % of a
    random-play action); a handler that returned ``state`` itself gets a copy."""
    if new is state:
        return replace(state, version=state.version + 1)
    _SET_VERSION(new, state.version + 1)
    return new


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """The legal actions of ``seat`` now, in a stable order; empty when it may not act.

    Complete for draw, take, discard, lay-offs of one card and joker swaps;
    meld actions are listed in canonical form (every single meld the hand can
    make, jokers declared, a joker never standing in for a card the hand
    holds; in all-at-once deals every whole-hand partition found by
    :func:`engine.search.going_out_partitions`). Variants may add their moves.
    """
    return state.rules.var.legal_actions(state, seat)


def quick_action(state: GameState, seat: int) -> Action:
    """A legal action for ``seat`` found with bounded, small work: for the service, when
    the decision of an AI seat or an autopilot runs out of its time budget.

    Between deals it is ``next``. During a deal ``seat`` must be the seat to move; the
    variant names a few cheap candidates (:meth:`engine.variant.Variant.quick_actions`:
    draw, a discard, ``ready``, ``done``, taking back an unfinished first meld, the meld
    owed now...) and the first that :func:`verify` accepts is returned. Worst case: a few
    verifications of a draw or discard (microseconds), or, when a meld is owed (Rummy
    500's card taken from the pile, a Romanian tile taken from the row or a freed Joly)
    or a Romanian seat must go out after the face-up tile, one search of the melds of
    that one card or one going-out plan, both bounded by their guards. Only if no
    candidate is legal (no reachable state is known to need it: tests play every
    variant at random and check) it falls back to the first legal action.

    Raises :class:`engine.errors.GameOver` after the match and
    :class:`engine.errors.NotYourTurn` for a seat that is not the one to move.
    """
    if state.phase is Phase.GAME_OVER:
        raise GameOver()
    if state.phase is Phase.HAND_OVER:
        return NextDeal(seat)
    if seat != state.current:
        raise NotYourTurn(player=state.players[state.current], seat=seat)
    for action in state.rules.var.quick_actions(state, seat):
        if can(state, action):
            return action
    legal = legal_actions(state, seat)
    if not legal:
        raise IllegalMove()
    return legal[0]
