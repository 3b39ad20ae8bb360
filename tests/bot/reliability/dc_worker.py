"""One bot worker with the Discord adapter for the several-workers tests:
``python dc_worker.py DATABASE_URL API_BASE GATEWAY_URL WORKER_ID SHARD_COUNT SHARD_IDS``
(``SHARD_IDS`` comma separated).

It runs :func:`bot.runner.run_bot` (the game service, its scheduler, the Discord adapter
on the shards ``SHARD_IDS`` of ``SHARD_COUNT``) on the PostgreSQL database, against the
(fake) Discord whose REST base is ``API_BASE`` (``http://127.0.0.1:PORT/api/v10``) and
whose gateway is ``GATEWAY_URL``, under ``WORKER_ID``, like one of several
``rummy-bot run`` processes sharing one database. It prints ``READY`` once the adapter
is connected and its commands synced, and stops on SIGTERM.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import discord.gateway  # noqa: E402
import discord.http  # noqa: E402
import yarl  # noqa: E402

from bot.discord_bot import DiscordAdapter  # noqa: E402
from bot.settings import Settings  # noqa: E402
from tests.bot.reliability.support import run_worker  # noqa: E402
from tests.fakes.discord.server import DEFAULT_TOKEN  # noqa: E402


async def main(
    url: str, api_base: str, gateway_url: str, worker_id: str, count: str, shard_ids: str
) -> None:
    # what point_discord_py_at does in the test process
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    settings = Settings(
        database_url=url,
        discord_token=DEFAULT_TOKEN,
        worker_id=worker_id,
        discord_shard_count=int(count),
        discord_shard_ids=tuple(int(s) for s in shard_ids.split(",")),
        engine_workers=1,
    )
    adapter = DiscordAdapter(settings, guild_ready_timeout=0.5)

    await run_worker(settings, adapter, lambda: getattr(adapter, "_supervisor", None) is not None)


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:7]))
