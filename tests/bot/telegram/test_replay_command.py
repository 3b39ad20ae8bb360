"""``/replay`` typed in a Telegram group or the private chat (docs/replay.md): the table
whose finished deals can be stepped through, answered with a button that opens the replay
in the web table (the Main Mini App link in the group, a ``web_app`` button privately);
refused in one line, in the person's language, while no deal is over; said how to replay a
record where the bot has no web table."""

from __future__ import annotations

from pathlib import Path

from bot.ports.model import Status
from bot.ports.web_links import WebLinks, replay_app_url, replay_link
from bot.telegram_bot.identity import chat_key
from tests.bot.telegram.game_driver import Driver, PrivacyCheck
from tests.bot.telegram.support import ALICE, BOB, GROUP, Bot, running_bot
from tests.fakes.telegram import FakeMessage

WEB = WebLinks("https://rummy.example.org/web", telegram=True)
MAX_STEPS = 600


def _answer_to(bot: Bot, chat: int, said: FakeMessage) -> FakeMessage:
    """The bot's answer to the message ``said`` in ``chat``."""
    [answer] = [m for m in bot.tg.messages(chat) if m.reply_to_id == said.message_id]
    return answer


async def _started(bot: Bot, deals: int = 1) -> int:
    """Alice and Bob start a game of ``deals`` deals in the group; returns its table id."""
    await bot.start_private(ALICE)
    await bot.start_private(BOB)
    await bot.say(ALICE, GROUP, f"/new deals={deals}")
    await bot.say(BOB, GROUP, "/join")
    await bot.say(ALICE, GROUP, "/start")
    info = await bot.service.entry.table_info(chat_key(GROUP, None))
    assert info is not None and info.status is Status.PLAYING
    return info.id


async def _played_out(bot: Bot, table_id: int) -> None:
    check = PrivacyCheck([GROUP], {ALICE: 0, BOB: 1})
    driver = Driver(bot, table_id, GROUP, check)
    check.note(await driver.table())
    for _step in range(MAX_STEPS):
        if not await driver.step():
            break
    assert (await driver.table()).status is Status.FINISHED


async def test_replay_in_the_group_and_privately_opens_the_web_replay(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "rummy.sqlite3", web=WEB) as bot:
        await bot.start_private(ALICE)
        nothing = await bot.say(ALICE, GROUP, "/replay")  # no table here yet
        refused = bot.tg.private_messages(ALICE)[-1].text or ""
        assert refused == "There is no game of that table to replay."
        assert not [m for m in bot.tg.messages(GROUP) if m.reply_to_id == nothing.message_id]
        table_id = await _started(bot)
        await bot.say(BOB, GROUP, "/replay")  # Bob's app speaks German; a refusal is private
        early = bot.tg.private_messages(BOB)[-1]
        assert early.text and early.text.startswith("An diesem Tisch ist noch keine Runde vorbei")
        assert not early.buttons
        await _played_out(bot, table_id)
        asked = await bot.say(ALICE, GROUP, "/replay")
        answer = _answer_to(bot, GROUP, asked)
        assert answer.text == f"Table {table_id}: its game can be replayed, every hand shown."
        assert [(b["text"], b.get("url")) for b in answer.buttons] == [
            ("Replay", replay_link(WEB, bot.tg.bot.username, table_id))
        ]
        german = _answer_to(bot, GROUP, await bot.say(BOB, GROUP, "/replay"))
        assert german.text and german.text.startswith(f"Tisch {table_id}:")
        assert [b["text"] for b in german.buttons] == ["Wiederholung"]
        # privately, with no game running: the person's last ended game
        await bot.say(ALICE, ALICE, "/replay")
        private = bot.tg.private_messages(ALICE)[-1]
        assert private.text == f"Table {table_id}: its game can be replayed, every hand shown."
        assert [(b["text"], b.get("web_app")) for b in private.buttons] == [
            ("Replay", {"url": replay_app_url(WEB, table_id)})
        ]
        # the table stays as it was
        info = await bot.service.entry.table_by_id(table_id)
        assert info is None or info.status is Status.FINISHED


async def test_replay_of_a_running_game_privately_once_a_deal_is_over(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "rummy.sqlite3", web=WEB) as bot:
        table_id = await _started(bot, deals=2)
        await bot.say(ALICE, ALICE, "/replay")
        assert bot.tg.private_messages(ALICE)[-1].text == (
            "No deal of that table is over yet; a deal can be replayed once it is."
        )
        check = PrivacyCheck([GROUP], {ALICE: 0, BOB: 1})
        driver = Driver(bot, table_id, GROUP, check)
        check.note(await driver.table())
        for _step in range(MAX_STEPS):
            table = await driver.table()
            if table.state is not None and table.state.results:
                break
            assert await driver.step()
        await bot.say(ALICE, ALICE, "/replay")
        offer = bot.tg.private_messages(ALICE)[-1]
        assert offer.text == f"Table {table_id}: the deals over so far can be replayed."
        assert [(b["text"], b.get("web_app")) for b in offer.buttons] == [
            ("Replay", {"url": replay_app_url(WEB, table_id)})
        ]


async def test_replay_without_a_web_table_says_how_to_replay_a_record(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "rummy.sqlite3") as bot:
        table_id = await _started(bot)
        await _played_out(bot, table_id)
        answer = _answer_to(bot, GROUP, await bot.say(ALICE, GROUP, "/replay"))
        assert answer.text == (
            f"Table {table_id}: its game can be replayed, every hand shown.\n"
            "This bot has no web table to replay in; once the game is over, export its "
            "record (export) and step through it with rummy-bot replay FILE --step."
        )
        assert not answer.buttons
