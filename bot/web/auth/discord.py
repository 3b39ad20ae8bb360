"""Discord Activity sign-in (:class:`DiscordAuth`), as Discord's Embedded App SDK
documents it: the page asks the Discord client for an OAuth2 ``code``
(``commands.authorize``), the server exchanges it for an access token with the
application's ``DISCORD_CLIENT_ID`` and ``DISCORD_CLIENT_SECRET`` (``POST
/oauth2/token``), the page hands that token back to the client (``commands.authenticate``)
and to the server, which reads the person (``GET /users/@me``) and checks with the bot's
token that they are in the activity instance and where it runs (``GET
/applications/{id}/activity-instances/{instance}``: its channel and its users).

``api_base`` is Discord's API, or the fake of ``tests/fakes`` in tests.

A garbage code or token must not cost a call to Discord each (anyone can send them):

- a code or access token Discord refused is remembered for :data:`FAILED_SECONDS` and
  refused again without asking (by its SHA-256; at most :data:`FAILED_KEPT` of them);
- the calls go through one client session of at most :data:`MAX_OUTBOUND` connections;
- a ``429`` from Discord is honoured: the route (or, for a global limit, every route)
  is not asked again until its ``retry_after`` has passed; a sign-in that meets a wait
  of at most :data:`WAIT_AT_MOST` seconds waits it out, a longer one is refused
  (``unavailable``) with the seconds left, so one limited route does not fail the others;
- the per-address and total limits of sign-ins are the routes' (:class:`SignInLimiter`).
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
from cachetools import LRUCache

from bot.ports.clean import clean_text
from bot.ports.model import UserRef
from bot.web.auth import AuthRefused

__all__ = ["API_BASE", "FAILED_SECONDS", "ActivityInstance", "DiscordAuth", "SignInLimiter"]

API_BASE = "https://discord.com/api/v10"

FAILED_SECONDS = 300.0
"""Seconds a code or access token Discord refused is refused again without asking."""

FAILED_KEPT = 10_000
"""Refused codes and tokens remembered at most (the oldest are forgotten first)."""

MAX_OUTBOUND = 16
"""Connections to Discord open at once for sign-ins."""

WAIT_AT_MOST = 2.0
"""Seconds of Discord's ``retry_after`` a sign-in waits out; a longer wait is refused."""


