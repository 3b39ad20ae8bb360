"""The web table's routes under :data:`bot.web.config.PREFIX` (``/web``), mounted on the
process's one HTTP server (:class:`bot.http.HttpServer`).

Each page lives in a folder of its platform, ``/web/tg/`` (Telegram) or ``/web/dc/``
(Discord), and names everything relative to it; so ``/web/<p>/X`` and ``/web/X`` are the
same route:

==============================  ===========================================================
``GET  /web/tg/``, ``/web/dc/``  the page (:mod:`.html`)
``GET  static/<file>``           the page's files (bot/web/static; nothing else)
``GET  api/strings?lang=de``     the page's words (:mod:`bot.web.strings`)
``GET  api/config``              ``{"discord_client_id": ...}`` for the Discord SDK
``POST api/session/telegram``    ``{"init_data", "table"}`` -> a session (see below)
``POST api/discord/token``       ``{"code"}`` -> ``{"access_token"}`` (OAuth2 exchange)
``POST api/session/discord``     ``{"access_token", "instance_id"}`` -> a session
``GET  api/rules?token=...``     how to play and the options of the session's table
``GET  api/replay?token=...``    the session's table's finished deals (:mod:`bot.web.replay_json`)
``GET  ws?token=...``            the page's WebSocket (:mod:`bot.web.protocol`)
==============================  ===========================================================

A session answer is ``{"token", "table", "seat", "locale", "name", "replay"}``
(``replay`` true: the page opens the replay of the table's finished deals: a Telegram
sign-in with ``"replay": true`` or the start parameter ``r<table>``, which may name an ended
table; a Discord activity in a channel whose game has ended); a Telegram sign-in
that names no table (the bot's Main Mini App, opened from its profile or menu) is answered
with the person's open tables instead, ``{"choose": [{"table", "title"}], "locale",
"text"}``, and the page signs in again with the one tapped. A refusal is HTTP
401/403/404 with ``{"error": code, "text": localized text}`` and changes nothing.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from bot.dropped_inputs import DroppedInputs, error_kind
from bot.i18n import _, normalize_locale, use_locale
from bot.interaction.catalogue import variant_name
from bot.ports.entry import Entry
from bot.ports.model import ChatKey, TableInfo, UserRef
from bot.ports.web_links import replay_of_start_param, table_of_start_param
from bot.render.howto import how_to_play
from bot.render.rules import render_rules
from bot.web.auth import AuthRefused
from bot.web.auth.discord import DiscordAuth, SignInLimiter
from bot.web.auth.session import SessionSigner
from bot.web.auth.telegram import TelegramMembers, validate_init_data
from bot.web.config import PREFIX, WebConfig
from bot.web.pages.hub import PageHub
from bot.web.pages.page import Page
from bot.web.protocol import MAX_BAD, BadMessage, encode, error_message, parse_incoming
from bot.web.replay_json import replay_json
from bot.web.server.html import page_html
from bot.web.strings import page_strings
from engine.errors import EngineError
from engine.rules import RuleSet, make_rules

__all__ = ["STATIC", "WebRoutes"]

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent.parent / "static"
"""The page's files."""

CONTENT_TYPES = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".html": "text/html",
    ".json": "application/json",
    ".md": "text/plain",
    ".txt": "text/plain",
    ".png": "image/png",
}

STATUS = {
    "forged": 401,
    "expired": 401,
    "malformed": 400,
    "not_at_table": 403,
    "no_table": 404,
    "unavailable": 503,
    "too_fast": 429,
    "busy": 503,
}


def _refusal_text(code: str) -> str:
    texts = {
        "forged": _("The sign-in could not be verified."),
        "expired": _("The sign-in is too old; open the table again from the chat."),
        "malformed": _("The sign-in could not be read."),
        "not_at_table": _("You neither play at this table nor may watch it."),
        "no_table": _("This table is not open (any more)."),
        "unavailable": _("The chat platform could not be asked; try again in a moment."),
        "too_fast": _("Too many sign-ins from here; wait a minute and try again."),
    }
    return texts.get(code, texts["malformed"])


