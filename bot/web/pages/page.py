"""One open page (:class:`Page`): a person's WebSocket at one table, with what it shows."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable

from bot.interaction.hand_session import HandSession
from bot.ports.model import UserRef
from bot.ports.screens import SeatScreen, TableScreen

__all__ = ["SEND_SECONDS", "Page", "Send"]

SEND_SECONDS = 5.0
"""A page that takes longer to accept a frame is given up (it reconnects and catches up)."""

Send = Callable[[str], Awaitable[None]]
"""Sends one text frame to the page (raises ``ConnectionError`` when it has gone)."""


class Page:
    """``user``'s page on table ``table_id``, sending through ``send``.

    What the page shows: ``table`` (the public screen), ``screen`` (the person's own seat
    screen; ``None`` for a spectator) at ``version``, ``evented``: the newest version
    whose events the page was sent, the ``hand`` session (order and selection), and
    the page's language ``locale``."""

    def __init__(self, user: UserRef, table_id: int, send: Send, locale: str) -> None:
        self.id = secrets.token_urlsafe(9)
        self.user = user
        self.table_id = table_id
        self.send = send
        self.locale = locale
        self.hand = HandSession()
        self.version = -1
        self.evented = -1
        self.table: TableScreen | None = None
        self.screen: SeatScreen | None = None
        self.closed = False
        #: Frames and bytes sent (the benchmark reads them).
        self.frames = 0
        self.bytes = 0

    async def push(self, text: str) -> bool:
        """Send one frame; False (and :attr:`closed`) when the page has gone."""
        if self.closed:
            return False
        try:
            await asyncio.wait_for(self.send(text), SEND_SECONDS)
        except (ConnectionError, RuntimeError, TimeoutError):
            self.closed = True  # gone, or not reading: never hold up the other pages
            return False
        self.frames += 1
        self.bytes += len(text.encode())
        return True
