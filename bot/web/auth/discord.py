"""Discord Activity sign-in (:class:`DiscordAuth`), as Discord's Embedded App SDK
documents it: the page asks the Discord client for an OAuth2 ``code``
(``commands.authorize``), the server exchanges it for an access token with the
application's ``DISCORD_CLIENT_ID`` and ``DISCORD_CLIENT_SECRET`` (``POST
/oauth2/token``), the page hands that token back to the client (``commands.authenticate``)
and to the server, which reads the person (``GET /users/@me``) and checks with the bot's
token that they are in the activity instance and where it runs (``GET
/applications/{id}/activity-instances/{instance}``: its channel and its users).

``api_base`` is Discord's API, or the fake of ``tests/fakes`` in tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.ports.model import UserRef
from bot.web.auth import AuthRefused

__all__ = ["API_BASE", "ActivityInstance", "DiscordAuth"]

API_BASE = "https://discord.com/api/v10"


@dataclass(frozen=True, slots=True)
class ActivityInstance:
    """A running activity: its ``channel_id`` and the ids of the ``users`` in it."""

    instance_id: str
    channel_id: str
    users: frozenset[str]


class DiscordAuth:
    """The three Discord calls of an Activity sign-in (see the module docstring)."""

    def __init__(self, client_id: str, client_secret: str, bot_token: str | None,
                 api_base: str = API_BASE, timeout: float = 10.0) -> None:
        self.client_id = client_id
        self._secret = client_secret
        self._bot_token = bot_token
        self._base = api_base.rstrip("/")
        self._timeout = aiohttp.ClientTimeout(total=timeout)

    async def _call(self, method: str, path: str, headers: dict[str, str],
                    data: dict[str, str] | None = None) -> Any:
        try:
            async with aiohttp.ClientSession(timeout=self._timeout) as session, \
                    session.request(method, self._base + path, headers=headers,
                                    data=data) as response:
                body = await response.json(content_type=None)
                status = response.status
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            raise AuthRefused("unavailable", str(error)) from None
        if status in (400, 401, 403, 404):
            raise AuthRefused("forged", f"{path}: {status}")
        if status >= 300 or not isinstance(body, dict):
            raise AuthRefused("unavailable", f"{path}: {status}")
        return body

    async def exchange(self, code: str) -> str:
        """The access token for an OAuth2 ``code``; raises :class:`AuthRefused`."""
        if not code or len(code) > 512:
            raise AuthRefused("malformed", "code")
        body = await self._call("POST", "/oauth2/token", {}, {
            "client_id": self.client_id, "client_secret": self._secret,
            "grant_type": "authorization_code", "code": code})
        token = body.get("access_token")
        if not isinstance(token, str) or not token:
            raise AuthRefused("forged", "no access token")
        return token

    async def me(self, access_token: str) -> UserRef:
        """The person an access token belongs to."""
        if not access_token or len(access_token) > 512:
            raise AuthRefused("malformed", "token")
        body = await self._call("GET", "/users/@me",
                                {"Authorization": f"Bearer {access_token}"})
        user_id = str(body.get("id", ""))
        if not user_id.isdigit():
            raise AuthRefused("forged", "no user")
        name = str(body.get("global_name") or body.get("username") or user_id)[:64]
        locale = body.get("locale")
        return UserRef("discord", user_id, name, locale if isinstance(locale, str) else None)

    async def instance(self, instance_id: str) -> ActivityInstance:
        """Where activity instance ``instance_id`` runs and who is in it (the bot's
        token); raises :class:`AuthRefused` (``no_table`` for an unknown instance)."""
        if not instance_id or len(instance_id) > 128 or "/" in instance_id:
            raise AuthRefused("malformed", "instance")
        if self._bot_token is None:
            raise AuthRefused("unavailable", "no bot token")
        try:
            body = await self._call(
                "GET", f"/applications/{self.client_id}/activity-instances/{instance_id}",
                {"Authorization": f"Bot {self._bot_token}"})
        except AuthRefused as refused:
            if refused.code == "forged":
                raise AuthRefused("no_table", "unknown instance") from None
            raise
        location = body.get("location") or {}
        channel = str(location.get("channel_id", ""))
        users = body.get("users") or []
        if not channel.isdigit() or not isinstance(users, list):
            raise AuthRefused("no_table", "instance without a channel")
        return ActivityInstance(instance_id, channel, frozenset(str(u) for u in users))
