"""The program the crash test runs and kills: ``python crash_worker.py DB SEED RUN``.

It opens the game service on ``DB`` (a SQLite file, or a ``postgresql://`` URL) and
keeps :data:`TABLES` tables busy at once (one asyncio task per chat,
``asyncio.gather``): on start it resumes every active table it finds in the database
(printing ``RESUME id version``) and creates a table only in a chat without one (also
after a game ended). Human seats are moved by this program with the greedy AI's choice
among the seat's legal actions, sent as text commands through :meth:`GameService.act`
with a fresh update key; AI seats and the next deal are moved by
:meth:`GameService.tick`. Every call that returned (the change is committed:
acknowledged) prints one line, flushed at once::

    ACK <table id> <version> <update key> <command>

``NEW <table id> <version>`` is printed for a created table, ``READY`` once every
chat has been looked at, and ``ERROR <text>`` (exit status 3) when a move that should
be legal is refused.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.ports.model import (  # noqa: E402
    ChatKey,
    SeatKind,
    Status,
    TableInfo,
    TableSettings,
    UserRef,
)
from bot.service.flow import FlowControl  # noqa: E402
from bot.service.model import Table  # noqa: E402
from bot.service.repository import Repository  # noqa: E402
from bot.service.service import GameService  # noqa: E402
from bot.storage import open_database  # noqa: E402
from bot.storage.postgres import PostgresRepository, open_postgres  # noqa: E402
from bot.storage.repository import SqliteRepository  # noqa: E402
from engine.ai import make_ai  # noqa: E402
from engine.commands import format_action  # noqa: E402
from engine.game import current_player, legal_actions  # noqa: E402
from engine.views import view_for  # noqa: E402
from tests.bot.people import People  # noqa: E402

TABLES = 6
PLATFORM = "crash"
#: No turn timer (no warnings, one log line per commit), no pauses between automatic steps.
SETTINGS = TableSettings(timer="off", ai_delay=0.0, next_deal_delay=0.0, call_window=0.0)
#: One deal per game so games end while the test runs.
OPTIONS = {"deals": 1}


def chat(index: int) -> ChatKey:
    """The chat of table ``index``."""
    return ChatKey(PLATFORM, f"chat{index}")


def players(index: int) -> tuple[list[UserRef], int]:
    """The human players of table ``index`` (host first) and its number of AI seats:
    2 or 3 seats, with and without an AI."""
    count = 3 if index % 3 == 0 else 2
    people = [UserRef(PLATFORM, f"{index}-{n}", f"p{index}{n}") for n in range(count)]
    return people, 1 if index % 2 == 0 and count == 2 else 0


class Worker:
    def __init__(self, service: GameService, seed: int, run: int) -> None:
        self.service = service
        service.flow = FlowControl(limited=False)  # the load is the test's, not a person's
        self.people = People(service)
        self.run = run
        self.rng = random.Random(seed * 1000 + run)
        self.counter = 0

    def key(self) -> str:
        self.counter += 1
        return f"r{self.run}-{self.counter}"

    @staticmethod
    def ack(info: TableInfo, update_key: str, command: str) -> None:
        print(f"ACK {info.id} {info.version} {update_key} {command}", flush=True)

    async def setup(self, index: int, table: Table | None) -> None:
        """One lobby step of table ``index``: create, seat the next player or AI, start."""
        key = chat(index)
        people, ais = players(index)
        if table is None:
            info = await self.people.new_table(key, people[0], "basic", None, OPTIONS, SETTINGS)
            print(f"NEW {info.id} {info.version}", flush=True)
            return
        for user in people:
            if table.seat_of(user.key) is None:
                update = self.key()
                self.ack(await self.people.join(key, user, update), update, "join")
                return
        if sum(s.kind is SeatKind.AI for s in table.seats) < ais:
            update = self.key()
            self.ack(
                await self.people.add_ai(key, people[0], "greedy", update), update, "addbot greedy"
            )
            return
        update = self.key()
        self.ack(await self.people.start(key, people[0], update), update, "start")

    async def play(self, index: int, stop: asyncio.Event) -> None:
        """Drive table ``index`` (and its successors in the chat) until ``stop``."""
        repo = self.service.repo
        people = {u.key: u for u in players(index)[0]}
        while not stop.is_set():
            table = await repo.active_table(chat(index))
            if table is None or table.status is Status.LOBBY:
                await self.setup(index, table)
                continue
            state = table.state
            assert state is not None
            seat = current_player(state)
            if seat is None or table.seats[seat].automated:
                await asyncio.sleep(0.002)  # the next deal or an AI move: tick() does it
                continue
            user = people[table.seats[seat].user or ""]
            ai = make_ai("greedy", seed=self.rng.randrange(2**31))
            action = ai.decide(view_for(state, seat), legal_actions(state, seat))
            command = format_action(action)
            update = self.key()
            try:
                info = await self.people.act(chat(index), user, command, update)
            except Exception as exc:
                print(f"ERROR table {table.id} v{table.version} {command}: {exc!r}", flush=True)
                os._exit(3)
            self.ack(info, update, command)

    async def tick(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            if not await self.service.tick():
                await asyncio.sleep(0.002)


async def main(path: str, seed: int, run: int) -> None:
    repo: Repository
    if path.startswith("postgresql://"):
        repo = PostgresRepository(await open_postgres(path, max_size=4))
    else:
        repo = SqliteRepository(await open_database(path))
    service = GameService(repo, worker_id="crash-worker")  # the restart is the same worker
    for index in range(TABLES):
        table = await service.repo.active_table(chat(index))
        if table is not None:
            print(f"RESUME {table.id} {table.version}", flush=True)
    print("READY", flush=True)
    worker = Worker(service, seed, run)
    stop = asyncio.Event()  # never set: the test kills this process
    await asyncio.gather(worker.tick(stop), *(worker.play(i, stop) for i in range(TABLES)))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
