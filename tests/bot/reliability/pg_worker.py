"""A bot worker without platforms for the PostgreSQL tests: ``python pg_worker.py URL``.

It opens the game service on the PostgreSQL database ``URL`` and runs its scheduler (AI
moves, autopilot turns, next deals of every table that is due, whoever created it) until
it is killed, like one of several ``rummy-bot run`` processes sharing one database (with
the database's clock, as they have). It prints ``READY`` once the loop runs.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.service.service import GameService  # noqa: E402
from bot.storage.postgres import DatabaseClock, PostgresRepository, open_postgres  # noqa: E402


async def main(url: str) -> None:
    db = await open_postgres(url, max_size=4)
    service = GameService(PostgresRepository(db), clock=DatabaseClock(db.pool))
    stop = asyncio.Event()
    print("READY", flush=True)
    try:
        await service.run(stop, max_sleep=0.2)
    finally:
        await db.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
