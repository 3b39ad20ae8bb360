"""Telegram out of reach for a moment (a timeout, a 502): a group message that failed is
sent again after a pause (:data:`bot.telegram_bot.outbox.RETRY_DELAYS`), so a turn ping is
not lost to a network blip and a slow game never waits for a person nobody told; a
message that keeps failing is given up (logged), and the next change draws the table
again."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.telegram_bot import outbox
from bot.telegram_bot.identity import chat_key
from tests.bot.telegram.support import BOB, CARL, GROUP, Bot

PING = "it is your turn."


def _to_group(method: str, sent: str) -> Any:
    def matches(called: str, params: dict[str, Any]) -> bool:
        return (
            called == method
            and str(params.get("chat_id")) == str(GROUP)
            and sent in str(params.get("text", ""))
        )

    return matches


async def _until(check: Any, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("not in time")


@pytest.fixture(autouse=True)
def short_pauses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(outbox, "RETRY_DELAYS", (0.2, 0.4, 0.8))


async def _started(bot: Bot) -> None:
    await bot.start_private(CARL)
    await bot.start_private(BOB)
    await bot.say(CARL, GROUP, "/new")
    await bot.say(BOB, GROUP, "/join")


async def test_a_turn_ping_refused_by_a_bad_gateway_is_sent_again(bot: Bot) -> None:
    await _started(bot)
    blip = bot.tg.outage(_to_group("sendmessage", PING), times=2)
    await bot.say(CARL, GROUP, "/start")

    def pinged() -> list[Any]:
        return [m for m in bot.tg.messages(GROUP) if (m.text or "").endswith(PING)]

    await _until(lambda: len(pinged()) == 1)
    assert len(blip.failed) == 2  # Telegram refused it twice; the third try went out
    await asyncio.sleep(1.0)
    assert len(pinged()) == 1  # once
    queue = bot.adapter._outbox
    assert (queue.retried, queue.given_up) == (2, 0)


async def test_a_table_edit_that_keeps_failing_is_given_up_and_the_next_change_draws_it(
    bot: Bot,
) -> None:
    await _started(bot)
    await bot.say(CARL, GROUP, "/start")
    table = await bot.repo.active_table(chat_key(GROUP, None))
    assert table is not None and table.state is not None
    mover = (CARL, BOB)[table.state.current]
    row = await bot.store.table_message(table.id)
    assert row is not None
    down = bot.tg.outage(
        lambda method, params: (
            method == "editmessagetext" and params.get("message_id") == row.message_id
        ),
        times=4,
    )
    await bot.say(mover, GROUP, "/draw")
    queue = bot.adapter._outbox
    await _until(lambda: queue.given_up == 1)
    assert len(down.failed) == 4 and queue.retried == 3
    shown = await bot.store.table_message(table.id)
    assert shown is not None and shown.version < table.version + 1  # not drawn: given up
    drawn = await bot.repo.active_table(chat_key(GROUP, None))
    assert drawn is not None and drawn.state is not None
    await bot.say(mover, GROUP, f"/discard {drawn.state.hands[drawn.state.current][0]}")
    final = await bot.repo.active_table(chat_key(GROUP, None))
    assert final is not None
    await bot.settle()
    again = await bot.store.table_message(table.id)
    assert again is not None and again.version == final.version
