"""Player actions through the game service, and the SQLite commit rate beneath it.

What is measured (every figure on a real SQLite file in a temporary directory, with
the repository's own pragmas, a no-op notifier and the service's background loop
running as ``rummy-bot run`` has it):

- **one action, 1 table**: wall time of ``await service.act(...)`` (load, engine
  apply, compare-and-set commit of state + action log + idempotency key,
  notification), closed loop on one table; p50 and p99 in ms.
- **one action, N live tables**: open loop. Arrivals follow a fixed timeline at
  ``RATE`` actions/s in total, each at a seeded random table; the latency of an
  action runs from its *scheduled* arrival to the end of its ``act`` call, so time
  spent queueing behind other actions (and behind the same table's previous one)
  counts.
- **raw commit rate**: one-row ``INSERT`` + ``COMMIT`` per transaction in a tight
  loop on a file in the same directory, same ``journal_mode``/``synchronous``: the
  physical limit of the disk and SQLite, with the stdlib ``sqlite3`` and through
  ``aiosqlite``; for reference also with ``synchronous=FULL`` (an fsync per commit).
- **service throughput**: ``CONCURRENCY`` drivers act closed loop on their own
  tables; committed actions/s and their share of the raw stdlib rate.

Players are driven by a mirror of each game: the driver keeps the engine state,
lets the greedy AI choose the seat's move among ``legal_actions`` and sends it as
a text command, the way a chat adapter does; between deals seat 0 says ``next``, a
finished game is replaced by a new one in the same chat.
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import sqlite3
import tempfile
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import aiosqlite

from benchmarks.intents import act, unlimited
from benchmarks.report import BenchConfig, Row, Section, percentile
from bot.ports.model import ChatKey, TableSettings, UserRef
from bot.ports.screens import CoachAdvice, TableFault, TableUpdate, TimerWarning
from bot.service.service import GameService
from bot.storage.database import Database, open_database
from bot.storage.repository import SqliteRepository
from engine.actions import Action, NextDeal
from engine.ai import Player, make_ai
from engine.commands import format_action
from engine.game import apply, legal_actions
from engine.state import GameState, Phase
from engine.views import view_for

#: Total arrival rate of the open-loop run, actions per second over all tables.
RATE = 50.0
#: Concurrent closed-loop drivers of the throughput run.
CONCURRENCY = 8
#: Platform name of the bench's chats (its notifier is a no-op).
PLATFORM = "bench"


@dataclass(frozen=True, slots=True)
class Sizes:
    """The work of one run: ``tables`` live tables, ``duration`` seconds of open-loop
    arrivals, ``single`` timed actions on one table, ``throughput`` actions per driver of
    the closed-loop run and ``raw`` seconds of each raw-commit run."""

    tables: int
    duration: float
    single: int
    throughput: int
    raw: float

    @staticmethod
    def of(config: BenchConfig) -> Sizes:
        """The full sizes, or the reduced ones of a quick run."""
        if config.quick:
            return Sizes(tables=20, duration=2.0, single=100, throughput=80, raw=0.25)
        return Sizes(tables=200, duration=20.0, single=400, throughput=500, raw=1.5)


class NullNotifier:
    """A :class:`bot.ports.notifier.Notifier` that shows nothing (the platform's cost is
    not the service's)."""

    async def publish(self, update: TableUpdate) -> None:
        """Ignore a table change."""

    async def warn(self, warning: TimerWarning) -> None:
        """Ignore a timer warning."""

    async def fault(self, fault: TableFault) -> None:
        """Ignore a table that cannot be loaded."""

    async def coach(self, advice: CoachAdvice) -> None:
        """Ignore the coach's notes."""


@dataclass
class Driver:
    """Plays both human seats of one table through the service.

    The driver mirrors the game: ``planned`` is the engine state after every action in
    ``plan``, the queue of ``(user, command, ends_game)`` still to send. :meth:`prepare`
    chooses actions ahead of a timed run so that choosing (the client's work) is never
    part of a measured latency nor competes with the service for the CPU. ``errors``
    counts refused or inconsistent actions (0 in a healthy run); ``games`` the games
    started; ``unplanned`` the actions chosen on the fly because the plan ran out.
    """

    service: GameService
    key: ChatKey
    users: tuple[UserRef, UserRef]
    ai: Player
    planned: GameState | None = None
    version: int = 0
    plan: deque[tuple[UserRef, str, bool]] = field(default_factory=deque)
    acts: int = 0
    errors: int = 0
    games: int = 0
    unplanned: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def start_game(self) -> None:
        """Open a lobby, seat the second player and start (3 service calls, untimed)."""
        host, guest = self.users
        await self.service.lobby.new_table(self.key, host, "basic")
        await self.service.lobby.join(self.key, guest)
        await self.service.lobby.start(self.key, host)
        await self._resync()
        self.games += 1

    async def _resync(self) -> None:
        table = await self.service.repo.active_table(self.key)
        assert table is not None and table.state is not None
        self.planned, self.version = table.state, table.version
        self.plan.clear()

    def prepare(self, count: int) -> None:
        """Choose up to ``count`` more actions (fewer when the game ends)."""
        for _ in range(count):
            state = self.planned
            assert state is not None
            if state.phase is Phase.GAME_OVER:
                return
            if state.phase is Phase.HAND_OVER:
                action: Action = NextDeal(0)
                user = self.users[0]
            else:
                seat = state.current
                action = self.ai.decide(view_for(state, seat), legal_actions(state, seat))
                user = self.users[seat]
            self.planned, _ = apply(state, action)
            self.plan.append((user, format_action(action), self.planned.phase is Phase.GAME_OVER))

    async def act(self) -> float:
        """Send the next planned action; returns the ``act`` call's wall time in seconds.

        An empty plan is refilled first, a finished game replaced by a new one
        afterwards; both outside the returned time.
        """
        if not self.plan:
            self.unplanned += 1
            self.prepare(1)
        user, command, ends_game = self.plan.popleft()
        self.acts += 1
        update_key = f"{self.key}:{self.acts}"
        began = time.perf_counter()
        try:
            info = await act(self.service, self.key, user, command, update_key)
        except Exception:
            elapsed = time.perf_counter() - began
            self.errors += 1
            await self._resync()
            return elapsed
        elapsed = time.perf_counter() - began
        if info.version != self.version + 1:
            self.errors += 1
            await self._resync()
            return elapsed
        self.version = info.version
        if ends_game:
            await self.start_game()
        return elapsed


@dataclass
class Bench:
    """A service on a fresh database file with its background loop, and its drivers."""

    folder: Path
    db: Database
    service: GameService
    stop: asyncio.Event
    loop_task: asyncio.Task[None]
    drivers: list[Driver] = field(default_factory=list)

    @staticmethod
    async def open(folder: Path) -> Bench:
        """Open ``folder/service.sqlite3`` and start the background loop as the runner does."""
        db = await open_database(folder / "service.sqlite3")
        service = unlimited(
            GameService(
                SqliteRepository(db),
                {PLATFORM: NullNotifier()},
                defaults=TableSettings(),
                default_locale="en",
            )
        )
        stop = asyncio.Event()
        task = asyncio.create_task(service.run(stop))
        return Bench(folder, db, service, stop, task)

    async def add_tables(self, count: int, seed: int) -> list[Driver]:
        """Start ``count`` two-player games; returns their drivers."""
        made = []
        for _ in range(count):
            n = len(self.drivers)
            users = (UserRef(PLATFORM, f"{n}a", f"ana{n}"), UserRef(PLATFORM, f"{n}b", f"ben{n}"))
            driver = Driver(
                self.service, ChatKey(PLATFORM, f"chat{n}"), users, make_ai("greedy", seed=seed + n)
            )
            await driver.start_game()
            self.drivers.append(driver)
            made.append(driver)
        return made

    async def close(self) -> None:
        """Stop the background loop and close the database."""
        self.stop.set()
        await self.loop_task
        await self.db.close()


async def closed_loop_single(driver: Driver, count: int, warmup: int = 20) -> list[float]:
    """``count`` timed actions on one table, one after the other (seconds each)."""
    driver.prepare(warmup + count)
    for _ in range(warmup):
        await driver.act()
    return [await driver.act() for _ in range(count)]


async def open_loop(
    drivers: Sequence[Driver], rate: float, duration: float, seed: int
) -> tuple[list[float], list[float], float]:
    """Arrivals at ``rate``/s for ``duration`` s, each at a random table.

    Returns the latencies (seconds from scheduled arrival to the end of ``act``), the
    part of each spent before ``act`` ran (the event loop waking up, queueing behind
    the table's previous action) and the achieved rate (actions/s from the first
    arrival to the last completion).
    """
    rng = random.Random(seed)
    targets = [drivers[rng.randrange(len(drivers))] for _ in range(int(rate * duration))]
    for driver in drivers:
        driver.prepare(sum(1 for t in targets if t is driver))
    latencies: list[float] = []
    lags: list[float] = []

    async def fire(driver: Driver, due: float) -> None:
        async with driver.lock:
            elapsed = await driver.act()
            latency = time.perf_counter() - due
            latencies.append(latency)
            lags.append(latency - elapsed)

    tasks = []
    start = time.perf_counter() + 0.05
    for i, driver in enumerate(targets):
        due = start + i / rate
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(fire(driver, due)))
    await asyncio.gather(*tasks)
    return latencies, lags, len(targets) / (time.perf_counter() - start)


