"""State <-> JSON dict: exact round trips and typed errors for bad input."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.actions import LayOff, MeldCards
from engine.cards import JOKER, Card, parse_card, parse_cards
from engine.errors import EngineError, RuleOptionError
from engine.game import apply, current_player, legal_actions, new_game
from engine.melds import Meld, MeldKind, Placed
from engine.rules import make_rules
from engine.serialize import (
    RecordCardError,
    RecordError,
    fraction_from_json,
    fraction_to_json,
    meld_from_dict,
    meld_to_dict,
    rules_from_dict,
    rules_to_dict,
    state_from_dict,
    state_to_dict,
)
from engine.state import GameState, Phase
from engine.variants import get_variant

PRESETS = sorted(get_variant("basic").presets)
NAMES = ("ana", "ben", "cem", "dora", "emil", "fritz")


def playout(preset: str, seats: int, seed: int, steps: int) -> GameState:
    """A random game: melds and lay-offs are preferred so that deals end."""
    rng = random.Random(seed)
    state = new_game(make_rules("basic", preset), NAMES[:seats], seed=seed)
    for _ in range(steps):
        if state.phase is Phase.GAME_OVER:
            break
        seat = current_player(state)
        legal = legal_actions(state, rng.randrange(seats) if seat is None else seat)
        assert legal, "the seat to act always has a legal action"
        good = [a for a in legal if isinstance(a, MeldCards | LayOff)]
        state, _ = apply(state, rng.choice(good if good and rng.random() < 0.8 else legal))
    return state


def json_round_trip(state: GameState) -> GameState:
    return state_from_dict(json.loads(json.dumps(state_to_dict(state))))


@given(st.sampled_from(PRESETS), st.integers(2, 6), st.integers(0, 2**63 - 1), st.integers(0, 400))
def test_round_trip_of_random_playouts(preset: str, seats: int, seed: int, steps: int) -> None:
    state = playout(preset, seats, seed, steps)
    assert json_round_trip(state) == state


@pytest.mark.parametrize("preset", PRESETS)
def test_round_trip_across_several_deals(preset: str) -> None:
    state = playout(preset, 3, 5, 900)
    assert state.deal_number >= 2 and state.results
    assert json_round_trip(state) == state


def test_encoding_is_plain_json() -> None:
    state = new_game(
        make_rules("basic", "beginner", {"ace": "around"}), ("ana", "ben"), seed=3, dealer=1
    )
    data = state_to_dict(state)
    assert data["rules"] == {
        "variant": "basic",
        "preset": "beginner",
        "options": state.rules.as_dict(),
    }
    assert data["rules"]["options"]["ace"] == "around"
    assert data["phase"] == "draw"
    assert data["players"] == ["ana", "ben"]
    assert all(isinstance(c, str) for h in data["hands"] for c in h)
    assert data["discard"] == [str(state.upcard)]
    assert data["totals"] == [0, 0]
    assert json.loads(json.dumps(data)) == data


def test_fractions_are_ints_when_whole_else_n_over_d() -> None:
    """Block Rummy splits a tie: "Wenn zwei oder mehr Spieler unentschieden spielen, teilen
    sie die Gewinne zu gleichen Teilen." - so scores can be halves."""
    assert fraction_to_json(Fraction(12)) == 12
    assert fraction_to_json(Fraction(25, 2)) == "25/2"
    assert fraction_to_json(Fraction(-7, 3)) == "-7/3"
    assert fraction_from_json("25/2", "x") == Fraction(25, 2)
    assert fraction_from_json(-4, "x") == Fraction(-4)
    state = new_game(make_rules("basic", "block"), ("ana", "ben", "cem"), seed=1)
    split = replace(state, totals=(Fraction(25, 2), Fraction(25, 2), Fraction(0)))
    data = state_to_dict(split)
    assert data["totals"] == ["25/2", "25/2", 0]
    assert json_round_trip(split) == split


def test_melds_keep_joker_faces_and_owners() -> None:
    meld = Meld(
        MeldKind.RUN,
        (
            Placed(parse_card("6h"), parse_card("6h"), 0),
            Placed(JOKER, parse_card("7h"), 0),
            Placed(parse_card("8h"), parse_card("8h"), 2),
        ),
        0,
    )
    data = meld_to_dict(meld)
    assert data == {"kind": "run", "owner": 0, "cards": ["6h", "jk=7h", "8h"], "owners": [0, 0, 2]}
    assert meld_from_dict(data, 3, "m") == meld
    group = Meld(
        MeldKind.SET,
        (
            Placed(parse_card("9c"), parse_card("9c"), 1),
            Placed(parse_card("9d"), parse_card("9d"), 1),
            Placed(JOKER, Card(9, None), 1),
        ),
        1,
    )
    assert meld_to_dict(group)["cards"] == ["9c", "9d", "jk=9"]
    assert meld_from_dict(meld_to_dict(group), 3, "m") == group


