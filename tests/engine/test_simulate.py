"""AI-vs-AI matches through the engine (engine/simulate.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest

import engine.simulate as simulation
from engine.actions import Action, MeldCards
from engine.ai import UnknownAI
from engine.errors import RuleOptionError
from engine.game import apply, apply_legal, legal_actions
from engine.rules import make_rules
from engine.simulate import SimulationResult, seat_seed, simulate
from engine.state import GameState


@pytest.mark.parametrize("preset", ["standard", "beginner", "block", "wrotham"])
def test_greedy_matches_of_every_preset_finish(preset: str) -> None:
    """Five three-player matches per preset end (none stopped at the action limit) and the
    result adds up: the win shares of the finished matches sum to their number."""
    result = simulate(make_rules("basic", preset), 5, 3)
    assert result.games == 5 and result.players == 3
    assert result.ai == ("greedy", "greedy", "greedy")
    assert result.unfinished == 0
    assert sum(result.wins) == result.games - result.unfinished
    assert all(w >= 0 for w in result.wins)
    assert result.actions > 0 and result.deals >= result.games
    assert result.seconds > 0 and result.games_per_second > 0
    assert result.mean_actions == result.actions / result.games
    assert sum(result.win_shares) == pytest.approx(1.0)


def test_only_listed_actions_take_the_trusted_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """German Rommé AIs make a first meld of several melds as one move, which the legal
    list names meld by meld: such a move is verified (engine.game.apply), and every move
    on the trusted path (apply_legal, no second check) is one of the list."""
    trusted: list[object] = []
    verified: list[object] = []

    def checked_legal(state: GameState, action: Action) -> object:
        seats = range(state.seats)
        assert any(action in legal_actions(state, seat) for seat in seats)
        trusted.append(action)
        return apply_legal(state, action)

    def counted(state: GameState, action: Action) -> object:
        verified.append(action)
        return apply(state, action)

    monkeypatch.setattr(simulation, "apply_legal", checked_legal)
    monkeypatch.setattr(simulation, "apply", counted)
    result = simulate(make_rules("german", options={"deals": 1}), 4, 2, ai=("hard", "greedy"))
    assert result.unfinished == 0 and trusted
    assert verified and all(isinstance(a, MeldCards) and len(a.groups) > 1 for a in verified)


def test_mixed_fields_report_each_seats_share() -> None:
    result = simulate(
        make_rules("basic", options={"deals": 1}), 6, 3, ai=("greedy", "random", "random")
    )
    assert result.ai == ("greedy", "random", "random")
    assert sum(result.wins) == 6 - result.unfinished


def test_a_match_over_the_action_limit_is_unfinished() -> None:
    result = simulate(make_rules("basic"), 2, 2, max_actions=5)
    assert result.unfinished == 2
    assert result.actions == 10
    assert result.wins == (Fraction(0), Fraction(0))
    assert result.win_shares == (0.0, 0.0)


def test_the_same_seed_plays_the_same_matches() -> None:
    rules = make_rules("basic", options={"deals": 1})
    one = simulate(rules, 3, 2, seed=5, ai=("greedy", "random"))
    two = simulate(rules, 3, 2, seed=5, ai=("greedy", "random"))
    assert (one.actions, one.wins, one.deals) == (two.actions, two.wins, two.deals)


def test_every_seat_of_every_game_has_its_own_seed() -> None:
    seeds = {seat_seed(0, game, seat) for game in range(50) for seat in range(6)}
    assert len(seeds) == 300


def test_zero_games() -> None:
    result = simulate(make_rules("basic"), 0, 2)
    assert result == SimulationResult(
        0, 2, ("greedy", "greedy"), result.seconds, 0, 0, (Fraction(0), Fraction(0)), 0
    )
    assert result.mean_actions == 0.0


def test_bad_arguments_are_refused() -> None:
    rules = make_rules("basic")
    with pytest.raises(ValueError):
        simulate(rules, 1, 3, ai=("greedy", "random"))
    with pytest.raises(ValueError):
        simulate(rules, -1, 2)
    with pytest.raises(UnknownAI):
        simulate(rules, 1, 2, ai="clever")
    with pytest.raises(RuleOptionError):
        simulate(rules, 1, 7)


def test_progress_is_reported_after_every_match() -> None:
    """`rummy-bot simulate` shows a progress bar: the engine reports each finished match."""
    reported: list[int] = []
    result = simulate(make_rules("basic", "block"), 3, 2, seed=1, progress=reported.append)
    assert reported == [1, 1, 1] and result.games == 3
