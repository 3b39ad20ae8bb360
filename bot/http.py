"""The bot process's one HTTP server (:class:`HttpServer`): one aiohttp application on one
port (``$PORT`` on a Procfile host), shared by every front end that takes HTTP — the
Telegram webhook and the web table.

A front end mounts its routes under a path prefix (:meth:`HttpServer.mount`) whenever it
starts, before or after the server does: requests are dispatched at request time to the
longest mounted prefix, so front ends that start late (a platform retried after an outage)
need no restart of the server. A path nothing is mounted on gets 404.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

__all__ = ["Handler", "HttpServer"]

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
"""Answers one request (a response, a file, a WebSocket)."""


class HttpServer:
    """Listens on ``host``:``port`` (``port`` 0: a free one, readable after :meth:`start`)."""

    def __init__(self, host: str = "0.0.0.0", port: int = 8080) -> None:
        self.host = host
        self.port = port
        self._mounts: dict[str, Handler] = {}
        self._runner: web.AppRunner | None = None

    def mount(self, prefix: str, handler: Handler) -> None:
        """Send requests whose path is ``prefix`` or below it (``/tg`` takes ``/tg`` and
        ``/tg/...``) to ``handler``. Raises ``ValueError`` for a prefix already taken."""
        prefix = "/" + prefix.strip("/")
        if prefix in self._mounts:
            raise ValueError(f"{prefix} is mounted already")
        self._mounts[prefix] = handler

    def unmount(self, prefix: str) -> None:
        """Stop sending requests under ``prefix`` (its front end stopped)."""
        self._mounts.pop("/" + prefix.strip("/"), None)

    def _handler(self, path: str) -> Handler | None:
        best = None
        for prefix, handler in self._mounts.items():
            inside = prefix == "/" or path == prefix or path.startswith(prefix + "/")
            if inside and (best is None or len(prefix) > len(best[0])):
                best = (prefix, handler)
        return None if best is None else best[1]

    async def _dispatch(self, request: web.Request) -> web.StreamResponse:
        handler = self._handler(request.path)
        if handler is None:
            raise web.HTTPNotFound()
        return await handler(request)

    async def start(self) -> None:
        """Listen; :attr:`port` is the port taken."""
        app = web.Application(client_max_size=1 << 20)
        app.router.add_route("*", "/{tail:.*}", self._dispatch)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        addresses = self._runner.addresses
        if addresses:
            self.port = int(addresses[0][1])
        log.info("http: listening on %s:%s", self.host, self.port)

    async def stop(self) -> None:
        """Stop listening (open WebSockets are closed)."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
