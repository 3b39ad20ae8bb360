"""What one press costs on Telegram, counted through the fake Bot API and a SQLite file
(:mod:`tests.bot.press_counts`): a lobby press (Join under the table message), a typed move
(``/draw`` in the group) and a hand-move press (the Discard offer on the private hand
message). Each press loads its table at most once, commits at most once, calls the engine
at most once, and answers the presser (``answerCallbackQuery``) before any other message
is sent or edited. ``pytest -s`` prints the figures.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.telegram_bot.identity import chat_key
from tests.bot.press_counts import CountingCompute, PressCount
from tests.bot.telegram.support import (
    ALICE,
    BOB,
    CARL,
    GROUP,
    Bot,
    button,
    group_button,
    hand_button,
    running_bot,
)

MESSAGE_STATE = re.compile(
    r"\btelegram_(table_messages|hand_messages|chats|users)\b", re.IGNORECASE
)
CHANGES_A_MESSAGE = ("sendMessage", "editMessageText", "deleteMessage", "editMessageReplyMarkup")


class Counter:
    """Counts one press at a time on ``bot``."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.statements: list[str] = []
        self.compute = CountingCompute(bot.service.compute)
        bot.service.compute = self.compute
        self.counts: list[PressCount] = []

    async def install(self) -> None:
        await self.bot.db.conn.set_trace_callback(self.statements.append)

    async def press(
        self, name: str, presser: int, act: Callable[[], Awaitable[object]]
    ) -> PressCount:
        await self.bot.settle()
        self.statements.clear()
        self.compute.calls.clear()
        first_call = len(self.bot.tg.calls)
        await act()
        await self.bot.settle()
        await asyncio.sleep(0.05)  # nothing more may arrive late
        await self.bot.settle()
        count = PressCount(name, MESSAGE_STATE, list(self.statements), list(self.compute.calls))
        for call in self.bot.tg.calls[first_call:]:
            if call.method == "answerCallbackQuery":
                count.answer_at = len(count.calls)
                count.calls.append("answerCallbackQuery")
            elif call.method in CHANGES_A_MESSAGE:
                chat = call.params.get("chat_id")
                own = str(chat) == str(presser)
                where = (
                    "own private message"
                    if own
                    else "group"
                    if str(chat).startswith("-")
                    else "another's private message"
                )
                if not own and count.first_other_at is None:
                    count.first_other_at = len(count.calls)
                count.calls.append(f"{call.method} ({where})")
        self.counts.append(count)
        return count


async def test_one_press_loads_once_commits_once_computes_once_and_answers_first(
    tmp_path: Path,
) -> None:
    async with running_bot(tmp_path / "rummy.sqlite3") as bot:
        counter = Counter(bot)
        await counter.install()
        for user in (ALICE, BOB, CARL):
            await bot.start_private(user)
        await bot.say(ALICE, GROUP, "/new deals=1")
        await bot.say(BOB, GROUP, "/rules")  # Bob has been seen: his name is stored
        info = await bot.service.entry.table_info(chat_key(GROUP, None))
        assert info is not None
        table = await bot.table_message(info.id)

        join = await counter.press(
            "Join (lobby button)", BOB, lambda: bot.press(BOB, table, group_button(table, "j"))
        )
        await bot.press(ALICE, table, group_button(table, "s"))
        stored = await bot.repo.active_table(info.key)
        assert stored is not None and stored.state is not None
        first, other = (ALICE, BOB) if stored.state.current == 0 else (BOB, ALICE)

        draw = await counter.press(
            "/draw (typed in the group)", first, lambda: bot.say(first, GROUP, "/draw")
        )
        hand = await bot.hand_message(first, info.id)
        card = next(b for b in hand.buttons if b.get("text") not in ("Sort", "Hint"))
        toggle = await counter.press(
            "Toggle a card (hand message)",
            first,
            lambda: bot.press(first, hand, str(card["callback_data"])),
        )
        hand = await bot.hand_message(first, info.id)
        offer = button(hand, "Discard")
        before = await bot.repo.active_table(info.key)
        assert before is not None and before.state is not None

        discard = await counter.press(
            "Discard (hand message offer)", first, lambda: bot.press(first, hand, offer)
        )
        after = await bot.repo.active_table(info.key)
        assert after is not None and after.version == before.version + 1
        assert after.state is not None and after.state.current != before.state.current
        assert (await bot.hand_message(other, info.id)).text is not None
        assert hand_button(await bot.hand_message(first, info.id), "r")

    print("\nTelegram press counts (SQLite):")
    for count in counter.counts:
        print("  " + count.line())
    for count in (join, draw, discard):
        assert count.table_loads <= 1, count.line() + "\n" + "\n".join(count.statements)
        # Join also counts the person's active tables (the per-person limit)
        assert count.other_table_reads <= (1 if count is join else 0), count.line()
        assert count.other_transactions == [], count.line()
        assert count.game_commits == 1, count.line()
        assert len(count.engine) <= 1, count.line()
    # A button is answered before anything else is drawn, and the others are shown the
    # change (a draw inside a turn waits for the turn's end: one group edit a turn).
    for count in (join, discard):
        assert count.answer_at is not None and count.first_other_at is not None, count.line()
        assert count.answer_at < count.first_other_at, count.line()
    # Each seat's screen is drawn once for the change, the presser's first (by the
    # notifier, after the answer): their hand message, then the other's, whose turn began.
    privates = [c for c in discard.calls if "private message" in c]
    assert privates == [
        "editMessageText (own private message)",
        "editMessageText (another's private message)",
    ], discard.line()
    assert discard.engine == ["press_offer"], discard.line()
    # A card toggled is drawn from the seat screen the adapter was shown: no table load,
    # no engine call, no commit (issue 44: "a toggle loads no table on any platform").
    assert toggle.table_loads == 0 and toggle.game_commits == 0, toggle.line()
    assert toggle.engine == [], toggle.line()
    assert toggle.calls == ["answerCallbackQuery", "editMessageText (own private message)"], (
        toggle.line()
    )
    assert draw.engine == ["apply_move"], draw.line()
