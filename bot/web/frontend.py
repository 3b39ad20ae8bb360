"""The web table as a front end of the bot process (:class:`WebFrontEnd`, a
:class:`bot.ports.frontend.FrontEnd`): built from the settings, started with the host's
entry point, the process's HTTP server and, with several workers, a change feed."""

from __future__ import annotations

import contextlib
import logging

from bot.http import HttpServer
from bot.ports.feed import ChangeFeed
from bot.ports.host import Host
from bot.web.auth.discord import DiscordAuth
from bot.web.auth.session import SessionSigner
from bot.web.auth.telegram import TelegramMembers
from bot.web.config import PREFIX, WebConfig
from bot.web.notifier import WebNotifier
from bot.web.pages.hub import FEED_GRACE, PageHub
from bot.web.server.routes import WebRoutes

__all__ = ["WebFrontEnd"]

log = logging.getLogger(__name__)


class WebFrontEnd:
    """The web table (see the module docstring); its :attr:`notifier` shows the tables of
    every platform (``every_platform``)."""

    platform = "web"
    every_platform = True

    def __init__(self, config: WebConfig, feed_grace: float = FEED_GRACE) -> None:
        self.config = config
        self._notifier = WebNotifier()
        self._feed_grace = feed_grace
        self.hub: PageHub | None = None
        self.routes: WebRoutes | None = None
        self._http: HttpServer | None = None
        self._feed: ChangeFeed | None = None

    @property
    def notifier(self) -> WebNotifier:
        """What the service calls with every committed change (all platforms' tables)."""
        return self._notifier

    async def start(self, host: Host) -> None:
        """Serve the pages under ``/web`` of ``host.http`` and lay the service's changes
        out on them; ``host.feed``: the changes other workers commit (PostgreSQL), else
        ``None``. Raises :class:`ValueError` without an HTTP server."""
        entry, http, feed = host.entry, host.http, host.feed
        if http is None:
            raise ValueError("the web table needs the process's HTTP server")
        config = self.config
        hub = PageHub(entry, self._feed_grace)
        members = (
            TelegramMembers(config.telegram_token, config.telegram_api)
            if config.telegram_token
            else None
        )
        discord = None
        if config.discord and config.discord_client_id and config.discord_client_secret:
            discord = DiscordAuth(
                config.discord_client_id,
                config.discord_client_secret,
                config.discord_token,
                config.discord_api,
            )
        self.routes = WebRoutes(
            config, entry, hub, SessionSigner(config.session_secret()), members, discord
        )
        self.hub = hub
        self._notifier.hub = hub
        http.mount(PREFIX, self.routes.handle)
        self._http = http
        if feed is not None:
            await feed.start(hub.changed)
            self._feed = feed
        log.info("web table at %s", config.pages_url)

    async def stop(self) -> None:
        """Stop serving pages: unmount, stop the feed, close the open sockets."""
        if self._http is not None:
            self._http.unmount(PREFIX)
            self._http = None
        if self._feed is not None:
            with contextlib.suppress(Exception):
                await self._feed.stop()
            self._feed = None
        self._notifier.hub = None
        if self.hub is not None:
            await self.hub.close()
        if self.routes is not None:
            await self.routes.close()
            if self.routes.discord is not None:
                await self.routes.discord.close()
