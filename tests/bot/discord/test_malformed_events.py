"""Issue 39, item 1 on Discord: INTERACTION_CREATE events that do not parse, pushed through
the fake gateway into the real discord.py client (no ``type``; a component click without
``data``; a non-numeric ``id``; and more), are dropped and logged once per kind; a normal
``/rummy new`` in another channel right after them is answered within a second, and the
client's task keeps running. A client whose task ends all the same is logged and
replaced by a new one."""

from __future__ import annotations

import copy
import logging
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.bot.discord.players import control
from tests.bot.discord.support import TIMEOUT, Bot, running_bot

ANSWER_WITHIN = 1.0  # seconds: the issue's bound for a command after a flood

Payload = dict[str, Any]


def _no_type(p: Payload) -> None:
    del p["type"]


def _no_data(p: Payload) -> None:
    del p["data"]


def _id_not_a_number(p: Payload) -> None:
    p["id"] = "not-a-number"


def _data_a_string(p: Payload) -> None:
    p["data"] = "click"


def _no_custom_id(p: Payload) -> None:
    del p["data"]["custom_id"]


def _no_member_nor_user(p: Payload) -> None:
    p.pop("member", None)
    p.pop("user", None)


def _channel_not_a_number(p: Payload) -> None:
    p["channel_id"] = "general"


def _no_message(p: Payload) -> None:
    del p["message"]


def _values_a_string(p: Payload) -> None:
    p["data"]["values"] = "0"
    p["data"]["component_type"] = 3


def _unknown_type(p: Payload) -> None:
    p["type"] = 99


def _user_id_not_a_number(p: Payload) -> None:
    p["member"]["user"]["id"] = "alice"


def _locale_a_number(p: Payload) -> None:
    p["locale"] = 7


def _component_type_missing(p: Payload) -> None:
    del p["data"]["component_type"]


def _message_not_an_object(p: Payload) -> None:
    p["message"] = "table"


#: Malformed shapes of a real component click; the first three are the issue's.
SHAPES: dict[str, Callable[[Payload], None]] = {
    "no type": _no_type,
    "component click without data": _no_data,
    "id not a number": _id_not_a_number,
    "data a string": _data_a_string,
    "no custom_id": _no_custom_id,
    "no member nor user": _no_member_nor_user,
    "channel_id not a number": _channel_not_a_number,
    "no message": _no_message,
    "values a string": _values_a_string,
    "unknown type": _unknown_type,
    "user id not a number": _user_id_not_a_number,
    "locale a number": _locale_a_number,
    "no component_type": _component_type_missing,
    "message not an object": _message_not_an_object,
}
ISSUE = ("no type", "component click without data", "id not a number")


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextmanager
def log_lines() -> Iterator[_Lines]:
    """Warnings and errors of the adapter, the service and discord.py."""
    handler = _Lines()
    loggers = [logging.getLogger("bot"), logging.getLogger("discord")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


async def a_real_click(bot: Bot) -> Payload:
    """The payload of Bob's click on Join under Alice's table message in #rummy."""
    w = bot.world
    await bot.slash(w.alice, w.text, "new")
    table = bot.table_message(w.text)
    clicked = await bot.click(w.bob, table, control(table, "join"))
    return copy.deepcopy(clicked.payload)


def forged(bot: Bot, real: Payload) -> Payload:
    """A copy of ``real`` with an id and a token of its own, which Discord never issued:
    answering it fails as answering a forged interaction does (404, unknown)."""
    payload = copy.deepcopy(real)
    payload["id"] = str(bot.server.world.ids.next())
    payload["token"] = "forged." + secrets.token_urlsafe(24)
    return payload


def client_alive(bot: Bot) -> bool:
    task, client = bot.adapter.task, bot.adapter.client
    return task is not None and not task.done() and client is not None and not client.is_closed()


async def test_malformed_interactions_never_silence_discord(tmp_path: Path) -> None:
    async with running_bot(tmp_path) as bot:
        w = bot.world
        real = await a_real_click(bot)
        table = await bot.service.repo.active_table(bot.key(w.text))
        assert table is not None
        with log_lines() as lines:
            said: dict[str, list[str]] = {}
            for name, change in SHAPES.items():
                before = len(lines.messages)
                for _ in range(2):
                    payload = forged(bot, real)
                    change(payload)
                    await bot.server.gateway.dispatch("INTERACTION_CREATE", payload)
                    await bot.idle()
                    assert client_alive(bot), name
                said[name] = lines.messages[before:]
            started = time.monotonic()
            command = await bot.server.slash(w.carol, w.thread, "rummy", {}, subcommand="new")
            await command.wait_response(ANSWER_WITHIN)
            took = time.monotonic() - started
            await bot.settled(command)
        print(
            f"\n/rummy new after {2 * len(SHAPES)} malformed interactions: answered in "
            f"{took * 1000:.0f} ms; log lines: {sum(map(len, said.values()))}"
        )
        assert client_alive(bot) and bot.adapter.restarts == 0
        assert await bot.service.repo.active_table(bot.key(w.thread)) is not None
        for name in SHAPES:  # at most one line per kind: the second one is counted only
            assert len(said[name]) <= 1, (name, said[name])
        for name in ISSUE:
            assert len(said[name]) == 1 and "dropped an input" in said[name][0], (name, said[name])
        after = await bot.service.repo.active_table(bot.key(w.text))
        assert after is not None and after.version == table.version  # nothing applied


async def test_a_client_whose_task_ends_is_replaced_by_a_new_one(tmp_path: Path) -> None:
    """What the guard cannot catch (here: the gateway's zlib stream broken, which ends
    discord.py's read loop) ends the client's task; the adapter logs it once, connects a
    new client and commands are answered again."""
    async with running_bot(tmp_path) as bot:
        w = bot.world
        old = bot.adapter.client
        identified = bot.server.gateway.identify_count
        with log_lines() as lines:
            for connection in list(bot.server.gateway.connections):
                await connection.ws.send_bytes(b"\x00not zlib\xff" * 4 + b"\x00\x00\xff\xff")
            await bot.server.wait_until(lambda: bot.adapter.restarts == 1, 3 * TIMEOUT)
        assert bot.adapter.client is not old and client_alive(bot)
        assert bot.server.gateway.identify_count == identified + 1
        assert len([m for m in lines.messages if "the client stopped" in m]) == 1
        await bot.slash(w.alice, w.text, "new")
        assert await bot.service.repo.active_table(bot.key(w.text)) is not None
