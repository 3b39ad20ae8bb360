"""engine.frozen.replace: the engine's fast copy of its frozen records."""

from __future__ import annotations

import dataclasses

import pytest

from engine.dealing import new_game
from engine.frozen import replace
from engine.rules import make_rules
from engine.state import TurnState


def test_replace_equals_dataclasses_replace_and_leaves_the_original() -> None:
    """Same fields as ``dataclasses.replace``; the old state is unchanged (states are
    snapshots: "apply returns a new one")."""
    state = new_game(make_rules("basic"), ["ana", "ben"], seed=3)
    turn = TurnState(fresh=True)
    new = replace(state, version=7, turn=turn)
    assert new == dataclasses.replace(state, version=7, turn=turn)
    assert type(new) is type(state)
    assert state.version == 0 and new.version == 7 and new.turn is turn
    assert new.hands is state.hands
    with pytest.raises(dataclasses.FrozenInstanceError):
        new.version = 8  # type: ignore[misc]


def test_replace_refuses_unknown_fields_and_non_records() -> None:
    """An unknown field is a TypeError (as with ``dataclasses.replace``); so is a class
    that is not a plain slotted dataclass."""
    with pytest.raises(TypeError, match="no field"):
        replace(TurnState(), colour="red")

    @dataclasses.dataclass(frozen=True)
    class Loose:
        x: int = 0

    with pytest.raises(TypeError, match="not a plain slotted dataclass"):
        replace(Loose(), x=1)
