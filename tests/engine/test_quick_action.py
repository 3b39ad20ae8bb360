"""engine.game.quick_action: a legal action found with small, bounded work, for the service
when an AI or autopilot decision runs out of its time budget (issue: bounded worst cases).

Random play reaches every phase of every variant (pre-play, draw, play, owed melds, the
face-up tile, closing lay-offs, buy-backs, between deals); at each state the quick action
must be legal and one of the variant's cheap candidates (never the fallback to the full
list of legal actions)."""

from __future__ import annotations

import random

import pytest
from hypothesis import Phase as Stage
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import NextDeal
from engine.errors import GameOver, NotYourTurn
from engine.frozen import replace
from engine.game import apply, can, current_player, is_over, legal_actions, new_game, quick_action
from engine.options import OptionValue
from engine.rules import make_rules
from engine.state import GameState, Phase
from tests.examples import share

#: (variant, option sets) played at random.
CASES: tuple[tuple[str, tuple[dict[str, OptionValue], ...]], ...] = (
    (
        "basic",
        (
            {"deals": 2},
            {"deals": 2, "jokers": 3, "joker_swap": True},
            {"deals": 6, "all_at_once_from": 1, "starter_extra": True, "hand_size": 7},
        ),
    ),
    (
        "500",
        (
            {"target": 150},
            {"target": 150, "take_must_meld": True, "going_out": "float"},
            {"target": 150, "take_new_meld": True, "going_out": "discard"},
        ),
    ),
    (
        "german",
        (
            {"deals": 2},
            {"deals": 2, "closing_layoffs": True, "dealer_extra": True},
            {"target": 60, "chips": "pot"},
        ),
    ),
    (
        "romanian",
        (
            {"deals": 1},
            {"deals": 1, "opening_take": True, "opening": 100},
            {"deals": 1, "preplay": False, "opening": 0},
        ),
    ),
)


def _check(state: GameState) -> None:
    seat = current_player(state)
    if seat is None:
        assert quick_action(state, 0) == NextDeal(0)
        return
    action = quick_action(state, seat)
    assert can(state, action)
    assert action in state.rules.var.quick_actions(state, seat)


def _play(variant: str, options: dict[str, OptionValue], seed: int, steps: int) -> int:
    """Random play from ``seed`` for ``steps`` actions, checking the quick action at every
    state; returns the number of states checked."""
    rng = random.Random(seed)
    rules = make_rules(variant, options=options)
    state = new_game(rules, ["ana", "ben", "cem"][: 2 + seed % 2], seed=seed)
    checked = 0
    for _ in range(steps):
        if is_over(state):
            break
        _check(state)
        checked += 1
        seat = current_player(state)
        if seat is None:
            seat = state.next_seat(state.dealer)
        legal = legal_actions(state, seat)
        state, _ = apply(state, legal[rng.randrange(len(legal))])
    return checked


@pytest.mark.parametrize(("variant", "options"), [(v, o) for v, sets in CASES for o in sets])
def test_the_quick_action_is_legal_in_every_state_of_random_play(
    variant: str, options: dict[str, OptionValue]
) -> None:
    checked = sum(_play(variant, options, seed, 400) for seed in range(4))
    assert checked > 400


# No shrinking: one example plays a whole game (seconds); the failing seed is reported.
@settings(
    max_examples=share(0.1), deadline=None, phases=[Stage.explicit, Stage.reuse, Stage.generate]
)
@given(st.sampled_from(CASES), st.integers(0, 10_000))
def test_the_quick_action_is_legal_from_any_seed(
    case: tuple[str, tuple[dict[str, OptionValue], ...]], seed: int
) -> None:
    variant, sets = case
    _play(variant, sets[seed % len(sets)], seed, 300)


def test_only_the_seat_to_move_gets_a_quick_action() -> None:
    state = new_game(make_rules("basic"), ["ana", "ben"], seed=3)
    other = state.next_seat(state.current)
    with pytest.raises(NotYourTurn):
        quick_action(state, other)


def test_after_the_match_there_is_no_quick_action() -> None:
    state = new_game(make_rules("basic", options={"deals": 1}), ["ana", "ben"], seed=1)
    over = replace(state, phase=Phase.GAME_OVER)
    with pytest.raises(GameOver):
        quick_action(over, 0)
