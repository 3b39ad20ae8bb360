"""Telegram ids <-> the service's keys: users, chats and forum topics.

A group's tables are keyed ``ChatKey("telegram", <chat id>, <topic id or "">)``. The chat
id is the group's *first* id: when a basic group becomes a supergroup (new id), its
key stays (:meth:`bot.ports.message_store.TelegramMessageStore.canonical_chat`). Each forum topic
(``message_thread_id`` of a topic message) is a separate table.
"""

from __future__ import annotations

from telegram import Message, User

from bot.ports.model import ChatKey, UserRef

PLATFORM = "telegram"


def user_ref(user: User) -> UserRef:
    """The service's user for a Telegram user (name: first name, language: the app's)."""
    name = user.first_name or user.username or str(user.id)
    return UserRef(PLATFORM, str(user.id), name, user.language_code)


def user_id_of(user_key: str) -> int:
    """The Telegram user id in a user key ``telegram:<id>``; ``ValueError`` otherwise."""
    platform, _, user_id = user_key.partition(":")
    if platform != PLATFORM:
        raise ValueError(f"not a Telegram user: {user_key!r}")
    return int(user_id)


def thread_of(message: Message) -> int | None:
    """The forum topic a message belongs to (``None`` outside topics)."""
    if message.is_topic_message and message.message_thread_id:
        return message.message_thread_id
    return None


def chat_key(canonical_chat_id: int, thread_id: int | None) -> ChatKey:
    """The key of the table in a chat (canonical id) and topic."""
    return ChatKey(PLATFORM, str(canonical_chat_id), "" if thread_id is None else str(thread_id))


def chat_id_of(key: ChatKey) -> int:
    """The (canonical) chat id of a key."""
    return int(key.chat_id)


def thread_id_of(key: ChatKey) -> int | None:
    """The forum topic of a key, ``None`` for none."""
    return int(key.thread_id) if key.thread_id else None


def deep_link(bot_username: str, payload: str) -> str:
    """``https://t.me/<bot>?start=<payload>``: opens the private chat with /start payload."""
    return f"https://t.me/{bot_username}?start={payload}"
