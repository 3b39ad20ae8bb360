"""``/rummy replay`` (docs/replay.md): once a deal of the channel's game is over, or after
it, the Activity is launched (it replays the channel's ended game; during a game its page
has a Replay button); refused privately, in one line, while there is nothing to replay;
without the Activity, the table and how to replay a record are said privately."""

from __future__ import annotations

from pathlib import Path

from bot.ports.model import Status
from bot.ports.web_links import WebLinks
from tests.bot.discord.players import control
from tests.bot.discord.support import Bot, running_bot
from tests.fakes.discord.interactions import LAUNCH_ACTIVITY

WEB = WebLinks("https://rummy.example.org/web", discord=True)
MAX_TICKS = 2000


async def _finished(bot: Bot) -> int:
    """Alice and Bob start a one-deal game in #rummy and leave it to the AI; returns the
    table id once it is over."""
    w = bot.world
    await bot.slash(w.alice, w.text, "new", {"options": "deals=1"})
    table = bot.table_message(w.text)
    await bot.click(w.bob, table, control(table, "join"))
    await bot.click(w.alice, table, control(table, "start"))
    info = await bot.entry.table_info(bot.key(w.text))
    assert info is not None and info.status is Status.PLAYING
    early = await bot.slash(w.alice, w.text, "replay")
    assert early.original is not None and early.original.ephemeral
    assert early.original.content == (
        "No deal of that table is over yet; a deal can be replayed once it is."
    )
    await bot.slash(w.alice, w.text, "leave")
    await bot.slash(w.bob, w.text, "leave")
    for _tick in range(MAX_TICKS):
        if await bot.service.repo.active_table(bot.key(w.text)) is None:
            break
        await bot.tick()
    ended = await bot.entry.known_table(info.id)
    assert ended is not None and ended.status is Status.FINISHED
    return info.id


async def test_replay_launches_the_activity_once_there_is_a_game_to_replay(
    tmp_path: Path,
) -> None:
    async with running_bot(tmp_path, web=WEB) as bot:
        w = bot.world
        nothing = await bot.slash(w.alice, w.text, "replay")
        assert nothing.original is not None and nothing.original.ephemeral
        assert nothing.original.content == "There is no game of that table to replay."
        await _finished(bot)
        launched = await bot.slash(w.bob, w.text, "replay")
        assert launched.response_type == LAUNCH_ACTIVITY and launched.original is None


async def test_replay_without_the_activity_says_the_table_and_how_to_replay_it(
    tmp_path: Path,
) -> None:
    async with running_bot(tmp_path) as bot:
        table_id = await _finished(bot)
        said = await bot.slash(bot.world.alice, bot.world.text, "replay")
        assert said.response_type != LAUNCH_ACTIVITY
        assert said.original is not None and said.original.ephemeral
        assert said.original.content == (
            f"Table {table_id}: its game can be replayed, every hand shown.\n"
            "This bot has no web table to replay in; once the game is over, export its "
            "record (export) and step through it with rummy-bot replay FILE --step."
        )
