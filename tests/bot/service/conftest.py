"""Fixtures for game-service tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from .support import Harness, make_harness


@pytest.fixture(params=["sqlite", "postgres"])
async def harness(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Harness]:
    """The service on each storage backend: SQLite (the default) and PostgreSQL (a
    database of its own on the session's server; skipped, saying why, without one)."""
    url = None
    if request.param == "postgres":
        url = request.getfixturevalue("pg_server").create()
    h = await make_harness(tmp_path / "rummy.sqlite3", url=url)
    yield h
    await h.db.close()


@pytest.fixture
async def sqlite_harness(tmp_path: Path) -> AsyncIterator[Harness]:
    """The service on SQLite only, for what only SQLite has (its file lock)."""
    h = await make_harness(tmp_path / "rummy.sqlite3")
    yield h
    await h.db.close()
