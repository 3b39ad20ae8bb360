"""Invariants of German Rommé over random playouts (hypothesis): every card is accounted for
after every action, the seat to act always has a legal action, an illegal action raises a
typed ``IllegalMove`` and changes nothing, the state survives JSON exactly, the chip sheet
adds up to zero, views hide other hands, and games of greedy players end."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Discard, Draw, LayOff, MeldCards, NextDeal, SwapJoker, TakeDiscard
from engine.cards import Card
from engine.dealing import new_game
from engine.game import apply, current_player, is_over, legal_actions
from engine.melds import CardSpec
from engine.rules import make_rules
from engine.serialize import state_from_dict, state_to_dict
from engine.simulate import simulate
from engine.state import GameState, Phase
from engine.variants import get_variant
from engine.variants.german.actions import (
    BuyBack,
    DeclineBuyBack,
    EndLayOffs,
    ExchangeJoker,
    TakeBack,
)
from engine.views import view_for
from tests.examples import share

from ..invariants import check_probe

NAMES = ["ana", "ben", "cem", "dan", "eve", "fay"]

option_sets = st.fixed_dictionaries(
    {},
    optional={
        "four_jokers": st.booleans(),
        "around": st.booleans(),
        "dealer_extra": st.booleans(),
        "opening": st.sampled_from([30, 35, 40, 50]),
        "opening_exceed": st.booleans(),
        "two_player_cards": st.sampled_from([13, 14, 15]),
        "one_joker": st.booleans(),
        "card_values": st.sampled_from(["standard", "flat"]),
        "set_swap_four": st.booleans(),
        "open_turn_play": st.booleans(),
        "no_rummy_first_turn": st.booleans(),
        "one_layoff": st.booleans(),
        "closing_layoffs": st.booleans(),
        "joker_steal": st.booleans(),
        "round_bonus": st.sampled_from([0, 10]),
        "pot_split": st.booleans(),
    },
)
games = st.tuples(
    st.sampled_from(["standard", "deals", "gameduell", "pot"]),
    option_sets,
    st.sampled_from([None, 30, 60]),
    st.integers(2, 6),
    st.integers(0, 2**32),
)


def _start(
    preset: str, options: dict[str, Any], target: int | None, players: int, seed: int
) -> GameState:
    opts: dict[str, Any] = dict(options)
    if target is not None:
        opts["target"] = target
    if preset == "standard" and target is None:
        opts["deals"] = 2
    return new_game(make_rules("german", preset, opts), NAMES[:players], seed=seed)


def _cards(state: GameState) -> Counter[Card]:
    cards = [c for h in state.hands for c in h] + list(state.stock) + list(state.discard)
    return Counter(cards + [p.card for m in state.melds for p in m.cards])


def _random_action(state: GameState, rng: random.Random) -> Any:
    """Any action at all, mostly illegal."""
    pack = sorted(
        set(get_variant("german").deck(state.rules, state.seats)), key=lambda c: c.sort_key
    )
    seat = rng.randrange(state.seats)
    kind = rng.randrange(12)
    specs = tuple(CardSpec(c) for c in rng.sample(pack, rng.randint(1, 4)))
    meld = rng.randrange(-1, len(state.melds) + 1)
    return [
        Draw(seat),
        TakeDiscard(seat),
        MeldCards(seat, (specs,)),
        LayOff(seat, specs[:1], meld),
        SwapJoker(seat, rng.choice(pack), meld),
        Discard(seat, rng.choice(pack)),
        NextDeal(seat),
        TakeBack(seat),
        EndLayOffs(seat),
        BuyBack(seat),
        DeclineBuyBack(seat),
        ExchangeJoker(seat, (rng.choice(pack),), meld, specs),
    ][kind]


def _check_views(state: GameState) -> None:
    for seat in range(state.seats):
        view = view_for(state, seat)
        assert view.hand == state.hands[seat]
        if state.phase in (Phase.DRAW, Phase.PLAY):
            assert view.table.shown_hands is None


@given(games, st.integers(0, 2**32))
def test_random_playouts_keep_every_invariant(game: tuple[Any, ...], seed: int) -> None:
    preset, options, target, players, game_seed = game
    state = _start(preset, options, target, players, game_seed)
    pack = Counter(get_variant("german").deck(state.rules, players))
    rng = random.Random(seed)
    for step in range(250):
        assert _cards(state) == pack
        assert sum(state.extra.chips) + state.extra.pot == 0
        if is_over(state):
            assert legal_actions(state, 0) == []
            break
        seat = current_player(state)
        actor = seat if seat is not None else rng.randrange(state.seats)
        legal = legal_actions(state, actor)
        assert legal, (state.phase, actor)
        _check_views(state)
        check_probe(state, _random_action(state, rng))
        if step % 25 == 0:
            assert state_from_dict(state_to_dict(state)) == state
        new, _ = apply(state, rng.choice(legal))
        assert new.version == state.version + 1
        state = new


@settings(max_examples=share(0.1))
@given(option_sets, st.integers(2, 6), st.integers(0, 2**16))
def test_greedy_matches_end(options: dict[str, Any], players: int, seed: int) -> None:
    """Games of greedy players end: a first meld is reached, someone goes out, and the
    match ends by elimination (target 60)."""
    options = {**options, "target": 60}
    result = simulate(make_rules("german", None, options), 1, players, seed=seed, max_actions=8000)
    assert result.unfinished == 0
    assert sum(result.wins) == 1


def test_random_players_finish_short_matches() -> None:
    """A one-deal match of random players ends too (random play also takes back, exchanges
    and lays off)."""
    result = simulate(
        make_rules("german", "deals", {"deals": 1}), 4, 3, seed=11, ai="random", max_actions=40000
    )
    assert result.unfinished == 0
