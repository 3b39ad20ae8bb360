"""The outbox rows (:class:`bot.service.outbox.OutboxStore`) on SQLite and PostgreSQL:
tables ``table_changes``, ``chat_owners`` and ``sent_keys`` (migration
``0008_table_changes.sql``). Each method is one or two single statements on the
repository's connection (:class:`bot.storage.message_store.Statements`), outside its game
transactions; the change rows themselves are written inside the commit
(:meth:`bot.storage.repository.SqliteRepository.commit`)."""

from __future__ import annotations

from bot.service.outbox import ChangeRow, SendState
from bot.storage.message_store import Statements, begin_send, end_send

__all__ = ["PRUNE_EVERY", "SqlOutbox"]

PRUNE_EVERY = 8
"""Shown change rows beyond the kept ones are deleted when the shown version is a
multiple of this (a table keeps at most ``keep + PRUNE_EVERY`` rows)."""


class SqlOutbox:
    """:class:`bot.service.outbox.OutboxStore` on the statements ``db``. ``exclusive``: one
    process uses the database (SQLite): a chat is always granted to the caller, even
    when a lease of an earlier process has not run out yet (it was this bot, restarted:
    the chat is drawn again, as taken from a worker that died)."""

    def __init__(self, db: Statements, exclusive: bool = False) -> None:
        self._db = db
        self._exclusive = exclusive

    async def recent_changes(self, table_id: int, limit: int) -> list[ChangeRow]:
        rows = await self._db.fetch_all(
            "SELECT version, record, shown FROM table_changes WHERE table_id = ? "
            "ORDER BY version DESC LIMIT ?",
            (table_id, limit),
        )
        return [ChangeRow(int(r[0]), str(r[1]), bool(r[2])) for r in reversed(rows)]

    async def mark_shown(self, table_id: int, version: int, keep: int) -> None:
        await self._db.execute_one(
            "UPDATE table_changes SET shown = 1 WHERE table_id = ? AND version <= ? AND shown = 0",
            (table_id, version),
        )
        if version % PRUNE_EVERY == 0:  # a statement per change would be one too many
            await self._db.execute_one(
                "DELETE FROM table_changes WHERE table_id = ? AND version <= ? AND shown = 1",
                (table_id, version - keep),
            )

    async def unshown_tables(self, before: float, since: float) -> list[tuple[int, str]]:
        rows = await self._db.fetch_all(
            "SELECT DISTINCT table_id, chat_key FROM table_changes "
            "WHERE shown = 0 AND created_at < ? AND created_at >= ? ORDER BY table_id",
            (before, since),
        )
        return [(int(r[0]), str(r[1])) for r in rows]

    async def take_chat(
        self, chat_key: str, owner: str, now: float, seconds: float
    ) -> tuple[bool, bool]:
        found = await self._db.fetch_all(
            "SELECT owner, until FROM chat_owners WHERE chat_key = ?", (chat_key,)
        )
        if found and str(found[0][0]) != owner and float(found[0][1]) > now and not self._exclusive:
            return False, False
        rows = await self._db.fetch_all(
            "INSERT INTO chat_owners (chat_key, owner, until) VALUES (?, ?, ?) "
            "ON CONFLICT (chat_key) DO UPDATE SET owner = excluded.owner, "
            "until = excluded.until WHERE chat_owners.owner = excluded.owner "
            "OR chat_owners.until <= ? RETURNING owner",
            (chat_key, owner, now + seconds, float("inf") if self._exclusive else now),
        )
        owned = bool(rows)
        return owned, owned and bool(found) and str(found[0][0]) != owner

    async def renew_chats(self, owner: str, until: float) -> int:
        rows = await self._db.fetch_all(
            "UPDATE chat_owners SET until = ? WHERE owner = ? RETURNING chat_key", (until, owner)
        )
        return len(rows)

    async def release_chats(self, owner: str) -> None:
        await self._db.execute_one("DELETE FROM chat_owners WHERE owner = ?", (owner,))

    async def lapsed_chats(self, now: float) -> list[str]:
        rows = await self._db.fetch_all(
            "SELECT chat_key FROM chat_owners WHERE until <= ? ORDER BY chat_key", (now,)
        )
        return [str(r[0]) for r in rows]

    async def begin_send(self, key: str, now: float) -> SendState:
        return await begin_send(self._db, key, now)

    async def end_send(self, key: str) -> None:
        await end_send(self._db, key)
