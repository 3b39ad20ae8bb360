"""Invariants shared by the variants' property tests."""

from __future__ import annotations

from engine.actions import Action
from engine.errors import IllegalMove
from engine.game import apply, can
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