async def closed_loop_throughput(drivers: Sequence[Driver], per_driver: int) -> float:
    """Committed actions/s while every driver sends ``per_driver`` planned actions as fast
    as the service answers them."""
    for driver in drivers:
        driver.prepare(per_driver - len(driver.plan))

    async def run(driver: Driver) -> None:
        for _ in range(per_driver):
            await driver.act()

    began = time.perf_counter()
    await asyncio.gather(*(run(d) for d in drivers))
    return per_driver * len(drivers) / (time.perf_counter() - began)


def _raw_setup(path: Path, journal: str, synchronous: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(f"PRAGMA journal_mode={journal}")
    conn.execute(f"PRAGMA synchronous={synchronous}")
    conn.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)")
    return conn


def raw_commit_rate(
    path: Path, duration: float, journal: str = "wal", synchronous: str = "NORMAL"
) -> float:
    """Single-row ``INSERT`` + ``COMMIT`` transactions/s with the stdlib ``sqlite3``, for
    ``duration`` seconds on a new file ``path`` with these pragmas."""
    conn = _raw_setup(path, journal, synchronous)
    try:
        count = 0
        began = time.perf_counter()
        deadline = began + duration
        while time.perf_counter() < deadline:
            for _ in range(20):
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("INSERT INTO t (v) VALUES (?)", ("x" * 40,))
                conn.execute("COMMIT")
            count += 20
        return count / (time.perf_counter() - began)
    finally:
        conn.close()


