"""Where each table's Discord message is: the repository of ``discord_table_messages``.

One row per table (migration ``0003_discord_messages.sql``): the channel and id of
the public table message, the table version it shows, the last turn ping and the
recent event lines shown under the table. Kept in SQLite so a restarted bot edits
the same message instead of posting a new one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace

from bot.storage.database import Database


@dataclass(frozen=True, slots=True)
class TableMessage:
    """The public message of table ``table_id``: ``channel_id``/``message_id`` (Discord
    snowflakes as text), the table ``version`` it shows, the last turn ping
    (``ping_id``, ``ping_seat``; ``None`` when none) and the ``recent`` event lines."""

    table_id: int
    channel_id: str
    message_id: str
    version: int
    ping_id: str | None = None
    ping_seat: int | None = None
    recent: tuple[str, ...] = field(default=())

    def with_ping(self, ping_id: str | None, seat: int | None) -> TableMessage:
        """A copy with another last ping."""
        return replace(self, ping_id=ping_id, ping_seat=seat)


class MessageStore:
    """Reads and writes :class:`TableMessage` rows on a :class:`Database` connection."""

    def __init__(self, db: Database) -> None:
        self._conn = db.conn

    async def get(self, table_id: int) -> TableMessage | None:
        """The stored message of a table, or ``None``."""
        async with self._conn.execute(
            "SELECT table_id, channel_id, message_id, version, ping_id, ping_seat, recent "
            "FROM discord_table_messages WHERE table_id = ?", (table_id,)
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        recent = json.loads(row[6])
        return TableMessage(int(row[0]), str(row[1]), str(row[2]), int(row[3]), row[4],
                            row[5], tuple(str(line) for line in recent))

    async def save(self, message: TableMessage) -> None:
        """Insert or replace the row of ``message.table_id``."""
        await self._conn.execute(
            "INSERT OR REPLACE INTO discord_table_messages "
            "(table_id, channel_id, message_id, version, ping_id, ping_seat, recent) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (message.table_id, message.channel_id, message.message_id, message.version,
             message.ping_id, message.ping_seat,
             json.dumps(list(message.recent), ensure_ascii=False)),
        )
