"""The notifier port: how the service shows committed changes on each front end.

Each front end implements :class:`Notifier` for its platform. A notifier receives computed
screens (:mod:`bot.ports.screens`) and lays them out (an inline keyboard, Discord
components, terminal lines, a web page); it never calls the service. It sends a
:class:`~bot.ports.screens.SeatScreen` to its owner only.
"""

from __future__ import annotations

from typing import Protocol

from bot.ports.screens import TableUpdate, TimerWarning

__all__ = ["Notifier"]


class Notifier(Protocol):
    """Implemented by each front end."""

    async def publish(self, update: TableUpdate) -> None:
        """A table changed: redraw its public message and the private screens whose hand
        changed (or whose turn began), ping the seat whose turn began; skip the screen
        the front end already drew in its answer (``update.answered``)."""

    async def warn(self, warning: TimerWarning) -> None:
        """A person's turn time runs out soon."""
