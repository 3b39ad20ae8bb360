"""What a front end is handed when it starts (:class:`Host`): the service's entry point,
its own message rows, the process's HTTP server and the way to take a process-wide role.
The composition root (:mod:`bot.runner`, :mod:`bot.play`) builds it; a front
end never reaches past it into the service or the storage."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.http import HttpServer
from bot.ports.entry import Entry
from bot.ports.message_store import DiscordMessageStore, TelegramMessageStore
from bot.ports.web_links import WebLinks

__all__ = ["Host", "RoleHolder"]

RoleHolder = Callable[[str], Awaitable[bool]]
"""Takes a role (``telegram-polling``) for the process's life; False when another process
has it (:meth:`bot.service.repository.Repository.hold_role`)."""


async def _always(role: str) -> bool:
    del role
    return True


@dataclass(frozen=True)
class Host:
    """``entry``: the service's entry point; ``telegram_messages`` /
    ``discord_messages``: the chat adapters' message rows; ``http``: the process's one
    HTTP server (``None``: a front end that needs one starts its own); ``hold_role``: see
    :data:`RoleHolder` (granted by default); ``web``: where the web table is (``None``:
    off, no web buttons)."""

    entry: Entry
    telegram_messages: TelegramMessageStore
    discord_messages: DiscordMessageStore
    http: HttpServer | None = None
    hold_role: RoleHolder = _always
    web: WebLinks | None = None
