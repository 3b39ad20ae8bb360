"""Changes shown in their chats by one worker per chat (issue 35 items 2 and 8,
:mod:`bot.service.delivery`): several services on one PostgreSQL database, one clock.

Each service has a recording notifier for the tables' platform, standing for that worker's
chat adapter. Whoever commits, the chat's owner alone shows the change, in version order,
with the same recent lines (the stored change rows); a change whose worker died before it
was shown, and the chat of a worker whose lease ran out, are shown by another worker.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.ports.feed import TableChanged
from bot.ports.model import ChatKey, Status, TableSettings, UserRef
from bot.ports.screens import TableFault, TableUpdate, TimerWarning
from bot.service.clock import ManualClock
from bot.service.delivery import CHAT_LEASE_SECONDS, GRACE_SECONDS
from bot.service.flow import FlowControl
from bot.service.service import GameService
from bot.storage import open_database
from bot.storage.postgres import PostgresRepository, open_postgres
from bot.storage.repository import SqliteRepository
from engine.actions import Discard
from engine.commands import format_action
from engine.errors import WrongPhase
from engine.events import Discarded, Drew, TookDiscard
from engine.game import current_player, legal_actions
from tests.bot.people import People

SETTINGS = TableSettings(timer="off", ai_delay=0.0, next_deal_delay=0.0, call_window=0.0)
PLATFORM = "pg"
ANA = UserRef(PLATFORM, "1", "Ana")
BEN = UserRef(PLATFORM, "2", "Ben")


@dataclass
class Recorder:
    """A worker's chat notifier: every update it was given."""

    updates: list[TableUpdate] = field(default_factory=list)

    async def publish(self, update: TableUpdate) -> None:
        self.updates.append(update)

    async def warn(self, warning: TimerWarning) -> None:
        pass

    async def fault(self, fault: TableFault) -> None:
        pass

    def versions(self, table_id: int) -> list[int]:
        return [u.info.version for u in self.updates if u.info.id == table_id]


@dataclass
class Worker:
    service: GameService
    shown: Recorder
    people: People


async def _workers(url: str, count: int, clock: ManualClock) -> AsyncIterator[list[Worker]]:
    dbs, workers = [], []
    try:
        for n in range(count):
            db = await open_postgres(url, max_size=4)
            dbs.append(db)
            recorder = Recorder()
            service = GameService(
                PostgresRepository(db),
                {PLATFORM: recorder},
                clock=clock,
                defaults=SETTINGS,
                seed_source=lambda: 7,
                worker_id=f"w{n}",
            )
            service.flow = FlowControl(limited=False)
            workers.append(Worker(service, recorder, People(service)))
        yield workers
    finally:
        for db in dbs:
            await db.close()


@pytest.fixture
async def three(pg_server: Any) -> AsyncIterator[tuple[list[Worker], ManualClock]]:
    clock = ManualClock()
    async for workers in _workers(pg_server.create(), 3, clock):
        yield workers, clock


async def _game(worker: Worker, key: ChatKey) -> int:
    await worker.people.new_table(key, ANA, "basic", None, {"deals": 1})
    await worker.people.join(key, BEN)
    info = await worker.people.start(key, ANA)
    return info.id


async def _play(workers: list[Worker], key: ChatKey, moves: int) -> None:
    """``moves`` turns' worth of draw and discard, each move sent through the next worker
    in turn (as presses land on whichever worker takes the update)."""
    n = 0
    for _ in range(moves):
        for command in ("draw", None):
            worker = workers[n % len(workers)]
            n += 1
            table = await worker.service.repo.active_table(key)
            assert table is not None and table.state is not None
            seat = current_player(table.state)
            assert seat is not None
            user = (ANA, BEN)[seat]
            if command is None:
                discard = next(
                    a for a in legal_actions(table.state, seat) if isinstance(a, Discard)
                )
                command = format_action(discard)
            await worker.people.act(key, user, command)


