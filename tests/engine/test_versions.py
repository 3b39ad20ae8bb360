"""Every applied move gives a new state one version up and leaves the old state as it was.

``apply`` and ``apply_legal`` set the new version on the handler's own copy in place
(:func:`engine.game._next_version`); this must never reach a state someone else holds.
"""

from __future__ import annotations

import random

import pytest

from engine.dealing import new_game
from engine.game import _next_version, apply, apply_legal, legal_actions
from engine.rules import make_rules
from engine.state import Phase


@pytest.mark.parametrize("variant", ["basic", "500", "german", "romanian"])
def test_every_state_of_a_random_game_keeps_its_version(variant: str) -> None:
    """Random play of 400 moves, half through the verified path: the states met stay
    distinct objects whose versions count up one by one, also after the game went on."""
    rng = random.Random(7)
    state = new_game(make_rules(variant), ["ana", "ben", "cleo"], seed=11)
    seen = [state]
    for step in range(400):
        if state.phase is Phase.GAME_OVER:
            break
        seat = state.current
        legal = legal_actions(state, seat)
        if not legal:  # between deals every seat may act; the dealer's turn comes first
            legal = legal_actions(state, 0)
        step_with = apply if step % 2 else apply_legal
        state, _ = step_with(state, rng.choice(legal))
        seen.append(state)
    assert len(seen) > 300, len(seen)
    start = seen[0].version
    assert [s.version for s in seen] == list(range(start, start + len(seen)))
    assert len({id(s) for s in seen}) == len(seen)


def test_a_handler_that_returns_the_state_itself_gets_a_copy() -> None:
    state = new_game(make_rules("basic"), ["ana", "ben"], seed=3)
    bumped = _next_version(state, state)
    assert bumped is not state
    assert (bumped.version, state.version) == (state.version + 1, state.version)
    assert bumped.hands == state.hands and bumped.stock == state.stock
