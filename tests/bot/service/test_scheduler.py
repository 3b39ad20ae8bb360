"""The due-work loop: one failing or undecodable table never stops the others; back-off,
quarantine, the operator's fault list; downtime and clock steps cost nobody a turn."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.i18n import use_locale
from bot.i18n.errors import localize_error
from bot.ports.model import ChatKey, Status, TableSettings, UserRef
from bot.service import scheduler as scheduler_module
from bot.service.errors import TableFromNewerRelease, TableLocked, UnreadableTable
from bot.service.model import Table
from bot.service.service import GameService
from tests.bot.people import say

from .support import ANA, BEN, CHAT, Harness, make_harness

AI_SETTINGS = TableSettings(timer="2m", ai_delay=1.0, next_deal_delay=2.0)


async def ai_table(s: GameService, index: int) -> int:
    """A started table of one person and two AI seats in chat ``index``; returns its id."""
    key = ChatKey("test", f"busy{index}")
    host = UserRef("test", f"h{index}", f"host{index}")
    await s.new_table(key, host)
    await s.add_ai(key, host)
    await s.add_ai(key, host)
    await s.back(key, host)
    info = await s.start(key, host)
    await s.leave(key, host)  # the autopilot plays the host: every seat moves by itself
    return info.id


async def versions(h: Harness, ids: list[int]) -> list[int]:
    result = []
    for table_id in ids:
        table = await h.service.repo.get_table(table_id)
        assert table is not None
        result.append(table.version)
    return result


async def test_a_failing_and_an_undecodable_table_while_ten_others_keep_moving(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    s = harness.people
    others = [await ai_table(s, n) for n in range(10)]
    failing = await ai_table(s, 10)
    broken = await ai_table(s, 11)
    # a row a newer release wrote: a settings field this release does not know
    await harness.raw(
        "UPDATE tables SET settings = json_set(settings, '$.new_field', 1) WHERE id = ?",
        (broken,),
        postgres="UPDATE tables SET settings = (settings::jsonb || "
        "'{\"new_field\": 1}'::jsonb)::text WHERE id = ?",
    )
    real = harness.service.automatic.run_due

    async def run_due(table: Table) -> bool:
        if table.id == failing:
            raise RuntimeError("an AI step that raises")
        return await real(table)

    monkeypatch.setattr(harness.service.automatic, "run_due", run_due)
    start = await versions(harness, others)
    caplog.set_level(logging.WARNING)
    for _ in range(12):
        harness.clock.advance(2)
        await s.tick()
    moved = await versions(harness, others)
    assert all(after >= before + 5 for before, after in zip(start, moved, strict=True))
    # the failing table is backed off and logged once per back-off, not once per pass
    fault = s.scheduler.faults[failing]
    failures = [r for r in caplog.records if f"table {failing}:" in r.getMessage()]
    assert len(failures) == fault.failures < 12
    # the undecodable one is quarantined once and never tried again
    assert broken in s.scheduler.quarantined
    assert sum(f"table {broken} quarantined" in r.getMessage() for r in caplog.records) == 1
    assert broken not in await s.repo.due_tables(harness.clock.now() + 10**6)
    faults = {row["table_id"]: row for row in await s.repo.faults()}
    assert faults[failing]["kind"] == "backoff" and "raises" in faults[failing]["error"]
    assert faults[broken]["kind"] == "quarantined"
    # the people of the broken table get a clear, localized answer; nothing changes
    key = ChatKey("test", "busy11")
    reply = await say(s, key, BEN, "draw")
    assert not reply.ok and reply.text is not None and "#" in reply.text
    # a table that recovers leaves the list
    monkeypatch.setattr(harness.service.automatic, "run_due", real)
    harness.clock.advance(scheduler_module.BACKOFF_CAP)
    await s.tick()
    assert failing not in s.scheduler.faults
    assert failing not in {row["table_id"] for row in await s.repo.faults()}


async def test_a_row_of_a_newer_release_is_refused_clearly(harness: Harness) -> None:
    s = harness.people
    await s.new_table(CHAT, ANA)
    info = await s.join(CHAT, BEN)
    await harness.raw("UPDATE tables SET format = 2 WHERE id = ?", (info.id,))
    with pytest.raises(TableFromNewerRelease) as raised:
        await s.start(CHAT, ANA)
    assert isinstance(raised.value, UnreadableTable)
    with use_locale("de"):
        assert "neueren Version" in localize_error(raised.value)
    await harness.raw("UPDATE tables SET format = 1 WHERE id = ?", (info.id,))
    assert (await s.table_info(CHAT)).version == info.version  # type: ignore[union-attr]


async def test_stop_is_checked_between_steps(harness: Harness) -> None:
    s = harness.people
    for n in range(30):
        await ai_table(s, n)
    harness.clock.advance(5)
    stop = asyncio.Event()
    stop.set()
    assert await s.scheduler.run_due_now(stop) == 0
    ran = 0

    async def stop_soon() -> None:
        await asyncio.sleep(0)
        stop.set()

    stop.clear()
    stopper = asyncio.ensure_future(stop_soon())
    ran = await s.scheduler.run_due_now(stop)
    await stopper
    assert ran < 30


async def test_a_locked_row_inside_a_batch_is_logged_and_recorded_for_its_table_only(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A storage fault of one table inside a batch (its row stayed locked past the lock
    timeout: :class:`TableLocked`) is not swallowed: logged with the table id, recorded
    in the stored faults, the table backed off; the other tables of the batch move on."""
    s = harness.people
    others = [await ai_table(s, n) for n in range(3)]
    locked = await ai_table(s, 3)
    real = harness.service.automatic.run_due

    async def run_due(table: Table) -> bool:
        if table.id == locked:
            raise TableLocked()
        return await real(table)

    monkeypatch.setattr(harness.service.automatic, "run_due", run_due)
    start = await versions(harness, others)
    caplog.set_level(logging.WARNING)
    for _ in range(4):
        harness.clock.advance(2)
        await s.tick()
    moved = await versions(harness, others)
    assert all(after > before for before, after in zip(start, moved, strict=True))
    assert any(
        f"table {locked}:" in r.getMessage() and "TableLocked" in r.getMessage()
        for r in caplog.records
    )
    faults = {row["table_id"]: row for row in await s.repo.faults()}
    assert faults[locked]["kind"] == "backoff" and "TableLocked" in faults[locked]["error"]
    assert set(faults) == {locked}


