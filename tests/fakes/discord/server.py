"""The fake Discord: an aiohttp app on 127.0.0.1 with REST under ``/api/v10`` and a gateway.

Start it with ``running_fake_discord()``, point discord.py at it with
``point_discord_py_at(server)``, then act as Discord users (``slash``, ``autocomplete``,
``click``, ``select``, ``submit_modal``) and inspect what the bot did (``calls``,
``channel_messages``, ``ephemeral_messages``, ``visible_messages``, ``commands_in``).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import socket
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from typing import Any

from aiohttp import web

from . import interactions as it
from .commands import CommandRegistry
from .components import BUTTON, SELECT_TYPES, find
from .entities import (
    ADMINISTRATOR,
    USE_APPLICATION_COMMANDS,
    FakeChannel,
    FakeGuild,
    FakeRole,
    FakeUser,
    Json,
)
from .gateway import Gateway
from .intents import DIRECT_MESSAGES, GUILD_MESSAGES
from .interactions import FakeInteraction
from .limits import check_message
from .messages import SETTABLE_FLAGS, FakeMessage, MessageStore, new_message_fields
from .payloads import (
    OptionValue,
    command_data,
    component_data,
    interaction_payload,
    modal_submit_data,
)
from .rest import API_PREFIX, RecordedCall, build_app
from .world import DefaultWorld, World

DEFAULT_TOKEN = "fake-bot-token.for-tests.only"


class FakeDiscord:
    """State and test-side API of one fake Discord (see the module docstring)."""

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        callback_deadline: float | None = 3.0,
        token_lifetime: float = 15 * 60.0,
        heartbeat_interval_ms: int = 41_250,
        privileged_intents: int = 0,
    ) -> None:
        self.token = token
        self.callback_deadline = callback_deadline
        self.token_lifetime = token_lifetime
        self.world = World()
        self.messages = MessageStore()
        self.commands = CommandRegistry(self.world.application_id, self.world.ids.next)
        self.interactions: dict[int, FakeInteraction] = {}
        self._by_token: dict[str, FakeInteraction] = {}
        self.calls: list[RecordedCall] = []
        self.gateway_connects: list[dict[str, str]] = []
        self.gateway = Gateway(
            self,
            heartbeat_interval_ms=heartbeat_interval_ms,
            privileged_intents=privileged_intents,
        )
        self.world.announce = self.gateway.announce
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.default: DefaultWorld | None = None

    # -- addresses -------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` must be: ``http://127.0.0.1:PORT/api/v10``."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """The gateway address (GET /gateway/bot ``url``, READY ``resume_gateway_url``)."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def bot(self) -> FakeUser:
        """The bot's user."""
        return self.world.bot

    @property
    def application_id(self) -> int:
        """The bot's application id (same as its user id, as for real bots)."""
        return self.world.application_id

    # -- lifecycle -------------------------------------------------------------------

    async def start(self) -> None:
        """Serve on 127.0.0.1 on a free port."""
        app = build_app(self)
        app.router.add_get("/gateway", self.gateway.handle)
        self._runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()

    async def stop(self) -> None:
        """Close gateway connections and stop serving."""
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # -- recording and waiting -------------------------------------------------------

    def record(self, call: RecordedCall) -> None:
        """Log a REST call (used by the REST layer)."""
        self.calls.append(call)
        self.changed()

    def record_gateway_connect(self, query: dict[str, str]) -> None:
        """Log the query string of a gateway connection (v, encoding, compress)."""
        self.gateway_connects.append(query)
        self.changed()

    def changed(self) -> None:
        """Wake everything waiting in ``wait_until``."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 5.0) -> Any:
        """Wait until ``predicate()`` is truthy; return its value; TimeoutError after ``timeout``.

        Checked after every change on the fake and every 20 ms, so predicates about the
        bot's own state (not only the fake's) work too.
        """
        async with asyncio.timeout(timeout):
            while not (result := predicate()):
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), 0.02)
        return result

    def calls_to(self, method: str | None = None, path: str | None = None) -> list[RecordedCall]:
        """Recorded calls by ``method`` and ``path`` (relative to /api/v10; ``*`` wildcards)."""
        return [c for c in self.calls if c.matches(method, path)]

    # -- messages --------------------------------------------------------------------

    def create_message(
        self,
        channel: FakeChannel,
        author: FakeUser,
        payload: Json,
        *,
        flags: int = 0,
        viewer: FakeUser | None = None,
        interaction: FakeInteraction | None = None,
        type: int = 0,
        validate: bool = True,
    ) -> FakeMessage:
        """Validate and store a new message; public ones are announced (MESSAGE_CREATE)."""
        all_flags = ((payload.get("flags") or 0) & SETTABLE_FLAGS) | flags
        if validate:
            check_message({**payload, "flags": all_flags}, creating=True)
        message = FakeMessage(
            id=self.world.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            flags=all_flags,
            type=type,
            viewer=viewer,
            **new_message_fields(payload),
        )
        if interaction is not None:
            message.interaction_id = interaction.id
            message.webhook_id = self.world.application_id
            message.interaction_metadata = _interaction_metadata(interaction)
        self.messages.add(message)
        if viewer is None:
            channel.last_message_id = message.id
            self._announce_message("MESSAGE_CREATE", channel, message.to_json(with_guild=True))
        self.changed()
        return message

    def edit_message(self, message: FakeMessage, payload: Json) -> None:
        """Apply an edit (validated, history kept); public edits are announced."""
        message.apply(payload)
        if message.viewer is None:
            channel = self.world.channels[message.channel_id]
            self._announce_message("MESSAGE_UPDATE", channel, message.to_json(with_guild=True))
        self.changed()

    def delete_message(self, message: FakeMessage) -> None:
        """Mark ``message`` deleted; public deletions are announced."""
        message.deleted = True
        if message.viewer is None:
            channel = self.world.channels[message.channel_id]
            data: Json = {"id": str(message.id), "channel_id": str(channel.id)}
            if channel.guild_id is not None:
                data["guild_id"] = str(channel.guild_id)
            self._announce_message("MESSAGE_DELETE", channel, data)
        self.changed()

    def _announce_message(self, event: str, channel: FakeChannel, data: Json) -> None:
        intent = DIRECT_MESSAGES if channel.is_dm else GUILD_MESSAGES
        self.gateway.announce(event, data, intent=intent)

    def channel_messages(self, channel: FakeChannel) -> list[FakeMessage]:
        """Live public messages of ``channel``, oldest first (ephemeral ones never appear)."""
        return self.messages.in_channel(channel.id)

    def ephemeral_messages(self, user: FakeUser | None = None) -> list[FakeMessage]:
        """Live ephemeral messages (of ``user`` only, if given), oldest first."""
        return self.messages.ephemeral(user)

    def visible_messages(self, user: FakeUser, channel: FakeChannel) -> list[FakeMessage]:
        """What ``user`` sees in ``channel``: its public messages plus their own ephemerals."""
        public = self.channel_messages(channel) if self.world.can_view(user, channel) else []
        private = [m for m in self.ephemeral_messages(user) if m.channel_id == channel.id]
        return sorted([*public, *private], key=lambda m: m.id)

    def commands_in(self, guild: FakeGuild | None = None) -> list[Json]:
        """Registered application commands: global ones, or those of ``guild``."""
        return self.commands.listing(None if guild is None else guild.id)

    # -- interactions ----------------------------------------------------------------

    def interaction_by_token(self, token: str) -> FakeInteraction | None:
        """The interaction whose token is ``token``, or None."""
        return self._by_token.get(token)

    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        options: Mapping[str, OptionValue] | None = None,
        *,
        subcommand: str | None = None,
        locale: str | None = None,
    ) -> FakeInteraction:
        """``user`` runs ``/name [subcommand] option:value...`` in ``channel``.

        Only registered commands the user may see can be run (ValueError otherwise);
        ``locale`` defaults to the user's locale. Returns once the INTERACTION_CREATE
        was written to the bot's socket.
        """
        guild = self._check_can_use(user, channel)
        command = self._command_for(user, channel, guild, name)
        data = command_data(command, options=options or {}, subcommand=subcommand, guild=guild)
        return await self._dispatch(
            it.APPLICATION_COMMAND, user, channel, guild, data, locale, command=command
        )

    async def autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        options: Mapping[str, OptionValue],
        focused: str,
        *,
        subcommand: str | None = None,
        locale: str | None = None,
    ) -> FakeInteraction:
        """``user`` types into option ``focused`` (an autocomplete option) of ``/name``."""
        guild = self._check_can_use(user, channel)
        command = self._command_for(user, channel, guild, name)
        data = command_data(
            command, options=options, subcommand=subcommand, guild=guild, focused=focused
        )
        spec = _focused_spec(command, subcommand, focused)
        if not spec.get("autocomplete"):
            raise ValueError(f"option {focused!r} of /{name} has no autocomplete")
        return await self._dispatch(
            it.AUTOCOMPLETE, user, channel, guild, data, locale, command=command
        )

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str,
        *,
        locale: str | None = None,
    ) -> FakeInteraction:
        """``user`` clicks the button ``custom_id`` on the CURRENT version of ``message``."""
        component = self._component(user, message, custom_id)
        if component["type"] != BUTTON:
            raise ValueError(f"{custom_id!r} is not a button")
        return await self._dispatch_component(user, message, component, None, locale)

    async def select(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str,
        values: Sequence[str | FakeUser | FakeRole | FakeChannel],
        *,
        locale: str | None = None,
    ) -> FakeInteraction:
        """``user`` picks ``values`` in the select menu ``custom_id`` of ``message``."""
        component = self._component(user, message, custom_id)
        if component["type"] not in SELECT_TYPES:
            raise ValueError(f"{custom_id!r} is not a select menu")
        return await self._dispatch_component(user, message, component, values, locale)

    async def submit_modal(
        self,
        user: FakeUser,
        opened_by: FakeInteraction,
        values: Mapping[str, str],
        *,
        locale: str | None = None,
    ) -> FakeInteraction:
        """``user`` submits the modal the bot opened in answer to ``opened_by``."""
        modal = opened_by.modal
        if modal is None:
            raise ValueError("the bot did not answer that interaction with a modal")
        if user is not opened_by.user:
            raise ValueError("only the user the modal was shown to can submit it")
        data = modal_submit_data(modal, values)
        source = opened_by.source_message
        return await self._dispatch(
            it.MODAL_SUBMIT,
            user,
            opened_by.channel,
            opened_by.guild,
            data,
            locale,
            source=source,
        )

    def _check_can_use(self, user: FakeUser, channel: FakeChannel) -> FakeGuild | None:
        if channel.is_dm:
            if channel.recipient is not user:
                raise ValueError(f"{user.username} is not part of that DM")
            return None
        guild = self.world.guild_of(channel)
        assert guild is not None
        if user.id not in guild.members:
            raise ValueError(f"{user.username} is not a member of {guild.name}")
        perms = guild.permissions_in(user.id, channel)
        if not perms:
            raise ValueError(f"{user.username} cannot see #{channel.name}")
        if not perms & USE_APPLICATION_COMMANDS:
            raise ValueError(f"{user.username} may not use application commands in #{channel.name}")
        return guild

    def _command_for(
        self, user: FakeUser, channel: FakeChannel, guild: FakeGuild | None, name: str
    ) -> Json:
        command = self.commands.resolve(name, None if guild is None else guild.id)
        if command is None:
            where = "globally" if guild is None else f"globally or in {guild.name}"
            raise ValueError(f"/{name} is not registered {where} (did the bot sync its tree?)")
        contexts = command.get("contexts")
        context = 1 if guild is None else 0
        if contexts is not None and context not in contexts:
            raise ValueError(f"/{name} is not available in this context ({context})")
        if guild is None and command.get("dm_permission") is False:
            raise ValueError(f"/{name} is not available in DMs")
        required = command.get("default_member_permissions")
        if guild is not None and required is not None:
            # "0" hides the command from everyone but administrators.
            needed = int(required)
            perms = guild.permissions_in(user.id, channel)
            if not perms & ADMINISTRATOR and (needed == 0 or perms & needed != needed):
                raise ValueError(f"{user.username} lacks the permissions /{name} requires")
        return command

    def _component(self, user: FakeUser, message: FakeMessage, custom_id: str) -> Json:
        if message.deleted:
            raise ValueError("that message was deleted")
        if not message.visible_to(user):
            raise ValueError(f"{user.username} cannot see that (ephemeral) message")
        channel = self.world.channels[message.channel_id]
        if message.viewer is None and not self.world.can_view(user, channel):
            raise ValueError(f"{user.username} cannot see #{channel.name}")
        component = find(message.components, custom_id)
        if component is None:
            raise ValueError(
                f"no button/select {custom_id!r} on the message now; "
                f"current custom_ids: {message.custom_ids()}"
            )
        if component.get("disabled"):
            raise ValueError(f"{custom_id!r} is disabled")
        return component

    async def _dispatch_component(
        self,
        user: FakeUser,
        message: FakeMessage,
        component: Json,
        values: Sequence[str | FakeUser | FakeRole | FakeChannel] | None,
        locale: str | None,
    ) -> FakeInteraction:
        channel = self.world.channels[message.channel_id]
        guild = self.world.guild_of(channel)
        if guild is not None and user.id not in guild.members:
            raise ValueError(f"{user.username} is not a member of {guild.name}")
        data = component_data(component, values, guild)
        return await self._dispatch(
            it.MESSAGE_COMPONENT, user, channel, guild, data, locale, source=message
        )

    async def _dispatch(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        guild: FakeGuild | None,
        data: Json,
        locale: str | None,
        *,
        command: Json | None = None,
        source: FakeMessage | None = None,
    ) -> FakeInteraction:
        interaction_id = self.world.ids.next()
        token = "aW50ZXJhY3Rpb24." + secrets.token_urlsafe(48)
        payload = interaction_payload(
            interaction_id=interaction_id,
            token=token,
            application_id=self.world.application_id,
            kind=kind,
            user=user,
            channel=channel,
            guild=guild,
            bot=self.world.bot,
            data=data,
            locale=locale or user.locale,
            message=None if source is None else source.to_json(),
        )
        interaction = FakeInteraction(
            id=interaction_id,
            token=token,
            type=kind,
            user=user,
            channel=channel,
            guild=guild,
            payload=payload,
            created=time.monotonic(),
            source_message=source,
            command=command,
        )
        self.interactions[interaction_id] = interaction
        self._by_token[token] = interaction
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        return interaction


def _focused_spec(command: Json, subcommand: str | None, focused: str) -> Json:
    specs: list[Json] = command.get("options") or []
    for part in (subcommand or "").split():
        specs = next(s for s in specs if s["name"] == part).get("options") or []
    return next(s for s in specs if s["name"] == focused)


def _interaction_metadata(interaction: FakeInteraction) -> Json:
    data: Json = {
        "id": str(interaction.id),
        "type": interaction.type,
        "user": interaction.user.to_json(),
        "authorizing_integration_owners": interaction.payload.get(
            "authorizing_integration_owners", {}
        ),
    }
    if interaction.command is not None:
        data["name"] = interaction.command["name"]
        data["command_type"] = 1
    if interaction.source_message is not None:
        data["interacted_message_id"] = str(interaction.source_message.id)
    if interaction.original is not None:
        data["original_response_message_id"] = str(interaction.original.id)
    return data


@contextlib.asynccontextmanager
async def running_fake_discord(
    *,
    populate: bool = True,
    token: str = DEFAULT_TOKEN,
    callback_deadline: float | None = 3.0,
    token_lifetime: float = 15 * 60.0,
    heartbeat_interval_ms: int = 41_250,
    privileged_intents: int = 0,
) -> AsyncIterator[FakeDiscord]:
    """Run a fake Discord on 127.0.0.1 (free port) for the body of the ``async with``.

    ``populate`` creates the ``DefaultWorld`` cast (``server.default``);
    ``callback_deadline`` is Discord's 3 s limit for the first callback (None: no limit);
    ``privileged_intents`` are the privileged intent bits the fake application may use.
    """
    server = FakeDiscord(
        token=token,
        callback_deadline=callback_deadline,
        token_lifetime=token_lifetime,
        heartbeat_interval_ms=heartbeat_interval_ms,
        privileged_intents=privileged_intents,
    )
    if populate:
        server.default = DefaultWorld.create(server.world)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@contextlib.contextmanager
def point_discord_py_at(server: FakeDiscord) -> Iterator[None]:
    """Make discord.py talk to ``server`` instead of discord.com; restore on exit.

    Patches the two addresses discord.py 2.x hard-codes: ``discord.http.Route.BASE``
    (every REST call, interaction callbacks and webhooks included) and
    ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (``Client.connect`` never asks
    GET /gateway/bot; only ``AutoShardedClient`` does).
    """
    import discord.gateway
    import discord.http
    import yarl

    route = discord.http.Route
    websocket = discord.gateway.DiscordWebSocket
    old_base, old_gateway = route.BASE, websocket.DEFAULT_GATEWAY
    route.BASE = server.api_base
    websocket.DEFAULT_GATEWAY = yarl.URL(server.gateway_url)
    try:
        yield
    finally:
        route.BASE = old_base
        websocket.DEFAULT_GATEWAY = old_gateway
