"""Starting the Telegram adapter: from the settings (``rummy-bot run``), in webhook mode,
and the rate limiter it installs."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import aiohttp
import pytest
from telegram.ext import AIORateLimiter

from bot.adapter_errors import PlatformRefused
from bot.runner import create_adapters, http_port, needs_http, run_bot
from bot.settings import Settings, SettingsError
from bot.telegram_bot import TelegramAdapter, create_adapter
from bot.telegram_bot.group_budget import SharedGroupBudget
from bot.telegram_bot.identity import chat_key
from bot.telegram_bot.webhook import SECRET_HEADER, secret_for
from tests.bot.telegram.support import ALICE, GROUP, WAIT, running_bot
from tests.fakes.telegram import FakeMessage, running_fake_telegram


def test_the_runner_builds_the_telegram_adapter_from_the_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PORT", "9000")
    settings = Settings(
        telegram_token="123:abc",
        database_path=tmp_path / "r.sqlite3",
        telegram_webhook_url="https://rummy.example/tg",
    )
    [adapter] = create_adapters(settings)
    assert isinstance(adapter, TelegramAdapter)
    assert adapter.platform == "telegram"
    assert adapter.webhook_url == "https://rummy.example/tg"
    # the webhook is a route of the process's one HTTP server, on $PORT
    assert needs_http(settings) and http_port() == 9000
    limiter = adapter.app.bot.rate_limiter
    assert isinstance(limiter, SharedGroupBudget) and isinstance(limiter.inner, AIORateLimiter)
    assert (limiter.per_minute, limiter.period) == (20, 60.0)  # Telegram's group limit
    with pytest.raises(SettingsError):
        create_adapter(Settings())


async def test_webhook_mode_registers_the_url_and_takes_updates(tmp_path: Path) -> None:
    url = "https://rummy.example/telegram/hook"
    async with running_bot(tmp_path / "rummy.sqlite3", webhook_url=url) as bot:
        [call] = bot.tg.calls_to("setWebhook")
        secret = secret_for(bot.tg.token)
        assert (call.params["url"], call.params["secret_token"]) == (url, secret)
        assert bot.tg.webhook_url == url
        assert bot.tg.calls_to("getUpdates") == []  # no long polling
        server = bot.adapter.webhook
        assert server is not None
        hook = f"http://127.0.0.1:{server.port}/telegram/hook"

        bot.tg.start_private(ALICE)
        sent = bot.tg.send_text(ALICE, GROUP, "/new")
        updates = list(bot.tg.updates.pending)
        async with aiohttp.ClientSession() as http:
            async with http.post(hook, json=updates[0]) as refused:
                assert refused.status == 403  # no secret: not from Telegram
            for update in updates:
                async with http.post(
                    hook, json=update, headers={SECRET_HEADER: secret}
                ) as accepted:
                    assert accepted.status == 200
        await bot.tg.wait_for(lambda: bot.handlers.last_update_id >= (sent.update_id or 0), WAIT)
        await bot.settle()
        assert await bot.service.entry.table_info(chat_key(GROUP, None)) is not None
        assert any("Alice opened a table" in (m.text or "") for m in bot.tg.messages(GROUP))


async def test_a_wrong_token_fails_the_start_and_releases_everything(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "rummy.sqlite3") as bot:
        stranger = TelegramAdapter("987654321:SomeoneElsesToken", base_url=bot.tg.base_url)
        with pytest.raises(PlatformRefused):
            await stranger.start(bot.service.host())
        assert not stranger.app.running
        await stranger.stop()  # and stopping again is harmless
        # the service's one connection, which the adapter's rows share, is still open
        assert await bot.service.repo.count_tables() == 0
        await bot.start_private(ALICE)
        await bot.say(ALICE, GROUP, "/new")
        assert await bot.service.repo.count_tables() == 1


async def test_a_redelivered_update_changes_nothing_twice(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "rummy.sqlite3") as bot:
        await bot.start_private(ALICE)
        await bot.say(ALICE, GROUP, "/new")
        first = await bot.say(ALICE, GROUP, "/addbot")
        before = bot.tg.messages(GROUP)
        update = {"update_id": first.update_id, "message": bot.tg.world.message_json(first)}
        await bot.adapter.process(update)  # Telegram sends it again (e.g. after a crash)
        await bot.settle()
        info = await bot.service.entry.table_info(chat_key(GROUP, None))
        assert info is not None and [s.name for s in info.seats] == ["Alice", "Ada"]
        assert bot.tg.messages(GROUP) == before


async def test_rummy_bot_run_plays_with_the_real_clock_and_stops_cleanly(tmp_path: Path) -> None:
    """The runner with the Telegram adapter against the fake: the service's background
    loop makes the AI's moves (real clock, 1.5 s apart) while a person plays by buttons,
    then the stop event ends everything."""
    path = tmp_path / "bot.sqlite3"
    async with running_fake_telegram() as tg:
        tg.add_user(ALICE, "Alice", "alice")
        tg.add_group(GROUP, "Rummy night")
        adapter = TelegramAdapter(
            tg.token,
            base_url=tg.base_url,
            base_file_url=tg.base_file_url,
            poll_timeout=1,
            rate_limiter=AIORateLimiter(overall_max_rate=0, group_max_rate=0),
        )
        settings = Settings(telegram_token=tg.token, database_path=path, default_timer="off")
        stop = asyncio.Event()
        task = asyncio.create_task(run_bot(settings, stop, adapters=[adapter]))
        try:
            await tg.wait_for(lambda: tg.calls_to("getUpdates"), WAIT)
            tg.start_private(ALICE)
            tg.send_text(ALICE, GROUP, "/new")
            [table] = await tg.wait_for(lambda: tg.messages(GROUP), WAIT)
            tg.press_button(ALICE, table, table.callback_data[3])  # an AI seat, normal
            await tg.wait_for(lambda: "Ada" in (table.text or ""), WAIT)
            tg.press_button(ALICE, table, table.callback_data[6])  # Start
            await tg.wait_for(lambda: "Deal 1" in (table.text or ""), WAIT)
            assert adapter.handlers is not None
            for _ in range(2):  # Alice draws and discards by buttons; Ada answers on her own
                hand = await tg.wait_for(
                    lambda: [m for m in tg.private_messages(ALICE) if "Draw" in m.button_texts],
                    WAIT,
                )
                tg.press_button(ALICE, hand[-1], labelled(hand[-1], "Draw"))
                discard = await tg.wait_for(
                    lambda: [
                        m
                        for m in tg.private_messages(ALICE)
                        if m.callback_data
                        and any(d.startswith("hs") for d in m.callback_data)
                        and "Draw" not in m.button_texts
                    ],
                    WAIT,
                )
                message = discard[-1]
                tg.press_button(ALICE, message, message.callback_data[0])
                await tg.wait_for(
                    lambda m=message: any(t.startswith("Discard ") for t in m.button_texts), WAIT
                )
                edits = len(table.history)
                tg.press_button(ALICE, message, labelled(message, "Discard "))
                # Wait for a NEWER table text saying it is Alice's turn again: Ada has answered
                # (she may draw or take the upcard; the two edits may be merged into one).
                await tg.wait_for(
                    lambda n=edits: (
                        len(table.history) > n and "Alice to play" in (table.text or "")
                    ),
                    WAIT,
                )
        finally:  # a failed wait must not leave the runner polling after the test
            stop.set()
            await asyncio.wait_for(task, WAIT)
        assert adapter.handlers.last_update_id > 0


def labelled(message: FakeMessage, label: str) -> str:
    """``callback_data`` of the message's first button whose text starts with ``label``."""
    return next(
        str(b["callback_data"])
        for b in message.buttons
        if str(b.get("text", "")).startswith(label) and "callback_data" in b
    )


