"""The bot process's one HTTP server (:class:`HttpServer`): one aiohttp application on one
port (``$PORT`` on a Procfile host), shared by every front end that takes HTTP — the
Telegram webhook and the web table.

A front end mounts its routes under a path prefix (:meth:`HttpServer.mount`) whenever it
starts, before or after the server does: requests are dispatched at request time to the
longest mounted prefix, so front ends that start late (a platform retried after an outage)
need no restart of the server. A path nothing is mounted on gets 404.

The port is public (a Mini App's address is), so the server holds under hostile load
(:class:`HttpLimits`, docs/operating.md "Connections and limits"):

- at most :attr:`HttpLimits.max_connections` connections at once (by default the
  process's descriptor limit less a reserve for the database, the engine workers and the
  platforms' clients and the listen backlog, so accepting never runs out of
  descriptors) and at most
  :attr:`HttpLimits.per_address` from one address; a connection over a limit is answered
  ``503`` at once and closed, and counted (:attr:`HttpServer.refused`);
- a connection that has not sent a whole request :attr:`HttpLimits.header_timeout`
  seconds after it opened (headers arriving one byte a second), or an idle keep-alive
  connection, is closed: aiohttp's keep-alive timer, which runs from the connection's
  start, set to that timeout; a request in progress (a WebSocket for its whole life) is
  not;
- aiohttp's own bounds on request lines, header fields and bodies apply;
- log lines about refused connections, asyncio's accept errors and aiohttp's protocol
  errors are bounded to one per kind and minute, with a count
  (:class:`BoundedLogFilter`).
"""

from __future__ import annotations

import asyncio
import logging
import resource
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot.dropped_inputs import LOG_EVERY, DroppedInputs

__all__ = ["BoundedLogFilter", "Handler", "HttpLimits", "HttpServer", "descriptor_limit"]

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
"""Answers one request (a response, a file, a WebSocket)."""

REFUSAL = (
    b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 5\r\n"
    b"Content-Type: text/plain\r\nContent-Length: 12\r\n\r\ntry again.\r\n"
)
"""What a connection over a limit is sent before it is closed."""

BACKLOG = 32
"""Connections the kernel queues for the server, and so the most asyncio accepts in one go
before the first of them is counted: kept free of the limit too, so a burst of accepts
never runs out of descriptors."""

BOUNDED_LOGGERS = ("asyncio", "aiohttp.server", "aiohttp.web", "aiohttp.websocket")
"""Loggers whose lines a client can provoke (accept errors, bad requests): bounded by
:class:`BoundedLogFilter` while a server runs."""


