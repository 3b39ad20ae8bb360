"""What one press costs, counted the same way for every chat front end (the per-platform
tests: tests/bot/discord/test_press_counts.py, tests/bot/telegram/test_press_counts.py).

Counted per press: the SQL statements SQLite ran (its trace callback), among them the
loads of the table (``SELECT * FROM tables WHERE id|chat_key = ...``), other queries of
the tables, the write transactions of the game (the commit) and other writes, and, apart,
the adapter's message state; the engine worker calls (the service's compute, wrapped); and
the platform calls that change a message, in the order the fake server received them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

TABLES_READ = re.compile(r"^\s*SELECT\b.*\bFROM\s+tables\b", re.IGNORECASE | re.DOTALL)
TABLE_LOAD = re.compile(
    r"^\s*SELECT\s+\*\s+FROM\s+tables\s+WHERE\s+(id|chat_key)\s*=", re.IGNORECASE
)
GAME_WRITE = re.compile(r"^\s*(UPDATE|INSERT\s+INTO)\s+tables\b", re.IGNORECASE)
WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE)\b", re.IGNORECASE)


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
    """What one press cost (see the module docstring); ``message_state``: the adapter's
    message rows (their statements are counted apart)."""

    name: str
    message_state: re.Pattern[str]
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
        return sum(1 for s in self.statements if TABLES_READ.match(s) and not TABLE_LOAD.match(s))

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
        return [
            t[0].split("(")[0].strip() if t else "empty"
            for t in self.transactions()
            if not any(GAME_WRITE.match(s) for s in t)
        ]

    def _outside(self) -> list[str]:
        inside = {id(s) for t in self.transactions() for s in t}
        return [s for s in self.statements if id(s) not in inside]

    @property
    def message_reads(self) -> int:
        return sum(
            1 for s in self.statements if self.message_state.search(s) and not WRITE.match(s)
        )

    @property
    def message_writes(self) -> int:
        return sum(1 for s in self.statements if self.message_state.search(s) and WRITE.match(s))

    @property
    def other_writes(self) -> list[str]:
        """Writes outside the game's transaction that are no message state (e.g. a
        person's name and app language stored)."""
        return [
            s.split("(")[0].strip()
            for s in self._outside()
            if WRITE.match(s) and not self.message_state.search(s)
        ]

    def line(self) -> str:
        return (
            f"{self.name}: {len(self.statements)} SQL statements ({self.table_loads} "
            f"table loads, {self.other_table_reads} other reads of tables, "
            f"{self.game_commits} game write transactions, other write transactions "
            f"{self.other_transactions or 'none'}, other writes "
            f"{self.other_writes or 'none'}); message state {self.message_reads} reads "
            f"+ {self.message_writes} writes; {len(self.engine)} engine calls "
            f"{self.engine}; platform calls: {' -> '.join(self.calls)}"
        )
