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
and loaded in one statement (:meth:`PostgresRepository.claim_due`, table ``due_leases``)
so one worker computes a step while the others skip the table; a dead worker's lease runs
out and another worker takes the table over. The compare-and-set stays the guard: a
step of a worker whose lease ran out meanwhile cannot commit over a newer version.

**Bounded waits.** Every connection of the pool has a ``lock_timeout``
(:data:`LOCK_TIMEOUT`), a ``statement_timeout`` (:data:`STATEMENT_TIMEOUT`) and an
``idle_in_transaction_session_timeout`` (:data:`IDLE_IN_TRANSACTION_TIMEOUT`): a worker
stopped (``SIGSTOP``, a frozen VM) inside a transaction loses its session after that
long and its row locks with it, and no statement of another worker waits longer than
the lock timeout for them (it fails with :class:`bot.service.errors.TableLocked`, which
a person is asked to try again for and the scheduler backs off for that table only).
Due work is claimed with ``FOR UPDATE SKIP LOCKED``: no claim waits for a row at all.
Connections go back to the pool without asyncpg's ``RESET ALL`` round trip (nothing here
changes a session's settings, listens or holds an advisory lock on a pool connection).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Collection, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import asyncpg
from sqlparse import tokens as sql_tokens
from sqlparse.lexer import Lexer

from bot.i18n import N_
from bot.service.errors import StorageUnavailable, TableLocked
from bot.service.model import Table
from bot.service.repository import DueClaim
from bot.storage.database import DatabaseUnusable, migrations, statements
from bot.storage.repository import Reader, SqliteRepository
from bot.storage.roles import PgRoleLock, take_role

log = logging.getLogger(__name__)

__all__ = ["CHANGES_CHANNEL", "DatabaseClock", "PgDatabase", "PostgresRepository", "open_postgres"]

MIGRATION_LOCK = 0x52756D6D79  # "Rummy": the advisory lock that serialises migrations

CHANGES_CHANNEL = "rummy_table_changes"
"""The ``LISTEN``/``NOTIFY`` channel of committed table changes (payload ``id:version``;
:class:`bot.storage.feed.PostgresChangeFeed`)."""

Conn = asyncpg.Connection | asyncpg.pool.PoolConnectionProxy
"""A connection of the pool (a proxy) or one of its own."""

LOCK_TIMEOUT = 2.0
"""Seconds a statement waits for a row or table lock before it fails
(``lock_timeout``): far longer than any transaction of a live worker holds one."""

STATEMENT_TIMEOUT = 15.0
"""Seconds one statement may run (``statement_timeout``); migrations and ``import-db``
lift it for their own transaction."""

IDLE_IN_TRANSACTION_TIMEOUT = 10.0
"""Seconds a session may sit inside an open transaction without sending anything
(``idle_in_transaction_session_timeout``): the server then ends it and frees its locks.
A live worker sends the next statement of a transaction within milliseconds."""

COMMAND_TIMEOUT = STATEMENT_TIMEOUT + 5.0
"""asyncpg's own limit per call (seconds): a server that stopped answering at all."""


def session_settings(application_name: str = "rummy-bot") -> dict[str, str]:
    """The settings every connection of the pool starts with (milliseconds as text):
    the three timeouts above and ``application_name`` (shown in ``pg_stat_activity``)."""
    return {
        "lock_timeout": str(int(LOCK_TIMEOUT * 1000)),
        "statement_timeout": str(int(STATEMENT_TIMEOUT * 1000)),
        "idle_in_transaction_session_timeout": str(int(IDLE_IN_TRANSACTION_TIMEOUT * 1000)),
        "application_name": application_name[:63],
    }


async def _keep_session(conn: asyncpg.Connection) -> None:
    """The pool's reset: nothing (asyncpg rolls back an open transaction itself). The
    default sends ``SELECT pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL``,
    one round trip per release, for session state this repository never creates."""
    del conn


