"""A whole game on Telegram: two people and one AI seat, played to the end through the
real PTB stack against the fake Bot API server, with every move made by button presses
or typed commands, and privacy checked after every step."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.ports.model import Status
from bot.telegram_bot.identity import chat_key
from tests.bot.backends import BACKENDS, database_url
from tests.bot.telegram.game_driver import Driver, PrivacyCheck, versions_of
from tests.bot.telegram.support import (
    ALICE,
    BOB,
    GROUP,
    Bot,
    group_button,
    running_bot,
    url_buttons,
)

MAX_STEPS = 600


@pytest.fixture(params=BACKENDS)
async def bot(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Bot]:
    """The adapter long-polling a fake Telegram, with a service on SQLite and on
    PostgreSQL (every group command starts with the message store's chat upsert)."""
    url = database_url(request, request.param)
    async with running_bot(tmp_path / "rummy.sqlite3", database_url=url) as running:
        yield running


@pytest.mark.parametrize("options", ["deals=1", "deals=2 jokers=2"])
async def test_two_people_and_an_ai_play_a_game_to_the_end(bot: Bot, options: str) -> None:
    started = time.perf_counter()
    # fair deals (docs/fairness.md), from a fixed key so the game is the same every run
    bot.service.lobby.fair_key_source = lambda: bytes(range(32))
    bot.service.coaching.enabled = True  # both play their first game: both are coached
    await bot.start_private(ALICE)
    await bot.say(ALICE, GROUP, f"/new {options}")
    info = await bot.service.entry.table_info(chat_key(GROUP, None))
    assert info is not None
    table = await bot.table_message(info.id)

    # Bob never opened the bot: Join sends him to the private chat first.
    answer = await bot.press(BOB, table, group_button(table, "j"))
    assert answer.url == f"https://t.me/{bot.tg.bot.username}?start=t{info.id}"
    assert url_buttons(table) == [answer.url]
    assert [s.name for s in (await bot.service.entry.table_info(info.key)).seats] == ["Alice"]
    await bot.start_private(BOB, answer.url.rsplit("=", 1)[1])
    assert url_buttons(table) == []
    await bot.press(ALICE, table, group_button(table, "a"))
    await bot.press(ALICE, table, group_button(table, "s"))
    info = await bot.service.entry.table_info(info.key)
    assert info is not None and [s.name for s in info.seats] == ["Alice", "Bob", "Ada"]

    check = PrivacyCheck([GROUP], {ALICE: 0, BOB: 1})
    driver = Driver(bot, info.id, GROUP, check)
    check.note(await driver.table())
    check.scan(bot)
    steps = 0
    while await driver.step():
        steps += 1
        assert steps < MAX_STEPS, "the game did not end"

    final = await driver.table()
    assert final.status is Status.FINISHED and final.ended_reason == "over"
    # the coach's word on each deal, in each person's private chat and language (issue 46)
    await bot.service.coaching.settled()
    check.scan(bot)  # the coach names no card the person could not see
    deals = len(final.state.results) if final.state is not None else 0
    for user, word in ((ALICE, "Deal"), (BOB, "Runde")):
        notes = [m.text or "" for m in bot.tg.private_messages(user)]
        for deal in range(1, deals + 1):
            assert any(t.startswith(f"{word} {deal}, ") for t in notes), (user, notes[-3:])
    # every deal's secret, never shown before its end, is revealed in the group afterwards
    assert final.state is not None and len(check.revealed) == len(final.state.results)
    shown = "\n".join(
        t for m in bot.tg.messages(GROUP, include_deleted=True) for t in versions_of(m)
    )
    assert all(secret in shown for secret in check.revealed), check.revealed
    table = await bot.table_message(info.id)
    assert "Game over" in (table.text or "") and table.buttons == []
    for user in (ALICE, BOB):
        hand = await bot.hand_message(user, info.id)
        assert hand.buttons == []
    # The finished game is rated (docs/ratings.md); /stats says so, with the change.
    asked = await bot.say(BOB, BOB, "/stats")
    [stats] = [m for m in bot.tg.private_messages(BOB) if m.message_id > asked.message_id]
    assert stats.text is not None and stats.text.startswith("Bob: 1 Spiele")  # Bob reads German
    assert "Einfaches Rommé: Wertung " in stats.text
    assert "(1 gewertete Partie, letzte Partie " in stats.text
    asked = await bot.say(ALICE, GROUP, "/top")
    [top] = [m for m in bot.tg.messages(GROUP) if m.message_id > asked.message_id]
    assert (top.text or "").startswith(
        "Nobody has 3 rated games of Basic Rummy in season 1 yet.\nBest players here:"
    )
    sent = [c for c in bot.tg.calls if c.method in ("sendMessage", "editMessageText")]
    group = Counter(c.method for c in sent if c.params["chat_id"] < 0)
    private = Counter(c.method for c in sent if c.params["chat_id"] > 0)
    calls = Counter(c.method for c in bot.tg.calls if c.method != "getUpdates")
    print(
        f"\nfull game ({options}): {time.perf_counter() - started:.1f} s, {steps} steps, "
        f"{driver.moves} human moves ({driver.button_moves} by buttons, "
        f"{driver.typed_moves} typed, {driver.offers_pressed} offers pressed, "
        f"{driver.next_deals} next deals); "
        f"group: {group['sendMessage']} messages sent, {group['editMessageText']} edits; "
        f"private: {private['sendMessage']} sent, {private['editMessageText']} edits; "
        f"{check.group_versions} group and {check.private_versions} private message "
        f"versions checked; all Bot API calls but getUpdates: {dict(calls)}"
    )
    assert driver.button_moves and driver.typed_moves
