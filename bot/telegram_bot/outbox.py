"""Group messages go out through one queue per chat, so a burst of changes (AI moves
1.5 s apart, Telegram allowing about 20 messages a minute in a group) never piles up:
a job queued under the key of a job still waiting *replaces* it (the newest table text
wins), and the chat's jobs run one after another in the order they were first queued,
``first`` jobs (the table message's edits) before the others (pings): at the group limit
the table keeps up with the game and a ping waits.

A job that fails because Telegram could not be reached for a moment (``NetworkError``: a
timeout, a refused connection, a 5xx answer) is queued again after :data:`RETRY_DELAYS`,
unless a newer job of its key is waiting by then; so a turn ping is not lost to a network
blip (a slow game would wait for a person who was never told). The jobs guard
themselves: a table edit never draws an older version over a newer one, a ping of a turn
that is over is dropped, and a keyed send that may have reached the chat before the
failure is counted when it goes out again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from telegram.error import NetworkError

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]

RETRY_DELAYS = (1.0, 5.0, 30.0)
"""Seconds before a job that failed on the network runs again: after the first failure,
the second and the third; then it is given up (logged)."""


class Outbox:
    """Per-chat serial senders with replace-while-waiting jobs."""

    def __init__(self) -> None:
        self._queues: dict[int, dict[str, Job]] = {}
        self._first: set[str] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        #: (chat, key) -> how often its job failed on the network in a row, and the job.
        self._failures: dict[tuple[int, str], tuple[int, Job]] = {}
        self._retries: set[asyncio.TimerHandle] = set()
        #: Jobs queued again after a network failure, and jobs given up, in total.
        self.retried = 0
        self.given_up = 0

    def put(self, chat: int, key: str, job: Job, first: bool = False) -> None:
        """Queue ``job`` for ``chat``; a waiting job with the same ``key`` is replaced (it
        keeps its place in the line). ``first``: run before the chat's other jobs."""
        self._failures.pop((chat, key), None)
        self._queue(chat, key, job, first)

    def _queue(self, chat: int, key: str, job: Job, first: bool) -> None:
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
            first = key in self._first
            self._first.discard(key)
            try:
                await job()
            except NetworkError as error:  # Telegram out of reach for a moment
                self._failed(chat, key, job, first, error)
            except Exception:  # one failed send must not stop the chat's queue
                log.exception("sending to chat %s failed", chat)
            else:
                self._failures.pop((chat, key), None)

    def _failed(self, chat: int, key: str, job: Job, first: bool, error: Exception) -> None:
        """Queue ``job`` again later (see the module docstring), or give it up."""
        failures = self._failures.get((chat, key), (0, job))[0]
        if failures >= len(RETRY_DELAYS):
            self._failures.pop((chat, key), None)
            self.given_up += 1
            log.warning(
                "sending %s to chat %s failed %d times (%s); given up",
                key,
                chat,
                failures + 1,
                error,
            )
            return
        self._failures[(chat, key)] = (failures + 1, job)
        log.info(
            "sending %s to chat %s failed (%s); again in %.0f s",
            key,
            chat,
            error,
            RETRY_DELAYS[failures],
        )

        def again() -> None:
            self._retries.discard(handle)
            if self._failures.get((chat, key)) != (failures + 1, job):
                return  # a newer job of that key was queued meanwhile
            self.retried += 1
            self._queue(chat, key, job, first)

        handle = asyncio.get_running_loop().call_later(RETRY_DELAYS[failures], again)
        self._retries.add(handle)

    def close(self) -> None:
        """Forget the jobs waiting to be tried again (the adapter stops)."""
        for handle in self._retries:
            handle.cancel()
        self._retries.clear()
        self._failures.clear()

    def busy(self) -> bool:
        """True while any job waits or runs (a job waiting to be tried again included)."""
        return bool(self._retries) or any(not task.done() for task in self._tasks.values())

    async def idle(self) -> None:
        """Wait until every queued job has run (jobs queued meanwhile included)."""
        while True:
            running = [t for t in self._tasks.values() if not t.done()]
            if not running:
                return
            await asyncio.gather(*running, return_exceptions=True)
