"""The Discord adapter: a discord.py client with the ``/rummy`` command tree.

Intents: only ``guilds`` (channels and threads for sending); no privileged intent and
no message content, since players act through slash commands and components only.
On start the client logs in, connects, syncs the commands (to ``DISCORD_GUILD_ID``
only when set: instant, for development; else globally) and the notifier starts
drawing tables. Clicks on old messages work after a restart: every control is a
:class:`bot.discord_bot.components.RummyControl` whose custom id says what it does.

Nothing from outside silences the platform: a gateway event discord.py cannot parse is
dropped and logged once per kind (:mod:`bot.discord_bot.gateway_guard`), a failure of an
event handler is logged once per kind, and the client's task is supervised: should it end
while the adapter runs, that is logged and a new client connects after 1, 2, 4 ...
seconds (at most :data:`RESTART_CAP`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import Sequence
from typing import Any, cast

import aiohttp
import discord
from discord import app_commands

from bot.adapter_errors import PlatformRefused, PlatformUnreachable
from bot.discord_bot.commands import rummy_group
from bot.discord_bot.components import ControlHandler, ControlId, RummyControl, drawn_control
from bot.discord_bot.flows import Flows, user_ref
from bot.discord_bot.gateway_guard import guard_parsers
from bot.discord_bot.notifier import DiscordNotifier
from bot.discord_bot.respond import DEFER_AFTER, send_message
from bot.discord_bot.sessions import HandSessions
from bot.discord_bot.translator import RummyTranslator
from bot.dropped_inputs import DroppedInputs, error_kind
from bot.i18n import _, use_locale
from bot.ports.entry import Entry
from bot.ports.host import Host
from bot.ports.message_store import DiscordMessageStore
from bot.settings import Settings

log = logging.getLogger(__name__)

#: Seconds to wait for the gateway's READY before start() gives up.
READY_TIMEOUT = 60.0

RESTART_FIRST = 1.0
"""Seconds before a new client connects after the client's task ended the first time
(doubling after each restart that did not last)."""

RESTART_CAP = 60.0
"""The longest wait before a new client connects."""

STEADY = 300.0
"""Seconds of a client's life after which a restart counts as having lasted (the wait
starts from :data:`RESTART_FIRST` again)."""


def intents() -> discord.Intents:
    """Only the ``guilds`` intent (none of the privileged ones)."""
    return discord.Intents(guilds=True)


class _RummyParts:
    """What both clients add to discord.py's: a command tree, ``controls`` handling every
    component, the guard on the gateway's parsers (``dropped``) and the log of failing
    event handlers (``failures``), each once per kind."""

    tree: app_commands.CommandTree[discord.Client]
    controls: ControlHandler
    dropped: DroppedInputs
    failures: DroppedInputs

    @staticmethod
    def _quiet_voice() -> None:
        """The bot never joins voice: discord.py's start-up warnings about the missing
        voice libraries (PyNaCl, davey) would only alarm operators (call before the
        client's ``__init__``, which warns)."""
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False

    def _setup(
        self,
        controls: ControlHandler,
        dropped: DroppedInputs | None,
        failures: DroppedInputs | None,
    ) -> None:
        client = cast(discord.Client, self)
        self.tree = app_commands.CommandTree(client)
        self.controls = controls
        self.dropped = dropped or DroppedInputs(log, "discord")
        self.failures = failures or _failures()
        guard_parsers(client._connection.parsers, self.dropped)
        self.tree.error(self._on_command_error)

    async def _on_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """A slash command that failed: logged once per kind (discord.py would log every
        one with its traceback)."""
        cause = error.__cause__ or error
        self.failures.drop(error_kind("command", cause), f"interaction {interaction.id}", cause)

    async def on_error(self, event_method: str, /, *args: Any, **kwargs: Any) -> None:
        """An event handler failed: logged once per kind and interval (with its traceback
        the first time) instead of discord.py's traceback for every event."""
        error = sys.exc_info()[1]
        if error is None:
            self.failures.drop(event_method)
        else:
            self.failures.drop(error_kind(event_method, error), error=error)

    async def setup_hook(self) -> None:
        """Listen for our components on every message, old ones included."""
        cast(discord.Client, self).add_dynamic_items(RummyControl)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Components that reach no handler of discord.py, which Discord would show as
        "This interaction failed" (discord.py only calls the controls it finds on the
        clicked message): one whose custom id is none of ours (:class:`ControlId` does not
        parse it: a forged or very old button) or a table control that is not on the
        message is answered privately; a hand control that is not on the message (a forged
        click) goes to the handler, which refuses an offer it names with the fresh
        hand."""
        try:
            await self._on_interaction(interaction)
        except Exception as error:
            self.failures.drop(
                error_kind("on_interaction", error), f"interaction {interaction.id}", error
            )

    async def _on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        data = interaction.data
        if not isinstance(data, dict):
            self.dropped.drop("component: no data", f"interaction {interaction.id}")
            return
        custom_id = str(data.get("custom_id", ""))
        control = ControlId.parse(custom_id)
        if control is not None and drawn_control(interaction) is not None:
            return  # discord.py calls its RummyControl
        if control is None or not control.state:
            await self.controls.on_unknown(interaction)
        else:
            raw = data.get("values")
            values = [str(v) for v in raw] if isinstance(raw, list) else []
            await self.controls.on_control(interaction, control, values)


class RummyClient(_RummyParts, discord.Client):
    """The bot's client on one gateway connection."""

    def __init__(
        self,
        controls: ControlHandler,
        *,
        guild_ready_timeout: float = 2.0,
        dropped: DroppedInputs | None = None,
        failures: DroppedInputs | None = None,
    ) -> None:
        self._quiet_voice()
        discord.Client.__init__(self, intents=intents(), guild_ready_timeout=guild_ready_timeout)
        self._setup(controls, dropped, failures)


class ShardedRummyClient(_RummyParts, discord.AutoShardedClient):
    """The bot's client on the shards ``shard_ids`` of ``shard_count``
    (``DISCORD_SHARD_COUNT``, ``DISCORD_SHARD_IDS``: Discord requires shards from 2,500
    servers; each process may run some of them)."""

    def __init__(
        self,
        controls: ControlHandler,
        *,
        shard_count: int,
        shard_ids: Sequence[int] | None = None,
        guild_ready_timeout: float = 2.0,
        dropped: DroppedInputs | None = None,
        failures: DroppedInputs | None = None,
    ) -> None:
        options: dict[str, Any] = {"shard_ids": list(shard_ids)} if shard_ids else {}
        self._quiet_voice()
        discord.AutoShardedClient.__init__(
            self,
            intents=intents(),
            shard_count=shard_count,
            guild_ready_timeout=guild_ready_timeout,
            **options,
        )
        self._setup(controls, dropped, failures)


class _Controls:
    """Forwards clicks to the Flows (set once the entry point is known)."""

    def __init__(self) -> None:
        self.flows: Flows | None = None

    async def on_control(
        self, interaction: discord.Interaction[Any], control: ControlId, values: Sequence[str]
    ) -> None:
        if self.flows is not None:
            await self.flows.on_control(interaction, control, values)

    async def on_unknown(self, interaction: discord.Interaction[Any]) -> None:
        """A click on a component that is none of ours: a private line saying so."""
        if self.flows is None:
            return
        with use_locale(await self.flows.entry.locale_of(user_ref(interaction))):
            text = _("That button is not in use (any more); /rummy hand shows your hand.")
        try:
            await send_message(interaction, text)
        except discord.HTTPException:
            log.info("could not answer an unknown component %s", interaction.id)


class DiscordAdapter:
    """:class:`bot.ports.frontend.FrontEnd` for Discord.

    Every input goes to the service's entry point (:class:`bot.ports.entry.Entry`); the
    table messages are kept in the :class:`bot.ports.message_store.DiscordMessageStore`
    of the :class:`bot.ports.host.Host` handed to :meth:`start`. ``guild_ready_timeout``
    and ``defer_after`` exist for tests (discord.py waits that long for guilds before READY;
    interactions are deferred when the work takes longer than ``defer_after`` seconds).
    """

    platform = "discord"
    every_platform = False

    def __init__(
        self,
        settings: Settings,
        *,
        guild_ready_timeout: float = 2.0,
        defer_after: float = DEFER_AFTER,
    ) -> None:
        self.settings = settings
        self.sessions = HandSessions()
        self._notifier = DiscordNotifier(self.sessions)
        self._guild_ready_timeout = guild_ready_timeout
        self._defer_after = defer_after
        self._controls = _Controls()
        self.client: RummyClient | ShardedRummyClient | None = None
        self.flows: Flows | None = None
        self._task: asyncio.Task[None] | None = None
        self._supervisor: asyncio.Task[None] | None = None
        self._stopping = False
        #: Gateway events dropped at the edge and event handlers that failed, per kind.
        self.dropped = DroppedInputs(log, "discord")
        self.failures = _failures()
        #: How often a new client connected after the client's task had ended.
        self.restarts = 0

    @property
    def notifier(self) -> DiscordNotifier:
        """What the service publishes changes to on Discord."""
        return self._notifier

    @property
    def task(self) -> asyncio.Task[None] | None:
        """The running client's task (``client.start``)."""
        return self._task

    async def start(self, host: Host) -> None:
        """Log in, connect, sync the commands; returns once the bot is ready. Inputs go to
        the ``host``'s entry point, the table messages and the hand anchors (stamped
        with its clock, ``host.now``) are kept in its ``discord_messages``.

        Raises :class:`PlatformRefused` for a wrong token, :class:`PlatformUnreachable`
        when Discord cannot be reached or does not answer in :data:`READY_TIMEOUT`
        seconds (what was started is stopped first).
        """
        self._stopping = False
        try:
            self.sessions.attach(host.discord_messages, host.now)
            await self._start(
                host.entry, host.discord_messages, host.web is not None and host.web.discord
            )
        except discord.LoginFailure as error:
            await self.stop()
            raise PlatformRefused(f"Discord refused the token ({error})") from error
        except (
            OSError,
            TimeoutError,
            aiohttp.ClientError,
            discord.GatewayNotFound,
            discord.ConnectionClosed,
        ) as error:
            await self.stop()
            raise PlatformUnreachable(
                f"cannot reach Discord ({error or type(error).__name__})"
            ) from error

    async def _start(
        self, entry: Entry, store: DiscordMessageStore, activity: bool = False
    ) -> None:
        token = self.settings.require_discord_token()
        self.flows = Flows(entry, self.sessions, self._defer_after, activity, self.failures)
        self._notifier.activity = activity
        self._controls.flows = self.flows
        client = await self._connect(token)
        await self._sync(client)
        self._notifier.attach(client, store)
        self._supervisor = asyncio.create_task(
            self._supervise(token, store), name="discord: watch the client"
        )

    def _new_client(self) -> RummyClient | ShardedRummyClient:
        """A client with the ``/rummy`` commands, the translator and the guards."""
        assert self.flows is not None
        client: RummyClient | ShardedRummyClient
        if self.settings.discord_shard_count:
            client = ShardedRummyClient(
                self._controls,
                shard_count=self.settings.discord_shard_count,
                shard_ids=self.settings.discord_shard_ids,
                guild_ready_timeout=self._guild_ready_timeout,
                dropped=self.dropped,
                failures=self.failures,
            )
        else:
            client = RummyClient(
                self._controls,
                guild_ready_timeout=self._guild_ready_timeout,
                dropped=self.dropped,
                failures=self.failures,
            )
        client.tree.add_command(rummy_group(self.flows))
        return client

    async def _connect(self, token: str) -> RummyClient | ShardedRummyClient:
        """A new client, logged in and ready (it becomes :attr:`client`); raises the login
        or connection error, or ``TimeoutError`` after :data:`READY_TIMEOUT` seconds,
        with that client closed again."""
        client = self._new_client()
        await client.tree.set_translator(RummyTranslator())
        self.client = client
        self._task = task = asyncio.create_task(client.start(token), name="discord: client")
        ready = asyncio.create_task(client.wait_until_ready())
        done, _pending = await asyncio.wait(
            {task, ready}, timeout=READY_TIMEOUT, return_when=asyncio.FIRST_COMPLETED
        )
        if ready in done:
            return client
        ready.cancel()
        await client.close()
        if task in done:
            task.result()  # raises the login or connection error
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await task
        raise TimeoutError("Discord did not become ready")

    async def _supervise(self, token: str, store: DiscordMessageStore) -> None:
        """Wait for the client's task to end; unless the adapter is stopping, log why and
        connect a new client after a back-off (the open hand messages of the old one are
        forgotten: their next click draws them anew)."""
        wait = RESTART_FIRST
        loop = asyncio.get_running_loop()
        since = loop.time()
        while not self._stopping:
            task = self._task
            assert task is not None
            await asyncio.wait({task})
            if self._stopping:
                return
            error = None if task.cancelled() else task.exception()
            if loop.time() - since >= STEADY:
                wait = RESTART_FIRST
            log.error(
                "discord: the client stopped (%s); a new one connects in %.0f s",
                "no error" if error is None else f"{type(error).__name__}: {error}",
                wait,
                exc_info=error,
            )
            self._notifier.detach()
            if self.client is not None:
                with contextlib.suppress(Exception):
                    await self.client.close()
            await asyncio.sleep(wait)
            wait = min(wait * 2, RESTART_CAP)
            if self._stopping:
                return
            self.sessions.forget_all()
            try:
                client = await self._connect(token)
            except Exception as failed:
                log.error(
                    "discord: a new client did not connect (%s: %s)", type(failed).__name__, failed
                )
                continue
            self._notifier.attach(client, store)
            self.restarts += 1
            since = loop.time()

    async def _sync(self, client: RummyClient | ShardedRummyClient) -> None:
        guild_id = self.settings.discord_guild_id
        if guild_id is not None:
            guild = discord.Object(guild_id)
            client.tree.copy_global_to(guild=guild)
            synced = await client.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), guild_id)
        else:
            synced = await client.tree.sync()
            log.info(
                "synced %d global commands (Discord may take a while to show them)", len(synced)
            )

    async def stop(self) -> None:
        """Stop watching and drawing, disconnect and close what start() opened."""
        self._stopping = True
        if self._supervisor is not None:
            self._supervisor.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._supervisor
            self._supervisor = None
        self._notifier.detach()
        if self.client is not None:
            await self.client.close()
        if self._task is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await self._task


def _failures() -> DroppedInputs:
    return DroppedInputs(log, "discord", says="an event handler failed", level=logging.ERROR)


def create_adapter(settings: Settings) -> DiscordAdapter:
    """The adapter ``rummy-bot run`` starts when ``DISCORD_TOKEN`` is set."""
    return DiscordAdapter(settings)
