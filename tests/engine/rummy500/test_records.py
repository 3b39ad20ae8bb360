"""Rummy 500: the ``call`` command, exact state JSON with the variant's own state, and game
records (export -> replay gives the same state)."""

from __future__ import annotations

import json

import pytest

from engine.ai import make_ai
from engine.cards import parse_card
from engine.commands import (
    canonical_verb,
    command_table,
    format_action,
    parse_command,
    parse_record_line,
)
from engine.dealing import DealSpec, new_game
from engine.errors import CardParseError, CommandError
from engine.game import apply, current_player, is_over, legal_actions
from engine.records import export_record, replay
from engine.rules import make_rules
from engine.serialize import RecordError, state_from_dict, state_to_dict
from engine.variants.rummy500.actions import CallRummy
from engine.variants.rummy500.state import CallWindow, GameExtra, TurnExtra
from engine.views import view_for

from .conftest import Deal500, Game


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("call", CallRummy(1)),
        ("call kh", CallRummy(1, parse_card("kh"))),
        ("Rommé! 10h 2", CallRummy(1, parse_card("10h"), 1)),
        ("romme jk=8h #3", CallRummy(1, parse_card("jk"), 2, parse_card("8h"))),
        ("rufen 4c", CallRummy(1, parse_card("4c"))),
    ],
)
def test_the_call_command(text: str, action: CallRummy) -> None:
    assert parse_command(text, 1) == action
    assert parse_command(format_action(action), 1) == action  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["call 7h 2 3", "call 7x", "call 7h zero", "call 7h 0"])
def test_bad_call_commands(text: str) -> None:
    with pytest.raises((CommandError, CardParseError)):
        parse_command(text, 0)


def test_the_call_verb_is_in_the_help_table() -> None:
    assert canonical_verb("Rommé") == "call"
    entry = next(c for c in command_table("500") if c.verb == "call")
    assert {"rommé", "romme"} <= set(entry.aliases)
    assert all(c.verb != "call" for c in command_table("basic"))


def _scripted(deal500: Deal500) -> tuple[Game, list[str], DealSpec]:
    hands = ["7h 8h 9h 2c 3c 4d kc", "10h 5s 6s 2d 3d jc qc", "6h 4c 5c 8d 9d js qs"]
    spec = DealSpec.parse(hands, "ks", "ad 2s 3s 4s 6c 7c 8c 9c")
    game = deal500(hands, "ks", "ad 2s 3s 4s 6c 7c 8c 9c")
    lines = [
        "ana: draw",
        "ana: meld 7h 8h 9h",
        "ana: discard kc",
        "ben: draw",
        "ben: discard 10h",
        "ana: call 10h",
        "ana: layoff 10h 1",
        "ana: discard 3c",
        "ben: draw",
        "ben: discard 2s",
        "cem: take 3c",
    ]
    game.do(*lines)
    return game, lines, spec


def test_state_json_round_trip_with_an_obligation_and_a_window(deal500: Deal500) -> None:
    game, _lines, _spec = _scripted(deal500)
    assert game.state.turn.extra == TurnExtra(parse_card("3c"), False)
    data = json.loads(json.dumps(state_to_dict(game.state)))
    assert data["turn"]["extra"] == {"must_play": "3c", "new_meld": False}
    assert state_from_dict(data) == game.state
    earlier = deal500(
        ["7h 8h 9h 2c 3c 4d kc", "10h 5s 6s 2d 3d jc qc", "6h 4c 5c 8d 9d js qs"], "ks", "ad 2s 3s"
    )
    earlier.do("ana: draw", "ana: discard kc")
    assert earlier.state.extra == GameExtra(CallWindow(0, parse_card("kc")))
    data = json.loads(json.dumps(state_to_dict(earlier.state)))
    assert data["extra"] == {"call_window": {"discarder": 0, "card": "kc"}}
    assert state_from_dict(data) == earlier.state


@pytest.mark.parametrize(
    ("where", "value"),
    [
        ("extra", {"call_window": {"discarder": "ben", "card": None}}),
        ("extra", {"call_window": {"discarder": 0, "card": "11h"}}),
        ("extra", {}),
        ("turn", {"must_play": "4c"}),
    ],
)
def test_bad_variant_state_is_a_record_error(deal500: Deal500, where: str, value: object) -> None:
    game, _lines, _spec = _scripted(deal500)
    data = state_to_dict(game.state)
    if where == "turn":
        data["turn"]["extra"] = value
    else:
        data["extra"] = value
    with pytest.raises(RecordError):
        state_from_dict(data)


def test_an_exported_record_with_calls_and_deep_takes_replays(deal500: Deal500) -> None:
    game, lines, spec = _scripted(deal500)
    record = export_record(game.state.rules, game.state.players, 5, 2, lines, deals=[spec])
    report = replay(json.loads(json.dumps(record)))
    assert report["ok"], report["error"]
    assert state_from_dict(report["state"]) == game.state
    assert parse_record_line("ana: call 10h", game.state.players) == CallRummy(0, parse_card("10h"))


def test_a_bad_record_line_reports_the_engine_error(deal500: Deal500) -> None:
    game, lines, spec = _scripted(deal500)
    record = export_record(
        game.state.rules, game.state.players, 5, 2, [*lines[:3], "ana: call kc"], deals=[spec]
    )
    report = replay(record)
    assert not report["ok"] and report["error"]["code"] == "discarder_cannot_call"
    assert report["applied"] == 3


def test_an_ai_match_exports_and_replays_exactly() -> None:
    rules = make_rules("500", options={"target": 150, "going_out": "float"})
    players = ["ana", "ben", "cem"]
    state = new_game(rules, players, seed=11)
    ais = [make_ai("greedy", seed) for seed in range(3)]
    log = []
    while not is_over(state):
        seat = current_player(state)
        seat = state.next_seat(state.dealer) if seat is None else seat
        action = ais[seat].decide(view_for(state, seat), legal_actions(state, seat))
        log.append(action)
        state, _ = apply(state, action)
    record = export_record(rules, players, 11, new_game(rules, players, seed=11).dealer, log)
    report = replay(json.loads(json.dumps(record)))
    assert report["ok"] and report["game_over"]
    assert state_from_dict(report["state"]) == state
