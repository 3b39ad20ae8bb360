"""SQLite implementations of the adapters' message stores
(:mod:`bot.ports.message_store`), on the repository's connection.

Tables: ``telegram_table_messages``, ``telegram_hand_messages``, ``telegram_chats``,
``telegram_users`` (migration ``0002_telegram_messages.sql``),
``discord_table_messages`` (``0003_discord_messages.sql``) and ``discord_hand_anchors``
(``0009_discord_hand_anchors.sql``: interaction tokens that can edit a player's ephemeral
hand message for 15 minutes; see :class:`bot.ports.message_store.DiscordHandAnchor`).
Each method is one statement run through
:class:`bot.storage.repository.SqliteRepository`'s lock, so it never lands inside a game
transaction of the same connection (nor is rolled back with one). Names and titles are
stored within the platform's own bounds, without lone surrogates
(:mod:`bot.ports.text_bounds`), whatever an update claimed.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any, Protocol

import aiosqlite

from bot.ports.message_store import (
    DiscordHandAnchor,
    DiscordTableMessage,
    KnownUser,
    TelegramHandMessage,
    TelegramTableMessage,
)
from bot.ports.text_bounds import (
    CHAT_TITLE,
    DISPLAY_NAME,
    LANGUAGE_TAG,
    USERNAME,
    bounded_text,
)

__all__ = [
    "SqliteDiscordMessages",
    "SqliteTelegramMessages",
    "Statements",
    "begin_send",
    "end_send",
]


class Statements(Protocol):
    """Single statements on a shared connection (the repository provides them)."""

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        """The rows of one query."""
        ...

    async def execute_one(self, sql: str, params: Sequence[Any] = ()) -> None:
        """One write statement, committed on its own."""
        ...


async def begin_send(db: Statements, key: str, now: float) -> str:
    """Mark the send ``key`` as starting (table ``sent_keys``); returns ``"new"``,
    ``"again"`` (an attempt before was not marked sent) or ``"sent"``."""
    rows = await db.fetch_all(
        "INSERT INTO sent_keys (key, state, created_at) VALUES (?, 'new', ?) "
        "ON CONFLICT (key) DO UPDATE SET state = CASE WHEN sent_keys.state = 'sent' "
        "THEN 'sent' ELSE 'again' END RETURNING state",
        (key, now),
    )
    return str(rows[0][0])


async def end_send(db: Statements, key: str) -> None:
    """Mark the send ``key`` as done."""
    await db.execute_one("UPDATE sent_keys SET state = 'sent' WHERE key = ?", (key,))


class SqliteTelegramMessages:
    """:class:`bot.ports.message_store.TelegramMessageStore` on SQLite."""

    def __init__(self, db: Statements) -> None:
        self._db = db

    async def _one(self, sql: str, params: Sequence[Any]) -> aiosqlite.Row | None:
        rows = await self._db.fetch_all(sql, params)
        return rows[0] if rows else None

    async def table_message(self, table_id: int) -> TelegramTableMessage | None:
        row = await self._one(
            "SELECT * FROM telegram_table_messages WHERE table_id = ?", (table_id,)
        )
        if row is None:
            return None
        return TelegramTableMessage(
            row["table_id"],
            row["chat_key"],
            row["chat_id"],
            row["thread_id"],
            row["message_id"],
            row["version"],
        )

    async def save_table_message(self, message: TelegramTableMessage) -> None:
        await self._db.execute_one(
            "INSERT INTO telegram_table_messages VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (table_id) DO UPDATE SET chat_key = excluded.chat_key, "
            "chat_id = excluded.chat_id, thread_id = excluded.thread_id, "
            "message_id = excluded.message_id, version = excluded.version",
            (
                message.table_id,
                message.chat_key,
                message.chat_id,
                message.thread_id,
                message.message_id,
                message.version,
            ),
        )

    async def hand_message(self, user_id: int, table_id: int) -> TelegramHandMessage | None:
        row = await self._one(
            "SELECT * FROM telegram_hand_messages WHERE user_id = ? AND table_id = ?",
            (user_id, table_id),
        )
        if row is None:
            return None
        return TelegramHandMessage(
            row["user_id"],
            row["table_id"],
            row["chat_key"],
            row["message_id"],
            row["version"],
            row["hand"],
            row["sort_mode"],
        )

    async def save_hand_message(self, message: TelegramHandMessage) -> None:
        await self._db.execute_one(
            "INSERT INTO telegram_hand_messages VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (user_id, table_id) DO UPDATE SET chat_key = excluded.chat_key, "
            "message_id = excluded.message_id, version = excluded.version, "
            "hand = excluded.hand, sort_mode = excluded.sort_mode",
            (
                message.user_id,
                message.table_id,
                message.chat_key,
                message.message_id,
                message.version,
                message.hand,
                message.sort_mode,
            ),
        )

    async def canonical_chat(self, chat_id: int) -> int:
        row = await self._one("SELECT chat_id FROM telegram_chats WHERE current_id = ?", (chat_id,))
        return chat_id if row is None else int(row["chat_id"])

    async def current_chat(self, chat_id: int) -> int:
        row = await self._one("SELECT current_id FROM telegram_chats WHERE chat_id = ?", (chat_id,))
        return chat_id if row is None else int(row["current_id"])

    async def chat_title(self, chat_id: int) -> str | None:
        row = await self._one("SELECT title FROM telegram_chats WHERE chat_id = ?", (chat_id,))
        return None if row is None else row["title"]

    async def remember_chat(self, chat_id: int, title: str | None) -> None:
        await self._db.execute_one(
            "INSERT INTO telegram_chats (chat_id, current_id, title) VALUES (?, ?, ?) "
            "ON CONFLICT (chat_id) DO UPDATE SET "
            "title = COALESCE(excluded.title, telegram_chats.title)",
            (chat_id, chat_id, None if title is None else bounded_text(title, CHAT_TITLE)),
        )

    async def migrate_chat(self, old_id: int, new_id: int) -> None:
        canonical = await self.canonical_chat(old_id)
        await self._db.execute_one(
            "INSERT INTO telegram_chats (chat_id, current_id) VALUES (?, ?) "
            "ON CONFLICT (chat_id) DO UPDATE SET current_id = excluded.current_id",
            (canonical, new_id),
        )

    async def user(self, user_id: int) -> KnownUser | None:
        row = await self._one("SELECT * FROM telegram_users WHERE user_id = ?", (user_id,))
        if row is None:
            return None
        reachable = None if row["reachable"] is None else bool(row["reachable"])
        return KnownUser(
            row["user_id"], row["first_name"], row["username"], row["language_code"], reachable
        )

    async def remember_user(
        self, user_id: int, first_name: str, username: str | None, language_code: str | None
    ) -> None:
        await self._db.execute_one(
            "INSERT INTO telegram_users (user_id, first_name, username, language_code) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
            "first_name = excluded.first_name, username = excluded.username, "
            "language_code = excluded.language_code",
            (
                user_id,
                bounded_text(first_name, DISPLAY_NAME),
                None if username is None else bounded_text(username, USERNAME),
                None if language_code is None else bounded_text(language_code, LANGUAGE_TAG),
            ),
        )

    async def set_reachable(self, user_id: int, reachable: bool) -> None:
        await self._db.execute_one(
            "INSERT INTO telegram_users (user_id, first_name, reachable) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET reachable = excluded.reachable",
            (user_id, str(user_id), int(reachable)),
        )

    async def begin_send(self, key: str) -> str:
        return await begin_send(self._db, key, time.time())

    async def end_send(self, key: str) -> None:
        await end_send(self._db, key)

    async def spend_group_call(self, chat_id: int, now: float, calls: int, period: float) -> float:
        rate = calls / period
        # One statement: refill for the time since the last call (never backwards), take
        # one token; a negative balance is the queue of calls waiting for the group.
        rows = await self._db.fetch_all(
            "INSERT INTO telegram_group_budget (chat_id, tokens, at) VALUES (?, ?, ?) "
            "ON CONFLICT (chat_id) DO UPDATE SET tokens = CASE "
            "WHEN telegram_group_budget.tokens + (excluded.at - telegram_group_budget.at) * ?"
            " > ? THEN ? ELSE telegram_group_budget.tokens + CASE "
            "WHEN excluded.at > telegram_group_budget.at "
            "THEN (excluded.at - telegram_group_budget.at) * ? ELSE 0 END END - 1, "
            "at = CASE WHEN excluded.at > telegram_group_budget.at THEN excluded.at "
            "ELSE telegram_group_budget.at END RETURNING tokens",
            (chat_id, float(calls - 1), now, rate, float(calls), float(calls), rate),
        )
        tokens = float(rows[0][0])
        return 0.0 if tokens >= 0 else -tokens / rate


class SqliteDiscordMessages:
    """:class:`bot.ports.message_store.DiscordMessageStore` on SQLite."""

    def __init__(self, db: Statements) -> None:
        self._db = db

    async def get(self, table_id: int) -> DiscordTableMessage | None:
        rows = await self._db.fetch_all(
            "SELECT table_id, channel_id, message_id, version, ping_id, ping_seat, recent "
            "FROM discord_table_messages WHERE table_id = ?",
            (table_id,),
        )
        if not rows:
            return None
        row = rows[0]
        recent = json.loads(row[6])
        return DiscordTableMessage(
            int(row[0]),
            str(row[1]),
            str(row[2]),
            int(row[3]),
            row[4],
            row[5],
            tuple(str(line) for line in recent),
        )

    async def save(self, message: DiscordTableMessage) -> None:
        await self._db.execute_one(
            "INSERT INTO discord_table_messages "
            "(table_id, channel_id, message_id, version, ping_id, ping_seat, recent) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET "
            "channel_id = excluded.channel_id, message_id = excluded.message_id, "
            "version = excluded.version, ping_id = excluded.ping_id, "
            "ping_seat = excluded.ping_seat, recent = excluded.recent",
            (
                message.table_id,
                message.channel_id,
                message.message_id,
                message.version,
                message.ping_id,
                message.ping_seat,
                json.dumps(list(message.recent), ensure_ascii=False),
            ),
        )

    async def begin_send(self, key: str) -> str:
        return await begin_send(self._db, key, time.time())

    async def end_send(self, key: str) -> None:
        await end_send(self._db, key)

    async def hand_anchor(self, table_id: int, user_key: str) -> DiscordHandAnchor | None:
        rows = await self._db.fetch_all(
            "SELECT table_id, user_key, application_id, token, message_id, state, version, "
            "created_at FROM discord_hand_anchors WHERE table_id = ? AND user_key = ?",
            (table_id, user_key),
        )
        if not rows:
            return None
        row = rows[0]
        state = json.loads(row[5])
        return DiscordHandAnchor(
            int(row[0]),
            str(row[1]),
            str(row[2]),
            str(row[3]),
            None if row[4] is None else str(row[4]),
            str(state["digest"]),
            int(state["sort"]),
            int(state["mask"]),
            int(row[6]),
            float(row[7]),
        )

    async def save_hand_anchor(self, anchor: DiscordHandAnchor) -> None:
        await self._db.execute_one(
            "INSERT INTO discord_hand_anchors (table_id, user_key, application_id, token, "
            "message_id, state, version, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (table_id, user_key) DO UPDATE SET "
            "application_id = excluded.application_id, token = excluded.token, "
            "message_id = excluded.message_id, state = excluded.state, "
            "version = excluded.version, created_at = excluded.created_at",
            (
                anchor.table_id,
                anchor.user_key,
                anchor.application_id,
                anchor.token,
                anchor.message_id,
                _state(anchor.digest, anchor.sort, anchor.mask),
                anchor.version,
                anchor.created_at,
            ),
        )

    async def update_hand_anchor(
        self,
        table_id: int,
        user_key: str,
        token: str,
        digest: str,
        sort: int,
        mask: int,
        version: int,
    ) -> bool:
        rows = await self._db.fetch_all(
            "UPDATE discord_hand_anchors SET state = ?, version = ? WHERE table_id = ? "
            "AND user_key = ? AND token = ? AND version < ? RETURNING table_id",
            (_state(digest, sort, mask), version, table_id, user_key, token, version),
        )
        return bool(rows)

    async def forget_hand_anchor(self, table_id: int, user_key: str, token: str) -> None:
        await self._db.execute_one(
            "DELETE FROM discord_hand_anchors WHERE table_id = ? AND user_key = ? AND token = ?",
            (table_id, user_key, token),
        )

    async def forget_hand_anchors(self, table_id: int) -> None:
        await self._db.execute_one(
            "DELETE FROM discord_hand_anchors WHERE table_id = ?", (table_id,)
        )

    async def prune_hand_anchors(self, created_before: float) -> int:
        rows = await self._db.fetch_all(
            "DELETE FROM discord_hand_anchors WHERE created_at < ? RETURNING table_id",
            (created_before,),
        )
        return len(rows)


def _state(digest: str, sort: int, mask: int) -> str:
    """The ``state`` column of ``discord_hand_anchors``: the hand state shown, as JSON."""
    return json.dumps({"digest": digest, "sort": sort, "mask": mask})
