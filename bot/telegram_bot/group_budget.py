"""The group rate budget shared by every worker (:class:`SharedGroupBudget`).

Telegram lets a bot post about 20 messages a minute in one group. PTB's
:class:`telegram.ext.AIORateLimiter` keeps to that within one process; with several
workers on one database each would spend its own 20. This limiter asks the database
first: each group has one token bucket (:meth:`TelegramMessageStore.spend_group_call`,
:data:`GROUP_CALLS_PER_MINUTE` tokens, refilled continuously), every worker's call into
the group takes a token, and a call that finds the bucket empty waits for its turn (the
bucket goes into debt, so calls of all workers are served in the order they asked).
Then PTB's own limiter handles the rest (30 a second overall, retries after a 429).

The bucket holds :data:`GROUP_CALLS_PER_MINUTE` tokens and refills at that many a minute,
so a group that was quiet gets a burst of up to 20 calls at once, then 20 a minute: in
the first minute after a quiet spell up to 40 calls (the burst plus the refill), in every
minute after that 20. PTB's ``AIORateLimiter`` (an ``aiolimiter`` bucket of the same
size and rate) allows the same burst; a 429 Telegram answers to it is retried after its
``retry_after``.

A database that cannot answer does not stop the call: it goes on with PTB's limits only
(logged).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from telegram.ext import BaseRateLimiter

from bot.ports.message_store import TelegramMessageStore

__all__ = ["GROUP_CALLS", "GROUP_CALLS_PER_MINUTE", "SharedGroupBudget", "group_id"]

log = logging.getLogger(__name__)

JSONDict = dict[str, Any]

GROUP_CALLS_PER_MINUTE = 20
"""Telegram's limit for messages of one bot in one group (core.telegram.org/bots/faq:
"your bot will not be able to send more than 20 messages per minute to the same
group")."""

GROUP_CALLS = frozenset(
    {
        "sendMessage",
        "editMessageText",
        "editMessageReplyMarkup",
        "deleteMessage",
        "sendPhoto",
        "sendDocument",
    }
)
"""The Bot API methods that count against a group's budget."""


def group_id(chat_id: object) -> int | None:
    """The numeric id of a group, supergroup or channel a Bot API ``chat_id`` names
    (negative ids), else ``None`` (a private chat; ``@name`` is not used by this bot)."""
    text = str(chat_id)
    if text.startswith("-") and text[1:].isdigit():
        return int(text)
    return None


class SharedGroupBudget(BaseRateLimiter[int]):
    """``inner`` (PTB's limiter) behind one budget of ``per_minute`` calls per group and
    ``period`` (60 s; tests scale it down) shared through ``store`` (set by
    :meth:`share`; until then, or with ``per_minute`` 0, only ``inner`` limits)."""

    def __init__(
        self,
        inner: BaseRateLimiter[int],
        per_minute: int = GROUP_CALLS_PER_MINUTE,
        period: float = 60.0,
    ) -> None:
        self.inner = inner
        self.per_minute = per_minute
        self.period = period
        self.store: TelegramMessageStore | None = None
        #: Seconds calls waited for the shared budget, in total.
        self.waited = 0.0

    def share(self, store: TelegramMessageStore) -> None:
        """Count group calls in ``store`` from now on."""
        self.store = store

    async def initialize(self) -> None:
        await self.inner.initialize()

    async def shutdown(self) -> None:
        await self.inner.shutdown()

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | JSONDict | list[JSONDict]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | JSONDict | list[JSONDict]:
        group = group_id(data.get("chat_id"))
        if (
            self.store is not None
            and self.per_minute > 0
            and endpoint in GROUP_CALLS
            and group is not None
        ):
            try:
                wait = await self.store.spend_group_call(
                    group, time.time(), self.per_minute, self.period
                )
            except Exception as error:  # the database is away: PTB's limits still hold
                log.warning("group budget of %s not read (%s)", group, error)
                wait = 0.0
            if wait > 0:
                self.waited += wait
                await asyncio.sleep(wait)
        return await self.inner.process_request(
            callback, args, kwargs, endpoint, data, rate_limit_args
        )
