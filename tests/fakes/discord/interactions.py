"""Interactions the fake dispatched to the bot, and what the bot answered.

Interaction types: 2 application command (slash), 3 message component, 4 autocomplete,
5 modal submit. Callback (response) types: 1 PONG, 4 CHANNEL_MESSAGE_WITH_SOURCE,
5 DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, 6 DEFERRED_UPDATE_MESSAGE, 7 UPDATE_MESSAGE,
8 APPLICATION_COMMAND_AUTOCOMPLETE_RESULT, 9 MODAL, 12 LAUNCH_ACTIVITY (the app's Activity
opens in the channel; no message).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from .entities import FakeChannel, FakeGuild, FakeUser, Json
from .messages import FakeMessage

APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

PONG = 1
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9
LAUNCH_ACTIVITY = 12


@dataclass(eq=False)
class FakeInteraction:
    """One dispatched interaction and the bot's answers to it.

    ``response_type``/``response_data`` hold the single accepted callback; ``original`` is
    the message ``@original`` refers to (the response message, the deferred placeholder,
    or for types 6/7 the component's message); ``followups`` are later webhook messages.
    """

    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    guild: FakeGuild | None
    payload: Json
    created: float
    source_message: FakeMessage | None = None
    command: Json | None = None
    response_type: int | None = None
    response_data: Json | None = None
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    refused_callbacks: list[Json] = field(default_factory=list)
    responded: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def acknowledged(self) -> bool:
        """Whether the bot's (one allowed) callback was accepted."""
        return self.response_type is not None

    @property
    def deferred(self) -> bool:
        """Whether the bot answered with a deferral (type 5 or 6)."""
        return self.response_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)

    @property
    def choices(self) -> list[Json] | None:
        """Autocomplete choices the bot returned (type 8), else None."""
        if self.response_type != AUTOCOMPLETE_RESULT or self.response_data is None:
            return None
        return list(self.response_data.get("choices") or [])

    @property
    def modal(self) -> Json | None:
        """The modal the bot opened (type 9), else None."""
        return self.response_data if self.response_type == MODAL else None

    def messages(self) -> list[FakeMessage]:
        """Messages this interaction produced: the response message, then follow-ups."""
        produced = (
            [] if self.original is None or self.original is self.source_message else [self.original]
        )
        return [*produced, *self.followups]

    async def wait_response(self, timeout: float = 5.0) -> FakeInteraction:
        """Wait until the bot's callback was accepted; TimeoutError after ``timeout`` s."""
        await asyncio.wait_for(self.responded.wait(), timeout)
        return self