async def raw_commit_rate_async(
    path: Path, duration: float, journal: str = "wal", synchronous: str = "NORMAL"
) -> float:
    """The same transactions through ``aiosqlite`` (one thread hop per statement)."""
    _raw_setup(path, journal, synchronous).close()
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        await conn.execute(f"PRAGMA synchronous={synchronous}")
        count = 0
        began = time.perf_counter()
        deadline = began + duration
        while time.perf_counter() < deadline:
            await conn.execute("BEGIN IMMEDIATE")
            await conn.execute("INSERT INTO t (v) VALUES (?)", ("x" * 40,))
            await conn.execute("COMMIT")
            count += 1
        return count / (time.perf_counter() - began)
    finally:
        await conn.close()


@dataclass
class Figures:
    """Everything one run measured (seconds, actions/s, commits/s)."""

    single: list[float]
    loaded: list[float]
    lags: list[float]
    achieved_rate: float
    throughput: float
    raw: float
    raw_async: float
    raw_full: float
    tables: int
    errors: int
    acts: int
    unplanned: int
    journal: str
    synchronous: int


async def measure(folder: Path, sizes: Sizes, seed: int) -> Figures:
    """Run every measurement in ``folder`` (which must exist and is left with the files)."""
    bench = await Bench.open(folder)
    try:
        async with bench.db.conn.execute("PRAGMA journal_mode") as cursor:
            journal = str((await cursor.fetchone())[0])  # type: ignore[index]
        async with bench.db.conn.execute("PRAGMA synchronous") as cursor:
            synchronous = int((await cursor.fetchone())[0])  # type: ignore[index]
        solo = (await bench.add_tables(1, seed))[0]
        single = await closed_loop_single(solo, sizes.single)
        live = await bench.add_tables(sizes.tables, seed + 1)
        loaded, lags, achieved = await open_loop(live, RATE, sizes.duration, seed)
        throughput = await closed_loop_throughput(live[:CONCURRENCY], sizes.throughput)
        errors = sum(d.errors for d in bench.drivers)
        acts = sum(d.acts for d in bench.drivers)
        unplanned = sum(d.unplanned for d in bench.drivers)
    finally:
        await bench.close()
    # The raw runs use the service database's own journal mode and synchronous level.
    raw = raw_commit_rate(folder / "raw.sqlite3", sizes.raw, journal, str(synchronous))
    raw_async = await raw_commit_rate_async(
        folder / "raw_async.sqlite3", sizes.raw, journal, str(synchronous)
    )
    raw_full = raw_commit_rate(folder / "raw_full.sqlite3", sizes.raw, journal, "FULL")
    return Figures(
        single,
        loaded,
        lags,
        achieved,
        throughput,
        raw,
        raw_async,
        raw_full,
        sizes.tables,
        errors,
        acts,
        unplanned,
        journal,
        synchronous,
    )


