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
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Protocol

import asyncpg

from bot.adapter_errors import PlatformRefused, PlatformUnreachable
from bot.http import HttpLimits, HttpServer
from bot.ports.host import Host
from bot.ports.model import TableSettings
from bot.ports.notifier import Notifier
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


class Adapter(Protocol):
    """A chat platform: its ``platform`` name, the :class:`Notifier` the service calls,
    and start/stop around the service's lifetime."""

    platform: str

    @property
    def notifier(self) -> Notifier:
        """What the service calls to show changes on this platform."""

    async def start(self, host: Host) -> None:
        """Connect and begin handling updates (returns once running): the ``host``
        brings the service's entry point, the adapter's message rows and the process's
        HTTP server."""

    async def stop(self) -> None:
        """Stop taking updates, let running handlers finish, disconnect."""


#: platform -> (settings attribute holding its token, module with ``create_adapter``).
PLATFORMS: dict[str, tuple[str, str]] = {
    "telegram": ("telegram_token", "bot.telegram_bot"),
    "discord": ("discord_token", "bot.discord_bot"),
}


def configured_platforms(settings: Settings) -> list[str]:
    """Platforms whose token is set, in a fixed order."""
    return [name for name, (attr, _module) in PLATFORMS.items() if getattr(settings, attr)]


def create_adapters(settings: Settings) -> list[Adapter]:
    """One adapter per configured platform (``create_adapter(settings)`` of its module)."""
    adapters = []
    for name in configured_platforms(settings):
        module = importlib.import_module(PLATFORMS[name][1])
        factory: Callable[[Settings], Adapter] = module.create_adapter
        adapters.append(factory(settings))
    return adapters


DEFAULT_PORT = 8443
"""The HTTP port without ``$PORT`` (the Telegram webhook's usual one)."""


def http_port() -> int:
    """``$PORT`` (a Procfile host's one port), else :data:`DEFAULT_PORT`."""
    return int(os.environ.get("PORT", DEFAULT_PORT))


def http_limits(settings: Settings) -> HttpLimits:
    """The HTTP server's limits from the settings (``HTTP_*``, docs/operating.md)."""
    return HttpLimits(max_connections=settings.http_max_connections,
                      descriptor_reserve=settings.http_descriptor_reserve,
                      per_address=settings.http_per_address,
                      header_timeout=settings.http_header_timeout)


def needs_http(settings: Settings) -> bool:
    """Whether the process serves HTTP: the Telegram webhook or the web table."""
    return bool(settings.telegram_token and settings.telegram_webhook_url) \
        or WebConfig.from_settings(settings) is not None


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


async def _keep_name(take_role: Callable[[str], Awaitable[RoleLock | None]], worker_id: str,
                     held: RoleLock, stop: asyncio.Event) -> None:
    """Hold the ``WORKER_ID`` role while the bot runs. When the connection that holds it
    ends (a network blip, a failed-over server), take it again at once (every
    :data:`NAME_RETRY` seconds while the database is away); when another live worker has
    taken the name meanwhile, set ``stop`` and raise :class:`WorkerNameTaken`: two workers
    under one name would both own every lease on due work."""
    role = held
    try:
        while True:
            await role.lost()
            log.warning("worker %s: the connection holding its name ended; taking it again",
                        worker_id)
            again: RoleLock | None = None
            while True:
                try:
                    again = await take_role(f"worker:{worker_id}")
                    break
                except Exception as error:  # the database away: try again
                    log.warning("worker %s: cannot take its name now (%s)", worker_id,
                                type(error).__name__)
                    await asyncio.sleep(NAME_RETRY)
            if again is None:
                log.error("another live worker runs under WORKER_ID=%s; this one stops",
                          worker_id)
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


async def _keep_starting(adapter: Adapter, host: Host, stop: asyncio.Event,
                         started: list[Adapter], refused: list[Adapter]) -> None:
    """Start ``adapter``; while its platform cannot be reached, say so in one log line and
    try again after :data:`RETRY_FIRST` seconds, doubling up to :data:`RETRY_MAX` (the
    other platforms run meanwhile). A platform that refuses the bot stays off."""
    delay = RETRY_FIRST
    while not stop.is_set():
        try:
            await adapter.start(host)
        except PlatformRefused as error:
            log.error("%s: %s; it stays off until the setting is fixed", adapter.platform,
                      error)
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


