"""The fake's REST API under ``/api/v10``: the endpoints discord.py calls for a bot.

Every request is recorded (``RecordedCall``). Routes other than ``/webhooks`` and
``/interactions`` need ``Authorization: Bot <token>`` (else 401, as on Discord). Bodies
may be JSON or multipart (``payload_json`` plus ``files[n]``, which become attachments).
Errors are Discord's JSON errors (see ``errors.py``); unknown routes get 404 code 0.
"""

from __future__ import annotations

import fnmatch
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web

from . import responses
from .entities import (
    ATTACH_FILES,
    MANAGE_MESSAGES,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    FakeChannel,
    FakeGuild,
    Json,
)
from .errors import (
    CANNOT_EDIT_OTHERS_MESSAGE,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    REQUEST_TOO_LARGE,
    UNKNOWN_CHANNEL,
    UNKNOWN_GUILD,
    UNKNOWN_MESSAGE,
    UNKNOWN_USER,
    DiscordAPIError,
    not_found,
)
from .messages import FakeMessage
from .payloads import ATTACHMENT_SIZE_LIMIT

if TYPE_CHECKING:
    from .server import FakeDiscord

API_PREFIX = "/api/v10"


@dataclass
class Upload:
    """A file part of a multipart request."""

    field: str
    filename: str
    size: int
    content_type: str


