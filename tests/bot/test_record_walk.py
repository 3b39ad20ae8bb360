"""``rummy-bot replay FILE --step`` (bot/terminal/record_walk.py): a record walked move by
move. Issue: "the terminal gets `rummy-bot replay FILE --step` to walk a record move by
move"; "Bad input: ... a record of another format or a damaged one ...: one clear line in
the person's language, nothing changed."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import use_locale
from bot.terminal.record_walk import walk_record
from engine.rules import make_rules
from engine.simulate import simulate


def _record(variant: str = "basic") -> dict[str, Any]:
    result = simulate(make_rules(variant), 1, 2, seed=3, keep_record=True)
    assert result.record is not None
    return result.record


def _walk(record: dict[str, Any], words: list[str], locale: str = "en") -> tuple[int, list[str]]:
    said: list[str] = []
    feed = iter(words)
    with use_locale(locale):
        code = walk_record(record, lambda: next(feed, None), said.append)
    return code, said


def _actions(record: dict[str, Any]) -> list[str]:
    deals = record.get("deals", [record])
    return [line for deal in deals for line in deal["actions"]]


@pytest.mark.parametrize("variant", ["basic", "500", "german", "romanian"])
def test_the_walk_shows_every_move_in_order_and_goes_back(variant: str) -> None:
    record = _record(variant)
    lines = _actions(record)
    code, said = _walk(record, ["", "", "b", "q"])
    positions = [s for s in said if not s.startswith("Enter: next move")]
    assert code == 0
    assert positions[0].startswith("Deal 1 as dealt:")
    assert positions[1].startswith(f"Deal 1, move 1: {lines[0]}")
    assert positions[2].startswith(f"Deal 1, move 2: {lines[1]}")
    assert positions[3] == positions[1]  # b: the position before, again
    hands = "Racks:" if variant == "romanian" else "Hands:"
    assert all(hands in p for p in positions)
    # to the end: every action line once, in order, then the end
    code, said = _walk(record, [""] * (len(lines) + 50))
    moves = [s.split("\n", 1)[0] for s in said if ", move " in s.split("\n", 1)[0]]
    assert [m.split(": ", 1)[1] for m in moves] == lines
    assert code == 0 and said[-1] == "The end of the record."


def test_a_damaged_record_stops_with_one_line_in_the_persons_language() -> None:
    record = copy.deepcopy(_record())
    deals = record.get("deals", [record])
    deals[0]["actions"][3] = "ana: discard zz"
    code, said = _walk(record, [""] * 10, locale="de")
    assert code == 1
    assert said[-1].startswith("Die Aufzeichnung bricht hier ab: ")
    assert "\n" not in said[-1]
    assert sum(s.startswith("Runde 1, Zug ") for s in said) == 3  # the good moves before


def _replay_step(path: Path, typed: str, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "bot", "replay", str(path), "--step", *extra],
        input=typed,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    record = _record()
    path.write_text(json.dumps(record), encoding="utf-8")
    run = _replay_step(path, "\n\nq\n", "--lang", "de")
    assert run.returncode == 0, run.stderr
    assert "Runde 1, wie sie gegeben wurde:" in run.stdout
    assert f"Runde 1, Zug 2: {_actions(record)[1]}" in run.stdout
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    run = _replay_step(broken, "")
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
