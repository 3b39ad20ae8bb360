"""Several workers on one PostgreSQL database: a page connected to one worker gets every
change another worker commits (each commit NOTIFYs its table id and version; the page's
worker LISTENs through bot.storage.feed.PostgresChangeFeed and refreshes the pages still
behind)."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import replace
from typing import Any

import aiohttp
import asyncpg

from bot.http import HttpServer
from bot.interaction.commands import parse
from bot.ports.feed import TableChanged
from bot.ports.intents import InChat, Intent
from bot.ports.model import ChatKey, TableSettings, UserRef
from bot.service.flow import FlowControl
from bot.service.service import GameService
from bot.storage.feed import PostgresChangeFeed, parse_payload
from bot.storage.postgres import PostgresRepository, open_postgres
from bot.web import WebFrontEnd
from devsupport.pg_server import PgServer
from tests.web.support import init_data, web_config

ANA = UserRef("telegram", "701", "ana", "en")
BEN = UserRef("telegram", "702", "ben", "en")
KEY = ChatKey("telegram", "-100777")


def test_feed_payloads() -> None:
    assert parse_payload("12:34") is not None
    assert parse_payload("12:34") == parse_payload("12:34")
    assert parse_payload("x:1") is None and parse_payload("12") is None


async def receive_screen(
    socket: aiohttp.ClientWebSocketResponse, version: int, timeout: float = 10.0
) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        message = await socket.receive(timeout=max(deadline - time.monotonic(), 0.1))
        frame = json.loads(message.data)
        if frame["type"] == "screen" and frame["version"] >= version:
            return frame


async def test_a_page_on_one_worker_sees_the_commits_of_another(pg_server: PgServer) -> None:
    url = pg_server.create("webfeed")
    workers = []
    try:
        for n in range(2):
            db = await open_postgres(url, max_size=4)
            seeds = iter(range(100 * (n + 1), 10**9))
            service = GameService(
                PostgresRepository(db),
                defaults=TableSettings(timer="off", ai_delay=0.0),
                seed_source=lambda s=seeds: next(s),
            )  # type: ignore[misc]
            service.flow = FlowControl(user_rate=(10_000, 1.0), chat_rate=(10_000, 1.0))
            web = WebFrontEnd(web_config(), feed_grace=0.05)
            service.register(web.platform, web.notifier, web.every_platform)
            http = HttpServer("127.0.0.1", 0)
            await http.start()
            feed = PostgresChangeFeed(url)
            await web.start(replace(service.host(http), feed=feed))
            workers.append((db, service, web, http))
        (_db_a, service_a, _web_a, _http_a), (_db_b, _service_b, web_b, http_b) = workers
        for user, line in ((ANA, "new basic"), (BEN, "join"), (ANA, "start")):
            outcome = await service_a.entry.handle(Intent(parse(line), user, InChat(KEY)))
            assert outcome.ok, outcome.reply.text
        info = outcome.info
        assert info is not None
        base = f"http://127.0.0.1:{http_b.port}/web"
        async with aiohttp.ClientSession() as http:
            async with http.post(
                f"{base}/api/session/telegram", json={"init_data": init_data(BEN), "table": info.id}
            ) as response:
                token = (await response.json())["token"]
            async with http.ws_connect(f"{base}/ws?token={token}") as socket:
                first = await receive_screen(socket, info.version)
                assert first["version"] == info.version
                current = first["public"]["current"]
                mover = ANA if current == info.seat_of(ANA.key) else BEN
                started = time.monotonic()
                moved = await service_a.entry.handle(Intent(parse("draw"), mover, InChat(KEY)))
                assert moved.ok and moved.info is not None
                seen = await receive_screen(socket, moved.info.version)
                delay = time.monotonic() - started
                assert seen["version"] == moved.info.version
                assert seen["hand"] is not None and seen["seat"] == info.seat_of(BEN.key)
                assert [p["cards"] for p in seen["public"]["players"]] != [
                    p["cards"] for p in first["public"]["players"]
                ]
                print(f"\nworker A's commit on worker B's page after {delay * 1000:.0f} ms")
        assert web_b.hub is not None and not web_b.hub.pages()
    finally:
        for db, _service, web, http in workers:
            await web.stop()
            await http.stop()
            await db.close()


async def test_the_pages_and_the_chats_share_one_listening_connection(pg_server: PgServer) -> None:
    """A worker's web pages and the chats it shows hear other workers' commits through
    one LISTEN connection: both listeners get every announcement, a listener that fails
    does not keep the other one uninformed, the connection stays while one listener is
    left and closes after the last."""
    url = pg_server.create()
    feed = PostgresChangeFeed(url)
    pages, chats = feed.subscription(), feed.subscription()
    heard: dict[str, list[TableChanged]] = {"pages": [], "chats": []}

    def failing(change: TableChanged) -> None:
        heard["pages"].append(change)
        raise RuntimeError("a page hub that fails")

    admin = await asyncpg.connect(url)
    try:

        async def listening() -> int:
            return int(
                await admin.fetchval(
                    "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'"
                )
            )

        async def announced(payload: str, count: int) -> None:
            await admin.execute("SELECT pg_notify('rummy_table_changes', $1)", payload)
            for _ in range(100):
                if len(heard["chats"]) >= count:
                    return
                await asyncio.sleep(0.05)

        await pages.start(failing)
        await chats.start(heard["chats"].append)
        assert await listening() == 1
        await announced("7:3", 1)
        assert heard == {"pages": [TableChanged(7, 3)], "chats": [TableChanged(7, 3)]}
        await pages.stop()
        assert await listening() == 1
        await announced("7:4", 2)
        assert heard["chats"] == [TableChanged(7, 3), TableChanged(7, 4)]
        assert heard["pages"] == [TableChanged(7, 3)]
        await chats.stop()
        for _ in range(50):
            if await listening() == 0:
                break
            await asyncio.sleep(0.05)
        assert await listening() == 0
    finally:
        await admin.close()
        await feed.stop()