def section(fig: Figures, sizes: Sizes, quick: bool) -> Section:
    """The report section of ``fig``."""
    reduced = " (quick: reduced size)" if quick else ""
    sync_name = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}.get(
        fig.synchronous, str(fig.synchronous)
    )
    ms = 1000.0
    out = Section("Game service: one player action incl. its SQLite commit")
    note_single = f"closed loop, {len(fig.single)} actions on 1 table{reduced}"
    out.add(Row("action p50, 1 table", percentile(fig.single, 50) * ms, "ms", note=note_single))
    out.add(
        Row("action p99, 1 table", percentile(fig.single, 99) * ms, "ms", 30.0, note=note_single)
    )
    note_open = (
        f"open loop {RATE:.0f}/s over {fig.tables} tables for {sizes.duration:.0f} s, "
        f"{len(fig.loaded)} actions, from scheduled arrival{reduced}"
    )
    out.add(
        Row(
            f"action p50, {fig.tables} tables",
            percentile(fig.loaded, 50) * ms,
            "ms",
            note=note_open,
        )
    )
    out.add(
        Row(
            f"action p99, {fig.tables} tables",
            percentile(fig.loaded, 99) * ms,
            "ms",
            100.0,
            note=note_open,
        )
    )
    out.add(
        Row(
            f"  of which before act ran, p50, {fig.tables} tables",
            percentile(fig.lags, 50) * ms,
            "ms",
            note="event-loop wake-up after the idle gap, queueing behind the table",
        )
    )
    out.add(
        Row(
            "achieved rate",
            fig.achieved_rate,
            "actions/s",
            better="higher",
            note=f"of {RATE:.0f}/s offered: arrivals / (last completion - first arrival)",
        )
    )
    out.add(
        Row(
            f"raw SQLite commits/s (sqlite3, {sync_name})",
            fig.raw,
            "commits/s",
            better="higher",
            note=f"1-row INSERT+COMMIT, {fig.journal}, same directory",
        )
    )
    out.add(
        Row(
            f"raw SQLite commits/s (aiosqlite, {sync_name})",
            fig.raw_async,
            "commits/s",
            better="higher",
            note="same, one thread hop per statement",
        )
    )
    out.add(
        Row(
            "raw SQLite commits/s (sqlite3, FULL)",
            fig.raw_full,
            "commits/s",
            better="higher",
            note="for reference: an fsync per commit",
        )
    )
    out.add(
        Row(
            "service committed actions/s",
            fig.throughput,
            "actions/s",
            better="higher",
            note=f"closed loop, {CONCURRENCY} tables x {sizes.throughput} actions at once{reduced}",
        )
    )
    out.add(
        Row(
            "service share of raw commit rate",
            100.0 * fig.throughput / fig.raw,
            "%",
            50.0,
            "higher",
            note=f"vs. sqlite3 {sync_name}",
        )
    )
    out.add(
        Row(
            "service share of fsync-bound rate",
            100.0 * fig.throughput / fig.raw_full,
            "%",
            better="higher",
            note="vs. sqlite3 FULL (for reference)",
        )
    )
    out.notes.append(
        "each service action commits one transaction: the compare-and-set UPDATE of the "
        "table row with its whole JSON state, the action-log row and the idempotency key "
        "(seen_updates), after loading and decoding the table and running the engine; the "
        "raw figure commits one small row and nothing else, so the share is what the service "
        "keeps of what the disk and SQLite could commit"
    )
    hop = 1e6 / (3 * fig.raw_async)
    out.notes.append(
        f"why the share is missed: in WAL mode with synchronous={sync_name} a commit does "
        f"not wait for the disk, so the raw figure is SQLite's own CPU time "
        f"({1e6 / fig.raw:.0f} us a commit); the service is bound by its process instead. "
        f"Every statement through aiosqlite is a hand-off to its thread and back (the raw "
        f"aiosqlite run, 3 statements a commit, puts one at ~{hop:.0f} us); an action takes "
        f"8 (the update-key check before and again under the table's lock, load, BEGIN, key "
        f"insert, compare-and-set UPDATE, log insert, COMMIT) plus the Python work of the "
        f"engine, the JSON of the state and the views for the notifier: "
        f"{1e6 / fig.throughput:.0f} us an action in all (amortized over the concurrent "
        f"tables). 50% of the raw rate would leave {2e6 / fig.raw:.0f} us an action, less "
        f"than one hand-off"
    )
    out.notes.append(
        f"{fig.acts} actions sent, {fig.errors} refused or inconsistent "
        f"(must be 0), {fig.unplanned} chosen during a timed run (the driver plans "
        f"moves ahead); the service's background loop ran throughout"
    )
    return out


def run(config: BenchConfig) -> Section:
    """Measure; returns one section (latencies in ms, rates in actions or commits/s)."""
    sizes = Sizes.of(config)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    folder = Path(tempfile.mkdtemp(prefix="rummy-bench-service-"))
    try:
        fig = asyncio.run(measure(folder, sizes, config.seed))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    result = section(fig, sizes, config.quick)
    result.notes.append(
        f"database files in {tempfile.gettempdir()} (removed afterwards)"
        + (
            ""
            if load is None
            else f"; 1-minute load average before the run "
            f"{load:.2f} on {os.cpu_count()} CPUs (other processes share "
            f"the CPUs the aiosqlite thread hand-offs need)"
        )
    )
    return result