async def run_bot(settings: Settings, stop: asyncio.Event | None = None,
                  adapters: list[Adapter] | None = None, freeze_heap: bool = False) -> None:
    """Run until ``stop`` is set (or SIGTERM/SIGINT arrive). A platform that cannot be
    reached is tried again with back-off while the others work; raises
    :class:`NoPlatform` when every configured platform refused the bot. ``freeze_heap``
    (``rummy-bot run``, the process is the bot's own): the start-up heap is frozen once
    the pool, the service and the adapters exist
    (:func:`bot.service.collector.freeze_start_up`)."""
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        # not on Windows (NotImplementedError) nor outside the main thread (RuntimeError,
        # e.g. tests): then the caller stops the bot by setting ``stop``
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    db, repo = await open_storage(settings)
    name: RoleLock | None = None
    if settings.worker_id:  # the name is a role: one live worker per name
        try:
            name = await repo.take_role(f"worker:{settings.worker_id}")
        except BaseException:
            await db.close()
            raise
        if name is None:
            await db.close()
            raise WorkerNameTaken(settings.worker_id)
    pool = WorkerPool(settings.engine_workers, warm_up=engine_work.warm_up)
    try:
        await pool.start()
    except BaseException:
        await pool.close()
        await db.close()
        raise
    log.info("engine pool: %d worker processes, %.1f s budget per call", pool.size,
             settings.engine_budget)
    chosen = adapters if adapters is not None else create_adapters(settings)
    web_config = WebConfig.from_settings(settings)
    web = None if web_config is None else WebFrontEnd(web_config)
    service = GameService(repo, {a.platform: a.notifier for a in chosen},
                          defaults=TableSettings(timer=settings.default_timer),
                          default_locale=settings.default_locale, compute=pool,
                          budget=settings.engine_budget, worker_id=settings.worker_id,
                          clock=storage_clock(db),
                          guide=settings.first_game_guide)
    if web is not None:  # the web table shows the tables of every platform
        service.publisher.everywhere.append(web.notifier)
    http = HttpServer("0.0.0.0", http_port(), http_limits(settings)) \
        if needs_http(settings) else None
    # one LISTEN connection for the web table's pages and the chats this worker shows
    feed = PostgresChangeFeed(settings.database_url) if settings.database_url else None
    try:
        if http is not None:
            await http.start()
        if web is not None:
            assert http is not None
            await web.start(service.entry, http,
                            None if feed is None else feed.subscription())
    except OSError:
        if http is not None:
            await http.stop()
        await pool.close()
        await db.close()
        raise
    # Changes other workers commit reach the chats this worker shows (bot.service.delivery).
    showing = None if feed is None else feed.subscription()
    if showing is not None:
        try:
            await showing.start(service.delivery.changed)
        except (OSError, asyncpg.PostgresError) as error:  # the sweep shows them meanwhile
            log.warning("change feed for the chats not started (%s); changes other "
                        "workers commit are shown by the sweep", error)
            showing = None
    host = replace(service.host(http), web=None if web_config is None else web_config.links())
    if freeze_heap:
        log.info("start-up heap frozen: %d objects", freeze_start_up())
    started: list[Adapter] = []
    refused: list[Adapter] = []
    background = asyncio.create_task(service.run(stop))
    naming = None if name is None or not settings.worker_id else asyncio.create_task(
        _keep_name(repo.take_role, settings.worker_id, name, stop), name="worker name")
    starting = [asyncio.create_task(_keep_starting(adapter, host, stop, started, refused))
                for adapter in chosen]
    try:
        await asyncio.gather(*starting)
        if chosen and len(refused) == len(chosen):
            raise NoPlatform([a.platform for a in refused])
        await stop.wait()
    finally:
        stop.set()
        for task in starting:
            task.cancel()
        await asyncio.gather(*starting, return_exceptions=True)
        for adapter in reversed(started):
            try:
                await adapter.stop()
            except Exception:
                log.exception("stopping %s failed", adapter.platform)
        await background
        if showing is not None:
            await showing.stop()
        if web is not None:
            await web.stop()
        if http is not None:
            await http.stop()
        await pool.close()
        taken = None
        if naming is not None:
            naming.cancel()
            [taken] = await asyncio.gather(naming, return_exceptions=True)
        await db.close()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)
    if isinstance(taken, WorkerNameTaken):
        raise taken
