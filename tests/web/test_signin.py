"""Signing in to the web table and what is refused (the real aiohttp app and service):
forged or expired Telegram ``initData``, a session naming another person, a message for
another table, a press drawn for an old version (answered with the fresh view, nothing
applied); a spectator of a Telegram group sees the public table only; a Discord Activity
signs in through the Embedded App SDK (mocked in the page) and Discord's OAuth2 endpoints
(faked in tests/fakes/discord_activity.py)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import aiohttp
from playwright.async_api import Browser

from bot.interaction.commands import parse
from bot.ports.intents import InChat, Intent
from bot.ports.model import ChatKey, UserRef
from bot.web.auth.session import SessionSigner
from tests.fakes.discord_activity import FakeDiscordActivityApi
from tests.fakes.telegram import running_fake_telegram
from tests.web.driver import open_telegram_page, wait_screen
from tests.web.privacy import Reader, Views, check_frames
from tests.web.support import BOT_TOKEN, frames_until, init_data, web_config, web_world

ANA = UserRef("telegram", "601", "ana", "en")
BEN = UserRef("telegram", "602", "ben", "de")
EVE = UserRef("telegram", "603", "eve", "en")


async def session(
    http: aiohttp.ClientSession, base: str, data: str, table: int | None
) -> tuple[int, dict[str, Any]]:
    async with http.post(
        f"{base}/tg/api/session/telegram", json={"init_data": data, "table": table}
    ) as response:
        return response.status, await response.json()


async def test_forged_and_expired_init_data_are_refused(tmp_path: Path, browser: Browser) -> None:
    async with web_world(tmp_path / "web.sqlite3") as world, aiohttp.ClientSession() as http:
        info = await world.table(ANA, [BEN], "basic", ais=0)
        good = init_data(ANA)
        status, body = await session(http, world.base, good, info.id)
        assert status == 200 and body["table"] == info.id and body["seat"] == 0
        forged = good.replace("ana", "eve")  # a changed name: the hash no longer fits
        assert (await session(http, world.base, forged, info.id))[1]["error"] == "forged"
        other_bot = init_data(ANA, token="654321:another-bot")
        assert (await session(http, world.base, other_bot, info.id))[1]["error"] == "forged"
        old = init_data(ANA, auth_date=time.time() - 86400 - 60)
        status, body = await session(http, world.base, old, info.id)
        assert status == 401 and body["error"] == "expired"
        ahead = init_data(ANA, auth_date=time.time() + 3600)
        assert (await session(http, world.base, ahead, info.id))[1]["error"] == "expired"
        assert (await session(http, world.base, "user=1&hash=x&hash=y", info.id))[1][
            "error"
        ] == "malformed"
        # the page says so and opens no socket
        page = await open_telegram_page(browser, world.base, ANA, info.id, data=forged)
        try:
            await page.page.wait_for_selector("#status", timeout=10_000)
            await page.page.wait_for_function(
                "document.getElementById('status').textContent.includes('verified')"
            )
            assert not page.frames
        finally:
            await page.close()


async def test_a_session_is_one_person_at_one_table(tmp_path: Path) -> None:
    async with web_world(tmp_path / "web.sqlite3") as world, aiohttp.ClientSession() as http:
        info = await world.table(ANA, [BEN], "basic", ais=0)
        token = (await session(http, world.base, init_data(ANA), info.id))[1]["token"]
        # another person's session: the payload changed, the signature kept
        signer = SessionSigner(b"not the key")
        foreign = signer.issue(BEN, info.id).split(".")[0] + "." + token.split(".")[1]
        for bad in (foreign, token + "x", "", "a.b"):
            async with http.ws_connect(f"{world.base}/ws?token={bad}") as socket:
                frame = json.loads((await socket.receive(timeout=5)).data)
                assert frame == {"type": "error", "code": "session", "text": frame["text"]}
                assert (await socket.receive(timeout=5)).type in (
                    aiohttp.WSMsgType.CLOSE,
                    aiohttp.WSMsgType.CLOSED,
                    aiohttp.WSMsgType.CLOSING,
                )
            async with http.get(f"{world.base}/api/rules?token={bad}") as response:
                assert response.status == 401
        # the own session works; a message for another table is refused, nothing applied
        async with http.ws_connect(f"{world.base}/ws?token={token}") as socket:
            screen = (await frames_until(socket, "screen"))[-1]
            assert screen["seat"] == 0 and screen["hand"] is not None
            version = screen["version"]
            await socket.send_json(
                {
                    "type": "offer",
                    "table": info.id + 1,
                    "version": version,
                    "digest": screen["hand"]["digest"],
                    "selected": [],
                    "sort": "suit",
                    "offer": 0,
                    "id": "x1",
                }
            )
            refused = (await frames_until(socket, "error"))[-1]
            assert refused["code"] == "not_your_table"
            await socket.send_str("not json")
            assert (await frames_until(socket, "error"))[-1]["code"] == "bad_message"
            await socket.send_json({"type": "select", "table": info.id, "selected": [-1]})
            assert (await frames_until(socket, "error"))[-1]["code"] == "bad_message"
        after = await world.service.entry.table_by_id(info.id)
        assert after is not None and after.version == version


async def test_a_stale_press_gets_the_fresh_view_and_changes_nothing(tmp_path: Path) -> None:
    async with web_world(tmp_path / "web.sqlite3") as world, aiohttp.ClientSession() as http:
        info = await world.table(ANA, [BEN], "basic", ais=0)
        token = (await session(http, world.base, init_data(BEN), info.id))[1]["token"]
        async with http.ws_connect(f"{world.base}/ws?token={token}") as socket:
            screen = (await frames_until(socket, "screen"))[-1]
            old = screen["version"]
            mover = ANA if screen["public"]["current"] == 0 else BEN
            await world.say(mover, "draw")  # the table moves on in the chat
            fresh = (await frames_until(socket, "screen"))[-1]
            assert fresh["version"] == old + 1
            stored = await world.service.entry.table_by_id(info.id)
            assert stored is not None
            await socket.send_json(
                {
                    "type": "offer",
                    "table": info.id,
                    "version": old,
                    "digest": screen["hand"]["digest"],
                    "selected": [],
                    "sort": "suit",
                    "offer": 0,
                    "id": "stale-1",
                }
            )
            answer = await frames_until(socket, "reply")
            assert answer[-1]["ok"] is False and answer[-1]["code"] == "stale_control"
            again = [f for f in answer if f["type"] == "screen"]
            assert again and again[-1]["version"] == stored.version
        after = await world.service.entry.table_by_id(info.id)
        assert after is not None and after.version == stored.version


async def test_a_group_member_watches_the_public_table_only(
    tmp_path: Path, browser: Browser
) -> None:
    async with running_fake_telegram(BOT_TOKEN) as telegram:
        group = telegram.add_group(-1004242, "cards")
        for user in (ANA, BEN, EVE):
            telegram.add_user(int(user.user_id), user.name)
        group.members.add(int(EVE.user_id))
        config = web_config(telegram_api=f"http://127.0.0.1:{telegram.port}")
        async with web_world(tmp_path / "web.sqlite3", config) as world:
            key = ChatKey("telegram", "-1004242")
            info = await world.table(ANA, [BEN], "basic", ais=1, key=key)
            async with aiohttp.ClientSession() as http:
                stranger = UserRef("telegram", "604", "zed", "en")
                status, body = await session(http, world.base, init_data(stranger), info.id)
                assert status == 403 and body["error"] == "not_at_table"
                status, body = await session(http, world.base, init_data(EVE), info.id)
                assert status == 200 and body["seat"] is None
            eve = await open_telegram_page(browser, world.base, EVE, info.id, start_param=True)
            try:
                await wait_screen(eve.page)
                await eve.page.wait_for_selector(".spectator")
                assert await eve.page.locator(".hand-row").count() == 0
                moved = [
                    await world.service.entry.handle(Intent(parse("draw"), user, InChat(key)))
                    for user in (ANA, BEN)
                ]
                assert any(outcome.ok for outcome in moved)
                await asyncio.sleep(0.5)
            finally:
                await eve.close()
            views = Views(world.recorder.updates, info.id)
            assert check_frames(eve.frames, views, None, Reader("en")) > 0
            assert all(f.get("hand") is None for f in eve.frames)


SDK_MOCK = """
export class DiscordSDK {
  constructor(clientId) {
    this.clientId = clientId;
    this.instanceId = new URLSearchParams(location.search).get('instance_id');
    this.channelId = new URLSearchParams(location.search).get('channel_id');
    this.commands = {
      authorize: async (options) => {
        window.__authorized = options;
        return {code: window.__discordCode};
      },
      authenticate: async ({access_token}) => {
        window.__authenticated = access_token;
        return {user: {id: '9001'}, access_token};
      },
      getInstanceConnectedParticipants: async () => ({participants: window.__participants}),
    };
    window.__sdkEvents = {};
  }
  subscribe(event, listener) { window.__sdkEvents[event] = listener; }
  async ready() { window.__sdkReady = true; }
}
"""


async def test_a_discord_activity_signs_in_through_the_sdk(
    tmp_path: Path, browser: Browser
) -> None:
    fake = FakeDiscordActivityApi("4242", "app-secret", "bot-token")
    await fake.start()
    try:
        dan = UserRef("discord", "9001", "dan", "de")
        kim = UserRef("discord", "9002", "kim", "en")
        fake.users = {"9001": ("dan", "de"), "9002": ("kim", "en")}
        fake.instances = {"i-1": ("5555", ["9001", "9002"])}
        fake.codes = {"code-dan": "9001"}
        config = web_config(
            telegram_token=None,
            discord_token="bot-token",
            discord_client_id="4242",
            discord_client_secret="app-secret",
            discord_api=fake.base,
        )
        async with web_world(tmp_path / "web.sqlite3", config) as world:
            info = await world.table(dan, [kim], "basic", ais=0, key=ChatKey("discord", "5555"))
            assert info.seat_of(dan.key) is not None
            context = await browser.new_context(viewport={"width": 390, "height": 844})
            await context.route(
                "**/static/vendor/discord-sdk.js",
                lambda route: route.fulfill(body=SDK_MOCK, content_type="text/javascript"),
            )
            await context.add_init_script(
                "window.__discordCode = 'code-dan'; window.__participants = ["
                "{id: '9001', username: 'dan', global_name: null},"
                "{id: '9002', username: 'kim', global_name: 'Kim K.', nickname: 'Kimmy'}];"
            )
            page = await context.new_page()
            try:
                await page.goto(
                    f"{world.base}/dc/?frame_id=f1&instance_id=i-1"
                    "&channel_id=5555&guild_id=77&platform=desktop"
                )
                await wait_screen(page)
                await page.wait_for_selector(".hand-row .card")
                assert await page.evaluate("window.__authenticated") is not None
                authorized = await page.evaluate("window.__authorized")
                assert authorized["client_id"] == "4242" and authorized["scope"] == ["identify"]
                assert await page.get_attribute("html", "data-scheme") == "dark"
                assert await page.get_attribute("html", "lang") == "de"
                assert await page.locator(".hand-row .card").count() == 10
                # who is in the Activity, as the Discord client says, and when it changes
                await page.wait_for_selector("#participants li")
                names = "#participants li"
                assert await page.locator(names).all_inner_texts() == ["dan", "Kimmy"]
                heading = await page.inner_text("#participants h2")
                assert heading == "In dieser Aktivität (2)"
                await page.evaluate(
                    "window.__sdkEvents.ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE({participants: ["
                    "{id: '9001', username: 'dan'}, {id: '9003', username: 'eve',"
                    " global_name: 'Eve'}]})"
                )
                assert await page.locator(names).all_inner_texts() == ["dan", "Eve"]
            finally:
                await context.close()
            assert fake.calls == ["token", "me", "instance"]
            # a code used once is spent; someone outside the activity is refused
            async with aiohttp.ClientSession() as http:
                async with http.post(
                    f"{world.base}/dc/api/discord/token", json={"code": "code-dan"}
                ) as response:
                    assert response.status == 401
                fake.codes["code-eve"] = "9003"
                fake.users["9003"] = ("eve", "en")
                async with http.post(
                    f"{world.base}/dc/api/discord/token", json={"code": "code-eve"}
                ) as response:
                    token = (await response.json())["access_token"]
                async with http.post(
                    f"{world.base}/dc/api/session/discord",
                    json={"access_token": token, "instance_id": "i-1"},
                ) as response:
                    assert response.status == 403
                async with http.post(
                    f"{world.base}/dc/api/session/discord",
                    json={"access_token": token, "instance_id": "unknown"},
                ) as response:
                    assert response.status == 404
    finally:
        await fake.stop()


async def test_the_telegram_theme_colours_the_page(tmp_path: Path, browser: Browser) -> None:
    async with web_world(tmp_path / "web.sqlite3") as world:
        info = await world.table(ANA, [BEN], "basic", ais=0)
        page = await open_telegram_page(
            browser,
            world.base,
            ANA,
            info.id,
            theme={"bg_color": "#102030", "button_color": "#ff8800"},
        )
        try:
            await wait_screen(page.page)
            colours = await page.page.evaluate(
                "[getComputedStyle(document.body).backgroundColor,"
                " getComputedStyle(document.documentElement).getPropertyValue('--accent')]"
            )
            assert colours == ["rgb(16, 32, 48)", "#ff8800"]
            assert await page.page.evaluate("window.__tgReady && window.__tgExpanded")
        finally:
            await page.close()


async def test_the_page_stops_reconnecting_after_a_refused_session_and_says_why(
    tmp_path: Path, browser: Browser
) -> None:
    """Close code 4001 (the session was refused): the page used to try again every 10 s
    for ever; now it shows the server's reason and opens no further socket."""
    async with web_world(tmp_path / "web.sqlite3") as world:
        info = await world.table(ANA, [BEN], "basic", ais=0)
        page = await open_telegram_page(browser, world.base, ANA, info.id)
        sockets: list[str] = []
        page.page.on("websocket", lambda socket: sockets.append(socket.url))
        try:
            await wait_screen(page.page)
            routes = world.web.routes
            assert routes is not None
            routes.signer = SessionSigner(b"a new key: every old session is refused")
            for socket in list(routes.sockets):  # the worker restarts with another key
                await socket.close(code=1012, message=b"restart")
            await page.page.wait_for_function(
                "(document.getElementById('status') || {}).textContent?.includes('sign-in')",
                timeout=15_000,
            )
            text = await page.page.text_content("#status")
            assert text is not None and "open the table again from the chat" in text
            opened = len(sockets)
            assert opened >= 1  # the refused reconnect
            await asyncio.sleep(12)  # longer than the page's longest back-off (10 s)
            assert len(sockets) == opened  # no more
            assert not page.errors
        finally:
            await page.close()
