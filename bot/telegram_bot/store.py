"""The Telegram adapter's own rows (migration ``0002_telegram_messages.sql``): which
message shows which table, the chats (with their id after a supergroup upgrade) and the
users (language, display name, whether the bot may write to them privately).

It works on a :class:`bot.storage.database.Database` of the same SQLite file as the
game service, but on its own connection: the service's repository runs multi-statement
transactions on its connection, and a statement of ours must never land inside one of
them (or be rolled back with it). Every method here is one autocommitted statement.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import aiosqlite

from bot.storage.database import Database


@dataclass(frozen=True, slots=True)
class TableMessage:
    """The group message that shows table ``table_id``."""

    table_id: int
    chat_key: str
    chat_id: int
    thread_id: int | None
    message_id: int
    version: int


@dataclass(frozen=True, slots=True)
class HandMessage:
    """A player's private hand message for one table: the message, the game version its
    keyboard was drawn for, the hand it shows (command notation) and the chosen order."""

    user_id: int
    table_id: int
    chat_key: str
    message_id: int
    version: int
    hand: str
    sort_mode: int = 0


@dataclass(frozen=True, slots=True)
class KnownUser:
    """What Telegram told us about a user; ``reachable``: whether a private message works
    (``None``: not tried yet)."""

    user_id: int
    first_name: str
    username: str | None
    language_code: str | None
    reachable: bool | None


class TelegramStore:
    """Reads and writes of the adapter's tables (see the module docstring)."""

    def __init__(self, db: Database) -> None:
        self._conn = db.conn

    async def _one(self, sql: str, params: Sequence[Any]) -> aiosqlite.Row | None:
        async with self._conn.execute(sql, params) as cursor:
            row: aiosqlite.Row | None = await cursor.fetchone()
            return row

    async def _all(self, sql: str, params: Sequence[Any]) -> list[aiosqlite.Row]:
        async with self._conn.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def _run(self, sql: str, params: Sequence[Any]) -> None:
        await self._conn.execute(sql, params)

    # --- table messages --------------------------------------------------------------------

    async def table_message(self, table_id: int) -> TableMessage | None:
        """The message showing ``table_id``, if one was sent."""
        row = await self._one("SELECT * FROM telegram_table_messages WHERE table_id = ?",
                              (table_id,))
        if row is None:
            return None
        return TableMessage(row["table_id"], row["chat_key"], row["chat_id"], row["thread_id"],
                            row["message_id"], row["version"])

    async def save_table_message(self, message: TableMessage) -> None:
        """Insert or replace the row of ``message.table_id``."""
        await self._run(
            "INSERT INTO telegram_table_messages VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (table_id) DO UPDATE SET chat_key = excluded.chat_key, "
            "chat_id = excluded.chat_id, thread_id = excluded.thread_id, "
            "message_id = excluded.message_id, version = excluded.version",
            (message.table_id, message.chat_key, message.chat_id, message.thread_id,
             message.message_id, message.version))

    # --- hand messages ---------------------------------------------------------------------

    async def hand_message(self, user_id: int, table_id: int) -> HandMessage | None:
        """The user's hand message for ``table_id``."""
        row = await self._one("SELECT * FROM telegram_hand_messages WHERE user_id = ? "
                              "AND table_id = ?", (user_id, table_id))
        return None if row is None else _hand(row)

    async def save_hand_message(self, message: HandMessage) -> None:
        """Insert or replace the row of (user, table)."""
        await self._run(
            "INSERT INTO telegram_hand_messages VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (user_id, table_id) DO UPDATE SET chat_key = excluded.chat_key, "
            "message_id = excluded.message_id, version = excluded.version, "
            "hand = excluded.hand, sort_mode = excluded.sort_mode",
            (message.user_id, message.table_id, message.chat_key, message.message_id,
             message.version, message.hand, message.sort_mode))

    # --- chats ----------------------------------------------------------------------------

    async def canonical_chat(self, chat_id: int) -> int:
        """The id a chat's tables are keyed by: its first id (before a supergroup upgrade)."""
        row = await self._one("SELECT chat_id FROM telegram_chats WHERE current_id = ?",
                              (chat_id,))
        return chat_id if row is None else int(row["chat_id"])

    async def current_chat(self, chat_id: int) -> int:
        """Where messages for the chat keyed ``chat_id`` go now."""
        row = await self._one("SELECT current_id FROM telegram_chats WHERE chat_id = ?",
                              (chat_id,))
        return chat_id if row is None else int(row["current_id"])

    async def chat_title(self, chat_id: int) -> str | None:
        """The title last seen for the chat keyed ``chat_id``."""
        row = await self._one("SELECT title FROM telegram_chats WHERE chat_id = ?", (chat_id,))
        return None if row is None else row["title"]

    async def remember_chat(self, chat_id: int, title: str | None) -> None:
        """Note a chat (keyed by its canonical id) and its title."""
        await self._run(
            "INSERT INTO telegram_chats (chat_id, current_id, title) VALUES (?, ?, ?) "
            "ON CONFLICT (chat_id) DO UPDATE SET title = COALESCE(excluded.title, title)",
            (chat_id, chat_id, title))

    async def migrate_chat(self, old_id: int, new_id: int) -> None:
        """A basic group became the supergroup ``new_id``: its tables keep their key, messages
        go to ``new_id`` from now on."""
        canonical = await self.canonical_chat(old_id)
        await self._run(
            "INSERT INTO telegram_chats (chat_id, current_id) VALUES (?, ?) "
            "ON CONFLICT (chat_id) DO UPDATE SET current_id = excluded.current_id",
            (canonical, new_id))

    # --- users ----------------------------------------------------------------------------

    async def user(self, user_id: int) -> KnownUser | None:
        """What we know about ``user_id``."""
        row = await self._one("SELECT * FROM telegram_users WHERE user_id = ?", (user_id,))
        if row is None:
            return None
        reachable = None if row["reachable"] is None else bool(row["reachable"])
        return KnownUser(row["user_id"], row["first_name"], row["username"],
                         row["language_code"], reachable)

    async def remember_user(self, user_id: int, first_name: str, username: str | None,
                            language_code: str | None) -> None:
        """Insert or refresh a user's name and language (``reachable`` is kept)."""
        await self._run(
            "INSERT INTO telegram_users (user_id, first_name, username, language_code) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
            "first_name = excluded.first_name, username = excluded.username, "
            "language_code = excluded.language_code",
            (user_id, first_name, username, language_code))

    async def set_reachable(self, user_id: int, reachable: bool) -> None:
        """Record whether private messages to ``user_id`` work."""
        await self._run(
            "INSERT INTO telegram_users (user_id, first_name, reachable) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET reachable = excluded.reachable",
            (user_id, str(user_id), int(reachable)))


def _hand(row: aiosqlite.Row) -> HandMessage:
    return HandMessage(row["user_id"], row["table_id"], row["chat_key"], row["message_id"],
                       row["version"], row["hand"], row["sort_mode"])
