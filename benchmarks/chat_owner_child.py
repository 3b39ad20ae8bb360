"""The chat owner of :mod:`benchmarks.chat_owner`: a worker process on the PostgreSQL
database ``--url`` that opens ``--tables`` tables of two people (so it shows their chats)
and then shows, through its change feed and sweeps, what the other worker commits.

Every change it shows is written to ``--out`` as a JSON line ``[table id, version,
time.monotonic()]`` (one clock for every process of the machine). It prints ``ready`` and
the table ids as JSON once the tables are open, and stops at SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
import time
from pathlib import Path
from typing import TextIO

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.interaction.commands import request_of
from bot.ports.intents import InChat, Intent
from bot.ports.model import ChatKey, TableSettings, UserRef
from bot.ports.screens import CoachAdvice, TableFault, TableUpdate, TimerWarning
from bot.service.flow import FlowControl
from bot.service.service import GameService
from bot.storage.feed import PostgresChangeFeed
from bot.storage.postgres import PostgresRepository, open_postgres

PLATFORM = "bench"
SETTINGS = TableSettings(timer="off", ai_delay=0.0, next_deal_delay=0.0, call_window=0.0)


def people(n: int) -> tuple[UserRef, UserRef]:
    """The two people of table ``n`` (0-based)."""
    return (
        UserRef(PLATFORM, str(2 * n + 1), f"P{2 * n + 1}"),
        UserRef(PLATFORM, str(2 * n + 2), f"P{2 * n + 2}"),
    )


def chat(n: int) -> ChatKey:
    """The chat of table ``n``."""
    return ChatKey(PLATFORM, f"chat-{n}")


class Shown:
    """The owner's notifier for the bench platform: notes when each change was shown."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    async def publish(self, update: TableUpdate) -> None:
        self.out.write(json.dumps([update.info.id, update.info.version, time.monotonic()]) + "\n")
        self.out.flush()

    async def warn(self, warning: TimerWarning) -> None:
        pass

    async def fault(self, fault: TableFault) -> None:
        pass

    async def coach(self, advice: CoachAdvice) -> None:
        pass


async def main(url: str, tables: int, out: Path) -> None:
    db = await open_postgres(url, max_size=4)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    with out.open("w", encoding="utf-8") as sink:
        service = GameService(
            PostgresRepository(db),
            {PLATFORM: Shown(sink)},
            defaults=SETTINGS,
            seed_source=lambda: 7,
            worker_id="owner",
        )
        service.flow = FlowControl(limited=False)
        ids = []
        for n in range(tables):
            host, guest = people(n)
            for user, verb, args in (
                (host, "new", ("basic", "deals=50")),
                (guest, "join", ()),
                (host, "start", ()),
            ):
                outcome = await service.entry.handle(
                    Intent(request_of(verb, args), user, InChat(chat(n)))
                )
                if outcome.error is not None:
                    raise outcome.error
            assert outcome.info is not None
            ids.append(outcome.info.id)
        feed = PostgresChangeFeed(url)
        await feed.start(service.delivery.changed)
        print("ready", json.dumps(ids), flush=True)
        try:
            await service.run(stop)
        finally:
            await feed.stop()
            await db.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--tables", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    asyncio.run(main(args.url, args.tables, args.out))
