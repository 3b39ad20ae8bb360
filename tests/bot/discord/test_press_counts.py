"""What one press costs on Discord, counted through the fake Discord and a SQLite file:
a lobby press (Join), a typed move (``/rummy play command:draw``) and a hand-move press
(Discard from the hand message's moves select).

Counted per press: the SQL statements SQLite ran (its trace callback), among them the
loads of the table (``SELECT * FROM tables WHERE id|chat_key = ...``), other queries of
the tables, the write transactions of the game (the commit) and other writes, and, apart,
the adapter's message state (``discord_table_messages``); the engine worker calls (the
service's compute, wrapped); and the Discord API calls that change a message, in the
order the fake Discord received them. Each press loads its table at most once, commits
at most once, calls the engine at most once, and answers the presser before any other
message is drawn. ``pytest -s`` prints the figures.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

from tests.bot.discord.players import action_of, component, control
from tests.bot.discord.support import Bot, running_bot
from tests.bot.press_counts import CountingCompute, PressCount
from tests.fakes.discord import FakeInteraction, FakeUser

MESSAGE_STATE = re.compile(r"\bdiscord_table_messages\b", re.IGNORECASE)
CHANGES_A_MESSAGE = ("POST", "PATCH", "DELETE")


class Counter:
    """Counts one press at a time on ``bot``."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.statements: list[str] = []
        self.compute = CountingCompute(bot.service.compute)
        bot.service.compute = self.compute
        self.counts: list[PressCount] = []
        self.interactions: list[FakeInteraction] = []

    async def install(self) -> None:
        await self.bot.db.conn.set_trace_callback(self.statements.append)

    async def press(
        self, name: str, user: FakeUser, act: Callable[[], Awaitable[FakeInteraction]]
    ) -> PressCount:
        await self.bot.idle()
        self.statements.clear()
        self.compute.calls.clear()
        first_call = len(self.bot.server.calls)
        interaction = await act()
        await self.bot.idle()
        await asyncio.sleep(0.05)  # nothing more may arrive late
        await self.bot.idle()
        count = PressCount(name, MESSAGE_STATE, list(self.statements), list(self.compute.calls))
        for call in self.bot.server.calls[first_call:]:
            if call.method not in CHANGES_A_MESSAGE:
                continue
            own = str(interaction.id) in call.path or interaction.token in call.path
            if own and call.path.endswith("/callback"):
                label = f"answer (callback type {call.json.get('type')})"
                count.answer_at = len(count.calls)
            elif own:
                label = f"{call.method} own answer"
            else:
                label = f"{call.method} {_kind(call.path)}"
                if count.first_other_at is None:
                    count.first_other_at = len(count.calls)
            count.calls.append(label)
        self.counts.append(count)
        self.interactions.append(interaction)
        assert user is interaction.user
        return count


def _kind(path: str) -> str:
    if path.startswith("/webhooks/"):
        return "hand message (webhook)"
    if re.fullmatch(r"/channels/\d+/messages", path):
        return "channel message (new)"
    return "channel message"


async def test_one_press_loads_once_commits_once_computes_once_and_answers_first(
    tmp_path: Path,
) -> None:
    async with running_bot(tmp_path) as bot:
        w = bot.world
        counter = Counter(bot)
        await counter.install()
        await bot.slash(w.alice, w.text, "new", {"options": "deals=1"})
        await bot.slash(w.bob, w.text, "rules")  # bob has been seen: his name is stored
        table = bot.table_message(w.text)

        join = await counter.press(
            "Join (lobby button)", w.bob, lambda: bot.click(w.bob, table, control(table, "join"))
        )

        await bot.click(w.alice, table, control(table, "start"))
        stored = await bot.service.repo.active_table(bot.key(w.text))
        assert stored is not None and stored.state is not None
        first, other = (w.alice, w.bob) if stored.state.current == 0 else (w.bob, w.alice)
        # The other player keeps a hand message open: it is redrawn when their turn begins.
        shown = await bot.click(other, table, control(table, "hand"))
        assert shown.original is not None and shown.original.viewer is other

        draw = await counter.press(
            "/rummy play command:draw (typed move)",
            first,
            lambda: bot.slash(first, w.text, "play", {"command": "draw"}),
        )
        hand = counter.interactions[-1].original
        assert hand is not None and hand.viewer is first
        assert "c0" in [action_of(c) for c in hand.custom_ids()]
        cards = component(hand, control(hand, "c0"))["options"]
        pick = await counter.press(
            "Pick a card (hand message's cards select)",
            first,
            lambda: bot.select(first, hand, control(hand, "c0"), [cards[0]["value"]]),
        )
        moves = component(hand, control(hand, "mv"))["options"]
        assert len(moves) == 1, moves  # the discard of the selected card
        before = await bot.service.repo.active_table(bot.key(w.text))
        assert before is not None

        discard = await counter.press(
            "Discard (hand message's moves select)",
            first,
            lambda: bot.select(first, hand, control(hand, "mv"), [moves[0]["value"]]),
        )
        after = await bot.service.repo.active_table(bot.key(w.text))
        assert after is not None and after.version == before.version + 1
        assert after.state is not None and after.state.current != before.state.current

    print("\nDiscord press counts (SQLite):")
    for count in counter.counts:
        print("  " + count.line())
    for count in (join, draw, discard):
        assert count.table_loads <= 1, count.line() + "\n" + "\n".join(count.statements)
        # Join also counts the person's active tables (the service's per-person limit,
        # MAX_TABLES_PER_USER) and stores their name again in a transaction of its own.
        assert count.other_table_reads <= (1 if count is join else 0), count.line()
        assert len(count.other_transactions) <= (1 if count is join else 0), count.line()
        assert count.game_commits <= 1, count.line()
        assert len(count.engine) <= 1, count.line()
        assert count.answer_at is not None, count.line()
        assert count.first_other_at is None or count.answer_at < count.first_other_at, count.line()
    for count in (join, draw, discard):  # each press changed the table and was drawn
        assert count.game_commits == 1 and count.first_other_at is not None, count.line()
    # A card picked is drawn from the seat screen the adapter was shown: no table load, no
    # engine call (issue 44: "a toggle loads no table on any platform").
    assert pick.table_loads == 0 and pick.game_commits == 0 and pick.engine == [], pick.line()
    assert pick.calls == ["answer (callback type 7)"], pick.line()
    # Each seat's screen is drawn once for the change: the presser's hand message by the
    # interaction's answer (type 7), the other player's, whose turn began, once through
    # its anchor's token, after the answer.
    assert discard.calls.count("answer (callback type 7)") == 1, discard.line()
    assert not any(c.endswith("own answer") for c in discard.calls), discard.line()
    assert sum("hand message (webhook)" in c for c in discard.calls) == 1, discard.line()
