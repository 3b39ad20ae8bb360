"""Keyed sends: a message that must reach a chat once (a turn ping, the first table
message, a player's first hand message) carries a key in the shared table ``sent_keys``
(issue 35 item 8). Before sending, a worker notes the key as starting; after the message
is stored, as sent. A key already sent is skipped; a key that was started but never noted
as sent belongs to a worker that died between the two: the send goes out again and is
counted (the chat may show it twice), so the one possible repeat is detected, never
silent."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

__all__ = ["KeyedSends"]

log = logging.getLogger(__name__)


class KeyedSends:
    """One adapter's keyed sends. ``begin`` notes a key as starting and returns its state
    before: ``"new"``, ``"again"`` or ``"sent"`` (the message stores' ``begin_send``)."""

    def __init__(self, begin: Callable[[str], Awaitable[str]]) -> None:
        self._begin = begin
        #: Sends made again because the worker that tried them before died between sending
        #: and noting them.
        self.repeated = 0

    async def may_send(self, key: str) -> bool:
        """Whether the send ``key`` should go out (see the module docstring)."""
        state = await self._begin(key)
        if state == "sent":
            return False
        if state == "again":
            self.repeated += 1
            log.warning(
                "send %s may be repeated: the worker that tried it before stopped "
                "between sending and noting it",
                key,
            )
        return True
