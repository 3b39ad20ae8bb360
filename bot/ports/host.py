"""What a front end is handed when it starts (:class:`Host`): the service's entry point,
its own message rows, the process's HTTP server and the way to take a role among the
workers (:mod:`bot.ports.roles`).
The composition root (:mod:`bot.runner`, :mod:`bot.play`) builds it; a front
end never reaches past it into the service or the storage."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.http import HttpServer
from bot.ports.entry import Entry
from bot.ports.feed import ChangeFeed
from bot.ports.message_store import DiscordMessageStore, TelegramMessageStore
from bot.ports.roles import RoleTaker, hold_forever
from bot.ports.web_links import WebLinks

__all__ = ["Host"]


@dataclass(frozen=True)
class Host:
    """``entry``: the service's entry point; ``telegram_messages`` /
    ``discord_messages``: the chat adapters' message rows; ``http``: the process's one
    HTTP server (``None``: a front end that needs one starts its own); ``take_role``: see
    :data:`bot.ports.roles.RoleTaker` (granted for good by default: one process);
    ``web``: where the web table is (``None``: off, no web buttons); ``now``: the
    service's clock, Unix seconds (with several workers on PostgreSQL the database's, so
    times a front end stores mean the same to every worker; the wall clock by default);
    ``feed``: the changes other workers commit, for a front end that keeps screens open
    (the web table; ``None``: one process, or a front end that needs none); ``run_due``:
    run the automatic steps that are due now (AI moves, the next deal) and say how many
    ran, for a front end that paces them itself (the terminal waits ``ai_delay`` before
    each; ``None``: the service's own loop runs them, as in the chat bot)."""

    entry: Entry
    telegram_messages: TelegramMessageStore
    discord_messages: DiscordMessageStore
    http: HttpServer | None = None
    take_role: RoleTaker = hold_forever
    web: WebLinks | None = None
    now: Callable[[], float] = time.time
    feed: ChangeFeed | None = None
    run_due: Callable[[], Awaitable[int]] | None = None
