"""The expert's policy (engine/ai/expert_policy.py): the hard player with its weights and
thresholds as parameters. With the hard player's values it plays exactly as the hard
player; other values change its decisions the way the parameters say."""

from __future__ import annotations

import pytest

from engine.actions import Discard, LayOff, MeldCards
from engine.ai.expert_policy import (
    HARD_PARAMS,
    TUNED,
    PolicyParams,
    PolicyPlayer,
    params_for,
)
from engine.ai.hard import HardPlayer
from engine.game import can, legal_actions
from engine.state import Phase
from engine.views import view_for
from tests.engine.test_expert_ai import _positions

VARIANTS = ["basic", "500", "german", "romanian"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_with_the_hard_values_it_decides_as_the_hard_player(variant: str) -> None:
    decided = 0
    for seed in (1, 2):
        for state in _positions(variant, seed, 150):
            seat = state.current
            view, legal = view_for(state, seat), legal_actions(state, seat)
            action = PolicyPlayer(seed, HARD_PARAMS).decide(view, legal)
            assert action == HardPlayer(seed).decide(view, legal)
            assert action in legal or (isinstance(action, MeldCards) and can(state, action))
            decided += 1
    assert decided >= 20


def test_a_heavier_feed_weight_changes_some_discards() -> None:
    """The feed weight is read: weighing the next player's chance of using a discard
    very heavily picks other discards than the hard player somewhere in a few deals."""
    heavy = PolicyParams(feed_weight=50.0)
    changed = 0
    for seed in range(1, 6):
        for state in _positions("basic", seed, 150):
            if state.phase is not Phase.PLAY:
                continue
            seat = state.current
            view, legal = view_for(state, seat), legal_actions(state, seat)
            action = PolicyPlayer(seed, heavy).decide(view, legal)
            assert action in legal
            changed += isinstance(action, Discard) and action != HardPlayer(seed).decide(
                view, legal
            )
    assert changed >= 1


def test_a_german_first_meld_that_never_waits_is_made_at_once() -> None:
    """With the first meld's wait at the largest hand (``open_german`` above any hand
    size) the seat opens as soon as the greedy plan reaches the minimum; the hard player
    (waits while the other holds more than three cards) discards instead somewhere."""
    eager = PolicyParams(open_german=99)
    differs = 0
    for seed in range(1, 8):
        for state in _positions("german", seed, 150):
            seat = state.current
            view, legal = view_for(state, seat), legal_actions(state, seat)
            hard = HardPlayer(seed).decide(view, legal)
            mine = PolicyPlayer(seed, eager).decide(view, legal)
            if isinstance(mine, MeldCards) and not isinstance(hard, MeldCards):
                differs += 1
    assert differs >= 1


def test_params_for_a_variant_are_its_tuned_values_or_the_hard_ones() -> None:
    for variant in VARIANTS:
        assert params_for(variant) == TUNED.get(variant, HARD_PARAMS)
    assert params_for("no such variant") == HARD_PARAMS


def test_in_rummy_500_the_tuned_policy_melds_where_the_hard_player_holds_back() -> None:
    """With the melds held only while the other holds more than eight cards (the hard
    player: five), the tuned policy melds or lays off at some positions where the hard
    player discards, and never the other way round."""
    tuned = params_for("500")
    assert tuned.hold_500 > HARD_PARAMS.hold_500
    earlier = 0
    for seed in range(1, 5):
        for state in _positions("500", seed, 150):
            if state.phase is not Phase.PLAY:
                continue
            seat = state.current
            view, legal = view_for(state, seat), legal_actions(state, seat)
            hard = HardPlayer(seed).decide(view, legal)
            mine = PolicyPlayer(seed, tuned).decide(view, legal)
            assert mine in legal
            if isinstance(mine, MeldCards | LayOff):
                earlier += isinstance(hard, Discard)
            else:
                assert not isinstance(hard, MeldCards | LayOff)
    assert earlier >= 1
