"""PostgreSQL storage (asyncpg): the same repository as SQLite for several worker processes
sharing one database (``DATABASE_URL=postgresql://...``).

:func:`open_postgres` opens a connection pool, checks the schema and applies the numbered
migrations of ``bot/storage/migrations_postgres/`` (the same numbers and meaning as the
SQLite ones) under an advisory lock, so workers starting together migrate once.

:class:`PostgresRepository` runs the SQLite repository's statements through this pool
(placeholders rewritten to ``$n``): one SQL text for both databases, so the two cannot
drift apart. Correctness with several workers rests on what SQLite relies on too: every
change of a table is one transaction with a compare-and-set on its version
(``UPDATE ... WHERE id = $n AND version = $m``), and an update key is inserted in the same
transaction (exactly-once delivery). Due work (AI moves, timers, next deals) is claimed
per table with a lease (:meth:`PostgresRepository.claim_due`, table ``due_leases``) so
one worker computes a step while the others skip the table; a dead worker's lease runs
out and another worker takes the table over. The compare-and-set stays the guard: a
step of a worker whose lease ran out meanwhile cannot commit over a newer version.
"""

from __future__ import annotations

import contextlib
import functools
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import asyncpg
from sqlparse import tokens as sql_tokens
from sqlparse.lexer import Lexer

from bot.service.errors import StorageUnavailable
from bot.service.model import Table
from bot.storage.database import DatabaseUnusable, migrations, statements
from bot.storage.repository import SqliteRepository

__all__ = ["CHANGES_CHANNEL", "PgDatabase", "PostgresRepository", "open_postgres"]

MIGRATION_LOCK = 0x52756D6D79  # "Rummy": the advisory lock that serialises migrations

CHANGES_CHANNEL = "rummy_table_changes"
"""The ``LISTEN``/``NOTIFY`` channel of committed table changes (payload ``id:version``;
:class:`bot.storage.feed.PostgresChangeFeed`)."""

Conn = asyncpg.Connection | asyncpg.pool.PoolConnectionProxy
"""A connection of the pool (a proxy) or one of its own."""


@functools.lru_cache(maxsize=1024)
def to_postgres(sql: str) -> str:
    """``sql`` (SQLite dialect) with its parameters as PostgreSQL's ``$n``: ``?`` and ``?N``.

    The text is read by sqlparse's SQL lexer, so a ``?`` inside a string literal
    (``'why?'``), a quoted identifier (``"a?"``) or a comment is left alone. The numbering
    is SQLite's: ``?N`` is parameter N, and a bare ``?`` is one more than the largest number
    given so far (``?, ?`` -> ``$1, $2``; ``?3, ?`` -> ``$3, $4``). Cached per SQL text:
    the repository runs the same few statements over and over. Raises ``ValueError`` for
    SQLite's named parameters (``:name``, ``$name``): the repository binds by position
    only. (``%s`` is no parameter in SQLite and stays as written.)
    """
    out: list[str] = []
    highest = 0
    before: int | None = None  # after a "?" token: the largest number before it
    lexer = Lexer.get_default_instance()  # type: ignore[no-untyped-call]  # not annotated
    for kind, value in lexer.get_tokens(sql):
        if before is not None and kind in sql_tokens.Number.Integer and value.isdigit():
            # the lexer reads "?3" as "?" and "3": the number numbers the "?"
            number = int(value)
            out[-1] = f"${number}"
            highest = max(before, number)
            before = None
            continue
        before = None
        if kind in sql_tokens.Name.Placeholder and value[0] in ":$":
            raise ValueError(f"named SQL parameter {value!r}: only ? and ?N are bound")
        if kind in sql_tokens.Name.Placeholder and value == "?":
            before = highest
            highest += 1
            out.append(f"${highest}")
        else:
            out.append(value)
    return "".join(out)


@dataclass
class PgDatabase:
    """An open pool (``pool``) on the database at ``url``; ``close()`` when done.
    ``held``: connections of their own that hold a role's advisory lock for the
    process's life (:meth:`PostgresRepository.hold_role`)."""

    pool: asyncpg.Pool
    url: str
    held: list[asyncpg.Connection] = field(default_factory=list)

    async def close(self) -> None:
        """Close the role connections (their locks go with them) and the pool."""
        for conn in self.held:
            with contextlib.suppress(Exception):
                await conn.close()
        self.held.clear()
        await self.pool.close()


async def open_postgres(url: str, *, min_size: int = 1, max_size: int = 10) -> PgDatabase:
    """Open a pool on ``url``, refuse a schema of a newer release and migrate. Raises
    :class:`bot.storage.database.DatabaseUnusable` when the server cannot be reached or
    the schema is newer than this release."""
    try:
        pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size,
                                         command_timeout=60)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise DatabaseUnusable(_safe(url), str(error) or type(error).__name__) from error
    assert pool is not None
    try:
        async with pool.acquire() as conn:
            await _migrate(conn)
    except BaseException as error:
        with contextlib.suppress(Exception):
            await pool.close()
        if isinstance(error, DatabaseUnusable):
            raise DatabaseUnusable(_safe(url), error.reason) from None
        raise
    return PgDatabase(pool, url)


def _safe(url: str) -> str:
    """``url`` without its password (for messages)."""
    return re.sub(r"//([^:/@]+):[^@]*@", r"//\1:***@", url)


