"""Fixtures for German Rommé tests: stacked deals and a driver for scripted turns."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from engine.commands import UiCommand, parse_command
from engine.dealing import DealSpec, new_game
from engine.game import apply
from engine.rules import make_rules
from engine.state import GameState

NAMES = ["ana", "ben", "cem", "dan", "eve", "fay"]


class Table:
    """A German Rommé game under test: ``play("draw")`` applies a command for the seat to
    move (or ``seat``); ``events`` collects every event."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[Any] = []

    def play(self, text: str, seat: int | None = None) -> tuple[Any, ...]:
        who = self.state.current if seat is None else seat
        action = parse_command(text, who)
        assert not isinstance(action, UiCommand), f"{text} is not a game action"
        return self.act(action)

    def act(self, action: Any) -> tuple[Any, ...]:
        self.state, events = apply(self.state, action)
        self.events.extend(events)
        return events

    def hand(self, seat: int) -> list[str]:
        return sorted(str(c) for c in self.state.hands[seat])

    def of(self, kind: type) -> list[Any]:
        """The collected events of one type."""
        return [e for e in self.events if isinstance(e, kind)]


GermanFactory = Callable[..., Table]


@pytest.fixture
def german() -> GermanFactory:
    """``german(hands, upcard, stock="", preset=None, dealer=<last seat>, seed=1, **options)``:
    a German Rommé game dealt as given. The starter is seat 0 (left of the dealer)."""

    def make(
        hands: Sequence[str],
        upcard: str | None,
        stock: str = "",
        preset: str | None = None,
        dealer: int | None = None,
        seed: int = 1,
        **options: Any,
    ) -> Table:
        rules = make_rules("german", preset, options)
        names = NAMES[: len(hands)]
        first_dealer = len(hands) - 1 if dealer is None else dealer
        deal = DealSpec.parse(hands, upcard, stock)
        return Table(new_game(rules, names, seed=seed, dealer=first_dealer, deal=deal))

    return make