async def test_one_worker_shows_a_chat_whoever_commits(
    three: tuple[list[Worker], ManualClock],
) -> None:
    """Moves committed by three workers are shown by the chat's owner only (the worker
    that showed it first), in version order, ending at the stored version."""
    workers, clock = three
    key = ChatKey(PLATFORM, "one")
    table_id = await _game(workers[0], key)
    await _play(workers, key, 4)
    for worker in workers:
        await worker.service.delivery.sweep()  # the owner's feed may be lost: the sweep
    clock.advance(GRACE_SECONDS + 0.5)
    for worker in workers:
        await worker.service.delivery.sweep()
    stored = await workers[0].service.repo.get_table(table_id)
    assert stored is not None
    owner = workers[0].shown.versions(table_id)
    assert workers[1].shown.versions(table_id) == [] == workers[2].shown.versions(table_id)
    assert owner == sorted(owner) and owner[-1] == stored.version
    last = workers[0].shown.updates[-1]
    assert [p.version for p in last.table.history] == sorted(p.version for p in last.table.history)
    assert last.table.history[-1].version == stored.version


async def test_the_recent_lines_are_the_stored_changes_in_version_order(
    three: tuple[list[Worker], ManualClock],
) -> None:
    """Every update the owner shows carries the last stored changes, oldest first, up to
    its own version, with their events: the lines read the same on any worker."""
    workers, clock = three
    key = ChatKey(PLATFORM, "lines")
    table_id = await _game(workers[0], key)
    await _play(workers, key, 3)
    clock.advance(GRACE_SECONDS + 0.5)
    await workers[0].service.delivery.sweep()
    for update in workers[0].shown.updates:
        versions = [p.version for p in update.table.history]
        assert versions == list(range(versions[0], update.info.version + 1))
    last = workers[0].shown.updates[-1]
    kinds = [type(e) for p in last.table.history for e in p.events]
    assert Drew in kinds and Discarded in kinds and TookDiscard not in kinds
    assert last.info.id == table_id


async def test_a_chat_whose_owner_stopped_answering_is_taken_and_drawn_again(
    three: tuple[list[Worker], ManualClock],
) -> None:
    """The owner dies (no renewals, no release): once its lease ran out, another worker's
    sweep takes the chat and draws the table at the stored version, with the turn ping of
    the turn that began while nobody showed the chat."""
    workers, clock = three
    key = ChatKey(PLATFORM, "dead")
    table_id = await _game(workers[0], key)
    before = len(workers[0].shown.updates)
    await _play(workers[1:], key, 1)  # worker 0 is dead: these wait for it
    table = await workers[2].service.repo.get_table(table_id)
    assert table is not None and table.state is not None
    await workers[2].people.act(key, (ANA, BEN)[current_player(table.state) or 0], "draw")
    assert len(workers[0].shown.updates) == before
    assert workers[1].shown.versions(table_id) == []
    clock.advance(CHAT_LEASE_SECONDS + 0.5)
    assert await workers[1].service.delivery.sweep() == 1
    stored = await workers[1].service.repo.get_table(table_id)
    assert stored is not None and stored.state is not None
    shown = workers[1].shown.updates[-1]
    assert shown.info.version == stored.version
    assert shown.turn == current_player(stored.state) and shown.turn_started < stored.version
    assert await workers[2].service.delivery.sweep() == 0  # the chat is worker 1's now
    assert workers[2].shown.versions(table_id) == []


