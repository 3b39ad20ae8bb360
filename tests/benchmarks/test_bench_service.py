"""Smoke tests of the service and start-up benchmarks (benchmarks.service_load, .startup) in
tiny configurations: the rows they report, that the start-up bench really stores and
loads its tables, that temporary files go away; no timing is asserted. Also the
repository's cache of decoded tables, which the service benchmark led to."""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import pytest

from benchmarks import service_load, startup
from benchmarks.report import BenchConfig, Section
from bot.ports.model import ChatKey, Status
from bot.storage import open_database
from bot.storage.repository import SqliteRepository, table_from_row


def numbers(section: Section) -> dict[str, float]:
    values = {}
    for row in section.rows:
        assert isinstance(row.value, float | int), row
        values[row.name] = float(row.value)
    return values


async def test_service_load_measures_every_figure(tmp_path: Path) -> None:
    sizes = service_load.Sizes(tables=3, duration=0.3, single=10, throughput=20, raw=0.05)
    fig = await service_load.measure(tmp_path, sizes, seed=5)
    assert fig.errors == 0 and fig.unplanned == 0
    assert len(fig.single) == 10 and len(fig.loaded) == int(service_load.RATE * 0.3)
    assert all(x > 0 for x in [*fig.single, *fig.loaded])
    assert fig.raw > 0 and fig.raw_async > 0 and fig.raw_full > 0 and fig.throughput > 0
    assert fig.journal == "wal" and fig.synchronous == 1  # the repository's settings
    values = numbers(service_load.section(fig, sizes, quick=True))
    for name in (
        "action p50, 1 table",
        "action p99, 1 table",
        "action p50, 3 tables",
        "action p99, 3 tables",
        "raw SQLite commits/s (sqlite3, NORMAL)",
        "raw SQLite commits/s (aiosqlite, NORMAL)",
        "service committed actions/s",
        "service share of raw commit rate",
    ):
        assert values[name] > 0, name
    assert values["action p50, 1 table"] <= values["action p99, 1 table"]


def test_service_load_run_removes_its_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    section = service_load.run(BenchConfig(quick=True, seed=3))
    assert list(tmp_path.iterdir()) == []
    targets = {row.name: row.target for row in section.rows if row.target is not None}
    assert targets == {
        "action p99, 1 table": 30.0,
        "action p99, 20 tables": 100.0,
        "service share of raw commit rate": 50.0,
    }
    assert "0 refused" in " ".join(section.notes)


def test_startup_database_holds_real_loadable_tables(tmp_path: Path) -> None:
    path = tmp_path / "stored.sqlite3"
    rows = startup.build_database(path, 120, seed=9)
    with sqlite3.connect(path) as conn:
        statuses = dict(conn.execute("SELECT status, COUNT(*) FROM tables GROUP BY status"))
        logged = conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    assert sum(statuses.values()) == 120 and statuses["playing"] > 60
    assert logged == len(rows.actions) > 120 * 8
    asyncio.run(load_every_active_table(path, rows))


async def load_every_active_table(path: Path, rows: startup.Rows) -> None:
    db = await open_database(path)
    try:
        repo = SqliteRepository(db)
        assert await repo.count_tables() == 120
        active = [r for r in rows.tables if r["status"] in ("lobby", "playing")]
        for row in active:
            table = await repo.active_table(ChatKey.parse(row["chat_key"]))
            assert table is not None and table.id == row["id"]
            assert (table.state is None) == (table.status is Status.LOBBY)
            if table.state is not None:  # the log replays to the stored version
                entries = await repo.action_log(table.id)
                assert entries[-1].version == table.version
                assert len([e for e in entries if e.seat is not None]) == table.state.version
        assert len(await repo.due_tables(time.time())) == rows.due
    finally:
        await db.close()


def test_startup_run_loads_every_stored_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    section = startup.run(BenchConfig(quick=True, seed=4))
    assert list(tmp_path.iterdir()) == []
    values = numbers(section)
    assert values["stored tables seen"] == 1000
    seen = next(r for r in section.rows if r.name == "stored tables seen")
    loaded, probed = seen.note.split("; ")[1].split(" sampled")[0].split(" of ")
    assert loaded == probed and int(probed) > 100
    assert values["start-up to ready"] > values["  imports"] / 1000 > 0
    assert values["bytes per stored table"] > values["mean stored state"] > 200


async def test_repository_cache_serves_its_own_writes_only(tmp_path: Path) -> None:
    """The decoded table a repository keeps after a commit equals the stored row; a change
    by another connection (another process) is read, not the kept table."""
    bench = await service_load.Bench.open(tmp_path)
    try:
        [driver] = await bench.add_tables(1, seed=2)
        driver.prepare(6)
        for _ in range(6):
            await driver.act()
        repo = bench.service.repo
        assert isinstance(repo, SqliteRepository)
        kept = await repo.active_table(driver.key)
        assert kept is not None and kept is await repo.active_table(driver.key)
        row = await repo._one("SELECT * FROM tables WHERE id = ?", (kept.id,))
        assert row is not None and table_from_row(row) == kept
        other_db = await open_database(tmp_path / "service.sqlite3")
        try:
            other = SqliteRepository(other_db)
            theirs = await other.active_table(driver.key)
            assert theirs == kept and theirs is not kept
            await other.commit(
                replace(theirs, version=theirs.version + 1, warned=True), theirs.version
            )
        finally:
            await other_db.close()
        now = await repo.active_table(driver.key)
        assert now is not None and now.version == kept.version + 1 and now.warned
        with pytest.raises(ValueError):
            await repo.commit(now, now.version)
    finally:
        await bench.close()
