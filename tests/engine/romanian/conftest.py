"""Fixtures for Romanian Rummy tests: stacked deals (hands, face-up tile, draw order) and
a driver that plays commands for the seat to move."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import pytest

from engine.actions import Action
from engine.cards import JOKER, Card, parse_card, parse_cards
from engine.commands import parse_command
from engine.dealing import DealSpec, new_game
from engine.errors import IllegalMove
from engine.game import apply, can
from engine.melds import CardSpec, check_meld
from engine.rules import make_rules
from engine.state import GameState, Phase, TurnState
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.state import JolyPlace, JolyTrack, RomanianExtra
from engine.variants.romanian.tiles import tile_set

NAMES = ["ana", "ben", "cem", "dan"]


class Rummy:
    """A Romanian game under test: ``play("draw")`` applies a command for the seat to move
    (or ``seat``); ``refuse("...", code)`` checks that a command is illegal with that code
    and changes nothing."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[Any] = []

    def action(self, text: str, seat: int | None = None) -> Action:
        who = self.state.current if seat is None else seat
        action = parse_command(text, who)
        assert not hasattr(action, "verb") or hasattr(action, "seat"), text
        return action  # type: ignore[return-value]

    def play(self, text: str, seat: int | None = None) -> tuple[Any, ...]:
        return self.act(self.action(text, seat))

    def act(self, action: Action) -> tuple[Any, ...]:
        self.state, events = apply(self.state, action)
        self.events.extend(events)
        return events

    def refuse(self, text: str, code: str, seat: int | None = None) -> IllegalMove:
        action = self.action(text, seat)
        before = self.state
        assert not can(before, action), text
        with pytest.raises(IllegalMove) as info:
            apply(before, action)
        assert info.value.code == code, (text, info.value.code, str(info.value))
        assert self.state == before
        return info.value

    def hand(self, seat: int) -> list[str]:
        return sorted(str(c) for c in self.state.hands[seat])

    @property
    def extra(self) -> RomanianExtra:
        extra = self.state.extra
        assert isinstance(extra, RomanianExtra)
        return extra

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]

    def setup(
        self,
        current: int = 0,
        phase: Phase = Phase.DRAW,
        melds: Sequence[tuple[int, str]] = (),
        discard: str = "",
        opened: Sequence[bool] | None = None,
    ) -> None:
        """Jump into the middle of a game: ``current`` to play in ``phase``, the table
        ``melds`` ((owner, tiles) each, Jolys tracked for their owner), the discard row
        (first tile first) and who has opened (default: the meld owners)."""
        table = []
        tracks = []
        for owner, text in melds:
            found = check_meld([CardSpec.parse(t) for t in text.split()], owner, MELD_RULES)
            assert len(found) == 1, text
            index = len(table)
            table.append(found[0])
            tracks += [
                JolyTrack((JolyPlace(index, p.face, owner),))
                for p in found[0].cards
                if p.card.is_joker
            ]
        seats = self.state.seats
        has = (
            tuple(opened)
            if opened is not None
            else tuple(any(o == s for o, _ in melds) for s in range(seats))
        )
        self.state = replace(
            self.state,
            current=current,
            phase=phase,
            melds=tuple(table),
            discard=parse_cards(discard),
            has_melded=has,
            has_played=has,
            turn=TurnState(fresh=not has[current]),
            extra=replace(self.extra, jolys=tuple(tracks)),
        )


Factory = Callable[..., Rummy]


def all_tiles(state: GameState) -> Counter[Card]:
    """Every tile of the game: racks, wall, discard row, melds and the face-up tile."""
    extra = state.extra
    tiles = [c for h in state.hands for c in h] + list(state.stock) + list(state.discard)
    tiles += [p.card for m in state.melds for p in m.cards]
    if isinstance(extra, RomanianExtra) and extra.face_up is not None:
        tiles.append(extra.face_up)
    return Counter(tiles)


@pytest.fixture
def romanian() -> Factory:
    """``romanian(hands, face_up="r13", stock="", dealer=<last seat>, preset=None,
    **options)``: a stacked Romanian game; ``hands[0]`` is the first player (the seat
    after the dealer). The pre-play step is off unless ``preplay=True`` is given."""

    def make(
        hands: Sequence[str],
        face_up: str | None = "r13",
        stock: str = "",
        dealer: int | None = None,
        preset: str | None = None,
        seed: int = 1,
        **options: Any,
    ) -> Rummy:
        options.setdefault("preplay", False)
        rules = make_rules("romanian", preset, options)
        names = NAMES[: len(hands)]
        first_dealer = len(hands) - 1 if dealer is None else dealer
        spec = DealSpec(
            tuple(parse_cards(h) for h in hands),
            None,
            parse_cards(stock),
            parse_card(face_up) if face_up else None,
        )
        return Rummy(new_game(rules, names, seed=seed, dealer=first_dealer, deal=spec))

    return make


def wall_deck(extra: str, seed: int = 5) -> list[Card]:
    """106 tiles in a fixed order ending with the extra tile ``extra`` (a Joly last would
    have no number)."""
    import random

    tiles = tile_set()
    last = parse_card(extra)
    tiles.remove(last)
    random.Random(seed).shuffle(tiles)
    return [*tiles, last]


__all__ = ["JOKER", "Factory", "Rummy", "all_tiles", "wall_deck"]