async def test_a_three_day_downtime_costs_no_player_a_turn(tmp_path: Path) -> None:
    h = await make_harness(tmp_path / "db.sqlite3")
    s = h.people
    await s.new_table(CHAT, ANA)
    await s.join(CHAT, BEN)
    await s.configure(CHAT, ANA, {"timer": "24h"})
    info = await s.start(CHAT, ANA)
    await s.scheduler.resume()  # the running bot beats
    before = await s.repo.get_table(info.id)
    assert before is not None and before.deadline is not None
    h.clock.advance(3600)
    await s.repo.heartbeat(h.clock.now())
    await h.db.close()
    h.clock.advance(3 * 86400)  # the bot is down for three days
    h = await make_harness(h.path, h.clock)
    s = h.people
    assert await s.scheduler.resume() == pytest.approx(3 * 86400)
    await s.tick()
    after = await s.repo.get_table(info.id)
    assert after is not None and after.state is not None
    assert after.state.version == before.state.version  # type: ignore[union-attr]
    assert all(seat.missed == 0 and not seat.autopilot for seat in after.seats)
    assert after.deadline == pytest.approx(before.deadline + 3 * 86400)
    assert after.last_human_at == pytest.approx(before.last_human_at + 3 * 86400)
    # the rest of the turn (23 h) still counts: the warning (80 % of 24 h) comes 18.2 h on
    h.clock.advance(18 * 3600)
    await s.tick()
    assert not h.notifier.warnings
    h.clock.advance(1800)
    await s.tick()
    assert h.notifier.warnings
    await h.db.close()


async def test_eight_days_down_do_not_end_a_game_as_idle(tmp_path: Path) -> None:
    h = await make_harness(tmp_path / "db.sqlite3")
    s = h.people
    await s.new_table(CHAT, ANA)
    await s.join(CHAT, BEN)
    await s.configure(CHAT, ANA, {"timer": "off"})
    info = await s.start(CHAT, ANA)
    await s.scheduler.resume()
    await h.db.close()
    h.clock.advance(8 * 86400)
    h = await make_harness(h.path, h.clock)
    await h.service.scheduler.resume()
    await h.service.tick()
    table = await h.service.repo.get_table(info.id)
    assert table is not None and table.status is Status.PLAYING
    await h.db.close()


async def test_a_clock_set_back_an_hour_does_not_freeze_ai_tables(harness: Harness) -> None:
    s = harness.people
    table_id = await ai_table(s, 0)
    await s.scheduler.resume()
    harness.clock.advance(2)
    assert await s.tick() >= 1
    harness.clock.step(-3600)  # the operator (or NTP) sets the clock back
    await s.scheduler._check_clock()
    start = (await versions(harness, [table_id]))[0]
    for _ in range(5):
        harness.clock.advance(2)
        await s.tick()
    assert (await versions(harness, [table_id]))[0] >= start + 3


