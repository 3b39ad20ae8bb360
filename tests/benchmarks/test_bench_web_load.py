"""The web_load bench's rows (benchmarks/web_load.py) from one attack's figures: held
connections, memory per connection, the other table's p99 idle, opening and held, and the
log lines; the attack itself runs in tests/bot/web/test_hostile_load.py."""

from __future__ import annotations

from typing import Any

from benchmarks.report import Section
from benchmarks.web_load import add_rows


def stats(p99: float, open_: int, rss_kb: int, refused: int = 0) -> dict[str, Any]:
    return {
        "p50_ms": 0.8,
        "p99_ms": p99,
        "max_ms": p99 + 1,
        "commands": 100,
        "lag_max_ms": 5.0,
        "descriptors": open_ + 11,
        "rss_kb": rss_kb,
        "open": open_,
        "refused": {"connections": refused},
    }


def test_the_rows_say_what_the_attack_held_and_cost() -> None:
    result = {
        "max_connections": 864,
        "before": stats(1.5, 0, 60_000),
        "peak": stats(70.0, 864, 60_000 + 864 * 30, refused=240),
        "after": stats(12.0, 4, 80_000, refused=240),
        "lines_under_load": ["WARNING bot.http: refused"],
        "held_for": 20.0,
        "websockets": {"held": 4},
        "slowloris": {"closed": 860},
    }
    section = Section("web load")
    add_rows(section, "default", result)
    rows = {row.name: row for row in section.rows}
    assert rows["default: connections held"].value == 864
    assert "limit 864" in rows["default: connections held"].note
    assert rows["default: memory per connection"].value == 30
    assert rows["default: other table's hand p99, idle"].value == 1.5
    opening = rows["default: other table's hand p99, opening"]
    assert opening.value == 70.0 and opening.verdict.startswith("MISSED")
    held = rows["default: other table's hand p99, held"]
    assert held.value == 12.0 and held.verdict == "ok" and "4 connections" in held.note
    assert rows["default: log lines under the load"].value == 1
    assert any("slowloris" in note for note in section.notes)
