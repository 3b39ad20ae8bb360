"""Flow control on Discord: over the limit, a click or a slash command is answered only to
the person (ephemeral) and changes nothing; the same refusal is not repeated."""

from __future__ import annotations

from pathlib import Path

from bot.service.flow import FlowControl
from tests.bot.discord.players import control
from tests.bot.discord.support import running_bot


async def test_clicks_and_commands_over_the_limit_are_refused_privately(tmp_path: Path) -> None:
    async with running_bot(tmp_path) as bot:
        w = bot.world
        await bot.slash(w.alice, w.text, "new")
        table = bot.table_message(w.text)
        bot.service.flow = FlowControl(user_rate=(2, 600.0), chat_rate=(1000, 1.0))
        await bot.click(w.bob, table, control(table, "join"))
        await bot.slash(w.carol, w.text, "join")
        await bot.slash(w.carol, w.text, "rules")  # two tokens used: carol is out now
        again = await bot.slash(w.carol, w.text, "join")
        assert again.original is not None and again.original.ephemeral
        assert "Slow down" in again.original.content
        info = await bot.entry.table_info(bot.key(w.text))
        assert info is not None
        assert [s.user for s in info.seats].count(f"discord:{w.carol.id}") == 1
        # a click over the limit: acknowledged silently the second time
        await bot.click(w.bob, table, control(table, "leave"))
        over = await bot.click(w.bob, table, control(table, "leave"))
        assert over.original is not None and over.original.ephemeral
        assert "Langsamer" in over.original.content  # in Bob's language
        silent = await bot.click(w.bob, table, control(table, "leave"))
        assert silent.original is None or "Langsamer" not in silent.original.content
        info = await bot.entry.table_info(bot.key(w.text))
        assert info is not None and f"discord:{w.bob.id}" not in [s.user for s in info.seats]