@dataclass
class RecordedCall:
    """One REST request and the fake's answer."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    status: int = 0
    response: Any = None
    files: list[str] = field(default_factory=list)

    def matches(self, method: str | None, path: str | None) -> bool:
        """Whether this call has ``method`` and ``path`` (``*`` wildcards; None: any)."""
        if method is not None and self.method != method.upper():
            return False
        return path is None or fnmatch.fnmatchcase(self.path, path)


@dataclass
class ApiRequest:
    """What a route handler gets: path parameters, query and the parsed body."""

    params: dict[str, str]
    query: dict[str, str]
    body: Any
    uploads: list[Upload]


Handler = Callable[[ApiRequest], Awaitable[Any]]


def build_app(server: FakeDiscord) -> web.Application:
    """The aiohttp application serving the REST API of ``server``."""
    api = RestApi(server)
    app = web.Application(client_max_size=64 * 1024 * 1024)
    routes: list[tuple[str, str, Handler, bool]] = [
        ("GET", "/users/@me", api.get_me, True),
        ("POST", "/users/@me/channels", api.create_dm, True),
        ("GET", "/users/{user_id}", api.get_user, True),
        ("GET", "/gateway", api.get_gateway, False),
        ("GET", "/gateway/bot", api.get_gateway_bot, True),
        ("GET", "/oauth2/applications/@me", api.get_application, True),
        ("GET", "/applications/@me", api.get_application, True),
        ("GET", "/applications/{app}/commands", api.list_commands, True),
        ("PUT", "/applications/{app}/commands", api.overwrite_commands, True),
        ("POST", "/applications/{app}/commands", api.upsert_command, True),
        ("GET", "/applications/{app}/commands/{command}", api.get_command, True),
        ("DELETE", "/applications/{app}/commands/{command}", api.delete_command, True),
        ("GET", "/applications/{app}/guilds/{guild}/commands", api.list_commands, True),
        ("PUT", "/applications/{app}/guilds/{guild}/commands", api.overwrite_commands, True),
        ("POST", "/applications/{app}/guilds/{guild}/commands", api.upsert_command, True),
        ("GET", "/applications/{app}/guilds/{guild}/commands/{command}", api.get_command, True),
        (
            "DELETE",
            "/applications/{app}/guilds/{guild}/commands/{command}",
            api.delete_command,
            True,
        ),
        ("POST", "/interactions/{interaction}/{token}/callback", api.callback, False),
        ("POST", "/webhooks/{app}/{token}", api.execute_webhook, False),
        ("GET", "/webhooks/{app}/{token}/messages/{message}", api.get_webhook_message, False),
        ("PATCH", "/webhooks/{app}/{token}/messages/{message}", api.edit_webhook_message, False),
        (
            "DELETE",
            "/webhooks/{app}/{token}/messages/{message}",
            api.delete_webhook_message,
            False,
        ),
        ("GET", "/channels/{channel}", api.get_channel, True),
        ("GET", "/channels/{channel}/messages", api.list_messages, True),
        ("POST", "/channels/{channel}/messages", api.create_message, True),
        ("POST", "/channels/{channel}/typing", api.typing, True),
        ("GET", "/channels/{channel}/messages/{message}", api.get_message, True),
        ("PATCH", "/channels/{channel}/messages/{message}", api.edit_message, True),
        ("DELETE", "/channels/{channel}/messages/{message}", api.delete_message, True),
        ("GET", "/guilds/{guild}", api.get_guild, True),
        ("GET", "/guilds/{guild}/channels", api.get_guild_channels, True),
        ("GET", "/guilds/{guild}/members/{user_id}", api.get_member, True),
    ]
    for method, path, handler, auth in routes:
        app.router.add_route(method, API_PREFIX + path, api.wrap(handler, auth=auth))
    app.router.add_route("*", API_PREFIX + "/{tail:.*}", api.wrap(api.unknown, auth=False))
    return app


async def _read_body(request: web.Request) -> tuple[Any, list[Upload]]:
    if request.content_type.startswith("multipart/"):
        body: Any = None
        uploads: list[Upload] = []
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue
            if part.name == "payload_json":
                body = json.loads(await part.text())
            elif part.filename:
                data = await part.read()
                content_type = part.headers.get("Content-Type", "application/octet-stream")
                uploads.append(Upload(part.name or "", part.filename, len(data), content_type))
        return body, uploads
    raw = await request.text()
    if not raw:
        return None, []
    try:
        return json.loads(raw), []
    except ValueError as exc:
        raise DiscordAPIError(400, 50109, "The request body contains invalid JSON.") from exc


class RestApi:
    """Route handlers; each returns the JSON body, or None for 204 No Content."""

    def __init__(self, server: FakeDiscord) -> None:
        self.server = server
        self.world = server.world

    def wrap(
        self, handler: Handler, *, auth: bool
    ) -> Callable[[web.Request], Awaitable[web.Response]]:
        """An aiohttp handler: parse, authorise, run ``handler``, record, answer."""

        async def run(request: web.Request) -> web.Response:
            path = request.path.removeprefix(API_PREFIX)
            call = RecordedCall(request.method, path, dict(request.query), None)
            try:
                call.json, uploads = await _read_body(request)
                call.files = [u.filename for u in uploads]
                expected = f"Bot {self.server.token}"
                if auth and request.headers.get("Authorization") != expected:
                    raise DiscordAPIError(401, 0, "401: Unauthorized")
                api_request = ApiRequest(
                    dict(request.match_info), dict(request.query), call.json, uploads
                )
                result = await handler(api_request)
            except DiscordAPIError as error:
                call.status, call.response = error.status, error.to_json()
            else:
                call.status, call.response = (204, None) if result is None else (200, result)
            self.server.record(call)
            if call.status == 204:
                return web.Response(status=204)
            # discord.py parses JSON only for exactly "application/json" (no charset).
            body = json.dumps(call.response).encode()
            return web.Response(body=body, status=call.status, content_type="application/json")

        return run

    # -- lookups ---------------------------------------------------------------------

    def _channel(self, channel_id: str) -> FakeChannel:
        channel = self.world.channels.get(_int(channel_id))
        if channel is None:
            raise not_found(UNKNOWN_CHANNEL, "Channel")
        if not self.world.can_view(self.world.bot, channel):
            raise DiscordAPIError(403, MISSING_ACCESS, "Missing Access")
        return channel

    def _guild(self, guild_id: str) -> FakeGuild:
        guild = self.world.guilds.get(_int(guild_id))
        if guild is None:
            raise not_found(UNKNOWN_GUILD, "Guild")
        return guild

    def _channel_message(self, channel: FakeChannel, message_id: str) -> FakeMessage:
        message = self.server.messages.get(_int(message_id))
        if (
            message is None
            or message.deleted
            or message.channel_id != channel.id
            or message.viewer is not None
        ):
            raise not_found(UNKNOWN_MESSAGE, "Message")
        return message

    def _bot_permissions(self, channel: FakeChannel) -> int:
        guild = self.world.guild_of(channel)
        if guild is None:
            return VIEW_CHANNEL | SEND_MESSAGES | READ_MESSAGE_HISTORY | ATTACH_FILES
        return guild.permissions_in(self.world.bot.id, channel)

    def _check_app(self, app: str) -> None:
        if _int(app) != self.world.application_id:
            raise DiscordAPIError(403, MISSING_ACCESS, "Missing Access")

    def _scope(self, request: ApiRequest) -> int | None:
        self._check_app(request.params["app"])
        if "guild" not in request.params:
            return None
        guild = self._guild(request.params["guild"])
        if self.world.bot.id not in guild.members:
            raise DiscordAPIError(403, MISSING_ACCESS, "Missing Access")
        return guild.id

    def _with_attachments(
        self, payload: Json, request: ApiRequest, channel: FakeChannel, existing: list[Json]
    ) -> Json:
        """``payload`` with ``attachments`` resolved to attachment objects."""
        if "attachments" not in payload and not request.uploads:
            return payload
        for upload in request.uploads:
            if upload.size > ATTACHMENT_SIZE_LIMIT:
                raise DiscordAPIError(413, REQUEST_TOO_LARGE, "Request entity too large")
        uploads = {u.field: u for u in request.uploads}
        kept = {str(a["id"]): a for a in existing}
        resolved: list[Json] = []
        entries = payload.get("attachments")
        if entries is None:
            entries = [*existing, *({"id": i} for i in range(len(request.uploads)))]
        for entry in entries:
            if str(entry.get("id")) in kept:
                resolved.append(kept[str(entry["id"])])
                continue
            uploaded = uploads.get(f"files[{entry.get('id')}]")
            if uploaded is None:
                continue
            attachment_id = self.world.ids.next()
            filename = entry.get("filename") or uploaded.filename
            url = f"{self.server.base_url}/attachments/{channel.id}/{attachment_id}/{filename}"
            resolved.append(
                {
                    "id": str(attachment_id),
                    "filename": filename,
                    "size": uploaded.size,
                    "url": url,
                    "proxy_url": url,
                    "content_type": uploaded.content_type,
                    "description": entry.get("description"),
                }
            )
        return {**payload, "attachments": resolved}

    # -- users, gateway, application ---------------------------------------------------

    async def get_me(self, request: ApiRequest) -> Json:
        """GET /users/@me: the bot user."""
        return {**self.world.bot.to_json(), "verified": True, "mfa_enabled": False, "flags": 0}

    async def get_user(self, request: ApiRequest) -> Json:
        """GET /users/{id}."""
        user = self.world.users.get(_int(request.params["user_id"]))
        if user is None:
            raise not_found(UNKNOWN_USER, "User")
        return user.to_json()

    async def create_dm(self, request: ApiRequest) -> Json:
        """POST /users/@me/channels {recipient_id}: the (stable) DM channel."""
        user = self.world.users.get(_int((request.body or {}).get("recipient_id")))
        if user is None or user.bot:
            raise not_found(UNKNOWN_USER, "User")
        return self.world.dm_channel(user).to_json()

    async def get_gateway(self, request: ApiRequest) -> Json:
        """GET /gateway."""
        return {"url": self.server.gateway_url}

    async def get_gateway_bot(self, request: ApiRequest) -> Json:
        """GET /gateway/bot: url, one shard, session start limit."""
        used = self.server.gateway.identify_count
        return {
            "url": self.server.gateway_url,
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": max(0, 1000 - used),
                "reset_after": 14_400_000,
                "max_concurrency": 1,
            },
        }

    async def get_application(self, request: ApiRequest) -> Json:
        """GET /oauth2/applications/@me and /applications/@me."""
        world = self.world
        return {
            "id": str(world.application_id),
            "name": world.bot.username,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": world.application_flags,
            "owner": world.owner.to_json(),
            "team": None,
            "bot": world.bot.to_json(),
            "rpc_origins": [],
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "approximate_guild_count": len(world.guilds),
            "integration_types_config": {"0": {}},
        }

    # -- application commands ----------------------------------------------------------

    async def list_commands(self, request: ApiRequest) -> list[Json]:
        """GET .../commands."""
        return self.server.commands.listing(self._scope(request))

    async def overwrite_commands(self, request: ApiRequest) -> list[Json]:
        """PUT .../commands (bulk overwrite; what ``CommandTree.sync`` sends)."""
        return self.server.commands.overwrite(self._scope(request), request.body)

    async def upsert_command(self, request: ApiRequest) -> Json:
        """POST .../commands (create or replace one)."""
        return self.server.commands.upsert(self._scope(request), request.body or {})

    async def get_command(self, request: ApiRequest) -> Json:
        """GET .../commands/{id}."""
        return self.server.commands.get(self._scope(request), request.params["command"])

    async def delete_command(self, request: ApiRequest) -> None:
        """DELETE .../commands/{id}."""
        self.server.commands.delete(self._scope(request), request.params["command"])

    # -- interactions and their webhooks -----------------------------------------------

    async def callback(self, request: ApiRequest) -> Json | None:
        """POST /interactions/{id}/{token}/callback (``?with_response=1`` returns a body)."""
        body: Json = dict(request.body or {})
        interaction = self.server.interactions.get(_int(request.params["interaction"]))
        if interaction is not None and isinstance(body.get("data"), dict):
            existing = (
                []
                if interaction.source_message is None
                else (interaction.source_message.attachments)
            )
            body["data"] = self._with_attachments(
                body["data"], request, interaction.channel, existing
            )
        result = responses.callback(
            self.server, _int(request.params["interaction"]), request.params["token"], body
        )
        return result if _truthy(request.query.get("with_response")) else None

    async def execute_webhook(self, request: ApiRequest) -> Json | None:
        """POST /webhooks/{app}/{token}: a follow-up message (``?wait=1`` returns it)."""
        app, token = _int(request.params["app"]), request.params["token"]
        interaction = responses.interaction_for_webhook(self.server, app, token)
        body = self._with_attachments(dict(request.body or {}), request, interaction.channel, [])
        message = responses.followup(self.server, app, token, body)
        return message.to_json() if _truthy(request.query.get("wait")) else None

    def _webhook_message(self, request: ApiRequest) -> FakeMessage:
        return responses.webhook_message(
            self.server,
            _int(request.params["app"]),
            request.params["token"],
            request.params["message"],
        )

    async def get_webhook_message(self, request: ApiRequest) -> Json:
        """GET /webhooks/{app}/{token}/messages/{@original|id}."""
        return self._webhook_message(request).to_json()

    async def edit_webhook_message(self, request: ApiRequest) -> Json:
        """PATCH /webhooks/{app}/{token}/messages/{@original|id}."""
        message = self._webhook_message(request)
        channel = self.world.channels[message.channel_id]
        body = self._with_attachments(
            dict(request.body or {}), request, channel, message.attachments
        )
        self.server.edit_message(message, body)
        return message.to_json()

    async def delete_webhook_message(self, request: ApiRequest) -> None:
        """DELETE /webhooks/{app}/{token}/messages/{@original|id}."""
        self.server.delete_message(self._webhook_message(request))

    # -- channels and messages ---------------------------------------------------------

    async def get_channel(self, request: ApiRequest) -> Json:
        """GET /channels/{id}."""
        return self._channel(request.params["channel"]).to_json()

    async def list_messages(self, request: ApiRequest) -> list[Json]:
        """GET /channels/{id}/messages (newest first; limit, before, after)."""
        channel = self._channel(request.params["channel"])
        if not self._bot_permissions(channel) & READ_MESSAGE_HISTORY:
            return []
        limit = min(100, max(1, int(request.query.get("limit", "50"))))
        messages = self.server.messages.in_channel(channel.id)
        if "before" in request.query:
            messages = [m for m in messages if m.id < int(request.query["before"])]
        if "after" in request.query:
            after = [m for m in messages if m.id > int(request.query["after"])]
            return [m.to_json() for m in reversed(after[:limit])]
        return [m.to_json() for m in reversed(messages[-limit:])]

    async def create_message(self, request: ApiRequest) -> Json:
        """POST /channels/{id}/messages: needs VIEW_CHANNEL and SEND_MESSAGES(_IN_THREADS)."""
        channel = self._channel(request.params["channel"])
        needed = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
        if request.uploads:
            needed |= ATTACH_FILES
        if self._bot_permissions(channel) & needed != needed:
            raise DiscordAPIError(403, MISSING_PERMISSIONS, "Missing Permissions")
        body = self._with_attachments(dict(request.body or {}), request, channel, [])
        body["flags"] = (body.get("flags") or 0) & ~64
        message = self.server.create_message(channel, self.world.bot, body)
        return message.to_json()

    async def typing(self, request: ApiRequest) -> None:
        """POST /channels/{id}/typing."""
        self._channel(request.params["channel"])

    async def get_message(self, request: ApiRequest) -> Json:
        """GET /channels/{id}/messages/{id} (ephemeral messages are never found)."""
        channel = self._channel(request.params["channel"])
        if not self._bot_permissions(channel) & READ_MESSAGE_HISTORY:
            raise DiscordAPIError(403, MISSING_ACCESS, "Missing Access")
        return self._channel_message(channel, request.params["message"]).to_json()

    async def edit_message(self, request: ApiRequest) -> Json:
        """PATCH /channels/{id}/messages/{id}: only the bot's own messages."""
        channel = self._channel(request.params["channel"])
        message = self._channel_message(channel, request.params["message"])
        if message.author is not self.world.bot:
            raise DiscordAPIError(
                403, CANNOT_EDIT_OTHERS_MESSAGE, "Cannot edit a message authored by another user"
            )
        body = self._with_attachments(
            dict(request.body or {}), request, channel, message.attachments
        )
        self.server.edit_message(message, body)
        return message.to_json()

    async def delete_message(self, request: ApiRequest) -> None:
        """DELETE /channels/{id}/messages/{id}: own messages, others with MANAGE_MESSAGES."""
        channel = self._channel(request.params["channel"])
        message = self._channel_message(channel, request.params["message"])
        if message.author is not self.world.bot and not (
            self._bot_permissions(channel) & MANAGE_MESSAGES
        ):
            raise DiscordAPIError(403, MISSING_PERMISSIONS, "Missing Permissions")
        self.server.delete_message(message)

    # -- guilds ------------------------------------------------------------------------

    async def get_guild(self, request: ApiRequest) -> Json:
        """GET /guilds/{id}."""
        data = self._guild(request.params["guild"]).to_json(members=[])
        for key in ("members", "channels", "threads", "voice_states", "presences"):
            data.pop(key, None)
        return data

    async def get_guild_channels(self, request: ApiRequest) -> list[Json]:
        """GET /guilds/{id}/channels (threads excluded, as on Discord)."""
        guild = self._guild(request.params["guild"])
        return [c.to_json() for c in guild.channels.values() if not c.is_thread]

    async def get_member(self, request: ApiRequest) -> Json:
        """GET /guilds/{id}/members/{user_id}."""
        guild = self._guild(request.params["guild"])
        member = guild.members.get(_int(request.params["user_id"]))
        if member is None:
            raise not_found(10007, "Member")
        return member.to_json()

    async def unknown(self, request: ApiRequest) -> None:
        """Any other route: 404 as Discord answers unknown endpoints."""
        raise DiscordAPIError(404, 0, "404: Not Found")


def _int(value: object) -> int:
    try:
        return int(str(value))
    except ValueError:
        raise DiscordAPIError(
            400,
            50035,
            "Invalid Form Body",
            {
                "id": {
                    "_errors": [
                        {
                            "code": "NUMBER_TYPE_COERCE",
                            "message": f'Value "{value}" is not snowflake.',
                        }
                    ]
                }
            },
        ) from None


def _truthy(value: str | None) -> bool:
    return (value or "").lower() in ("1", "true")
