"""Support for the Discord adapter tests: the fake Discord, a game service on SQLite (or
PostgreSQL), the adapter connected to the fake Discord and to the service's entry point,
and helpers to play as Discord users."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bot.discord_bot import DiscordAdapter
from bot.ports.entry import Entry
from bot.ports.intents import InChat, Intent, Move, Outcome
from bot.ports.model import ChatKey, TableSettings, UserRef
from bot.ports.web_links import WebLinks
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
    web: WebLinks | None = None

    @property
    def world(self) -> Any:
        assert self.server.default is not None
        return self.server.default

    @property
    def entry(self) -> Entry:
        """The service's entry point (what the adapter is started on)."""
        return self.service.entry

    async def start_adapter(self) -> None:
        """Start ``self.adapter`` with the service's host (entry point, Discord message
        store), as the runner does."""
        host = replace(self.service.host(), web=self.web)
        await asyncio.wait_for(self.adapter.start(host), TIMEOUT)

    def seed(self, seed: int) -> None:
        """Every new game from now on is dealt with ``seed``."""
        self.service.lobby._seed = lambda: seed

    async def act(self, user: UserRef, channel_key: ChatKey, line: str) -> Outcome:
        """``user`` makes the move ``line`` at the channel's table through the entry point
        (as another front end would; no Discord interaction); a refusal raises."""
        outcome = await self.entry.handle(
            Intent(Move(tuple(line.split())), user, InChat(channel_key))
        )
        if outcome.error is not None:
            raise outcome.error
        await self.idle()
        return outcome

    def key(self, channel: FakeChannel) -> ChatKey:
        return ChatKey("discord", str(channel.id))

    async def restart(self) -> None:
        """Stop the adapter and start a new one on the same database (a bot restart)."""
        old = self.adapter
        await old.stop()
        self.adapter = new_adapter(self.server, self.path)
        if self.service.notifiers.get("discord") is old.notifier:
            self.service.notifiers["discord"] = self.adapter.notifier
        await self.start_adapter()

    # --- acting as users ----------------------------------------------------------------

    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        subcommand: str,
        options: dict[str, Any] | None = None,
    ) -> FakeInteraction:
        interaction = await self.server.slash(
            user, channel, "rummy", options or {}, subcommand=subcommand
        )
        await interaction.wait_response(TIMEOUT)
        await self.settled(interaction)
        return interaction

    async def click(self, user: FakeUser, message: FakeMessage, custom_id: str) -> FakeInteraction:
        interaction = await self.server.click(user, message, custom_id)
        await interaction.wait_response(TIMEOUT)
        await self.settled(interaction)
        return interaction

    async def select(
        self, user: FakeUser, message: FakeMessage, custom_id: str, values: list[str]
    ) -> FakeInteraction:
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
        """Let every running handler of the client finish: component callbacks (the view
        store's tasks), slash commands (discord.py's ``CommandTree-invoker`` tasks) and
        ``on_interaction`` events. A handler answers the presser before the service
        publishes the change, so this also waits for the other messages to be drawn."""
        client = self.adapter.client
        assert client is not None
        store = client._connection._view_store
        for _ in range(50):
            for _ in range(3):
                await asyncio.sleep(0)
            tasks = {t for t in getattr(store, "_ViewStore__tasks", set()) if not t.done()}
            tasks |= {
                t
                for t in asyncio.all_tasks()
                if not t.done()
                and (
                    t.get_name() == "CommandTree-invoker"
                    or t.get_name().startswith("discord.py: on_interaction")
                )
            }
            if not tasks:
                return
            await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), TIMEOUT)
        raise AssertionError("the adapter's handlers did not come to rest")

    async def tick(self) -> int:
        """Move the clock to the next automatic step and run it (AI move, next deal)."""
        self.clock.advance(max(DEFAULTS.ai_delay, DEFAULTS.next_deal_delay))
        ran = await self.service.tick()
        await self.idle()
        return ran

    # --- looking ------------------------------------------------------------------------

    def table_message(self, channel: FakeChannel) -> FakeMessage:
        """The bot's public message with the table buttons (the newest one)."""
        found = [
            m
            for m in self.server.channel_messages(channel)
            if any(c.startswith("rm:") and ":hand:" not in c for c in m.custom_ids())
            or m.content.startswith("**")
        ]
        assert found, "no table message"
        return found[0]


def new_adapter(server: FakeDiscord, path: Path, **options: Any) -> DiscordAdapter:
    settings = Settings(discord_token=server.token, database_path=path)
    return DiscordAdapter(settings, guild_ready_timeout=0.05, **options)


@contextlib.asynccontextmanager
async def running_bot(
    tmp_path: Path,
    *,
    database_url: str | None = None,
    web: WebLinks | None = None,
    **options: Any,
) -> AsyncIterator[Bot]:
    """The fake Discord with its default cast, a game service on a SQLite file in
    ``tmp_path`` (or on the PostgreSQL database ``database_url``) and the adapter connected
    and synced; ``web``: where the web table is (with a Discord sign-in: the Activity)."""
    path = tmp_path / "rummy.sqlite3"
    async with running_fake_discord() as server:
        with point_discord_py_at(server):
            db, repo = await open_backend(path, database_url)
            clock = ManualClock()
            counter = iter(range(1000, 10**9))
            service = GameService(repo, {}, clock, DEFAULTS, seed_source=lambda: next(counter))
            service.flow = FlowControl(user_rate=(10_000, 1.0), chat_rate=(10_000, 1.0))
            adapter = new_adapter(server, path, **options)
            service.notifiers["discord"] = adapter.notifier
            bot = Bot(server, service, clock, adapter, db, path, web)
            await bot.start_adapter()
            try:
                yield bot
            finally:
                await asyncio.wait_for(bot.adapter.stop(), TIMEOUT)
                await db.close()
