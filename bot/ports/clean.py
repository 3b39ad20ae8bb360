"""Text from outside, made safe to store and compare (:func:`clean_text`,
:func:`clean_intent`).

A platform or a page may hand over strings no database takes: a lone UTF-16 surrogate
(``"\\ud800"``, which JSON's ``\\u`` escapes can carry) cannot be encoded as UTF-8
(SQLite raises ``UnicodeEncodeError``, asyncpg a ``DataError``), and a NUL is refused by
PostgreSQL's text type. Front ends clean what they decode (the web protocol), and the
service's entry point cleans every :class:`~bot.ports.intents.Intent` once more before it
stores or compares any of its keys, so nothing that reaches a table or the update log
can raise for its characters.
"""

from __future__ import annotations

import re
from dataclasses import replace

from bot.ports.intents import Command, Intent
from bot.ports.model import ChatKey, UserRef

__all__ = ["REPLACEMENT", "clean_intent", "clean_text", "is_clean"]

REPLACEMENT = "\ufffd"
"""What a character no store takes becomes (U+FFFD REPLACEMENT CHARACTER)."""

_UNSTORABLE = re.compile("[\ud800-\udfff\x00]")


def is_clean(text: str) -> bool:
    """True when ``text`` has no lone surrogate (U+D800-U+DFFF) and no NUL."""
    return _UNSTORABLE.search(text) is None


def clean_text(text: str) -> str:
    """``text`` with every lone surrogate and NUL replaced by :data:`REPLACEMENT` (the
    same length; a clean text is returned as it is)."""
    if is_clean(text):
        return text
    return _UNSTORABLE.sub(REPLACEMENT, text)


def _user(user: UserRef) -> UserRef:
    if is_clean(user.platform + user.user_id + user.name + (user.locale or "")):
        return user
    return UserRef(clean_text(user.platform), clean_text(user.user_id),
                   clean_text(user.name),
                   None if user.locale is None else clean_text(user.locale))


def _key(key: ChatKey | None) -> ChatKey | None:
    if key is None or is_clean(key.platform + key.chat_id + key.thread_id):
        return key
    return ChatKey(clean_text(key.platform), clean_text(key.chat_id),
                   clean_text(key.thread_id))


def clean_intent(intent: Intent) -> Intent:
    """``intent`` with its person, chat key, update key and command words cleaned
    (:func:`clean_text`); an intent that was clean already is returned as it is."""
    command = intent.command
    words = "".join(command.args) + command.verb
    texts = words + (intent.update_key or "")
    user, key = _user(intent.user), _key(intent.key)
    if is_clean(texts) and user is intent.user and key is intent.key:
        return intent
    return replace(intent, user=user, key=key,
                   update_key=None if intent.update_key is None
                   else clean_text(intent.update_key),
                   command=Command(clean_text(command.verb),
                                   tuple(clean_text(a) for a in command.args),
                                   command.action))
