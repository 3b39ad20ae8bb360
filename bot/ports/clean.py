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
from dataclasses import fields, replace
from typing import Any

from bot.ports.intents import InChat, Intent, Request
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
    return UserRef(
        clean_text(user.platform),
        clean_text(user.user_id),
        clean_text(user.name),
        None if user.locale is None else clean_text(user.locale),
    )


def _key(key: ChatKey) -> ChatKey:
    if is_clean(key.platform + key.chat_id + key.thread_id):
        return key
    return ChatKey(clean_text(key.platform), clean_text(key.chat_id), clean_text(key.thread_id))


def _value(value: Any) -> Any:
    """A request's field cleaned: a text, or a tuple of texts (words); anything else (an
    engine action, a flag) as it is."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, tuple) and all(isinstance(item, str) for item in value):
        return tuple(clean_text(item) for item in value)
    return value


def _request(request: Request) -> Request:
    changed = {field.name: _value(getattr(request, field.name)) for field in fields(request)}
    if all(changed[name] == getattr(request, name) for name in changed):
        return request
    return replace(request, **changed)


def clean_intent(intent: Intent) -> Intent:
    """``intent`` with its person, chat key, update key and request's words cleaned
    (:func:`clean_text`); an intent that was clean already is returned as it is."""
    user, request = _user(intent.user), _request(intent.request)
    at = intent.at
    if isinstance(at, InChat):
        key = _key(at.key)
        at = at if key is at.key else InChat(key, at.table_id)
    update_key = intent.update_key
    if update_key is not None and not is_clean(update_key):
        update_key = clean_text(update_key)
    if (
        user is intent.user
        and request is intent.request
        and at is intent.at
        and update_key is intent.update_key
    ):
        return intent
    return replace(intent, user=user, request=request, at=at, update_key=update_key)
