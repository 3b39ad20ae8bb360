"""Rummy 500 invariants over random playouts (hypothesis), every option in play:

- every card is accounted for after every action;
- the seat to play always has a legal action until the match is over, and each applies;
- during a call window every seat but the discarder may call, and only then;
- an illegal action raises a typed ``IllegalMove`` and changes nothing;
- views never show another seat's hidden cards; the state's JSON round-trips exactly;
- greedy matches end.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action, Discard, Draw, LayOff, MeldCards, NextDeal, TakeDiscard
from engine.ai import make_ai
from engine.cards import Card
from engine.dealing import new_game
from engine.game import apply, current_player, is_over, legal_actions
from engine.melds import CardSpec
from engine.rules import make_rules
from engine.serialize import state_from_dict, state_to_dict
from engine.simulate import simulate
from engine.state import GameState, Phase
from engine.variants import get_variant
from engine.variants.rummy500.actions import CallRummy
from engine.variants.rummy500.state import GameExtra
from engine.views import view_for
from tests.examples import share

from ..invariants import check_probe

NAMES = ["ana", "ben", "cem", "dan", "eve", "fay", "gus", "hal"]

option_sets = st.fixed_dictionaries(
    {},
    optional={
        "jokers": st.booleans(),
        "values": st.sampled_from(["standard", "5_10_15"]),
        "take_must_meld": st.booleans(),
        "take_new_meld": st.booleans(),
        "calling": st.sampled_from(["any", "last_layoff", "off"]),
        "going_out": st.sampled_from(["any", "discard", "float", "unplayable", "callable"]),
        "win_needs_out": st.booleans(),
    },
)
games = st.tuples(
    st.sampled_from(["standard", "original", "book"]),
    option_sets,
    st.integers(2, 8),
    st.integers(0, 2**32),
)


def _rules(preset: str, options: dict[str, Any]) -> Any:
    return make_rules("500", preset, {**options, "target": 120})


def _pack(state: GameState) -> Counter[Card]:
    return Counter(get_variant(state.rules.variant).deck(state.rules, state.seats))


def _cards(state: GameState) -> Counter[Card]:
    cards = [c for h in state.hands for c in h] + list(state.stock) + list(state.discard)
    cards += [p.card for m in state.melds for p in m.cards]
    return Counter(cards)


def _random_action(state: GameState, rng: random.Random) -> Any:
    """Any action at all, mostly illegal: random kind, seat, cards and meld number."""
    pack = list(_pack(state))
    seat = rng.randrange(state.seats)
    kind = rng.randrange(8)
    card = rng.choice(pack)
    if kind == 0:
        return Draw(seat)
    if kind == 1:
        return TakeDiscard(seat, rng.choice([None, card]))
    if kind == 2:
        return MeldCards(seat, (tuple(CardSpec(rng.choice(pack)) for _ in range(3)),))
    if kind == 3:
        return LayOff(seat, (CardSpec(card),), rng.randrange(4))
    if kind == 4:
        return Discard(seat, card)
    if kind == 5:
        return CallRummy(seat, rng.choice([None, card]), rng.choice([None, 0, 2]))
    if kind == 6:
        return NextDeal(seat)
    hand = state.hands[seat]
    return Discard(seat, rng.choice(hand)) if hand else Draw(seat)


def _check(state: GameState, pack: Counter[Card]) -> None:
    assert _cards(state) == pack
    for seat in range(state.seats):
        view = view_for(state, seat)
        assert view.hand == state.hands[seat]
        if state.phase in (Phase.DRAW, Phase.PLAY):
            assert view.table.shown_hands is None
        assert view.table.discard == state.discard
    window = state.extra.call_window if isinstance(state.extra, GameExtra) else None
    for seat in range(state.seats):
        calls = [a for a in legal_actions(state, seat) if isinstance(a, CallRummy)]
        if calls:
            assert window is not None and seat != window.discarder
            assert state.phase is Phase.DRAW


@settings(max_examples=share(0.4), deadline=None)
@given(games)
def test_random_playouts_keep_every_invariant(game: tuple[str, dict[str, Any], int, int]) -> None:
    preset, options, players, seed = game
    state = new_game(_rules(preset, options), NAMES[:players], seed=seed)
    rng = random.Random(seed)
    greedy = [make_ai("greedy", seed + s) for s in range(players)]
    pack = _pack(state)
    for step in range(160):
        if is_over(state):
            break
        seat = current_player(state)
        seat = state.next_seat(state.dealer) if seat is None else seat
        legal = legal_actions(state, seat)
        assert legal, f"seat {seat} has no legal action in {state.phase}"
        callers = [
            s
            for s in range(state.seats)
            if s != seat and any(isinstance(a, CallRummy) for a in legal_actions(state, s))
        ]
        if callers and rng.random() < 0.5:
            seat = rng.choice(callers)
            legal = legal_actions(state, seat)
        if rng.random() < 0.5:
            action: Action = greedy[seat].decide(view_for(state, seat), legal)
        else:
            action = rng.choice(legal)
        check_probe(state, _random_action(state, rng))
        state, _events = apply(state, action)
        if state.phase is Phase.HAND_OVER or step % 10 == 0:
            pack = _pack(state)
        _check(state, pack)
        if step % 15 == 0:
            assert state_from_dict(state_to_dict(state)) == state


@settings(max_examples=share(0.1), deadline=None)
@given(option_sets, st.integers(2, 5), st.integers(0, 1000))
def test_greedy_matches_end(options: dict[str, Any], players: int, seed: int) -> None:
    result = simulate(_rules("standard", options), 2, players, seed=seed, max_actions=6000)
    assert result.unfinished == 0
