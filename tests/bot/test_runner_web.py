"""``rummy-bot run`` as an operator sets it up for the web table: ``WEB_BASE_URL`` and a
Telegram bot on webhooks, one ``$PORT``. Through the real runner, the real Telegram adapter
(python-telegram-bot against the fake Bot API) and the real web front end: the webhook and
the pages share the port, the group's table message links to the bot's Mini App on that
table, and the private hand message opens the table's page (a ``web_app`` button)."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import aiohttp
import pytest
from telegram.ext import AIORateLimiter

from bot.runner import run_bot
from bot.settings import Settings
from bot.telegram_bot import TelegramAdapter
from bot.telegram_bot.webhook import SECRET_HEADER, secret_for
from tests.fakes.telegram import running_fake_telegram

ALICE, BOB, GROUP = 1001, 1002, -4001
BASE = "https://rummy.example.org"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _until(check, seconds: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    deadline = asyncio.get_running_loop().time() + seconds
    while not await check():
        assert asyncio.get_running_loop().time() < deadline, "not in time"
        await asyncio.sleep(0.05)


async def test_the_web_table_and_the_webhook_share_the_port_and_the_chats_link_to_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    port = _free_port()
    monkeypatch.setenv("PORT", str(port))
    async with running_fake_telegram() as tg:
        tg.add_user(ALICE, "Alice", "alice")
        tg.add_user(BOB, "Bob", "bob")
        tg.add_group(GROUP, "Rummy night")
        hook = f"{BASE}/telegram/hook"
        settings = Settings(telegram_token=tg.token, database_path=tmp_path / "r.sqlite3",
                            telegram_webhook_url=hook, web_base_url=BASE,
                            engine_workers=1)
        adapter = TelegramAdapter(tg.token, base_url=tg.base_url,
                                  base_file_url=tg.base_file_url, webhook_url=hook,
                                  rate_limiter=AIORateLimiter(overall_max_rate=0,
                                                              group_max_rate=0))
        stop = asyncio.Event()
        task = asyncio.create_task(run_bot(settings, stop, adapters=[adapter]))
        local = f"http://127.0.0.1:{port}"
        try:
            async with aiohttp.ClientSession() as http:
                async def up() -> bool:
                    try:
                        async with http.get(f"{local}/web/tg/") as page:
                            return page.status == 200
                    except aiohttp.ClientError:
                        return False

                await _until(up, 30)

                async def hooked() -> bool:  # the Telegram adapter has mounted its webhook
                    return tg.webhook_url == hook

                await _until(hooked, 30)
                async with http.get(f"{local}/web/tg/") as page:
                    assert "text/html" in page.headers["Content-Type"]

                async def deliver() -> None:  # Telegram's side: POST the updates
                    for update in list(tg.updates.pending):
                        async with http.post(f"{local}/telegram/hook", json=update,
                                             headers={SECRET_HEADER: secret_for(tg.token)}
                                             ) as sent:
                            assert sent.status == 200
                    tg.updates.clear()

                tg.start_private(ALICE)
                tg.start_private(BOB)
                for user, line in ((ALICE, "/new deals=1"), (BOB, "/join"), (ALICE, "/start")):
                    tg.send_text(user, GROUP, line)
                    await deliver()
                    await asyncio.sleep(0.3)

                async def table_link() -> bool:
                    return any(str(b.get("url", "")).endswith("?startapp=t1")
                               for m in tg.messages(GROUP) for b in m.buttons)

                await _until(table_link)
                [link] = {b["url"] for m in tg.messages(GROUP) for b in m.buttons
                          if "startapp" in str(b.get("url", ""))}
                assert link == f"https://t.me/{tg.bot.username}?startapp=t1"

                async def web_app_button() -> bool:
                    return any(b.get("web_app") for m in tg.private_messages(ALICE)
                               for b in m.buttons)

                await _until(web_app_button)
                apps = {b["web_app"]["url"] for m in tg.private_messages(ALICE)
                        for b in m.buttons if b.get("web_app")}
                assert apps == {f"{BASE}/web/tg/?t=1"}
        finally:
            stop.set()
            await asyncio.wait_for(task, 30)
