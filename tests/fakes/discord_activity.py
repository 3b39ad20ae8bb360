"""A fake of the three Discord API calls of an Activity sign-in, on a loopback port
(:class:`FakeDiscordActivityApi`): ``POST /oauth2/token`` (an OAuth2 code for an access
token, checking the client id and secret), ``GET /users/@me`` (the token's person) and
``GET /applications/{id}/activity-instances/{instance}`` (the bot's token: where the
instance runs and who is in it). Shapes as Discord documents them; anything else is
refused as Discord refuses it (401 or 404)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from aiohttp import web

__all__ = ["FakeDiscordActivityApi"]


@dataclass
class FakeDiscordActivityApi:
    """``client_id`` / ``client_secret`` of the application, the ``bot_token``;
    ``codes``: OAuth2 code -> user id; ``users``: user id -> (name, locale);
    ``instances``: instance id -> (channel id, user ids)."""

    client_id: str
    client_secret: str
    bot_token: str
    codes: dict[str, str] = field(default_factory=dict)
    users: dict[str, tuple[str, str]] = field(default_factory=dict)
    instances: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)
    calls: list[str] = field(default_factory=list)
    port: int = 0
    _runner: web.AppRunner | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/api/v10/oauth2/token", self._token)
        app.router.add_get("/api/v10/users/@me", self._me)
        app.router.add_get(
            "/api/v10/applications/{app}/activity-instances/{instance}", self._instance
        )
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _token(self, request: web.Request) -> web.Response:
        self.calls.append("token")
        form = await request.post()
        if (
            form.get("client_id") != self.client_id
            or form.get("client_secret") != self.client_secret
        ):
            return web.json_response({"error": "invalid_client"}, status=401)
        user = self.codes.pop(str(form.get("code")), None)
        if form.get("grant_type") != "authorization_code" or user is None:
            return web.json_response({"error": "invalid_grant"}, status=400)
        token = secrets.token_urlsafe(16)
        self.tokens[token] = user
        return web.json_response(
            {
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": 604800,
                "scope": "identify",
            }
        )

    async def _me(self, request: web.Request) -> web.Response:
        self.calls.append("me")
        header = request.headers.get("Authorization", "")
        user = self.tokens.get(header.removeprefix("Bearer "))
        if not header.startswith("Bearer ") or user is None:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        name, locale = self.users[user]
        return web.json_response(
            {
                "id": user,
                "username": name,
                "global_name": name,
                "locale": locale,
                "discriminator": "0",
            }
        )

    async def _instance(self, request: web.Request) -> web.Response:
        self.calls.append("instance")
        if (
            request.headers.get("Authorization") != f"Bot {self.bot_token}"
            or request.match_info["app"] != self.client_id
        ):
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        found = self.instances.get(request.match_info["instance"])
        if found is None:
            return web.json_response(
                {"message": "Unknown Activity Instance", "code": 10000}, status=404
            )
        channel, users = found
        return web.json_response(
            {
                "application_id": self.client_id,
                "instance_id": request.match_info["instance"],
                "launch_id": "1",
                "location": {
                    "id": f"gc-{channel}",
                    "kind": "gc",
                    "channel_id": channel,
                    "guild_id": "77",
                },
                "users": users,
            }
        )