async def test_a_change_whose_worker_died_before_showing_it_is_shown_by_another(
    three: tuple[list[Worker], ManualClock],
) -> None:
    """Worker 1 commits and dies before showing anything (a new chat: nobody owns it):
    after the grace period another worker's sweep takes the chat and shows the change."""
    workers, clock = three

    workers[1].service.delivery.publish = lambda update: _nothing()  # type: ignore[method-assign]
    key = ChatKey(PLATFORM, "orphan")
    await workers[1].people.new_table(key, ANA, "basic", None, {"deals": 1})
    table = await workers[1].service.repo.active_table(key)
    assert table is not None and table.status is Status.LOBBY
    assert await workers[2].service.delivery.sweep() == 0  # not yet: its worker may show it
    clock.advance(GRACE_SECONDS + 0.5)
    assert await workers[2].service.delivery.sweep() == 1
    assert workers[2].shown.versions(table.id) == [table.version]
    notices = [n.code for p in workers[2].shown.updates[-1].table.history for n in p.notices]
    assert notices == ["lobby_opened"]


async def _nothing() -> None:
    return None


async def test_a_turn_begun_between_the_owner_s_two_reads_is_pinged(
    three: tuple[list[Worker], ManualClock],
) -> None:
    """The owner catches up with another worker's draw; between its reads of the change
    rows and of the table, a third worker commits the discard that begins the next turn.
    The table drawn is at the discard's version, so that turn is pinged with it (found by
    the three-worker test: the draw's catch-up marked the discard shown, and the person
    waited for a ping that never came)."""
    workers, clock = three
    key = ChatKey(PLATFORM, "between")
    table_id = await _game(workers[0], key)  # worker 0 owns the chat
    owner = workers[0].service.delivery
    await _play(workers[1:2], key, 1)  # a whole turn: the owner sees it by the feed/sweep
    clock.advance(GRACE_SECONDS + 0.5)
    await owner.sweep()
    table = await workers[1].service.repo.get_table(table_id)
    assert table is not None and table.state is not None
    seat = current_player(table.state)
    user = (ANA, BEN)[seat]
    await workers[1].people.act(key, user, "draw")  # shown by the owner, later
    drawn_at = table.version + 1
    reads = owner.outbox.recent_changes
    discarded: list[int] = []

    async def rows_then_a_discard(table_id: int, limit: int) -> Any:
        found = await reads(table_id, limit)
        if not discarded:  # the discard lands just after the owner read the rows
            now = await workers[2].service.repo.get_table(table_id)
            assert now is not None and now.state is not None
            discard = next(a for a in legal_actions(now.state, seat) if isinstance(a, Discard))
            await workers[2].people.act(key, user, format_action(discard))
            discarded.append(drawn_at + 1)
        return found

    owner.outbox.recent_changes = rows_then_a_discard  # type: ignore[method-assign]
    assert await owner.catch_up(table_id)
    owner.outbox.recent_changes = reads  # type: ignore[method-assign]
    clock.advance(GRACE_SECONDS + 0.5)
    await owner.sweep()  # anything left unshown would be shown now
    stored = await workers[0].service.repo.get_table(table_id)
    assert stored is not None and stored.state is not None and discarded
    assert stored.version == discarded[0]
    next_seat = current_player(stored.state)
    assert next_seat is not None and next_seat != seat
    pinged = [
        u
        for u in workers[0].shown.updates
        if u.info.id == table_id and u.turn == next_seat and u.info.version > drawn_at
    ]
    assert [u.turn_started for u in pinged] == [stored.version]
    assert workers[0].shown.versions(table_id)[-1] == stored.version


async def _settled(worker: Worker) -> None:
    """Wait for the work the worker's delivery spawned (announcements, look-agains)."""
    tasks = list(worker.service.delivery._tasks)
    await asyncio.wait_for(asyncio.gather(*tasks), 10)


