"""The outbox port (:class:`OutboxStore`): what the service keeps in the database so that
several workers show every chat the same way (issue 35, "several workers for real").

- Every commit writes a *change row* in its own transaction: the change's events and
  notices as JSON (:mod:`bot.service.change_records`), which seats' hands changed and
  whose turn began. The table message's recent lines come from the last rows, so every
  worker draws the same lines in version order, and a change committed by a worker that
  died before it was shown is still there to be shown.
- One worker at a time shows a chat (its table message, pings, the other people's hand
  messages): the *chat owner*, a lease renewed while the worker lives and deleted when it
  stops. A lease that ran out belongs to a worker that died: another one takes the chat
  and draws its tables again.
- A send that is not an edit by version (a turn ping, the first table message) carries a
  *send key*: marked ``sending`` before the call and ``sent`` after it, so a retry after a
  crash between the two is detected (and counted).

Times are seconds of the service's clock (the database's on PostgreSQL).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

__all__ = ["ChangeRow", "OutboxStore", "SendState"]

SendState = str
"""``"new"`` (first attempt), ``"again"`` (an earlier attempt may have reached the platform:
its worker died between the call and the mark) or ``"sent"`` (done: skip it)."""


@dataclass(frozen=True, slots=True)
class ChangeRow:
    """One stored change of a table: the ``version`` it produced, its JSON ``record`` and
    whether the chat's owner has ``shown`` it."""

    version: int
    record: str
    shown: bool


class OutboxStore(Protocol):
    """Change rows, chat owners and send keys (see the module docstring)."""

    async def recent_changes(self, table_id: int, limit: int) -> list[ChangeRow]:
        """The last ``limit`` change rows of a table, oldest first."""
        ...

    async def mark_shown(self, table_id: int, version: int, keep: int) -> None:
        """The rows of ``table_id`` up to ``version`` are shown; shown rows older than the
        ``keep`` newest are deleted (now and then: a few more may stay)."""
        ...

    async def unshown_tables(self, before: float, since: float) -> list[tuple[int, str]]:
        """(table id, chat key) of every table with a change row not shown and written
        between ``since`` and ``before``."""
        ...

    async def take_chat(
        self, chat_key: str, owner: str, now: float, seconds: float
    ) -> tuple[bool, bool]:
        """Lease the chat to ``owner`` until ``now + seconds`` when it is free, run out or
        ``owner``'s already. Returns (owned now, taken from a worker whose lease ran out)."""
        ...

    async def renew_chats(self, owner: str, until: float) -> int:
        """Extend every lease of ``owner`` to ``until``; returns how many it holds."""
        ...

    async def release_chats(self, owner: str) -> None:
        """Give up every lease of ``owner`` (it stops, having shown everything)."""
        ...

    async def lapsed_chats(self, now: float) -> list[str]:
        """Chats whose owner's lease ran out before ``now`` (its worker died)."""
        ...

    async def begin_send(self, key: str, now: float) -> SendState:
        """Note that a keyed send starts (see :data:`SendState`)."""
        ...

    async def end_send(self, key: str) -> None:
        """Note that the keyed send reached the platform."""
        ...
