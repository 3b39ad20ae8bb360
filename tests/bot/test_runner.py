"""``rummy-bot run``: adapters started around the service, clean stop on SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

from bot.runner import configured_platforms, run_bot
from bot.service.model import ChatKey, Status, UserRef
from bot.service.service import GameService
from bot.settings import Settings

from .service.support import RecordingNotifier


class FakeAdapter:
    """A platform stand-in: opens a table when started, records stop."""

    platform = "test"

    def __init__(self) -> None:
        self.events: list[str] = []
        self.service: GameService | None = None
        self._notifier = RecordingNotifier()

    @property
    def notifier(self) -> RecordingNotifier:
        return self._notifier

    async def start(self, service: GameService) -> None:
        self.service = service
        await service.new_table(ChatKey("test", "1"), UserRef("test", "9", "zoe"))
        self.events.append("started")

    async def stop(self) -> None:
        self.events.append("stopped")


def test_configured_platforms() -> None:
    assert configured_platforms(Settings()) == []
    both = Settings(telegram_token="1:a", discord_token="x.y.z")
    assert configured_platforms(both) == ["telegram", "discord"]


async def test_sigterm_stops_the_bot_and_keeps_what_was_committed(tmp_path: Path) -> None:
    settings = Settings(database_path=tmp_path / "bot.sqlite3")
    adapter = FakeAdapter()
    task = asyncio.create_task(run_bot(settings, adapters=[adapter]))
    try:
        for _ in range(200):
            if adapter.events:
                break
            await asyncio.sleep(0.01)
        assert adapter.events == ["started"]
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.wait_for(task, 5)
    finally:  # a failed check must not leave the runner (and its database thread) behind
        if not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
    assert adapter.events == ["started", "stopped"]
    assert adapter.notifier.public, "the adapter's notifier was wired to the service"
    from bot.storage import open_database
    from bot.storage.repository import SqliteRepository

    db = await open_database(settings.database_path)
    table = await SqliteRepository(db).active_table(ChatKey("test", "1"))
    await db.close()
    assert table is not None and table.status is Status.LOBBY
