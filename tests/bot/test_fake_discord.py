"""The real discord.py 2.7 client against the fake Discord (tests/fakes/discord).

A ``discord.Client`` with an ``app_commands.CommandTree`` logs in over REST, connects to
the fake gateway (zlib-stream), syncs its commands and answers interactions the fake
dispatches as Discord users would. The fake's limits and one-callback rule are checked
both through discord.py (``discord.HTTPException`` codes) and with raw HTTP.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.webhook.async_ import async_context, interaction_response_params

from tests.fakes.discord import (
    FakeDiscord,
    FakeMessage,
    Overwrite,
    point_discord_py_at,
    running_fake_discord,
)
from tests.fakes.discord.entities import SEND_MESSAGES

TIMEOUT = 5.0


class SecretView(discord.ui.View):
    """The button under "pong": answers the clicking user privately."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Secret", custom_id="ping:secret", style=discord.ButtonStyle.primary)
    async def secret(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        """Reply only to the clicking user."""
        await interaction.response.send_message(
            f"only {interaction.user.name} sees this", ephemeral=True
        )


class PickView(discord.ui.View):
    """An ephemeral select; picking replaces the message in place (callback type 7)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id="pick:variant",
        options=[
            discord.SelectOption(label="Basic Rummy", value="basic"),
            discord.SelectOption(label="Rummy 500", value="500"),
        ],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        """Show the picked variant and drop the select."""
        await interaction.response.edit_message(content=f"picked {select.values[0]}", view=None)


class NameModal(discord.ui.Modal, title="Your name"):
    """A one-field modal; submitting greets the user privately."""

    name: discord.ui.TextInput[NameModal] = discord.ui.TextInput(
        label="Name", custom_id="name:text", max_length=20
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Greet the submitting user."""
        await interaction.response.send_message(f"hello {self.name.value}", ephemeral=True)


class GermanTranslator(app_commands.Translator):
    """Gives /ping a German description, to check localizations reach the fake."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """German text for the ping description, nothing else."""
        if locale is discord.Locale.german and string.message == "Answer pong":
            return "Antwortet mit pong"
        return None


class PingClient(discord.Client):
    """A minimal bot: /ping (public, with a button), /rummy new, /echo with autocomplete."""

    def __init__(self, intents: discord.Intents | None = None) -> None:
        super().__init__(intents=intents or discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        self.variants: list[str] = []
        self.command_errors: list[app_commands.AppCommandError] = []
        self.interactions: list[discord.Interaction] = []
        self._add_commands()

        @self.tree.error
        async def record_error(
            interaction: discord.Interaction, error: app_commands.AppCommandError
        ) -> None:
            self.command_errors.append(error)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Re-IDENTIFY at once (discord.py's default sleeps 5 s before every re-IDENTIFY)."""

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Keep every interaction, so tests can use discord.py's webhook methods on it."""
        self.interactions.append(interaction)

    def _add_commands(self) -> None:
        @self.tree.command(name="ping", description="Answer pong")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong", view=SecretView())

        rummy = app_commands.Group(name="rummy", description="Play Rummy")

        @rummy.command(name="new", description="Start a new game")
        @app_commands.choices(variant=[app_commands.Choice(name="Basic Rummy", value="basic")])
        async def new(interaction: discord.Interaction, variant: str) -> None:
            self.variants.append(variant)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send(f"new {variant} game", ephemeral=True)

        self.tree.add_command(rummy)

        @self.tree.command(name="echo", description="Repeat a word")
        async def echo(interaction: discord.Interaction, word: str) -> None:
            await interaction.response.send_message(word)

        @self.tree.command(name="pick", description="Pick a variant")
        async def pick(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pick one", view=PickView(), ephemeral=True)

        @self.tree.command(name="name", description="Tell your name")
        async def name(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(NameModal())

        @self.tree.command(name="slow", description="Answer late")
        async def slow(interaction: discord.Interaction) -> None:
            await asyncio.sleep(0.3)
            await interaction.response.send_message("too late")

        @echo.autocomplete("word")
        async def echo_words(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            words = ["rummy", "meld", "discard"]
            return [app_commands.Choice(name=w, value=w) for w in words if w.startswith(current)]


async def _start(client: discord.Client, server: FakeDiscord) -> asyncio.Task[None]:
    """Start ``client`` against ``server`` and wait (bounded) until it is ready."""
    task = asyncio.create_task(client.start(server.token))
    ready = asyncio.create_task(client.wait_until_ready())
    done, _ = await asyncio.wait({task, ready}, timeout=TIMEOUT, return_when="FIRST_COMPLETED")
    if ready not in done:
        ready.cancel()
        if task in done:
            task.result()
        raise TimeoutError("discord.py did not become ready")
    return task


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextlib.contextmanager
def discord_py_complaints() -> Iterator[list[logging.LogRecord]]:
    """Collect discord.py's warnings and errors (parse failures, reconnects, ignored errors)."""
    handler = _Collect()
    logger = logging.getLogger("discord")
    logger.addHandler(handler)
    try:
        yield handler.records
    finally:
        logger.removeHandler(handler)


@contextlib.asynccontextmanager
async def connected_bot(**server_options: Any) -> AsyncIterator[tuple[FakeDiscord, PingClient]]:
    """A fake Discord with the default cast, and a PingClient connected and synced to it.

    Fails when discord.py logged any warning or error meanwhile (e.g. a payload it could
    not parse, an ignored exception, a reconnect).
    """
    async with running_fake_discord(**server_options) as server:
        with point_discord_py_at(server):
            client = PingClient()
            with discord_py_complaints() as complaints:
                task = await _start(client, server)
                try:
                    await client.tree.set_translator(GermanTranslator())
                    await asyncio.wait_for(client.tree.sync(), TIMEOUT)
                    yield server, client
                finally:
                    await asyncio.wait_for(client.close(), TIMEOUT)
                    await asyncio.wait_for(task, TIMEOUT)
            assert [r.getMessage() for r in complaints] == []


async def test_discord_py_logs_in_connects_and_syncs() -> None:
    """Login (REST), gateway (zlib-stream, IDENTIFY/READY/GUILD_CREATE) and tree.sync()."""
    async with connected_bot() as (server, client):
        assert server.default is not None
        assert client.user is not None and client.user.id == server.bot.id
        assert client.application_id == server.application_id
        assert server.gateway_connects == [
            {"v": "10", "encoding": "json", "compress": "zlib-stream"}
        ]
        assert server.gateway.identify_count == 1
        guild = client.get_guild(server.default.guild.id)
        assert guild is not None and guild.name == "Rummy Club"
        assert guild.get_channel(server.default.text.id) is not None
        assert guild.get_thread(server.default.thread.id) is not None
        assert server.calls_to("GET", "/users/@me")
        assert server.calls_to("GET", "/oauth2/applications/@me")
        (put,) = server.calls_to("PUT", f"/applications/{server.application_id}/commands")
        assert put.status == 200
        commands = {c["name"]: c for c in server.commands_in()}
        assert set(commands) == {"ping", "rummy", "echo", "pick", "name", "slow"}
        assert commands["ping"]["description_localizations"] == {"de": "Antwortet mit pong"}
        (new,) = commands["rummy"]["options"]
        assert (new["type"], new["name"]) == (1, "new")
        assert new["options"][0]["choices"] == [{"name": "Basic Rummy", "value": "basic"}]


async def test_slash_ping_answers_publicly_with_a_button() -> None:
    """/ping by alice: a public "pong" with the Secret button that bob can see too."""
    async with connected_bot() as (server, _client):
        world = server.default
        assert world is not None
        interaction = await server.slash(world.alice, world.text, "ping")
        await interaction.wait_response(TIMEOUT)
        assert interaction.response_type == 4
        reply = interaction.original
        assert reply is not None and not reply.ephemeral
        assert reply.content == "pong"
        assert reply.custom_ids() == ["ping:secret"]
        assert reply.buttons()[0]["label"] == "Secret"
        assert server.channel_messages(world.text) == [reply]
        assert reply in server.visible_messages(world.bob, world.text)
        (callback,) = server.calls_to("POST", f"/interactions/{interaction.id}/*/callback")
        assert callback.json["type"] == 4
        assert callback.query == {"with_response": "1"}


async def test_button_click_answers_ephemerally_to_the_clicker_only() -> None:
    """bob clicks Secret: the answer has flag 64 and only bob can see it."""
    async with connected_bot() as (server, _client):
        world = server.default
        assert world is not None
        ping = await (await server.slash(world.alice, world.text, "ping")).wait_response(TIMEOUT)
        assert ping.original is not None
        click = await server.click(world.bob, ping.original, "ping:secret")
        await click.wait_response(TIMEOUT)
        secret = click.original
        assert secret is not None
        assert secret.flags & 64 and secret.viewer is world.bob
        assert secret.content == "only bob sees this"
        assert server.channel_messages(world.text) == [ping.original]
        assert server.ephemeral_messages(world.bob) == [secret]
        assert server.ephemeral_messages(world.alice) == []
        assert secret in server.visible_messages(world.bob, world.text)
        assert secret not in server.visible_messages(world.alice, world.text)
        with pytest.raises(ValueError, match="no button/select 'nope'"):
            await server.click(world.bob, ping.original, "nope")


async def test_second_callback_is_refused_with_40060() -> None:
    """Discord accepts one callback per interaction; unknown ones get 10062."""
    async with connected_bot() as (server, _client):
        world = server.default
        assert world is not None
        ping = await (await server.slash(world.alice, world.text, "ping")).wait_response(TIMEOUT)
        adapter = async_context.get()
        async with aiohttp.ClientSession() as session:
            with pytest.raises(discord.HTTPException) as again:
                await adapter.create_interaction_response(
                    ping.id, ping.token, session=session, params=interaction_response_params(6)
                )
            with pytest.raises(discord.NotFound) as unknown:
                await adapter.create_interaction_response(
                    1, "no-such-token", session=session, params=interaction_response_params(6)
                )
        assert (again.value.status, again.value.code) == (400, 40060)
        assert again.value.text == "Interaction has already been acknowledged."
        assert unknown.value.code == 10062
        assert ping.response_type == 4 and ping.refused_callbacks == [{"type": 6}]


async def test_overlong_content_raises_http_exception_50035() -> None:
    """2001 characters are refused like Discord does; 2000 are fine."""
    async with connected_bot() as (server, client):
        world = server.default
        assert world is not None
        channel = client.get_channel(world.text.id)
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(discord.HTTPException) as refused:
            await channel.send("x" * 2001)
        assert (refused.value.status, refused.value.code) == (400, 50035)
        assert "In content: Must be 2000 or fewer in length." in refused.value.text
        assert server.channel_messages(world.text) == []
        sent = await channel.send("x" * 2000)
        assert [m.id for m in server.channel_messages(world.text)] == [sent.id]


async def test_subcommand_with_choice_defer_and_followup_stay_ephemeral() -> None:
    """/rummy new variant:basic: nested options; the deferral's follow-up stays private."""
    async with connected_bot() as (server, client):
        world = server.default
        assert world is not None
        interaction = await server.slash(
            world.bob, world.thread, "rummy", {"variant": "basic"}, subcommand="new"
        )
        assert interaction.payload["data"]["options"] == [
            {
                "type": 1,
                "name": "new",
                "options": [{"type": 3, "name": "variant", "value": "basic"}],
            }
        ]
        assert interaction.payload["locale"] == "de"
        await interaction.wait_response(TIMEOUT)
        assert interaction.response_type == 5
        original = interaction.original
        assert original is not None
        await server.wait_until(lambda: not original.loading, TIMEOUT)
        assert original.content == "new basic game" and original.ephemeral
        assert original.viewer is world.bob
        assert interaction.followups == []
        assert client.variants == ["basic"]
        assert server.channel_messages(world.thread) == []
        with pytest.raises(ValueError, match="must be one of 'basic'"):
            await server.slash(world.bob, world.thread, "rummy", {"variant": "x"}, subcommand="new")
        with pytest.raises(ValueError, match="cannot be invoked by itself"):
            await server.slash(world.bob, world.thread, "rummy")


async def test_autocomplete_returns_choices() -> None:
    """Typing "m" into /echo word offers the words starting with m."""
    async with connected_bot() as (server, _client):
        world = server.default
        assert world is not None
        typed = await server.autocomplete(world.carol, world.text, "echo", {"word": "m"}, "word")
        await typed.wait_response(TIMEOUT)
        assert typed.response_type == 8
        assert typed.choices == [{"name": "meld", "value": "meld"}]


async def test_dm_slash_has_user_not_member() -> None:
    """A slash command in the bot's DM carries ``user`` (no member, no guild)."""
    async with connected_bot() as (server, _client):
        world = server.default
        assert world is not None
        dm = server.world.dm_channel(world.dave)
        interaction = await server.slash(world.dave, dm, "echo", {"word": "hallo"})
        await interaction.wait_response(TIMEOUT)
        assert "member" not in interaction.payload and "guild_id" not in interaction.payload
        assert interaction.payload["user"]["id"] == str(world.dave.id)
        assert interaction.original is not None and interaction.original.content == "hallo"
        assert interaction.original.channel_id == dm.id


LIMIT_CASES: list[tuple[str, dict[str, Any], int, str]] = [
    ("content", {"content": "x" * 2001}, 50035, "content"),
    ("empty", {"content": ""}, 50006, ""),
    (
        "custom_id",
        {
            "components": [
                {
                    "type": 1,
                    "components": [{"type": 2, "style": 1, "label": "a", "custom_id": "c" * 101}],
                }
            ]
        },
        50035,
        "components.0.components.0.custom_id",
    ),
    (
        "six rows",
        {
            "components": [
                {
                    "type": 1,
                    "components": [{"type": 2, "style": 1, "label": "a", "custom_id": f"b{i}"}],
                }
                for i in range(6)
            ]
        },
        50035,
        "components",
    ),
    (
        "six buttons",
        {
            "components": [
                {
                    "type": 1,
                    "components": [
                        {"type": 2, "style": 1, "label": "a", "custom_id": f"b{i}"}
                        for i in range(6)
                    ],
                }
            ]
        },
        50035,
        "components.0.components",
    ),
    (
        "26 options",
        {
            "components": [
                {
                    "type": 1,
                    "components": [
                        {
                            "type": 3,
                            "custom_id": "s",
                            "options": [{"label": f"o{i}", "value": f"o{i}"} for i in range(26)],
                        }
                    ],
                }
            ]
        },
        50035,
        "components.0.components.0.options",
    ),
    (
        "option label",
        {
            "components": [
                {
                    "type": 1,
                    "components": [
                        {
                            "type": 3,
                            "custom_id": "s",
                            "options": [{"label": "l" * 101, "value": "v"}],
                        }
                    ],
                }
            ]
        },
        50035,
        "components.0.components.0.options.0.label",
    ),
    (
        "duplicate custom_id",
        {
            "components": [
                {
                    "type": 1,
                    "components": [{"type": 2, "style": 1, "label": "a", "custom_id": "same"}],
                },
                {
                    "type": 1,
                    "components": [{"type": 2, "style": 1, "label": "b", "custom_id": "same"}],
                },
            ]
        },
        50035,
        "components.1.components.0.custom_id",
    ),
]


@pytest.mark.parametrize(
    ("payload", "code", "error_path"),
    [case[1:] for case in LIMIT_CASES],
    ids=[case[0] for case in LIMIT_CASES],
)
async def test_message_limits_are_enforced(
    payload: dict[str, Any], code: int, error_path: str
) -> None:
    """Raw POST /channels/{id}/messages: each limit gives Discord's 400 error body."""
    async with running_fake_discord() as server:
        world = server.default
        assert world is not None
        url = f"{server.api_base}/channels/{world.text.id}/messages"
        headers = {"Authorization": f"Bot {server.token}"}
        async with (
            aiohttp.ClientSession() as session,
            session.post(url, json=payload, headers=headers) as response,
        ):
            body = await response.json()
            status = response.status
        assert status == 400 and body["code"] == code
        errors = body.get("errors", {})
        for key in error_path.split(".") if error_path else []:
            errors = errors[key]
        assert not error_path or errors["_errors"]
        assert server.channel_messages(world.text) == []
        assert server.calls[-1].status == 400 and server.calls[-1].json == payload


async def test_message_edits_keep_history_and_clicks_use_current_components() -> None:
    """Editing a message swaps its buttons; only the new custom_ids can be clicked."""
    async with connected_bot() as (server, client):
        world = server.default
        assert world is not None
        channel = client.get_channel(world.text.id)
        assert isinstance(channel, discord.TextChannel)
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="Old", custom_id="old"))
        sent = await channel.send("v1", view=view)
        fresh = discord.ui.View()
        fresh.add_item(discord.ui.Button(label="New", custom_id="new"))
        await sent.edit(content="v2", view=fresh)
        stored = server.messages.get(sent.id)
        assert isinstance(stored, FakeMessage)
        assert stored.content == "v2" and [h["content"] for h in stored.history] == ["v1"]
        assert stored.custom_ids() == ["new"]
        with pytest.raises(ValueError, match="current custom_ids: \\['new'\\]"):
            await server.click(world.alice, stored, "old")


async def test_select_updates_the_ephemeral_message_in_place() -> None:
    """/pick (ephemeral select): only alice can pick; type 7 edits that message."""
    async with connected_bot() as (server, _client):
        world = server.default
        assert world is not None
        opened = await (await server.slash(world.alice, world.text, "pick")).wait_response(TIMEOUT)
        menu = opened.original
        assert menu is not None and menu.ephemeral and menu.custom_ids() == ["pick:variant"]
        with pytest.raises(ValueError, match="cannot see"):
            await server.select(world.bob, menu, "pick:variant", ["500"])
        with pytest.raises(ValueError, match="offers"):
            await server.select(world.alice, menu, "pick:variant", ["german"])
        picked = await server.select(world.alice, menu, "pick:variant", ["500"])
        assert picked.payload["data"] == {
            "custom_id": "pick:variant",
            "component_type": 3,
            "values": ["500"],
        }
        assert picked.payload["message"]["flags"] == 64
        await picked.wait_response(TIMEOUT)
        assert picked.response_type == 7 and picked.original is menu
        assert menu.content == "picked 500" and menu.components == []
        assert [h["content"] for h in menu.history] == ["pick one"]


async def test_modal_opens_and_submits() -> None:
    """/name opens a modal (type 9); submitting it reaches the modal's on_submit."""
    async with connected_bot() as (server, _client):
        world = server.default
        assert world is not None
        opened = await (await server.slash(world.carol, world.text, "name")).wait_response(TIMEOUT)
        assert opened.modal is not None and opened.modal["title"] == "Your name"
        with pytest.raises(ValueError, match=r"takes 0\.\.20 characters"):
            await server.submit_modal(world.carol, opened, {"name:text": "c" * 21})
        submitted = await server.submit_modal(world.carol, opened, {"name:text": "Carol"})
        await submitted.wait_response(TIMEOUT)
        assert submitted.original is not None
        assert submitted.original.content == "hello Carol" and submitted.original.ephemeral


async def test_reconnect_request_resumes_the_session() -> None:
    """RECONNECT and dropped sockets are RESUMEd; an invalidated session re-IDENTIFYs."""
    async with connected_bot() as (server, _client):
        world = server.default
        assert world is not None
        server.gateway.request_reconnect()
        await server.wait_until(
            lambda: server.gateway.resume_count == 1 and server.gateway.active_sessions, TIMEOUT
        )
        assert server.gateway.identify_count == 1
        assert len(server.gateway_connects) == 2
        gateway = server.gateway
        await gateway.drop_connections(4000)
        await server.wait_until(lambda: gateway.resume_count == 2 and gateway.active_sessions)
        gateway.invalidate_sessions()
        await server.wait_until(lambda: gateway.identify_count == 2 and gateway.active_sessions)
        ping = await (await server.slash(world.alice, world.text, "ping")).wait_response(TIMEOUT)
        assert ping.original is not None and ping.original.content == "pong"


async def test_callback_after_the_deadline_is_unknown_interaction() -> None:
    """Discord forgets an interaction not answered in time (here 0.1 s instead of 3 s)."""
    async with connected_bot(callback_deadline=0.1) as (server, client):
        world = server.default
        assert world is not None
        late = await server.slash(world.alice, world.text, "slow")
        await server.wait_until(lambda: late.refused_callbacks, TIMEOUT)
        await server.wait_until(lambda: client.command_errors, TIMEOUT)
        (error,) = client.command_errors
        assert isinstance(error.__cause__, discord.NotFound) and error.__cause__.code == 10062
        assert not late.acknowledged and server.channel_messages(world.text) == []


async def test_missing_send_permission_is_forbidden() -> None:
    """A channel that denies the bot SEND_MESSAGES answers 403 / 50013."""
    async with connected_bot() as (server, client):
        world = server.default
        assert world is not None
        locked = server.world.add_text_channel(
            world.guild, "locked", overwrites=[Overwrite(server.bot.id, 1, deny=SEND_MESSAGES)]
        )
        await server.wait_until(lambda: client.get_channel(locked.id), TIMEOUT)
        channel = client.get_channel(locked.id)
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(discord.Forbidden) as refused:
            await channel.send("hello")
        assert refused.value.code == 50013


async def test_invalid_commands_are_refused_on_sync() -> None:
    """Bulk overwrite checks names and localizations like Discord (400 / 50035)."""
    async with connected_bot() as (server, client):
        bad: list[dict[str, Any]] = [
            {"name": "Ping", "description": "x", "type": 1},
            {
                "name": "ok",
                "description": "fine",
                "description_localizations": {"de": "d" * 101, "xx": "?"},
            },
        ]
        assert client.application_id is not None
        with pytest.raises(discord.HTTPException) as refused:
            await client.http.bulk_upsert_global_commands(client.application_id, bad)
        assert refused.value.code == 50035
        assert "In 0.name: Command name is invalid" in refused.value.text
        assert "In 1.description_localizations.de: Must be between 1 and 100" in (
            refused.value.text
        )
        assert "1.description_localizations.xx" in refused.value.text
        assert {c["name"] for c in server.commands_in()} >= {"ping"}


async def test_wrong_token_and_privileged_intents_are_refused() -> None:
    """A wrong token fails login (401); undeclared privileged intents close with 4014."""
    async with running_fake_discord() as server:
        with point_discord_py_at(server):
            client = PingClient()
            with pytest.raises(discord.LoginFailure):
                await asyncio.wait_for(client.start("wrong-token"), TIMEOUT)
            await client.close()
            greedy = PingClient(intents=discord.Intents.all())
            with pytest.raises(discord.PrivilegedIntentsRequired):
                await asyncio.wait_for(greedy.start(server.token), TIMEOUT)
            await greedy.close()


async def test_files_become_attachments() -> None:
    """Multipart uploads (channel message and follow-up) are stored as attachments."""
    async with connected_bot() as (server, client):
        world = server.default
        assert world is not None
        channel = client.get_channel(world.text.id)
        assert isinstance(channel, discord.TextChannel)
        sent = await channel.send("hand", file=discord.File(io.BytesIO(b"7h 8h 9h"), "hand.txt"))
        assert [a.filename for a in sent.attachments] == ["hand.txt"]
        assert sent.attachments[0].size == 8
        stored = server.messages.get(sent.id)
        assert stored is not None and stored.attachments[0]["filename"] == "hand.txt"
        assert server.calls_to("POST", f"/channels/{world.text.id}/messages")[-1].files == [
            "hand.txt"
        ]


async def test_auto_sharded_client_uses_gateway_bot() -> None:
    """AutoShardedClient asks GET /gateway/bot and identifies with shard [0, 1]."""
    async with running_fake_discord() as server:
        with point_discord_py_at(server):
            client = discord.AutoShardedClient(
                intents=discord.Intents.default(), guild_ready_timeout=0.05
            )
            task = await _start(client, server)
            try:
                assert server.calls_to("GET", "/gateway/bot")
                (session,) = server.gateway.sessions.values()
                assert session.shard == [0, 1]
                assert client.shard_count == 1
            finally:
                await asyncio.wait_for(client.close(), TIMEOUT)
                await asyncio.wait_for(task, TIMEOUT)


async def test_guild_events_go_to_the_session_of_the_guilds_shard() -> None:
    """Two clients on shards 0 and 1 of 2: only the one whose shard is
    ``(guild_id >> 22) % 2`` hears of the guild (READY, GUILD_CREATE) and of its events."""
    async with running_fake_discord() as server:
        assert server.default is not None
        guild, text = server.default.guild, server.default.text
        mine = (guild.id >> 22) % 2
        with point_discord_py_at(server):
            clients = [
                discord.AutoShardedClient(
                    intents=discord.Intents.default(),
                    guild_ready_timeout=0.05,
                    shard_count=2,
                    shard_ids=[n],
                )
                for n in (0, 1)
            ]
            tasks = [await _start(client, server) for client in clients]
            try:
                assert clients[mine].get_guild(guild.id) is not None
                assert clients[1 - mine].get_guild(guild.id) is None
                server.create_message(text, server.default.alice, {"content": "hello"})
                await server.gateway.flush()
                by_shard = {
                    tuple(s.shard or ()): [d["t"] for d in s.log]
                    for s in server.gateway.sessions.values()
                }
                assert "MESSAGE_CREATE" in by_shard[(mine, 2)]
                assert "GUILD_CREATE" in by_shard[(mine, 2)]
                assert by_shard[(1 - mine, 2)] == ["READY"]
            finally:
                for client, task in zip(clients, tasks, strict=True):
                    await asyncio.wait_for(client.close(), TIMEOUT)
                    await asyncio.wait_for(task, TIMEOUT)


def test_point_discord_py_at_restores_the_real_addresses() -> None:
    """Leaving the context puts discord.com and gateway.discord.gg back."""
    server = FakeDiscord()
    server.port = 4321
    before = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    with point_discord_py_at(server):
        assert discord.http.Route.BASE == "http://127.0.0.1:4321/api/v10"
        assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == (
            "ws://127.0.0.1:4321/gateway"
        )
        assert discord.http.Route("GET", "/users/@me").url.startswith("http://127.0.0.1:4321/")
    after = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    assert after == before


async def test_original_response_and_followups_via_webhook() -> None:
    """discord.py's original_response/edit/delete and follow-ups reach the right messages."""
    async with connected_bot() as (server, client):
        world = server.default
        assert world is not None
        ping = await (await server.slash(world.bob, world.text, "ping")).wait_response(TIMEOUT)
        assert ping.original is not None
        await server.wait_until(lambda: client.interactions, TIMEOUT)
        (interaction,) = client.interactions
        original = await interaction.original_response()
        assert original.id == ping.original.id and original.content == "pong"
        await interaction.edit_original_response(content="pong!")
        assert ping.original.content == "pong!"
        assert [h["content"] for h in ping.original.history] == ["pong"]
        followup = await interaction.followup.send("psst", ephemeral=True, wait=True)
        assert followup.flags.ephemeral
        assert [m.content for m in ping.followups] == ["psst"]
        assert server.ephemeral_messages(world.bob) == ping.followups
        await interaction.delete_original_response()
        assert ping.original.deleted and server.channel_messages(world.text) == []
        with pytest.raises(discord.NotFound) as gone:
            await interaction.edit_original_response(content="again")
        assert gone.value.code == 10008
