"""Crash safety: a process playing games through the service is killed with SIGKILL
again and again; every acknowledged action survives and play goes on.

The worker (``crash_worker.py``) plays six tables at once as fast as it can and prints
``ACK table version update_key command`` after each ``act`` (or lobby step) returned,
i.e. after its transaction was committed. The test kills it with SIGKILL at seeded
random moments (after 30-200 acknowledgements, plus a few milliseconds), five times,
restarting it each time, and after every kill reads the database itself (read-only):

- ``PRAGMA integrity_check`` is ``ok``;
- every acknowledged (table, version, update key) is in ``seen_updates`` and the action
  log has that command at that version of that table;
- no committed history is lost or rewritten: each table's version never goes down and
  its earlier action log is a prefix of the later one;
- every table's log versions are exactly 2..version (one line per commit), its stored
  state equals the replay of its log from its seed, and every card is accounted for;
- every finished game has its results;
- the restarted worker resumes exactly the tables that were active (no new table in a
  chat that had one) and moves them on.

After the last restart the worker must make further progress (acknowledgements with
versions above those stored before it started), and at least one game must have
reached its end during the test.

Why SIGKILL is meaningful here: the repository opens SQLite with ``journal_mode=WAL``
and ``synchronous=NORMAL``. In WAL mode a commit is complete once its frames are
written to the WAL file (handed to the operating system); ``NORMAL`` only skips the
fsync at commit, which matters for power loss or an OS crash, not for a killed
process. So after SIGKILL every committed transaction must be there. (This test does
not model power loss.)
"""

from __future__ import annotations

import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.ports.model import Status
from bot.service.repository import LogEntry
from bot.storage import open_database
from tests.bot.reliability.support import (
    ROOT,
    Snapshot,
    read_database,
    table_problems,
)

pytestmark = pytest.mark.once  # processes or a pseudo-terminal: the first CI pass only

WORKER = Path(__file__).with_name("crash_worker.py")
SEED = 20240611
KILLS = 5
#: Give up waiting for the worker's next line after this long (a hang fails the test).
LINE_TIMEOUT = 20.0


