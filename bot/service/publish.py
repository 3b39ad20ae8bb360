"""Fan-out of computed screens to the front ends (:class:`Publisher`).

Each table lives on one platform (its chat key's), whose notifier shows it there; a
front end that serves every platform (the web table) is told about every table too. A
notifier that fails is logged and never undoes a committed move, nor keeps the other
notifiers from their update.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Iterator, Mapping

from bot.ports.notifier import Notifier
from bot.ports.screens import CoachAdvice, TableFault, TableUpdate, TimerWarning

__all__ = ["Publisher", "safely"]

log = logging.getLogger(__name__)


async def safely(call: Awaitable[None]) -> None:
    """A notification that fails (platform down) never undoes a committed move."""
    try:
        await call
    except Exception:
        log.exception("notification failed")


class Publisher:
    """``notifiers``: platform name -> its notifier (the chat platforms, the terminal);
    ``everywhere``: notifiers told about the tables of every platform (the web table)."""

    def __init__(self, notifiers: Mapping[str, Notifier] | None = None) -> None:
        self.notifiers: dict[str, Notifier] = dict(notifiers or {})
        self.everywhere: list[Notifier] = []

    def _for(self, platform: str) -> Iterator[Notifier]:
        own = self.notifiers.get(platform)
        if own is not None:
            yield own
        yield from self.everywhere

    def shows(self, platform: str) -> bool:
        """Whether this process has the front end of ``platform``'s chats."""
        return platform in self.notifiers

    async def publish(self, update: TableUpdate, chats: bool = True) -> None:
        """Hand ``update`` to the notifiers of its table's platform (``chats``: the chat's
        own too; ``False`` when another worker shows the chat:
        :mod:`bot.service.delivery`)."""
        notifiers = self._for(update.info.key.platform) if chats else iter(self.everywhere)
        for notifier in notifiers:
            await safely(notifier.publish(update))

    async def warn(self, warning: TimerWarning) -> None:
        """Hand a timer warning to the notifiers of its table's platform."""
        for notifier in self._for(warning.info.key.platform):
            await safely(notifier.warn(warning))

    async def coach(self, advice: CoachAdvice) -> None:
        """Hand the coach's notes to the notifiers of the table's platform (the person's
        private place there, and their web pages)."""
        for notifier in self._for(advice.info.key.platform):
            await safely(notifier.coach(advice))

    async def fault(self, fault: TableFault) -> None:
        """Tell the chat of a table that cannot be loaded (its platform's notifiers)."""
        for notifier in self._for(fault.key.platform):
            await safely(notifier.fault(fault))
