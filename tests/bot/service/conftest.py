"""Fixtures for game-service tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from .support import Harness, make_harness


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    h = await make_harness(tmp_path / "rummy.sqlite3")
    yield h
    await h.db.close()
