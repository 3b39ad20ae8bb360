"""Group messages go out through one queue per chat, so a burst of changes (AI moves
1.5 s apart, Telegram allowing about 20 messages a minute in a group) never piles up:
a job queued under the key of a job still waiting *replaces* it (the newest table text
wins), and the chat's jobs run one after another in the order they were first queued,
``first`` jobs (the table message's edits) before the others (pings): at the group limit
the table keeps up with the game and a ping waits.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]


class Outbox:
    """Per-chat serial senders with replace-while-waiting jobs."""

    def __init__(self) -> None:
        self._queues: dict[int, dict[str, Job]] = {}
        self._first: set[str] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def put(self, chat: int, key: str, job: Job, first: bool = False) -> None:
        """Queue ``job`` for ``chat``; a waiting job with the same ``key`` is replaced (it
        keeps its place in the line). ``first``: run before the chat's other jobs."""
        self._queues.setdefault(chat, {})[key] = job
        if first:
            self._first.add(key)
        task = self._tasks.get(chat)
        if task is None or task.done():
            self._tasks[chat] = asyncio.create_task(self._drain(chat))

    async def _drain(self, chat: int) -> None:
        queue = self._queues[chat]
        while queue:
            key = next((k for k in queue if k in self._first), None) or next(iter(queue))
            job = queue.pop(key)
            self._first.discard(key)
            try:
                await job()
            except Exception:  # one failed send must not stop the chat's queue
                log.exception("sending to chat %s failed", chat)

    def busy(self) -> bool:
        """True while any job waits or runs."""
        return any(not task.done() for task in self._tasks.values())

    async def idle(self) -> None:
        """Wait until every queued job has run (jobs queued meanwhile included)."""
        while True:
            running = [t for t in self._tasks.values() if not t.done()]
            if not running:
                return
            await asyncio.gather(*running, return_exceptions=True)
