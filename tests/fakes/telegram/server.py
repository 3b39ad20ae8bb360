"""A fake Telegram Bot API server on 127.0.0.1 for driving the real PTB stack in tests.

``FakeTelegram`` serves ``/bot<token>/<method>`` (JSON, form-encoded and
multipart bodies, or the query string) with Telegram's answers
``{"ok": true, "result": ...}`` / ``{"ok": false, "error_code": N, "description": ...}``.
Like Telegram it answers 404 "Not Found" for an unknown method or a malformed
token, and 401 "Unauthorized" for a well-formed token that is not this bot's.
Test code uses its other methods to set up users and chats, act as users, and
inspect what the bot did. Use ``running_fake_telegram()`` to run one::

    async with running_fake_telegram() as tg:
        app = (ApplicationBuilder().token(tg.token)
               .base_url(tg.base_url).base_file_url(tg.base_file_url).build())
"""

from __future__ import annotations

import asyncio
import inspect
import re
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import Any, TypeVar

from aiohttp import web

from . import actions
from .commands import scope_key
from .errors import ApiError, not_found, unauthorized
from .methods import METHODS
from .models import ApiCall, CallbackAnswer, ChatAction, FakeChat, FakeMessage, FakeUser
from .params import decode_params, read_raw_params
from .state import World
from .updates import UpdateQueue

DEFAULT_TOKEN = "123456789:AAFakeTokenForTestsOnly-abcdefghijkl"
_TOKEN_SHAPE = re.compile(r"\d+:[A-Za-z0-9_-]+")
T = TypeVar("T")


@dataclass
class Hold:
    """A request the fake answers late: the first call that ``matches`` is carried out
    (a sent message is in the chat) and recorded, then ``arrived`` is set and the answer
    waits until :meth:`release` (a test kills the client meanwhile: Telegram did the
    work, the client never learnt it)."""

    matches: Callable[[ApiCall], bool]
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)
    call: ApiCall | None = None

    def release(self) -> None:
        """Send the held answer (to whoever still listens)."""
        self.released.set()


@dataclass
class Outage:
    """The next ``times`` calls that ``matches`` (method and parameters) are answered
    ``502 Bad Gateway`` without being carried out (Telegram out of reach for a moment);
    ``failed``: the calls refused so far."""

    matches: Callable[[str, dict[str, Any]], bool]
    times: int = 1
    failed: list[ApiCall] = field(default_factory=list)


@dataclass(frozen=True)
class InFlight:
    """A request the fake is answering right now."""

    method: str
    worker: str
    began: float


