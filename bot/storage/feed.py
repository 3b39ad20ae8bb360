"""The change feed of several workers on PostgreSQL (:class:`PostgresChangeFeed`): a
``LISTEN`` connection of its own on the channel that every commit notifies
(:data:`bot.storage.postgres.CHANGES_CHANNEL`, payload ``<table id>:<version>``), handing
each announcement to its listeners (:class:`bot.ports.feed.ChangeFeed`): the web table's
page hub and the delivery of changes to the chats this worker shows share one connection
(:meth:`PostgresChangeFeed.subscription`).

A lost connection (a restarted server) is opened again with back-off; announcements
missed meanwhile are not replayed, so after a reconnect the listener is told
:data:`RESYNC` (table id 0): a front end then refreshes every screen it keeps open.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import asyncpg

from bot.ports.feed import ChangeListener, TableChanged
from bot.storage.postgres import CHANGES_CHANNEL

__all__ = ["RESYNC", "FeedSubscription", "PostgresChangeFeed", "parse_payload"]

log = logging.getLogger(__name__)

RESYNC = TableChanged(0, 0)
"""Told after the connection was lost and opened again: any table may have changed."""

RETRY_FIRST = 1.0
RETRY_MAX = 30.0


def parse_payload(payload: str) -> TableChanged | None:
    """``"12:34"`` -> ``TableChanged(12, 34)``; ``None`` for anything else."""
    table, _, version = payload.partition(":")
    if not (table.isdigit() and version.isdigit()):
        return None
    return TableChanged(int(table), int(version))


class PostgresChangeFeed:
    """:class:`bot.ports.feed.ChangeFeed` on the database at ``url``."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._listeners: list[ChangeListener] = []
        self._conn: asyncpg.Connection | None = None
        self._task: asyncio.Task[None] | None = None
        self._lost = asyncio.Event()
        self._stopping = False

    def subscription(self) -> FeedSubscription:
        """A :class:`bot.ports.feed.ChangeFeed` on this feed's connection for one more
        listener (the connection closes when the last subscription stops)."""
        return FeedSubscription(self)

    async def start(self, listener: ChangeListener) -> None:
        """Hand announcements to ``listener`` too; the first listener connects and
        ``LISTEN``s (raises ``OSError`` / asyncpg's errors when the server cannot be
        reached at start: the listener is not kept)."""
        self._listeners.append(listener)
        if self._task is not None:
            return
        try:
            await self._connect()
        except BaseException:
            self._listeners.remove(listener)
            raise
        self._stopping = False
        self._task = asyncio.create_task(self._keep_connected())

    async def leave(self, listener: ChangeListener) -> None:
        """Stop handing announcements to ``listener``; stop when it was the last."""
        with contextlib.suppress(ValueError):
            self._listeners.remove(listener)
        if not self._listeners:
            await self.stop()

    async def _connect(self) -> None:
        conn = await asyncpg.connect(self.url)
        await conn.add_listener(CHANGES_CHANNEL, self._notified)
        conn.add_termination_listener(lambda _conn: self._lost.set())
        self._conn = conn
        self._lost.clear()

    def _notified(self, _conn: Any, _pid: int, _channel: str, payload: object) -> None:
        change = parse_payload(str(payload))
        if change is not None:
            self._tell(change)

    def _tell(self, change: TableChanged) -> None:
        for listener in list(self._listeners):
            try:
                listener(change)
            except Exception:  # one listener's failure must not keep the others uninformed
                log.exception("change feed: a listener failed on %s", change)

    async def _keep_connected(self) -> None:
        while not self._stopping:
            await self._lost.wait()
            if self._stopping:
                return
            delay = RETRY_FIRST
            while not self._stopping:
                try:
                    await self._connect()
                except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                    log.warning("change feed: %s; next attempt in %.0f s", error, delay)
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, RETRY_MAX)
                    continue
                self._tell(RESYNC)
                break

    async def stop(self) -> None:
        """Stop listening (every listener) and close the connection."""
        self._stopping = True
        self._listeners.clear()
        self._lost.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
            self._conn = None


class FeedSubscription:
    """One listener's share of a :class:`PostgresChangeFeed` (a
    :class:`bot.ports.feed.ChangeFeed`)."""

    def __init__(self, feed: PostgresChangeFeed) -> None:
        self.feed = feed
        self._listener: ChangeListener | None = None

    async def start(self, listener: ChangeListener) -> None:
        """Hand announcements to ``listener`` (see :meth:`PostgresChangeFeed.start`)."""
        await self.feed.start(listener)
        self._listener = listener

    async def stop(self) -> None:
        """Stop handing them; the feed's connection closes after its last listener."""
        if self._listener is not None:
            listener, self._listener = self._listener, None
            await self.feed.leave(listener)
