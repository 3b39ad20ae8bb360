"""Several workers on one PostgreSQL database (issue: "When one process is not enough").

Correctness rests on the version compare-and-set of every table change (the same guard as
with SQLite): whoever commits a version first wins; a loser re-reads and finds its click
illegal or its due step already done. So (1) many services clicking the same moves at once
on shared tables get exactly one accepted move per version, and (2) worker processes
running the due work of the same tables share it without a step running twice, and when
one is killed with SIGKILL the others simply go on with its tables: no lease to wait for.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import asyncpg
import pytest
from telegram.ext import AIORateLimiter

from bot.ports.model import ChatKey, Seat, SeatKind, Status, TableInfo, TableSettings, UserRef
from bot.runner import WorkerNameTaken, run_bot
from bot.service.clock import ManualClock
from bot.service.errors import TableBusy, TableLocked
from bot.service.flow import FlowControl
from bot.service.limits import LEASE_SECONDS
from bot.service.model import Table
from bot.service.repository import LogEntry
from bot.service.service import GameService
from bot.settings import Settings
from bot.storage.database import latest_schema
from bot.storage.postgres import (
    IDLE_IN_TRANSACTION_TIMEOUT,
    LOCK_TIMEOUT,
    DatabaseClock,
    PgDatabase,
    PostgresRepository,
    open_postgres,
    session_settings,
)
from bot.storage.roles import PgRoleLock, role_key
from bot.storage.transfer import export_rows, import_rows
from bot.telegram_bot import TelegramAdapter
from devsupport.pg_server import PgServer
from engine.ai import make_ai
from engine.commands import format_action
from engine.errors import IllegalMove
from engine.game import current_player, legal_actions
from engine.views import view_for
from tests.bot.people import People
from tests.bot.reliability.support import pg_ai_tables, polling_backend, table_problems
from tests.fakes.telegram import running_fake_telegram

pytestmark = pytest.mark.once  # processes or a pseudo-terminal: the first CI pass only

WORKER = Path(__file__).with_name("pg_worker.py")
SETTINGS = TableSettings(timer="off", ai_delay=0.0, next_deal_delay=0.0, call_window=0.0)


async def services(
    url: str, count: int, clock: ManualClock
) -> tuple[list[GameService], list[PgDatabase]]:
    out, dbs = [], []
    for n in range(count):
        db = await open_postgres(url, max_size=4)
        seeds = iter(range(1000 * (n + 1), 10**9))
        service = GameService(
            PostgresRepository(db),
            clock=clock,
            defaults=SETTINGS,
            seed_source=lambda s=seeds: next(s),
        )  # type: ignore[misc]
        service.flow = FlowControl(limited=False)  # the load is the test's, not a person's
        out.append(service)
        dbs.append(db)
    return out, dbs


@pytest.mark.parametrize("workers", [2, 4])
async def test_simultaneous_clicks_from_several_workers_apply_once(
    pg_server: PgServer, workers: int
) -> None:
    """``workers`` services (each its own pool: what separate processes have) receive the
    same move of four tables at once, each with its own update key: per table and round
    exactly one is accepted, the others are refused with a typed error; every log replays
    to its stored state."""
    url = pg_server.create("clicks")
    clock = ManualClock()
    group, dbs = await services(url, workers, clock)
    rng = random.Random(workers)
    try:
        tables: dict[ChatKey, list[UserRef]] = {}
        for t in range(4):
            key = ChatKey("pg", f"chat{t}")
            users = [UserRef("pg", f"{t}-{n}", f"p{t}{n}") for n in range(2)]
            first = People(group[0])
            await first.new_table(key, users[0], "basic", None, {"deals": 1})
            await first.join(key, users[1])
            await first.start(key, users[0])
            tables[key] = users
        accepted = refused = 0
        for number in range(30):
            batch = []
            for key, users in tables.items():
                table = await group[0].repo.active_table(key)
                if table is None or table.state is None:
                    continue
                seat = current_player(table.state)
                if seat is None:
                    command, user = "next", users[0]
                else:
                    ai = make_ai("greedy", seed=rng.randrange(2**31))
                    action = ai.decide(
                        view_for(table.state, seat), legal_actions(table.state, seat)
                    )
                    command, user = format_action(action), users[seat]
                batch += [
                    (key, People(s).act(key, user, command, f"{key}:{number}:{n}"))
                    for n, s in enumerate(group)
                ]
            if not batch:
                break
            answers = await asyncio.gather(*(call for _key, call in batch), return_exceptions=True)
            for key in tables:
                mine = [a for (k, _c), a in zip(batch, answers, strict=True) if k == key]
                if not mine:
                    continue
                won = [a for a in mine if isinstance(a, TableInfo)]
                assert len(won) == 1, mine
                accepted += 1
                for answer in mine:
                    if not isinstance(answer, TableInfo):
                        assert isinstance(answer, IllegalMove | TableBusy), answer
                        refused += 1
        assert accepted >= 60 and refused == accepted * (workers - 1)
        repo = group[0].repo
        for key in tables:
            table = await repo.active_table(key) or await repo.latest_ended(key)
            assert table is not None
            assert table_problems(table, await repo.action_log(table.id)) == []
        print(f"\n{workers} workers: {accepted} moves accepted, {refused} duplicates refused")
    finally:
        for db in dbs:
            await db.close()


def _start_worker(url: str) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, str(WORKER), url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "READY"
    return process


async def test_workers_share_due_work_and_survive_a_killed_one(pg_server: PgServer) -> None:
    """Three worker processes run twelve AI tables; one is killed with SIGKILL after a
    second: the two others finish every table; no version was written twice (each log
    line's version once, 2..final) and every log replays to its stored state."""
    url = pg_server.create("workers")
    ids = await pg_ai_tables(url, 12, SETTINGS)
    workers = [await asyncio.to_thread(_start_worker, url) for _ in range(3)]
    db = await open_postgres(url)
    repo = PostgresRepository(db)
    try:
        await asyncio.sleep(1.0)
        workers[0].send_signal(signal.SIGKILL)
        workers[0].wait(timeout=10)
        deadline = time.monotonic() + 120
        while True:
            repo._written.clear()
            tables = [await repo.get_table(i) for i in ids]
            if all(t is not None and t.status is Status.FINISHED for t in tables):
                break
            assert time.monotonic() < deadline, [t.status if t else None for t in tables]
            for process in workers[1:]:
                assert process.poll() is None, (
                    process.stderr.read() if process.stderr else "a worker died"
                )
            await asyncio.sleep(0.5)
        for table in tables:
            assert table is not None
            assert table_problems(table, await repo.action_log(table.id)) == []
        print(
            f"\n12 AI tables finished by 2 workers after the third was killed; "
            f"versions {sorted(t.version for t in tables if t)}"
        )
    finally:
        for process in workers:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
        await db.close()


async def _due_table(repo: PostgresRepository, chat: str, due_at: float) -> Table:
    seats = (Seat(SeatKind.HUMAN, "Ana", user="pg:1"), Seat(SeatKind.AI, "Bot", ai="greedy"))
    return await repo.create_table(
        Table(
            0,
            ChatKey("pg", chat),
            Status.LOBBY,
            "basic",
            None,
            (),
            "pg:1",
            seats,
            TableSettings(),
            42,
            None,
            1,
            0.0,
            0.0,
            0.0,
            due_at=due_at,
        )
    )


async def test_a_lease_on_due_work_is_held_by_one_worker_until_it_runs_out(
    pg_server: PgServer,
) -> None:
    """Worker a claims table 1's due step: b cannot until the lease runs out; a can renew
    its own; the commit of a's step (a new version) ends the lease at once; eight workers
    claiming at once get disjoint tables."""
    db = await open_postgres(pg_server.create("leases"))
    repo = PostgresRepository(db)
    try:
        table = await _due_table(repo, "one", 100.0)
        assert [c.table_id for c in await repo.claim_due("a", 100.0, 15.0, 5)] == [table.id]
        assert await repo.claim_due("b", 110.0, 15.0, 5) == []
        assert [c.table_id for c in await repo.claim_due("a", 110.0, 15.0, 5)] == [table.id]
        assert await repo.claim_due("b", 124.0, 15.0, 5) == []  # renewed until 125
        assert [c.table_id for c in await repo.claim_due("b", 125.5, 15.0, 5)] == [table.id]
        moved = replace(table, version=2)  # b's step committed: its lease is over
        await repo.commit(moved, 1, [LogEntry(2, None, "step", "b")])
        assert [c.table_id for c in await repo.claim_due("a", 126.0, 15.0, 5)] == [table.id]
        ids = {(await _due_table(repo, f"many{n}", 200.0)).id for n in range(16)}
        claims = await asyncio.gather(*(repo.claim_due(f"w{n}", 300.0, 15.0, 4) for n in range(8)))
        got = [c.table_id for claim in claims for c in claim if c.table_id in ids]
        assert sorted(got) == sorted(ids)  # every table once, nobody twice
    finally:
        await db.close()


async def test_a_claim_skips_rows_another_worker_holds_instead_of_waiting(
    pg_server: PgServer,
) -> None:
    """A worker stopped inside a transaction that holds a due table's row: another
    worker's claim returns at once with the other due tables; once the server ends the
    stopped session (idle in transaction), the table is claimed again."""
    url = pg_server.create("skip")
    db = await open_postgres(url)
    repo = PostgresRepository(db)
    stopped = await asyncpg.connect(url, server_settings=session_settings("stopped"))
    try:
        held = await _due_table(repo, "held", 100.0)
        free = await _due_table(repo, "free", 100.0)
        await stopped.execute("BEGIN")
        await stopped.execute("UPDATE tables SET seed = seed WHERE id = $1", held.id)
        began = time.monotonic()
        claims = await repo.claim_due("w", 200.0, 15.0, 5)
        assert [c.table_id for c in claims] == [free.id]
        assert time.monotonic() - began < LOCK_TIMEOUT  # no wait for the held row
        with pytest.raises(TableLocked):  # a change of the held row waits a bounded time
            await repo.commit(replace(held, version=2), 1)
        assert time.monotonic() - began < LOCK_TIMEOUT * 3
        await asyncio.sleep(IDLE_IN_TRANSACTION_TIMEOUT + 1.0)
        assert [c.table_id for c in await repo.claim_due("w", 300.0, 15.0, 5)] == [held.id, free.id]
    finally:
        await stopped.close()
        await db.close()


async def _polling_role_backend(url: str) -> int:
    """The server process id of the session holding the polling role's advisory lock."""
    pid = await polling_backend(url)
    assert pid is not None
    return pid


async def _kill(adapter: TelegramAdapter) -> None:
    """What SIGKILL does to a poller: its polls stop and its lock's connection drops,
    with no release (the server frees the lock when it sees the socket close)."""
    assert adapter._role_task is not None
    adapter._role_task.cancel()
    role = adapter._role
    assert isinstance(role, PgRoleLock)
    role._conn.terminate()
    assert adapter.app.updater is not None
    await adapter.app.updater.stop()


async def test_polling_fails_over_to_exactly_one_worker(pg_server: PgServer) -> None:
    """Telegram hands each update to one poller (a second one gets 409 Conflict): of
    three workers on one database exactly one polls. The poller killed: another worker
    polls within 10 s, and only one. The poller's lock connection terminated by the
    server (``pg_terminate_backend``, as in a failover): that poller stops polling at
    once and exactly one worker polls afterwards, with no 409 Conflict once the handover
    is over (two pollers end each other's polls every second). The 409 conflicts of the
    handovers are counted (printed)."""
    url = pg_server.create("polling")
    async with running_fake_telegram() as tg:
        workers: list[tuple[TelegramAdapter, PgDatabase]] = []

        async def worker() -> TelegramAdapter:
            db = await open_postgres(url, max_size=2)
            adapter = TelegramAdapter(
                tg.token,
                base_url=tg.base_url,
                base_file_url=tg.base_file_url,
                poll_timeout=1,
                rate_limiter=AIORateLimiter(overall_max_rate=0, group_max_rate=0),
            )
            service = GameService(PostgresRepository(db), {"telegram": adapter.notifier})
            await adapter.start(service.host())
            workers.append((adapter, db))
            return adapter

        async def one_poller(among: list[TelegramAdapter], timeout: float) -> float:
            began = time.monotonic()
            while time.monotonic() - began < timeout:
                if sum(a.polling for a in among) == 1 and tg.updates.waiting == 1:
                    return time.monotonic() - began
                await asyncio.sleep(0.05)
            raise AssertionError(
                f"pollers: {[a.polling for a in among]}, waiting getUpdates: {tg.updates.waiting}"
            )

        try:
            adapters = [await worker() for _ in range(3)]
            assert [a.polling for a in adapters] == [True, False, False]
            await one_poller(adapters, 5.0)
            await _kill(adapters[0])
            resumed = await one_poller(adapters[1:], 10.0)
            assert resumed < 10.0
            poller = next(a for a in adapters[1:] if a.polling)
            backend = await _polling_role_backend(url)
            admin = await asyncpg.connect(url)
            try:
                assert await admin.fetchval("SELECT pg_terminate_backend($1)", backend)
            finally:
                await admin.close()
            began = time.monotonic()
            while poller.polling and time.monotonic() - began < 5.0:
                await asyncio.sleep(0.02)
            stopped = time.monotonic() - began
            assert not poller.polling
            resumed_again = await one_poller(adapters[1:], 10.0)
            await asyncio.sleep(1.0)  # the stopped poller's last call (PTB's clean-up) ends

            def conflicts() -> int:
                return sum(1 for call in tg.calls_to("getUpdates") if call.status == 409)

            settled = conflicts()
            for _ in range(30):  # the single poller stays single: no poll ends another
                assert sum(a.polling for a in adapters[1:]) == 1
                await asyncio.sleep(0.1)
            assert conflicts() == settled
            received = sum(a.conflicts for a in adapters)
            print(
                f"polling resumed after the kill in {resumed:.1f} s; the terminated "
                f"poller stopped in {stopped:.2f} s, polling resumed in "
                f"{resumed_again:.1f} s; 409 conflicts: {settled} answered by the "
                f"server (all during the two handovers), {received} received by a "
                f"live poller"
            )
        finally:
            for adapter, db in workers:
                with contextlib.suppress(Exception):
                    await adapter.stop()
                await db.close()


def _stop_all(workers: list[subprocess.Popen[str]]) -> None:
    for process in workers:
        if process.poll() is None:
            process.send_signal(signal.SIGCONT)
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


async def test_an_export_while_workers_play_imports_into_tables_that_all_replay(
    pg_server: PgServer, tmp_path: Path
) -> None:
    """``export-db`` while three workers play AI tables: each export is one snapshot, so
    every table imported from it into an empty database has its log exactly up to its
    version and replays to its stored state."""
    url = pg_server.create("export")
    ids = await pg_ai_tables(url, 8, SETTINGS, deals=8)
    db = await open_postgres(url)
    repo = PostgresRepository(db)
    workers: list[subprocess.Popen[str]] = []
    exported: list[Path] = []
    try:
        for n in range(4):
            if len(workers) < 3:
                workers.append(await asyncio.to_thread(_start_worker, url))
            await asyncio.sleep(0.2)
            path = tmp_path / f"export{n}.jsonl"
            with path.open("w", encoding="utf-8") as out:
                await export_rows(repo, out, latest_schema())
            exported.append(path)
    finally:
        _stop_all(workers)
        await db.close()
    moving = 0
    for n, path in enumerate(exported):
        target = await open_postgres(pg_server.create(f"import{n}"))
        imported = PostgresRepository(target)
        try:
            await import_rows(imported, path, latest_schema(), postgres=True)
            for table_id in ids:
                table = await imported.get_table(table_id)
                assert table is not None
                moving += table.status is Status.PLAYING
                assert table_problems(table, await imported.action_log(table_id)) == []
        finally:
            await target.close()
    print(f"\n{len(exported)} exports during play imported; {moving} tables were mid-game")
    assert moving  # the exports did overlap the play


async def test_a_stopped_worker_does_not_stop_the_due_work_of_the_others(
    pg_server: PgServer,
) -> None:
    """Three workers play twelve AI tables; one is stopped (SIGSTOP) for 15 s while it
    works, and a test session holds one table's row locked inside an open transaction.
    The other tables keep moving: the longest stretch without any stored action stays
    within one lease (printed; the stopped worker's own claims wait that long); the
    locked row is freed by the server's idle-in-transaction limit, and every table
    finishes and replays."""
    url = pg_server.create("stopped")
    ids = await pg_ai_tables(url, 12, SETTINGS, deals=6)
    workers = [await asyncio.to_thread(_start_worker, url) for _ in range(3)]
    db = await open_postgres(url)
    repo = PostgresRepository(db)
    holder = await asyncpg.connect(url, server_settings=session_settings("holder"))
    try:
        await asyncio.sleep(0.5)
        await holder.execute("BEGIN")
        await holder.execute("UPDATE tables SET seed = seed WHERE id = $1", ids[0])
        workers[0].send_signal(signal.SIGSTOP)
        began = last_change = time.monotonic()
        last = await db.pool.fetchval("SELECT count(*) FROM actions")
        longest = 0.0
        while time.monotonic() - began < 15.0:
            await asyncio.sleep(0.1)
            count = await db.pool.fetchval("SELECT count(*) FROM actions")
            now = time.monotonic()
            if count != last:
                last, last_change = count, now
            longest = max(longest, now - last_change)
            unfinished = await db.pool.fetchval(
                "SELECT count(*) FROM tables WHERE id = ANY($1::bigint[]) AND status <> 'finished'",
                ids,
            )
            if unfinished <= 1:  # the held one may wait; the others are done
                break
        workers[0].send_signal(signal.SIGCONT)
        print(
            f"\nlongest stretch without a stored action while a worker was stopped: {longest:.1f} s"
        )
        # the bound: due work never stops longer than one lease (the stopped
        # worker's claimed tables wait for their leases to run out), with room for load
        assert longest < LEASE_SECONDS + 5.0
        deadline = time.monotonic() + 120
        while True:
            repo._written.clear()
            tables = [await repo.get_table(i) for i in ids]
            if all(t is not None and t.status is Status.FINISHED for t in tables):
                break
            assert time.monotonic() < deadline, [t.status if t else None for t in tables]
            await asyncio.sleep(0.5)
        for table in tables:
            assert table is not None
            assert table_problems(table, await repo.action_log(table.id)) == []
    finally:
        _stop_all(workers)
        holder.terminate()
        await db.close()


async def test_a_clock_step_moves_each_deadline_once_whatever_the_number_of_workers(
    pg_server: PgServer,
) -> None:
    """Three services on one database see the same clock step (set back an hour, then
    forward ten minutes): only the worker keeping the timeline moves the stored
    deadlines, so a 2-minute turn keeps its 2 minutes (not 2 minutes less three hours)."""
    url = pg_server.create("clockstep")
    clock = ManualClock()
    workers, dbs = await services(url, 3, clock)
    try:
        people = People(workers[0])
        key, ana, ben = ChatKey("pg", "step"), UserRef("pg", "a", "Ana"), UserRef("pg", "b", "Ben")
        await people.new_table(key, ana, "basic", None, {})
        await people.join(key, ben)
        await people.configure(key, ana, {"timer": "2m"})
        info = await people.start(key, ana)
        for service in workers:
            await service.scheduler._check_clock()  # each looks at the clock once
        keepers = [s.scheduler.keeps_timeline for s in workers]

        async def left() -> float:
            workers[0].repo._written.clear()
            table = await workers[0].repo.get_table(info.id)
            assert table is not None and table.deadline is not None
            return table.deadline - clock.now()

        before = await left()
        assert 0 < before <= 120
        for step in (-3600.0, 600.0):
            clock.step(step)
            for service in workers:
                await service.scheduler._check_clock()
            assert await left() == pytest.approx(before)
        assert sum(s.scheduler.keeps_timeline for s in workers) == 1
        print(f"\ntimeline keepers: {keepers} -> {[s.scheduler.keeps_timeline for s in workers]}")
    finally:
        for service in workers:
            if service.scheduler._timeline is not None:
                await service.scheduler._timeline.release()
        for db in dbs:
            await db.close()


def test_a_second_worker_with_the_same_worker_id_is_refused(
    pg_server: PgServer, tmp_path: Path
) -> None:
    """``rummy-bot run`` with a ``WORKER_ID`` a live worker on the database holds: one
    line on stderr, exit code 2, before any platform is contacted; with another name the
    role is free."""
    url = pg_server.create("names")

    async def hold(name: str) -> asyncpg.Connection:
        conn = await asyncpg.connect(url)
        assert await conn.fetchval("SELECT pg_try_advisory_lock($1)", role_key(name))
        return conn

    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(_migrated(url))
        held = loop.run_until_complete(hold("worker:w1"))
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "WORKER_ID": "w1",
            "LANG": "C.UTF-8",
            "TELEGRAM_TOKEN": "123:unused",
        }
        for name in ("DATABASE_PATH", "DISCORD_TOKEN", "TELEGRAM_WEBHOOK_URL", "WEB_BASE_URL"):
            env.pop(name, None)
        result = subprocess.run(
            [sys.executable, "-m", "bot", "run"],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 2, result.stderr
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and "WORKER_ID=w1" in lines[0], result.stderr
        assert "Traceback" not in result.stderr
        loop.run_until_complete(held.close())
    finally:
        loop.close()


async def _migrated(url: str) -> None:
    db = await open_postgres(url)
    await db.close()


async def test_the_database_clock_is_the_servers_whatever_this_machines_clock_says(
    pg_server: PgServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """:class:`DatabaseClock` tells the server's time; this machine's wall clock set an
    hour off changes nothing."""
    db = await open_postgres(pg_server.create("dbclock"))
    try:
        clock = DatabaseClock(db.pool)
        await clock.sync(force=True)
        real = time.time
        monkeypatch.setattr(time, "time", lambda: real() + 3600)
        await clock.sync(force=True)
        server = await db.pool.fetchval("SELECT extract(epoch FROM clock_timestamp())::float8")
        assert abs(clock.now() - server) < 1.0
    finally:
        await db.close()


async def _name_holder(url: str, role: str, other_than: int | None = None) -> int:
    """The server process id of the session holding ``role``'s advisory lock, once one
    other than ``other_than`` holds it (20 s at most)."""
    conn = await asyncpg.connect(url)
    try:
        for _ in range(200):
            pid = await conn.fetchval(
                "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted "
                "AND objid = ($1::bigint & 4294967295)::oid",
                role_key(role),
            )
            if pid is not None and pid != other_than:
                return int(pid)
            await asyncio.sleep(0.1)
    finally:
        await conn.close()
    raise AssertionError(f"nobody took {role}")


async def test_a_worker_takes_its_name_again_after_a_blip_and_stops_when_another_has_it(
    pg_server: PgServer,
) -> None:
    """A running worker whose name's connection ends (a network blip, a failed-over
    server) takes its ``WORKER_ID`` again and goes on; when another live worker took the
    name meanwhile, this one stops with :class:`WorkerNameTaken` (``rummy-bot run``: one
    line, exit 2) instead of running on under a name two workers would share."""
    url = pg_server.create("rename")
    await _migrated(url)
    role = "worker:w7"
    stop = asyncio.Event()
    bot = asyncio.create_task(
        run_bot(Settings(database_url=url, worker_id="w7", engine_workers=1), stop, adapters=[])
    )
    admin = await asyncpg.connect(url)
    rival = await asyncpg.connect(url)
    try:
        first = await _name_holder(url, role)
        await admin.execute("SELECT pg_terminate_backend($1)", first)
        second = await _name_holder(url, role, other_than=first)
        await asyncio.sleep(0.5)
        assert not bot.done() and not stop.is_set()
        # a second worker asks for the name; it gets it when the first one's connection ends
        waiting = asyncio.create_task(rival.fetchval("SELECT pg_advisory_lock($1)", role_key(role)))
        await asyncio.sleep(0.5)
        assert not waiting.done()
        await admin.execute("SELECT pg_terminate_backend($1)", second)
        await asyncio.wait_for(waiting, 20)
        with pytest.raises(WorkerNameTaken):
            await asyncio.wait_for(bot, 30)
        assert stop.is_set()
    finally:
        stop.set()
        if not bot.done():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(bot, 30)
        await admin.close()
        await rival.close()
