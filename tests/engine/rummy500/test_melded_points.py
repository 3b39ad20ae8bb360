"""Rummy 500: the points on the table per seat, as every view shows them, stay right while
the last answer is reused ("Da alle ausgelegten Karten dem Spieler Punkte bringen, der sie
ausgelegt hat", rummy-500.de.txt)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai import make_ai
from engine.game import apply_legal, legal_actions, new_game
from engine.rules import make_rules
from engine.state import Phase
from engine.variants.rummy500.values import _melded_points, melded_points
from engine.views import view_for
from tests.examples import share


@settings(deadline=None, max_examples=share(0.1))
@given(st.integers(0, 10_000), st.sampled_from(["standard", "5_10_15"]))
def test_the_points_on_the_table_follow_every_move(seed: int, values: str) -> None:
    """In random play, after every move, the answer (reused or not) equals the sum over
    the table; asking about a copy of the table (a list, never reused) agrees."""
    rules = make_rules("500", options={"values": values})
    state = new_game(rules, ["ana", "ben", "cem"], seed=seed)
    seats = [make_ai("random", seed + s) for s in range(3)]
    for _ in range(400):
        if state.phase not in (Phase.DRAW, Phase.PLAY):
            break
        expected = _melded_points(rules, state.melds, 3)
        assert melded_points(rules, state.melds, 3) == expected
        assert melded_points(rules, list(state.melds), 3) == expected
        assert view_for(state, 0).table.extra.melded_points == expected
        seat = state.current
        action = seats[seat].decide(view_for(state, seat), legal_actions(state, seat))
        state, _ = apply_legal(state, action)


def test_the_same_table_under_other_values_is_counted_again() -> None:
    """The reused answer belongs to one rule set: the same melds under the 5-10-15 values
    count differently."""
    plain = make_rules("500")
    fives = make_rules("500", options={"values": "5_10_15"})
    state = new_game(plain, ["ana", "ben"], seed=4)
    seats = [make_ai("random", 4 + s) for s in range(2)]
    # play on until a meld holds cards the two scales value differently (not only aces)
    while _melded_points(plain, state.melds, 2) == _melded_points(fives, state.melds, 2):
        assert state.phase in (Phase.DRAW, Phase.PLAY)
        seat = state.current
        action = seats[seat].decide(view_for(state, seat), legal_actions(state, seat))
        state, _ = apply_legal(state, action)
    first = melded_points(plain, state.melds, 2)
    other = melded_points(fives, state.melds, 2)
    assert first == _melded_points(plain, state.melds, 2)
    assert other == _melded_points(fives, state.melds, 2)
    assert first != other
