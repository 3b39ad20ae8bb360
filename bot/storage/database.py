"""Opening the SQLite database: WAL mode, foreign keys, numbered migrations, and the checks
that turn an unusable file into one clear line (:class:`DatabaseUnusable`).

Migrations are the files ``bot/storage/migrations/NNNN_name.sql``, applied in
order inside one transaction each and recorded in ``schema_migrations``.

What is refused before anything runs on it: a directory; a path that is no regular file
(a FIFO would block the reader, a device or a socket is no database); a file that is not
a SQLite database, or whose pages are damaged (``PRAGMA quick_check``; SQLite's message
about damaged pages may itself carry bytes that are not UTF-8, which Python's sqlite3
raises as ``UnicodeDecodeError``); a schema migrated by a newer release; after migrating,
a schema whose tables lack a column this release uses (a table rewritten by hand or by
damage).
"""

from __future__ import annotations

import contextlib
import functools
import re
import sqlite3
import stat
import time
from collections.abc import Mapping
from importlib import resources
from pathlib import Path

import aiosqlite

from bot.i18n import N_, _

_MIGRATION = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class DatabaseUnusable(Exception):
    """The database at ``path`` cannot be used: ``reason`` says why in one line of English
    (not a database, damaged, a directory, no regular file, no permission, migrated by a
    newer release). Nothing stays open when this is raised.

    ``reason`` is either a text of SQLite or the system, kept as it is, or a message of
    this module (``template`` marked with ``N_``, its placeholders filled from ``values``):
    :meth:`localized` gives that one in the current language of :mod:`bot.i18n`."""

    def __init__(self, path: str, reason: str, **values: object) -> None:
        self.template = reason
        self.values = {key: " ".join(str(value).split()) for key, value in values.items()}
        reason = reason.format(**self.values) if values else reason
        reason = " ".join(reason.split())  # one line, whatever SQLite said
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason

    def at(self, path: str) -> DatabaseUnusable:
        """The same refusal naming ``path`` (the checks below raise it without one)."""
        return DatabaseUnusable(path, self.template, **self.values)

    def localized(self) -> str:
        """``reason`` in the current language (a text of SQLite or the system stays as it
        is: a msgid no catalogue has is returned unchanged)."""
        text = _(self.template)
        return " ".join((text.format(**self.values) if self.values else text).split())


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
        "migrations" if dialect == "sqlite" else "migrations_postgres"
    )
    found = []
    for entry in folder.iterdir():
        match = _MIGRATION.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    return sorted(found)


def latest_schema() -> int:
    """The highest migration number this release knows."""
    return max(number for number, _name, _sql in migrations())


