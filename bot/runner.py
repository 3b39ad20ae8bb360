"""``rummy-bot run``: the chat bot in one event loop.

Opens the database (a file that cannot be used raises
:class:`bot.storage.DatabaseUnusable` before anything starts), starts the engine's
worker processes (:class:`bot.service.compute.WorkerPool`), builds the game service,
starts the adapter of every platform whose token is set and the service's background
loop (AI moves, timers), and stops cleanly on SIGTERM or SIGINT. Every move is committed before
it is acknowledged, so stopping at any moment loses no acknowledged move;
stopping lets handlers that are running finish first.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import os
import signal
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import replace

import asyncpg

from bot.adapter_errors import PlatformRefused, PlatformUnreachable
from bot.http import HttpLimits, HttpServer
from bot.ports.frontend import FrontEnd
from bot.ports.host import Host
from bot.ports.model import TableSettings
from bot.ports.roles import RoleLock
from bot.service import engine_work
from bot.service.collector import freeze_start_up
from bot.service.compute import WorkerPool
from bot.service.service import GameService
from bot.settings import Settings
from bot.storage.backend import open_storage, storage_clock
from bot.storage.feed import PostgresChangeFeed
from bot.web.config import WebConfig
from bot.web.frontend import WebFrontEnd

log = logging.getLogger(__name__)


#: platform -> (settings attribute holding its token, module with ``create_adapter``).
PLATFORMS: dict[str, tuple[str, str]] = {
    "telegram": ("telegram_token", "bot.telegram_bot"),
    "discord": ("discord_token", "bot.discord_bot"),
}


def configured_platforms(settings: Settings) -> list[str]:
    """Platforms whose token is set, in a fixed order."""
    return [name for name, (attr, _module) in PLATFORMS.items() if getattr(settings, attr)]


def create_adapters(settings: Settings) -> list[FrontEnd]:
    """One adapter per configured platform (``create_adapter(settings)`` of its module)."""
    adapters = []
    for name in configured_platforms(settings):
        module = importlib.import_module(PLATFORMS[name][1])
        factory: Callable[[Settings], FrontEnd] = module.create_adapter
        adapters.append(factory(settings))
    return adapters


DEFAULT_PORT = 8443
"""The HTTP port without ``$PORT`` (the Telegram webhook's usual one)."""


def http_port() -> int:
    """``$PORT`` (a Procfile host's one port), else :data:`DEFAULT_PORT`."""
    return int(os.environ.get("PORT", DEFAULT_PORT))


def http_limits(settings: Settings) -> HttpLimits:
    """The HTTP server's limits from the settings (``HTTP_*``, docs/operating.md)."""
    return HttpLimits(
        max_connections=settings.http_max_connections,
        descriptor_reserve=settings.http_descriptor_reserve,
        per_address=settings.http_per_address,
        header_timeout=settings.http_header_timeout,
    )


def needs_http(settings: Settings) -> bool:
    """Whether the process serves HTTP: the Telegram webhook or the web table."""
    return (
        bool(settings.telegram_token and settings.telegram_webhook_url)
        or WebConfig.from_settings(settings) is not None
    )


#: Seconds before the first new attempt to reach a platform, and the most between two.
RETRY_FIRST = 5.0
RETRY_MAX = 300.0


class WorkerNameTaken(Exception):
    """Another live worker on the database runs under this ``WORKER_ID``: two workers with
    one name would both own every lease on due work, so this one does not start."""

    def __init__(self, worker_id: str) -> None:
        super().__init__(worker_id)
        self.worker_id = worker_id


NAME_RETRY = 2.0
"""Seconds between two attempts to take the worker's name again while the database cannot
be reached."""


async def _keep_name(
    take_role: Callable[[str], Awaitable[RoleLock | None]],
    worker_id: str,
    held: RoleLock,
    stop: asyncio.Event,
) -> None:
    """Hold the ``WORKER_ID`` role while the bot runs. When the connection that holds it
    ends (a network blip, a failed-over server), take it again at once (every
    :data:`NAME_RETRY` seconds while the database is away); when another live worker has
    taken the name meanwhile, set ``stop`` and raise :class:`WorkerNameTaken`: two workers
    under one name would both own every lease on due work."""
    role = held
    try:
        while True:
            await role.lost()
            log.warning(
                "worker %s: the connection holding its name ended; taking it again", worker_id
            )
            again: RoleLock | None = None
            while True:
                try:
                    again = await take_role(f"worker:{worker_id}")
                    break
                except Exception as error:  # the database away: try again
                    log.warning(
                        "worker %s: cannot take its name now (%s)", worker_id, type(error).__name__
                    )
                    await asyncio.sleep(NAME_RETRY)
            if again is None:
                log.error("another live worker runs under WORKER_ID=%s; this one stops", worker_id)
                stop.set()
                raise WorkerNameTaken(worker_id)
            role = again
    finally:
        await role.release()


class NoPlatform(Exception):
    """Every configured platform refused the bot (wrong tokens): nothing to run."""

    def __init__(self, platforms: list[str]) -> None:
        super().__init__(", ".join(platforms))
        self.platforms = platforms


async def _keep_starting(
    adapter: FrontEnd,
    host: Host,
    stop: asyncio.Event,
    started: list[FrontEnd],
    refused: list[FrontEnd],
) -> None:
    """Start ``adapter``; while its platform cannot be reached, say so in one log line and
    try again after :data:`RETRY_FIRST` seconds, doubling up to :data:`RETRY_MAX` (the
    other platforms run meanwhile). A platform that refuses the bot stays off."""
    delay = RETRY_FIRST
    while not stop.is_set():
        try:
            await adapter.start(host)
        except PlatformRefused as error:
            log.error("%s: %s; it stays off until the setting is fixed", adapter.platform, error)
            refused.append(adapter)
            return
        except PlatformUnreachable as error:
            log.warning("%s: %s; next attempt in %.0f s", adapter.platform, error, delay)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), delay)
            delay = min(delay * 2, RETRY_MAX)
            continue
        started.append(adapter)
        log.info("%s adapter running", adapter.platform)
        return


