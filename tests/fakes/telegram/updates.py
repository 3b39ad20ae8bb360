"""The pending-update queue behind ``getUpdates`` long polling.

Telegram semantics (https://core.telegram.org/bots/api#getupdates):

- ``offset`` confirms every update with a smaller id (they are forgotten); a
  negative offset keeps only the last ``-offset`` updates; 0 / missing confirms
  nothing.
- ``limit`` 1..100 (anything else means 100).
- ``timeout`` seconds of long polling: the call returns as soon as an update is
  queued, or with ``[]`` when the time is up.
- ``allowed_updates`` is remembered and filters updates *created after* the
  call; ``[]`` restores the default (every type except ``chat_member``,
  ``message_reaction`` and ``message_reaction_count``).
- A second ``getUpdates`` while one is waiting ends the first with 409
  "Conflict: terminated by other getUpdates request; ...".
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import suppress
from typing import Any

from .errors import TERMINATED_BY_OTHER_POLL, conflict

NOT_BY_DEFAULT = frozenset({"chat_member", "message_reaction", "message_reaction_count"})
MAX_LIMIT = 100
MAX_TIMEOUT = 50.0


class UpdateQueue:
    """Updates waiting for the bot, with Telegram's ``getUpdates`` behaviour."""

    def __init__(self, first_update_id: int = 100_000) -> None:
        self._pending: list[dict[str, Any]] = []
        self._next_id = first_update_id
        self._allowed: frozenset[str] | None = None
        self._wake = asyncio.Event()
        self._poll_generation = 0
        self._closed = False
        self._waiting = 0
        self.listener: Callable[[], None] | None = None  # told when a poll starts waiting

    @property
    def pending(self) -> list[dict[str, Any]]:
        """Updates not yet confirmed by an ``offset``, oldest first."""
        return list(self._pending)

    @property
    def waiting(self) -> int:
        """How many ``getUpdates`` calls are waiting for updates right now."""
        return self._waiting

    @property
    def allowed_updates(self) -> frozenset[str] | None:
        """The remembered ``allowed_updates`` filter (None = Telegram's default)."""
        return self._allowed

    def accepts(self, kind: str) -> bool:
        """Whether an update of ``kind`` created now would be delivered."""
        if self._allowed is None:
            return kind not in NOT_BY_DEFAULT
        return kind in self._allowed

    def push(self, kind: str, payload: dict[str, Any]) -> int | None:
        """Queue ``{"update_id": n, kind: payload}``; None if ``allowed_updates`` drops it."""
        if not self.accepts(kind):
            return None
        update_id = self._next_id
        self._next_id += 1
        self._pending.append({"update_id": update_id, kind: payload})
        self._notify()
        return update_id

    @property
    def last_id(self) -> int:
        """The id of the newest update queued so far (0 before the first)."""
        return self._next_id - 1

    def clear(self) -> None:
        """Drop every pending update (``drop_pending_updates``)."""
        self._pending.clear()

    def close(self) -> None:
        """End all long polls now (server shutdown); they answer ``[]``."""
        self._closed = True
        self._notify()

    def _notify(self) -> None:
        self._wake.set()
        self._wake = asyncio.Event()

    def _confirm(self, offset: int) -> None:
        if offset > 0:
            self._pending = [u for u in self._pending if u["update_id"] >= offset]
        elif offset < 0:
            self._pending = self._pending[offset:]

    async def get(
        self,
        offset: int = 0,
        limit: int = MAX_LIMIT,
        timeout: float = 0.0,
        allowed_updates: list[str] | None = None,
    ) -> list[dict[str, Any]]:
        """Answer one ``getUpdates`` call (see the module docstring for the rules).

        Raises ``ApiError`` 409 when a newer ``getUpdates`` call took over.
        """
        if allowed_updates is not None:
            self._allowed = frozenset(allowed_updates) if allowed_updates else None
        if not 1 <= limit <= MAX_LIMIT:
            limit = MAX_LIMIT
        self._poll_generation += 1
        generation = self._poll_generation
        self._notify()  # a waiting older poll sees the newer generation and gives up
        self._confirm(offset)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + min(max(timeout, 0.0), MAX_TIMEOUT)
        self._waiting += 1
        try:
            while True:
                if generation != self._poll_generation:
                    raise conflict(TERMINATED_BY_OTHER_POLL)
                remaining = deadline - loop.time()
                if self._pending or self._closed or remaining <= 0:
                    return list(self._pending[:limit])
                wake = self._wake
                if self.listener is not None:
                    self.listener()
                with suppress(TimeoutError):
                    await asyncio.wait_for(wake.wait(), remaining)
        finally:
            self._waiting -= 1