async def test_lobby_steps_that_change_nothing_store_nothing(harness: Harness) -> None:
    s = harness.people
    await s.new_table(CHAT, ANA)
    info = await s.join(CHAT, BEN)
    for _ in range(20):
        assert (await s.back(CHAT, ANA)).version == info.version
    same = await s.configure(CHAT, ANA, {"timer": "2m"})
    assert same.version == info.version
    log = await s.repo.action_log(info.id)
    assert [e.command for e in log] == ["join"]


async def test_names_and_tables_per_user_are_bounded(harness: Harness) -> None:
    from bot.service.errors import TooManyTables
    from bot.service.limits import MAX_TABLES_PER_USER
    from bot.service.lobby import MAX_NAME

    s = harness.people
    huge = UserRef("test", "9", "x" * 100_000 + "\n\x00")
    info = await s.new_table(CHAT, huge)
    assert len(info.seats[0].name) == MAX_NAME
    for n in range(MAX_TABLES_PER_USER):
        await s.new_table(ChatKey("test", f"many{n}"), ANA)
    with pytest.raises(TooManyTables):
        await s.new_table(ChatKey("test", "one-too-many"), ANA)
    with pytest.raises(TooManyTables):
        await s.join(CHAT, ANA)
    assert await s.table_info(ChatKey("test", "one-too-many")) is None


async def test_the_per_table_locks_do_not_grow(harness: Harness) -> None:
    changes = harness.service.changes
    for n in range(200):
        async with changes._lock(n):
            pass
    assert len(changes._locks) < 5


async def test_foreign_table_id_is_refused_and_nothing_changes(harness: Harness) -> None:
    from bot.service.errors import NotYourTable

    s = harness.people
    await s.new_table(CHAT, ANA)
    await s.join(CHAT, BEN)
    mine = await s.start(CHAT, ANA)
    other_chat = ChatKey("test", "other")
    other_user = UserRef("test", "7", "ola")
    foreign = await s.new_table(other_chat, other_user)
    for wanted in (foreign.id, 99_999):
        with pytest.raises(NotYourTable):
            await s.choose_table(ANA, wanted)
    assert (await s.choose_table(ANA, mine.id)).id == mine.id  # type: ignore[union-attr]
    assert (await s.choose_table(ANA, None)).id == mine.id  # type: ignore[union-attr]
    assert (await s.table_info(CHAT)).version == mine.version  # type: ignore[union-attr]


async def test_a_corrupt_state_row_is_quarantined_not_crashing(harness: Harness) -> None:
    s = harness.people
    table_id = await ai_table(s, 0)
    await harness.raw('UPDATE tables SET state = \'{"not": "a state"}\' WHERE id = ?', (table_id,))
    healthy = await ai_table(s, 1)
    start = (await versions(harness, [healthy]))[0]
    harness.clock.advance(5)
    assert await s.tick() >= 1
    assert table_id in s.scheduler.quarantined
    assert (await versions(harness, [healthy]))[0] > start


async def test_a_huge_command_is_refused_before_anything_echoes_it(harness: Harness) -> None:
    from bot.interaction.commands import MAX_COMMAND

    s = harness.people
    await s.new_table(CHAT, ANA)
    reply = await say(s, CHAT, ANA, "set timer=" + "9" * 100_000)
    assert not reply.ok and reply.text is not None and len(reply.text) < 200
    assert str(MAX_COMMAND) in reply.text
    reply = await say(s, CHAT, BEN, "x" * 100_000)
    assert not reply.ok and reply.text is not None and "Zeichen" in reply.text


async def test_a_locked_database_backs_off_no_table(sqlite_harness: Harness) -> None:
    """SQLite's write lock held by another program (PostgreSQL has no such file lock)."""
    harness = sqlite_harness
    import sqlite3

    from bot.service.errors import StorageUnavailable

    s = harness.people
    ids = [await ai_table(s, n) for n in range(3)]
    start = await versions(harness, ids)
    await harness.db.conn.execute("PRAGMA busy_timeout=50")
    other = sqlite3.connect(harness.path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        harness.clock.advance(2)
        with pytest.raises(StorageUnavailable):
            await s.tick()
        assert not s.scheduler.faults  # the database's fault, not a table's
    finally:
        other.execute("ROLLBACK")
        other.close()
    await s.tick()
    assert all(a > b for a, b in zip(await versions(harness, ids), start, strict=True))