class WebRoutes:
    """Answers every request under ``/web`` (see the module docstring)."""

    def __init__(
        self,
        config: WebConfig,
        entry: Entry,
        hub: PageHub,
        signer: SessionSigner,
        members: TelegramMembers | None,
        discord: DiscordAuth | None,
    ) -> None:
        self.config = config
        self.entry = entry
        self.hub = hub
        self.signer = signer
        self.members = members
        self.discord = discord
        self.sockets: set[web.WebSocketResponse] = set()
        self._per_session: Counter[tuple[str, int]] = Counter()
        self.signins = SignInLimiter(config.signin_per_address, config.signin_per_minute)
        """The local limit of Discord sign-in calls (each may cost calls to Discord)."""
        self.faults = DroppedInputs(log, "web", says="refused")
        """Malformed page messages, pages over a limit, refused sign-ins: counted, and
        logged once per kind and minute."""
        self._files = {
            path.relative_to(STATIC).as_posix(): path
            for path in STATIC.rglob("*")
            if path.is_file()
        }

    # --- dispatch ---------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """Route one request (the :class:`bot.http.HttpServer` mount's handler)."""
        rest = request.path[len(PREFIX) :].lstrip("/")
        platform = "tg"
        head, _sep, tail = rest.partition("/")
        if head in ("tg", "dc"):
            platform, rest = head, tail
        if rest in ("", "index.html") and request.method == "GET":
            if not request.path.endswith("/") and rest == "":
                raise web.HTTPFound(
                    request.path
                    + "/"
                    + (f"?{request.query_string}" if request.query_string else "")
                )
            return web.Response(
                text=page_html(platform),
                content_type="text/html",
                headers={"Cache-Control": "no-cache"},
            )
        if rest.startswith("static/") and request.method == "GET":
            return self._static(rest[len("static/") :])
        routes = {
            ("GET", "api/strings"): self._strings,
            ("GET", "api/config"): self._config,
            ("POST", "api/session/telegram"): self._telegram_session,
            ("POST", "api/discord/token"): self._discord_token,
            ("POST", "api/session/discord"): self._discord_session,
            ("GET", "api/rules"): self._rules,
            ("GET", "api/replay"): self._replay,
            ("GET", "ws"): self._socket,
        }
        route = routes.get((request.method, rest))
        if route is None:
            raise web.HTTPNotFound()
        return await route(request)

    def _static(self, name: str) -> web.StreamResponse:
        path = self._files.get(name)
        if path is None:
            raise web.HTTPNotFound()
        response = web.FileResponse(path, headers={"Cache-Control": "no-cache"})
        response.content_type = CONTENT_TYPES.get(path.suffix, "application/octet-stream")
        return response

    # --- strings, config, rules ------------------------------------------------------------

    async def _strings(self, request: web.Request) -> web.StreamResponse:
        return web.json_response(
            page_strings(request.query.get("lang")), headers={"Cache-Control": "no-cache"}
        )

    async def _config(self, request: web.Request) -> web.StreamResponse:
        return web.json_response(
            {"discord_client_id": self.config.discord_client_id if self.config.discord else None}
        )

    async def _rules(self, request: web.Request) -> web.StreamResponse:
        session = self._session(request.query.get("token", ""))
        found = await self.entry.screens(session.table_id, session.user)
        if found is None:
            return self._refused("no_table", session.user.locale)
        table, locale = found.table, found.locale
        rules = _rules_of(table.info, table.view.rules if table.view is not None else None)
        if rules is None:
            return self._refused("no_table", locale)
        with use_locale(locale):
            sections = [
                {
                    "topic": s.topic,
                    "title": s.title,
                    "paragraphs": list(s.paragraphs),
                    "melds": [m.split() for m in s.melds],
                    "example": None if s.example is None else s.example.render(rules),
                }
                for s in how_to_play(rules)
            ]
            return web.json_response(
                {"locale": locale, "sections": sections, "rules": render_rules(rules)}
            )

    async def _replay(self, request: web.Request) -> web.StreamResponse:
        """The finished deals of the session's table as its person may see them; the
        session proves they sat there or may watch it (checked at sign-in)."""
        session = self._session(request.query.get("token", ""))
        replay = await self.entry.replay(session.table_id, session.user, True)
        if replay.refused is not None:
            self.faults.drop(f"a replay ({replay.refused})", session.user.key)
            return web.json_response(
                {"error": replay.refused, "text": replay.text},
                status=STATUS.get(replay.refused, 409),
            )
        return web.json_response(replay_json(replay), headers={"Cache-Control": "no-cache"})

    # --- sign-in ----------------------------------------------------------------------------

    def _session(self, token: str) -> Any:
        try:
            return self.signer.read(token)
        except AuthRefused as refused:
            raise web.HTTPUnauthorized(
                text=json.dumps({"error": refused.code}), content_type="application/json"
            ) from None

    def _refused(self, code: str, locale: str | None) -> web.Response:
        with use_locale(locale):
            return web.json_response(
                {"error": code, "text": _refusal_text(code)}, status=STATUS.get(code, 400)
            )

    @staticmethod
    async def _body(request: web.Request) -> dict[str, Any]:
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError):
            raise AuthRefused("malformed", "body") from None
        if not isinstance(body, dict):
            raise AuthRefused("malformed", "body")
        return body

    async def _answer_session(
        self, user: UserRef, info: TableInfo, replay: bool = False
    ) -> web.Response:
        locale = await self.entry.locale_of(user)
        return web.json_response(
            {
                "token": self.signer.issue(user, info.id),
                "table": info.id,
                "seat": info.seat_of(user.key),
                "locale": locale,
                "name": user.name,
                "replay": replay,
            }
        )

    async def _telegram_session(self, request: web.Request) -> web.StreamResponse:
        locale = None
        try:
            if not self.config.telegram_token:
                raise AuthRefused("unavailable", "no Telegram sign-in")
            body = await self._body(request)
            login = validate_init_data(
                str(body.get("init_data", "")), self.config.telegram_token, self.config.auth_max_age
            )
            locale = login.user.locale
            table = body.get("table")
            replay = body.get("replay") is True
            table_id = table if isinstance(table, int) and not isinstance(table, bool) else None
            if table_id is None and replay_of_start_param(login.start_param) is not None:
                table_id, replay = replay_of_start_param(login.start_param), True
            if table_id is None:
                table_id = table_of_start_param(login.start_param)
            if table_id is None:  # the bot's Main Mini App, opened from its profile or menu
                return await self._tables_to_choose(login.user)
            # a replay may name an ended table; playing only an active one
            info = await (
                self.entry.known_table(table_id) if replay else self.entry.table_by_id(table_id)
            )
            if info is None:
                raise AuthRefused("no_table")
            if info.seat_of(login.user.key) is None:
                await self._may_watch_telegram(login.user, info)
            return await self._answer_session(login.user, info, replay)
        except AuthRefused as refused:
            self.faults.drop(f"a Telegram sign-in ({refused.code})", str(refused))
            return self._refused(refused.code, locale)

    async def _tables_to_choose(self, user: UserRef) -> web.Response:
        """No table named: the person's open tables to choose from, ``{"choose": [{"table",
        "title"}], "locale", "text"}`` (``text``: what to say above them, or that there
        are none)."""
        mine = await self.entry.tables_of(user)
        locale, tables = mine.locale, mine.tables
        with use_locale(locale):
            choose = [
                {
                    "table": info.id,
                    "title": _("{variant} · table {number}").format(
                        variant=_(variant_name(info.variant)), number=info.id
                    ),
                }
                for info in tables
            ]
            text = (
                _("Your tables:")
                if choose
                else _("You sit at no open table. Open one in a group with /new.")
            )
        return web.json_response({"choose": choose, "locale": locale, "text": text})

    async def _may_watch_telegram(self, user: UserRef, info: TableInfo) -> None:
        """A person who does not play may watch a Telegram table of a group they are in."""
        if info.key.platform != "telegram" or self.members is None:
            raise AuthRefused("not_at_table")
        if not await self.members.is_member(info.key.chat_id, user.user_id):
            raise AuthRefused("not_at_table")

    async def _discord_token(self, request: web.Request) -> web.StreamResponse:
        try:
            if self.discord is None:
                raise AuthRefused("unavailable", "no Discord sign-in")
            self.signins.admit(request.remote or "")
            body = await self._body(request)
            token = await self.discord.exchange(str(body.get("code", "")))
            return web.json_response({"access_token": token})
        except AuthRefused as refused:
            self.faults.drop(f"a Discord code exchange ({refused.code})", str(refused))
            return self._refused(refused.code, None)

    async def _discord_session(self, request: web.Request) -> web.StreamResponse:
        locale = None
        try:
            if self.discord is None:
                raise AuthRefused("unavailable", "no Discord sign-in")
            self.signins.admit(request.remote or "")
            body = await self._body(request)
            user = await self.discord.me(str(body.get("access_token", "")))
            locale = user.locale
            instance = await self.discord.instance(str(body.get("instance_id", "")))
            if user.user_id not in instance.users:
                raise AuthRefused("not_at_table", "not in the activity")
            channel = ChatKey("discord", instance.channel_id)
            info = await self.entry.table_info(channel)
            replay = info is None  # no game runs here: the replay of the last one
            if info is None:
                info = await self.entry.latest_ended(channel)
            if info is None:
                raise AuthRefused("no_table")
            # seated, or watching: in the activity of the table's own channel
            return await self._answer_session(user, info, replay)
        except AuthRefused as refused:
            self.faults.drop(f"a Discord sign-in ({refused.code})", str(refused))
            return self._refused(refused.code, locale)

    # --- the page's WebSocket ---------------------------------------------------------------

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        socket = web.WebSocketResponse(heartbeat=30.0, max_msg_size=1 << 14)
        await socket.prepare(request)
        try:
            session = self.signer.read(request.query.get("token", ""))
        except AuthRefused:
            await socket.send_str(encode(error_message("session", "en")))
            await socket.close(code=4001, message=b"session")
            return socket
        owner = (session.user.key, session.table_id)
        if self._per_session[owner] >= self.config.sockets_per_session:
            self.faults.drop("a page over the per-session limit", session.user.key)
            await socket.send_str(encode(error_message("too_many", session.user.locale or "en")))
            await socket.close(code=4003, message=b"too many pages")
            return socket
        self.sockets.add(socket)
        self._per_session[owner] += 1
        try:
            # the page's language until its first screen (the hub's one call brings the
            # person's own: their choice, else their app's)
            page = Page(
                session.user,
                session.table_id,
                socket.send_str,
                normalize_locale(session.user.locale or "en"),
            )
            await self._serve(socket, page)
        finally:
            self.sockets.discard(socket)
            self._per_session[owner] -= 1
            if self._per_session[owner] <= 0:
                del self._per_session[owner]
        return socket

    async def _serve(self, socket: web.WebSocketResponse, page: Page) -> None:
        """The frames of one page's socket: each checked (:func:`parse_incoming`) before
        anything is built from it; a malformed one is answered with an ``error``
        naming the field, and the :data:`MAX_BAD`-th closes the socket (4002). No frame
        ends the socket with an exception: a failure is answered and logged once per
        kind and minute."""
        bad = 0
        try:
            await self.hub.attach(page)
            async for frame in socket:
                if frame.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    continue
                try:
                    message = parse_incoming(frame.data)
                except BadMessage as refused:
                    bad += 1
                    self.faults.drop(f"a malformed page message ({refused})", page.user.key)
                    await page.push(encode(error_message("bad_message", page.locale, str(refused))))
                    if bad >= MAX_BAD:
                        await socket.close(code=4002, message=b"malformed messages")
                        break
                    continue
                try:
                    await self.hub.handle(page, message)
                except EngineError as error:  # a query the service refused
                    self.faults.drop(f"a page message refused: {error.code}", page.user.key)
                    await page.push(encode(error_message("bad_message", page.locale)))
                except Exception as error:  # never end the socket with a traceback
                    self.faults.drop(
                        error_kind("a page message failed", error), page.user.key, error
                    )
                    await page.push(encode(error_message("bad_message", page.locale)))
        finally:
            self.hub.detach(page)

    async def close(self) -> None:
        """Close every open WebSocket (the front end stops)."""
        for socket in list(self.sockets):
            await socket.close(code=1001, message=b"going away")


def _rules_of(info: TableInfo, rules: RuleSet | None) -> RuleSet | None:
    """The running game's rules, or the lobby's as chosen so far."""
    if rules is not None:
        return rules
    try:
        return make_rules(info.variant, info.preset, dict(info.options))
    except EngineError:
        return None
