"""Issue 39, item 3 through the platforms: a table whose stored row is damaged is said
once in its chat — a Telegram group, a Discord channel — in the table's language, at the
first command that finds it; the commands after it get the refusal and the chat nothing
more."""

from __future__ import annotations

from pathlib import Path

DAMAGED_SEATS = 'UPDATE tables SET seats = \'[{"kind": "human", "na\' WHERE id = ?'
GERMAN = "lässt sich nicht laden; der Betreiber des Bots weiß Bescheid"


async def test_the_telegram_group_is_told_once_in_its_language(tmp_path: Path) -> None:
    from bot.telegram_bot.identity import chat_key
    from tests.bot.telegram.support import ALICE, BOB, GROUP, running_bot

    async with running_bot(tmp_path / "rummy.sqlite3") as bot:
        for user in (ALICE, BOB):
            await bot.start_private(user)
        await bot.say(ALICE, GROUP, "/new")
        await bot.say(ALICE, GROUP, "/set lang=de")
        await bot.say(BOB, GROUP, "/join")
        await bot.say(ALICE, GROUP, "/start")
        table = await bot.repo.active_table(chat_key(GROUP, None))
        assert table is not None
        await bot.db.conn.execute(DAMAGED_SEATS, (table.id,))
        for user in (ALICE, BOB, ALICE):
            await bot.say(user, GROUP, "/hand")
        said = [m for m in bot.tg.messages(GROUP) if GERMAN in (m.text or "")]
        told = [m.text for m in said if m.reply_to_id is None]  # to the group: once
        assert told == [f"Dieser Tisch (#{table.id}) {GERMAN}."]
        assert all(m.reply_to_id is not None for m in said if m.text not in told)
        assert {row["table_id"] for row in await bot.repo.faults()} == {table.id}


async def test_the_discord_channel_is_told_once_in_its_language(tmp_path: Path) -> None:
    from tests.bot.discord.players import control
    from tests.bot.discord.support import running_bot

    async with running_bot(tmp_path) as bot:
        w = bot.world
        await bot.slash(w.alice, w.text, "new")
        await bot.slash(w.alice, w.text, "settings", {"name": "lang", "value": "de"})
        table = bot.table_message(w.text)
        await bot.click(w.bob, table, control(table, "join"))
        await bot.click(w.alice, table, control(table, "start"))
        stored = await bot.service.repo.active_table(bot.key(w.text))
        assert stored is not None
        await bot.db.conn.execute(DAMAGED_SEATS, (stored.id,))
        for user in (w.alice, w.bob):
            refused = await bot.slash(user, w.text, "hand")
            assert refused.original is not None and f"#{stored.id}" in refused.original.content
        told = [m.content for m in bot.server.channel_messages(w.text) if GERMAN in m.content]
        assert told == [f"Dieser Tisch (#{stored.id}) {GERMAN}."]
