"""Generated legal moves of Rummy 500 (issue: a move generator that builds only legal
moves).

:func:`engine.variants.rummy500.legal.legal_actions` builds the legal actions from the
conditions of the variant's moves; the old way, every candidate checked with
:func:`engine.game.can`, stays as the oracle
(:func:`engine.variants.rummy500.legal.checked_legal_actions`). On random reachable
states under random option sets (every ``calling``, ``going_out`` and take rule) both
lists hold the same actions for every seat (the generated one without repeats), and
the trusted apply of a listed action gives the same state as the verifying apply."""

from __future__ import annotations

from typing import Any

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from engine.game import apply, legal_actions, new_game
from engine.rules import make_rules
from engine.variants.rummy500.legal import checked_legal_actions
from engine.variants.rummy500.legal import legal_actions as generated

from ..invariants import check_generated_moves
from .test_properties import option_sets


# No shrinking: one example plays 300 actions; the failing example is reported as drawn.
@settings(deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(
    st.sampled_from(["standard", "original", "book"]),
    option_sets,
    st.integers(2, 5),
    st.integers(0, 10_000),
)
def test_generated_legal_actions_equal_the_checked_candidates(
    preset: str, options: dict[str, Any], players: int, seed: int
) -> None:
    rules = make_rules("500", preset, {**options, "target": 120})
    state = new_game(rules, ["ana", "ben", "cem", "dan", "eve"][:players], seed=seed)
    check_generated_moves(state, generated, checked_legal_actions, 300, seed)


def test_the_oracle_can_tell_a_difference() -> None:
    """The comparison above can fail: a list with one legal action less is not the
    oracle's list."""
    state = new_game(make_rules("500"), ["ana", "ben"], seed=3)
    seat = state.current
    state, _ = apply(state, legal_actions(state, seat)[0])
    listed = generated(state, seat)
    assert set(listed) == set(checked_legal_actions(state, seat))
    assert set(listed[:-1]) != set(checked_legal_actions(state, seat))
