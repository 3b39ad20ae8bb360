"""Issue 39, item 1 on Telegram: updates that do not parse, pushed through the fake Bot
API (long polling) and posted to the webhook, are dropped at the edge and logged once per
kind; a normal command in another group right after them is answered within a second,
and the polling task keeps running. Hostile but readable names (a lone surrogate, 10 kB)
are cleaned and bounded before anything stores or echoes them."""

from __future__ import annotations

import copy
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.telegram_bot.identity import chat_key
from bot.telegram_bot.webhook import SECRET_HEADER, secret_for
from tests.bot.telegram.support import ALICE, BOB, GROUP, Bot, running_bot

OTHER_GROUP = -4002
CAROL = 1004
ANSWER_WITHIN = 1.0  # seconds: the bound for a command after a flood

Update = dict[str, Any]


def _without_date(update: Update) -> None:
    del update["message"]["date"]


def _message_not_an_object(update: Update) -> None:
    update["message"] = "hello"


def _text_a_number(update: Update) -> None:
    update["message"]["text"] = 12345


def _chat_without_id(update: Update) -> None:
    del update["message"]["chat"]["id"]


def _name_an_object(update: Update) -> None:
    update["message"]["from"]["first_name"] = {"a": 1}


def _query_without_from(update: Update) -> None:
    update.pop("message")
    update["callback_query"] = {"id": "77", "chat_instance": "1", "data": "gj0.1.1.."}


def _query_data_a_number(update: Update) -> None:
    message = update.pop("message")
    update["callback_query"] = {
        "id": "78",
        "from": message["from"],
        "chat_instance": "1",
        "message": message,
        "data": 7,
    }


def _member_without_status(update: Update) -> None:
    message = update.pop("message")
    update["my_chat_member"] = {
        "chat": message["chat"],
        "from": message["from"],
        "date": 1,
        "old_chat_member": {},
        "new_chat_member": {},
    }


#: The malformed shapes (the issue's first two and more), each a change of a real update.
SHAPES: dict[str, Callable[[Update], None]] = {
    "message: KeyError 'date'": _without_date,
    "message: AttributeError 'str' object": _message_not_an_object,
    "message: TypeError text is no string": _text_a_number,
    "message: TypeError _ChatBase.__init__() missing": _chat_without_id,
    "message: TypeError from: no id or first name": _name_an_object,
    "callback_query: TypeError callback query: no from": _query_without_from,
    "callback_query: TypeError callback data is no string": _query_data_a_number,
    "my_chat_member: TypeError ChatMember.__init__() missing": _member_without_status,
}


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def at_least(self, level: int) -> list[str]:
        return [r.getMessage() for r in self.records if r.levelno >= level]


@contextmanager
def log_lines() -> Iterator[_Lines]:
    """Every line logged by the adapter and by python-telegram-bot."""
    handler = _Lines()
    loggers = [logging.getLogger("bot"), logging.getLogger("telegram")]
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
            logger.setLevel(logging.NOTSET)


def malformed_updates(bot: Bot) -> list[tuple[str, Update]]:
    """Each shape twice, made from a real update of a /help in the group."""
    sent = bot.tg.send_text(ALICE, GROUP, "/help")
    real: Update = next(u for u in bot.tg.updates.pending if u["update_id"] == sent.update_id)
    bot.tg.updates.clear()
    out = []
    for kind, change in SHAPES.items():
        for _ in range(2):
            update = copy.deepcopy(real)
            change(update)
            out.append((kind, update))
    return out


def check_dropped(bot: Bot, lines: _Lines) -> None:
    """One warning line per kind, every drop counted, nothing at ERROR or worse."""
    counts = bot.adapter.dropped.counts
    for kind in SHAPES:
        found = [k for k in counts if k.startswith(kind)]
        assert found, (kind, dict(counts))
        assert sum(counts[k] for k in found) == 2, (kind, dict(counts))
        said = [m for m in lines.at_least(logging.WARNING) if "dropped an input" in m and kind in m]
        assert len(said) == 1, (kind, said)
    assert bot.adapter.dropped.total == 2 * len(SHAPES)
    assert lines.at_least(logging.ERROR) == [], lines.at_least(logging.ERROR)


async def answered_elsewhere(bot: Bot, started: float) -> float:
    """Carol's /new in another group gets its table message; returns the seconds it took
    from ``started``."""
    await bot.tg.wait_for(lambda: bot.tg.messages(OTHER_GROUP), ANSWER_WITHIN)
    took = time.monotonic() - started
    info = await bot.service.entry.table_info(chat_key(OTHER_GROUP, None))
    assert info is not None and [s.name for s in info.seats] == ["Carol"]
    return took


