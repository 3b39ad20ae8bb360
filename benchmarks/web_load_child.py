"""The bot's web surface under a descriptor limit, for :mod:`benchmarks.web_load`: the
real service on a temporary SQLite file, the HTTP server and the web front end on
loopback, in a process whose ``RLIMIT_NOFILE`` soft limit is ``--descriptors`` (1,024,
the usual default), while another process attacks it.

Prints one JSON line when it is ready: ``{"port", "token", "table"}`` (a valid page
session of a seated person). Meanwhile another table's ``hand`` command is sent through
the entry point every 20 ms, its latency recorded. Each line ``stats`` on stdin prints
one JSON line: the latencies' p50/p99/max (ms) since the last ``stats``, the
connections open and refused, the descriptors and the resident memory now; ``quit``
ends it. Log records go to stderr (level INFO) as the bot writes them, so the driver can
count them.

Runs as a script (``python benchmarks/web_load_child.py --descriptors 1024``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TOKEN = "123456:bench-load-token"


def _rss_kb() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    if not ordered:
        return 0.0
    index = min(round(q / 100 * (len(ordered) - 1)), len(ordered) - 1)
    return ordered[index]


async def main(args: argparse.Namespace) -> None:
    from bot.http import HttpLimits, HttpServer
    from bot.interaction.commands import parse
    from bot.ports.intents import InChat, Intent
    from bot.ports.model import ChatKey, TableSettings, UserRef
    from bot.service.flow import FlowControl
    from bot.service.service import GameService
    from bot.storage import open_database
    from bot.storage.repository import SqliteRepository
    from bot.web import WebConfig, WebFrontEnd

    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "load.sqlite3")
        service = GameService(
            SqliteRepository(db),
            defaults=TableSettings(timer="off"),
            seed_source=iter(range(1, 10**9)).__next__,
        )
        service.flow = FlowControl(user_rate=(10_000, 1.0), chat_rate=(10_000, 1.0))
        web = WebFrontEnd(
            WebConfig(
                "https://bench.invalid", telegram_token=TOKEN, sockets_per_session=args.per_session
            )
        )
        service.register(web.platform, web.notifier, web.every_platform)
        http = HttpServer(
            "127.0.0.1",
            0,
            HttpLimits(per_address=args.per_address, header_timeout=args.header_timeout),
        )
        await http.start()
        await web.start(service.host(http))
        stop = asyncio.Event()
        background = asyncio.create_task(service.run(stop, max_sleep=0.2))
        people = [UserRef("telegram", str(900 + n), f"P{n}", "en") for n in range(4)]
        tables = []
        for n, key in enumerate((ChatKey("telegram", "-100"), ChatKey("telegram", "-200"))):
            host, guest = people[2 * n], people[2 * n + 1]
            for user, text in ((host, "new basic"), (guest, "join"), (host, "start")):
                outcome = await service.entry.handle(Intent(parse(text), user, InChat(key)))
                assert outcome.ok, outcome.reply.text
            assert outcome.info is not None
            tables.append((outcome.info, key, host))
        info, _key, host = tables[0]
        assert web.routes is not None
        token = web.routes.signer.issue(host, info.id)
        latencies: list[float] = []

        async def other_table() -> None:
            _info, key, user = tables[1]
            while not stop.is_set():
                started = time.perf_counter()
                await service.entry.handle(Intent(parse("hand"), user, InChat(key)))
                latencies.append(time.perf_counter() - started)
                await asyncio.sleep(0.02)

        lags: list[float] = []

        async def lag() -> None:  # how late a 10 ms sleep wakes: the event loop's lag
            while not stop.is_set():
                started = time.perf_counter()
                await asyncio.sleep(0.01)
                lags.append(time.perf_counter() - started - 0.01)

        ticker = asyncio.create_task(other_table())
        lagger = asyncio.create_task(lag())
        print(
            json.dumps(
                {
                    "port": http.port,
                    "token": token,
                    "table": info.id,
                    "max_connections": http.max_connections,
                }
            ),
            flush=True,
        )
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        try:
            while True:
                line = (await reader.readline()).decode().strip()
                if line in ("", "quit"):
                    break
                taken, latencies[:] = list(latencies), []
                lagged, lags[:] = list(lags), []
                stats: dict[str, Any] = {
                    "p50_ms": _percentile(taken, 50) * 1000,
                    "p99_ms": _percentile(taken, 99) * 1000,
                    "max_ms": max(taken, default=0.0) * 1000,
                    "commands": len(taken),
                    "lag_max_ms": max(lagged, default=0.0) * 1000,
                    "descriptors": len(os.listdir("/proc/self/fd")),
                    "rss_kb": _rss_kb(),
                    "sockets": len(web.routes.sockets),
                    **http.stats(),
                }
                print(json.dumps(stats), flush=True)
        finally:
            stop.set()
            ticker.cancel()
            lagger.cancel()
            await web.stop()
            await http.stop()
            await asyncio.wait_for(background, 10)
            await db.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--descriptors", type=int, default=1024)
    parser.add_argument("--per-address", type=int, default=0)
    parser.add_argument("--per-session", type=int, default=4)
    parser.add_argument("--header-timeout", type=float, default=10.0)
    arguments = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (arguments.descriptors, hard))
    logging.basicConfig(
        level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s"
    )
    asyncio.run(main(arguments))
