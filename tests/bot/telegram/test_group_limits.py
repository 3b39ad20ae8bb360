"""The table message at Telegram's group limit: never more than one turn behind the game.

Telegram allows about 20 calls a minute in a group. Time is scaled down 20 times here
(20 calls per 3 s through the group budget every worker shares,
:mod:`bot.telegram_bot.group_budget`, AI moves 0.075 s apart instead of
1.5 s, a person's action 0.15 s instead of 3 s) so a 4-seat game (two people, two AI
seats) runs into the limit in seconds. After
every step the test compares the version the group message shows with the stored one
and counts the turns between them (seat changes in the action log): at most one.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from pathlib import Path

from telegram.ext import AIORateLimiter

from bot.ports.model import Status, TableSettings, UserRef
from bot.service.errors import NoTable
from bot.telegram_bot.identity import chat_key
from tests.bot.telegram.support import GROUP, Bot, running_bot, table_view, two_people_two_ais

SCALE = 20.0
GROUP_CALLS = 20
GROUP_PERIOD = 60.0 / SCALE
AI_DELAY = 1.5 / SCALE
PERSON_DELAY = 3.0 / SCALE
"""A person's action takes 3 s (reading the hand, pressing): twice an AI seat's pause."""


async def _turns_behind(bot: Bot, table_id: int) -> int:
    """Turns between the version the group message shows and the stored version."""
    row = await bot.store.table_message(table_id)
    table = await bot.repo.get_table(table_id)
    assert table is not None
    shown = row.version if row is not None else 0
    log = await bot.repo.action_log(table_id)
    seats = [entry.seat for entry in log if shown < entry.version <= table.version]
    turns = 0
    previous = None
    for seat in seats:
        if seat != previous:
            turns += 1
            previous = seat
    # the first seat of the unseen stretch may be the turn the message already shows
    shown_seat = next((e.seat for e in reversed(log) if e.version <= shown), None)
    if seats and seats[0] == shown_seat:
        turns -= 1
    return turns


async def test_the_table_message_stays_within_a_turn_at_the_group_limit(tmp_path: Path) -> None:
    limiter = AIORateLimiter(overall_max_rate=0, group_max_rate=0)  # the shared budget only
    settings = TableSettings(timer="off", ai_delay=AI_DELAY, next_deal_delay=AI_DELAY)
    async with running_bot(
        tmp_path / "rummy.sqlite3",
        settings=settings,
        rate_limiter=limiter,
        group_budget=GROUP_CALLS,
        group_period=GROUP_PERIOD,
    ) as bot:
        people = await two_people_two_ais(bot)
        key = chat_key(GROUP, None)
        info = await bot.service.entry.table_info(key)
        assert info is not None
        table_id = info.id
        worst = 0
        steps = 0
        started = time.monotonic()
        while steps < 400:
            try:
                info, view = await table_view(bot, key)
            except NoTable:  # the game ended
                break
            if info.status is not Status.PLAYING or view is None or view.current is None:
                break
            user = info.seats[view.current].user
            if user in people:
                ref = UserRef("telegram", str(people[user]), "")
                commands = await bot.service.entry.legal_commands(key, ref)
                move = (
                    "draw"
                    if "draw" in commands
                    else next((c for c in commands if c.startswith("discard")), None)
                )
                if move is None:  # the move sent last has just been made: look again
                    await asyncio.sleep(PERSON_DELAY)
                    continue
                await asyncio.sleep(PERSON_DELAY)
                bot.tg.send_text(people[user], GROUP, f"/{move}")
            else:
                bot.clock.advance(AI_DELAY)
                await bot.service.tick()
                await asyncio.sleep(AI_DELAY)
            worst = max(worst, await _turns_behind(bot, table_id))
            steps += 1
        await bot.settle()
        calls = [
            c
            for c in bot.tg.calls
            if str(c.params.get("chat_id")) == str(GROUP)
            and c.method.lower() in ("sendmessage", "editmessagetext")
        ]
        elapsed = time.monotonic() - started
        kinds = Counter(c.method.lower() for c in calls)
        print(
            f"\n{steps} steps in {elapsed:.1f} s, {kinds['editmessagetext']} edits and "
            f"{kinds['sendmessage']} pings in the group "
            f"({len(calls) / elapsed * 60 / SCALE:.1f} a minute at Telegram's time), "
            f"the table message at most {worst} turn(s) behind"
        )
        assert steps > 40  # the game ran into the limit, not around it
        assert len(calls) > GROUP_CALLS
        # the budget's bound: 20 at once, then 20 per period (one call of slack for the
        # moment between taking the token and the fake recording the call)
        first = calls[0].began
        over = [
            (n, round(c.began - first, 2))
            for n, c in enumerate(calls, 1)
            if n > GROUP_CALLS + (c.began - first) * GROUP_CALLS / GROUP_PERIOD + 1
        ]
        assert over == []
        assert worst <= 1
        assert await _turns_behind(bot, table_id) == 0  # and catches up
