"""The Telegram adapter: python-telegram-bot 22 around the game service.

:func:`create_adapter` builds it from the settings (``rummy-bot run``). It long-polls by
default; with ``TELEGRAM_WEBHOOK_URL`` set it registers that URL with Telegram and
receives updates on ``0.0.0.0:$PORT`` (default 8443; the URL's path is served).

With several workers on one database, Telegram gives each update to one long poll (a
second poller ends the first's with 409 Conflict), so polling is a role
(:mod:`bot.ports.roles`): the worker that holds it polls; the others try to take it every
:data:`ROLE_RETRY` seconds, so when the poller dies another one polls within seconds.
A poller whose role is lost (its lock's database connection ended or stopped answering)
stops polling at once, before another worker can have taken the role. Webhook mode needs
no role: any worker may take an update. Requests
go through PTB's :class:`telegram.ext.AIORateLimiter` (30 messages a second overall, 20 a
minute per group, three retries after a 429), behind a group budget that every worker
shares through the database (:mod:`bot.telegram_bot.group_budget`). On start it
registers the command menu in English and German (``setMyCommands``).

Updates are read one by one at the edge (:mod:`bot.telegram_bot.updates`): one that does
not parse is dropped and logged once per kind, never holding up the others. The polling
task is supervised: should it end while the adapter runs, that is logged and polling
starts again after 1, 2, 4 ... seconds (at most :data:`RESTART_CAP`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from telegram import BotCommand, Update
from telegram.error import Forbidden, InvalidToken, NetworkError, TelegramError
from telegram.ext import AIORateLimiter, Application, ApplicationBuilder, BaseRateLimiter

from bot.adapter_errors import PlatformRefused, PlatformUnreachable
from bot.dropped_inputs import DroppedInputs
from bot.http import HttpServer
from bot.i18n import SUPPORTED_LOCALES, _, use_locale
from bot.ports.entry import Entry
from bot.ports.host import Host
from bot.ports.message_store import TelegramMessageStore
from bot.ports.roles import RoleLock, RoleTaker
from bot.ports.web_links import WebLinks
from bot.settings import Settings
from bot.telegram_bot import texts
from bot.telegram_bot.callbacks import sign_with
from bot.telegram_bot.group_budget import GROUP_CALLS_PER_MINUTE, SharedGroupBudget
from bot.telegram_bot.hand_messages import HandMessages
from bot.telegram_bot.handlers import Handlers
from bot.telegram_bot.messaging import Messenger
from bot.telegram_bot.notifier import TelegramNotifier
from bot.telegram_bot.ordering import ChatOrderedProcessor
from bot.telegram_bot.outbox import Outbox
from bot.telegram_bot.parts import Parts
from bot.telegram_bot.table_messages import TableMessages
from bot.telegram_bot.updates import UnreadableUpdate, UpdateReader, read_update
from bot.telegram_bot.webhook import Webhook, secret_for, webhook_path

log = logging.getLogger(__name__)


ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member"]
DEFAULT_WEBHOOK_PORT = 8443

WATCH_EVERY = 5.0
"""Seconds between two looks at the polling task."""

RESTART_FIRST = 1.0
"""Seconds before a polling task that ended is started again the first time (doubling
after each restart that did not last)."""

RESTART_CAP = 60.0
"""The longest wait before polling starts again."""

STEADY = 300.0
"""Seconds of polling after which a restart counts as having lasted (the wait starts
from :data:`RESTART_FIRST` again)."""

POLLING_ROLE = "telegram-polling"
"""The role of the one worker that long-polls (:mod:`bot.ports.roles`)."""

ROLE_RETRY = 2.0
"""Seconds between two attempts of a worker that does not poll to take the polling role:
when the poller dies, polling resumes within about this long (plus the server noticing a
dead connection, immediate for a process that was killed)."""


class TelegramAdapter:
    """The :class:`bot.ports.frontend.FrontEnd` for Telegram.

    ``token``: the bot token; ``webhook_url``: ``None`` for long polling; ``base_url`` /
    ``base_file_url``: another Bot API server (tests use a fake one); ``rate_limiter``:
    PTB's limiter (default :class:`AIORateLimiter` with retries); ``webhook_listen``:
    (host, port) of a webhook server of the adapter's own when :meth:`start` is given no
    shared :class:`bot.http.HttpServer`; ``poll_timeout``: seconds a long poll waits;
    ``watch_every``: seconds between two looks at the polling task; ``group_budget``:
    calls into one group per ``group_period`` seconds, shared by every worker (0: PTB's
    limiter only).
    ``dropped``: the updates dropped at the edge (and the handlers' failures:
    ``failures``), per kind.
    """

    platform = "telegram"
    every_platform = False

    def __init__(
        self,
        token: str,
        *,
        webhook_url: str | None = None,
        base_url: str | None = None,
        base_file_url: str | None = None,
        rate_limiter: BaseRateLimiter[int] | None = None,
        webhook_listen: tuple[str, int] = ("0.0.0.0", DEFAULT_WEBHOOK_PORT),
        poll_timeout: int = 10,
        watch_every: float = WATCH_EVERY,
        group_budget: int = GROUP_CALLS_PER_MINUTE,
        group_period: float = 60.0,
    ) -> None:
        sign_with(token)  # the buttons' data is signed with the token's key
        self.dropped = DroppedInputs(log, "telegram")
        self.failures = DroppedInputs(
            log, "telegram", says="handling an update failed", level=logging.ERROR
        )
        #: PTB's limiter behind the group budget every worker shares.
        self.budget = SharedGroupBudget(
            rate_limiter or AIORateLimiter(max_retries=3), group_budget, group_period
        )
        builder = (
            ApplicationBuilder()
            .token(token)
            .rate_limiter(self.budget)
            .concurrent_updates(ChatOrderedProcessor())
            .get_updates_request(UpdateReader(self.dropped, connection_pool_size=1))
        )
        if base_url is not None:
            builder = builder.base_url(base_url)
        if base_file_url is not None:
            builder = builder.base_file_url(base_file_url)
        self.app: Application[Any, Any, Any, Any, Any, Any] = builder.build()
        self.token = token
        self.webhook_url = webhook_url
        self.webhook_listen = webhook_listen
        self.poll_timeout = poll_timeout
        self.webhook: Webhook | None = None
        self._own_http: HttpServer | None = None
        self.handlers: Handlers | None = None
        self._notifier = TelegramNotifier()
        self._started = False
        self._outbox = Outbox()
        self.watch_every = watch_every
        #: How often polling was started again after its task ended.
        self.restarts = 0
        self._watch: asyncio.Task[None] | None = None
        self._role: RoleLock | None = None
        self._role_task: asyncio.Task[None] | None = None
        #: 409 Conflicts this process's long poll got (another poller overlapped it).
        self.conflicts = 0

    @property
    def notifier(self) -> TelegramNotifier:
        """What the service calls (inactive until :meth:`start`)."""
        return self._notifier

    async def start(self, host: Host) -> None:
        """Connect (getMe), register the commands, start long polling (when this process
        takes the polling role: one poller per database) or the webhook (on the host's
        shared HTTP server, else on one of its own). A failure stops what was started and
        is raised: a wrong token as :class:`PlatformRefused`, no network as
        :class:`PlatformUnreachable`."""
        self._started = True
        try:
            await self._start(
                host.entry, host.telegram_messages, host.http, host.take_role, host.web
            )
        except BaseException as error:
            await self.stop()
            if isinstance(error, InvalidToken | Forbidden):
                raise PlatformRefused(f"Telegram refused the token ({error})") from error
            if isinstance(error, NetworkError):
                raise PlatformUnreachable(f"cannot reach Telegram ({error})") from error
            raise

    async def _start(
        self,
        entry: Entry,
        store: TelegramMessageStore,
        http: HttpServer | None,
        take_role: RoleTaker,
        web: WebLinks | None = None,
    ) -> None:
        await self.app.initialize()
        username = self.app.bot.username
        self.budget.share(store)
        messenger = Messenger(self.app.bot, store)
        tables = TableMessages(messenger, store, self._outbox, username, web=web)
        hands = HandMessages(messenger, store, web, keyed=tables.keyed)
        self.handlers = Handlers(
            Parts(entry, store, messenger, tables, hands, self._notifier, username), self.failures
        )
        self.handlers.register(self.app)
        await self._set_commands()
        self._notifier.attach(tables, hands, self._outbox)
        await self.app.start()
        if self.webhook_url:
            if http is None:
                host, port = self.webhook_listen
                http = self._own_http = HttpServer(host, port)
                await http.start()
            secret = secret_for(self.token)
            self.webhook = Webhook(
                self.app, secret, webhook_path(self.webhook_url), http, self.dropped
            )
            await self.app.bot.set_webhook(
                self.webhook_url, secret_token=secret, allowed_updates=ALLOWED_UPDATES
            )
            log.info(
                "telegram: webhook %s (listening on %s:%s)", self.webhook_url, http.host, http.port
            )
        else:
            if not await self._take_polling(take_role):
                log.info(
                    "telegram: another worker polls; this one sends messages and "
                    "takes over polling when that worker stops"
                )
            self._role_task = asyncio.create_task(
                self._keep_polling(take_role), name="telegram polling role"
            )
            self._watch = asyncio.create_task(self._supervise(), name="telegram: watch polling")

    # --- the polling role -----------------------------------------------------------------

    @property
    def polling(self) -> bool:
        """Whether this process long-polls now."""
        return self.app.updater is not None and self.app.updater.running

    async def _take_polling(self, take_role: RoleTaker) -> bool:
        """Take the polling role if it is free and start polling; True when polling."""
        try:
            role = await take_role(POLLING_ROLE)
        except Exception as error:  # the database is away: try again later
            log.warning("telegram: cannot ask for the polling role now (%s)", type(error).__name__)
            return False
        if role is None:
            return False
        self._role = role
        await self._start_polling()
        log.info("telegram: long polling as @%s", self.app.bot.username)
        return True

    def _polling_error(self, error: TelegramError) -> None:
        if "conflict" in type(error).__name__.lower():
            self.conflicts += 1
        log.warning("telegram: polling failed: %s: %s", type(error).__name__, error)

    async def _keep_polling(self, take_role: RoleTaker) -> None:
        """Poll while the role is held; stop at once when it is lost; meanwhile try to
        take it every :data:`ROLE_RETRY` seconds."""
        while True:
            role = self._role
            if role is None:
                await asyncio.sleep(ROLE_RETRY)
                try:
                    await self._take_polling(take_role)
                except Exception as error:  # Telegram away at the start of polling
                    log.warning(
                        "telegram: polling could not start (%s: %s); the role is "
                        "given up and tried again",
                        type(error).__name__,
                        error,
                    )
                    await self._stop_polling()
                continue
            await role.lost()
            log.warning("telegram: the polling role is lost; polling stops")
            await self._stop_polling()

    async def _stop_polling(self) -> None:
        role, self._role = self._role, None
        if self.app.updater is not None and self.app.updater.running:
            try:
                await self.app.updater.stop()
            except Exception as error:  # what ended a dead polling task, raised again
                log.warning("telegram: polling had ended (%s: %s)", type(error).__name__, error)
        if role is not None:
            await role.release()

    async def _start_polling(self) -> None:
        assert self.app.updater is not None
        await self.app.updater.start_polling(
            poll_interval=0,
            timeout=self.poll_timeout,
            allowed_updates=ALLOWED_UPDATES,
            error_callback=self._polling_error,
        )

    def polling_task(self) -> asyncio.Task[Any] | None:
        """PTB's polling task while it exists (``None`` in webhook mode or when stopped)."""
        task: asyncio.Task[Any] | None = getattr(self.app.updater, "_Updater__polling_task", None)
        return task

    async def _supervise(self) -> None:
        """Look at the polling task every :attr:`watch_every` seconds; when it ended (an
        error PTB does not retry, e.g. a token revoked and given back), log why and start
        polling again after a back-off, while this process holds the polling role."""
        wait = RESTART_FIRST
        loop = asyncio.get_running_loop()
        since = loop.time()
        while True:
            await asyncio.sleep(self.watch_every)
            task = self.polling_task()
            if task is None or not task.done() or self._role is None:
                continue  # polling, or not this worker's role (the role task owns that)
            if loop.time() - since >= STEADY:
                wait = RESTART_FIRST
            _log_ended(task, wait)
            await asyncio.sleep(wait)
            wait = min(wait * 2, RESTART_CAP)
            if await self._restart_polling():
                self.restarts += 1
                since = loop.time()

    async def _restart_polling(self) -> bool:
        """Start polling again after its task ended, unless the polling role was lost
        meanwhile (another worker may poll now); False when it did not start (logged)."""
        if self._role is None:
            return False
        assert self.app.updater is not None
        with contextlib.suppress(Exception):
            await self.app.updater.stop()  # re-raises what ended the task
        try:
            await self._start_polling()
        except Exception as failed:
            log.error(
                "telegram: polling did not start again (%s: %s)", type(failed).__name__, failed
            )
            return False
        return True

    async def _set_commands(self) -> None:
        """The command menu: English by default, German for German apps."""
        for locale in SUPPORTED_LOCALES:
            with use_locale(locale):
                commands = [
                    BotCommand(name, _(description)) for name, description in texts.COMMANDS
                ]
            await self.app.bot.set_my_commands(
                commands, language_code=None if locale == "en" else locale
            )

    async def stop(self) -> None:
        """Stop taking updates, finish running handlers and queued messages, disconnect.
        Stopping twice is harmless."""
        if not self._started:
            return
        for task in (self._watch, self._role_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._watch = self._role_task = None
        await self._stop_polling()
        if self.webhook is not None:
            self.webhook.stop()
            self.webhook = None
        if self._own_http is not None:
            await self._own_http.stop()
            self._own_http = None
        if self.app.running:
            await self.app.stop()
        if self.handlers is not None:
            self.handlers.parts.tables.flush_deferred()
        await self._outbox.idle()
        self._outbox.close()
        self._notifier.detach()
        self._started = False
        await self.app.shutdown()

    async def process(self, update: dict[str, Any]) -> None:
        """Handle one update given as Bot API JSON (webhook tests, tools); one that cannot
        be read is dropped (see :mod:`bot.telegram_bot.updates`)."""
        try:
            decoded: Update = read_update(update, self.app.bot)
        except UnreadableUpdate as error:
            self.dropped.drop(error.kind, f"update {error.update_id}")
            return
        await self.app.process_update(decoded)


def create_adapter(settings: Settings) -> TelegramAdapter:
    """The adapter for ``rummy-bot run``: token and webhook URL from the settings (the
    webhook is a route of the process's HTTP server on ``$PORT``). Raises
    ``SettingsError`` without a token."""
    return TelegramAdapter(
        settings.require_telegram_token(), webhook_url=settings.telegram_webhook_url
    )


def _log_ended(task: asyncio.Task[Any], wait: float) -> None:
    """Log why the polling task ended and when polling starts again (in ``wait`` s)."""
    error = None if task.cancelled() else task.exception()
    log.error(
        "telegram: the polling task ended (%s); polling again in %.0f s",
        "cancelled" if error is None else f"{type(error).__name__}: {error}",
        wait,
    )