async def run_bot(
    settings: Settings,
    stop: asyncio.Event | None = None,
    adapters: list[FrontEnd] | None = None,
    freeze_heap: bool = False,
) -> None:
    """Run until ``stop`` is set (or SIGTERM/SIGINT arrive). A platform that cannot be
    reached is tried again with back-off while the others work; raises
    :class:`NoPlatform` when every configured platform refused the bot. ``freeze_heap``
    (``rummy-bot run``, the process is the bot's own): the start-up heap is frozen once
    the pool, the service and the adapters exist
    (:func:`bot.service.collector.freeze_start_up`).

    Every resource is entered into one :class:`contextlib.AsyncExitStack`, so whatever
    was started is stopped in reverse order, also when a later start fails: the chat
    front ends, the service's background loop, the change feed, the web table, the HTTP
    server, the engine pool, the worker's name, the database, the signal handlers."""
    stop = stop or asyncio.Event()
    chats = adapters if adapters is not None else create_adapters(settings)
    web_config = WebConfig.from_settings(settings)
    webs: list[FrontEnd] = [] if web_config is None else [WebFrontEnd(web_config)]
    async with contextlib.AsyncExitStack() as stack:
        stack.enter_context(_signals(stop))
        db, repo = await open_storage(settings)
        stack.push_async_callback(db.close)
        await stack.enter_async_context(_worker_name(repo.take_role, settings.worker_id, stop))
        pool = await stack.enter_async_context(_engine_pool(settings))
        service = GameService(
            repo,
            {},
            defaults=TableSettings(timer=settings.default_timer),
            default_locale=settings.default_locale,
            compute=pool,
            budget=settings.engine_budget,
            worker_id=settings.worker_id,
            clock=storage_clock(db),
            guide=settings.first_game_guide,
            coach=settings.coach,
        )
        for front_end in (*chats, *webs):
            service.register(front_end.platform, front_end.notifier, front_end.every_platform)
        http = await stack.enter_async_context(_http_server(settings))
        # one LISTEN connection for the web table's pages and the chats this worker shows
        feed = PostgresChangeFeed(settings.database_url) if settings.database_url else None
        host = replace(service.host(http), web=None if web_config is None else web_config.links())
        for web in webs:
            await web.start(replace(host, feed=None if feed is None else feed.subscription()))
            stack.push_async_callback(web.stop)
        await stack.enter_async_context(_showing(feed, service))
        if freeze_heap:
            log.info("start-up heap frozen: %d objects", freeze_start_up())
        background = asyncio.create_task(service.run(stop), name="automatic steps")
        stack.push_async_callback(_finished, background)
        stack.callback(stop.set)
        await _run_chats(chats, host, stop, stack)


