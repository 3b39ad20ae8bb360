"""Shared checks of the reliability tests: read a game database on its own (plain
``sqlite3``, read-only) and check every table against its action log.

A table's action log holds one line per commit (with the turn timer off, as in these
tests): versions 2, 3, ... up to the table's version (version 1 is the new lobby). A
started table's state must equal the state rebuilt from its seed by replaying the
logged seat commands, and every card of the pack must be somewhere.
"""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import subprocess
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeVar

import asyncpg

from bot.ports.frontend import FrontEnd
from bot.ports.model import ChatKey, SeatKind, Status, TableSettings, UserRef
from bot.ports.table_rules import table_rules
from bot.runner import run_bot
from bot.service.model import Table
from bot.service.repository import LogEntry
from bot.service.service import GameService
from bot.settings import Settings
from bot.storage.postgres import PostgresRepository, open_postgres
from bot.storage.repository import table_from_row
from bot.storage.roles import role_key
from bot.telegram_bot.adapter import POLLING_ROLE
from engine.cards import Card
from engine.commands import parse_action
from engine.dealing import new_game
from engine.game import apply
from engine.state import GameState
from engine.variants import get_variant
from tests.bot.people import People

T = TypeVar("T")

#: The project root (the worker subprocess runs from here so ``bot`` and ``engine`` import).
ROOT = Path(__file__).resolve().parents[3]

#: Log commands of seats that are no engine actions.
SEAT_VERBS = ("leave", "back")


@dataclass
class Snapshot:
    """Everything stored, read in one read transaction."""

    integrity: str
    tables: dict[int, Table]
    logs: dict[int, list[LogEntry]]
    seen: dict[str, tuple[int, int]] = field(default_factory=dict)
    results: dict[int, int] = field(default_factory=dict)


def read_database(path: Path | str) -> Snapshot:
    """Open ``path`` read-only (``mode=ro``) and read tables, action log, seen update keys
    and result rows, after ``PRAGMA integrity_check``; a ``postgresql://`` URL is read in
    one repeatable-read transaction instead (integrity: PostgreSQL checks its own pages,
    reported as ``ok`` when the reads succeed)."""
    if str(path).startswith("postgresql://"):
        return asyncio.run(_read_postgres(str(path)))
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    conn.row_factory = sqlite3.Row
    try:
        conn.execute("BEGIN")  # one snapshot for every read below
        integrity = "; ".join(r[0] for r in conn.execute("PRAGMA integrity_check"))
        tables = {
            row["id"]: table_from_row(row)
            for row in conn.execute("SELECT * FROM tables ORDER BY id")
        }
        logs: dict[int, list[LogEntry]] = {t: [] for t in tables}
        for row in conn.execute(
            "SELECT table_id, version, seat, command, actor FROM actions ORDER BY id"
        ):
            logs.setdefault(row["table_id"], []).append(
                LogEntry(row["version"], row["seat"], row["command"], row["actor"])
            )
        seen = {
            row["key"]: (row["table_id"], row["version"])
            for row in conn.execute("SELECT key, table_id, version FROM seen_updates")
        }
        results = {
            row["table_id"]: row["n"]
            for row in conn.execute("SELECT table_id, COUNT(*) AS n FROM results GROUP BY table_id")
        }
        conn.execute("COMMIT")
    finally:
        conn.close()
    return Snapshot(integrity, tables, logs, seen, results)


def all_cards(state: GameState) -> Counter[Card]:
    """Every physical card in hands, stock, discard pile and melds."""
    cards = [c for hand in state.hands for c in hand] + list(state.stock) + list(state.discard)
    cards += [placed.card for meld in state.melds for placed in meld.cards]
    return Counter(cards)


def replay(table: Table, log: list[LogEntry]) -> GameState:
    """The table's state rebuilt from its seed (and the fair key of its stored state: the
    deals' secrets come from it): the first deal as ``start`` dealt it, then every logged
    seat command applied in log order."""
    rules = table_rules(table.variant, table.preset, dict(table.options))
    key = table.state.fair_key if table.state is not None else None
    state = new_game(rules, [s.name for s in table.seats], seed=table.seed, fair_key=key)
    for entry in log:
        if entry.seat is None or entry.command in SEAT_VERBS:
            continue
        state, _ = apply(state, parse_action(entry.command, entry.seat))
    return state


