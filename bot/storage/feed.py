"""The change feed of several workers on PostgreSQL (:class:`PostgresChangeFeed`): a
``LISTEN`` connection of its own on the channel that every commit notifies
(:data:`bot.storage.postgres.CHANGES_CHANNEL`, payload ``<table id>:<version>``), handing
each announcement to the web table (:class:`bot.ports.feed.ChangeFeed`).

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

__all__ = ["RESYNC", "PostgresChangeFeed", "parse_payload"]

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
        self._listener: ChangeListener | None = None
        self._conn: asyncpg.Connection | None = None
        self._task: asyncio.Task[None] | None = None
        self._lost = asyncio.Event()
        self._stopping = False

    async def start(self, listener: ChangeListener) -> None:
        """Connect and ``LISTEN``; raises ``OSError`` / asyncpg's errors when the
        server cannot be reached at start."""
        self._listener = listener
        await self._connect()
        self._task = asyncio.create_task(self._keep_connected())

    async def _connect(self) -> None:
        conn = await asyncpg.connect(self.url)
        await conn.add_listener(CHANGES_CHANNEL, self._notified)
        conn.add_termination_listener(lambda _conn: self._lost.set())
        self._conn = conn
        self._lost.clear()

    def _notified(self, _conn: Any, _pid: int, _channel: str, payload: object) -> None:
        change = parse_payload(str(payload))
        if change is not None and self._listener is not None:
            self._listener(change)

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
                if self._listener is not None:
                    self._listener(RESYNC)
                break

    async def stop(self) -> None:
        """Stop listening and close the connection."""
        self._stopping = True
        self._lost.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
            self._conn = None
