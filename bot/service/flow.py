"""Flow control in front of the service: how fast one person and one chat may send.

Each person and each chat has a token bucket (``aiolimiter.AsyncLimiter``, a leaky
bucket: a burst of ``rate`` commands, refilled at ``rate`` per ``period`` seconds). An
update over either limit is refused before it reaches the service, so one person sending
1,000 commands a second costs the other tables nothing but the refusals. Refusals are
said once: the same refusal to the same person in the same chat within
:data:`COALESCE_SECONDS` is not repeated (:meth:`FlowControl.first_time`), and adapters
say refusals to people who do not play at the table privately (Discord: ephemeral;
Telegram: the button's own answer, or nothing in the group).

Memory is bounded: at most ``max_keys`` buckets and remembered refusals are kept, the
least recently used dropped first (a dropped bucket was idle, so it had refilled).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from aiolimiter import AsyncLimiter
from cachetools import LRUCache

from bot.service.errors import ServiceError

USER_RATE = (20, 10.0)
"""A person: a burst of 20 commands, then two a second (every button press counts:
selecting three cards, meld and discard are five presses within seconds)."""

CHAT_RATE = (60, 20.0)
"""A chat: a burst of 60 updates, then three a second (Telegram lets a bot post 20 messages
a minute in a group, so more could not be answered anyway)."""

COALESCE_SECONDS = 60.0
"""The same refusal is said to the same person in the same chat once per this many
seconds."""

MAX_KEYS = 50_000
"""Buckets (and remembered refusals) kept at most."""


class TooFast(ServiceError):
    """The person (or the chat) sends faster than the bot answers; nothing was done."""

    code = "too_fast"
    template = "slow down: too many commands at once; nothing was done"


def _bucket(cache: LRUCache[str, AsyncLimiter], key: str, rate: tuple[int, float]) -> AsyncLimiter:
    """``key``'s bucket in ``cache``, made at ``rate`` when it has none (a dropped bucket
    was the least recently used, so it had refilled)."""
    bucket = cache.get(key)
    if bucket is None:
        bucket = cache[key] = AsyncLimiter(*rate)
    return bucket


class FlowControl:
    """Per-person and per-chat token buckets, and coalesced refusals (module docs).

    ``user_rate`` / ``chat_rate``: ``(burst, seconds)`` as in :data:`USER_RATE`.
    ``clock``: seconds for the refusal window (injectable for tests). ``limited=False``
    admits everything (the terminal: one person at their own keyboard)."""

    def __init__(
        self,
        user_rate: tuple[int, float] = USER_RATE,
        chat_rate: tuple[int, float] = CHAT_RATE,
        max_keys: int = MAX_KEYS,
        coalesce: float = COALESCE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        limited: bool = True,
    ) -> None:
        self.limited = limited
        self._users: LRUCache[str, AsyncLimiter] = LRUCache(max_keys)
        self._chats: LRUCache[str, AsyncLimiter] = LRUCache(max_keys)
        self._user_rate = user_rate
        self._chat_rate = chat_rate
        self._said: LRUCache[tuple[str, str, str], float] = LRUCache(max_keys)
        self._coalesce = coalesce
        self._clock = clock
        self.refused = 0

    async def admit(self, user_key: str, chat_key: str) -> bool:
        """Take a token for the person and one for the chat; False (taking nothing) when
        either bucket is empty."""
        if not self.limited:
            return True
        user = _bucket(self._users, user_key, self._user_rate)
        chat = _bucket(self._chats, chat_key, self._chat_rate)
        if not (user.has_capacity() and chat.has_capacity()):
            self.refused += 1
            return False
        # Both have capacity and nothing runs in between, so neither acquire waits.
        await user.acquire()
        await chat.acquire()
        return True

    async def check(self, user_key: str, chat_key: str) -> None:
        """:meth:`admit`, raising :class:`TooFast` when refused."""
        if not await self.admit(user_key, chat_key):
            raise TooFast()

    def first_time(self, user_key: str, chat_key: str, text: str) -> bool:
        """True when this refusal ``text`` was not said to this person in this chat within
        the last :data:`COALESCE_SECONDS` (and remember it now); False: stay quiet."""
        key = (user_key, chat_key, text)
        now = self._clock()
        said = self._said.get(key)
        if said is not None and now - said < self._coalesce:
            return False
        self._said[key] = now
        return True

    def sizes(self) -> tuple[int, int, int]:
        """Buckets of people, of chats, and remembered refusals (for tests and
        operators: all stay bounded)."""
        return len(self._users), len(self._chats), len(self._said)
