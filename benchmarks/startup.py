"""Start-up of the bot with many stored tables, and what a stored table costs on disk.

A database with ``TABLES`` stored tables is built with the real schema (the
migrations of :func:`bot.storage.open_database`) and real rows: each table is a
:class:`bot.service.model.Table` written through the repository's own row encoding
(:func:`bot.storage.repository._table_values`), its engine state taken from a game
played by the greedy AI, with the action log, the idempotency keys of its human moves,
its users and, for finished games, the results. The mix: most tables are running games
a few dozen moves in (two people, or a person and an AI), some are lobbies, some
ended (matches of one deal played out, and cancelled games). Timestamps lie in the
recent past so that, as after a short restart, nothing is due except a few AI moves
whose 1.5 s delay ran out while the bot was down.

Then a fresh interpreter does what ``rummy-bot run`` does before it serves, minus the
chat adapters: import the command line and the runner, open the database (pragmas,
migration check), build the :class:`GameService` and its first scan for due tables
(the background loop's first ``tick`` and ``next_due``). The parent times the
subprocess from launch until it reports ready; the child reports its own parts. After
ready (untimed for start-up) the child serves a first request on a stored table, runs
the first ``tick`` (the overdue AI moves) and checks that it sees every stored table.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import bot
from benchmarks.report import BenchConfig, Row, Section
from bot.ports.model import ChatKey, Seat, SeatKind, Status, TableSettings
from bot.service.model import Table
from bot.service.scheduling import reschedule
from bot.storage import open_database
from bot.storage.repository import _table_values
from engine.actions import Action, NextDeal
from engine.ai import make_ai
from engine.commands import format_action
from engine.game import apply, legal_actions, new_game
from engine.rules import RuleSet, make_rules
from engine.serialize import fraction_to_json
from engine.state import GameState, Phase
from engine.views import view_for

#: Stored tables of a full run (a quick run stores fewer).
TABLES = 10_000
#: Share of each kind of stored table (the rest are running games).
LOBBY_SHARE = 0.08
FINISHED_SHARE = 0.06
CANCELLED_SHARE = 0.04
#: Share of running games with an AI seat, and of all tables with an AI move overdue.
AI_SHARE = 0.3
DUE_SHARE = 0.005
#: Moves into the game of a running table: "a few dozen".
MOVES = (8, 60)
PLATFORM = "telegram"


@dataclass(frozen=True, slots=True)
class Played:
    """One game played by the greedy AI: its ``seed``, ``rules``, the ``states`` after
    0, 1, 2, ... moves and the ``moves`` as ``(seat, command)``."""

    seed: int
    rules: RuleSet
    states: tuple[GameState, ...]
    moves: tuple[tuple[int, str], ...]


def play_game(rules: RuleSet, names: list[str], seed: int, limit: int) -> Played:
    """Play up to ``limit`` moves (``NextDeal`` by seat 0 between deals), stopping at the
    end of the match."""
    ai = make_ai("greedy", seed=seed)
    state = new_game(rules, names, seed=seed)
    states = [state]
    moves: list[tuple[int, str]] = []
    while len(moves) < limit and state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.HAND_OVER:
            action: Action = NextDeal(0)
        else:
            seat = state.current
            action = ai.decide(view_for(state, seat), legal_actions(state, seat))
        state, _ = apply(state, action)
        states.append(state)
        moves.append((action.seat, format_action(action)))
    return Played(seed, rules, tuple(states), tuple(moves))


@dataclass
class Rows:
    """The rows to insert, per SQL table (``tables`` as column -> value), and ``due``: how
    many running tables are due at build time (their AI move is overdue)."""

    users: list[tuple[Any, ...]] = field(default_factory=list)
    tables: list[dict[str, Any]] = field(default_factory=list)
    actions: list[tuple[Any, ...]] = field(default_factory=list)
    seen: list[tuple[Any, ...]] = field(default_factory=list)
    results: list[tuple[Any, ...]] = field(default_factory=list)
    due: int = 0


class Builder:
    """Makes the rows of ``count`` stored tables (seeded) at time ``now`` (Unix seconds)."""

    def __init__(self, count: int, seed: int, now: float) -> None:
        self.count = count
        self.rng = random.Random(seed)
        self.now = now
        rules = make_rules("basic")
        short = make_rules("basic", None, {"deals": 1, "target": "none"})
        templates = max(8, min(48, count // 100))
        self.humans = [
            play_game(rules, ["Ana", "Ben"], seed + i, MOVES[1]) for i in range(templates)
        ]
        self.with_ai = [
            play_game(rules, ["Ana", "Ada"], seed + 1000 + i, MOVES[1]) for i in range(templates)
        ]
        self.finished = [
            play_game(short, ["Ana", "Ben"], seed + 2000 + i, 400)
            for i in range(max(4, templates // 4))
        ]
        self.rows = Rows()
        self.update_number = 0

    def build(self) -> Rows:
        """Rows of every table: ids 1..count, one chat per running game or lobby."""
        due_every = max(1, round(1 / DUE_SHARE))
        for table_id in range(1, self.count + 1):
            draw = self.rng.random()
            if draw < LOBBY_SHARE:
                self._lobby(table_id)
            elif draw < LOBBY_SHARE + FINISHED_SHARE:
                self._ended(table_id, Status.FINISHED)
            elif draw < LOBBY_SHARE + FINISHED_SHARE + CANCELLED_SHARE:
                self._ended(table_id, Status.CANCELLED)
            else:
                self._running(table_id, overdue=table_id % due_every == 0)
        return self.rows

    def _people(self, table_id: int, count: int) -> list[Seat]:
        seats = []
        for n, name in enumerate(("Ana", "Ben")[:count]):
            user_id = str(100_000 + 2 * table_id + n)
            seats.append(Seat(SeatKind.HUMAN, name, f"{PLATFORM}:{user_id}"))
            self.rows.users.append((PLATFORM, user_id, name, None, self.now - 86400 * 30))
        return seats

    def _key(self, table_id: int) -> ChatKey:
        return ChatKey(PLATFORM, str(-1_000_000_000_000 - table_id))

    def _table(
        self,
        table_id: int,
        seats: list[Seat],
        status: Status,
        played: Played | None,
        moves: int,
        ago: float,
        lobby_steps: list[tuple[str, str]],
    ) -> Table:
        """The table after its lobby steps and ``moves`` moves, last changed ``ago`` s ago,
        with its log and seen update keys added to the rows."""
        updated = self.now - ago
        created = updated - 60 - 30 * moves
        state = None if played is None else played.states[moves]
        version = 1
        for command, actor in lobby_steps:
            version += 1
            self._log(table_id, version, None, command, actor, created)
        if played is not None:
            for seat, command in played.moves[:moves]:
                version += 1
                actor = seats[seat].user or "ai"
                self._log(table_id, version, seat, command, actor, updated)
        table = Table(
            id=table_id,
            key=self._key(table_id),
            status=status,
            variant="basic",
            preset=None,
            options=()
            if played is None or played.rules.number("deals") is None
            else (("deals", 1), ("target", "none")),
            host=seats[0].user or "",
            seats=tuple(seats),
            settings=TableSettings(),
            seed=played.seed if played is not None else 1,
            state=state,
            version=version,
            created_at=created,
            updated_at=updated,
            last_human_at=updated,
        )
        return reschedule(None, table, updated)

    def _log(
        self, table_id: int, version: int, seat: int | None, command: str, actor: str, at: float
    ) -> None:
        self.rows.actions.append((table_id, version, seat, command, actor, at))
        if actor.startswith(PLATFORM):
            self.update_number += 1
            self.rows.seen.append((f"{PLATFORM}:{self.update_number}", table_id, version, at))

    def _store(self, table: Table) -> None:
        self.rows.tables.append({"id": table.id, **_table_values(table)})

    def _lobby(self, table_id: int) -> None:
        seats = self._people(table_id, self.rng.choice((1, 2)))
        steps = [("join", seats[1].user or "")] if len(seats) > 1 else []
        ago = self.rng.uniform(60, 11 * 3600)
        self._store(self._table(table_id, seats, Status.LOBBY, None, 0, ago, steps))

    def _running(self, table_id: int, overdue: bool) -> None:
        with_ai = overdue or self.rng.random() < AI_SHARE
        if with_ai:
            seats = [*self._people(table_id, 1), Seat(SeatKind.AI, "Ada")]
            steps = [("addbot greedy", seats[0].user or "")]
            played = self.rng.choice(self.with_ai)
        else:
            seats = self._people(table_id, 2)
            steps = [("join", seats[1].user or "")]
            played = self.rng.choice(self.humans)
        steps.append(("start", seats[0].user or ""))
        # Mid-turn (a finished deal moves on after 8 s); with an AI seat it is a person's
        # turn unless the AI's move is overdue.
        fitting = [
            n
            for n in range(MOVES[0], len(played.states))
            if played.states[n].phase in (Phase.DRAW, Phase.PLAY)
            and (not with_ai or (played.states[n].current == 1) == overdue)
        ]
        moves = self.rng.choice(fitting)
        ago = self.rng.uniform(2, 30) if overdue else self.rng.uniform(60, 18 * 3600)
        table = self._table(table_id, seats, Status.PLAYING, played, moves, ago, steps)
        self.rows.due += int(table.due_at is not None and table.due_at <= self.now)
        self._store(table)

    def _ended(self, table_id: int, status: Status) -> None:
        seats = self._people(table_id, 2)
        steps = [("join", seats[1].user or ""), ("start", seats[0].user or "")]
        ago = self.rng.uniform(60, 30 * 86400)
        if status is Status.FINISHED:
            played = self.rng.choice(self.finished)
            moves = len(played.moves)
        else:
            played = self.rng.choice(self.humans)
            moves = self.rng.randint(*MOVES)
        table = self._table(table_id, seats, status, played, moves, ago, steps)
        if status is Status.CANCELLED:
            self._log(
                table_id, table.version + 1, None, "cancel", seats[0].user or "", table.updated_at
            )
            table = replace(table, version=table.version + 1)
        table = replace(
            table,
            ended_reason="over" if status is Status.FINISHED else "cancelled",
            due_at=None,
            deadline=None,
        )
        # Ended games keep their chat: a chat plays again, so it has an old and a new table.
        table = replace(table, key=self._key(self.rng.randint(1, self.count)))
        if status is Status.FINISHED:
            state = table.state
            assert state is not None
            for seat, s in enumerate(seats):
                self.rows.results.append(
                    (
                        table_id,
                        seat,
                        s.user,
                        s.name,
                        str(table.key),
                        "basic",
                        str(fraction_to_json(state.totals[seat])),
                        int(seat in state.winners),
                        table.updated_at,
                    )
                )
        self._store(table)


def build_database(path: Path, count: int, seed: int) -> Rows:
    """Create ``path`` with the real schema and ``count`` stored tables; returns the rows
    (their counts describe the database). The WAL is checkpointed and truncated."""

    async def create() -> None:
        db = await open_database(path)
        await db.close()

    asyncio.run(create())
    rows = Builder(count, seed, time.time()).build()
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA synchronous=NORMAL")
        columns = list(rows.tables[0])
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT OR IGNORE INTO users (platform, user_id, display_name, locale, "
            "created_at) VALUES (?, ?, ?, ?, ?)",
            rows.users,
        )
        conn.executemany(
            f"INSERT INTO tables ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})",
            [tuple(r[c] for c in columns) for r in rows.tables],
        )
        conn.executemany(
            "INSERT INTO actions (table_id, version, seat, command, actor, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?)",
            rows.actions,
        )
        conn.executemany("INSERT INTO seen_updates VALUES (?, ?, ?, ?)", rows.seen)
        conn.executemany(
            "INSERT INTO results (table_id, seat, user_key, name, chat_key, variant, score, "
            "won, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows.results,
        )
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    return rows


#: The child: ``rummy-bot run`` up to serving, minus the adapters. Prints one JSON line
#: when ready, then one with what it did after.
CHILD = r"""
import time
began = time.perf_counter()
import asyncio, json, sys
import bot.cli
from bot.runner import run_bot
from bot.ports.model import ChatKey, TableSettings
from bot.service.service import GameService
from bot.storage import open_database
from bot.storage.repository import SqliteRepository
imported = time.perf_counter()

