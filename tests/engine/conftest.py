"""Fixtures for engine tests: stacked deals and a tiny driver for scripted turns."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from engine.actions import Action
from engine.commands import parse_command
from engine.dealing import DealSpec, new_game
from engine.events import Event
from engine.game import apply
from engine.rules import make_rules
from engine.state import GameState


class Table:
    """A game under test: ``play("draw")`` applies a command for the seat to move."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[Event] = []

    def play(self, text: str, seat: int | None = None) -> tuple[Event, ...]:
        """Apply one command (for the current seat unless ``seat`` is given)."""
        who = self.state.current if seat is None else seat
        action = parse_command(text, who)
        assert not hasattr(action, "verb"), f"{text} is not a game action"
        return self.act(action)  # type: ignore[arg-type]

    def act(self, action: Action) -> tuple[Event, ...]:
        self.state, events = apply(self.state, action)
        self.events.extend(events)
        return events

    def hand(self, seat: int) -> list[str]:
        return sorted(str(c) for c in self.state.hands[seat])


StackFactory = Callable[..., Table]


@pytest.fixture
def stacked() -> StackFactory:
    """``stacked(hands, upcard, stock, preset=None, dealer=<last seat>, **options)``.

    The starter is seat 0 (left of the dealer), so ``hands[0]`` moves first.
    """

    def make(
        hands: Sequence[str],
        upcard: str | None,
        stock: str = "",
        preset: str | None = None,
        dealer: int | None = None,
        seed: int = 1,
        **options: Any,
    ) -> Table:
        rules = make_rules("basic", preset, options)
        names = ["ana", "ben", "cem", "dan", "eve", "fay"][: len(hands)]
        first_dealer = len(hands) - 1 if dealer is None else dealer
        deal = DealSpec.parse(hands, upcard, stock)
        return Table(new_game(rules, names, seed=seed, dealer=first_dealer, deal=deal))

    return make
