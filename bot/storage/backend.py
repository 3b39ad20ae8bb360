"""The storage a bot process runs on, chosen by its settings: PostgreSQL when
``DATABASE_URL`` is set (several workers may share it), else the SQLite file
``DATABASE_PATH`` (the default: one process, nothing to install)."""

from __future__ import annotations

from typing import Any

from bot.service.clock import Clock, SystemClock
from bot.settings import Settings
from bot.storage.database import open_database
from bot.storage.postgres import DatabaseClock, PgDatabase, PostgresRepository, open_postgres
from bot.storage.repository import SqliteRepository

__all__ = ["open_storage", "storage_clock"]


async def open_storage(settings: Settings) -> tuple[Any, SqliteRepository]:
    """``(database, repository)`` for ``settings``; close the database when done. Raises
    :class:`bot.storage.database.DatabaseUnusable` when it cannot be opened."""
    if settings.database_url:
        pg = await open_postgres(settings.database_url)
        return pg, PostgresRepository(pg)
    db = await open_database(settings.database_path)
    return db, SqliteRepository(db)


def storage_clock(db: Any) -> Clock:
    """The clock the service reckons with on database ``db`` (as :func:`open_storage`
    returned it): PostgreSQL's server clock, shared by every worker
    (:class:`bot.storage.postgres.DatabaseClock`), or this machine's for a SQLite file."""
    if isinstance(db, PgDatabase):
        return DatabaseClock(db.pool)
    return SystemClock()
