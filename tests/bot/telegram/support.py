"""Support for Telegram adapter tests: the fake Bot API server, the real PTB stack of the
adapter long-polling it, a game service on a SQLite file with a manual clock, and helpers
that act as users and wait (bounded) until the bot has handled what they did."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from telegram.ext import AIORateLimiter

from bot.ports.message_store import TelegramMessageStore
from bot.ports.model import ChatKey, TableInfo, TableSettings
from bot.ports.web_links import WebLinks
from bot.service.clock import ManualClock
from bot.service.flow import FlowControl
from bot.service.service import GameService
from bot.storage.repository import SqliteRepository
from bot.telegram_bot import TelegramAdapter
from bot.telegram_bot.callbacks import decode
from bot.telegram_bot.handlers import Handlers
from engine.views import PublicView, public_view
from tests.bot.backends import open_backend
from tests.fakes.telegram import CallbackAnswer, FakeMessage, FakeTelegram, running_fake_telegram
from tests.fakes.telegram.models import CallbackQuery

ALICE = 1001
BOB = 1002
CARL = 1003
GROUP = -4001
SUPERGROUP = -1001234567890
FORUM = -1009876543210
WAIT = 10.0  # seconds: the bound of every wait

# A card as shown in messages: 10♦, Q♠, A♣, 7♥, 🃏.
CARD_TEXT = re.compile(r"(10|[2-9AJQKBD])([♣♦♥♠])|🃏")


@dataclass
class Bot:
    """The fake Telegram, the adapter polling it and the service behind it."""

    tg: FakeTelegram
    adapter: TelegramAdapter
    service: GameService
    clock: ManualClock
    db: Any
    repo: SqliteRepository
    store: TelegramMessageStore

    @property
    def handlers(self) -> Handlers:
        assert self.adapter.handlers is not None
        return self.adapter.handlers

    async def settle(self) -> None:
        """Wait until every queued group message went out."""
        await self.adapter.notifier.idle()

    async def handled(self, message: FakeMessage) -> FakeMessage:
        """Wait until the bot handled the update of ``message`` (if it got one)."""
        update_id = message.update_id
        if update_id is not None:
            await self.tg.wait_for(lambda: self.handlers.last_update_id >= update_id, WAIT)
        await self.settle()
        return message

    async def say(
        self, user: int, chat: int, text: str, thread_id: int | None = None
    ) -> FakeMessage:
        """``user`` writes ``text`` in ``chat``; returns once the bot handled it."""
        return await self.handled(self.tg.send_text(user, chat, text, thread_id))

    async def start_private(self, user: int, payload: str | None = None) -> FakeMessage:
        """``user`` presses Start in the private chat (optionally via a deep link)."""
        return await self.handled(self.tg.start_private(user, payload))

    async def press(self, user: int, message: FakeMessage, data: str) -> CallbackAnswer:
        """``user`` presses the button ``data``; returns the bot's answer to the query, once
        the bot handled the whole press (the answer comes first, then the redraws)."""
        query_id = self.tg.press_button(user, message, data)
        pushed = self.tg.world.updates.last_id

        def answered() -> CallbackAnswer | None:
            return next((a for a in self.tg.callback_answers if a.query_id == query_id), None)

        answer = await self.tg.wait_for(answered, WAIT)
        await self.tg.wait_for(lambda: self.handlers.last_update_id >= pushed, WAIT)
        await self.settle()
        return answer

    async def forge_press(self, user: int, message: FakeMessage, data: str) -> CallbackAnswer:
        """A press with ``callback_data`` that is not on the message's keyboard, as a
        modified client (or an old one) could send; returns the bot's answer."""
        world = self.tg.world
        query_id = f"forged-{len(world.queries) + 1}"
        world.queries[query_id] = CallbackQuery(
            query_id, user, message.chat_id, message.message_id, data, world.clock()
        )
        world.updates.push(
            "callback_query",
            {
                "id": query_id,
                "from": world.users[user].to_api(),
                "message": world.message_json(message),
                "chat_instance": "1",
                "data": data,
            },
        )

        def answered() -> CallbackAnswer | None:
            return next((a for a in self.tg.callback_answers if a.query_id == query_id), None)

        answer = await self.tg.wait_for(answered, WAIT)
        await self.settle()
        return answer

    async def tick(self, seconds: float = 1.0) -> int:
        """Move the clock and run what is due (AI moves, next deal)."""
        self.clock.advance(seconds)
        ran = await self.service.tick()
        await self.settle()
        return ran

    async def table_message(self, table_id: int) -> FakeMessage:
        """The group message that shows ``table_id``."""
        row = await self.store.table_message(table_id)
        assert row is not None, f"no table message for table {table_id}"
        found = self.tg.world.find_message(row.chat_id, row.message_id)
        assert found is not None
        return found

    async def hand_message(self, user: int, table_id: int) -> FakeMessage:
        """The user's private hand message for ``table_id``."""
        row = await self.store.hand_message(user, table_id)
        assert row is not None, f"no hand message of {user} for table {table_id}"
        found = self.tg.world.find_message(user, row.message_id)
        assert found is not None
        return found