def table_problems(table: Table, log: list[LogEntry]) -> list[str]:
    """What is wrong with one stored table (empty when nothing): log versions not exactly
    2..version in order, a state that is not the replay of the log, a lost or doubled card,
    a finished game without its results."""
    problems = []
    versions = [e.version for e in log]
    if versions != list(range(2, table.version + 1)):
        problems.append(f"table {table.id}: log versions {versions} for version {table.version}")
    if table.status is Status.LOBBY and table.state is not None:
        problems.append(f"table {table.id}: a lobby with a game state")
    if table.status is Status.PLAYING and table.state is None:
        problems.append(f"table {table.id}: playing without a state")
    if table.state is not None:
        state = table.state
        try:
            rebuilt = replay(table, log)
        except Exception as exc:  # an illegal logged move: the log is corrupt
            problems.append(f"table {table.id}: the log does not replay: {exc!r}")
        else:
            if rebuilt != state:
                problems.append(
                    f"table {table.id}: stored state differs from the replay "
                    f"(engine version {state.version} vs {rebuilt.version})"
                )
        pack = Counter(get_variant(state.rules.variant).deck(state.rules, state.seats))
        if all_cards(state) != pack:
            problems.append(f"table {table.id}: cards not accounted for")
        if [s.name for s in table.seats] != list(state.players):
            problems.append(f"table {table.id}: seats and players differ")
    return problems


@dataclass
class LogCheck:
    """What the action logs say of the acknowledged moves: the keys of those not stored
    (``missing``), per table the versions written twice, and the tables' replay problems."""

    missing: list[str]
    twice: dict[int, list[int]]
    problems: list[str]

    def failures(self) -> list[str]:
        """One line per kind of failure (none when every move is stored exactly once and
        every table replays)."""
        found = []
        if self.missing:
            found.append(f"acknowledged but not stored: {self.missing[:5]}")
        if self.twice:
            found.append(f"versions twice: {self.twice}")
        if self.problems:
            found.append(f"replay: {self.problems}")
        return found


def check_logs(
    stored: Snapshot,
    ids: Iterable[int],
    acknowledged: Iterable[tuple[str, int]],
    seat: int | None = None,
) -> LogCheck:
    """Check the tables ``ids`` of ``stored``: each acknowledged move (its update key, its
    table id) must be a person's move in that table's log (``seat``'s when given), no
    version may be logged twice, every table must replay (:func:`table_problems`)."""
    ids = list(ids)
    missing = []
    for key, table_id in acknowledged:
        seen = stored.seen.get(key)
        entries = [] if seen is None else [e for e in stored.logs[seen[0]] if e.version == seen[1]]
        if (
            seen is None
            or seen[0] != table_id
            or not entries
            or entries[0].seat is None
            or (seat is not None and entries[0].seat != seat)
        ):
            missing.append(key)
    twice = {
        i: [v for v, n in Counter(e.version for e in stored.logs[i]).items() if n > 1] for i in ids
    }
    problems = [p for i in ids for p in table_problems(stored.tables[i], stored.logs[i])]
    return LogCheck(missing, {i: v for i, v in twice.items() if v}, problems)


async def polling_backend(url: str) -> int | None:
    """The server process id of the session holding the Telegram polling role's advisory
    lock on the database ``url``, or ``None``."""
    conn = await asyncpg.connect(url)
    try:
        pid = await conn.fetchval(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' "
            "AND granted AND objid = ($1::bigint & 4294967295)::oid",
            role_key(POLLING_ROLE),
        )
    finally:
        await conn.close()
    return None if pid is None else int(pid)


@dataclass
class Worker:
    """A bot worker process a test started (``shards``: the Discord shards it runs)."""

    name: str
    process: subprocess.Popen[str]
    shards: tuple[int, ...] = ()

    @property
    def alive(self) -> bool:
        return self.process.poll() is None


