"""Support for game-service tests: a real SQLite file (or a PostgreSQL database), a manual
clock, a recording notifier."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.ports.model import ChatKey, TableInfo, TableSettings, UserRef
from bot.ports.screens import CoachAdvice, Notice, TableFault, TableUpdate, TimerWarning
from bot.service.clock import ManualClock
from bot.service.flow import FlowControl
from bot.service.repository import Repository
from bot.service.service import GameService
from bot.storage import open_database
from bot.storage.postgres import PostgresRepository, open_postgres
from bot.storage.repository import SqliteRepository
from engine.events import Event
from engine.views import PlayerView, PublicView
from tests.bot.people import People


@dataclass
class RecordingNotifier:
    """Records every notification: what each chat and each user was shown."""

    public: list[tuple[TableInfo, PublicView | None, tuple[Event, ...], tuple[Notice, ...]]] = (
        field(default_factory=list)
    )
    hands: list[tuple[str, int, PlayerView]] = field(default_factory=list)
    turns: list[tuple[str, int]] = field(default_factory=list)
    warnings: list[tuple[str, float]] = field(default_factory=list)
    updates: list[TableUpdate] = field(default_factory=list)
    faults: list[TableFault] = field(default_factory=list)
    coached: list[CoachAdvice] = field(default_factory=list)

    async def publish(self, update: TableUpdate) -> None:
        self.updates.append(update)
        table = update.table
        self.public.append((table.info, table.view, table.events, table.notices))
        for screen in update.seats:
            if update.hand_changed(screen.seat):
                self.hands.append((screen.user_key, screen.seat, screen.view))
        if update.turn is not None:
            seat = update.seat_screen(update.turn)
            assert seat is not None
            self.turns.append((seat.user_key, update.turn))

    async def warn(self, warning: TimerWarning) -> None:
        self.warnings.append((warning.user_key, warning.seconds_left))

    async def fault(self, fault: TableFault) -> None:
        self.faults.append(fault)

    async def coach(self, advice: CoachAdvice) -> None:
        self.coached.append(advice)

    def notice_codes(self) -> list[str]:
        return [n.code for *_, notices in self.public for n in notices]


@dataclass
class Harness:
    service: GameService
    people: People
    clock: ManualClock
    notifier: RecordingNotifier
    path: Path
    db: Any

    url: str | None = None

    async def raw(
        self, sql: str, params: Sequence[Any] = (), *, postgres: str | None = None
    ) -> None:
        """Run a raw statement on the stored rows behind the service's back (to damage a
        row, say); ``postgres``: the statement in PostgreSQL's dialect where it differs.
        The repository's decoded-table cache is dropped."""
        if self.url is None:
            await self.db.conn.execute(sql, params)
        else:
            await self.service.repo.execute_one(postgres or sql, params)  # type: ignore[attr-defined]
        self.service.repo._written.clear()  # type: ignore[attr-defined]

    async def reopen(self) -> Harness:
        """Close the database and start a new service on the same file or database (a
        restart)."""
        await self.db.close()
        return await make_harness(self.path, self.clock, self.url)


async def make_harness(
    path: Path, clock: ManualClock | None = None, url: str | None = None, seeded: bool = True
) -> Harness:
    """A service on the SQLite file ``path``, or on the PostgreSQL database ``url``.
    ``seeded``: games get the seeds 1000, 1001, ... and deal from them; else random seeds
    and fair keys, as the bot runs."""
    repo: Repository
    if url is None:
        db: Any = await open_database(path)
        repo = SqliteRepository(db)
    else:
        db = await open_postgres(url)
        repo = PostgresRepository(db)
    clock = clock or ManualClock()
    notifier = RecordingNotifier()
    counter = iter(range(1000, 10**9))
    service = GameService(
        repo,
        {"test": notifier},
        clock,
        TableSettings(timer="2m", ai_delay=1.0, next_deal_delay=2.0),
        seed_source=(lambda: next(counter)) if seeded else None,
    )
    # tests send faster than people do; flow control has tests of its own
    service.flow = FlowControl(user_rate=(10_000, 1.0), chat_rate=(10_000, 1.0))
    return Harness(service, People(service), clock, notifier, path, db, url)


CHAT = ChatKey("test", "chat1")
ANA = UserRef("test", "1", "ana", "en")
BEN = UserRef("test", "2", "ben", "de-DE")
CEM = UserRef("test", "3", "cem")