def button(message: FakeMessage, label: str) -> str:
    """``callback_data`` of the button whose label is ``label`` (or starts with it)."""
    for entry in message.buttons:
        if "callback_data" in entry and (entry["text"] == label or entry["text"].startswith(label)):
            return str(entry["callback_data"])
    raise LookupError(f"no button {label!r}; buttons: {message.button_texts}")


def hand_button(message: FakeMessage, action: str, arg: str | None = None) -> str:
    """``callback_data`` of the hand button doing ``action`` (one letter of
    :data:`bot.telegram_bot.callbacks.HAND_ACTIONS`), with argument ``arg`` if given."""
    for data in message.callback_data:
        decoded = decode(data)
        if decoded.kind == "h" and decoded.action == action and arg in (None, decoded.arg):
            return data
    raise LookupError(f"no hand button {action!r} {arg!r}; buttons: {message.button_texts}")


def group_button(message: FakeMessage, action: str, arg: str | None = None) -> str:
    """``callback_data`` of the table message's button doing ``action`` (a letter of
    :data:`bot.telegram_bot.callbacks.GROUP_ACTIONS`) with argument ``arg`` (for ``a``,
    add an AI seat, the level: ``normal`` unless given)."""
    if action == "a" and arg is None:
        arg = "normal"
    for data in message.callback_data:
        decoded = decode(data)
        if decoded.kind == "g" and decoded.action == action and arg in (None, decoded.arg):
            return data
    raise LookupError(f"no group button {action!r}; buttons: {message.button_texts}")


def url_buttons(message: FakeMessage) -> list[str]:
    """The URLs of the message's link buttons."""
    return [str(b["url"]) for b in message.buttons if "url" in b]


@asynccontextmanager
async def running_bot(
    path: Path,
    *,
    webhook_url: str | None = None,
    settings: TableSettings | None = None,
    first_seed: int = 500,
    rate_limiter: AIORateLimiter | None = None,
    database_url: str | None = None,
    watch_every: float = 0.2,
    group_budget: int = 0,
    group_period: float = 60.0,
    web: WebLinks | None = None,
) -> AsyncIterator[Bot]:
    """Fake Telegram + adapter + service on ``path`` (or on the PostgreSQL database
    ``database_url``); Alice, Bob, Carl, a group, a forum. ``watch_every``: seconds
    between two looks of the adapter at its polling task; ``web``: where the web table is
    (``None``: no web buttons)."""
    async with running_fake_telegram() as tg:
        tg.add_user(ALICE, "Alice", "alice")
        tg.add_user(BOB, "Bob", "bob", language_code="de")
        tg.add_user(CARL, "Carl <3", None)
        tg.add_group(GROUP, "Rummy night", admins=(CARL,))
        tg.add_group(FORUM, "Rummy club", forum=True)
        db, repo = await open_backend(path, database_url)
        clock = ManualClock()
        adapter = TelegramAdapter(
            tg.token,
            base_url=tg.base_url,
            base_file_url=tg.base_file_url,
            rate_limiter=rate_limiter or AIORateLimiter(overall_max_rate=0, group_max_rate=0),
            webhook_url=webhook_url,
            webhook_listen=("127.0.0.1", 0),
            poll_timeout=1,
            watch_every=watch_every,
            group_budget=group_budget,
            group_period=group_period,
        )
        seeds = iter(range(first_seed, 10**9))
        service = GameService(
            repo,
            {"telegram": adapter.notifier},
            clock,
            settings or TableSettings(timer="off", ai_delay=1.0, next_deal_delay=2.0),
            seed_source=lambda: next(seeds),
        )
        service.flow = scripted_flow()
        await adapter.start(replace(service.host(), web=web))
        try:
            yield Bot(tg, adapter, service, clock, db, repo, repo.telegram_messages)
        finally:
            await adapter.stop()
            await db.close()


async def two_people_two_ais(bot: Bot) -> dict[str, int]:
    """Carl opens a one-deal table in the group, Bob joins, two AI seats, start; returns
    the people's user keys -> Telegram ids."""
    await bot.start_private(CARL)
    await bot.start_private(BOB)
    await bot.say(CARL, GROUP, "/new deals=1")
    await bot.say(BOB, GROUP, "/join")
    await bot.say(CARL, GROUP, "/addbot")
    await bot.say(CARL, GROUP, "/addbot")
    await bot.say(CARL, GROUP, "/start")
    return {f"telegram:{CARL}": CARL, f"telegram:{BOB}": BOB}


def scripted_flow() -> FlowControl:
    """Flow control for scripted players, who press far faster than people do."""
    return FlowControl(user_rate=(10_000, 1.0), chat_rate=(10_000, 1.0))


async def table_view(bot: Bot, key: ChatKey) -> tuple[TableInfo, PublicView | None]:
    """The chat's table as the public sees it (read behind the adapter's back)."""
    table = await bot.service.changes.load(key)
    return table.info(), None if table.state is None else public_view(table.state)
