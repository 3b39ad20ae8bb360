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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.bot.discord.players import action_of, component, control
from tests.bot.discord.support import Bot, running_bot
from tests.fakes.discord import FakeInteraction, FakeUser

TABLES_READ = re.compile(r"^\s*SELECT\b.*\bFROM\s+tables\b", re.IGNORECASE | re.DOTALL)
TABLE_LOAD = re.compile(r"^\s*SELECT\s+\*\s+FROM\s+tables\s+WHERE\s+(id|chat_key)\s*=",
                        re.IGNORECASE)
GAME_WRITE = re.compile(r"^\s*(UPDATE|INSERT\s+INTO)\s+tables\b", re.IGNORECASE)
WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE)\b", re.IGNORECASE)
MESSAGE_STATE = re.compile(r"\bdiscord_table_messages\b", re.IGNORECASE)
CHANGES_A_MESSAGE = ("POST", "PATCH", "DELETE")


class CountingCompute:
    """The service's compute, counting the engine worker calls by function name."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls: list[str] = []

    async def call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        self.calls.append(getattr(fn, "__name__", str(fn)))
        return await self.inner.call(fn, *args, **kwargs)

    async def close(self) -> None:
        await self.inner.close()


@dataclass
class PressCount:
    """What one press cost (see the module docstring)."""

    name: str
    interaction: FakeInteraction
    statements: list[str] = field(default_factory=list)
    engine: list[str] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)
    answer_at: int | None = None
    first_other_at: int | None = None

    @property
    def table_loads(self) -> int:
        """Loads of the pressed table (by id or by its chat)."""
        return sum(1 for s in self.statements if TABLE_LOAD.match(s))

    @property
    def other_table_reads(self) -> int:
        """Other queries of the tables (a person's tables, for the per-person limit)."""
        return sum(1 for s in self.statements if TABLES_READ.match(s)
                   and not TABLE_LOAD.match(s))

    def transactions(self) -> list[list[str]]:
        """The statements of each BEGIN ... COMMIT/ROLLBACK."""
        found: list[list[str]] = []
        current: list[str] | None = None
        for statement in self.statements:
            word = statement.strip().split(None, 1)[0].upper() if statement.strip() else ""
            if word == "BEGIN":
                current = []
            elif word in ("COMMIT", "ROLLBACK", "END") and current is not None:
                found.append(current)
                current = None
            elif current is not None:
                current.append(statement)
        return found

    @property
    def game_commits(self) -> int:
        """Write transactions that store the table."""
        return sum(1 for t in self.transactions() if any(GAME_WRITE.match(s) for s in t))

    @property
    def other_transactions(self) -> list[str]:
        """The first statement of each write transaction that does not store the table."""
        return [t[0].split("(")[0].strip() if t else "empty" for t in self.transactions()
                if not any(GAME_WRITE.match(s) for s in t)]

    def _outside(self) -> list[str]:
        inside = {id(s) for t in self.transactions() for s in t}
        return [s for s in self.statements if id(s) not in inside]

    @property
    def message_reads(self) -> int:
        return sum(1 for s in self.statements if MESSAGE_STATE.search(s)
                   and not WRITE.match(s))

    @property
    def message_writes(self) -> int:
        return sum(1 for s in self.statements if MESSAGE_STATE.search(s) and WRITE.match(s))

    @property
    def other_writes(self) -> list[str]:
        """Writes outside the game's transaction that are no message state (e.g. a
        person's name and app language stored)."""
        return [s.split("(")[0].strip() for s in self._outside()
                if WRITE.match(s) and not MESSAGE_STATE.search(s)]

    def line(self) -> str:
        return (f"{self.name}: {len(self.statements)} SQL statements ({self.table_loads} "
                f"table loads, {self.other_table_reads} other reads of tables, "
                f"{self.game_commits} game write transactions, other write transactions "
                f"{self.other_transactions or 'none'}, other writes "
                f"{self.other_writes or 'none'}); message state {self.message_reads} reads "
                f"+ {self.message_writes} writes; {len(self.engine)} engine calls "
                f"{self.engine}; Discord: {' -> '.join(self.calls)}")


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

    async def press(self, name: str, user: FakeUser,
                    act: Callable[[], Awaitable[FakeInteraction]]) -> PressCount:
        await self.bot.idle()
        self.statements.clear()
        self.compute.calls.clear()
        first_call = len(self.bot.server.calls)
        interaction = await act()
        await self.bot.idle()
        await asyncio.sleep(0.05)  # nothing more may arrive late
        await self.bot.idle()
        count = PressCount(name, interaction, list(self.statements),
                           list(self.compute.calls))
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
        assert user is interaction.user
        return count


def _kind(path: str) -> str:
    if path.startswith("/webhooks/"):
        return "hand message (webhook)"
    if re.fullmatch(r"/channels/\d+/messages", path):
        return "channel message (new)"
    return "channel message"


async def test_one_press_loads_once_commits_once_computes_once_and_answers_first(
        tmp_path: Path) -> None:
    async with running_bot(tmp_path) as bot:
        w = bot.world
        counter = Counter(bot)
        await counter.install()
        await bot.slash(w.alice, w.text, "new", {"options": "deals=1"})
        await bot.slash(w.bob, w.text, "rules")  # bob has been seen: his name is stored
        table = bot.table_message(w.text)

        join = await counter.press("Join (lobby button)", w.bob, lambda: bot.click(
            w.bob, table, control(table, "join")))

        await bot.click(w.alice, table, control(table, "start"))
        stored = await bot.service.repo.active_table(bot.key(w.text))
        assert stored is not None and stored.state is not None
        first, other = (w.alice, w.bob) if stored.state.current == 0 else (w.bob, w.alice)
        # The other player keeps a hand message open: it is redrawn when their turn begins.
        shown = await bot.click(other, table, control(table, "hand"))
        assert shown.original is not None and shown.original.viewer is other

        draw = await counter.press("/rummy play command:draw (typed move)", first,
                                   lambda: bot.slash(first, w.text, "play",
                                                     {"command": "draw"}))
        hand = draw.interaction.original
        assert hand is not None and hand.viewer is first
        assert "c0" in [action_of(c) for c in hand.custom_ids()]
        cards = component(hand, control(hand, "c0"))["options"]
        await bot.select(first, hand, control(hand, "c0"), [cards[0]["value"]])
        moves = component(hand, control(hand, "mv"))["options"]
        assert len(moves) == 1, moves  # the discard of the selected card
        before = await bot.service.repo.active_table(bot.key(w.text))
        assert before is not None

        discard = await counter.press(
            "Discard (hand message's moves select)", first,
            lambda: bot.select(first, hand, control(hand, "mv"), [moves[0]["value"]]))
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
        assert count.first_other_at is None or count.answer_at < count.first_other_at, \
            count.line()
    for count in (join, draw, discard):  # each press changed the table and was drawn
        assert count.game_commits == 1 and count.first_other_at is not None, count.line()
    assert any("hand message (webhook)" in c for c in discard.calls), discard.line()

