"""Invariants of Romanian Rummy over random playouts (hypothesis).

- all 106 tiles are accounted for after every action (racks, wall, discard row, melds and
  the face-up tile);
- the seat to act always has a legal action until the match is over, and each applies;
- an illegal action raises a typed ``IllegalMove`` and changes nothing;
- views show no hidden tile; the state survives its JSON form exactly;
- every Joly on the table has a track whose last place is where it stands;
- games of AI players end.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import (
    Action,
    Discard,
    Draw,
    LayOff,
    MeldCards,
    NextDeal,
    SwapJoker,
    TakeDiscard,
)
from engine.cards import Card
from engine.dealing import new_game
from engine.game import apply, current_player, is_over, legal_actions
from engine.melds import CardSpec, Placed
from engine.rules import make_rules
from engine.serialize import state_from_dict, state_to_dict
from engine.simulate import simulate
from engine.state import GameState, Phase
from engine.variants.romanian.actions import (
    AnnounceDoubla,
    AnnounceFaceUp,
    AnswerDoubla,
    ExchangeJoly,
    OfferDoubla,
    Ready,
    TakeFaceUp,
)
from engine.variants.romanian.state import RomanianExtra, TurnExtra
from engine.variants.romanian.tiles import tile_set
from engine.views import view_for
from tests.examples import share

from ..invariants import check_probe
from .conftest import all_tiles

NAMES = ["ana", "ben", "cem", "dan"]
TILES = tile_set()

option_sets = st.fixed_dictionaries(
    {},
    optional={
        "opening": st.sampled_from([45, 50]),
        "no_meld": st.sampled_from(["flat200", "100_plus_rack"]),
        "opening_take": st.booleans(),
        "joly_double": st.booleans(),
        "preplay": st.booleans(),
        "renewals": st.sampled_from([0, 1, "unlimited"]),
        "deals": st.sampled_from([1, 2]),
    },
)
games = st.tuples(
    st.sampled_from(["standard", "variations"]),
    option_sets,
    st.integers(2, 4),
    st.integers(0, 2**32),
)


def _random_action(state: GameState, rng: random.Random) -> Any:
    """Any action at all, mostly illegal."""
    seat = rng.randrange(state.seats)
    tile = rng.choice(TILES)
    kind = rng.randrange(14)
    group = tuple(CardSpec(t) for t in rng.sample(TILES, rng.randint(1, 5)))
    return [
        Draw(seat),
        TakeDiscard(seat),
        TakeDiscard(seat, tile),
        MeldCards(seat, (group,)),
        LayOff(seat, (CardSpec(tile),), rng.randrange(-1, 5)),
        SwapJoker(seat, tile, rng.randrange(-1, 5)),
        Discard(seat, tile),
        NextDeal(seat),
        TakeFaceUp(seat),
        ExchangeJoly(seat, (tile,), rng.randrange(-1, 5)),
        AnnounceDoubla(seat, rng.choice(["", "high", "low"])),
        AnnounceFaceUp(seat),
        OfferDoubla(seat, tile, rng.choice(NAMES)),
        AnswerDoubla(seat, tile),
        Ready(seat),
    ][kind]


def _physical(obj: Any) -> list[Card]:
    """Every physical tile reachable from ``obj`` (a Joly's face is not a tile; Joly tracks
    only repeat table history and ``first_discard`` the row's first tile)."""
    if isinstance(obj, Card):
        return [obj]
    if isinstance(obj, Placed):
        return [obj.card]
    if isinstance(obj, tuple | list):
        return [c for item in obj for c in _physical(item)]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return [
            c
            for f in dataclasses.fields(obj)
            if f.name not in ("jolys", "first_discard")
            for c in _physical(getattr(obj, f.name))
        ]
    return []


def _check_views(state: GameState) -> None:
    extra = state.extra
    assert isinstance(extra, RomanianExtra)
    public = [p.card for m in state.melds for p in m.cards] + list(state.discard)
    if extra.face_up is not None:
        public.append(extra.face_up)
    if state.turn.taken is not None:
        public.append(state.turn.taken)
    turn = state.turn.extra
    if isinstance(turn, TurnExtra) and turn.obligation is not None:
        public.append(turn.obligation.tile)  # taken from the row or the table, face up
    for seat in range(state.seats):
        view = view_for(state, seat)
        assert view.hand == state.hands[seat]
        if state.phase in (Phase.DRAW, Phase.PLAY):
            seen = Counter(_physical(view.table))
            assert seen <= Counter(public), seen - Counter(public)


def _check_jolys(state: GameState) -> None:
    extra = state.extra
    assert isinstance(extra, RomanianExtra)
    on_table = sorted(
        (i, str(p.face)) for i, m in enumerate(state.melds) for p in m.cards if p.card.is_joker
    )
    tracked = sorted(
        (t.places[-1].meld, str(t.places[-1].face)) for t in extra.jolys if not t.pending
    )
    assert on_table == tracked


@settings(max_examples=share(0.4), deadline=None)
@given(games, st.integers(0, 2**32))
def test_random_playouts_keep_every_invariant(game: tuple[Any, ...], seed: int) -> None:
    preset, options, players, game_seed = game
    rules = make_rules("romanian", preset, options)
    state = new_game(rules, NAMES[:players], seed=game_seed)
    full = Counter(TILES)
    rng = random.Random(seed)
    for step in range(250):
        assert all_tiles(state) == full
        if is_over(state):
            assert legal_actions(state, 0) == []
            break
        seat = current_player(state)
        actor = seat if seat is not None else rng.randrange(state.seats)
        legal = legal_actions(state, actor)
        assert legal, (state.phase, actor)
        _check_views(state)
        _check_jolys(state)
        if step % 25 == 0:
            assert state_from_dict(state_to_dict(state)) == state
        check_probe(state, _random_action(state, rng))
        action: Action = rng.choice(legal)
        new, _ = apply(state, action)
        assert new.version == state.version + 1
        state = new


def test_ai_games_end() -> None:
    """Greedy players finish their matches (2, 3 and 4 players, the wall renewed or not)."""
    for players in (2, 3, 4):
        for renewals in (0, None):
            rules = make_rules("romanian", options={"deals": 2, "renewals": renewals})
            result = simulate(rules, 3, players, seed=players, max_actions=6000)
            assert result.unfinished == 0
            assert sum(result.wins) == 3


def test_random_players_end_too() -> None:
    rules = make_rules("romanian", "variations", {"deals": 1, "renewals": 1})
    result = simulate(rules, 4, 3, seed=9, ai=("random", "greedy", "random"), max_actions=6000)
    assert result.unfinished == 0
