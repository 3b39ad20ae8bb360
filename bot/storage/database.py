"""Opening the SQLite database: WAL mode, foreign keys, numbered migrations.

Migrations are the files ``bot/storage/migrations/NNNN_name.sql``, applied in
order inside one transaction each and recorded in ``schema_migrations``.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
import time
from importlib import resources
from pathlib import Path

import aiosqlite

_MIGRATION = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class DatabaseUnusable(Exception):
    """The database at ``path`` cannot be used: ``reason`` says why in one line (not a
    database, damaged, a directory, no permission, migrated by a newer release). Nothing
    stays open when this is raised."""

    def __init__(self, path: str, reason: str) -> None:
        reason = " ".join(reason.split())  # one line, whatever SQLite said
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


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


def migrations(dialect: str = "sqlite") -> list[tuple[int, str, str]]:
    """``(number, name, sql)`` of every migration file of ``dialect`` (``sqlite``:
    ``migrations/``, ``postgres``: ``migrations_postgres/``, the same numbers and
    meaning), in order."""
    folder = resources.files("bot.storage") / (
        "migrations" if dialect == "sqlite" else "migrations_postgres")
    found = []
    for entry in folder.iterdir():
        match = _MIGRATION.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    return sorted(found)


def latest_schema() -> int:
    """The highest migration number this release knows."""
    return max(number for number, _name, _sql in migrations())


async def open_database(path: str | Path) -> Database:
    """Open (or create) the database at ``path`` (``":memory:"`` allowed), check it and
    migrate it.

    Sets WAL journaling (readers never block the writer, a crash keeps every
    committed transaction) and ``synchronous=NORMAL``, which in WAL mode loses no
    committed transaction on a process crash. An existing file is checked with
    ``PRAGMA quick_check`` first. Raises :class:`DatabaseUnusable` (with the connection
    closed again, so nothing keeps the process alive) for a directory, a file that is
    not a SQLite database or is damaged, one that cannot be created or written, and a
    schema migrated by a newer release than this one.
    """
    text = str(path)
    if text != ":memory:":
        target = Path(text)
        if target.is_dir():
            raise DatabaseUnusable(text, "is a directory, not a database file")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise DatabaseUnusable(text, error.strerror or str(error)) from error
    try:
        conn = await aiosqlite.connect(text, isolation_level=None)
    except (sqlite3.Error, OSError) as error:
        raise DatabaseUnusable(text, str(error)) from error
    try:
        conn.row_factory = aiosqlite.Row
        await _check(conn)
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA synchronous=NORMAL")
        await conn.execute("PRAGMA foreign_keys=ON")
        await conn.execute("PRAGMA busy_timeout=5000")
        await _migrate(conn)
    except BaseException as error:
        with contextlib.suppress(Exception):
            await conn.close()
        if isinstance(error, DatabaseUnusable):
            raise DatabaseUnusable(text, error.reason) from None
        if isinstance(error, sqlite3.Error | OSError):
            raise DatabaseUnusable(text, str(error)) from error
        raise
    return Database(conn, text)


async def _check(conn: aiosqlite.Connection) -> None:
    """``quick_check`` (a damaged or foreign file fails here) and the schema version."""
    async with conn.execute("PRAGMA quick_check") as cursor:
        rows = [row[0] async for row in cursor]
    if rows != ["ok"]:
        found = " ".join(" ".join(str(r) for r in rows[:3]).split())
        raise DatabaseUnusable("", f"damaged (quick_check: {found[:200]})")
    async with conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND "
                            "name = 'schema_migrations'") as cursor:
        known = await cursor.fetchone() is not None
    if not known:
        return
    async with conn.execute("SELECT MAX(version) FROM schema_migrations") as cursor:
        row = await cursor.fetchone()
    newest = row[0] if row is not None and row[0] is not None else 0
    if newest > latest_schema():
        raise DatabaseUnusable("", f"migrated by a newer release (schema {newest}; this "
                                   f"release knows up to {latest_schema()})")


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
            for statement in statements(sql):
                await conn.execute(statement)
            await conn.execute("INSERT INTO schema_migrations VALUES (?, ?, ?)",
                               (number, name, time.time()))
            await conn.execute("COMMIT")
        except BaseException:
            await conn.execute("ROLLBACK")
            raise


def statements(sql: str) -> list[str]:
    """Split a migration into statements (no semicolons inside our SQL literals)."""
    lines = [line.split("--", 1)[0] for line in sql.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
