"""The web surface under hostile input (issue: bounded connections, frames and logs), on
loopback with the real service and HTTP server: malformed frames of every kind get a
typed error frame and no traceback, the fifth closes the socket; pages per session are
limited; connections over the limits get 503 at once; slow headers are closed; the log
lines clients provoke are bounded; strings with lone surrogates are cleaned before the
entry point stores them; garbage Discord codes are refused locally after the limit;
Discord's 429 is honoured per route."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from bot.http import BACKLOG, BoundedLogFilter, HttpLimits, HttpServer, descriptor_limit
from bot.ports.clean import REPLACEMENT, clean_intent, clean_text, is_clean
from bot.ports.intents import AddAI, Configure, InChat, Intent, Join, OpenTable
from bot.ports.model import ChatKey, UserRef
from bot.runner import http_limits
from bot.settings import Settings
from bot.web import WebConfig
from bot.web.auth import AuthRefused
from bot.web.auth.discord import DiscordAuth, SignInLimiter
from bot.web.protocol import MAX_BAD, BadMessage, nesting_depth, parse_incoming
from tests.web.support import frames_until, web_config, web_world

ANA = UserRef("telegram", "901", "Ana", "en")
BEN = UserRef("telegram", "902", "Ben", "en")

MALFORMED: list[tuple[str, str]] = [
    ("[" * 2000 + "]" * 2000, "depth"),  # RecursionError before
    ('{"type": ["select"], "table": 1}', "type"),  # TypeError before
    ('{"type": "sort", "table": 1, "sort": ["rank"]}', "sort"),
    ('{"type": "select", "table": 1, "selected": [[[1]]]}', "depth"),
    ('{"type": "select", "table": "1"}', "table"),
    ('{"type": "select", "table": 1e400}', "table"),
    ('{"type": "select", "table": 99999999999999999999999}', "table"),
    ('{"type": "offer", "table": 1, "version": 1, "offer": 0, "id": 7}', "id"),
    ('{"type": "offer", "table": 1, "version": 1, "offer": 0, "id": ""}', "id"),
    ('{"type": "select", "table": 1, "digest": {"a": 1}}', "digest"),
    (
        json.dumps({"type": "select", "table": 1, **{f"f{i}": i for i in range(20)}}),
        "not an object",
    ),
    ("not json", "not JSON"),
    ("x" * 5000, "too long"),
]


# --- frames --------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "field"), MALFORMED)
def test_every_malformed_frame_is_refused_naming_the_field(text: str, field: str) -> None:
    with pytest.raises(BadMessage) as refused:
        parse_incoming(text)
    assert str(refused.value) == field


def test_nesting_is_counted_outside_strings_only() -> None:
    assert nesting_depth('{"a": "[[[[[{{{{"}') == 1
    assert nesting_depth('{"a": "\\"[[["}') == 1
    assert nesting_depth('{"a": [[1]]}') == 3
    assert nesting_depth("[" * 50) == 50


def test_lone_surrogates_and_nuls_are_cleaned_at_the_decode_boundary() -> None:
    incoming = parse_incoming(
        '{"type": "offer", "table": 3, "version": 1, "offer": 0,'
        ' "id": "p\\ud800x", "digest": "a\\u0000b"}'
    )
    assert incoming.id == f"p{REPLACEMENT}x" and incoming.digest == f"a{REPLACEMENT}b"
    assert incoming.id is not None and is_clean(incoming.id)
    incoming.id.encode("utf-8")  # storable


def test_an_intent_is_cleaned_before_the_entry_point_uses_it() -> None:
    clean = Intent(Join(), ANA, InChat(ChatKey("telegram", "-1")), update_key="u1")
    assert clean_intent(clean) is clean
    dirty = Intent(
        Configure(("target=\ud83d",)),
        UserRef("web", "9\udfff", "A\x00"),
        InChat(ChatKey("telegram", "-1\ud800")),
        update_key="web:\udc00",
    )
    cleaned = clean_intent(dirty)
    assert isinstance(cleaned.request, Configure)
    texts = [
        cleaned.user.user_id,
        cleaned.user.name,
        cleaned.update_key or "",
        str(cleaned.key),
        *cleaned.request.words,
    ]
    assert all(is_clean(text) for text in texts)
    for text in texts:
        text.encode("utf-8")
    assert cleaned.request.words == (f"target={REPLACEMENT}",)
    assert clean_intent(Intent(AddAI("hard\x00"), ANA)).request == AddAI(f"hard{REPLACEMENT}")
    assert clean_text("plain") == "plain"


async def test_the_entry_point_stores_an_update_key_with_a_lone_surrogate(tmp_path: Path) -> None:
    """Entry.handle raised UnicodeEncodeError for such a key (SQLite); now it is
    cleaned, handled once, and a redelivery changes nothing twice."""
    async with web_world(tmp_path / "web.sqlite3") as world:
        key = ChatKey("telegram", "-5\ud800")
        first = await world.service.entry.handle(
            Intent(
                OpenTable(("basic",)),
                UserRef("telegram", "77\udc00", "Z\ud800"),
                InChat(key),
                update_key="tg:\ud800:1",
            )
        )
        assert first.ok, first.reply.text
        again = await world.service.entry.handle(
            Intent(
                OpenTable(("basic",)),
                UserRef("telegram", "77\udc00", "Z\ud800"),
                InChat(key),
                update_key="tg:\ud800:1",
            )
        )
        assert again.update is None


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.exc_info is not None]


async def test_malformed_frames_get_an_error_each_and_the_fifth_closes_the_socket(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with web_world(tmp_path / "web.sqlite3") as world, aiohttp.ClientSession() as http:
        info = await world.table(ANA, [BEN], "basic", ais=0)
        assert world.web.routes is not None
        token = world.web.routes.signer.issue(ANA, info.id)
        # every kind once: an error naming the field, the socket stays (4 at a time)
        for start in range(0, len(MALFORMED), MAX_BAD - 1):
            async with http.ws_connect(f"{world.base}/ws?token={token}") as socket:
                await frames_until(socket, "screen")
                for text, field in MALFORMED[start : start + MAX_BAD - 1]:
                    await socket.send_str(text)
                    error = (await frames_until(socket, "error"))[-1]
                    assert error["code"] == "bad_message" and error["field"] == field
                    assert error["text"]
                await socket.send_json({"type": "refresh", "table": info.id})
                assert (await frames_until(socket, "screen"))[-1]["table"] == info.id
        # the fifth malformed frame: its error, then close code 4002
        async with http.ws_connect(f"{world.base}/ws?token={token}") as socket:
            await frames_until(socket, "screen")
            for _n in range(MAX_BAD - 1):
                await socket.send_bytes(b"\xff\xfe")
                assert (await frames_until(socket, "error"))[-1]["code"] == "bad_message"
            await socket.send_str("[" * 2000)
            assert (await frames_until(socket, "error"))[-1]["field"] == "depth"
            closing = await socket.receive(timeout=5)
            assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == 4002
        stored = await world.service.entry.table_by_id(info.id)
        assert stored is not None and stored.version == info.version  # nothing applied
    assert tracebacks(caplog) == []
    # one line per kind (and minute), however many frames
    lines = [r.getMessage() for r in caplog.records if "malformed page message" in r.message]
    kinds = {field for _text, field in MALFORMED} | {"not JSON"}
    assert len(lines) <= len(kinds)


async def test_a_session_has_at_most_its_pages_and_a_refused_one_gets_4001(tmp_path: Path) -> None:
    config = web_config(sockets_per_session=2)
    async with (
        web_world(tmp_path / "web.sqlite3", config) as world,
        aiohttp.ClientSession() as http,
    ):
        info = await world.table(ANA, [BEN], "basic", ais=0)
        assert world.web.routes is not None
        token = world.web.routes.signer.issue(ANA, info.id)
        first = await http.ws_connect(f"{world.base}/ws?token={token}")
        second = await http.ws_connect(f"{world.base}/ws?token={token}")
        for socket in (first, second):
            await frames_until(socket, "screen")
        async with http.ws_connect(f"{world.base}/ws?token={token}") as third:
            assert (await frames_until(third, "error"))[-1]["code"] == "too_many"
            closing = await third.receive(timeout=5)
            assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == 4003
        # Ben's pages are not Ana's
        ben = world.web.routes.signer.issue(BEN, info.id)
        async with http.ws_connect(f"{world.base}/ws?token={ben}") as other:
            await frames_until(other, "screen")
        await first.close()
        await asyncio.sleep(0.2)
        async with http.ws_connect(f"{world.base}/ws?token={token}") as again:
            await frames_until(again, "screen")  # room again once one closed
        await second.close()
        async with http.ws_connect(f"{world.base}/ws?token=forged.x") as refused:
            assert (await frames_until(refused, "error"))[-1]["code"] == "session"
            closing = await refused.receive(timeout=5)
            assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == 4001


# --- connections ---------------------------------------------------------------------------


async def ok(request: web.Request) -> web.StreamResponse:
    return web.Response(text="ok")


async def raw(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port)


async def test_connections_over_the_limits_get_503_and_slow_headers_are_closed(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    server = HttpServer(
        "127.0.0.1", 0, HttpLimits(max_connections=6, per_address=4, header_timeout=1.0)
    )
    server.mount("/", ok)
    await server.start()
    held: list[asyncio.StreamWriter] = []
    try:
        assert server.max_connections == 6
        slow = []
        for _n in range(4):  # slowloris: a request line and never the end of the headers
            reader, writer = await raw(server.port)
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
            slow.append((reader, writer))
            held.append(writer)
        await asyncio.sleep(0.2)
        assert server.connections == 4
        # the fifth from this address: 503 at once, closed
        refused = []
        for _n in range(30):
            reader, writer = await raw(server.port)
            held.append(writer)
            refused.append(await asyncio.wait_for(reader.read(), 5))
        assert all(answer.startswith(b"HTTP/1.1 503") for answer in refused)
        assert server.refused["address"] == 30
        # the slow ones are closed after the header timeout, still sending a byte a while
        started = time.monotonic()
        for _n in range(3):
            for _reader, writer in slow:
                writer.write(b"X")
            await asyncio.sleep(0.2)
        for reader, _writer in slow:
            assert await asyncio.wait_for(reader.read(), 5) == b""
        assert time.monotonic() - started < 4
        await asyncio.sleep(0.1)
        assert server.connections == 0
        # a normal request still works, and keeps working
        async with aiohttp.ClientSession() as http:
            for _n in range(3):
                async with http.get(f"http://127.0.0.1:{server.port}/x") as response:
                    assert response.status == 200 and await response.text() == "ok"
        # the process limit, from no per-address limit
        server.limits = HttpLimits(max_connections=6, per_address=0, header_timeout=1.0)
        more = [await raw(server.port) for _n in range(8)]
        held.extend(writer for _reader, writer in more)
        answers = [await asyncio.wait_for(r.read(), 5) for r, _w in more[6:]]
        assert all(answer.startswith(b"HTTP/1.1 503") for answer in answers)
        assert server.refused["connections"] == 2
    finally:
        for writer in held:
            writer.close()
        await server.stop()
    refusals = [r for r in caplog.records if "limit" in r.getMessage() and r.name == "bot.http"]
    assert 1 <= len(refusals) <= 2  # one per kind and minute, not 32
    assert tracebacks(caplog) == []


def test_the_log_filter_passes_one_record_per_kind_and_minute_with_a_count() -> None:
    now = [0.0]
    bounded = BoundedLogFilter(every=60.0, clock=lambda: now[0])

    def record(message: str) -> logging.LogRecord:
        return logging.LogRecord("asyncio", logging.ERROR, __file__, 1, message, None, None)

    accept = "socket.accept() out of system resource"
    first = record(accept)
    first.exc_info = (OSError, OSError(24, "Too many open files"), None)
    assert bounded.filter(first) and first.exc_info is None  # no traceback for it
    assert not any(bounded.filter(record(accept)) for _n in range(11_700))
    assert bounded.filter(record("another kind"))
    now[0] = 61.0
    line = record(accept)
    assert bounded.filter(line) and "11700 more" in line.getMessage()


# --- Discord sign-in -----------------------------------------------------------------------


class FakeDiscord:
    """Discord's token route refusing every code (400), or answering 429 with
    ``retry_after`` while :attr:`limited`."""

    def __init__(self) -> None:
        self.calls = 0
        self.limited: float | None = None
        self.global_limit = False
        self.port = 0
        self._runner: web.AppRunner | None = None

    async def _token(self, request: web.Request) -> web.Response:
        self.calls += 1
        if self.limited is not None:
            return web.json_response(
                {
                    "message": "You are being rate limited.",
                    "retry_after": self.limited,
                    "global": self.global_limit,
                },
                status=429,
            )
        return web.json_response({"error": "invalid_grant"}, status=400)

    async def _me(self, request: web.Request) -> web.Response:
        self.calls += 1
        return web.json_response({"id": "5", "username": "ana"})

    async def start(self) -> str:
        app = web.Application()
        app.router.add_post("/api/v10/oauth2/token", self._token)
        app.router.add_get("/api/v10/users/@me", self._me)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        return f"http://127.0.0.1:{self._runner.addresses[0][1]}/api/v10"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()


async def test_a_refused_code_is_refused_again_without_asking_discord() -> None:
    fake = FakeDiscord()
    auth = DiscordAuth("1", "secret", "bot", await fake.start())
    try:
        for _n in range(50):
            with pytest.raises(AuthRefused) as refused:
                await auth.exchange("garbage-code")
            assert refused.value.code == "forged"
        assert fake.calls == 1
    finally:
        await auth.close()
        await fake.stop()


async def test_discords_429_is_honoured_per_route() -> None:
    fake = FakeDiscord()
    now = [0.0]
    auth = DiscordAuth("1", "secret", "bot", await fake.start(), clock=lambda: now[0])
    try:
        fake.limited = 30.0
        with pytest.raises(AuthRefused) as refused:
            await auth.exchange("code-1")
        assert refused.value.code == "unavailable" and fake.calls == 1
        for n in range(20):  # not asked again while its retry_after runs
            with pytest.raises(AuthRefused):
                await auth.exchange(f"code-{n + 2}")
        assert fake.calls == 1
        # another route is not limited by it
        assert (await auth.me("a-token")).user_id == "5"
        assert fake.calls == 2
        now[0] = 31.0  # past retry_after: Discord is asked again
        fake.limited = None
        with pytest.raises(AuthRefused) as refused:
            await auth.exchange("code-99")
        assert refused.value.code == "forged" and fake.calls == 3
        # a global 429 stops every route
        fake.limited, fake.global_limit = 60.0, True
        with pytest.raises(AuthRefused):
            await auth.exchange("code-100")
        with pytest.raises(AuthRefused):
            await auth.me("b-token")
        assert fake.calls == 4
    finally:
        await auth.close()
        await fake.stop()


def test_sign_ins_are_limited_per_address_and_in_all() -> None:
    now = [0.0]
    limiter = SignInLimiter(per_address=3, total=5, clock=lambda: now[0])
    for _n in range(3):
        limiter.admit("10.0.0.1")
    with pytest.raises(AuthRefused) as refused:
        limiter.admit("10.0.0.1")
    assert refused.value.code == "too_fast"
    limiter.admit("10.0.0.2")
    limiter.admit("10.0.0.3")
    with pytest.raises(AuthRefused):
        limiter.admit("10.0.0.4")  # the total
    now[0] = 61.0
    limiter.admit("10.0.0.1")  # a minute later: room again
    assert limiter.refused == 2


async def test_garbage_discord_codes_are_refused_locally_after_the_limit(tmp_path: Path) -> None:
    fake = FakeDiscord()
    api = await fake.start()
    config = web_config(
        discord_token="bot",
        discord_client_id="1",
        discord_client_secret="secret",
        discord_api=api,
        signin_per_address=10,
        signin_per_minute=100,
    )
    try:
        async with (
            web_world(tmp_path / "web.sqlite3", config) as world,
            aiohttp.ClientSession() as http,
        ):
            statuses = []
            for n in range(40):
                async with http.post(
                    f"{world.base}/dc/api/discord/token", json={"code": f"garbage-{n}"}
                ) as response:
                    statuses.append(response.status)
                    body = await response.json()
            assert statuses[:10] == [401] * 10 and statuses[10:] == [429] * 30
            assert body["error"] == "too_fast" and body["text"]
            assert fake.calls == 10
    finally:
        await fake.stop()


def test_the_limits_come_from_the_settings_with_their_defaults() -> None:
    defaults = Settings.from_env({}, env_file=None)
    limits = http_limits(defaults)
    assert (
        limits.max_connections,
        limits.descriptor_reserve,
        limits.per_address,
        limits.header_timeout,
    ) == (0, 128, 64, 10.0)
    assert limits.connections() == max(descriptor_limit() - 128 - BACKLOG, 16)
    assert HttpLimits(max_connections=10**6).connections() == limits.connections()
    settings = Settings.from_env(
        {
            "HTTP_PER_ADDRESS": "0",
            "HTTP_HEADER_TIMEOUT": "3",
            "HTTP_MAX_CONNECTIONS": "100",
            "WEB_SOCKETS_PER_SESSION": "2",
            "WEB_SIGNIN_PER_ADDRESS": "5",
            "WEB_BASE_URL": "https://rummy.example.org",
            "TELEGRAM_TOKEN": "1:x",
        },
        env_file=None,
    )
    limits = http_limits(settings)
    assert (limits.per_address, limits.header_timeout, limits.connections()) == (0, 3.0, 100)
    config = WebConfig.from_settings(settings)
    assert config is not None
    assert (config.sockets_per_session, config.signin_per_address, config.signin_per_minute) == (
        2,
        5,
        120,
    )
