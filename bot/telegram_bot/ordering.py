"""Updates of different chats handled at once, each chat's in order.

python-telegram-bot handles one update at a time by default: one slow command (or one
flooding user) delays every other group. :class:`ChatOrderedProcessor` lets up to
``max_concurrent_updates`` updates run together, but never two of the same chat, so a
chat's commands (and so its table) keep their order. The per-chat locks live only while
an update of that chat runs or waits.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

#: Updates handled at once (each is mostly waiting for the database, the engine's worker
#: processes or Telegram).
CONCURRENT_UPDATES = 64


class ChatOrderedProcessor(BaseUpdateProcessor):
    """Concurrent across chats, sequential within one chat (see the module docs)."""

    def __init__(self, max_concurrent_updates: int = CONCURRENT_UPDATES) -> None:
        super().__init__(max_concurrent_updates)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def _lock(self, update: object) -> asyncio.Lock:
        chat = update.effective_chat if isinstance(update, Update) else None
        key = chat.id if chat is not None else 0
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        """Run the update's handlers once no earlier update of its chat is running."""
        async with self._lock(update):
            await coroutine

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to tear down."""
