"""Changes committed by other processes: the :class:`ChangeFeed` port.

With several workers sharing one PostgreSQL database, a change of a table is published to
the notifiers of the worker that committed it only. A front end that keeps screens open
(the web table) also needs the changes the other workers commit: the storage announces
each commit (its table id and new version) and a feed hands those announcements to the
front end, which then asks the entry point for the fresh screens
(:meth:`bot.ports.entry.Entry.screens`). The composition root builds the feed from the
storage (:class:`bot.storage.feed.PostgresChangeFeed`) and hands it to the front end, so
front ends never import the storage.

A feed also announces this worker's own commits; a front end skips a version it has shown
already.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

__all__ = ["ChangeFeed", "ChangeListener", "TableChanged"]


@dataclass(frozen=True, slots=True)
class TableChanged:
    """Table ``table_id`` was committed at ``version`` (by any worker)."""

    table_id: int
    version: int


ChangeListener = Callable[[TableChanged], None]
"""Called on the event loop for every announced commit; it must not block (schedule the
work it needs)."""


class ChangeFeed(Protocol):
    """Announcements of committed table changes."""

    async def start(self, listener: ChangeListener) -> None:
        """Begin handing announcements to ``listener`` (returns once listening)."""

    async def stop(self) -> None:
        """Stop listening."""