def descriptor_limit() -> int:
    """The process's soft limit of open file descriptors (``RLIMIT_NOFILE``, what
    ``ulimit -n`` and systemd's ``LimitNOFILE`` set)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


@dataclass(frozen=True)
class HttpLimits:
    """The server's limits (settings ``HTTP_*``, docs/operating.md).

    ``max_connections``: connections at once, 0 = the descriptor limit less
    ``descriptor_reserve`` (at least 16); ``per_address``: connections at once from one
    remote address, 0 = no such limit (behind a proxy every connection comes from the
    proxy's address); ``header_timeout``: seconds a connection may take to send a whole
    request, and stay idle between requests (aiohttp's ``keepalive_timeout``);
    ``max_field_size`` / ``max_line_size``: bytes of one header field and of the request
    line (aiohttp's limits)."""

    max_connections: int = 0
    descriptor_reserve: int = 128
    per_address: int = 64
    header_timeout: float = 10.0
    max_field_size: int = 8190
    max_line_size: int = 8190

    def connections(self) -> int:
        """The connection limit in force: :attr:`max_connections`, or the descriptor
        limit less the reserve and :data:`BACKLOG` (never above that, at least 16)."""
        room = max(descriptor_limit() - self.descriptor_reserve - BACKLOG, 16)
        return min(self.max_connections, room) if self.max_connections else room


class BoundedLogFilter(logging.Filter):
    """Lets one record of each kind (its message's first 60 characters) through per
    :data:`~bot.dropped_inputs.LOG_EVERY` seconds; a passed record says how many of its
    kind were held back since the last one. asyncio's "socket.accept() out of system
    resource" goes without its traceback (it says nothing but ``EMFILE``). ``clock``:
    monotonic seconds."""

    def __init__(
        self, every: float = LOG_EVERY, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__()
        self.every = every
        self.clock = clock
        self.held: Counter[str] = Counter()
        self._passed: dict[str, float] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        """True to log ``record`` (the first of its kind in :attr:`every` seconds)."""
        try:
            kind = f"{record.name}:{record.getMessage()[:60]}"
        except Exception:  # a record whose arguments do not format: one kind
            kind = f"{record.name}:{record.msg!s:.60}"
        if record.name == "asyncio" and "out of system resource" in kind:
            # the descriptors ran out (docs/operating.md): the traceback says nothing more
            record.exc_info, record.exc_text = None, None
        now = self.clock()
        last = self._passed.get(kind)
        if last is not None and now - last < self.every:
            self.held[kind] += 1
            return False
        if len(self._passed) > 1024:  # bounded memory whatever the kinds
            self._passed.clear()
        self._passed[kind] = now
        since = self.held.pop(kind, 0)
        if since:
            record.msg = f"{record.msg} [{since} more of this kind since the last line]"
        return True


class _Connection(asyncio.Protocol):
    """One accepted connection: aiohttp's request handler inside, counted and timed by
    the server (see the module docstring)."""

    def __init__(self, server: HttpServer, inner: asyncio.Protocol) -> None:
        self.server = server
        self.inner = inner
        self.transport: asyncio.Transport | None = None
        self.address = ""
        self.refused = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        why = self.server._admit(self)
        if why is not None:
            self.refused = True
            self.server._refuse(why, self.address)
            transport.write(REFUSAL)
            transport.close()
            return
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if not self.refused:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return None if self.refused else self.inner.eof_received()

    def pause_writing(self) -> None:
        if not self.refused:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if not self.refused:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.refused:
            self.server._forget(self)
            self.inner.connection_lost(exc)
        self.transport = None


class HttpServer:
    """Listens on ``host``:``port`` (``port`` 0: a free one, readable after :meth:`start`)
    within ``limits`` (see the module docstring)."""

    def __init__(
        self, host: str = "0.0.0.0", port: int = 8080, limits: HttpLimits | None = None
    ) -> None:
        self.host = host
        self.port = port
        self.limits = limits or HttpLimits()
        self.max_connections = self.limits.connections()
        self.refused: Counter[str] = Counter()
        """Connections refused so far, by reason (``connections``, ``address``)."""
        self._mounts: dict[str, Handler] = {}
        self._runner: web.AppRunner | None = None
        self._server: asyncio.Server | None = None
        self._open: dict[asyncio.BaseTransport, _Connection] = {}
        self._per_address: Counter[str] = Counter()
        self._bounded = DroppedInputs(log, "http", says="refused", level=logging.WARNING)
        self._filter = BoundedLogFilter()

    @property
    def connections(self) -> int:
        """Connections open now (requests and WebSockets)."""
        return len(self._open)

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

    # --- connections --------------------------------------------------------------------

    def _admit(self, connection: _Connection) -> str | None:
        """Why ``connection`` is refused (``connections``, ``address``), or ``None``:
        it is counted."""
        if len(self._open) >= self.max_connections:
            return "connections"
        per_address = self.limits.per_address
        if per_address and self._per_address[connection.address] >= per_address:
            return "address"
        assert connection.transport is not None
        self._open[connection.transport] = connection
        self._per_address[connection.address] += 1
        return None

    def _refuse(self, why: str, address: str) -> None:
        self.refused[why] += 1
        self._bounded.drop(f"a connection over the {why} limit", address)

    def _forget(self, connection: _Connection) -> None:
        if (
            connection.transport is not None
            and self._open.pop(connection.transport, None) is not None
        ):
            self._per_address[connection.address] -= 1
            if self._per_address[connection.address] <= 0:
                del self._per_address[connection.address]

    # --- running ------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen; :attr:`port` is the port taken."""
        for name in BOUNDED_LOGGERS:
            logging.getLogger(name).addFilter(self._filter)
        app = web.Application(client_max_size=1 << 20)
        app.router.add_route("*", "/{tail:.*}", self._dispatch)
        limits = self.limits
        self._runner = web.AppRunner(
            app,
            access_log=None,
            keepalive_timeout=limits.header_timeout,
            max_field_size=limits.max_field_size,
            max_line_size=limits.max_line_size,
        )
        await self._runner.setup()
        inner = self._runner.server
        assert inner is not None

        def factory() -> asyncio.Protocol:
            return _Connection(self, inner())

        self._server = await asyncio.get_running_loop().create_server(
            factory, self.host, self.port, backlog=BACKLOG, reuse_address=True
        )
        sockets = self._server.sockets
        if sockets:
            self.port = int(sockets[0].getsockname()[1])
        log.info(
            "http: listening on %s:%s (at most %d connections, %d per address)",
            self.host,
            self.port,
            self.max_connections,
            limits.per_address,
        )

    async def stop(self) -> None:
        """Stop listening (open WebSockets are closed)."""
        if self._server is not None:
            self._server.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        for connection in list(self._open.values()):
            if connection.transport is not None:
                connection.transport.abort()
        if self._server is not None:
            await self._server.wait_closed()
            self._server = None
        for name in BOUNDED_LOGGERS:
            logging.getLogger(name).removeFilter(self._filter)

    def stats(self) -> dict[str, Any]:
        """Connections open now, refused so far (by reason), and the limit."""
        return {
            "open": self.connections,
            "refused": dict(self.refused),
            "max_connections": self.max_connections,
        }