class SignInLimiter:
    """Sign-in calls in a sliding minute: at most ``per_address`` from one address and
    ``total`` in all (:meth:`admit`); at most ``addresses`` addresses are tracked (the
    oldest forgotten). ``clock``: monotonic seconds."""

    def __init__(
        self,
        per_address: int,
        total: int,
        window: float = 60.0,
        addresses: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_address = per_address
        self.total = total
        self.window = window
        self.clock = clock
        self._all: deque[float] = deque()
        self._by_address: LRUCache[str, deque[float]] = LRUCache(addresses)
        self.refused = 0

    def admit(self, address: str) -> None:
        """Count one sign-in call from ``address``; raises :class:`AuthRefused`
        (``too_fast``) when a limit is reached (the call is then not counted)."""
        now = self.clock()
        since = now - self.window
        while self._all and self._all[0] <= since:
            self._all.popleft()
        mine = self._by_address.get(address)  # a read counts as a use: the oldest goes
        if mine is None:
            mine = self._by_address[address] = deque()
        while mine and mine[0] <= since:
            mine.popleft()
        if len(mine) >= self.per_address or len(self._all) >= self.total:
            self.refused += 1
            raise AuthRefused("too_fast", address)
        mine.append(now)
        self._all.append(now)


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


@dataclass(frozen=True, slots=True)
class ActivityInstance:
    """A running activity: its ``channel_id`` and the ids of the ``users`` in it."""

    instance_id: str
    channel_id: str
    users: frozenset[str]


class DiscordAuth:
    """The three Discord calls of an Activity sign-in (see the module docstring)."""

    def __init__(
        self,
        client_id: str,
        client_secret: str,
        bot_token: str | None,
        api_base: str = API_BASE,
        timeout: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client_id = client_id
        self._secret = client_secret
        self._bot_token = bot_token
        self._base = api_base.rstrip("/")
        self._timeout = aiohttp.ClientTimeout(total=timeout)
        self._session: aiohttp.ClientSession | None = None
        self.clock = clock
        self._failed: LRUCache[str, float] = LRUCache(FAILED_KEPT)
        self._blocked: dict[str, float] = {}  # route (or "*": all) -> until (clock)
        self.calls = 0
        """Calls made to Discord so far."""

    async def close(self) -> None:
        """Close the client session (the front end stops)."""
        if self._session is not None:
            await self._session.close()
            self._session = None

    def _refused_before(self, secret: str) -> bool:
        key = _digest(secret)
        until = self._failed.get(key)
        if until is None:
            return False
        if until < self.clock():
            del self._failed[key]
            return False
        return True

    def _remember_failed(self, secret: str) -> None:
        self._failed[_digest(secret)] = self.clock() + FAILED_SECONDS

    async def _wait_for(self, route: str) -> None:
        """Wait out a short ``retry_after`` of ``route``; refuse a long one."""
        until = max(self._blocked.get(route, 0.0), self._blocked.get("*", 0.0))
        left = until - self.clock()
        if left <= 0:
            return
        if left > WAIT_AT_MOST:
            raise AuthRefused("unavailable", f"Discord asked to wait {left:.0f} s")
        await asyncio.sleep(left)

    async def _call(
        self,
        method: str,
        path: str,
        headers: dict[str, str],
        data: dict[str, str] | None = None,
        route: str = "",
    ) -> Any:
        route = route or path
        for _attempt in range(2):
            await self._wait_for(route)
            status, body, retry_header = await self._request(method, path, headers, data)
            if status != 429:
                break
            self._limited(route, body, retry_header)
        else:
            raise AuthRefused("unavailable", f"{path}: 429")
        if status in (400, 401, 403, 404):
            raise AuthRefused("forged", f"{path}: {status}")
        if status >= 300 or not isinstance(body, dict):
            raise AuthRefused("unavailable", f"{path}: {status}")
        return body

    async def _request(
        self, method: str, path: str, headers: dict[str, str], data: dict[str, str] | None
    ) -> tuple[int, Any, str | None]:
        """One request to Discord (a new session when there is none open): its status, its
        JSON body and its ``Retry-After`` header; raises :class:`AuthRefused`
        ``unavailable`` when Discord cannot be reached or the body is not JSON."""
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                timeout=self._timeout, connector=aiohttp.TCPConnector(limit=MAX_OUTBOUND)
            )
        self.calls += 1
        try:
            async with self._session.request(
                method, self._base + path, headers=headers, data=data
            ) as response:
                body = await response.json(content_type=None)
                return response.status, body, response.headers.get("Retry-After")
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            raise AuthRefused("unavailable", str(error)) from None

    def _check_secret(self, secret: str, field: str, refused: str) -> None:
        """Raise :class:`AuthRefused`: ``malformed`` (naming ``field``) for an empty, long or
        non-ASCII ``secret``, ``forged`` (saying ``refused``) for one Discord refused
        lately."""
        if not secret or len(secret) > 512 or not secret.isascii():
            raise AuthRefused("malformed", field)
        if self._refused_before(secret):
            raise AuthRefused("forged", refused)

    async def _call_with(
        self,
        secret: str,
        method: str,
        path: str,
        headers: dict[str, str],
        data: dict[str, str] | None = None,
    ) -> Any:
        """:meth:`_call` with a person's ``secret`` (a code, a token): remembered as
        refused when Discord refuses it (``forged``)."""
        try:
            return await self._call(method, path, headers, data)
        except AuthRefused as refused:
            if refused.code == "forged":
                self._remember_failed(secret)
            raise

    def _limited(self, route: str, body: Any, header: str | None) -> None:
        """Discord's 429: no call on ``route`` (every route for a global limit) until
        ``retry_after`` seconds have passed (the body's, else the header's, else 5)."""
        seconds = 5.0
        for value in ((body or {}).get("retry_after") if isinstance(body, dict) else None, header):
            try:
                if value is not None:
                    seconds = min(max(float(value), 0.0), 3600.0)
                    break
            except (TypeError, ValueError):
                continue
        scope = "*" if isinstance(body, dict) and body.get("global") else route
        self._blocked[scope] = self.clock() + seconds

    async def exchange(self, code: str) -> str:
        """The access token for an OAuth2 ``code``; raises :class:`AuthRefused`."""
        self._check_secret(code, "code", "a code refused before")
        body = await self._call_with(
            code,
            "POST",
            "/oauth2/token",
            {},
            {
                "client_id": self.client_id,
                "client_secret": self._secret,
                "grant_type": "authorization_code",
                "code": code,
            },
        )
        token = body.get("access_token")
        if not isinstance(token, str) or not token:
            raise AuthRefused("forged", "no access token")
        return token

    async def me(self, access_token: str) -> UserRef:
        """The person an access token belongs to."""
        self._check_secret(access_token, "token", "a token refused before")
        body = await self._call_with(
            access_token, "GET", "/users/@me", {"Authorization": f"Bearer {access_token}"}
        )
        user_id = str(body.get("id", ""))
        if not (user_id.isascii() and user_id.isdigit()):
            raise AuthRefused("forged", "no user")
        name = clean_text(str(body.get("global_name") or body.get("username") or user_id)[:64])
        locale = body.get("locale")
        return UserRef("discord", user_id, name, locale if isinstance(locale, str) else None)

    async def instance(self, instance_id: str) -> ActivityInstance:
        """Where activity instance ``instance_id`` runs and who is in it (the bot's
        token); raises :class:`AuthRefused` (``no_table`` for an unknown instance)."""
        if not _is_instance_id(instance_id):
            raise AuthRefused("malformed", "instance")
        if self._bot_token is None:
            raise AuthRefused("unavailable", "no bot token")
        try:
            body = await self._call(
                "GET",
                f"/applications/{self.client_id}/activity-instances/{instance_id}",
                {"Authorization": f"Bot {self._bot_token}"},
                route="instance",
            )
        except AuthRefused as refused:
            if refused.code == "forged":
                raise AuthRefused("no_table", "unknown instance") from None
            raise
        return _activity_instance(instance_id, body)


def _is_instance_id(instance_id: str) -> bool:
    """Whether ``instance_id`` may name an activity instance in a URL path: 1 to 128
    ASCII characters, no slash."""
    return (
        bool(instance_id)
        and len(instance_id) <= 128
        and "/" not in instance_id
        and instance_id.isascii()
    )


def _activity_instance(instance_id: str, body: dict[str, Any]) -> ActivityInstance:
    """The instance Discord described in ``body``; raises :class:`AuthRefused`
    ``no_table`` when it names no channel or its users are not a list."""
    location = body.get("location") or {}
    channel = str(location.get("channel_id", ""))
    users = body.get("users") or []
    if not (channel.isascii() and channel.isdigit()) or not isinstance(users, list):
        raise AuthRefused("no_table", "instance without a channel")
    return ActivityInstance(instance_id, channel, frozenset(str(u) for u in users))
