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
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

from aiolimiter import AsyncLimiter

from bot.service.errors import ServiceError

K = TypeVar("K")
V = TypeVar("V")

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


class _Bounded(Generic[K, V]):
    """A least-recently-used map of at most ``size`` entries."""

    def __init__(self, size: int, make: Callable[[], V]) -> None:
        self.size = size
        self.make = make
        self.items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V:
        value = self.items.get(key)
        if value is None:
            value = self.items[key] = self.make()
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        else:
            self.items.move_to_end(key)
        return value

    def __len__(self) -> int:
        return len(self.items)


class FlowControl:
    """Per-person and per-chat token buckets, and coalesced refusals (module docs).

    ``user_rate`` / ``chat_rate``: ``(burst, seconds)`` as in :data:`USER_RATE`.
    ``clock``: seconds for the refusal window (injectable for tests). ``limited=False``
    admits everything (the terminal: one person at their own keyboard)."""

    def __init__(self, user_rate: tuple[int, float] = USER_RATE,
                 chat_rate: tuple[int, float] = CHAT_RATE, max_keys: int = MAX_KEYS,
                 coalesce: float = COALESCE_SECONDS,
                 clock: Callable[[], float] = time.monotonic, limited: bool = True) -> None:
        self.limited = limited
        self._users: _Bounded[str, AsyncLimiter] = _Bounded(
            max_keys, lambda: AsyncLimiter(*user_rate))
        self._chats: _Bounded[str, AsyncLimiter] = _Bounded(
            max_keys, lambda: AsyncLimiter(*chat_rate))
        self._said: OrderedDict[tuple[str, str, str], float] = OrderedDict()
        self._max_keys = max_keys
        self._coalesce = coalesce
        self._clock = clock
        self.refused = 0

    async def admit(self, user_key: str, chat_key: str) -> bool:
        """Take a token for the person and one for the chat; False (taking nothing) when
        either bucket is empty."""
        if not self.limited:
            return True
        user = self._users.get(user_key)
        chat = self._chats.get(chat_key)
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
            self._said.move_to_end(key)
            return False
        self._said[key] = now
        self._said.move_to_end(key)
        while len(self._said) > self._max_keys:
            self._said.popitem(last=False)
        return True

    def sizes(self) -> tuple[int, int, int]:
        """Buckets of people, of chats, and remembered refusals (for tests and
        operators: all stay bounded)."""
        return len(self._users), len(self._chats), len(self._said)
