"""Telegram's updates read defensively at the edge, for long polling and the webhook alike.

python-telegram-bot decodes a ``getUpdates`` answer as one list: a single update that does
not parse (a message without ``date``, a ``message`` that is no object) fails the whole
batch, the poller keeps asking for the same updates and every later update of every chat
waits behind it. Here each update is read on its own (:func:`read_update`): text is
cleaned of lone surrogates and names are cut to Telegram's own limits
(:mod:`bot.ports.text_bounds`), and the fields the handlers rely on are checked for their
types. An update that fails is dropped and logged once per kind
(:class:`bot.dropped_inputs.DroppedInputs`); for long polling it is replaced by an empty
update with its id (:class:`UpdateReader`), so the poller confirms it and goes on.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from telegram import Bot, CallbackQuery, Message, Update
from telegram.request import HTTPXRequest

from bot.dropped_inputs import DroppedInputs, error_kind
from bot.ports.text_bounds import (
    CHAT_TITLE,
    DISPLAY_NAME,
    LANGUAGE_TAG,
    USERNAME,
    without_surrogates,
)

__all__ = ["UnreadableUpdate", "UpdateReader", "read_batch", "read_update"]

#: Telegram's limits of the names an update carries (characters).
NAME_LIMITS: Mapping[str, int] = {
    "first_name": DISPLAY_NAME,
    "last_name": DISPLAY_NAME,
    "username": USERNAME,
    "title": CHAT_TITLE,
    "language_code": LANGUAGE_TAG,
}

#: How deep the JSON of an update may nest (Telegram's nest a few levels; a reply to a
#: reply carries its message once more).
MAX_DEPTH = 32

_SURROGATE = re.compile("[\ud800-\udfff]")


class UnreadableUpdate(Exception):
    """An update that cannot be read: ``kind`` names what failed (``message: KeyError
    'date'``), ``update_id`` is its id when it has a usable one."""

    def __init__(self, kind: str, update_id: int | None = None) -> None:
        super().__init__(kind)
        self.kind = kind
        self.update_id = update_id


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def cleaned(value: Any, depth: int = 0) -> Any:
    """A copy of the JSON ``value`` with lone surrogates replaced in every string and the
    names of :data:`NAME_LIMITS` cut to Telegram's limits. Raises ``ValueError`` past
    :data:`MAX_DEPTH` levels."""
    if depth > MAX_DEPTH:
        raise ValueError("nested too deeply")
    if isinstance(value, str):
        return without_surrogates(value) if _SURROGATE.search(value) else value
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            item = cleaned(item, depth + 1)
            limit = NAME_LIMITS.get(key)
            if limit is not None and isinstance(item, str):
                item = item[:limit]
            out[cleaned(key, depth + 1)] = item
        return out
    if isinstance(value, list):
        return [cleaned(item, depth + 1) for item in value]
    return value


def _part(data: Mapping[str, Any]) -> str:
    """The update's type: its one field besides ``update_id``."""
    return next((key for key in data if key != "update_id"), "update")


def _check(update: Update) -> None:
    """The fields the handlers read have their types (raises ``TypeError``)."""
    _check_sender_and_chat(update)
    if update.effective_message is not None:
        _check_message(update.effective_message)
    if update.callback_query is not None:
        _check_query(update.callback_query)
    member = update.my_chat_member
    if member is not None and not isinstance(member.new_chat_member.status, str):
        raise TypeError("my_chat_member: no status")


def _check_sender_and_chat(update: Update) -> None:
    """The sender's id and first name and the chat's id and type have their types, when
    the update has them (raises ``TypeError``)."""
    user = update.effective_user
    if user is not None and not (_is_int(user.id) and isinstance(user.first_name, str)):
        raise TypeError("from: no id or first name")
    chat = update.effective_chat
    if chat is not None and not (_is_int(chat.id) and isinstance(chat.type, str)):
        raise TypeError("chat: no id or type")


def _check_message(message: Message) -> None:
    """A message's id, text and thread have their types (raises ``TypeError``)."""
    if not _is_int(message.message_id):
        raise TypeError("message_id is no number")
    if message.text is not None and not isinstance(message.text, str):
        raise TypeError("text is no string")
    thread = getattr(message, "message_thread_id", None)
    if thread is not None and not _is_int(thread):
        raise TypeError("message_thread_id is no number")


def _check_query(query: CallbackQuery) -> None:
    """A button press's id, sender and data have their types (raises ``TypeError``)."""
    if not isinstance(query.id, str):
        raise TypeError("callback query id is no string")
    if query.from_user is None:
        raise TypeError("callback query: no from")
    if query.data is not None and not isinstance(query.data, str):
        raise TypeError("callback data is no string")


def read_update(data: object, bot: Bot | None) -> Update:
    """The :class:`telegram.Update` of one update's JSON ``data``, cleaned and checked (see
    the module docstring); raises :class:`UnreadableUpdate`."""
    if not isinstance(data, dict):
        raise UnreadableUpdate(f"update: {type(data).__name__}, not an object")
    update_id = data.get("update_id")
    if not _is_int(update_id):
        raise UnreadableUpdate(f"{_part(data)}: no update_id")
    part = _part(data)
    try:
        update = Update.de_json(cleaned(data), bot)
        _check(update)
    except Exception as error:
        raise UnreadableUpdate(error_kind(part, error), update_id) from error
    return update


def read_batch(result: list[Any], dropped: DroppedInputs) -> list[Any]:
    """A ``getUpdates`` result with each update cleaned, and each that cannot be read
    replaced by an empty update of its id (``{"update_id": n}``: PTB confirms it and no
    handler acts on it) or, without a usable id, left out; each logged through
    ``dropped``."""
    out: list[Any] = []
    for data in result:
        try:
            read_update(data, None)
        except UnreadableUpdate as error:
            dropped.drop(error.kind, f"update {error.update_id}")
            if error.update_id is not None:
                out.append({"update_id": error.update_id})
            continue
        out.append(cleaned(data))
    return out


class UpdateReader(HTTPXRequest):
    """PTB's HTTP request for ``getUpdates`` whose answer is read by :func:`read_batch`
    before PTB decodes it, so one unreadable update never fails the batch (give it to
    ``ApplicationBuilder.get_updates_request``). ``dropped``: where the dropped updates
    are logged; the other arguments are :class:`telegram.request.HTTPXRequest`'s."""

    def __init__(self, dropped: DroppedInputs, **options: Any) -> None:
        super().__init__(**options)
        self.dropped = dropped

    # PTB declares it static and calls it on the instance; this one needs ``dropped``.
    def parse_json_payload(self, payload: bytes) -> dict[str, Any]:  # type: ignore[override]
        """Telegram's answer, its ``result`` list read update by update."""
        data: dict[str, Any] = super().parse_json_payload(payload)
        result = data.get("result") if isinstance(data, dict) else None
        if isinstance(result, list):
            data["result"] = read_batch(result, self.dropped)
        return data
