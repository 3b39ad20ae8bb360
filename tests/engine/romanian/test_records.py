"""Records of Romanian games: exported games replay exactly; an explicit deal gives the
hands, the face-up tile and the draw order; a deck is dealt as the wall; commands round
trip."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action, NextDeal
from engine.ai import make_ai
from engine.cards import parse_card
from engine.commands import format_action, format_record_line, parse_command
from engine.dealing import new_game
from engine.game import apply, current_player, legal_actions
from engine.records import deal_to_json, export_record, replay
from engine.rules import make_rules
from engine.serialize import state_from_dict
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
from engine.variants.romanian.wall import wall_deal
from engine.views import view_for
from tests.examples import share

from .conftest import wall_deck

PLAYERS = ["ana", "ben", "cem"]


def _play(state: GameState, seed: int, deals: int, log: list[Action]) -> GameState:
    """AI play (one random seat, the others greedy) until ``deals`` deals were started."""
    ais = [make_ai("random" if s == 0 else "greedy", seed + s) for s in range(state.seats)]
    rng = random.Random(seed)
    while state.phase is not Phase.GAME_OVER and len(log) < 4000:
        seat = current_player(state)
        if seat is None:
            if state.deal_number >= deals:
                break
            seat = rng.randrange(state.seats)
        action = ais[seat].decide(view_for(state, seat), legal_actions(state, seat))
        state, _ = apply(state, action)
        log.append(action)
    return state


@settings(max_examples=share(0.1), deadline=None)
@given(st.integers(0, 2**40), st.integers(1, 2), st.booleans())
def test_export_then_replay_reproduces_the_game(seed: int, deals: int, as_text: bool) -> None:
    rules = make_rules("romanian", options={"deals": 2})
    state = new_game(rules, PLAYERS, seed=seed)
    log: list[Action] = []
    state = _play(state, seed, deals, log)
    lines: list[Action | str] = [format_record_line(a, PLAYERS) if as_text else a for a in log]
    record = export_record(rules, PLAYERS, seed, new_game(rules, PLAYERS, seed=seed).dealer, lines)
    report = replay(json.loads(json.dumps(record)))
    assert report["ok"], report["error"]
    assert state_from_dict(report["state"]) == state


def test_an_explicit_deal_gives_hands_face_up_tile_and_draw_order() -> None:
    """A record's explicit ``deal`` gives the hands, the face-up tile (``face_up``) and the
    draw order (``stock``, the next tile first)."""
    rules = make_rules("romanian", options={"preplay": False})
    spec = wall_deal(wall_deck("y9"), 3, 2)
    record = export_record(
        rules, PLAYERS, 3, 2, ["ana: discard " + str(spec.hands[0][0]), "ben: draw"], deals=[spec]
    )
    assert record["deal"]["face_up"] == "y9"
    assert record["deal"]["upcard"] is None
    report = replay(json.loads(json.dumps(record)))
    assert report["ok"], report["error"]
    state = state_from_dict(report["state"])
    assert state.extra.face_up == parse_card("y9")
    assert state.hands[1] == (*spec.hands[1], spec.stock[0])
    assert deal_to_json(spec, PLAYERS, "romanian")["face_up"] == "y9"


def test_a_deck_is_dealt_as_the_wall() -> None:
    rules = make_rules("romanian")
    deck = wall_deck("k4")
    record = {
        "variant": "romanian",
        "players": PLAYERS,
        "dealer": 0,
        "deal": {"deck": [str(t) for t in deck]},
        "actions": [],
    }
    report = replay(record)
    assert report["ok"], report["error"]
    state = state_from_dict(report["state"])
    spec = wall_deal(deck, 3, 0)
    assert state.hands == spec.hands and state.stock == spec.stock
    assert state.extra.face_up == parse_card("k4")
    assert rules.variant == "romanian"


def test_a_bad_face_up_tile_is_reported() -> None:
    deal = deal_to_json(wall_deal(wall_deck("y9"), 3, 2), PLAYERS, "romanian")
    record = {
        "variant": "romanian",
        "players": PLAYERS,
        "dealer": 2,
        "deal": deal | {"face_up": "r99"},
        "actions": [],
    }
    report = replay(record)
    assert not report["ok"] and report["error"]["code"] == "bad_card"


@pytest.mark.parametrize(
    "action",
    [
        AnnounceDoubla(0, ""),
        AnnounceDoubla(1, "high"),
        AnnounceFaceUp(2),
        Ready(0),
        OfferDoubla(1, parse_card("r7"), "ana"),
        AnswerDoubla(0, parse_card("k12")),
        AnswerDoubla(0, None),
        TakeFaceUp(1),
        ExchangeJoly(2, (parse_card("b7"),), 3),
        ExchangeJoly(0, (parse_card("b7"), parse_card("k7")), 0),
    ],
)
def test_commands_round_trip(action: object) -> None:
    text = format_action(action)  # type: ignore[arg-type]
    assert parse_command(text, action.seat) == action  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("doubla hoch", AnnounceDoubla(0, "high")),
        ("dubla niedrig", AnnounceDoubla(0, "low")),
        ("ansagen", AnnounceFaceUp(0)),
        ("bereit", Ready(0)),
        ("ablehnen", AnswerDoubla(0)),
        ("fu", TakeFaceUp(0)),
        ("joly rot7 1", ExchangeJoly(0, (parse_card("r7"),), 0)),
        ("offer r7 ana maria", OfferDoubla(0, parse_card("r7"), "ana maria")),
    ],
)
def test_aliases(text: str, action: object) -> None:
    assert parse_command(text, 0) == action


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("doubla up", "bad_doubla_hint"),
        ("offer r7", "missing_player_name"),
        ("joly r7", "missing_meld_number"),
        ("joly 3", "missing_cards"),
        ("joly r1 r2 r3 1", "too_many_args"),
        ("ready now", "too_many_args"),
        ("accept", "missing_cards"),
        ("joly r7 x", "bad_meld_number"),
    ],
)
def test_command_errors(text: str, code: str) -> None:
    from engine.errors import EngineError

    with pytest.raises(EngineError) as info:
        parse_command(text, 0)
    assert info.value.code == code


def test_next_is_the_only_move_between_deals() -> None:
    rules = make_rules("romanian", options={"deals": 2})
    state = new_game(rules, PLAYERS, seed=5)
    state = _play(state, 5, 1, [])
    assert state.phase is Phase.HAND_OVER
    assert legal_actions(state, 2) == [NextDeal(2)]
