"""The web table's :class:`bot.ports.notifier.Notifier`: every published change goes to
the open pages of its table (:meth:`bot.web.pages.hub.PageHub.publish`), each laid out
from the :class:`~bot.ports.screens.TableUpdate` for that page's person only: a seat's
own screen to its owner, the public table to spectators. It never calls the service.

The web table serves the tables of every platform, so the composition root registers it
for all of them (``every_platform``: :meth:`bot.service.service.GameService.register`)."""

from __future__ import annotations

from bot.ports.screens import CoachAdvice, TableFault, TableUpdate, TimerWarning
from bot.web.pages.hub import PageHub

__all__ = ["WebNotifier"]


class WebNotifier:
    """Hands updates to ``hub`` once the web table runs (before: nothing is open)."""

    def __init__(self) -> None:
        self.hub: PageHub | None = None

    async def publish(self, update: TableUpdate) -> None:
        """Lay the change out on the table's open pages."""
        if self.hub is not None:
            await self.hub.publish(update)

    async def warn(self, warning: TimerWarning) -> None:
        """Tell the person's open pages that their turn runs out."""
        if self.hub is not None:
            await self.hub.warn(warning)

    async def coach(self, advice: CoachAdvice) -> None:
        """The coach's notes on the person's open pages of that table (their panel)."""
        if self.hub is not None:
            await self.hub.coach(advice)

    async def fault(self, fault: TableFault) -> None:
        """Nothing to push: the web table has no chat of its own; a page of that table is
        answered with the refusal (the table cannot be loaded) on its next message."""