async def test_the_owner_shows_another_worker_s_change_at_once_and_ignores_its_own(
    three: tuple[list[Worker], ManualClock],
) -> None:
    """An announcement of another worker's change is shown at once (no waiting); the
    announcement of a change the owner committed itself costs nothing (it showed that
    change when it committed it: not one more read)."""
    workers, _clock = three
    key = ChatKey(PLATFORM, "announced")
    table_id = await _game(workers[0], key)
    owner = workers[0].service.delivery
    reads: list[int] = []
    recent = owner.outbox.recent_changes

    async def counted(table_id: int, limit: int) -> Any:
        reads.append(table_id)
        return await recent(table_id, limit)

    owner.outbox.recent_changes = counted  # type: ignore[method-assign]
    repo = workers[0].service.repo
    commit = repo.commit

    async def announced_at_once(table: Any, *args: Any, **kwargs: Any) -> None:
        await commit(table, *args, **kwargs)  # the feed may be faster than the publish:
        owner.changed(TableChanged(table.id, table.version))  # announced before it

    repo.commit = announced_at_once  # type: ignore[method-assign]
    await _play(workers[:1], key, 2)  # the owner's own moves: four commits
    repo.commit = commit  # type: ignore[method-assign]
    await _settled(workers[0])
    own = await repo.get_table(table_id)
    assert own is not None
    assert workers[0].shown.versions(table_id)[-4:] == list(range(own.version - 3, own.version + 1))
    assert len(reads) == 4  # the rows read by each publish, no more

    await _play(workers[1:2], key, 1)  # another worker's: announced to the owner
    other = await workers[1].service.repo.get_table(table_id)
    assert other is not None
    for version in range(own.version + 1, other.version + 1):
        owner.changed(TableChanged(table_id, version))
    await _settled(workers[0])
    assert workers[0].shown.versions(table_id)[-1] == other.version


async def test_a_commit_the_owner_lost_makes_it_show_the_change_that_won(
    three: tuple[list[Worker], ManualClock],
) -> None:
    """The owner and another worker draw for the same person at once; the other one wins.
    Its announcement reached the owner while the owner was committing that very version
    (so it was taken for the owner's own); the owner's draw is then refused, nothing of
    its own is shown, and it looks at the table again: the winner's change is shown
    without waiting for a sweep."""
    workers, _clock = three
    key = ChatKey(PLATFORM, "lost")
    table_id = await _game(workers[0], key)
    table = await workers[0].service.repo.get_table(table_id)
    assert table is not None and table.state is not None
    user = (ANA, BEN)[current_player(table.state)]
    repo = workers[0].service.repo
    commit = repo.commit
    announced: list[int] = []

    async def beaten(*args: Any, **kwargs: Any) -> None:
        if not announced:  # the other worker's draw lands first, and is announced
            await workers[1].people.act(key, user, "draw")
            won = await workers[1].service.repo.get_table(table_id)
            assert won is not None
            announced.append(won.version)
            workers[0].service.delivery.changed(TableChanged(table_id, won.version))
        await commit(*args, **kwargs)

    repo.commit = beaten  # type: ignore[method-assign]
    with pytest.raises(WrongPhase):  # a second draw in one turn
        await workers[0].people.act(key, user, "draw")
    repo.commit = commit  # type: ignore[method-assign]
    await _settled(workers[0])
    assert announced and workers[0].shown.versions(table_id)[-1] == announced[0]


async def test_one_worker_on_sqlite_shows_every_change_with_its_lines(tmp_path: Path) -> None:
    """With one worker (SQLite) every change is shown at once, and the recent lines are the
    stored changes up to the shown version."""
    db = await open_database(tmp_path / "one.sqlite3")
    try:
        recorder = Recorder()
        service = GameService(
            SqliteRepository(db),
            {PLATFORM: recorder},
            clock=ManualClock(),
            defaults=SETTINGS,
            seed_source=lambda: 7,
        )
        service.flow = FlowControl(limited=False)
        worker = Worker(service, recorder, People(service))
        key = ChatKey(PLATFORM, "solo")
        table_id = await _game(worker, key)
        await _play([worker], key, 2)
        stored = await service.repo.get_table(table_id)
        assert stored is not None
        assert recorder.versions(table_id) == list(range(1, stored.version + 1))
        for update in recorder.updates:
            assert update.table.history[-1].version == update.info.version
    finally:
        await db.close()


