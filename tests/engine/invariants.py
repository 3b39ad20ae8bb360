"""Invariants shared by the variants' property tests."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.actions import Action, Discard
from engine.errors import IllegalMove
from engine.game import apply, apply_legal, can, current_player, is_over, legal_actions
from engine.state import GameState


def check_probe(state: GameState, probe: Action) -> None:
    """``can`` agrees with ``apply``: an action ``can`` allows applies, one it refuses
    raises a typed :class:`IllegalMove` and leaves ``state`` as it was (states are frozen,
    so the old state must still equal its copy)."""
    if can(state, probe):
        apply(state, probe)
        return
    before = state
    try:
        apply(state, probe)
    except IllegalMove:
        pass
    else:
        raise AssertionError(f"{probe} applied although can() said no")
    assert state == before


Lister = Callable[[GameState, int], list[Action]]


def check_generated_moves(
    state: GameState, generated: Lister, checked: Lister, steps: int, seed: int
) -> int:
    """Play up to ``steps`` random legal actions from ``state`` (half the time a move other
    than a discard, so tables fill and lay-offs, exchanges and obligations come up); before
    each, every seat's ``generated`` list holds no repeat and the same actions as the
    ``checked`` candidates (the oracle); each action is applied trusted and verified with
    the same result. Returns the number of actions played."""
    rng = random.Random(seed)
    for step in range(steps):
        if is_over(state):
            return step
        for seat in range(state.seats):
            listed = generated(state, seat)
            assert len(set(listed)) == len(listed), listed
            oracle = set(checked(state, seat))
            assert set(listed) == oracle, (seat, set(listed) - oracle, oracle - set(listed))
        actor = current_player(state)
        actor = state.next_seat(state.dealer) if actor is None else actor
        legal = legal_actions(state, actor)
        plays = [a for a in legal if not isinstance(a, Discard)]
        action = rng.choice(plays if plays and rng.random() < 0.5 else legal)
        trusted = apply_legal(state, action)
        state, events = apply(state, action)
        assert trusted == (state, events)
    return steps