async def test_a_worker_that_takes_the_polling_role_while_telegram_fails_tries_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker that did not poll at start takes the polling role later; when starting
    the long poll fails then (Telegram away), it gives the role up and tries again, and
    polls once Telegram answers: the role is never held without a poll."""
    from telegram.error import NetworkError

    from bot.ports.roles import HeldForever, RoleLock
    from bot.service.service import GameService
    from bot.storage.database import open_database
    from bot.storage.repository import SqliteRepository
    from bot.telegram_bot import adapter as adapter_module

    monkeypatch.setattr(adapter_module, "ROLE_RETRY", 0.05)
    granted: list[HeldForever] = []

    async def take_role(role: str) -> RoleLock | None:
        assert role == adapter_module.POLLING_ROLE
        if not granted:  # another worker polls at first
            granted.append(HeldForever())
            return None
        granted.append(HeldForever())
        return granted[-1]

    db = await open_database(tmp_path / "r.sqlite3")
    async with running_fake_telegram() as tg:
        adapter = TelegramAdapter(
            tg.token,
            base_url=tg.base_url,
            base_file_url=tg.base_file_url,
            poll_timeout=1,
            rate_limiter=AIORateLimiter(overall_max_rate=0, group_max_rate=0),
        )
        service = GameService(SqliteRepository(db), {"telegram": adapter.notifier})
        assert adapter.app.updater is not None
        real = adapter.app.updater.start_polling
        failures = [NetworkError("Telegram is away")]

        async def start_polling(**options: object) -> object:
            if failures:
                raise failures.pop()
            return await real(**options)  # type: ignore[arg-type]

        monkeypatch.setattr(adapter.app.updater, "start_polling", start_polling)
        await adapter.start(replace(service.host(), take_role=take_role))
        try:
            assert not adapter.polling
            await tg.wait_for(lambda: adapter.polling, WAIT)
            assert not failures
            assert [role.held for role in granted[1:]] == [False] + [True] * (
                len(granted) - 2
            )  # the role taken while Telegram failed was given up
        finally:
            await adapter.stop()
            await db.close()
