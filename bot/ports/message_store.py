"""Which chat message shows which table or hand: the adapters' rows, kept by the service's
storage on its one connection.

A restarted bot edits the messages it sent before instead of posting new ones, so the
adapters remember their message ids, chats and users. They never touch the database
themselves: they ask the repository for a store (:attr:`Repository.telegram_messages`,
:attr:`Repository.discord_messages`), whose protocol is defined here and whose
implementations live in :mod:`bot.storage`. Every method is one statement of its own
(autocommitted), never part of a game transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Protocol

__all__ = [
    "DiscordHandAnchor",
    "DiscordMessageStore",
    "DiscordTableMessage",
    "KnownUser",
    "TelegramHandMessage",
    "TelegramMessageStore",
    "TelegramTableMessage",
]


# --- Telegram -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TelegramTableMessage:
    """The group message that shows table ``table_id``."""

    table_id: int
    chat_key: str
    chat_id: int
    thread_id: int | None
    message_id: int
    version: int


@dataclass(frozen=True, slots=True)
class TelegramHandMessage:
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


class TelegramMessageStore(Protocol):
    """The Telegram adapter's rows: table and hand messages, chats (with their id after a
    supergroup upgrade) and users (language, name, whether a private message works)."""

    async def table_message(self, table_id: int) -> TelegramTableMessage | None:
        """The message showing ``table_id``, if one was sent."""
        ...

    async def save_table_message(self, message: TelegramTableMessage) -> None:
        """Insert or replace the row of ``message.table_id``."""
        ...

    async def hand_message(self, user_id: int, table_id: int) -> TelegramHandMessage | None:
        """The user's hand message for ``table_id``."""
        ...

    async def save_hand_message(self, message: TelegramHandMessage) -> None:
        """Insert or replace the row of (user, table)."""
        ...

    async def canonical_chat(self, chat_id: int) -> int:
        """The id a chat's tables are keyed by: its first id (before a supergroup
        upgrade)."""
        ...

    async def current_chat(self, chat_id: int) -> int:
        """Where messages for the chat keyed ``chat_id`` go now."""
        ...

    async def chat_title(self, chat_id: int) -> str | None:
        """The title last seen for the chat keyed ``chat_id``."""
        ...

    async def remember_chat(self, chat_id: int, title: str | None) -> None:
        """Note a chat (keyed by its canonical id) and its title."""
        ...

    async def migrate_chat(self, old_id: int, new_id: int) -> None:
        """A basic group became the supergroup ``new_id``: its tables keep their key,
        messages go to ``new_id`` from now on."""
        ...

    async def user(self, user_id: int) -> KnownUser | None:
        """What we know about ``user_id``."""
        ...

    async def remember_user(
        self, user_id: int, first_name: str, username: str | None, language_code: str | None
    ) -> None:
        """Insert or refresh a user's name and language (``reachable`` is kept)."""
        ...

    async def set_reachable(self, user_id: int, reachable: bool) -> None:
        """Record whether private messages to ``user_id`` work."""
        ...

    async def begin_send(self, key: str) -> str:
        """Note that a keyed send (a turn ping, the first table message) starts: ``"new"``,
        ``"again"`` (an earlier attempt may have reached the chat: its worker died before
        :meth:`end_send`) or ``"sent"`` (done already: do not send)."""
        ...

    async def end_send(self, key: str) -> None:
        """Note that the keyed send reached the chat."""
        ...

    async def spend_group_call(self, chat_id: int, now: float, calls: int, period: float) -> float:
        """Take one call from the group's budget, shared by every worker: a token bucket
        of ``calls`` tokens refilled at ``calls`` per ``period`` seconds (``now``: Unix
        seconds). Returns the seconds the call must wait (0 when a token was there)."""
        ...


# --- Discord --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DiscordTableMessage:
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

    def with_ping(self, ping_id: str | None, seat: int | None) -> DiscordTableMessage:
        """A copy with another last ping."""
        return replace(self, ping_id=ping_id, ping_seat=seat)


@dataclass(frozen=True, slots=True)
class DiscordHandAnchor:
    """A player's open hand message on Discord, as any worker can reach it: the ephemeral
    answer to an interaction, edited through that interaction's webhook
    (``PATCH /webhooks/{application_id}/{token}/messages/{message_id}``).

    ``table_id``/``user_key`` (``"discord:<id>"``) say whose hand at which table;
    ``application_id`` and ``token`` are the interaction's (the token is Discord's, valid
    15 minutes from ``created_at``); ``message_id`` is the ephemeral message (``None``
    when not known); ``digest``, ``sort`` and ``mask`` are the hand state it shows (the
    Discord adapter's ``HandState``: the hand's digest, the order, the selected cards);
    ``version`` is the table version it was drawn for; ``created_at`` is the Unix time
    (seconds, the service's clock) the interaction was answered.

    Security: the token lets anyone who reads it edit that one ephemeral message (nothing
    else) until it expires. It is kept in the same database as the games, so whoever can
    read the games can read it; rows are deleted once expired and when the table
    closes."""

    table_id: int
    user_key: str
    application_id: str
    token: str
    message_id: str | None
    digest: str
    sort: int
    mask: int
    version: int
    created_at: float


class DiscordMessageStore(Protocol):
    """The Discord adapter's rows: each table's public message, and each player's open
    hand message (:class:`DiscordHandAnchor`, so a worker that never saw the interaction
    can edit it)."""

    async def get(self, table_id: int) -> DiscordTableMessage | None:
        """The stored message of a table, or ``None``."""
        ...

    async def save(self, message: DiscordTableMessage) -> None:
        """Insert or replace the row of ``message.table_id``."""
        ...

    async def begin_send(self, key: str) -> str:
        """Note that a keyed post (a turn ping, the first table message) starts:
        ``"new"``, ``"again"`` (an earlier attempt may have reached the channel: its worker
        died before :meth:`end_send`) or ``"sent"`` (done already: do not post)."""
        ...

    async def end_send(self, key: str) -> None:
        """Note that the keyed post reached the channel."""
        ...

    async def hand_anchor(self, table_id: int, user_key: str) -> DiscordHandAnchor | None:
        """The player's stored hand anchor at ``table_id``, or ``None`` (expired ones
        too: the caller checks ``created_at``)."""
        ...

    async def save_hand_anchor(self, anchor: DiscordHandAnchor) -> None:
        """Insert or replace the row of (``anchor.table_id``, ``anchor.user_key``): the
        player's newest hand message (a new interaction answered with their hand)."""
        ...

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
        """Record that the player's message of ``token`` now shows the hand state
        (``digest``, ``sort``, ``mask``) drawn for table ``version``; only while that token
        is still the player's anchor and the stored version is older. Returns whether the
        row changed."""
        ...

    async def forget_hand_anchor(self, table_id: int, user_key: str, token: str) -> None:
        """Delete the player's anchor if it is still the one of ``token`` (Discord refused
        that token, or it expired; a newer anchor is kept)."""
        ...

    async def forget_hand_anchors(self, table_id: int) -> None:
        """Delete every anchor of ``table_id`` (the table closed)."""
        ...

    async def prune_hand_anchors(self, created_before: float) -> int:
        """Delete the anchors created before Unix time ``created_before`` (their tokens
        expired); returns how many."""
        ...