class DatabaseClock:
    """The database server's clock as a :class:`bot.service.clock.Clock`, so every worker
    on one PostgreSQL reckons due times, deadlines and leases with one clock: ``now()`` is
    this process's monotonic clock plus an offset measured by :meth:`sync` (``SELECT
    clock_timestamp()``, taken halfway through the round trip). A step of this machine's
    own wall clock changes nothing; a step of the server's clock shows at the next
    :meth:`sync` (the scheduler's timeline keeper compensates it once). Before the first
    sync it is the local wall clock."""

    SYNC_EVERY = 5.0
    """Seconds (monotonic) before :meth:`sync` measures again; sooner calls return."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool
        self._offset = time.time() - time.monotonic()
        self._synced: float | None = None

    def now(self) -> float:
        """The server's Unix time in seconds, as of the last :meth:`sync`."""
        return time.monotonic() + self._offset

    def monotonic(self) -> float:
        """``time.monotonic()``."""
        return time.monotonic()

    async def sync(self, force: bool = False) -> None:
        """Measure the server's clock again (one round trip), unless it was measured less
        than :attr:`SYNC_EVERY` seconds ago and ``force`` is false. Raises
        :class:`bot.service.errors.StorageUnavailable` when the server cannot answer."""
        began = time.monotonic()
        if not force and self._synced is not None and began - self._synced < self.SYNC_EVERY:
            return
        try:
            server = await self._pool.fetchval(
                "SELECT extract(epoch FROM clock_timestamp())::float8"
            )
        except Exception as error:
            fault = storage_fault(error)
            if fault is None:
                raise
            raise fault from error
        self._synced = time.monotonic()
        self._offset = float(server) - (began + self._synced) / 2


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
    ``held``: the roles taken through it (:meth:`PostgresRepository.take_role`), each on
    a connection of its own; ``application_name``: how its sessions are named."""

    pool: asyncpg.Pool
    url: str
    held: list[PgRoleLock] = field(default_factory=list)
    application_name: str = "rummy-bot"

    async def close(self) -> None:
        """Release the roles (their locks go with their connections) and close the pool."""
        for role in self.held:
            with contextlib.suppress(Exception):
                await role.release()
        self.held.clear()
        await self.pool.close()


async def open_postgres(
    url: str, *, min_size: int = 1, max_size: int = 10, application_name: str = "rummy-bot"
) -> PgDatabase:
    """Open a pool on ``url`` (connections with :func:`session_settings`), refuse a schema
    of a newer release and migrate. Raises :class:`bot.storage.database.DatabaseUnusable`
    when the server cannot be reached or the schema is newer than this release."""
    try:
        pool = await asyncpg.create_pool(
            url,
            min_size=min_size,
            max_size=max_size,
            command_timeout=COMMAND_TIMEOUT,
            server_settings=session_settings(application_name),
            reset=_keep_session,
        )
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
            raise error.at(_safe(url)) from None
        raise
    return PgDatabase(pool, url, application_name=application_name)


def _safe(url: str) -> str:
    """``url`` without its password (for messages)."""
    return re.sub(r"//([^:/@]+):[^@]*@", r"//\1:***@", url)


async def schema_status(conn: Conn) -> tuple[int, int]:
    """(applied, known): the newest migration in the database and in this release."""
    known = max(number for number, _name, _sql in migrations("postgres"))
    exists = await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
    applied = (
        await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        if exists
        else 0
    )
    return int(applied), known


async def _migrate(conn: Conn) -> None:
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        applied, known = await schema_status(conn)
        if applied > known:
            raise DatabaseUnusable(
                "",
                N_(
                    "migrated by a newer release (schema {schema}; "
                    "this release knows up to {known})"
                ),
                schema=applied,
                known=known,
            )
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER "
            "PRIMARY KEY, name TEXT NOT NULL, applied_at DOUBLE PRECISION)"
        )
        done = {row[0] for row in await conn.fetch("SELECT version FROM schema_migrations")}
        for number, name, sql in migrations("postgres"):
            if number in done:
                continue
            async with conn.transaction():
                await conn.execute("SET LOCAL statement_timeout = 0")
                for statement in statements(sql):
                    await conn.execute(statement)
                await conn.execute(
                    "INSERT INTO schema_migrations VALUES ($1, $2, $3)", number, name, time.time()
                )
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

    async def execute_fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """The rows of a query in this transaction (aiosqlite's name for it)."""
        return list(await self._conn.fetch(to_postgres(sql), *params))


_TRANSIENT = (
    OSError,
    asyncpg.InterfaceError,
    asyncpg.CannotConnectNowError,
    asyncpg.TooManyConnectionsError,
    asyncpg.DiskFullError,
    asyncpg.ReadOnlySQLTransactionError,
    asyncpg.PostgresConnectionError,
    asyncpg.IdleInTransactionSessionTimeoutError,
    asyncpg.OperatorInterventionError,
    TimeoutError,
)
"""Errors that say the database cannot serve now (unreachable, full, the session ended)."""

_BUSY = (
    asyncpg.LockNotAvailableError,
    asyncpg.QueryCanceledError,
    asyncpg.TransactionRollbackError,
)
"""Errors that say a row was busy: a lock not granted in :data:`LOCK_TIMEOUT`, a
statement over :data:`STATEMENT_TIMEOUT`, a deadlock or serialization failure."""


def storage_fault(error: BaseException) -> Exception | None:
    """The service's error for an asyncpg ``error`` (logged once here), or ``None`` when
    it is none of the storage's transient faults: :class:`TableLocked` for a busy row,
    :class:`StorageUnavailable` for a database that cannot serve now."""
    if isinstance(error, _BUSY):
        log.warning("database busy: %s: %s", type(error).__name__, error)
        return TableLocked()
    if isinstance(error, _TRANSIENT):
        log.error("database unavailable: %s: %s", type(error).__name__, error)
        return StorageUnavailable()
    return None


_CLAIM = """
WITH due AS (
    SELECT t.* FROM tables t
    WHERE t.status IN ('lobby', 'playing') AND t.due_at <= ?1
      AND NOT (t.id = ANY(?5::bigint[]))
      AND NOT EXISTS (SELECT 1 FROM table_faults f WHERE f.table_id = t.id
                      AND (f.kind = 'quarantined' OR f.retry_at > ?1))
      AND NOT EXISTS (SELECT 1 FROM due_leases l WHERE l.table_id = t.id
                      AND l.owner <> ?2 AND l.until > ?1 AND l.version = t.version)
    ORDER BY t.due_at LIMIT ?4
    FOR UPDATE OF t SKIP LOCKED
), claimed AS (
    INSERT INTO due_leases (table_id, owner, until, version)
    SELECT id, ?2, ?1 + ?3, version FROM due
    ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner, until = excluded.until,
        version = excluded.version
    WHERE due_leases.owner = excluded.owner OR due_leases.until <= ?1
        OR due_leases.version <> excluded.version
    RETURNING table_id
)
SELECT due.* FROM due JOIN claimed ON claimed.table_id = due.id ORDER BY due.due_at
"""
"""The claim of :meth:`PostgresRepository.claim_due` (parameters: now, owner, seconds,
limit, excluded ids)."""


class PostgresRepository(SqliteRepository):
    """:class:`bot.service.repository.Repository` on PostgreSQL (see the module
    docstring). The statements are the SQLite repository's; this class supplies the
    connection, the transactions and the placeholder dialect."""

    single_process = False  # several workers share the database

    def __init__(self, db: PgDatabase, cache_size: int = 1024) -> None:
        self._db = db
        self._pool = db.pool
        self._init_shared(cache_size)

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Any]:
        try:
            async with self._pool.acquire() as conn, conn.transaction():
                yield _Connection(conn)
        except Exception as error:
            fault = storage_fault(error)
            if fault is None:
                raise
            raise fault from error

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        try:
            return list(await self._pool.fetch(to_postgres(sql), *params))
        except Exception as error:
            fault = storage_fault(error)
            if fault is None:
                raise
            raise fault from error

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Reader]:
        """One ``REPEATABLE READ READ ONLY`` transaction on a connection of the pool:
        every query through the yielded reader sees one snapshot of the database, whatever
        the workers commit meanwhile (``export-db`` while the bot runs). The statement
        time limit is lifted for it (a large export). Raises :class:`StorageUnavailable`
        when the database cannot serve."""
        try:
            async with (
                self._pool.acquire() as conn,
                conn.transaction(isolation="repeatable_read", readonly=True),
            ):
                await conn.execute("SET LOCAL statement_timeout = 0")

                async def read(sql: str, params: Sequence[Any] = ()) -> list[Any]:
                    return list(await conn.fetch(to_postgres(sql), *params))

                yield read
        except Exception as error:
            fault = storage_fault(error)
            if fault is None:
                raise
            raise fault from error

    async def execute_one(self, sql: str, params: Sequence[Any] = ()) -> None:
        """One write statement, committed on its own."""
        try:
            await self._pool.execute(to_postgres(sql), *params)
        except Exception as error:
            fault = storage_fault(error)
            if fault is None:
                raise
            raise fault from error

    async def _announce(self, conn: Any, table: Table) -> None:
        """``NOTIFY`` the change feed's channel in the commit's transaction: PostgreSQL
        delivers it to every listening worker once (and only if) the commit succeeds."""
        await conn.execute(
            "SELECT pg_notify(?, ?)", (CHANGES_CHANNEL, f"{table.id}:{table.version}")
        )

    async def claim_due(
        self, owner: str, now: float, seconds: float, limit: int, exclude: Collection[int] = ()
    ) -> list[DueClaim]:
        """One statement: lock up to ``limit`` due rows nobody else has locked (``FOR
        UPDATE OF t SKIP LOCKED``), lease them to ``owner`` for their version (a lease of
        another worker for the same version that has not run out keeps the table out;
        the upsert decides between two workers whose snapshots both saw no lease) and
        return the rows: claim and load are one round trip."""
        rows = await self._all(
            _CLAIM, (now, owner, seconds, limit, sorted({int(t) for t in exclude}))
        )
        return [self._claimed(row) for row in rows]

    async def take_role(self, role: str) -> PgRoleLock | None:
        """The role's session advisory lock on a connection of its own, watched
        (:mod:`bot.storage.roles`); ``None`` when another live session holds it."""
        self._db.held = [held for held in self._db.held if held.held]
        try:
            taken = await take_role(
                self._db.url, role, session_settings(f"{self._db.application_name} {role}")
            )
        except Exception as error:
            fault = storage_fault(error)
            if fault is None:
                raise
            raise fault from error
        if taken is not None:
            self._db.held.append(taken)
        return taken