class Worker:
    """One run of the worker subprocess, its output read by a thread."""

    def __init__(self, db: Path | str, run: int, stderr: Path) -> None:
        self.err = stderr.open("w")
        self.proc = subprocess.Popen(
            [sys.executable, str(WORKER), str(db), str(SEED), str(run)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=self.err,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def next_line(self) -> str | None:
        """The next line (``None`` at the end of the output)."""
        try:
            line = self.lines.get(timeout=LINE_TIMEOUT)
        except queue.Empty:
            raise AssertionError(
                f"the worker printed nothing for {LINE_TIMEOUT} s: {self.seen[-5:]}"
            ) from None
        if line is not None:
            self.seen.append(line)
            assert not line.startswith("ERROR"), line
        return line

    def kill(self) -> list[str]:
        """SIGKILL, then every line it printed (the rest of the pipe too)."""
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)
        while self.next_line() is not None:
            pass
        self.reader.join(timeout=30)
        self.err.close()
        return self.seen

    def stop(self) -> None:
        """Make sure the process is gone (used in ``finally``)."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=30)
        if not self.err.closed:
            self.err.close()


def acks(lines: list[str]) -> list[tuple[int, int, str, str]]:
    """``(table id, version, update key, command)`` of every ACK line."""
    found = []
    for line in lines:
        if line.startswith("ACK "):
            _, table, version, key, command = line.split(" ", 4)
            found.append((int(table), int(version), key, command))
    return found


def check_database(
    snap: Snapshot, acked: list[tuple[int, int, str, str]], earlier: Snapshot | None
) -> None:
    """The checks after a kill (see the module docstring)."""
    assert snap.integrity == "ok"
    for table_id, version, key, command in acked:
        assert snap.seen.get(key) == (table_id, version), (key, table_id, version)
        lines = [e for e in snap.logs.get(table_id, []) if e.version == version]
        assert [e.command for e in lines] == [command], (table_id, version, lines)
    problems = [p for t in snap.tables.values() for p in table_problems(t, snap.logs[t.id])]
    assert problems == []
    for table in snap.tables.values():
        if table.status is Status.FINISHED:
            assert snap.results.get(table.id) == len(table.seats), table.id
    for key, (table_id, version) in snap.seen.items():
        assert version in {e.version for e in snap.logs[table_id]}, key
    if earlier is not None:
        for table_id, before in earlier.tables.items():
            after = snap.tables[table_id]
            assert after.version >= before.version, table_id
            old: list[LogEntry] = earlier.logs[table_id]
            assert snap.logs[table_id][: len(old)] == old, table_id
            if after.version == before.version:
                assert after == before, table_id


def active_ids(snap: Snapshot) -> set[int]:
    return {t.id for t in snap.tables.values() if t.status in (Status.LOBBY, Status.PLAYING)}


async def test_storage_runs_wal_with_synchronous_normal(tmp_path: Path) -> None:
    """What the crash test relies on: the service's connection uses WAL journaling with
    ``synchronous=NORMAL`` (1), which keeps every committed transaction when the process
    dies (only power loss may drop the last commits)."""
    db = await open_database(tmp_path / "db.sqlite3")
    try:
        async with db.conn.execute("PRAGMA journal_mode") as cur:
            assert tuple(await cur.fetchone() or ()) == ("wal",)
        async with db.conn.execute("PRAGMA synchronous") as cur:
            assert tuple(await cur.fetchone() or ()) == (1,)
    finally:
        await db.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_sigkill_loses_no_acknowledged_action_and_play_continues(
    tmp_path: Path, backend: str, request: pytest.FixtureRequest
) -> None:
    """Five SIGKILLs at random moments while six tables are played at once: after each,
    every acknowledged action is stored, nothing is corrupt and the restarted worker
    resumes the stored tables; after the last restart play continues and at least one
    game ended. On SQLite (WAL) and on PostgreSQL (a killed worker's leases on due work
    run out; the restarted one takes its tables over)."""
    db: Path | str = tmp_path / "rummy.sqlite3"
    if backend == "postgres":
        db = request.getfixturevalue("pg_server").create("crash")
    rng = random.Random(SEED)
    earlier: Snapshot | None = None
    all_acked: list[tuple[int, int, str, str]] = []
    for run in range(KILLS + 1):
        worker = Worker(db, run, tmp_path / f"stderr{run}.txt")
        try:
            resumed = set()
            while (line := worker.next_line()) != "READY":
                assert line is not None, f"worker ended: {worker.seen}"
                if line.startswith("RESUME "):
                    resumed.add(int(line.split()[1]))
            expected = set() if earlier is None else active_ids(earlier)
            assert resumed == expected, "the worker must resume the stored tables"
            if run < KILLS:
                target = rng.randint(30, 200)
                while len(acks(worker.seen)) < target:
                    assert worker.next_line() is not None, worker.seen[-5:]
                time.sleep(rng.random() * 0.01)
            else:  # play continues: new acknowledgements above the stored versions
                assert earlier is not None
                stored = {t.id: t.version for t in earlier.tables.values()}
                while len(acks(worker.seen)) < 150:
                    assert worker.next_line() is not None, worker.seen[-5:]
                assert any(v > stored[t] for t, v, *_ in acks(worker.seen) if t in resumed)
            lines = worker.kill()
        finally:
            worker.stop()
        stderr = (tmp_path / f"stderr{run}.txt").read_text()
        assert "Traceback" not in stderr, stderr
        new_acks = acks(lines)
        for table_id in {a[0] for a in new_acks}:  # one task per table: versions go up
            versions = [v for t, v, *_ in new_acks if t == table_id]
            assert versions == sorted(set(versions)), (table_id, versions)
        if run > 0:
            assert {a[0] for a in new_acks} & resumed, "no resumed table moved on"
        all_acked.extend(new_acks)
        snap = read_database(db)
        check_database(snap, all_acked, earlier)
        if earlier is not None:  # resumed, not replaced: still active or played to the end
            for table_id in active_ids(earlier):
                table = snap.tables[table_id]
                assert table.status in (Status.LOBBY, Status.PLAYING) or (
                    table.status is Status.FINISHED and table.ended_reason == "over"
                ), table_id
            if run == KILLS:  # every resumed table moved on (or was played to its end)
                assert all(snap.tables[t].version > earlier.tables[t].version for t in resumed), (
                    resumed
                )
        earlier = snap
    assert earlier is not None
    over = [
        t
        for t in earlier.tables.values()
        if t.status is Status.FINISHED and t.ended_reason == "over"
    ]
    assert over, "no game reached its end"
    assert len(all_acked) >= KILLS * 30 + 150


def test_the_checks_see_a_lost_or_corrupt_action(tmp_path: Path) -> None:
    """The checks above can fail: after a short run, a deleted log line, a changed
    command and a changed state are each reported."""
    import sqlite3

    db = tmp_path / "rummy.sqlite3"
    worker = Worker(db, 0, tmp_path / "stderr.txt")
    try:
        while len(acks(worker.seen)) < 40:
            assert worker.next_line() is not None
        lines = worker.kill()
    finally:
        worker.stop()
    acked = acks(lines)
    snap = read_database(db)
    check_database(snap, acked, None)
    table_id, version, _, _ = next(
        a for a in reversed(acked) if a[3] not in ("join", "start", "addbot greedy", "draw")
    )
    table = snap.tables[table_id]

    def broken(sql: str, *params: object) -> Snapshot:
        copy = tmp_path / "copy.sqlite3"
        with sqlite3.connect(db) as src, sqlite3.connect(copy) as dst:
            src.backup(dst)
            dst.execute(sql, params)
        try:
            return read_database(copy)
        finally:
            copy.unlink()

    cases = [
        broken("DELETE FROM actions WHERE table_id = ? AND version = ?", table_id, version),
        broken(
            "UPDATE actions SET command = 'draw' WHERE table_id = ? AND version = ? "
            "AND command != 'draw'",
            table_id,
            version,
        ),
        broken(
            "UPDATE tables SET state = (SELECT state FROM tables WHERE id != ? AND "
            "state IS NOT NULL LIMIT 1) WHERE id = ?",
            table_id,
            table_id,
        ),
    ]
    for snap_broken in cases:
        try:
            check_database(snap_broken, acked, None)
        except AssertionError:
            continue
        raise AssertionError(f"corruption of table {table.id} went unnoticed")
