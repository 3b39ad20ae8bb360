"""``rummy-bot run`` as an operator sets it up for the web table: ``WEB_BASE_URL`` and a
Telegram bot on webhooks, one ``$PORT``. Through the real runner, the real Telegram adapter
(python-telegram-bot against the fake Bot API) and the real web front end: the webhook and
the pages share the port, the group's table message links to the bot's Mini App on that
table, and the private hand message opens the table's page (a ``web_app`` button); a move
pressed in a page shows in the group's messages and a move typed in the group in the pages."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg
import pytest
from telegram.ext import AIORateLimiter

from bot.i18n import use_locale
from bot.i18n.notation import card_text
from bot.runner import run_bot
from bot.settings import Settings
from bot.telegram_bot import TelegramAdapter
from bot.telegram_bot.webhook import SECRET_HEADER, secret_for
from bot.web.auth.telegram import sign_init_data
from engine.cards import parse_card
from tests.bot.backends import BACKENDS, database_url
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


@dataclass
class _Bot:
    """The running bot of these tests: the fake Telegram, an HTTP client and the local
    address of the process's one port."""

    tg: Any
    http: aiohttp.ClientSession
    local: str
    hook: str

    async def deliver(self) -> None:
        """Telegram's side of a webhook: POST the pending updates."""
        for update in list(self.tg.updates.pending):
            async with self.http.post(
                f"{self.local}/telegram/hook",
                json=update,
                headers={SECRET_HEADER: secret_for(self.tg.token)},
            ) as sent:
                assert sent.status == 200
        self.tg.updates.clear()

    async def say(self, user: int, line: str) -> None:
        """``user`` types ``line`` in the group."""
        self.tg.send_text(user, GROUP, line)
        await self.deliver()


@contextlib.asynccontextmanager
async def _running_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, database_url: str | None = None
) -> AsyncIterator[_Bot]:
    """``rummy-bot run`` with WEB_BASE_URL and a Telegram webhook on one $PORT, until the
    page is served and the webhook is set; Alice and Bob have started the bot privately.
    With ``database_url`` on PostgreSQL: the pages and the chats the worker shows hear of
    commits through one change feed."""
    port = _free_port()
    monkeypatch.setenv("PORT", str(port))
    async with running_fake_telegram() as tg:
        tg.add_user(ALICE, "Alice", "alice")
        tg.add_user(BOB, "Bob", "bob")
        tg.add_group(GROUP, "Rummy night")
        hook = f"{BASE}/telegram/hook"
        settings = Settings(
            telegram_token=tg.token,
            database_path=tmp_path / "r.sqlite3",
            database_url=database_url,
            telegram_webhook_url=hook,
            web_base_url=BASE,
            engine_workers=1,
        )
        adapter = TelegramAdapter(
            tg.token,
            base_url=tg.base_url,
            base_file_url=tg.base_file_url,
            webhook_url=hook,
            rate_limiter=AIORateLimiter(overall_max_rate=0, group_max_rate=0),
        )
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
                    return bool(tg.webhook_url == hook)

                await _until(hooked, 30)
                bot = _Bot(tg, http, local, hook)
                tg.start_private(ALICE)
                tg.start_private(BOB)
                yield bot
        finally:
            stop.set()
            await asyncio.wait_for(task, 30)


async def _start_table(bot: _Bot) -> None:
    for user, line in ((ALICE, "/new deals=1"), (BOB, "/join"), (ALICE, "/start")):
        await bot.say(user, line)
        await asyncio.sleep(0.3)


async def test_the_web_table_and_the_webhook_share_the_port_and_the_chats_link_to_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with _running_bot(tmp_path, monkeypatch) as bot:
        tg = bot.tg
        async with bot.http.get(f"{bot.local}/web/tg/") as page:
            assert "text/html" in page.headers["Content-Type"]
        await _start_table(bot)

        async def table_link() -> bool:
            return any(
                str(b.get("url", "")).endswith("?startapp=t1")
                for m in tg.messages(GROUP)
                for b in m.buttons
            )

        await _until(table_link)
        [link] = {
            b["url"]
            for m in tg.messages(GROUP)
            for b in m.buttons
            if "startapp" in str(b.get("url", ""))
        }
        assert link == f"https://t.me/{tg.bot.username}?startapp=t1"

        async def web_app_button() -> bool:
            return any(b.get("web_app") for m in tg.private_messages(ALICE) for b in m.buttons)

        await _until(web_app_button)
        apps = {
            b["web_app"]["url"]
            for m in tg.private_messages(ALICE)
            for b in m.buttons
            if b.get("web_app")
        }
        assert apps == {f"{BASE}/web/tg/?t=1"}