async def _run_chats(
    chats: list[FrontEnd], host: Host, stop: asyncio.Event, stack: contextlib.AsyncExitStack
) -> None:
    """Start the chat front ends (each tried again while unreachable) and run until
    ``stop``; each one started is stopped when ``stack`` closes. Raises
    :class:`NoPlatform` when every one refused the bot."""
    started: list[FrontEnd] = []
    refused: list[FrontEnd] = []
    stack.push_async_callback(_stop_all, started)
    starting = [
        asyncio.create_task(_keep_starting(adapter, host, stop, started, refused))
        for adapter in chats
    ]
    try:
        await asyncio.gather(*starting)
        if chats and len(refused) == len(chats):
            raise NoPlatform([a.platform for a in refused])
        await stop.wait()
    finally:
        stop.set()
        for task in starting:
            task.cancel()
        await asyncio.gather(*starting, return_exceptions=True)


async def _finished(task: asyncio.Task[None]) -> None:
    """Wait for ``task`` (the service's background loop, told to stop)."""
    await task


async def _stop_all(started: list[FrontEnd]) -> None:
    """Stop the started front ends, the last started first; a failure is logged."""
    for adapter in reversed(started):
        try:
            await adapter.stop()
        except Exception:
            log.exception("stopping %s failed", adapter.platform)


@contextlib.contextmanager
def _signals(stop: asyncio.Event) -> Iterator[None]:
    """SIGTERM and SIGINT set ``stop`` while the bot runs (not on Windows, nor outside the
    main thread, e.g. in tests: then the caller stops the bot by setting ``stop``)."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    try:
        yield
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)


@contextlib.asynccontextmanager
async def _worker_name(
    take_role: Callable[[str], Awaitable[RoleLock | None]],
    worker_id: str | None,
    stop: asyncio.Event,
) -> AsyncIterator[None]:
    """With a ``WORKER_ID``, hold that name (a role: one live worker per name) while the
    bot runs (:func:`_keep_name`). Raises :class:`WorkerNameTaken` at once when another
    live worker holds it, and on leaving when another took it meanwhile."""
    if not worker_id:
        yield
        return
    name = await take_role(f"worker:{worker_id}")
    if name is None:
        raise WorkerNameTaken(worker_id)
    naming = asyncio.create_task(_keep_name(take_role, worker_id, name, stop), name="worker name")
    try:
        yield
    finally:
        naming.cancel()
        [taken] = await asyncio.gather(naming, return_exceptions=True)
        if isinstance(taken, WorkerNameTaken):
            raise taken


@contextlib.asynccontextmanager
async def _engine_pool(settings: Settings) -> AsyncIterator[WorkerPool]:
    """The engine's worker processes, closed on leaving (also when starting failed)."""
    pool = WorkerPool(settings.engine_workers, warm_up=engine_work.warm_up)
    try:
        await pool.start()
        log.info(
            "engine pool: %d worker processes, %.1f s budget per call",
            pool.size,
            settings.engine_budget,
        )
        yield pool
    finally:
        await pool.close()


@contextlib.asynccontextmanager
async def _http_server(settings: Settings) -> AsyncIterator[HttpServer | None]:
    """The process's one HTTP server when it serves anything (:func:`needs_http`), else
    ``None``; stopped on leaving. Raises :class:`OSError` when its port is taken."""
    if not needs_http(settings):
        yield None
        return
    http = HttpServer("0.0.0.0", http_port(), http_limits(settings))
    try:
        await http.start()
        yield http
    finally:
        await http.stop()


@contextlib.asynccontextmanager
async def _showing(feed: PostgresChangeFeed | None, service: GameService) -> AsyncIterator[None]:
    """Changes other workers commit reach the chats this worker shows
    (:mod:`bot.service.delivery`) through ``feed``; without it (one process), or when it
    cannot start, the delivery's sweep shows them."""
    showing = None if feed is None else feed.subscription()
    if showing is not None:
        try:
            await showing.start(service.delivery.changed)
        except (OSError, asyncpg.PostgresError) as error:
            log.warning(
                "change feed for the chats not started (%s); changes other "
                "workers commit are shown by the sweep",
                error,
            )
            showing = None
    try:
        yield
    finally:
        if showing is not None:
            await showing.stop()
