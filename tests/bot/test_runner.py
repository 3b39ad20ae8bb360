"""``rummy-bot run``: adapters started around the service, clean stop on SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot import runner
from bot.adapter_errors import PlatformRefused, PlatformUnreachable
from bot.ports.host import Host
from bot.ports.intents import InChat, Intent, OpenTable
from bot.ports.model import ChatKey, Status, UserRef
from bot.runner import NoPlatform, configured_platforms, run_bot
from bot.service.service import GameService
from bot.settings import Settings
from bot.telegram_bot.adapter import TelegramAdapter
from tests.fakes.telegram import running_fake_telegram

from .service.support import RecordingNotifier


class FakeAdapter:
    """A platform stand-in: opens a table when started, records stop."""

    platform = "test"
    every_platform = False

    def __init__(self) -> None:
        self.events: list[str] = []
        self.host: Host | None = None
        self._notifier = RecordingNotifier()

    @property
    def notifier(self) -> RecordingNotifier:
        return self._notifier

    async def start(self, host: Host) -> None:
        self.host = host
        outcome = await host.entry.handle(
            Intent(OpenTable(), UserRef("test", "9", "zoe"), InChat(ChatKey("test", "1")))
        )
        assert outcome.ok, outcome.reply
        self.events.append("started")

    async def stop(self) -> None:
        self.events.append("stopped")


async def test_the_bot_freezes_its_start_up_heap_when_asked(tmp_path: Path) -> None:
    """``rummy-bot run`` freezes the start-up heap (imports, pool, service, adapters), so
    the event loop's collections walk only what the running bot builds; tests that run
    the bot in their own process leave their heap alone (the default)."""
    import gc

    before = gc.get_freeze_count()
    stop = asyncio.Event()
    adapter = FakeAdapter()
    task = asyncio.create_task(
        run_bot(
            Settings(database_path=tmp_path / "bot.sqlite3"),
            stop,
            adapters=[adapter],
            freeze_heap=True,
        )
    )
    try:
        for _ in range(200):
            if adapter.events:
                break
            await asyncio.sleep(0.01)
        assert gc.get_freeze_count() > before + 10_000
    finally:
        stop.set()
        await asyncio.wait_for(task, 5)
        gc.unfreeze()


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


class FlakyAdapter:
    """A platform that cannot be reached ``failures`` times, then starts; or refuses."""

    def __init__(self, platform: str, failures: int = 0, refuse: bool = False) -> None:
        self.platform = platform
        self.every_platform = False
        self.failures = failures
        self.refuse = refuse
        self.attempts = 0
        self.running = False
        self._notifier = RecordingNotifier()

    @property
    def notifier(self) -> RecordingNotifier:
        return self._notifier

    async def start(self, service: GameService) -> None:
        self.attempts += 1
        if self.refuse:
            raise PlatformRefused("the token was refused (401)")
        if self.attempts <= self.failures:
            raise PlatformUnreachable("cannot reach example.invalid (DNS)")
        self.running = True

    async def stop(self) -> None:
        self.running = False


async def wait_until(predicate: Callable[[], bool], seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not met")


async def test_an_unreachable_platform_is_retried_while_the_other_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """One warning line per failed attempt (no traceback), back-off between attempts,
    and the reachable platform works all along."""
    monkeypatch.setattr(runner, "RETRY_FIRST", 0.02)
    down = FlakyAdapter("telegram", failures=3)
    up = FlakyAdapter("discord")
    stop = asyncio.Event()
    settings = Settings(database_path=tmp_path / "bot.sqlite3")
    with caplog.at_level(logging.INFO, logger="bot.runner"):
        task = asyncio.create_task(run_bot(settings, stop, adapters=[down, up]))
        try:
            await wait_until(lambda: up.running)
            await wait_until(lambda: down.running)
        finally:
            stop.set()
            await asyncio.wait_for(task, 5)
    assert down.attempts == 4 and up.attempts == 1
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 3
    assert all(r.exc_info is None and "\n" not in r.getMessage() for r in warnings)
    assert (
        "telegram: cannot reach example.invalid (DNS); next attempt in" in warnings[0].getMessage()
    )
    assert not down.running and not up.running  # stopped with the bot


async def test_a_refused_platform_stays_off_and_all_refused_ends_the_run(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings(database_path=tmp_path / "bot.sqlite3")
    refused = FlakyAdapter("telegram", refuse=True)
    working = FlakyAdapter("discord")
    stop = asyncio.Event()
    task = asyncio.create_task(run_bot(settings, stop, adapters=[refused, working]))
    try:
        await wait_until(lambda: working.running)
        await asyncio.sleep(0.05)
        assert refused.attempts == 1 and not task.done()
    finally:
        stop.set()
        await asyncio.wait_for(task, 5)
    with pytest.raises(NoPlatform) as raised:
        await asyncio.wait_for(
            run_bot(settings, asyncio.Event(), adapters=[FlakyAdapter("telegram", refuse=True)]), 5
        )
    assert raised.value.platforms == ["telegram"]


async def test_the_telegram_adapter_says_unreachable_or_refused(tmp_path: Path) -> None:
    """The real python-telegram-bot stack: a closed port is unreachable; a token the
    (fake) Bot API does not know is refused."""
    async with _service(tmp_path / "bot.sqlite3") as service:
        closed = TelegramAdapter("123:abc", base_url="http://127.0.0.1:9/bot")
        with pytest.raises(PlatformUnreachable):
            await closed.start(service.host())
        async with running_fake_telegram() as tg:
            wrong = TelegramAdapter(
                "999:wrong", base_url=tg.base_url, base_file_url=tg.base_file_url
            )
            with pytest.raises(PlatformRefused):
                await wrong.start(service.host())


@contextlib.asynccontextmanager
async def _service(path: Path) -> AsyncIterator[GameService]:
    from bot.storage import open_database
    from bot.storage.repository import SqliteRepository

    db = await open_database(path)
    try:
        yield GameService(SqliteRepository(db), {})
    finally:
        await db.close()
