"""The web table under test: the real service on a temporary SQLite file, the real
aiohttp server (bot.http) on a loopback port with the web front end mounted, and
Playwright driving Debian's Chromium (its own browser download cannot work here).

Telegram's part is played by the tests: ``initData`` signed with the test bot token
(:func:`bot.web.auth.telegram.sign_init_data`) and a stub of ``telegram-web-app.js``
(``window.Telegram.WebApp``) served in place of Telegram's script.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from bot.http import HttpServer
from bot.interaction.commands import parse
from bot.ports.intents import InChat, Intent, Outcome
from bot.ports.model import ChatKey, TableInfo, TableSettings, UserRef
from bot.ports.screens import CoachAdvice, TableFault, TableUpdate, TimerWarning
from bot.service.flow import FlowControl
from bot.service.service import GameService
from bot.storage import open_database
from bot.storage.repository import SqliteRepository
from bot.web import WebConfig, WebFrontEnd
from bot.web.auth.telegram import sign_init_data

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
BOT_TOKEN = "123456:TEST-token-for-the-web-table"
GROUP = ChatKey("telegram", "-1001234")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"

TELEGRAM_STUB = """
(() => {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const data = window.__initData || fragment.get('tgWebAppData') || '';
  const theme = window.__themeParams || {bg_color: '#ffffff', text_color: '#000000',
    button_color: '#2481cc', button_text_color: '#ffffff', hint_color: '#999999',
    secondary_bg_color: '#f1f1f1'};
  const calls = window.__tgCalls = [];
  const events = window.__tgEvents = {};
  window.Telegram = {WebApp: {initData: data, initDataUnsafe: {}, themeParams: theme,
    colorScheme: 'light', version: '8.0', platform: 'android',
    ready() { window.__tgReady = true; }, expand() { window.__tgExpanded = true; },
    onEvent(name, handler) { events[name] = handler; }, offEvent() {}, close() {},
    HapticFeedback: {selectionChanged() { calls.push('haptic:selection'); },
      notificationOccurred(kind) { calls.push('haptic:' + kind); },
      impactOccurred(kind) { calls.push('haptic:impact:' + kind); }},
    BackButton: {show() { calls.push('back:show'); }, hide() { calls.push('back:hide'); },
      onClick(handler) { window.__tgBack = handler; }, offClick() {}},
    disableVerticalSwipes() { calls.push('swipes:off'); },
    enableVerticalSwipes() { calls.push('swipes:on'); }}};
})();
"""
"""Stands in for https://telegram.org/js/telegram-web-app.js: ``initData`` comes from
``window.__initData`` (set by an init script of the test) or the URL fragment. What the
page asks of Telegram (haptics, the BackButton, vertical swipes) is recorded in
``window.__tgCalls``; ``window.__tgEvents`` holds its event handlers (``themeChanged``)
and ``window.__tgBack`` the BackButton's."""


@dataclass
class Recorder:
    """Every update and warning the service published (the privacy checks compare the
    pages against the views in them)."""

    updates: list[TableUpdate] = field(default_factory=list)
    coached: list[CoachAdvice] = field(default_factory=list)

    async def publish(self, update: TableUpdate) -> None:
        self.updates.append(update)

    async def warn(self, warning: TimerWarning) -> None:
        return None

    async def fault(self, fault: TableFault) -> None:
        return None

    async def coach(self, advice: CoachAdvice) -> None:
        self.coached.append(advice)


@dataclass
class WebWorld:
    service: GameService
    http: HttpServer
    web: WebFrontEnd
    recorder: Recorder
    db: Any
    stop: asyncio.Event
    background: asyncio.Task[None]

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.http.port}/web"

    async def say(self, user: UserRef, text: str, key: ChatKey = GROUP) -> Outcome:
        """A typed line in the group, as the chat adapters send it."""
        outcome = await self.service.entry.handle(Intent(parse(text), user, InChat(key)))
        assert outcome.ok, outcome.reply.text
        return outcome

    async def table(
        self, host: UserRef, others: list[UserRef], words: str, ais: int = 0, key: ChatKey = GROUP
    ) -> TableInfo:
        """A started table: ``host`` opens ``new <words>``, ``others`` join, ``ais`` AI
        seats, then it starts."""
        await self.say(host, f"new {words}", key)
        for user in others:
            await self.say(user, "join", key)
        for _n in range(ais):
            await self.say(host, "addbot", key)
        outcome = await self.say(host, "start", key)
        assert outcome.info is not None
        return outcome.info


def init_data(
    user: UserRef,
    *,
    table: int | None = None,
    auth_date: float | None = None,
    token: str = BOT_TOKEN,
) -> str:
    """Signed Mini App ``initData`` for ``user`` (``start_param`` t<table> when given)."""
    fields = {
        "query_id": "AAE-test",
        "auth_date": str(int(auth_date or time.time())),
        "user": json.dumps(
            {
                "id": int(user.user_id),
                "first_name": user.name,
                "language_code": user.locale or "en",
            },
            separators=(",", ":"),
        ),
    }
    if table is not None:
        fields["start_param"] = f"t{table}"
    return sign_init_data(fields, token)


def web_config(**overrides: Any) -> WebConfig:
    values: dict[str, Any] = {
        "base_url": "https://rummy.example.invalid",
        "telegram_token": BOT_TOKEN,
    }
    values.update(overrides)
    return WebConfig(**values)


@contextlib.asynccontextmanager
async def web_world(
    path: Path, config: WebConfig | None = None, settings: TableSettings | None = None
) -> AsyncIterator[WebWorld]:
    """The service, the HTTP server and the web table, running; stopped afterwards."""
    db = await open_database(path)
    recorder = Recorder()
    counter = iter(range(7000, 10**9))
    service = GameService(
        SqliteRepository(db),
        {},
        defaults=settings
        or TableSettings(timer="off", ai_delay=0.05, next_deal_delay=0.2, call_window=0.3),
        seed_source=lambda: next(counter),
    )
    service.register("web", recorder, every_platform=True)
    service.flow = FlowControl(user_rate=(10_000, 1.0), chat_rate=(10_000, 1.0))
    web = WebFrontEnd(config or web_config())
    service.register(web.platform, web.notifier, web.every_platform)
    http = HttpServer("127.0.0.1", 0)
    await http.start()
    await web.start(service.host(http))
    stop = asyncio.Event()
    background = asyncio.create_task(service.run(stop, max_sleep=0.2))
    world = WebWorld(service, http, web, recorder, db, stop, background)
    try:
        yield world
    finally:
        stop.set()
        await web.stop()
        await http.stop()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(background, 10)
        await db.close()


async def frames_until(
    socket: aiohttp.ClientWebSocketResponse, kind: str, timeout: float = 10.0
) -> list[dict[str, Any]]:
    """Frames up to and including the first of type ``kind``."""
    seen = []
    deadline = time.monotonic() + timeout
    while True:
        message = await socket.receive(timeout=max(deadline - time.monotonic(), 0.1))
        assert message.type is aiohttp.WSMsgType.TEXT, message
        frame = json.loads(message.data)
        seen.append(frame)
        if frame["type"] == kind:
            return seen