async def test_malformed_updates_by_long_polling_never_hold_up_the_others(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "rummy.sqlite3") as bot:
        bot.tg.add_user(CAROL, "Carol", "carol")
        bot.tg.add_group(OTHER_GROUP, "Other night")
        await bot.start_private(CAROL)
        with log_lines() as lines:
            for _kind, update in malformed_updates(bot):
                part = next(k for k in update if k != "update_id")
                bot.tg.updates.push(part, update[part])
            started = time.monotonic()
            command = bot.tg.send_text(CAROL, OTHER_GROUP, "/new")
            took = await answered_elsewhere(bot, started)
            await bot.handled(command)
            print(
                f"\n/new after {2 * len(SHAPES)} malformed updates: answered in "
                f"{took * 1000:.0f} ms"
            )
            assert bot.tg.updates.pending == []  # every update confirmed
            task = bot.adapter.polling_task()
            assert task is not None and not task.done()
            check_dropped(bot, lines)


async def test_malformed_updates_by_webhook_are_answered_200_and_dropped(tmp_path: Path) -> None:
    url = "https://rummy.example/telegram/hook"
    async with running_bot(tmp_path / "rummy.sqlite3", webhook_url=url) as bot:
        bot.tg.add_user(CAROL, "Carol", "carol")
        bot.tg.add_group(OTHER_GROUP, "Other night")
        server = bot.adapter.webhook
        assert server is not None
        hook = f"http://127.0.0.1:{server.port}/telegram/hook"
        headers = {SECRET_HEADER: secret_for(bot.tg.token)}
        with log_lines() as lines:
            async with aiohttp.ClientSession() as http:
                for _kind, update in malformed_updates(bot):
                    async with http.post(hook, json=update, headers=headers) as answer:
                        assert answer.status == 200  # else Telegram sends it again
                bot.tg.start_private(CAROL)
                bot.tg.send_text(CAROL, OTHER_GROUP, "/new")
                started = time.monotonic()
                for update in bot.tg.updates.pending:
                    async with http.post(hook, json=update, headers=headers) as answer:
                        assert answer.status == 200
                took = await answered_elsewhere(bot, started)
            print(
                f"\n/new after {2 * len(SHAPES)} malformed updates by webhook: answered in "
                f"{took * 1000:.0f} ms"
            )
            check_dropped(bot, lines)


async def test_a_body_that_is_not_json_is_dropped_once_per_kind(tmp_path: Path) -> None:
    url = "https://rummy.example/telegram/hook"
    async with running_bot(tmp_path / "rummy.sqlite3", webhook_url=url) as bot:
        server = bot.adapter.webhook
        assert server is not None
        hook = f"http://127.0.0.1:{server.port}/telegram/hook"
        headers = {SECRET_HEADER: secret_for(bot.tg.token)}
        async with aiohttp.ClientSession() as http:
            for body in (b"{", b"\xff\xfe", b"[" * 100_000, b"42", b"[]"):
                async with http.post(hook, data=body, headers=headers) as answer:
                    assert answer.status == 200
        assert bot.adapter.dropped.total == 5


@pytest.mark.parametrize("name", ["A\ud800li", "Ä" * 10_240])
async def test_hostile_names_are_cleaned_and_bounded_before_they_are_kept(
    tmp_path: Path, name: str
) -> None:
    """A lone surrogate in a first name (JSON can carry one as an escape) used to fail
    every update of that person with an ERROR; a 10 kB name was stored as it came."""
    async with running_bot(tmp_path / "rummy.sqlite3") as bot:
        bot.tg.add_user(CAROL, name, "carol")
        bot.tg.add_group(OTHER_GROUP, "Other night")
        with log_lines() as lines:
            await bot.start_private(CAROL)
            await bot.start_private(BOB)
            await bot.say(CAROL, OTHER_GROUP, "/new")
            await bot.say(BOB, OTHER_GROUP, "/join")
            assert lines.at_least(logging.ERROR) == []
        known = await bot.store.user(CAROL)
        assert known is not None and len(known.first_name) <= 64
        known.first_name.encode("utf-8")  # storable and sendable
        info = await bot.service.entry.table_info(chat_key(OTHER_GROUP, None))
        assert info is not None and len(info.seats) == 2
        seat = info.seats[0].name
        seat.encode("utf-8")
        assert len(seat) <= 32 and seat.startswith(name[:1])
        assert bot.adapter.dropped.total == 0
        assert any(seat in (m.text or "") for m in bot.tg.messages(OTHER_GROUP))


async def test_a_polling_task_that_ends_is_logged_and_started_again(tmp_path: Path) -> None:
    """Should PTB's polling task end while the adapter runs (here: cancelled), the
    adapter says so once and polls again after its back-off; commands are answered."""
    async with running_bot(tmp_path / "rummy.sqlite3", watch_every=0.05) as bot:
        dead = bot.adapter.polling_task()
        assert dead is not None
        with log_lines() as lines:
            dead.cancel()
            await bot.tg.wait_for(lambda: bot.adapter.restarts == 1, 5.0)
            again = bot.adapter.polling_task()
            assert again is not None and again is not dead and not again.done()
            await bot.start_private(ALICE)
            await bot.say(ALICE, GROUP, "/new")
            assert await bot.service.entry.table_info(chat_key(GROUP, None)) is not None
            ended = [m for m in lines.at_least(logging.ERROR) if "polling task ended" in m]
            assert len(ended) == 1
