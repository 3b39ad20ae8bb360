"""The one shape of every front end (:class:`FrontEnd`): Telegram, Discord and the web table
are started and stopped by the chat bot's runner (:mod:`bot.runner`) through it, each
handed the same :class:`bot.ports.host.Host`; the terminal's composition root
(:mod:`bot.play`) builds its front end the same way.

A front end decodes its platform's input into :class:`bot.ports.intents.Intent` records for
``host.entry`` and lays out the screens the service hands its :attr:`FrontEnd.notifier`;
it never reaches into the service or the storage (import contracts in pyproject.toml).
"""

from __future__ import annotations

from typing import Protocol

from bot.ports.host import Host
from bot.ports.notifier import Notifier

__all__ = ["FrontEnd"]


class FrontEnd(Protocol):
    """A front end of the bot: its ``platform`` name (the platform of the chat keys it
    shows: ``telegram``, ``discord``; ``web``), the :class:`Notifier` the service calls,
    and start/stop around the service's lifetime. ``every_platform``: its notifier shows
    the tables of every platform (the web table opens inside each chat), not only its own
    platform's."""

    platform: str
    every_platform: bool

    @property
    def notifier(self) -> Notifier:
        """What the service calls to show changes on this front end."""

    async def start(self, host: Host) -> None:
        """Connect and begin handling input (returns once running): the ``host`` brings
        the service's entry point, the message rows, the process's HTTP server and, with
        several workers, a change feed of its own. Raises
        :class:`bot.adapter_errors.PlatformUnreachable` (tried again later) or
        :class:`bot.adapter_errors.PlatformRefused` (stays off)."""

    async def stop(self) -> None:
        """Stop taking input, let running handlers finish, disconnect."""
