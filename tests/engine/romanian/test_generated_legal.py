"""Generated legal moves of Romanian Rummy (issue: a move generator that builds only legal
moves).

:func:`engine.variants.romanian.legal.legal_actions` builds the legal actions from the
conditions of the moves (pre-play, draw and takes, the face-up tile, melds and openings,
lay-offs, Joly exchanges, discards, the moves after the face-up tile); the old way,
every candidate checked with :func:`engine.game.can`, stays as the oracle
(:func:`engine.variants.romanian.legal.checked_legal_actions`). On random reachable
states under random option sets both lists hold the same actions for every seat, and
the trusted apply of a listed action gives the same state as the verifying apply."""

from __future__ import annotations

from typing import Any

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from engine.game import new_game
from engine.rules import make_rules
from engine.variants.romanian.legal import checked_legal_actions
from engine.variants.romanian.legal import legal_actions as generated
from tests.examples import share

from ..invariants import check_generated_moves

OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "opening": st.sampled_from([25, 50, 100]),
        "opening_take": st.booleans(),
        "preplay": st.booleans(),
        "renewals": st.sampled_from([0, 1, 2]),
    },
)


# No shrinking: one example plays 300 actions; the failing example is reported as drawn.
@settings(
    deadline=None, max_examples=share(0.4), phases=[Phase.explicit, Phase.reuse, Phase.generate]
)
@given(OPTIONS, st.integers(2, 4), st.integers(0, 10_000))
def test_generated_legal_actions_equal_the_checked_candidates(
    options: dict[str, Any], players: int, seed: int
) -> None:
    state = new_game(
        make_rules("romanian", options=options), ["ana", "ben", "cem", "dan"][:players], seed=seed
    )
    check_generated_moves(state, generated, checked_legal_actions, 300, seed)