def check_path(path: Path) -> None:
    """Refuse a path that cannot hold a SQLite database before anything opens it: a
    directory, or an existing path that is no regular file (a FIFO, a device, a socket).
    A missing file is fine (it is created). Raises :class:`DatabaseUnusable`."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return
    except OSError as error:
        raise DatabaseUnusable(str(path), error.strerror or str(error)) from error
    if stat.S_ISDIR(mode):
        raise DatabaseUnusable(str(path), N_("is a directory, not a database file"))
    if stat.S_ISFIFO(mode):
        raise DatabaseUnusable(str(path), N_("is a FIFO, not a database file"))
    if stat.S_ISSOCK(mode):
        raise DatabaseUnusable(str(path), N_("is a socket, not a database file"))
    if not stat.S_ISREG(mode):
        raise DatabaseUnusable(str(path), N_("is a device, not a database file"))


def damaged(path: str, error: BaseException) -> DatabaseUnusable:
    """The refusal of the database at ``path`` for what SQLite (or Python reading its
    message) raised while reading it: SQLite's own line, or, where that message is not
    even UTF-8 (Python raises ``UnicodeDecodeError`` for it), a line of ours."""
    if isinstance(error, UnicodeDecodeError):
        return DatabaseUnusable(path, N_("damaged (SQLite's message about it is not text)"))
    return DatabaseUnusable(path, " ".join(str(error).split()) or type(error).__name__)


async def open_database(path: str | Path) -> Database:
    """Open (or create) the database at ``path`` (``":memory:"`` allowed), check it and
    migrate it.

    Sets WAL journaling (readers never block the writer, a crash keeps every
    committed transaction) and ``synchronous=NORMAL``, which in WAL mode loses no
    committed transaction on a process crash. An existing file is checked with
    ``PRAGMA quick_check`` first. Raises :class:`DatabaseUnusable` (with the connection
    closed again, so nothing keeps the process alive) for what the module docstring
    lists: a directory or no regular file, a file that is not a SQLite database or is
    damaged, one that cannot be created or written, a schema migrated by a newer release
    than this one, or lacking a column this release uses.
    """
    text = str(path)
    if text != ":memory:":
        target = Path(text)
        check_path(target)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise DatabaseUnusable(text, error.strerror or str(error)) from error
    try:
        conn = await aiosqlite.connect(text, isolation_level=None)
    except (sqlite3.Error, OSError, UnicodeDecodeError) as error:
        raise damaged(text, error) from error
    try:
        conn.row_factory = aiosqlite.Row
        await _check(conn)
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA synchronous=NORMAL")
        await conn.execute("PRAGMA foreign_keys=ON")
        await conn.execute("PRAGMA busy_timeout=5000")
        await _migrate(conn)
        await _check_columns(conn)
    except BaseException as error:
        with contextlib.suppress(Exception):
            await conn.close()
        if isinstance(error, DatabaseUnusable):
            raise error.at(text) from None
        if isinstance(error, sqlite3.Error | OSError | UnicodeDecodeError):
            raise damaged(text, error) from error
        raise
    return Database(conn, text)


async def _check(conn: aiosqlite.Connection) -> None:
    """``quick_check`` (a damaged or foreign file fails here) and the schema version."""
    async with conn.execute("PRAGMA quick_check") as cursor:
        rows = [row[0] async for row in cursor]
    if rows != ["ok"]:
        found = " ".join(" ".join(str(r) for r in rows[:3]).split())
        raise DatabaseUnusable("", N_("damaged (quick_check: {found})"), found=found[:200])
    async with conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
    ) as cursor:
        known = await cursor.fetchone() is not None
    if not known:
        return
    async with conn.execute("SELECT MAX(version) FROM schema_migrations") as cursor:
        row = await cursor.fetchone()
    newest = row[0] if row is not None and row[0] is not None else 0
    schema_version_usable(newest)


def schema_version_usable(newest: object) -> int:
    """``newest`` (the largest ``schema_migrations.version``, ``None`` for none) as the
    schema version, if this release can use it. Raises :class:`DatabaseUnusable` (without
    a path) for a version that is no number (damage) or one of a newer release."""
    if newest is None:
        return 0
    if not isinstance(newest, int) or isinstance(newest, bool):
        raise DatabaseUnusable(
            "", N_("damaged (schema version {version})"), version=repr(newest)[:20]
        )
    if newest > latest_schema():
        raise DatabaseUnusable(
            "",
            N_("migrated by a newer release (schema {schema}; this release knows up to {known})"),
            schema=newest,
            known=latest_schema(),
        )
    return newest


def inspect_file(path: Path) -> int:
    """The schema version of the SQLite database at ``path`` without changing anything
    (0: no file, or no migration yet), after the checks :func:`open_database` makes
    before it migrates: :func:`check_path`, ``PRAGMA quick_check``, a schema this release
    can use and, at this release's schema, every column it uses. The file is opened
    read-only, never created. Raises :class:`DatabaseUnusable` naming ``path``."""
    check_path(path)  # a FIFO would block the read-only open below for ever
    if not path.exists():
        return 0
    where = str(path)
    try:
        with contextlib.closing(
            sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        ) as lite:
            _quick_check(lite, where)
            return _usable_schema(lite)
    except DatabaseUnusable as error:
        raise error.at(where) from None
    except (sqlite3.Error, UnicodeDecodeError) as error:  # no database, damaged, no access
        raise damaged(where, error) from error


def _quick_check(lite: sqlite3.Connection, where: str) -> None:
    """``PRAGMA quick_check`` of the open database; raises :class:`DatabaseUnusable`
    (naming ``where``) with its first findings when it is damaged."""
    rows = [row[0] for row in lite.execute("PRAGMA quick_check")]
    if rows != ["ok"]:
        found = " ".join(" ".join(str(r) for r in rows[:3]).split())
        raise DatabaseUnusable(where, N_("damaged (quick_check: {found})"), found=found[:200])


def _usable_schema(lite: sqlite3.Connection) -> int:
    """The schema version of the open database (0: no migration yet); raises
    :class:`DatabaseUnusable` for a schema this release cannot use or, at this release's
    schema, a column it uses missing."""
    known = lite.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
    ).fetchone()
    if known is None:
        return 0
    row = lite.execute("SELECT MAX(version) FROM schema_migrations").fetchone()
    version = schema_version_usable(row[0])
    if version == latest_schema():
        for table, columns in expected_columns().items():
            found_columns = {info[1] for info in lite.execute(f'PRAGMA table_info("{table}")')}
            _columns_present(table, columns, found_columns)
    return version


@functools.cache
def expected_columns() -> Mapping[str, frozenset[str]]:
    """Table -> the columns the migrations of this release create (read once from an
    in-memory database migrated like a real one)."""
    with contextlib.closing(sqlite3.connect(":memory:")) as memory:
        for _number, _name, sql in migrations():
            for statement in statements(sql):
                memory.execute(statement)
        tables = [
            row[0] for row in memory.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        ]
        return {
            table: frozenset(row[1] for row in memory.execute(f'PRAGMA table_info("{table}")'))
            for table in tables
        }


async def _check_columns(conn: aiosqlite.Connection) -> None:
    """Every table and column this release uses is there (a table rewritten by hand or a
    damaged schema would fail every statement later, with a traceback)."""
    for table, columns in expected_columns().items():
        async with conn.execute(f'PRAGMA table_info("{table}")') as cursor:
            found = {row[1] async for row in cursor}
        _columns_present(table, columns, found)


def _columns_present(table: str, columns: frozenset[str], found: set[str]) -> None:
    if not found:
        raise DatabaseUnusable("", N_("damaged (the table {table} is missing)"), table=table)
    missing = sorted(columns - found)
    if missing:
        raise DatabaseUnusable(
            "",
            N_("damaged (the table {table} lacks the column {columns})"),
            table=table,
            columns=", ".join(missing),
        )


async def _migrate(conn: aiosqlite.Connection) -> None:
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations "
        "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL)"
    )
    async with conn.execute("SELECT version FROM schema_migrations") as cursor:
        done = {row[0] async for row in cursor}
    for number, name, sql in migrations():
        if number in done:
            continue
        await conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in statements(sql):
                await conn.execute(statement)
            await conn.execute(
                "INSERT INTO schema_migrations VALUES (?, ?, ?)", (number, name, time.time())
            )
            await conn.execute("COMMIT")
        except BaseException:
            await conn.execute("ROLLBACK")
            raise


def statements(sql: str) -> list[str]:
    """Split a migration into statements (no semicolons inside our SQL literals)."""
    lines = [line.split("--", 1)[0] for line in sql.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
