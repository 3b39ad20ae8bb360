"""One process of :mod:`benchmarks.ai_workers`, run by path inside the checkout it measures
(``PYTHONPATH`` and the working directory are that checkout, so ``bot`` is that tree's):

- ``python ai_workers_child.py TARGET create N`` stores N busy all-AI tables (every seat
  moved by the AI, no pauses: every table is always due), as the stop test does;
- ``python ai_workers_child.py TARGET run`` runs the bot on them (:func:`bot.runner.run_bot`
  with no chat platform, engine work in its worker pool) and counts every statement this
  process sends: on SQLite through the connection's trace callback, on PostgreSQL by
  wrapping asyncpg's ``Connection`` calls (each call one round trip; a pool's reset query
  counts as one). It prints ``READY`` once it committed a step (its engine pool is up)
  and, on every ``SIGUSR1``, a line ``SNAP`` with the counters as JSON; ``SIGTERM`` stops
  it.

It only uses what both the checkout before issue 35 and this one have (``run_bot``,
``open_storage``, ``GameService``, the tests' ``People``).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

TREE = os.environ.get("RUMMY_TREE", os.getcwd())
# the script's own folder (this checkout's benchmarks/) must not shadow anything
sys.path[0] = TREE

from bot.ports.model import ChatKey, TableSettings, UserRef  # noqa: E402
from bot.settings import Settings  # noqa: E402

BUSY = TableSettings(timer="off", ai_delay=0.0, next_deal_delay=0.0, call_window=0.0)

COUNTS: Counter[str] = Counter()
"""statements, transactions, lost (compare-and-set updates that changed no row),
commits (compare-and-set updates sent) and ``kind:<first words>`` per statement."""

_OPEN: dict[int, bool] = {}  # connection id -> inside an explicit transaction


def _kind(sql: str) -> str:
    """A statement's kind without its values: ``BEGIN``, ``UPDATE tables``, ``INSERT INTO
    actions``, ``SELECT ... FROM users``, ``SELECT pg_notify``."""
    words = sql.replace("(", " ( ").split()
    if not words:
        return "?"
    first = words[0].rstrip(";").upper()
    if first in ("BEGIN", "COMMIT", "ROLLBACK", "END"):
        return first
    if words[:3] == ["WITH", "due", "AS"]:
        return "claim (WITH due AS ...)"
    if "RESET ALL" in sql:
        return "pool reset (... RESET ALL)"
    if "clock_timestamp" in sql:
        return "clock sync"
    if first in ("UPDATE", "DELETE", "INSERT") and len(words) > 1:
        return " ".join(words[:3] if first != "UPDATE" else words[:2])
    if first == "SELECT" and "FROM" in words:
        return "SELECT ... FROM " + words[words.index("FROM") + 1]
    return " ".join(words[:2])[:40]


def _count(conn: int, sql: str) -> None:
    COUNTS["statements"] += 1
    COUNTS["kind:" + _kind(sql)] += 1
    head = sql.lstrip()[:8].upper()
    if head.startswith("BEGIN"):
        _OPEN[conn] = True
        COUNTS["transactions"] += 1
    elif head.startswith(("COMMIT", "ROLLBACK", "END")):
        _OPEN[conn] = False
    elif not _OPEN.get(conn, False):
        COUNTS["transactions"] += 1  # a statement outside a transaction is one


def _settings(target: str, **extra: Any) -> Settings:
    if target.startswith("postgresql://"):
        return Settings(database_url=target, **extra)
    return Settings(database_path=Path(target), **extra)


def _count_postgres() -> None:
    import asyncpg.connection

    cls = asyncpg.connection.Connection
    for name in ("execute", "executemany", "fetch", "fetchval", "fetchrow", "fetchmany"):
        original = getattr(cls, name)

        def wrapped(
            self: Any,
            query: str,
            *args: Any,
            _original: Any = original,
            _name: str = name,
            **kwargs: Any,
        ) -> Any:
            _count(id(self), query)

            async def call() -> Any:
                result = await _original(self, query, *args, **kwargs)
                if _name == "execute" and query.lstrip().startswith("UPDATE tables SET"):
                    COUNTS["commits"] += 1
                    if result == "UPDATE 0":
                        COUNTS["lost"] += 1
                return result

            return call()

        setattr(cls, name, wrapped)


def _count_sqlite() -> None:
    import bot.runner

    original = getattr(bot.runner, "open_storage")  # noqa: B009  # not exported

    async def traced(settings: Settings) -> Any:
        db, repo = await original(settings)
        conn = getattr(db, "conn", None)
        if conn is not None:

            def trace(sql: str) -> None:
                _count(0, sql)
                if sql.lstrip().startswith("UPDATE tables SET"):
                    COUNTS["commits"] += 1

            await conn.set_trace_callback(trace)
        return db, repo

    setattr(bot.runner, "open_storage", traced)  # noqa: B010  # replaced for this process


async def create(target: str, count: int) -> None:
    from bot.service.service import GameService
    from bot.storage.backend import open_storage
    from tests.bot.people import People

    db, repo = await open_storage(_settings(target))
    try:
        service = GameService(repo, defaults=BUSY, seed_source=iter(range(1, 10**9)).__next__)
        people = People(service)
        # spelled out, not People.busy_ai_tables: an older checkout has no such method
        for n in range(count):
            key = ChatKey("bench", f"c{n}")
            host = UserRef("bench", f"u{n}", f"host{n}")
            await people.new_table(key, host, "basic", None, {"deals": 50})
            await people.add_ai(key, host)
            await people.add_ai(key, host, "random")
            await people.start(key, host)
            await people.leave(key, host)  # the autopilot plays the host too
    finally:
        await db.close()
    print("CREATED", flush=True)


async def run(target: str) -> None:
    from bot.runner import run_bot

    if target.startswith("postgresql://"):
        _count_postgres()
    else:
        _count_sqlite()
    loop = asyncio.get_running_loop()

    def snap() -> None:
        print("SNAP " + json.dumps({"at": time.monotonic(), **COUNTS}), flush=True)

    loop.add_signal_handler(signal.SIGUSR1, snap)

    async def announce() -> None:
        # up: this worker committed a step (its engine pool has started), or 30 s passed
        began = time.monotonic()
        while COUNTS["commits"] == 0 and time.monotonic() - began < 30.0:
            await asyncio.sleep(0.1)
        print("READY", flush=True)

    task = asyncio.ensure_future(announce())
    await run_bot(_settings(target), adapters=[])
    task.cancel()
    print("STOPPED", flush=True)


if __name__ == "__main__":
    if sys.argv[2] == "create":
        asyncio.run(create(sys.argv[1], int(sys.argv[3])))
    else:
        asyncio.run(run(sys.argv[1]))
