"""Messages the fake Discord holds: public channel messages and private (ephemeral) ones.

A public message lives in its channel and everyone who can view the channel sees it.
An ephemeral message (flag 64) is only ever seen by ``viewer`` (the user whose interaction
created it); it is not listed in the channel and cannot be reached through
``/channels/{id}/messages/{id}``. Every edit keeps the previous version in ``history``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from . import components as comp
from .entities import FakeUser, Json, iso, now
from .limits import check_message, check_not_empty

EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
SETTABLE_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | comp.IS_COMPONENTS_V2
"""Flags a bot may set on a message; the rest are Discord's to set."""

CONTENT_FIELDS = ("content", "embeds", "components", "attachments", "poll", "sticker_ids")

# Message types.
DEFAULT = 0
CHAT_INPUT_COMMAND = 20


@dataclass(eq=False)
class FakeMessage:
    """One message with its current state and the versions before each edit."""

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[Json] = field(default_factory=list)
    components: list[Json] = field(default_factory=list)
    attachments: list[Json] = field(default_factory=list)
    poll: Json | None = None
    sticker_ids: list[str] = field(default_factory=list)
    flags: int = 0
    type: int = DEFAULT
    viewer: FakeUser | None = None
    interaction_id: int | None = None
    webhook_id: int | None = None
    interaction_metadata: Json | None = None
    message_reference: Json | None = None
    timestamp: datetime = field(default_factory=now)
    edited_timestamp: datetime | None = None
    deleted: bool = False
    history: list[Json] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        """Whether only ``viewer`` can see this message (flag 64)."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether this is a deferred "Bot is thinking..." placeholder (flag 128)."""
        return bool(self.flags & LOADING)

    def custom_ids(self) -> list[str]:
        """custom_ids of the buttons and selects currently on the message."""
        return [c["custom_id"] for c in comp.interactive(self.components)]

    def buttons(self) -> list[Json]:
        """The buttons currently on the message (link buttons included)."""
        return [c for _, c in comp.walk(self.components) if c.get("type") == comp.BUTTON]

    def visible_to(self, user: FakeUser) -> bool:
        """Whether ``user`` sees this message (ignores channel permissions)."""
        return not self.deleted and (self.viewer is None or self.viewer is user)

    def snapshot(self) -> Json:
        """The user-visible fields of the current version."""
        return copy.deepcopy(
            {
                "content": self.content,
                "embeds": self.embeds,
                "components": self.components,
                "attachments": self.attachments,
                "flags": self.flags,
            }
        )

    def apply(self, payload: Json) -> None:
        """Apply an edit body (fields present replace, absent stay); raise on bad input.

        The previous version is appended to ``history`` only when the edit succeeds.
        """
        flags = self.flags
        if payload.get("flags") is not None:
            flags = (self.flags & ~SETTABLE_FLAGS) | (payload["flags"] & SETTABLE_FLAGS)
        check_message({**payload, "flags": flags}, creating=False)
        merged = {key: getattr(self, key) for key in CONTENT_FIELDS}
        merged.update({key: payload[key] for key in CONTENT_FIELDS if key in payload})
        check_not_empty(merged)
        self.history.append(self.snapshot())
        self.content = merged["content"] or ""
        self.embeds = list(merged["embeds"] or [])
        self.components = list(merged["components"] or [])
        self.attachments = list(merged["attachments"] or [])
        self.poll = merged["poll"]
        self.flags = flags & ~LOADING
        self.edited_timestamp = now()

    def to_json(self, *, with_guild: bool = False) -> Json:
        """The message object as Discord returns it (``with_guild`` for gateway events)."""
        data: Json = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.to_json(),
            "content": self.content,
            "timestamp": iso(self.timestamp),
            "edited_timestamp": None
            if self.edited_timestamp is None
            else iso(self.edited_timestamp),
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": copy.deepcopy(self.attachments),
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "reactions": [],
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.poll is not None:
            data["poll"] = copy.deepcopy(self.poll)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = copy.deepcopy(self.interaction_metadata)
        if self.message_reference is not None:
            data["message_reference"] = copy.deepcopy(self.message_reference)
        if with_guild and self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        return data


class MessageStore:
    """All messages by id, in creation order."""

    def __init__(self) -> None:
        self.by_id: dict[int, FakeMessage] = {}

    def add(self, message: FakeMessage) -> FakeMessage:
        """Store ``message`` and return it."""
        self.by_id[message.id] = message
        return message

    def get(self, message_id: int) -> FakeMessage | None:
        """The message with ``message_id`` (deleted ones included), or None."""
        return self.by_id.get(message_id)

    def in_channel(self, channel_id: int, *, include_deleted: bool = False) -> list[FakeMessage]:
        """Public messages of a channel, oldest first."""
        return [
            m
            for m in self.by_id.values()
            if m.channel_id == channel_id
            and m.viewer is None
            and (include_deleted or not m.deleted)
        ]

    def ephemeral(self, viewer: FakeUser | None = None) -> list[FakeMessage]:
        """Live ephemeral messages, of one ``viewer`` or of everyone, oldest first."""
        return [
            m
            for m in self.by_id.values()
            if m.viewer is not None and not m.deleted and (viewer is None or m.viewer is viewer)
        ]

    def all(self) -> list[FakeMessage]:
        """Every message ever created, oldest first."""
        return list(self.by_id.values())


def new_message_fields(payload: Json) -> dict[str, Any]:
    """Constructor keywords for a FakeMessage from a validated create body."""
    return {
        "content": payload.get("content") or "",
        "embeds": list(payload.get("embeds") or []),
        "components": list(payload.get("components") or []),
        "attachments": list(payload.get("attachments") or []),
        "poll": payload.get("poll"),
        "sticker_ids": list(payload.get("sticker_ids") or []),
        "message_reference": payload.get("message_reference"),
    }