def test_rules_round_trip_for_every_preset() -> None:
    for preset in PRESETS:
        rules = make_rules("basic", preset, {"ace": "high_or_low"})
        assert rules_from_dict(json.loads(json.dumps(rules_to_dict(rules)))) == rules


# --- bad input ------------------------------------------------------------------------------


def base_dict() -> dict[str, Any]:
    return state_to_dict(playout("standard", 3, 9, 40))


def test_missing_key_is_a_record_error_naming_it() -> None:
    data = base_dict()
    del data["stock"]
    with pytest.raises(RecordError) as info:
        state_from_dict(data)
    assert info.value.code == "bad_record"
    assert info.value.params["where"] == "stock"
    assert "stock: missing" in info.value.message


def test_unknown_card_is_a_bad_card_error() -> None:
    data = base_dict()
    data["hands"][1][0] = "11h"
    with pytest.raises(RecordCardError) as info:
        state_from_dict(data)
    assert info.value.code == "bad_card"
    assert info.value.params["where"] == "hands[1][0]"
    assert info.value.params["text"] == "11h"


def test_unknown_option_is_a_rule_option_error() -> None:
    data = base_dict()
    data["rules"]["options"]["flying_aces"] = True
    with pytest.raises(RuleOptionError) as info:
        state_from_dict(data)
    assert info.value.code == "bad_option"


@pytest.mark.parametrize(
    ("key", "value", "where"),
    [
        ("phase", "sleeping", "phase"),
        ("dealer", 3, "dealer"),
        ("current", True, "current"),
        ("hands", [["7h"], ["8h"]], "hands"),
        ("totals", [0, 0, "x/y"], "totals[2]"),
        ("melds", [{"kind": "row", "owner": 0, "cards": [], "owners": []}], "melds[0].kind"),
        ("turn", {"taken": None, "fresh": "yes", "melds": 0, "played": 0}, "turn.fresh"),
        ("format", 2, "format"),
        ("players", "ana", "players"),
        ("players", ["ana", "ana", "cem"], "players"),
    ],
)
def test_bad_values_name_their_place(key: str, value: Any, where: str) -> None:
    data = base_dict()
    data[key] = value
    with pytest.raises(RecordError) as info:
        state_from_dict(data)
    assert info.value.params["where"] == where


def test_a_card_twice_in_a_one_pack_game_is_refused() -> None:
    data = base_dict()
    data["stock"].append(data["hands"][0][0])
    with pytest.raises(RecordError) as info:
        state_from_dict(data)
    assert "appears 2 times" in info.value.message


def test_not_a_mapping() -> None:
    with pytest.raises(RecordError):
        state_from_dict(["not", "a", "state"])


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.sampled_from(["7h", "jk", "x", "1/2"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)


@given(st.data())
def test_mutated_states_raise_only_engine_errors(data: st.DataObject) -> None:
    """Bad input always gets a typed error: never KeyError, TypeError or IndexError."""
    state = state_to_dict(playout("wrotham", 3, data.draw(st.integers(0, 50)), 30))
    target: Any = state
    path = []
    while isinstance(target, dict | list) and target and data.draw(st.booleans()):
        key = data.draw(
            st.sampled_from(
                sorted(target) if isinstance(target, dict) else list(range(len(target)))
            )
        )
        path.append(key)
        target = target[key]
    mutated = copy.deepcopy(state)
    holder: Any = mutated
    for key in path[:-1]:
        holder = holder[key]
    if path:
        holder[path[-1]] = data.draw(_json_values)
    try:
        result = state_from_dict(mutated)
    except EngineError as exc:
        assert exc.code in {"bad_record", "bad_card", "bad_option"}
    else:
        assert isinstance(result, GameState)


def test_hands_and_stock_cards_decode() -> None:
    state = new_game(make_rules("basic"), ("ana", "ben"), seed=2, dealer=0)
    data = state_to_dict(state)
    assert parse_cards(data["hands"][0]) == state.hands[0]
    assert parse_cards(data["stock"]) == state.stock