async def schema_status(conn: Conn) -> tuple[int, int]:
    """(applied, known): the newest migration in the database and in this release."""
    known = max(number for number, _name, _sql in migrations("postgres"))
    exists = await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
    applied = await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") \
        if exists else 0
    return int(applied), known


async def _migrate(conn: Conn) -> None:
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        applied, known = await schema_status(conn)
        if applied > known:
            raise DatabaseUnusable("", f"migrated by a newer release (schema {applied}; "
                                       f"this release knows up to {known})")
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER "
                           "PRIMARY KEY, name TEXT NOT NULL, applied_at DOUBLE PRECISION)")
        done = {row[0] for row in await conn.fetch("SELECT version FROM schema_migrations")}
        for number, name, sql in migrations("postgres"):
            if number in done:
                continue
            async with conn.transaction():
                for statement in statements(sql):
                    await conn.execute(statement)
                await conn.execute("INSERT INTO schema_migrations VALUES ($1, $2, $3)",
                                   number, name, time.time())
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)


class _Result:
    """What the SQLite statements read from a cursor: ``rowcount`` and ``lastrowid``."""

    def __init__(self, rowcount: int, lastrowid: int | None = None) -> None:
        self.rowcount = rowcount
        self.lastrowid = lastrowid


def _count(status: str) -> int:
    """Rows touched, from asyncpg's status (``UPDATE 1``, ``INSERT 0 1``)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _Connection:
    """One transaction's connection with the cursor-like calls of the SQLite code."""

    def __init__(self, conn: Conn) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> _Result:
        text = to_postgres(sql)
        try:
            if text.lstrip().upper().startswith("INSERT INTO TABLES "):
                new_id = await self._conn.fetchval(text + " RETURNING id", *params)
                return _Result(1, int(new_id))
            return _Result(_count(await self._conn.execute(text, *params)))
        except asyncpg.IntegrityConstraintViolationError as error:
            raise sqlite3.IntegrityError(str(error)) from error

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            await self._conn.executemany(to_postgres(sql), [tuple(r) for r in rows])
        except asyncpg.IntegrityConstraintViolationError as error:
            raise sqlite3.IntegrityError(str(error)) from error


_TRANSIENT = (OSError, asyncpg.InterfaceError, asyncpg.CannotConnectNowError,
              asyncpg.TooManyConnectionsError, asyncpg.DiskFullError,
              asyncpg.ReadOnlySQLTransactionError)


class PostgresRepository(SqliteRepository):
    """:class:`bot.service.repository.Repository` on PostgreSQL (see the module
    docstring). The statements are the SQLite repository's; this class supplies the
    connection, the transactions and the placeholder dialect."""

    def __init__(self, db: PgDatabase, cache_size: int = 1024) -> None:
        self._db = db
        self._pool = db.pool
        self._init_shared(cache_size)

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Any]:
        try:
            async with self._pool.acquire() as conn, conn.transaction():
                yield _Connection(conn)
        except _TRANSIENT as error:
            raise StorageUnavailable() from error

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        try:
            return list(await self._pool.fetch(to_postgres(sql), *params))
        except _TRANSIENT as error:
            raise StorageUnavailable() from error

    async def execute_one(self, sql: str, params: Sequence[Any] = ()) -> None:
        """One write statement, committed on its own."""
        try:
            await self._pool.execute(to_postgres(sql), *params)
        except _TRANSIENT as error:
            raise StorageUnavailable() from error

    async def _announce(self, conn: Any, table: Table) -> None:
        """``NOTIFY`` the change feed's channel in the commit's transaction: PostgreSQL
        delivers it to every listening worker once (and only if) the commit succeeds."""
        await conn.execute("SELECT pg_notify(?, ?)",
                           (CHANGES_CHANNEL, f"{table.id}:{table.version}"))

    async def claim_due(self, table_id: int, owner: str, now: float, seconds: float) -> bool:
        """One statement: insert the lease, or take it over when it ran out (a dead
        worker's) or is already ``owner``'s; the row lock of the upsert makes two workers
        claiming at once see each other."""
        async with self._transaction() as conn:
            result = await conn.execute(
                "INSERT INTO due_leases (table_id, owner, until) VALUES (?, ?, ?) "
                "ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner, "
                "until = excluded.until WHERE due_leases.until < ? "
                "OR due_leases.owner = excluded.owner",
                (table_id, owner, now + seconds, now))
        return bool(result.rowcount)

    async def release_due(self, table_id: int, owner: str) -> None:
        async with self._transaction() as conn:
            await conn.execute("DELETE FROM due_leases WHERE table_id = ? AND owner = ?",
                               (table_id, owner))

    async def hold_role(self, role: str) -> bool:
        """A session advisory lock on a connection of its own, kept open while the process
        lives (a killed process's connection ends, and its lock with it)."""
        key = int.from_bytes(role.encode()[:8].ljust(8, b"\0"), "big", signed=True)
        try:
            conn = await asyncpg.connect(self._db.url)
        except _TRANSIENT as error:
            raise StorageUnavailable() from error
        if await conn.fetchval("SELECT pg_try_advisory_lock($1)", key):
            self._db.held.append(conn)
            return True
        await conn.close()
        return False
