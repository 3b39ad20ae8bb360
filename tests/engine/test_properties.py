"""Invariants of the engine over random playouts (hypothesis).

- every card is accounted for after every action;
- the seat to act always has a legal action until the match is over, and each one applies;
- an illegal action raises a typed ``IllegalMove`` and changes nothing;
- views never show another seat's hidden cards, nor a fair deal's secret before the deal
  ends (events neither; the ending reveals it in the deal's result);
- with a limit on re-using the discard pile, every game ends.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

from hypothesis import given
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
from engine.cards import Card, standard_deck
from engine.game import apply, current_player, is_over, legal_actions
from engine.melds import CardSpec, Placed
from engine.rules import make_rules
from engine.state import GameState, Phase
from engine.variants import get_variant
from engine.views import view_for

from .invariants import check_probe

NAMES = ["ana", "ben", "cem", "dan", "eve", "fay"]

option_sets = st.fixed_dictionaries(
    {},
    optional={
        "multiple_melds": st.booleans(),
        "going_rummy": st.sampled_from(["off", "double", "bonus10"]),
        "layoff_after_meld": st.booleans(),
        "ace": st.sampled_from(["low", "high_or_low", "around"]),
        "final_discard": st.booleans(),
        "stock_end": st.sampled_from(["turn_over", "shuffle", "shuffle_keep_top"]),
        "reuses": st.sampled_from([0, 1, 2, "unlimited"]),
        "scoring": st.sampled_from(["winner", "penalty"]),
    },
)
games = st.tuples(
    st.sampled_from(["standard", "beginner", "block", "wrotham"]),
    option_sets,
    st.integers(2, 6),
    st.integers(0, 2**32),
    st.booleans(),
)


def _start(
    preset: str, options: dict[str, Any], players: int, seed: int, fair: bool = False
) -> GameState:
    from engine.dealing import new_game
    from engine.fairness import fair_key_from_seed

    return new_game(
        make_rules("basic", preset, options),
        NAMES[:players],
        seed=seed,
        fair_key=fair_key_from_seed(seed) if fair else None,
    )


def _full_pack(state: GameState) -> Counter[Any]:
    return Counter(get_variant(state.rules.variant).deck(state.rules, state.seats))


def _all_cards(state: GameState) -> Counter[Any]:
    cards = [c for h in state.hands for c in h] + list(state.stock) + list(state.discard)
    cards += [p.card for m in state.melds for p in m.cards]
    return Counter(cards)


def _random_action(state: GameState, rng: random.Random) -> Action:
    """Any action at all, mostly illegal: random kind, seat, cards and meld number."""
    pack = list(_full_pack(state))
    seat = rng.randrange(state.seats)
    kind = rng.randrange(7)
    if kind == 0:
        return Draw(seat)
    if kind == 1:
        return TakeDiscard(seat)
    if kind == 2:
        group = tuple(CardSpec(c) for c in rng.sample(pack, rng.randint(1, 5)))
        return MeldCards(seat, (group,))
    if kind == 3:
        return LayOff(seat, (CardSpec(rng.choice(pack)),), rng.randrange(-1, 4))
    if kind == 4:
        return SwapJoker(seat, rng.choice(pack), rng.randrange(-1, 4))
    if kind == 5:
        return Discard(seat, rng.choice(pack))
    return NextDeal(seat)


def _physical_cards(obj: Any) -> list[Card]:
    """Every physical card reachable from ``obj`` (a joker's declared face is not a card)."""
    if isinstance(obj, Card):
        return [obj]
    if isinstance(obj, Placed):
        return [obj.card]
    if isinstance(obj, tuple | list):
        return [c for item in obj for c in _physical_cards(item)]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return [c for f in dataclasses.fields(obj) for c in _physical_cards(getattr(obj, f.name))]
    return []


def _check_views(state: GameState) -> None:
    """A seat's view shows its own hand and public cards only; while a hand is played no
    other seat's hand card is reachable from it."""
    public = [p.card for m in state.melds for p in m.cards] + list(state.discard[-1:])
    if state.turn.taken is not None:  # it was face up on the pile
        public.append(state.turn.taken)
    for seat in range(state.seats):
        view = view_for(state, seat)
        assert view.hand == state.hands[seat]
        if state.phase in (Phase.DRAW, Phase.PLAY):
            assert view.table.shown_hands is None
            seen = Counter(_physical_cards(view.table))
            assert seen <= Counter(public), seen - Counter(public)
            _check_no_secret(state, view)
        assert view.table.commitment == state.commitment


def _check_no_secret(state: GameState, shown: object) -> None:
    """Neither the running deal's secret nor the game's fair key is in ``shown`` (a view,
    events), in any form."""
    text = repr(shown)
    for hidden in (state.deal_secret, state.fair_key):
        if hidden is not None:
            assert hidden.hex() not in text and repr(hidden) not in text


@given(games, st.integers(0, 2**32))
def test_random_playouts_keep_every_invariant(game: tuple[Any, ...], seed: int) -> None:
    preset, options, players, game_seed, fair = game
    state = _start(preset, options, players, game_seed, fair)
    pack = _full_pack(state)
    rng = random.Random(seed)
    for _ in range(300):
        assert _all_cards(state) == pack
        if is_over(state):
            assert legal_actions(state, 0) == []
            break
        seat = current_player(state)
        actor = seat if seat is not None else rng.randrange(state.seats)
        legal = legal_actions(state, actor)
        assert legal, (state.phase, actor)
        _check_views(state)
        check_probe(state, _random_action(state, rng))
        action = rng.choice(legal)
        new, events = apply(state, action)
        assert new.version == state.version + 1
        _check_reveal(state, new, events)
        state = new


def _check_reveal(state: GameState, new: GameState, events: tuple[Any, ...]) -> None:
    """A fair deal's secret stays out of the events until its deal is scored; then the
    deal's result and ``HandEnded`` reveal it next to the commitment announced at the
    start (``DealStarted``) and checked against the deck it deals."""
    from engine.events import DealStarted, HandEnded
    from engine.fairness import commitment

    ended = [e for e in events if isinstance(e, HandEnded)]
    if state.deal_secret is not None and not ended:
        _check_no_secret(state, events)
    if ended and state.deal_secret is not None:
        assert ended[0].secret == state.deal_secret.hex() == new.results[-1].secret
        assert ended[0].commitment == state.commitment == new.results[-1].commitment
    for event in events:
        if isinstance(event, DealStarted):
            assert event.commitment == new.commitment
            if new.deal_secret is not None:
                deck = new.rules.var.deck_order(
                    new.rules, new.seats, new.deal_secret, new.deal_number
                )
                assert event.commitment == commitment(deck, new.deal_secret)


@given(
    st.sampled_from(["standard", "beginner", "wrotham"]),
    st.integers(0, 2),
    st.integers(2, 4),
    st.integers(0, 2**32),
)
def test_games_end_when_the_discard_pile_re_use_is_limited(
    preset: str, reuses: int, players: int, seed: int
) -> None:
    """basic-rummy.de.txt: "Um dies zu vermeiden, kann es eine gute Idee sein, die Häufigkeit
    zu begrenzen, mit der der Ablagestapel als neuer Vorrat wiederverwendet werden kann." With
    a limit every hand ends, so a one-deal match ends under any play (here: random play)."""
    options: dict[str, Any] = {"reuses": reuses, "deals": 1, "target": "none"}
    state = _start(preset, options, players, seed)
    rng = random.Random(seed)
    steps = 0
    while not is_over(state):
        seat = current_player(state)
        assert seat is not None
        state, _ = apply(state, rng.choice(legal_actions(state, seat)))
        steps += 1
        assert steps < 50_000
    assert state.results[-1].deal_number == 1


def test_full_pack_is_dealt_for_every_preset() -> None:
    """Dealt cards, upcard and stock are exactly the pack: 52 cards, 55 in Wrotham."""
    for preset, size in (("standard", 52), ("beginner", 52), ("block", 52), ("wrotham", 55)):
        state = _start(preset, {}, 3, 1)
        assert sum(_all_cards(state).values()) == size
        assert _all_cards(state) == Counter(standard_deck(1, 3 if preset == "wrotham" else 0))