class FakeTelegram:
    """A fake Telegram Bot API server plus the test-side controls for it.

    ``token`` is the bot's token (its numeric prefix is the bot's user id).
    ``privacy_mode`` (Telegram's default) hides ordinary group messages from the
    bot; ``callback_timeout`` is how long (seconds) a callback query stays
    answerable; ``clock`` gives Unix time (message dates, query expiry).
    """

    def __init__(
        self,
        token: str = DEFAULT_TOKEN,
        *,
        bot_username: str = "RummyTestBot",
        bot_name: str = "Rummy Test Bot",
        privacy_mode: bool = True,
        callback_timeout: float = 15.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if not _TOKEN_SHAPE.fullmatch(token):
            raise ValueError("a bot token looks like '<bot id>:<secret>'")
        self.token = token
        bot = FakeUser(
            int(token.split(":", 1)[0]), bot_name, bot_username, language_code=None, is_bot=True
        )
        self.world = World(
            bot, privacy_mode=privacy_mode, callback_timeout=callback_timeout, clock=clock
        )
        self.calls: list[ApiCall] = []
        #: Requests being answered now (long polls wait here), by a running number.
        self.in_flight: dict[int, InFlight] = {}
        self._requests = 0
        self.holds: list[Hold] = []
        self.outages: list[Outage] = []
        self.port: int | None = None
        self._runner: web.AppRunner | None = None
        self._changed = asyncio.Event()
        self.world.updates.listener = self._notify

    # -- running -------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen on 127.0.0.1 on a free port (``port`` tells which)."""
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_route("*", "/w/{worker}/bot{token}/{method}", self._handle)
        app.router.add_route("*", "/{tail:.*}", self._not_found)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        """End pending long polls and held answers, and close the server."""
        self.world.updates.close()
        for held in self.holds:
            held.release()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def base_url(self) -> str:
        """PTB's ``base_url``: PTB appends the token, then ``/<method>``."""
        return f"http://127.0.0.1:{self.port}/bot"

    def worker_base_url(self, worker: str) -> str:
        """A ``base_url`` whose calls are recorded with ``worker`` (``ApiCall.worker``), so a
        test with several bot processes tells whose call each was."""
        return f"http://127.0.0.1:{self.port}/w/{worker}/bot"

    def hold(self, matches: Callable[[ApiCall], bool]) -> Hold:
        """Answer the next call that ``matches`` late (see :class:`Hold`)."""
        held = Hold(matches)
        self.holds.append(held)
        return held

    def outage(self, matches: Callable[[str, dict[str, Any]], bool], times: int = 1) -> Outage:
        """Refuse the next ``times`` calls that ``matches`` with a 502 (see :class:`Outage`)."""
        out = Outage(matches, times)
        self.outages.append(out)
        return out

    def polling(self) -> list[str]:
        """The workers whose ``getUpdates`` is being answered now (oldest first)."""
        return [
            f.worker
            for f in sorted(self.in_flight.values(), key=lambda f: f.began)
            if f.method == "getupdates"
        ]

    @property
    def base_file_url(self) -> str:
        """PTB's ``base_file_url`` (the fake serves no files: every download is a 404)."""
        return f"http://127.0.0.1:{self.port}/file/bot"

    def method_url(self, method: str, token: str | None = None) -> str:
        """Full URL of a Bot API method, for plain HTTP tests."""
        return f"{self.base_url}{token if token is not None else self.token}/{method}"

    # -- HTTP ------------------------------------------------------------------------------

    async def _not_found(self, request: web.Request) -> web.Response:
        return web.json_response(not_found().to_json(), status=404)

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        worker = request.match_info.get("worker", "")
        began = time.monotonic()
        self._requests += 1
        number = self._requests
        self.in_flight[number] = InFlight(method.lower(), worker, began)
        try:
            return await self._answer(request, method, worker, began)
        finally:
            self.in_flight.pop(number, None)

    async def _answer(
        self, request: web.Request, method: str, worker: str, began: float
    ) -> web.Response:
        params: dict[str, Any] = {}
        content_type = ""
        try:
            raw, content_type = await read_raw_params(request)
            params = dict(raw)
            token = request.match_info["token"]
            if not _TOKEN_SHAPE.fullmatch(token):
                raise not_found()
            if token != self.token:
                raise unauthorized()
            handler = METHODS.get(method.lower())
            if handler is None:
                raise not_found()
            params = decode_params(raw)
            out = next(
                (
                    o
                    for o in self.outages
                    if len(o.failed) < o.times and o.matches(method.lower(), params)
                ),
                None,
            )
            if out is not None:
                call = ApiCall(
                    method,
                    params,
                    content_type,
                    502,
                    {"ok": False},
                    worker,
                    began,
                    time.monotonic(),
                )
                out.failed.append(call)
                self.calls.append(call)
                return web.Response(status=502, text="Bad Gateway")
            result = handler(self.world, params)
            if inspect.isawaitable(result):
                result = await result
            status, body = 200, {"ok": True, "result": result}
        except ApiError as error:
            status, body = error.error_code, error.to_json()
        call = ApiCall(method, params, content_type, status, body, worker, began, time.monotonic())
        self.calls.append(call)
        self._notify()
        held = next((h for h in self.holds if h.call is None and h.matches(call)), None)
        if held is not None:
            held.call = call
            held.arrived.set()
            await held.released.wait()
        return web.json_response(body, status=status)

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    # -- setup (no updates) ------------------------------------------------------------------

    @property
    def bot(self) -> FakeUser:
        """The bot's own user."""
        return self.world.bot

    def add_user(
        self,
        user_id: int,
        first_name: str,
        username: str | None = None,
        language_code: str | None = "en",
        last_name: str | None = None,
    ) -> FakeUser:
        """Register a user; they must ``start_private`` before the bot may write to them."""
        return actions.add_user(self.world, user_id, first_name, username, language_code, last_name)

    def add_group(
        self,
        chat_id: int,
        title: str,
        forum: bool = False,
        *,
        username: str | None = None,
        admins: tuple[int, ...] = (),
        bot_is_admin: bool = False,
    ) -> FakeChat:
        """Register a group with the bot in it (supergroup for ``-100...`` ids and forums)."""
        return actions.add_group(
            self.world,
            chat_id,
            title,
            forum,
            username=username,
            admins=admins,
            bot_is_admin=bot_is_admin,
        )

    def add_topic(self, chat_id: int, name: str) -> int:
        """Create a topic in a forum; returns its ``message_thread_id``."""
        return actions.add_topic(self.world, chat_id, name)

    def user(self, user_id: int) -> FakeUser:
        """A registered user."""
        return self.world.users[user_id]

    def chat(self, chat_id: int) -> FakeChat:
        """A registered chat (private chats have the user's id)."""
        return self.world.chats[chat_id]

    # -- user actions (queue updates) ----------------------------------------------------------

    def send_text(
        self,
        user: FakeUser | int,
        chat: FakeChat | int,
        text: str,
        thread_id: int | None = None,
        reply_to: FakeMessage | tuple[int, int] | None = None,
    ) -> FakeMessage:
        """``user`` writes ``text`` in ``chat``; see ``actions.send_text``."""
        message = actions.send_text(self.world, user, chat, text, thread_id, reply_to)
        self._notify()
        return message

    def start_private(self, user: FakeUser | int, payload: str | None = None) -> FakeMessage:
        """``user`` presses Start in the bot's private chat (``/start [payload]``)."""
        message = actions.start_private(self.world, user, payload)
        self._notify()
        return message

    def press_button(
        self,
        user: FakeUser | int,
        message: FakeMessage | tuple[int, int],
        callback_data: str,
    ) -> str:
        """``user`` presses a button of the message's current keyboard; returns the query id."""
        query_id = actions.press_button(self.world, user, message, callback_data)
        self._notify()
        return query_id

    def migrate_group(self, old_id: int, new_id: int, by: FakeUser | int | None = None) -> FakeChat:
        """Upgrade a basic group to a supergroup (service messages + ChatMigrated errors)."""
        chat = actions.migrate_group(self.world, old_id, new_id, by)
        self._notify()
        return chat

    def block_bot(self, user: FakeUser | int) -> None:
        """``user`` blocks the bot (``my_chat_member`` update; sends answer 403)."""
        actions.block_bot(self.world, user)
        self._notify()

    # -- inspection --------------------------------------------------------------------------

    def messages(
        self,
        chat_id: int,
        thread_id: int | None = None,
        *,
        include_users: bool = False,
        include_deleted: bool = False,
    ) -> list[FakeMessage]:
        """The bot's messages in a chat (or one forum topic), oldest first, as they are now."""
        return self.world.chat_messages(
            chat_id, thread_id, include_users=include_users, include_deleted=include_deleted
        )

    def private_messages(self, user_id: int) -> list[FakeMessage]:
        """The bot's messages in its private chat with ``user_id``."""
        return self.messages(user_id)

    @property
    def callback_answers(self) -> list[CallbackAnswer]:
        """Every accepted ``answerCallbackQuery``, in order."""
        return list(self.world.callback_answers)

    @property
    def chat_actions(self) -> list[ChatAction]:
        """Every accepted ``sendChatAction``, in order."""
        return list(self.world.chat_actions)

    @property
    def updates(self) -> UpdateQueue:
        """The update queue (``pending`` = not yet confirmed by the bot)."""
        return self.world.updates

    @property
    def webhook_url(self) -> str:
        """The URL recorded by ``setWebhook`` ("" when none)."""
        return self.world.webhook.url

    def calls_to(self, method: str) -> list[ApiCall]:
        """Recorded calls of one method (case-insensitive)."""
        return [call for call in self.calls if call.method.lower() == method.lower()]

    def commands(
        self, scope: dict[str, Any] | None = None, language_code: str = ""
    ) -> list[dict[str, str]]:
        """The command list set for exactly this scope and language."""
        return self.world.commands.get(scope_key(scope), language_code)

    def visible_commands(self, user_id: int, chat_id: int | None = None) -> list[dict[str, str]]:
        """The command menu ``user_id`` sees in ``chat_id`` (None = private chat)."""
        user = self.world.users[user_id]
        is_admin = chat_id is not None and self.world.is_admin(self.world.chats[chat_id], user_id)
        return self.world.commands.visible(user_id, user.language_code or "", chat_id, is_admin)

    async def wait_for(
        self, predicate: Callable[[], T], timeout: float = 5.0, recheck: float = 0.02
    ) -> T:
        """Wait until ``predicate()`` is truthy and return its value.

        Re-checked after every API call and user action, and every ``recheck``
        seconds for conditions on the bot's own state (e.g. an error handler's
        list). Raises ``TimeoutError`` (listing the last calls) after ``timeout``.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                recent = [f"{c.method} -> {c.status}" for c in self.calls[-8:]]
                raise TimeoutError(f"condition not met within {timeout} s; last calls: {recent}")
            changed = self._changed
            with suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), min(remaining, recheck))


@asynccontextmanager
async def running_fake_telegram(
    token: str = DEFAULT_TOKEN, **options: Any
) -> AsyncIterator[FakeTelegram]:
    """Start a ``FakeTelegram`` for the duration of an ``async with`` block.

    ``options`` go to ``FakeTelegram`` (``bot_username``, ``privacy_mode``, ...).
    """
    server = FakeTelegram(token, **options)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
