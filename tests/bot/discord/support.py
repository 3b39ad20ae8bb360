"""Support for the Discord adapter tests: the fake Discord, a game service on SQLite,
the adapter connected to both, and helpers to play as Discord users."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.discord_bot import DiscordAdapter
from bot.ports.model import ChatKey, TableSettings
from bot.service.clock import ManualClock
from bot.service.flow import FlowControl
from bot.service.service import GameService
from bot.settings import Settings
from tests.bot.backends import open_backend
from tests.fakes.discord import (
    FakeChannel,
    FakeDiscord,
    FakeInteraction,
    FakeMessage,
    FakeUser,
    point_discord_py_at,
    running_fake_discord,
)

TIMEOUT = 5.0
DEFAULTS = TableSettings(timer="off", ai_delay=1.0, next_deal_delay=2.0)


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextlib.contextmanager
def complaints(*names: str) -> Iterator[list[logging.LogRecord]]:
    """Warnings and errors logged by discord.py, the adapter and the service."""
    handler = _Collect()
    loggers = [logging.getLogger(n) for n in names]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler.records
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


@dataclass
class Bot:
    """One running set-up: the fake Discord, the service and the connected adapter."""

    server: FakeDiscord
    service: GameService
    clock: ManualClock
    adapter: DiscordAdapter
    db: Any
    path: Path

    @property
    def world(self) -> Any:
        assert self.server.default is not None
        return self.server.default

    def key(self, channel: FakeChannel) -> ChatKey:
        return ChatKey("discord", str(channel.id))

    async def restart(self) -> None:
        """Stop the adapter and start a new one on the same database (a bot restart)."""
        old = self.adapter
        await old.stop()
        self.adapter = new_adapter(self.server, self.path)
        if self.service.notifiers.get("discord") is old.notifier:
            self.service.notifiers["discord"] = self.adapter.notifier
        await asyncio.wait_for(self.adapter.start(self.service), TIMEOUT)

    # --- acting as users ----------------------------------------------------------------

    async def slash(self, user: FakeUser, channel: FakeChannel, subcommand: str,
                    options: dict[str, Any] | None = None) -> FakeInteraction:
        interaction = await self.server.slash(user, channel, "rummy", options or {},
                                              subcommand=subcommand)
        await interaction.wait_response(TIMEOUT)
        await self.settled(interaction)
        return interaction

    async def click(self, user: FakeUser, message: FakeMessage, custom_id: str
                    ) -> FakeInteraction:
        interaction = await self.server.click(user, message, custom_id)
        await interaction.wait_response(TIMEOUT)
        await self.settled(interaction)
        return interaction

    async def select(self, user: FakeUser, message: FakeMessage, custom_id: str,
                     values: list[str]) -> FakeInteraction:
        interaction = await self.server.select(user, message, custom_id, values)
        await interaction.wait_response(TIMEOUT)
        await self.settled(interaction)
        return interaction

    async def settled(self, interaction: FakeInteraction) -> None:
        """Wait until the bot finished handling ``interaction`` (placeholder filled, the
        adapter idle)."""
        original = interaction.original
        if original is not None and original.loading:
            await self.server.wait_until(lambda: not original.loading, TIMEOUT)
        await self.idle()

    async def idle(self) -> None:
        """Let every running handler of the client finish."""
        for _ in range(3):
            await asyncio.sleep(0)
        client = self.adapter.client
        assert client is not None
        store = client._connection._view_store
        tasks = [t for t in getattr(store, "_ViewStore__tasks", set()) if not t.done()]
        if tasks:
            await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), TIMEOUT)
        await asyncio.sleep(0)

    async def tick(self) -> int:
        """Move the clock to the next automatic step and run it (AI move, next deal)."""
        self.clock.advance(max(DEFAULTS.ai_delay, DEFAULTS.next_deal_delay))
        ran = await self.service.tick()
        await self.idle()
        return ran

    # --- looking ------------------------------------------------------------------------

    def table_message(self, channel: FakeChannel) -> FakeMessage:
        """The bot's public message with the table buttons (the newest one)."""
        found = [m for m in self.server.channel_messages(channel)
                 if any(c.startswith("rm:") and ":hand:" not in c for c in m.custom_ids())
                 or m.content.startswith("**")]
        assert found, "no table message"
        return found[0]


def new_adapter(server: FakeDiscord, path: Path, **options: Any) -> DiscordAdapter:
    settings = Settings(discord_token=server.token, database_path=path)
    return DiscordAdapter(settings, guild_ready_timeout=0.05, **options)


@contextlib.asynccontextmanager
async def running_bot(tmp_path: Path, *, database_url: str | None = None,
                      **options: Any) -> AsyncIterator[Bot]:
    """The fake Discord with its default cast, a game service on a SQLite file in
    ``tmp_path`` (or on the PostgreSQL database ``database_url``) and the adapter connected
    and synced."""
    path = tmp_path / "rummy.sqlite3"
    async with running_fake_discord() as server:
        with point_discord_py_at(server):
            db, repo = await open_backend(path, database_url)
            clock = ManualClock()
            counter = iter(range(1000, 10**9))
            service = GameService(repo, {}, clock, DEFAULTS,
                                  seed_source=lambda: next(counter))
            service.flow = FlowControl(user_rate=(10_000, 1.0), chat_rate=(10_000, 1.0))
            adapter = new_adapter(server, path, **options)
            service.notifiers["discord"] = adapter.notifier
            await asyncio.wait_for(adapter.start(service), TIMEOUT)
            bot = Bot(server, service, clock, adapter, db, path)
            try:
                yield bot
            finally:
                await asyncio.wait_for(bot.adapter.stop(), TIMEOUT)
                await db.close()