class WorkerProcesses:
    """The worker processes of a test: ``workers`` (started and not killed by the test)
    and ``dead`` (killed by it)."""

    def __init__(self) -> None:
        self.workers: list[Worker] = []
        self.dead: list[Worker] = []

    def live(self) -> list[Worker]:
        return [w for w in self.workers if w.alive]

    async def kill(self, worker: Worker) -> None:
        """SIGKILL ``worker`` and wait for its end."""
        worker.process.send_signal(signal.SIGKILL)
        await asyncio.to_thread(worker.process.wait, 10)
        self.workers.remove(worker)
        self.dead.append(worker)

    def stop_all(self) -> None:
        """Stop every worker (a stopped one is woken first): SIGTERM, 15 s, then SIGKILL."""
        for worker in self.workers:
            if worker.alive:
                worker.process.send_signal(signal.SIGCONT)
                worker.process.send_signal(signal.SIGTERM)
        for worker in self.workers:
            try:
                worker.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                worker.process.kill()
                worker.process.wait(timeout=10)


async def until(condition: Callable[[], Awaitable[T]], seconds: float, what: str) -> T:
    """Await ``condition()`` every 0.1 s until it gives a truthy value (returned); fail
    with ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        value = await condition()
        if value:
            return value
        assert time.monotonic() < deadline, f"not in {seconds} s: {what}"
        await asyncio.sleep(0.1)


def humans(table: Table) -> list[str]:
    """User keys of the human seats, in seat order."""
    return [s.user for s in table.seats if s.kind is SeatKind.HUMAN and s.user is not None]


async def snapshot(path: Path | str) -> Snapshot:
    """:func:`read_database` from a coroutine (PostgreSQL read on the running loop)."""
    if str(path).startswith("postgresql://"):
        return await _read_postgres(str(path))
    return read_database(path)


async def _read_postgres(url: str) -> Snapshot:
    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction(isolation="repeatable_read", readonly=True):
            tables = {
                row["id"]: table_from_row(row)
                for row in await conn.fetch("SELECT * FROM tables ORDER BY id")
            }
            logs: dict[int, list[LogEntry]] = {t: [] for t in tables}
            for row in await conn.fetch(
                "SELECT table_id, version, seat, command, actor FROM actions ORDER BY id"
            ):
                logs.setdefault(row["table_id"], []).append(
                    LogEntry(row["version"], row["seat"], row["command"], row["actor"])
                )
            seen = {
                row["key"]: (row["table_id"], row["version"])
                for row in await conn.fetch("SELECT key, table_id, version FROM seen_updates")
            }
            results = {
                row["table_id"]: row["n"]
                for row in await conn.fetch(
                    "SELECT table_id, COUNT(*) AS n FROM results GROUP BY table_id"
                )
            }
    finally:
        await conn.close()
    return Snapshot("ok", tables, logs, seen, results)


async def pg_ai_tables(url: str, count: int, settings: TableSettings, deals: int = 2) -> list[int]:
    """``count`` tables on the PostgreSQL database ``url`` whose every seat is played by
    the AI (the host's seat is put on autopilot), due now, with ``settings``; their ids."""
    db = await open_postgres(url)
    service = GameService(PostgresRepository(db), defaults=settings)
    people = People(service)
    ids = []
    try:
        for t in range(count):
            key = ChatKey("pg", f"ai{t}")
            host = UserRef("pg", f"host{t}", f"h{t}")
            await people.new_table(key, host, "basic", None, {"deals": deals, "target": "none"})
            await people.add_ai(key, host)
            await people.add_ai(key, host)
            info = await people.start(key, host)
            table = await service.repo.get_table(info.id)
            assert table is not None
            seats = (replace(table.seats[0], autopilot=True), *table.seats[1:])
            auto = replace(table, seats=seats, version=table.version + 1, due_at=time.time())
            await service.repo.commit(
                auto, table.version, [LogEntry(auto.version, None, "autopilot", "test")]
            )
            ids.append(info.id)
    finally:
        await db.close()
    return ids


async def run_worker(settings: Settings, adapter: FrontEnd, ready: Callable[[], bool]) -> None:
    """Run one bot worker (:func:`bot.runner.run_bot` with ``adapter``) and print
    ``READY`` on stdout once ``ready()`` says the adapter is up (the worker scripts of the
    several-workers tests)."""

    async def announce() -> None:
        while not ready():
            await asyncio.sleep(0.05)
        print("READY", flush=True)

    task = asyncio.ensure_future(announce())
    try:
        await run_bot(settings, adapters=[adapter])
    finally:
        task.cancel()
