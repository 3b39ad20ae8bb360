"""Opening the SQLite database: WAL mode, foreign keys, numbered migrations.

Migrations are the files ``bot/storage/migrations/NNNN_name.sql``, applied in
order inside one transaction each and recorded in ``schema_migrations``.
"""

from __future__ import annotations

import re
import time
from importlib import resources
from pathlib import Path

import aiosqlite

_MIGRATION = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class Database:
    """One aiosqlite connection (aiosqlite runs it on its own thread).

    Use :func:`open_database`; ``close()`` when done. ``conn`` is the raw
    connection for the repository.
    """

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self.conn = conn
        self.path = path

    async def close(self) -> None:
        """Close the connection (pending work is committed by the repository first)."""
        await self.conn.close()


def migrations() -> list[tuple[int, str, str]]:
    """``(number, name, sql)`` of every migration file, in order."""
    folder = resources.files("bot.storage") / "migrations"
    found = []
    for entry in folder.iterdir():
        match = _MIGRATION.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    return sorted(found)


async def open_database(path: str | Path) -> Database:
    """Open (or create) the database at ``path`` (``":memory:"`` allowed) and migrate it.

    Sets WAL journaling (readers never block the writer, a crash keeps every
    committed transaction) and ``synchronous=NORMAL``, which in WAL mode loses no
    committed transaction on a process crash.
    """
    text = str(path)
    if text != ":memory:":
        Path(text).parent.mkdir(parents=True, exist_ok=True)
    conn = await aiosqlite.connect(text, isolation_level=None)
    conn.row_factory = aiosqlite.Row
    await conn.execute("PRAGMA journal_mode=WAL")
    await conn.execute("PRAGMA synchronous=NORMAL")
    await conn.execute("PRAGMA foreign_keys=ON")
    await conn.execute("PRAGMA busy_timeout=5000")
    await _migrate(conn)
    return Database(conn, text)


async def _migrate(conn: aiosqlite.Connection) -> None:
    await conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations "
                       "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL)")
    async with conn.execute("SELECT version FROM schema_migrations") as cursor:
        done = {row[0] async for row in cursor}
    for number, name, sql in migrations():
        if number in done:
            continue
        await conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in _statements(sql):
                await conn.execute(statement)
            await conn.execute("INSERT INTO schema_migrations VALUES (?, ?, ?)",
                               (number, name, time.time()))
            await conn.execute("COMMIT")
        except BaseException:
            await conn.execute("ROLLBACK")
            raise


def _statements(sql: str) -> list[str]:
    """Split a migration into statements (no semicolons inside our SQL literals)."""
    lines = [line.split("--", 1)[0] for line in sql.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