async def test_a_table_that_ended_while_its_chat_had_no_live_owner_is_drawn_at_its_end(
    three: tuple[list[Worker], ManualClock],
) -> None:
    """The owner showed the game (its changes are marked shown) and died before its last
    edits went out; the game is cancelled meanwhile: the worker that takes the chat draws
    the ended table (no active table is left to draw)."""
    workers, clock = three
    key = ChatKey(PLATFORM, "ended")
    table_id = await _game(workers[0], key)
    await workers[1].people.cancel(key, ANA)
    stored = await workers[1].service.repo.get_table(table_id)
    assert stored is not None and stored.status is Status.CANCELLED
    await workers[1].service.repo.outbox.mark_shown(table_id, stored.version, 32)  # "shown"
    clock.advance(CHAT_LEASE_SECONDS + 0.5)
    assert await workers[2].service.delivery.sweep() == 1
    assert workers[2].shown.versions(table_id) == [stored.version]
    assert workers[2].shown.updates[-1].info.status is Status.CANCELLED


async def test_a_taken_chat_is_drawn_with_its_open_turn_and_every_hand(
    three: tuple[list[Worker], ManualClock],
) -> None:
    """Everything was shown (marked) by the owner, which then died, maybe before its
    queued ping and hand messages went out: the worker that takes the chat draws every
    hand and the open turn, keyed by the version it began at (a ping that did go out is
    not sent twice: its key is marked sent)."""
    workers, clock = three
    key = ChatKey(PLATFORM, "marked")
    table_id = await _game(workers[0], key)
    await _play(workers[:1], key, 1)  # worker 0 owns the chat and shows everything
    table = await workers[0].service.repo.get_table(table_id)
    assert table is not None and table.state is not None
    began = workers[0].shown.updates[-1]
    assert began.turn is not None and began.info.version == table.version
    clock.advance(CHAT_LEASE_SECONDS + 0.5)
    assert await workers[1].service.delivery.sweep() == 1
    drawn = workers[1].shown.updates[-1]
    assert drawn.info.version == table.version and drawn.hands is None
    assert (drawn.turn, drawn.turn_started) == (began.turn, began.turn_started)


async def test_a_worker_without_the_platform_s_front_end_never_owns_its_chats(
    pg_server: Any,
) -> None:
    """A worker run without the chat's platform (no token: due work only) commits moves
    but leaves the chat to a worker that can show it: no lease, rows left unshown."""
    clock = ManualClock()
    url = pg_server.create()
    db = await open_postgres(url, max_size=2)
    try:
        service = GameService(
            PostgresRepository(db),
            {},
            clock=clock,
            defaults=SETTINGS,
            seed_source=lambda: 7,
            worker_id="headless",
        )
        service.flow = FlowControl(limited=False)
        key = ChatKey(PLATFORM, "headless")
        table_id = await _game(Worker(service, Recorder(), People(service)), key)
        clock.advance(CHAT_LEASE_SECONDS + GRACE_SECONDS)
        assert await service.delivery.sweep() == 0
        assert await service.repo.outbox.take_chat(str(key), "other", clock.now(), 1.0) == (
            True,
            False,
        )  # nobody held it
        rows = await service.repo.outbox.recent_changes(table_id, 10)
        assert rows and not any(row.shown for row in rows)
    finally:
        await db.close()


async def test_a_bot_restarted_on_sqlite_shows_its_chats_at_once(tmp_path: Path) -> None:
    """One process per SQLite file: a restarted bot (a new worker name) does not wait for
    the lease of the process before it; it takes the chat and draws it again."""
    path = tmp_path / "restart.sqlite3"
    key = ChatKey(PLATFORM, "restart")
    for run in range(2):
        db = await open_database(path)
        try:
            recorder = Recorder()
            service = GameService(
                SqliteRepository(db),
                {PLATFORM: recorder},
                clock=ManualClock(),
                defaults=SETTINGS,
                seed_source=lambda: 7,
                worker_id=f"run{run}",
            )
            service.flow = FlowControl(limited=False)
            worker = Worker(service, recorder, People(service))
            if run == 0:
                await _game(worker, key)
                continue  # the process ends without giving the chat up
            await _play([worker], key, 1)
            table = await service.repo.active_table(key)
            assert table is not None
            assert recorder.versions(table.id)[-1] == table.version
        finally:
            await db.close()


