"""Roles among worker processes on PostgreSQL (:class:`PgRoleLock`, the
:class:`bot.ports.roles.RoleLock` of :meth:`bot.storage.postgres.PostgresRepository.take_role`).

A role is a session advisory lock (``pg_try_advisory_lock``) on a connection of its own:
the server drops it when that session ends, however the process died. The holder is told
the role is lost (:meth:`PgRoleLock.lost`) as soon as

- the connection ends (asyncpg's termination listener: a terminated backend
  (``pg_terminate_backend``, a restarted or failed-over server) closes the socket), or
- the connection stops answering: every :data:`CHECK_EVERY` seconds a ``SELECT 1`` must
  come back within :data:`CHECK_TIMEOUT` (a network path that silently broke); TCP
  keepalives make the server notice such a connection too and free the lock.

A lost role's connection is closed at once: the lock is then surely gone (or goes when
the server notices), so another process may take it while this one has stopped acting.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from typing import Any

import asyncpg

__all__ = ["CHECK_EVERY", "CHECK_TIMEOUT", "PgRoleLock", "role_key", "take_role"]

log = logging.getLogger(__name__)

CHECK_EVERY = 2.0
"""Seconds between two checks that the role's connection still answers."""

CHECK_TIMEOUT = 2.0
"""Seconds a check may take before the role counts as lost."""

KEEPALIVES = {
    "tcp_keepalives_idle": "5",
    "tcp_keepalives_interval": "2",
    "tcp_keepalives_count": "3",
}
"""The server side of the role connection probes a silent client after 5 s, every 2 s,
three times: a holder cut off from the server loses its lock within about 11 s."""


def role_key(role: str) -> int:
    """The advisory lock key of ``role``: the first 8 bytes of its BLAKE2b hash as a
    signed 64-bit integer (distinct roles, distinct keys, whatever their length)."""
    digest = hashlib.blake2b(role.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class PgRoleLock:
    """``role`` held through ``conn`` (see the module docstring)."""

    def __init__(self, role: str, conn: asyncpg.Connection) -> None:
        self.role = role
        self._conn = conn
        self._lost = asyncio.Event()
        conn.add_termination_listener(self._terminated)
        self._watch = asyncio.create_task(self._check(), name=f"role {role}")

    @property
    def held(self) -> bool:
        """False once the connection ended, stopped answering or was released."""
        return not self._lost.is_set()

    async def lost(self) -> None:
        """Return once the role is lost (or released)."""
        await self._lost.wait()

    def _terminated(self, _conn: Any) -> None:
        if not self._lost.is_set():
            log.warning("role %s lost: its database connection ended", self.role)
            self._lose()

    def _lose(self) -> None:
        self._lost.set()
        self._conn.terminate()  # at once: no goodbye that could hang on a dead network

    async def _check(self) -> None:
        while not self._lost.is_set():
            await asyncio.sleep(CHECK_EVERY)
            if self._lost.is_set():
                return
            try:
                await asyncio.wait_for(self._conn.fetchval("SELECT 1"), CHECK_TIMEOUT)
            except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                if not self._lost.is_set():
                    log.warning(
                        "role %s lost: its database connection does not answer (%s)",
                        self.role,
                        type(error).__name__,
                    )
                    self._lose()
                return

    async def release(self) -> None:
        """Unlock and close the connection (another process may take the role)."""
        if self._lost.is_set():
            return
        self._lost.set()
        self._watch.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._watch
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._conn.close(), CHECK_TIMEOUT)
        self._conn.terminate()


async def take_role(url: str, role: str, server_settings: dict[str, str]) -> PgRoleLock | None:
    """Connect to ``url`` and try the role's lock: the held lock, or ``None`` (connection
    closed again) when another session holds it. Raises asyncpg's and the socket's
    errors when the server cannot be reached."""
    conn = await asyncpg.connect(url, server_settings={**server_settings, **KEEPALIVES}, timeout=10)
    try:
        taken = await conn.fetchval("SELECT pg_try_advisory_lock($1)", role_key(role))
    except BaseException:
        conn.terminate()
        raise
    if not taken:
        await conn.close()
        return None
    return PgRoleLock(role, conn)
