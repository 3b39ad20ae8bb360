"""The program the stop test runs: ``python stop_worker.py DB_PATH create N`` stores N
busy AI tables (every seat moved by the AI, no pauses, so every table is always due);
``python stop_worker.py DB_PATH run`` runs the bot on them (:func:`bot.runner.run_bot`
with no chat platform, engine work in the worker pool) and prints ``RUNNING`` once it
is up, until SIGTERM stops it."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.ports.model import TableSettings  # noqa: E402
from bot.runner import run_bot  # noqa: E402
from bot.service.service import GameService  # noqa: E402
from bot.settings import Settings  # noqa: E402
from bot.storage import open_database  # noqa: E402
from bot.storage.repository import SqliteRepository  # noqa: E402
from tests.bot.people import People  # noqa: E402

BUSY = TableSettings(timer="off", ai_delay=0.0, next_deal_delay=0.0, call_window=0.0)


async def create(path: Path, count: int) -> None:
    db = await open_database(path)
    try:
        service = GameService(
            SqliteRepository(db), defaults=BUSY, seed_source=iter(range(1, 10**9)).__next__
        )
        await People(service).busy_ai_tables("stop", count)
    finally:
        await db.close()
    print("CREATED", flush=True)


async def run(path: Path) -> None:
    async def announce() -> None:
        await asyncio.sleep(0.5)
        print("RUNNING", flush=True)

    task = asyncio.ensure_future(announce())
    await run_bot(Settings(database_path=path, engine_workers=2), adapters=[])
    task.cancel()
    print("STOPPED", flush=True)


if __name__ == "__main__":
    db_path = Path(sys.argv[1])
    if sys.argv[2] == "create":
        asyncio.run(create(db_path, int(sys.argv[3])))
    else:
        asyncio.run(run(db_path))
