"""One bot worker with the Telegram adapter for the several-workers tests:
``python tg_worker.py DATABASE_URL BASE_URL WORKER_ID``.

It runs :func:`bot.runner.run_bot` (the game service, its scheduler, the Telegram adapter
long-polling when it holds the polling role) on the PostgreSQL database, against the
(fake) Bot API server at ``BASE_URL``, under ``WORKER_ID``, like one of several
``rummy-bot run`` processes sharing one database. It prints ``READY`` once the adapter
runs, and stops on SIGTERM.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from telegram.ext import AIORateLimiter  # noqa: E402

from bot.settings import Settings  # noqa: E402
from bot.telegram_bot import TelegramAdapter  # noqa: E402
from tests.bot.reliability.support import run_worker  # noqa: E402
from tests.fakes.telegram import DEFAULT_TOKEN  # noqa: E402


async def main(url: str, base_url: str, worker_id: str) -> None:
    adapter = TelegramAdapter(
        DEFAULT_TOKEN,
        base_url=base_url,
        base_file_url=base_url.replace("/bot", "/file/bot"),
        rate_limiter=AIORateLimiter(overall_max_rate=0, group_max_rate=0),
        poll_timeout=1,
        watch_every=0.5,
        group_budget=0,
    )  # people here move far faster than 20 calls a
    # minute allow: at the limit a ping whose turn is over is dropped by design (the
    # shared group budget is checked by tests/bot/telegram/test_group_limits.py)
    settings = Settings(
        database_url=url, telegram_token=DEFAULT_TOKEN, worker_id=worker_id, engine_workers=1
    )

    await run_worker(
        settings, adapter, lambda: adapter.handlers is not None and adapter.app.running
    )


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
