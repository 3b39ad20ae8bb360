"""One press on a web page, counted over the pages' WebSockets (the real service and HTTP
server on loopback): the presser's page gets its new screen once, after nothing else of
that change, and the other player's page gets it once; a refused press gets the refusal
and the fresh screen on the presser's page only."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiohttp

from bot.ports.model import UserRef
from tests.web.support import frames_until, web_world

ANA = UserRef("telegram", "911", "Ana", "en")
BEN = UserRef("telegram", "912", "Ben", "en")


async def drain(
    socket: aiohttp.ClientWebSocketResponse, quiet: float = 0.4
) -> list[dict[str, Any]]:
    """Every frame that arrives until none came for ``quiet`` seconds."""
    frames = []
    while True:
        try:
            message = await socket.receive(timeout=quiet)
        except TimeoutError:
            return frames
        assert message.type is aiohttp.WSMsgType.TEXT, message
        frames.append(json.loads(message.data))


def offer(
    table: int, version: int, hand: dict[str, Any], number: int, press: str
) -> dict[str, Any]:
    """The page's message for pressing offer ``number`` of ``hand`` at ``version``."""
    return {
        "type": "offer",
        "table": table,
        "version": version,
        "digest": hand["digest"],
        "selected": [],
        "sort": hand["sort"],
        "offer": number,
        "id": press,
    }


async def test_a_press_draws_each_page_once_per_version_the_pressers_first(
    tmp_path: Path,
) -> None:
    async with web_world(tmp_path / "web.sqlite3") as world, aiohttp.ClientSession() as http:
        info = await world.table(ANA, [BEN], "basic", ais=0)
        assert world.web.routes is not None
        sockets = {}
        screens = {}
        for user in (ANA, BEN):
            token = world.web.routes.signer.issue(user, info.id)
            sockets[user.key] = await http.ws_connect(f"{world.base}/ws?token={token}")
            screens[user.key] = (await frames_until(sockets[user.key], "screen"))[-1]
        await asyncio.sleep(0.3)
        for socket in sockets.values():
            await drain(socket)
        current = screens[ANA.key]["public"]["current"]
        presser, other = (ANA, BEN) if current == 0 else (BEN, ANA)
        screen = screens[presser.key]
        for socket in sockets.values():  # the newest screens after the drain
            await socket.send_json({"type": "refresh", "table": info.id})
        for key, socket in sockets.items():
            screens[key] = (await frames_until(socket, "screen"))[-1]
        screen = screens[presser.key]
        hand = screen["hand"]
        draw = next(i for i, o in enumerate(hand["offers"]) if o["label"].startswith("Draw"))
        version = screen["version"]

        await sockets[presser.key].send_json(offer(info.id, version, hand, draw, "press-1"))
        own = await drain(sockets[presser.key])
        theirs = await drain(sockets[other.key])
        own_screens = [f for f in own if f["type"] == "screen"]
        their_screens = [f for f in theirs if f["type"] == "screen"]
        assert [f["version"] for f in own_screens] == [version + 1], own
        assert [f["version"] for f in their_screens] == [version + 1], theirs
        assert not [f for f in own if f["type"] == "reply" and not f["ok"]], own

        # the same press again (its screen is stale now): refused on the presser's page
        # with the fresh screen, nothing on the other's
        await sockets[presser.key].send_json(offer(info.id, version, hand, draw, "press-2"))
        own = await drain(sockets[presser.key])
        theirs = await drain(sockets[other.key])
        refusals = [f for f in own if f["type"] == "reply" and not f["ok"]]
        assert len(refusals) == 1 and refusals[0]["text"], own
        assert [f["version"] for f in own if f["type"] == "screen"] == [version + 1], own
        assert theirs == []
        for socket in sockets.values():
            await socket.close()