async def test_the_owner_s_own_change_redraws_the_hands_of_an_earlier_unshown_one(
    three: tuple[list[Worker], ManualClock],
) -> None:
    """Rows are drawn in version order, the owner's own commits included: another worker
    commits a discard that the owner has not shown yet (its announcement is late), then
    the owner commits the next player's draw. The owner's update shows both changes, so
    the discarder's hand is redrawn with it, not left showing the discarded card until
    that person's next change."""
    workers, _clock = three
    key = ChatKey(PLATFORM, "in-order")
    table_id = await _game(workers[0], key)  # worker 0 owns the chat
    table = await workers[0].service.repo.get_table(table_id)
    assert table is not None and table.state is not None
    discarder = current_player(table.state)
    assert discarder is not None
    user = (ANA, BEN)[discarder]
    await workers[0].people.act(key, user, "draw")
    drawn = await workers[0].service.repo.get_table(table_id)
    assert drawn is not None and drawn.state is not None
    discard = next(a for a in legal_actions(drawn.state, discarder) if isinstance(a, Discard))
    await workers[1].people.act(key, user, format_action(discard))  # not announced yet
    shown = workers[0].shown.versions(table_id)
    assert shown[-1] == drawn.version  # the owner has not shown the discard
    await workers[0].people.act(key, (ANA, BEN)[1 - discarder], "draw")
    last = workers[0].shown.updates[-1]
    assert last.info.version == drawn.version + 2
    assert last.hand_changed(discarder) and last.hand_changed(1 - discarder)
    assert [p.version for p in last.table.history][-2:] == [drawn.version + 1, last.info.version]


async def test_a_turn_begun_by_an_earlier_unshown_change_is_pinged_with_the_owner_s_own(
    three: tuple[list[Worker], ManualClock],
) -> None:
    """Another worker commits the discard that begins Ben's turn (its announcement is
    late); the owner then commits a change of a third person (Cem leaves: the AI plays his
    seat). Ben's turn is still open, so the owner's update pings him, keyed by the
    discard's version (a ping is sent once per turn)."""
    workers, _clock = three
    cem = UserRef(PLATFORM, "3", "Cem")
    key = ChatKey(PLATFORM, "ping-in-order")
    await workers[0].people.new_table(key, ANA, "basic", None, {"deals": 1})
    await workers[0].people.join(key, BEN)
    await workers[0].people.join(key, cem)
    table_id = (await workers[0].people.start(key, ANA)).id
    table = await workers[0].service.repo.get_table(table_id)
    assert table is not None and table.state is not None
    people = (ANA, BEN, cem)
    first = current_player(table.state)
    assert first is not None
    await workers[0].people.act(key, people[first], "draw")
    drawn = await workers[0].service.repo.get_table(table_id)
    assert drawn is not None and drawn.state is not None
    discard = next(a for a in legal_actions(drawn.state, first) if isinstance(a, Discard))
    await workers[1].people.act(key, people[first], format_action(discard))  # not announced
    after = await workers[1].service.repo.get_table(table_id)
    assert after is not None and after.state is not None
    waiting = current_player(after.state)
    assert waiting is not None and waiting != first
    third = next(s for s in range(3) if s not in (first, waiting))
    await workers[0].people.leave(key, people[third])
    last = workers[0].shown.updates[-1]
    assert last.info.version == after.version + 1
    assert (last.turn, last.turn_started) == (waiting, after.version)
