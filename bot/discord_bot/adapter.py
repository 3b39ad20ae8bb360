"""The Discord adapter: a discord.py client with the ``/rummy`` command tree.

Intents: only ``guilds`` (channels and threads for sending); no privileged intent and
no message content, since players act through slash commands and components only.
On start the client logs in, connects, syncs the commands (to ``DISCORD_GUILD_ID``
only when set: instant, for development; else globally) and the notifier starts
drawing tables. Clicks on old messages work after a restart: every control is a
:class:`bot.discord_bot.components.RummyControl` whose custom id says what it does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import Any, cast

import aiohttp
import discord
from discord import app_commands

from bot.adapter_errors import PlatformRefused, PlatformUnreachable
from bot.discord_bot.commands import rummy_group
from bot.discord_bot.components import ControlHandler, ControlId, RummyControl, drawn_control
from bot.discord_bot.flows import Flows, user_ref
from bot.discord_bot.notifier import DiscordNotifier
from bot.discord_bot.respond import DEFER_AFTER, send_message
from bot.discord_bot.sessions import HandSessions
from bot.discord_bot.translator import RummyTranslator
from bot.i18n import _, use_locale
from bot.ports.entry import Entry
from bot.ports.host import Host
from bot.ports.message_store import DiscordMessageStore
from bot.settings import Settings

log = logging.getLogger(__name__)

#: Seconds to wait for the gateway's READY before start() gives up.
READY_TIMEOUT = 60.0


def intents() -> discord.Intents:
    """Only the ``guilds`` intent (none of the privileged ones)."""
    return discord.Intents(guilds=True)


class _RummyParts:
    """What both clients add to discord.py's: a command tree, and ``controls`` handling
    every component."""

    tree: app_commands.CommandTree[discord.Client]
    controls: ControlHandler

    @staticmethod
    def _quiet_voice() -> None:
        """The bot never joins voice: discord.py's start-up warnings about the missing
        voice libraries (PyNaCl, davey) would only alarm operators (call before the
        client's ``__init__``, which warns)."""
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False

    def _setup(self, controls: ControlHandler) -> None:
        self.tree = app_commands.CommandTree(cast(discord.Client, self))
        self.controls = controls

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
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        control = ControlId.parse(custom_id)
        if control is not None and drawn_control(interaction) is not None:
            return  # discord.py calls its RummyControl
        if control is None or not control.state:
            await self.controls.on_unknown(interaction)
        else:
            values = [str(v) for v in data.get("values") or []]
            await self.controls.on_control(interaction, control, values)


class RummyClient(_RummyParts, discord.Client):
    """The bot's client on one gateway connection."""

    def __init__(self, controls: ControlHandler, *, guild_ready_timeout: float = 2.0) -> None:
        self._quiet_voice()
        discord.Client.__init__(self, intents=intents(), guild_ready_timeout=guild_ready_timeout)
        self._setup(controls)


class ShardedRummyClient(_RummyParts, discord.AutoShardedClient):
    """The bot's client on the shards ``shard_ids`` of ``shard_count``
    (``DISCORD_SHARD_COUNT``, ``DISCORD_SHARD_IDS``: Discord requires shards from 2,500
    servers; each process may run some of them)."""

    def __init__(self, controls: ControlHandler, *, shard_count: int,
                 shard_ids: Sequence[int] | None = None,
                 guild_ready_timeout: float = 2.0) -> None:
        options: dict[str, Any] = {"shard_ids": list(shard_ids)} if shard_ids else {}
        self._quiet_voice()
        discord.AutoShardedClient.__init__(
            self, intents=intents(), shard_count=shard_count,
            guild_ready_timeout=guild_ready_timeout, **options)
        self._setup(controls)


class _Controls:
    """Forwards clicks to the Flows (set once the entry point is known)."""

    def __init__(self) -> None:
        self.flows: Flows | None = None

    async def on_control(self, interaction: discord.Interaction[Any], control: ControlId,
                         values: Sequence[str]) -> None:
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
    """:class:`bot.runner.Adapter` for Discord.

    Every input goes to the service's entry point (:class:`bot.ports.entry.Entry`); the
    table messages are kept in the :class:`bot.ports.message_store.DiscordMessageStore`
    of the :class:`bot.ports.host.Host` handed to :meth:`start`. ``guild_ready_timeout``
    and ``defer_after`` exist for tests (discord.py waits that long for guilds before READY;
    interactions are deferred when the work takes longer than ``defer_after`` seconds).
    """

    platform = "discord"

    def __init__(self, settings: Settings, *, guild_ready_timeout: float = 2.0,
                 defer_after: float = DEFER_AFTER) -> None:
        self.settings = settings
        self.sessions = HandSessions()
        self._notifier = DiscordNotifier(self.sessions)
        self._guild_ready_timeout = guild_ready_timeout
        self._defer_after = defer_after
        self._controls = _Controls()
        self.client: RummyClient | ShardedRummyClient | None = None
        self.flows: Flows | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def notifier(self) -> DiscordNotifier:
        """What the service publishes changes to on Discord."""
        return self._notifier

    async def start(self, host: Host) -> None:
        """Log in, connect, sync the commands; returns once the bot is ready. Inputs go to
        the ``host``'s entry point, the table messages are kept in its
        ``discord_messages``.

        Raises :class:`PlatformRefused` for a wrong token, :class:`PlatformUnreachable`
        when Discord cannot be reached or does not answer in :data:`READY_TIMEOUT`
        seconds (what was started is stopped first).
        """
        try:
            await self._start(host.entry, host.discord_messages,
                              host.web is not None and host.web.discord)
        except discord.LoginFailure as error:
            raise PlatformRefused(f"Discord refused the token ({error})") from error
        except (OSError, TimeoutError, aiohttp.ClientError, discord.GatewayNotFound,
                discord.ConnectionClosed) as error:
            await self.stop()
            raise PlatformUnreachable(f"cannot reach Discord ({error or type(error).__name__})"
                                      ) from error

    async def _start(self, entry: Entry, store: DiscordMessageStore,
                     activity: bool = False) -> None:
        token = self.settings.require_discord_token()
        self.flows = Flows(entry, self.sessions, self._defer_after, activity)
        self._notifier.activity = activity
        self._controls.flows = self.flows
        client: RummyClient | ShardedRummyClient
        if self.settings.discord_shard_count:
            client = ShardedRummyClient(self._controls,
                                        shard_count=self.settings.discord_shard_count,
                                        shard_ids=self.settings.discord_shard_ids,
                                        guild_ready_timeout=self._guild_ready_timeout)
        else:
            client = RummyClient(self._controls, guild_ready_timeout=self._guild_ready_timeout)
        client.tree.add_command(rummy_group(self.flows))
        await client.tree.set_translator(RummyTranslator())
        self.client = client
        self._task = asyncio.create_task(client.start(token))
        ready = asyncio.create_task(client.wait_until_ready())
        done, _pending = await asyncio.wait({self._task, ready}, timeout=READY_TIMEOUT,
                                            return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            if self._task in done:
                await client.close()
                self._task.result()  # raises the login or connection error
            await self.stop()
            raise TimeoutError("Discord did not become ready")
        await self._sync(client)
        self._notifier.attach(client, store)

    async def _sync(self, client: RummyClient | ShardedRummyClient) -> None:
        guild_id = self.settings.discord_guild_id
        if guild_id is not None:
            guild = discord.Object(guild_id)
            client.tree.copy_global_to(guild=guild)
            synced = await client.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), guild_id)
        else:
            synced = await client.tree.sync()
            log.info("synced %d global commands (Discord may take a while to show them)",
                     len(synced))

    async def stop(self) -> None:
        """Stop drawing, disconnect and close what start() opened."""
        self._notifier.detach()
        if self.client is not None:
            await self.client.close()
        if self._task is not None:
            with contextlib.suppress(Exception):
                await self._task


def create_adapter(settings: Settings) -> DiscordAdapter:
    """The adapter ``rummy-bot run`` starts when ``DISCORD_TOKEN`` is set."""
    return DiscordAdapter(settings)
