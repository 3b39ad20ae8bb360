"""Roles one process among several holds at a time (:class:`RoleLock`): the Telegram
poller (Telegram gives each update to one long poll; two pollers end each other's polls
with 409 Conflict), a worker's name in the leases on due work.

On PostgreSQL a role is a session advisory lock on a connection of its own
(:meth:`bot.storage.postgres.PostgresRepository.take_role`): a process that dies loses it
with its connection, and a holder whose connection ends or stops answering is told at
once (:meth:`RoleLock.lost`) so it can stop acting in the role before another process
takes it. With one process per database (SQLite, the terminal) every role is held for
good (:class:`HeldForever`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Protocol

__all__ = ["HeldForever", "RoleLock", "RoleTaker", "hold_forever"]


class RoleLock(Protocol):
    """A role this process holds until :meth:`lost` returns or it is released."""

    @property
    def held(self) -> bool:
        """False once the role is lost or released."""
        ...

    async def lost(self) -> None:
        """Return once the role is lost: its connection ended or stopped answering (the
        holder must stop acting in the role at once: another process may have it)."""
        ...

    async def release(self) -> None:
        """Give the role up (another process may take it)."""
        ...


RoleTaker = Callable[[str], Awaitable[RoleLock | None]]
"""Takes a role (``telegram-polling``, ``worker:<id>``) now: the lock, or ``None`` when
another live process holds it (try again later)."""


class HeldForever:
    """A role nobody else can want (one process per database): held until released."""

    def __init__(self) -> None:
        self._released = asyncio.Event()

    @property
    def held(self) -> bool:
        """True until :meth:`release`."""
        return not self._released.is_set()

    async def lost(self) -> None:
        """Returns only after :meth:`release`."""
        await self._released.wait()

    async def release(self) -> None:
        """Give it up."""
        self._released.set()


async def hold_forever(role: str) -> RoleLock:
    """A :data:`RoleTaker` for one process per database: every role is granted."""
    del role
    return HeldForever()
