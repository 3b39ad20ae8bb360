"""Issue 39, item 3: a table whose stored row cannot be loaded is a fault at its first
failure, whoever touched it: recorded (``rummy-bot faults`` lists it), logged once, and
its chat told once in the chat's language; the decoded-table cache never hides a row
changed without a new version."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from bot.ports.model import TableSettings, UserRef
from tests.bot.people import say

from .support import ANA, BEN, CHAT, Harness

DAY = TableSettings(timer="24h", ai_delay=1.0, next_deal_delay=2.0)
DAMAGED_SEATS = 'UPDATE tables SET seats = \'[{"kind": "human", "na\' WHERE id = ?'


async def human_turn(h: Harness, locale: str | None = None) -> int:
    """Ana and Ben playing in CHAT with a 24-hour turn timer (nothing due for hours);
    ``locale``: the table's language. Returns the table's id."""
    s = h.people
    await s.new_table(CHAT, ANA, settings=DAY)
    await s.join(CHAT, BEN)
    if locale is not None:
        await s.configure(CHAT, ANA, {"lang": locale})
    info = await s.start(CHAT, ANA)
    return info.id


async def fault_rows(h: Harness) -> dict[int, dict[str, Any]]:
    return {row["table_id"]: row for row in await h.service.repo.faults()}


def quarantine_lines(caplog: pytest.LogCaptureFixture, table_id: int) -> list[str]:
    return [
        r.getMessage() for r in caplog.records if f"table {table_id} quarantined" in r.getMessage()
    ]


async def test_a_damaged_row_on_a_human_turn_is_a_fault_at_the_first_command(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """The issue's case: broken seats JSON, a human turn under a 24 h timer (the
    scheduler would reach it in a day, never with the timer off)."""
    h = harness
    caplog.set_level(logging.WARNING)
    table_id = await human_turn(h, locale="de")
    await h.raw(DAMAGED_SEATS, (table_id,))
    assert await h.service.repo.due_tables(h.clock.now()) == []  # nothing due for hours
    reply = await say(h.people, CHAT, ANA, "draw")
    assert not reply.ok and reply.text is not None and f"#{table_id}" in reply.text
    # after the first command: recorded, logged once, the chat told once in its language
    rows = await fault_rows(h)
    assert rows[table_id]["kind"] == "quarantined" and "UnreadableTable" in rows[table_id]["error"]
    [fault] = h.notifier.faults
    assert (fault.table_id, fault.key, fault.code, fault.locale) == (
        table_id,
        CHAT,
        "unreadable_table",
        "de",
    )
    assert len(quarantine_lines(caplog, table_id)) == 1
    # later commands, questions and the scheduler: the same refusal, nothing said again
    for user, line in ((BEN, "draw"), (ANA, "hand"), (BEN, "join")):
        again = await say(h.people, CHAT, user, line)
        assert not again.ok and again.text is not None and f"#{table_id}" in again.text
    assert await h.service.entry.table_info(CHAT) is None
    assert await h.service.entry.table_by_id(table_id) is None
    assert await h.service.entry.screens(table_id, ANA) is None
    assert await h.service.entry.legal_commands(CHAT, ANA) == []
    h.clock.advance(2 * 86400)
    await h.people.tick()
    assert len(h.notifier.faults) == 1
    assert len(quarantine_lines(caplog, table_id)) == 1
    assert table_id not in await h.service.repo.due_tables(h.clock.now())


async def test_a_private_command_reports_a_damaged_table_it_skips(harness: Harness) -> None:
    """A command in a private chat (no chat key: the person's tables, found by their seat)
    leaves the broken table out, and reports it all the same."""
    h = harness
    table_id = await human_turn(h)
    await h.raw('UPDATE tables SET state = \'{"not": "a state"}\' WHERE id = ?', (table_id,))
    outcome = await h.service.entry.handle(_private(ANA, "hand"))
    assert not outcome.ok
    assert table_id in await fault_rows(h)
    assert [f.table_id for f in h.notifier.faults] == [table_id]
    assert h.notifier.faults[0].locale == "en"  # the host's language: Ana's app is English


async def test_a_fault_is_told_once_across_a_restart(harness: Harness) -> None:
    h = harness
    table_id = await human_turn(h)
    await h.raw(DAMAGED_SEATS, (table_id,))
    await say(h.people, CHAT, ANA, "draw")
    assert len(h.notifier.faults) == 1
    again = await h.reopen()
    try:
        reply = await say(again.people, CHAT, BEN, "draw")
        assert not reply.ok
        assert again.notifier.faults == []  # storage remembers it was told
    finally:
        await again.db.close()
        h.db = again.db  # the fixture closes it (closing twice is harmless)


async def test_a_repaired_and_cleared_table_runs_and_a_new_damage_is_a_new_fault(
    harness: Harness,
) -> None:
    h = harness
    table_id = await human_turn(h)
    table = await h.service.repo.get_table(table_id)
    assert table is not None
    good = await _column(h, "seats", table_id)
    await h.raw(DAMAGED_SEATS, (table_id,))
    await say(h.people, CHAT, ANA, "draw")
    await h.raw("UPDATE tables SET seats = ? WHERE id = ?", (good, table_id))
    await h.service.repo.clear_fault(table_id)  # rummy-bot faults --clear
    assert (await h.service.entry.table_info(CHAT)) is not None
    await h.raw(DAMAGED_SEATS, (table_id,))
    await say(h.people, CHAT, ANA, "draw")
    assert [f.table_id for f in h.notifier.faults] == [table_id, table_id]


async def test_the_cache_never_hides_a_row_changed_without_a_new_version(harness: Harness) -> None:
    """The issue's cache case: bad JSON written behind the bot's back with the version
    left as it was used to be served from the decoded-table cache, and the next move
    wrote over it. Now the row is read again: refused, reported, and left as it is."""
    h = harness
    table_id = await human_turn(h)
    before = await h.service.repo.get_table(table_id)  # read once: decoded and cached
    assert before is not None
    await _behind_the_cache(h, DAMAGED_SEATS, (table_id,))
    reply = await say(h.people, CHAT, ANA, "draw")
    assert not reply.ok and reply.text is not None and f"#{table_id}" in reply.text
    assert table_id in await fault_rows(h)
    assert await _column(h, "seats", table_id) == '[{"kind": "human", "na'  # not written over
    assert await _column(h, "version", table_id) == before.version


async def test_a_row_changed_in_place_but_still_readable_is_read_as_it_is(harness: Harness) -> None:
    """A repair (or any change) made without a new version is what the next load sees."""
    h = harness
    table_id = await human_turn(h)
    await h.service.repo.get_table(table_id)
    await _behind_the_cache(
        h,
        "UPDATE tables SET settings = replace(settings, '\"24h\"', '\"10m\"') WHERE id = ?",
        (table_id,),
    )
    table = await h.service.repo.get_table(table_id)
    assert table is not None and table.settings.timer == "10m"


def _private(user: UserRef, text: str) -> Any:
    from bot.interaction.commands import parse
    from bot.ports.intents import Intent

    return Intent(parse(text), user)


async def _behind_the_cache(h: Harness, sql: str, params: tuple[Any, ...]) -> None:
    """Run ``sql`` on the rows the way another program would: the repository's cache
    is left as it is (:meth:`Harness.raw` drops it)."""
    if h.url is None:
        await h.db.conn.execute(sql, params)
    else:
        await h.service.repo.execute_one(sql, params)  # type: ignore[attr-defined]


async def _column(h: Harness, column: str, table_id: int) -> Any:
    rows = await h.service.repo.fetch_all(  # type: ignore[attr-defined]
        f"SELECT {column} FROM tables WHERE id = ?", (table_id,)
    )
    return rows[0][0]


async def test_rummy_bot_faults_lists_it_after_the_first_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The operator's view while the bot runs: ``rummy-bot faults`` on the same file."""
    from bot.cli import main

    from .support import make_harness

    h = await make_harness(tmp_path / "db.sqlite3")
    try:
        table_id = await human_turn(h)
        await h.raw(DAMAGED_SEATS, (table_id,))
        monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "db.sqlite3"))
        monkeypatch.setenv("LANG", "C.UTF-8")
        monkeypatch.chdir(tmp_path)

        def faults() -> str:
            assert main(["faults"]) == 0
            return capsys.readouterr().out

        assert "No table is failing." in await asyncio.to_thread(faults)
        await say(h.people, CHAT, ANA, "draw")
        listed = await asyncio.to_thread(faults)
        assert f"table {table_id} (test:chat1:): quarantined" in listed
        assert "UnreadableTable" in listed
    finally:
        await h.db.close()


async def test_a_table_just_committed_is_served_from_the_cache(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fingerprint costs no decoding: the table a move committed is what the next
    load gets, without reading its JSON again."""
    import bot.storage.repository as repository

    h = harness
    await human_turn(h)
    decoded: list[int] = []
    real = repository.table_from_row

    def counting(row: Any) -> Any:
        decoded.append(row["id"])
        return real(row)

    monkeypatch.setattr(repository, "table_from_row", counting)
    table = await h.service.repo.active_table(CHAT)
    assert table is not None and table.state is not None
    player = (ANA, BEN)[table.state.current]
    assert (await say(h.people, CHAT, player, "draw")).ok
    after = await h.service.repo.active_table(CHAT)
    assert after is not None and after.version == table.version + 1
    assert decoded == []
