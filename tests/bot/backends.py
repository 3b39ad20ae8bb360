"""The two storage backends for adapter tests: a SQLite file, or a PostgreSQL database of its
own on the test session's server (the ``pg_server`` fixture)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.storage import open_database
from bot.storage.postgres import PostgresRepository, open_postgres
from bot.storage.repository import SqliteRepository

BACKENDS = ["sqlite", "postgres"]


def database_url(request: pytest.FixtureRequest, backend: str) -> str | None:
    """``None`` for SQLite, else the URL of a new database on the session's server."""
    if backend == "sqlite":
        return None
    return str(request.getfixturevalue("pg_server").create())


async def open_backend(path: Path, url: str | None) -> tuple[Any, SqliteRepository]:
    """``(database, repository)`` on the SQLite file ``path`` or, with ``url``, on
    PostgreSQL; close the database when done."""
    if url is None:
        db = await open_database(path)
        return db, SqliteRepository(db)
    pg = await open_postgres(url)
    return pg, PostgresRepository(pg)
