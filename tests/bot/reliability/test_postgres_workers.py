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
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from telegram.ext import AIORateLimiter

from bot.ports.model import ChatKey, Status, TableInfo, TableSettings, UserRef
from bot.service.clock import ManualClock
from bot.service.errors import TableBusy
from bot.service.flow import FlowControl
from bot.service.repository import LogEntry
from bot.service.service import GameService
from bot.storage.postgres import PgDatabase, PostgresRepository, open_postgres
from bot.telegram_bot import TelegramAdapter
from devsupport.pg_server import PgServer
from engine.ai import make_ai
from engine.commands import format_action
from engine.errors import IllegalMove
from engine.game import current_player, legal_actions
from engine.views import view_for
from tests.bot.people import People
from tests.bot.reliability.support import table_problems
from tests.fakes.telegram import running_fake_telegram

pytestmark = pytest.mark.once  # processes or a pseudo-terminal: the first CI pass only

WORKER = Path(__file__).with_name("pg_worker.py")
SETTINGS = TableSettings(timer="off", ai_delay=0.0, next_deal_delay=0.0, call_window=0.0)


async def services(url: str, count: int, clock: ManualClock
                   ) -> tuple[list[GameService], list[PgDatabase]]:
    out, dbs = [], []
    for n in range(count):
        db = await open_postgres(url, max_size=4)
        seeds = iter(range(1000 * (n + 1), 10**9))
        service = GameService(PostgresRepository(db), clock=clock, defaults=SETTINGS,
                              seed_source=lambda s=seeds: next(s))  # type: ignore[misc]
        service.flow = FlowControl(limited=False)  # the load is the test's, not a person's
        out.append(service)
        dbs.append(db)
    return out, dbs


@pytest.mark.parametrize("workers", [2, 4])
async def test_simultaneous_clicks_from_several_workers_apply_once(
        pg_server: PgServer, workers: int) -> None:
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
                    action = ai.decide(view_for(table.state, seat),
                                       legal_actions(table.state, seat))
                    command, user = format_action(action), users[seat]
                batch += [(key, People(s).act(key, user, command, f"{key}:{number}:{n}"))
                          for n, s in enumerate(group)]
            if not batch:
                break
            answers = await asyncio.gather(*(call for _key, call in batch),
                                           return_exceptions=True)
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


async def _ai_tables(url: str, count: int) -> list[int]:
    """``count`` tables whose every seat is played by the AI (the host's seat is put on
    autopilot), due now."""
    db = await open_postgres(url)
    service = GameService(PostgresRepository(db), defaults=SETTINGS)
    ids = []
    try:
        for t in range(count):
            key = ChatKey("pg", f"ai{t}")
            host = UserRef("pg", f"host{t}", f"h{t}")
            await People(service).new_table(key, host, "basic", None,
                                            {"deals": 2, "target": "none"})
            await People(service).add_ai(key, host)
            await People(service).add_ai(key, host)
            info = await People(service).start(key, host)
            table = await service.repo.get_table(info.id)
            assert table is not None
            seats = (replace(table.seats[0], autopilot=True), *table.seats[1:])
            auto = replace(table, seats=seats, version=table.version + 1, due_at=time.time())
            await service.repo.commit(auto, table.version,
                                      [LogEntry(auto.version, None, "autopilot", "test")])
            ids.append(info.id)
    finally:
        await db.close()
    return ids


def _start_worker(url: str) -> subprocess.Popen[str]:
    process = subprocess.Popen([sys.executable, str(WORKER), url], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "READY"
    return process


async def test_workers_share_due_work_and_survive_a_killed_one(pg_server: PgServer) -> None:
    """Three worker processes run twelve AI tables; one is killed with SIGKILL after a
    second: the two others finish every table; no version was written twice (each log
    line's version once, 2..final) and every log replays to its stored state."""
    url = pg_server.create("workers")
    ids = await _ai_tables(url, 12)
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
                assert process.poll() is None, process.stderr.read() if process.stderr \
                    else "a worker died"
            await asyncio.sleep(0.5)
        for table in tables:
            assert table is not None
            assert table_problems(table, await repo.action_log(table.id)) == []
        print(f"\n12 AI tables finished by 2 workers after the third was killed; "
              f"versions {sorted(t.version for t in tables if t)}")
    finally:
        for process in workers:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
        await db.close()


async def test_a_lease_on_due_work_is_held_by_one_worker_until_it_runs_out(
        pg_server: PgServer) -> None:
    """Worker a claims table 7's due step: b cannot until the lease runs out; a can renew
    its own; releasing is a's alone."""
    db = await open_postgres(pg_server.create("leases"))
    repo = PostgresRepository(db)
    try:
        assert await repo.claim_due(7, "a", 100.0, 15.0)
        assert not await repo.claim_due(7, "b", 110.0, 15.0)
        assert await repo.claim_due(7, "a", 110.0, 15.0)  # renewed until 125
        assert not await repo.claim_due(7, "b", 124.0, 15.0)
        await repo.release_due(7, "b")  # not b's to release
        assert not await repo.claim_due(7, "b", 124.5, 15.0)
        assert await repo.claim_due(7, "b", 125.5, 15.0)  # a's ran out: a dead worker
        await repo.release_due(7, "b")
        assert await repo.claim_due(7, "a", 126.0, 15.0)
        claims = await asyncio.gather(*(repo.claim_due(8, f"w{n}", 200.0, 15.0)
                                        for n in range(8)))
        assert sum(claims) == 1  # eight workers at once: one gets it
    finally:
        await db.close()


async def test_only_one_worker_long_polls_telegram(pg_server: PgServer) -> None:
    """Telegram hands each update to one poller (a second one gets 409 Conflict): of two
    workers on one database only one polls; when it stops, the next worker to start
    takes the role."""
    url = pg_server.create("polling")
    async with running_fake_telegram() as tg:

        async def worker() -> tuple[TelegramAdapter, PgDatabase]:
            db = await open_postgres(url)
            adapter = TelegramAdapter(tg.token, base_url=tg.base_url,
                                      base_file_url=tg.base_file_url, poll_timeout=1,
                                      rate_limiter=AIORateLimiter(overall_max_rate=0,
                                                                  group_max_rate=0))
            service = GameService(PostgresRepository(db), {"telegram": adapter.notifier})
            await adapter.start(service.host())
            return adapter, db

        first, db1 = await worker()
        second, db2 = await worker()
        try:
            polling = [a.app.updater is not None and a.app.updater.running
                       for a in (first, second)]
            assert polling == [True, False]
            await first.stop()
            await db1.close()  # the worker is gone: its role with it
            third, db3 = await worker()
            assert third.app.updater is not None and third.app.updater.running
            await third.stop()
            await db3.close()
        finally:
            await second.stop()
            await db2.close()
            if first.app.running:
                await first.stop()