async def main(path, probe, tick):
    t0 = time.perf_counter()
    db = await open_database(path)
    t1 = time.perf_counter()
    service = GameService(SqliteRepository(db), {}, defaults=TableSettings(timer="24h"),
                          default_locale="en")
    due = await service.repo.due_tables(service.clock.now())
    await service.repo.next_due()
    t2 = time.perf_counter()
    print(json.dumps({"import": imported - began, "open": t1 - t0, "scan": t2 - t1,
                      "due": len(due)}), flush=True)
    t3 = time.perf_counter()
    info = await service.entry.table_info(ChatKey.parse(probe))
    found = None if info is None else await service.entry.screens(info.id, None)
    view = None if found is None else found.table.view
    t4 = time.perf_counter()
    ran = await service.tick() if tick else 0
    t5 = time.perf_counter()
    count = await service.repo.count_tables()
    rows = await service.repo._all("SELECT chat_key FROM tables WHERE status IN "
                                   "('lobby', 'playing') ORDER BY id")
    loaded = 0
    for row in rows[:: max(1, len(rows) // 200)]:
        table = await service.repo.active_table(ChatKey.parse(row["chat_key"]))
        loaded += table is not None
    await db.close()
    print(json.dumps({"first_request": t4 - t3, "tick": t5 - t4, "ran": ran, "count": count,
                      "active": len(rows), "loaded": loaded, "probed": len(rows[:: max(
                          1, len(rows) // 200)]), "playing": view is not None}), flush=True)

asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3] == "1"))
"""


@dataclass(frozen=True, slots=True)
class StartRun:
    """One start-up: ``total`` from launch to ready and the child's parts (seconds), the
    due tables found, and what the child did after ready."""

    total: float
    parts: dict[str, Any]
    after: dict[str, Any]


def start_once(path: Path, probe: str, tick: bool) -> StartRun:
    """Launch the child on ``path``; ``probe`` is a chat key for the first request."""
    env = dict(os.environ)
    root = str(Path(bot.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    began = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path), probe, "1" if tick else "0"],
        stdout=subprocess.PIPE,
        env=env,
        text=True,
    )
    assert child.stdout is not None
    ready_line = child.stdout.readline()
    total = time.perf_counter() - began
    rest, _ = child.communicate(timeout=120)
    if child.returncode != 0 or not ready_line:
        raise RuntimeError(f"start-up child failed with exit code {child.returncode}")
    return StartRun(total, json.loads(ready_line), json.loads(rest.splitlines()[-1]))


def database_bytes(path: Path) -> tuple[int, dict[str, int], float]:
    """``(file + WAL bytes, bytes per table or index from dbstat, mean state length)``."""
    size = path.stat().st_size
    wal = Path(str(path) + "-wal")
    if wal.exists():
        size += wal.stat().st_size
    conn = sqlite3.connect(path)
    try:
        try:
            parts = dict(conn.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"))
        except sqlite3.OperationalError:  # SQLite built without the dbstat table
            parts = {}
        mean_state = conn.execute(
            "SELECT AVG(LENGTH(state)) FROM tables WHERE state IS NOT NULL"
        ).fetchone()[0]
    finally:
        conn.close()
    return size, parts, float(mean_state or 0.0)


def _grouped(parts: dict[str, int]) -> Iterator[tuple[str, int]]:
    """Bytes per SQL table with its indexes folded in, largest first."""
    owners = {
        "tables_one_active": "tables",
        "tables_due": "tables",
        "actions_table": "actions",
        "results_user": "results",
        "results_chat": "results",
    }
    sums: dict[str, int] = {}
    for name, size in parts.items():
        owner = owners.get(
            name,
            name.removeprefix("sqlite_autoindex_").rsplit("_", 1)[0]
            if name.startswith("sqlite_autoindex_")
            else name,
        )
        sums[owner] = sums.get(owner, 0) + size
    total = sum(sums.values())
    small = {name: size for name, size in sums.items() if size < total / 100}
    ordered = sorted(((n, b) for n, b in sums.items() if n not in small), key=lambda i: -i[1])
    yield from ordered
    if small:
        yield "other", sum(small.values())


def run(config: BenchConfig) -> Section:
    """Build the database, start the bot on it; returns one section (seconds, bytes)."""
    count = 1_000 if config.quick else TABLES
    runs = 1 if config.quick else 3
    folder = Path(tempfile.mkdtemp(prefix="rummy-bench-startup-"))
    try:
        path = folder / "stored.sqlite3"
        began = time.perf_counter()
        rows = build_database(path, count, config.seed)
        built = time.perf_counter() - began
        size, parts, mean_state = database_bytes(path)
        probe = next(r["chat_key"] for r in rows.tables if r["status"] == "playing")
        # Only the last start runs the overdue moves, so every start finds the same due set.
        starts = [start_once(path, probe, tick=i == runs - 1) for i in range(runs)]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    last = starts[-1]
    ready = sorted(starts, key=lambda s: s.total)[len(starts) // 2]
    reduced = " (quick: reduced size)" if config.quick else ""
    ms = 1000.0
    out = Section(f"Start-up with {count:,} stored tables")
    note = f"median of {runs} fresh interpreters{reduced}" if runs > 1 else f"1 run{reduced}"
    out.add(
        Row(
            "start-up to ready",
            ready.total,
            "s",
            1.0,
            note=f"{note}: launch, imports, open + migrate, service, first due scan",
        )
    )
    out.add(
        Row(
            "  interpreter launch",
            (ready.total - ready.parts["import"] - ready.parts["open"] - ready.parts["scan"]) * ms,
            "ms",
            note="python start-up and process creation",
        )
    )
    out.add(
        Row(
            "  imports",
            ready.parts["import"] * ms,
            "ms",
            note="bot.cli, bot.runner and the service/storage they pull in",
        )
    )
    out.add(
        Row(
            "  open database + migration check",
            ready.parts["open"] * ms,
            "ms",
            note="WAL, pragmas, schema_migrations",
        )
    )
    out.add(
        Row(
            "  service + first due scan",
            ready.parts["scan"] * ms,
            "ms",
            note=f"due_tables + next_due: {ready.parts['due']} table(s) due",
        )
    )
    out.add(
        Row(
            "first request after ready",
            last.after["first_request"] * ms,
            "ms",
            note="table_view of a running game (load + decode)",
        )
    )
    out.add(
        Row(
            "first tick after ready",
            last.after["tick"] * ms,
            "ms",
            note=f"{last.after['ran']} overdue AI move(s) run; in the background, "
            f"not part of start-up",
        )
    )
    out.add(
        Row(
            "stored tables seen",
            float(last.after["count"]),
            "tables",
            note=f"{last.after['active']} active; {last.after['loaded']} of "
            f"{last.after['probed']} sampled active tables loaded and decoded",
        )
    )
    out.add(
        Row(
            "bytes per stored table",
            size / count,
            "B",
            note=f"(database + WAL) / tables, {size / 1e6:.1f} MB in all",
        )
    )
    out.add(Row("mean stored state", mean_state, "B", note="JSON of the engine state"))
    if parts:
        split = ", ".join(f"{name} {bytes_ / count:,.0f}" for name, bytes_ in _grouped(parts))
        out.notes.append(f"bytes per stored table by SQL table (with its indexes): {split}")
    active = sum(1 for r in rows.tables if r["status"] in ("lobby", "playing"))
    lobbies = sum(1 for r in rows.tables if r["status"] == "lobby")
    out.notes.append(
        f"{count:,} tables: {active:,} active ({lobbies:,} lobbies), "
        f"{len(rows.actions):,} logged actions, {len(rows.seen):,} seen update keys, "
        f"{len(rows.results):,} result rows; built in {built:.1f} s"
    )
    out.notes.append(
        "start-up reads no stored table: the due scan is an index range on "
        "tables_due, so the stored count barely changes it; each table is "
        "loaded by its first request"
    )
    out.notes.append(
        "the page cache is warm (the file was just written): a cold disk adds "
        "its read time for the pages the scan touches"
    )
    return out
