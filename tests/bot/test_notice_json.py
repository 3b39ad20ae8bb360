"""Notices <-> JSON: every notice code the service makes round-trips through ``json``
exactly; bad input raises :class:`RecordError` naming the place."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from bot.ports.notice_json import (
    notice_from_json,
    notice_to_json,
    notices_from_json,
    notices_to_json,
)
from bot.ports.screens import Notice
from bot.render.notices import NOTICE_TEMPLATES
from engine.jsonio import RecordError

# each code with the params the service gives it (bot/service/automatic.py, play.py,
# lobby_steps.py): a seat's name, or the settings text
NOTICES = (
    Notice("autopilot_turn", {"name": "Ana"}),
    Notice("autopilot_on", {"name": "Bö Ørsted"}),
    Notice("autopilot_off", {"name": "ben_42"}),
    Notice("lobby_opened", {"name": "Cem"}),
    Notice("lobby_expired", {}),
    Notice("game_idle_ended", {}),
    Notice("game_cancelled", {}),
    Notice("player_joined", {"name": 'Dora "the" {host}'}),
    Notice("player_left", {"name": "Emil"}),
    Notice("ai_added", {"name": "AI 2"}),
    Notice("ai_removed", {"name": "AI 2"}),
    Notice("settings_changed", {"changes": "variant=german preset=pot timer=120"}),
    Notice("game_started", {}),
)


def _round_trip(notice: Notice) -> Notice:
    return notice_from_json(json.loads(json.dumps(notice_to_json(notice))))


BOT = Path(__file__).resolve().parents[2] / "bot"


def test_every_notice_code_is_sampled() -> None:
    assert {n.code for n in NOTICES} == set(NOTICE_TEMPLATES)


def test_every_notice_the_bot_makes_is_sampled() -> None:
    # each ``Notice("code", {...})`` in bot/: its code and param names are a sample's
    samples = {n.code: set(n.params) for n in NOTICES}
    made: list[tuple[str, set[str]]] = []
    for path in BOT.rglob("*.py"):
        if path.name == "notice_json.py":  # the decoder builds any notice
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "Notice"
            ):
                code = node.args[0]
                assert isinstance(code, ast.Constant), f"{path}: {ast.unparse(node)}"
                params = node.args[1] if len(node.args) > 1 else ast.Dict([], [])
                assert isinstance(params, ast.Dict), f"{path}: {ast.unparse(node)}"
                made.append(
                    (
                        str(code.value),
                        {str(k.value) for k in params.keys if isinstance(k, ast.Constant)},
                    )
                )
    assert len(made) >= len(NOTICES)
    assert [m for m in made if samples.get(m[0]) != m[1]] == []


@pytest.mark.parametrize("notice", NOTICES, ids=lambda n: n.code)
def test_notice_round_trips(notice: Notice) -> None:
    assert _round_trip(notice) == notice


def test_form_and_list_round_trip() -> None:
    assert notice_to_json(Notice("player_left", {"name": "Emil"})) == {
        "code": "player_left",
        "params": {"name": "Emil"},
    }
    assert notice_to_json(Notice("game_started")) == {"code": "game_started", "params": {}}
    assert notices_from_json(json.loads(json.dumps(notices_to_json(NOTICES)))) == NOTICES


def test_json_scalars_keep_their_type() -> None:
    notice = Notice("custom", {"count": 3, "flag": False, "none": None, "text": "3"})
    back = _round_trip(notice)
    assert back == notice
    assert [type(v) for v in back.params.values()] == [int, bool, type(None), str]
    assert notice_from_json({"code": "game_started"}) == Notice("game_started", {})


@pytest.mark.parametrize("params", [{"seats": (1, 2)}, {"share": 0.5}, {"names": ["a"]}, {1: "a"}])
def test_params_without_an_exact_json_form_are_refused(params: dict[Any, Any]) -> None:
    with pytest.raises(TypeError):
        notice_to_json(Notice("custom", params))


@pytest.mark.parametrize(
    ("value", "where"),
    [
        ("player_left", "notice"),
        ({"params": {}}, "notice.code"),
        ({"code": 7, "params": {}}, "notice.code"),
        ({"code": "player_left", "params": ["Emil"]}, "notice.params"),
        ({"code": "player_left", "params": {"name": ["Emil"]}}, "notice.params.name"),
        ({"code": "player_left", "params": {"name": 1.5}}, "notice.params.name"),
        ({"code": "player_left", "params": {}, "seat": 1}, "notice.seat"),
    ],
)
def test_malformed_input_raises_record_error(value: Any, where: str) -> None:
    with pytest.raises(RecordError) as caught:
        notice_from_json(value)
    assert caught.value.params["where"] == where


def test_errors_in_a_list_name_the_item() -> None:
    with pytest.raises(RecordError) as caught:
        notices_from_json([notice_to_json(NOTICES[0]), {"code": None}], "change.notices")
    assert caught.value.params["where"] == "change.notices[1].code"
    with pytest.raises(RecordError):
        notices_from_json({"code": "game_started"})