class _Page:
    """One person's page as a WebSocket client: the newest screen it was sent."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self.screen: dict[str, Any] = {}
        self.hand: dict[str, Any] | None = None

    async def next_screen(self, version: int) -> dict[str, Any]:
        """Read frames until a screen of ``version`` or later (the hand frames a hint
        sends keep the newest hand)."""
        deadline = asyncio.get_running_loop().time() + 20
        while self.screen.get("version", -1) < version:
            left = deadline - asyncio.get_running_loop().time()
            assert left > 0, f"no screen of version {version}: {self.screen}"
            frame = json.loads((await self.socket.receive(timeout=left)).data)
            if frame["type"] == "screen":
                self.screen = frame
                self.hand = frame["hand"]
            elif frame["type"] == "hand":
                self.hand = frame["hand"]
        return self.screen


async def _open_page(bot: _Bot, user: int, name: str) -> _Page:
    data = sign_init_data(
        {
            "auth_date": str(int(time.time())),
            "user": json.dumps({"id": user, "first_name": name, "language_code": "en"}),
        },
        bot.tg.token,
    )
    async with bot.http.post(
        f"{bot.local}/web/api/session/telegram", json={"init_data": data, "table": 1}
    ) as response:
        assert response.status == 200, await response.text()
        token = (await response.json())["token"]
    page = _Page(await bot.http.ws_connect(f"{bot.local}/web/ws?token={token}"))
    await page.next_screen(0)
    return page


def _group_text(bot: _Bot) -> str:
    return "\n".join(m.text or "" for m in bot.tg.messages(GROUP))


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_move_in_the_page_shows_in_the_chat_and_a_move_in_the_chat_in_the_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest, backend: str
) -> None:
    """Issue "see the table": the page and the chats are front ends of one entry point, so
    a draw pressed in the page is drawn in the group's table message, and a discard typed
    in the group reaches the other person's page (on PostgreSQL too: the pages and the
    chats the worker shows share one change feed)."""
    url = database_url(request, backend)
    async with _running_bot(tmp_path, monkeypatch, url) as bot:
        await _start_table(bot)
        pages = {
            ALICE: await _open_page(bot, ALICE, "Alice"),
            BOB: await _open_page(bot, BOB, "Bob"),
        }
        if url is not None:  # the pages' and the chats' listeners: one connection
            admin = await asyncpg.connect(url)
            try:
                assert (
                    await admin.fetchval(
                        "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'"
                    )
                    == 1
                )
            finally:
                await admin.close()
        [mover] = [user for user, page in pages.items() if page.hand and page.hand["turn"]]
        other = BOB if mover == ALICE else ALICE
        name = "Alice" if mover == ALICE else "Bob"
        page = pages[mover]
        version = page.screen["version"]
        hand = page.hand
        assert hand is not None
        [draw] = [n for n, offer in enumerate(hand["offers"]) if offer["label"] == "Draw"]
        assert f"{name} draws from the stock." not in _group_text(bot)
        await page.socket.send_json(
            {
                "type": "offer",
                "table": 1,
                "version": version,
                "digest": hand["digest"],
                "selected": hand["selected"],
                "sort": hand["sort"],
                "offer": draw,
                "id": "page-draw",
            }
        )
        await page.next_screen(version + 1)

        async def drawn_in_the_group() -> bool:
            return f"{name} draws from the stock." in _group_text(bot)

        await _until(drawn_in_the_group)
        # the other way: a discard typed in the group reaches the other person's page
        held = len(hand["cards"])
        hand = page.hand
        assert hand is not None and len(hand["cards"]) == held + 1
        card = hand["cards"][0]
        await bot.say(mover, f"/discard {card}")
        watcher = await pages[other].next_screen(version + 2)
        with use_locale("en"):
            discarded = f"{name} discards {card_text(parse_card(card))}."
        assert discarded in watcher["events"], watcher["events"]
        assert watcher["hand"]["turn"] is True
        for open_page in pages.values():
            await open_page.socket.close()
