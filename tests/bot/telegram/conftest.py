"""Fixtures for the Telegram adapter tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.telegram.support import Bot, running_bot


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[Bot]:
    """The adapter long-polling a fake Telegram, with a service on a SQLite file."""
    async with running_bot(tmp_path / "rummy.sqlite3") as running:
        yield running
