"""Fixtures for Rummy 500 tests: stacked deals and a driver for record-style lines."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from engine.cards import parse_cards
from engine.commands import find_player, parse_record_line
from engine.dealing import DealSpec, new_game
from engine.errors import IllegalMove
from engine.game import apply
from engine.rules import make_rules
from engine.state import GameState

NAMES = ("ana", "ben", "cem", "dan", "eve", "fay", "gus", "hal")


def sorted_names(text: str) -> list[str]:
    """The cards of ``text`` in notation, sorted as :meth:`Game.hand` lists them."""
    return sorted(str(c) for c in parse_cards(text))


class Game:
    """A Rummy 500 game under test: ``game.do("ben: take 4c")`` applies a record line."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[Any] = []

    def seat(self, name: str) -> int:
        return find_player(name, self.state.players)

    def do(self, *lines: str) -> tuple[Any, ...]:
        """Apply record lines in order; returns the events of the last one."""
        events: tuple[Any, ...] = ()
        for line in lines:
            self.state, events = apply(self.state, parse_record_line(line, self.state.players))
            self.events.extend(events)
        return events

    def refuse(self, line: str, error: type[IllegalMove]) -> IllegalMove:
        """Assert that ``line`` raises ``error`` and changes nothing; returns the error."""
        before = self.state
        with pytest.raises(error) as caught:
            apply(self.state, parse_record_line(line, self.state.players))
        assert self.state == before
        return caught.value

    def hand(self, name: str) -> list[str]:
        return sorted(str(c) for c in self.state.hands[self.seat(name)])

    def pile(self) -> list[str]:
        return [str(c) for c in self.state.discard]

    def meld(self, number: int) -> str:
        """Meld ``number`` (1-based, as players see it) in notation."""
        return str(self.state.melds[number - 1])


Deal500 = Callable[..., Game]


@pytest.fixture
def deal500() -> Deal500:
    """``deal500(hands, upcard, stock="", preset=None, dealer=None, **options)``.

    ``hands`` are notation strings, one per seat (ana, ben, cem, ...); the dealer is
    the last seat unless given, so ana (seat 0) moves first. ``stock`` is top first and
    may be shorter than the rest of the pack.
    """

    def make(
        hands: Sequence[str],
        upcard: str,
        stock: str = "",
        preset: str | None = None,
        dealer: int | None = None,
        **options: Any,
    ) -> Game:
        rules = make_rules("500", preset, options)
        names = list(NAMES[: len(hands)])
        first_dealer = len(hands) - 1 if dealer is None else dealer
        deal = DealSpec.parse(hands, upcard, stock)
        return Game(new_game(rules, names, seed=5, dealer=first_dealer, deal=deal))

    return make
