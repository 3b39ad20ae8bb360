"""Concurrency: many simultaneous actions on many tables, and two services (two
processes' worth of connections) racing on one SQLite file.

Checked: each update key is applied at most once and its duplicates are answered as
duplicates; moves by the wrong player, by someone not seated and stale moves raise
their typed errors and change nothing; each table's versions go up by exactly one per
applied move with no gaps in the action log; every final state equals the replay of
its log; nothing deadlocks (everything runs under ``asyncio.wait_for`` with a generous
bound: a hang fails the test, it is not a timing assertion).
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.ports.model import ChatKey, Status, TableInfo, TableSettings, UserRef
from bot.service.clock import ManualClock
from bot.service.errors import NoTable, NotSeated, ServiceError, TableBusy
from bot.service.flow import FlowControl
from bot.service.model import Table
from bot.service.repository import LogEntry, VersionConflict
from bot.service.service import GameService
from bot.storage import open_database
from bot.storage.postgres import PostgresRepository, open_postgres
from bot.storage.repository import SqliteRepository
from engine.ai import make_ai
from engine.commands import format_action
from engine.errors import EngineError, IllegalMove, NotYourTurn
from engine.game import current_player, legal_actions
from engine.views import view_for
from tests.bot.people import People
from tests.bot.reliability.support import read_database, snapshot, table_problems

#: A hang fails the test after this long (the runs take a few seconds).
NO_DEADLOCK = 60.0
#: No turn timer: one action-log line per commit and no automatic steps in between.
SETTINGS = TableSettings(timer="off", ai_delay=0.0, next_deal_delay=0.0, call_window=0.0)
OUTSIDER = UserRef("load", "outsider", "zed")
#: How often the right move of a round is delivered with its one update key.
DELIVERIES = 16


class _Counting:
    """Counts the compare-and-set conflicts a repository reports."""

    conflicts = 0

    async def commit(
        self,
        table: Table,
        expected_version: int,
        log: Any = (),
        update_key: str | None = None,
        results: Any = (),
        record: str | None = None,
    ) -> None:
        try:
            await super().commit(
                table,
                expected_version,
                log,  # type: ignore[misc]
                update_key,
                results,
                record,
            )
        except VersionConflict:
            self.conflicts += 1
            raise


class CountingRepository(_Counting, SqliteRepository):
    """The SQLite repository, counting its compare-and-set conflicts."""


class CountingPgRepository(_Counting, PostgresRepository):
    """The PostgreSQL repository, counting its compare-and-set conflicts."""


async def open_service(
    path: Path | str, clock: ManualClock, first_seed: int = 1000
) -> tuple[GameService, Any]:
    """A service on the SQLite file ``path`` or the PostgreSQL database ``path`` (a URL),
    with its own connection(s), as a separate process would have."""
    repo: SqliteRepository
    if str(path).startswith("postgresql://"):
        db: Any = await open_postgres(str(path), max_size=4)
        repo = CountingPgRepository(db)
    else:
        db = await open_database(path)
        repo = CountingRepository(db)
    seeds = iter(range(first_seed, first_seed + 10**6))
    service = GameService(repo, clock=clock, defaults=SETTINGS, seed_source=lambda: next(seeds))
    service.flow = FlowControl(limited=False)  # the load is the test's, not a person's
    return service, db


def people(table: int, count: int) -> list[UserRef]:
    return [UserRef("load", f"{table}-{n}", f"p{table}-{n}") for n in range(count)]


async def open_table(
    service: GameService, key: ChatKey, users: list[UserRef], ais: int = 0, deals: int = 1
) -> TableInfo:
    await People(service).new_table(key, users[0], "basic", None, {"deals": deals})
    for user in users[1:]:
        await People(service).join(key, user, f"{key}:join:{user.user_id}")
    for n in range(ais):
        await People(service).add_ai(key, users[0], "greedy", f"{key}:ai:{n}")
    return await People(service).start(key, users[0], f"{key}:start")


@dataclass
class Move:
    """The move the table expects now: who, what, as which update."""

    key: ChatKey
    table_id: int
    version: int
    user: UserRef
    command: str
    update_key: str


def next_move(table: Table, users: dict[str, UserRef], rng: random.Random, update_key: str) -> Move:
    """The right player's legal move (the greedy AI's choice; ``next`` between deals, by
    any seated player)."""
    assert table.state is not None
    seat = current_player(table.state)
    if seat is None:
        user = users[rng.choice([s.user for s in table.seats if s.user is not None])]
        command = "next"
    else:
        user = users[table.seats[seat].user or ""]
        ai = make_ai("greedy", seed=rng.randrange(2**31))
        action = ai.decide(view_for(table.state, seat), legal_actions(table.state, seat))
        command = format_action(action)
    return Move(table.key, table.id, table.version, user, command, update_key)


async def test_hundreds_of_simultaneous_actions_on_eight_tables(tmp_path: Path) -> None:
    """8 tables of 3 players on one SQLite file; each round fires about 150 calls at
    once: for every table the right move 16 times with one update key, the same command
    by the wrong player and by an outsider, and the previous round's (stale) move with a
    new key, shuffled.

    Per round and table: exactly one application (version + 1, the log line at that
    version is the move, the key is recorded at that version), the wrong player gets
    ``NotYourTurn``, the outsider ``NotSeated`` (or, when the right move ran first and
    ended the turn's phase or the game, another ``IllegalMove`` / ``NoTable``), the stale
    move an ``IllegalMove`` (``ServiceError`` once the game is over), and no refused
    call records its key; at the end every table's log versions are 2..version and its
    state is the replay of its log. Duplicates of the applied update key are answered
    with the table (version at least the applied one), never refused.
    """
    clock = ManualClock()
    service, db = await open_service(tmp_path / "rummy.sqlite3", clock)
    rng = random.Random(7)
    tables = 8
    users = {u.key: u for t in range(tables) for u in people(t, 3)}
    keys = [ChatKey("load", f"chat{t}") for t in range(tables)]
    duplicate_answers: list[tuple[Move, Any]] = []
    calls = 0

    async def rounds() -> None:
        nonlocal calls
        infos = await asyncio.gather(
            *(open_table(service, keys[t], people(t, 3)) for t in range(tables))
        )
        ids = {info.key: info.id for info in infos}
        previous: dict[ChatKey, Move] = {}
        for number in range(70):
            moves: list[Move] = []
            for key in keys:
                table = await service.repo.get_table(ids[key])
                assert table is not None
                if table.status is Status.PLAYING:
                    moves.append(next_move(table, users, rng, f"{key}:{number}"))
            if not moves:
                break
            jobs: list[tuple[str, Move, Any]] = []
            act = People(service).act
            for move in moves:
                for _ in range(DELIVERIES):
                    jobs.append(
                        ("right", move, act(move.key, move.user, move.command, move.update_key))
                    )
                table = await service.repo.get_table(move.table_id)
                assert table is not None and table.state is not None
                seat = current_player(table.state)
                if seat is not None:
                    wrong = users[table.seats[(seat + 2) % 3].user or ""]
                    jobs.append(
                        (
                            "wrong",
                            move,
                            act(move.key, wrong, move.command, f"{move.update_key}:wrong"),
                        )
                    )
                jobs.append(
                    (
                        "outsider",
                        move,
                        act(move.key, OUTSIDER, move.command, f"{move.update_key}:outsider"),
                    )
                )
                if move.key in previous:
                    old = previous[move.key]
                    jobs.append(
                        (
                            "stale",
                            old,
                            act(old.key, old.user, old.command, f"{move.update_key}:stale"),
                        )
                    )
            rng.shuffle(jobs)
            answers = await asyncio.gather(*(job for _, _, job in jobs), return_exceptions=True)
            calls += len(jobs)
            snap = read_database(tmp_path / "rummy.sqlite3")
            for (kind, move, _), answer in zip(jobs, answers, strict=True):
                assert not isinstance(answer, BaseException) or isinstance(answer, EngineError), (
                    kind,
                    move,
                    answer,
                )
                # A refusal that ran after the right move may see the hand or game over.
                after = snap.tables[ids[move.key]]
                over = after.status is not Status.PLAYING
                turn_over = over or after.state is None or current_player(after.state) is None
                if kind == "right":
                    duplicate_answers.append((move, answer))
                elif kind == "wrong":
                    expected: Any = IllegalMove | NoTable if turn_over else NotYourTurn
                    assert isinstance(answer, expected), (move, answer)
                elif kind == "outsider":
                    expected = NotSeated | NoTable if over else NotSeated
                    assert isinstance(answer, expected), (move, answer)
                else:
                    assert isinstance(answer, IllegalMove | ServiceError), (move, answer)
            for move in moves:
                table = snap.tables[move.table_id]
                assert table.version == move.version + 1, (move, table.version)
                assert snap.seen[move.update_key] == (move.table_id, move.version + 1)
                line = [e for e in snap.logs[move.table_id] if e.version == table.version]
                assert [(e.command, e.actor) for e in line] == [(move.command, move.user.key)]
                for suffix in (":wrong", ":outsider", ":stale"):
                    assert move.update_key + suffix not in snap.seen
            previous = {move.key: move for move in moves}

    try:
        await asyncio.wait_for(rounds(), NO_DEADLOCK)
    finally:
        await db.close()
    snap = read_database(tmp_path / "rummy.sqlite3")
    assert snap.integrity == "ok"
    assert calls >= 2000
    assert sum(t.version for t in snap.tables.values()) >= tables * 50
    assert [p for t in snap.tables.values() for p in table_problems(t, snap.logs[t.id])] == []
    # versions strictly increasing: every applied key holds its own version of its table
    applied = Counter(snap.seen.values())
    assert all(n == 1 for n in applied.values())
    refused = [(m.command, a) for m, a in duplicate_answers if isinstance(a, BaseException)]
    kinds = Counter(type(a).__name__ for _, a in refused)
    assert refused == [], (
        f"{len(refused)} of {len(duplicate_answers)} deliveries of an "
        f"update key were refused instead of answered as duplicates "
        f"({dict(kinds)}), e.g. {refused[:2]}"
    )
    for move, answer in duplicate_answers:
        assert answer.id == move.table_id and answer.version >= move.version + 1


async def test_a_duplicate_delivered_while_the_first_is_in_flight_is_not_refused(
    tmp_path: Path,
) -> None:
    """Two deliveries of one update (same update key) at the same moment: the move is
    applied once and both are answered with the table, as a late duplicate is
    (``test_duplicate_delivery_is_applied_once``); the second is not refused with the
    error of applying the move a second time (``WrongPhase: you have already drawn``)."""
    clock = ManualClock()
    service, db = await open_service(tmp_path / "rummy.sqlite3", clock)
    try:
        key = ChatKey("load", "dup")
        users = people(0, 2)
        info = await open_table(service, key, users)
        table = await service.repo.get_table(info.id)
        assert table is not None and table.state is not None
        mover = users[0] if table.seats[table.state.current].user == users[0].key else users[1]
        answers = await asyncio.wait_for(
            asyncio.gather(
                People(service).act(key, mover, "draw", "telegram:update:1"),
                People(service).act(key, mover, "draw", "telegram:update:1"),
                return_exceptions=True,
            ),
            NO_DEADLOCK,
        )
        after = await service.repo.get_table(info.id)
        assert after is not None and after.version == table.version + 1
        late = await People(service).act(key, mover, "draw", "telegram:update:1")
        assert late.version == after.version
        assert [type(a).__name__ for a in answers] == ["TableInfo", "TableInfo"], answers
    finally:
        await db.close()


async def test_a_late_duplicate_of_the_last_move_is_answered_with_the_ended_game(
    tmp_path: Path,
) -> None:
    """A redelivery (same update key) of the move that ended the game, after the game
    ended: nothing is applied and it is answered with the finished table, like any other
    late duplicate, not refused with ``NoTable`` ("there is no game here")."""
    clock = ManualClock()
    service, db = await open_service(tmp_path / "rummy.sqlite3", clock)
    try:
        key = ChatKey("load", "last")
        users = people(0, 2)
        lookup = {u.key: u for u in users}
        info = await open_table(service, key, users)
        rng = random.Random(5)
        last: Move | None = None
        for number in range(1000):
            table = await service.repo.get_table(info.id)
            assert table is not None
            if table.status is not Status.PLAYING:
                break
            last = next_move(table, lookup, rng, f"last:{number}")
            await People(service).act(key, last.user, last.command, last.update_key)
        assert last is not None
        ended = await service.repo.get_table(info.id)
        assert ended is not None and ended.status is Status.FINISHED
        answer = await asyncio.wait_for(
            asyncio.gather(
                People(service).act(key, last.user, last.command, last.update_key),
                return_exceptions=True,
            ),
            NO_DEADLOCK,
        )
        assert await service.repo.get_table(info.id) == ended
        assert isinstance(answer[0], TableInfo), answer[0]
        assert (answer[0].id, answer[0].version, answer[0].status) == (
            ended.id,
            ended.version,
            Status.FINISHED,
        )
    finally:
        await db.close()


async def test_compare_and_set_lets_exactly_one_writer_win(tmp_path: Path) -> None:
    """Two repositories (two connections) load the same version and commit different
    successors: exactly one commit wins, the other raises ``VersionConflict`` and
    stores nothing (not its log line, not its update key)."""
    clock = ManualClock()
    service, db = await open_service(tmp_path / "rummy.sqlite3", clock)
    other_db = await open_database(tmp_path / "rummy.sqlite3")
    try:
        users = people(0, 2)
        info = await open_table(service, ChatKey("load", "cas"), users)
        repos = [service.repo, SqliteRepository(other_db)]
        for round_ in range(20):
            loaded = [await repo.get_table(info.id) for repo in repos]
            assert loaded[0] == loaded[1] and loaded[0] is not None
            base = loaded[0]
            outcomes = await asyncio.gather(
                *(
                    repo.commit(
                        Table(
                            **{
                                **_fields(base),
                                "version": base.version + 1,
                                "updated_at": base.updated_at + 1 + n,
                            }
                        ),
                        base.version,
                        [LogEntry(base.version + 1, None, f"note {n}", "t")],
                        f"cas:{round_}:{n}",
                        [],
                    )
                    for n, repo in enumerate(repos)
                ),
                return_exceptions=True,
            )
            winners = [n for n, o in enumerate(outcomes) if o is None]
            assert len(winners) == 1, outcomes
            loser = 1 - winners[0]
            assert isinstance(outcomes[loser], VersionConflict)
            snap = read_database(tmp_path / "rummy.sqlite3")
            assert snap.tables[info.id].version == base.version + 1
            assert [e.command for e in snap.logs[info.id] if e.version == base.version + 1] == [
                f"note {winners[0]}"
            ]
            assert f"cas:{round_}:{loser}" not in snap.seen
    finally:
        await other_db.close()
        await db.close()


def _fields(table: Table) -> dict[str, Any]:
    return {name: getattr(table, name) for name in Table.__dataclass_fields__}


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_two_services_on_one_file_race_on_one_table(
    tmp_path: Path, backend: str, request: pytest.FixtureRequest
) -> None:
    """Two GameService instances with their own connections (what two bot processes
    would be) receive the same click at once, twice each with distinct update keys, while
    both run the AI seats' ``tick``: every round exactly one click is applied (version +
    1, one log line, one recorded key), the others get a typed error (an ``IllegalMove``
    after re-reading, or ``VersionConflict`` when the retries ran out), and at the end the
    log replays to the stored state. Version races really happened (conflicts > 0). On one
    SQLite file and on one PostgreSQL database (each service its own pool)."""
    path: Path | str = tmp_path / "rummy.sqlite3"
    if backend == "postgres":
        path = request.getfixturevalue("pg_server").create("race")
    clock = ManualClock()
    first, db1 = await open_service(path, clock)
    second, db2 = await open_service(path, clock, first_seed=5000)
    rng = random.Random(3)
    losses: Counter[str] = Counter()
    try:
        users = people(0, 2)
        lookup = {u.key: u for u in users}
        info = await open_table(first, ChatKey("load", "race"), users, ais=1, deals=3)

        async def play() -> int:
            rounds = 0
            for number in range(300):
                # a tick that lost its version race RETRIES times raises TableBusy (a
                # localized "try again"; GameService.run logs it and ticks again)
                ticks = await asyncio.gather(first.tick(), second.tick(), return_exceptions=True)
                for tick in ticks:
                    if isinstance(tick, BaseException):
                        assert isinstance(tick, TableBusy), tick
                        losses["tick"] += 1
                table = await first.repo.get_table(info.id)
                assert table is not None
                if table.status is not Status.PLAYING:
                    break
                assert table.state is not None
                seat = current_player(table.state)
                if seat is not None and table.seats[seat].automated:
                    continue  # not due yet (the other service's tick moved it): next tick
                move = next_move(table, lookup, rng, f"race:{number}")
                services = [first, second, first, second]
                answers = await asyncio.gather(
                    *(
                        People(s).act(move.key, move.user, move.command, f"{move.update_key}:{n}")
                        for n, s in enumerate(services)
                    ),
                    return_exceptions=True,
                )
                won = [n for n, a in enumerate(answers) if isinstance(a, TableInfo)]
                assert len(won) == 1, answers
                snap = await snapshot(path)
                after = snap.tables[info.id]
                # after the winning click ended the game there is no table to play at
                refusal: Any = IllegalMove | TableBusy
                if after.status is not Status.PLAYING:
                    refusal = refusal | NoTable
                for n, answer in enumerate(answers):
                    if n != won[0]:
                        assert isinstance(answer, refusal), answer
                        losses[type(answer).__name__] += 1
                applied = [k for k in snap.seen if k.startswith(move.update_key + ":")]
                assert applied == [f"{move.update_key}:{won[0]}"]
                assert snap.seen[applied[0]][1] == answers[won[0]].version  # type: ignore
                line = [e for e in snap.logs[info.id] if e.version == answers[won[0]].version]  # type: ignore[union-attr]
                assert [e.command for e in line] == [move.command]
                assert after.version >= table.version + 1
                rounds += 1
            return rounds

        rounds = await asyncio.wait_for(play(), NO_DEADLOCK)
        snap = await snapshot(path)
        table = snap.tables[info.id]
        assert snap.integrity == "ok"
        assert table_problems(table, snap.logs[info.id]) == []
        assert rounds >= 20
        assert table.status is Status.FINISHED, "the game did not end"
        ai_moves = [e for e in snap.logs[info.id] if e.actor == "ai"]
        assert ai_moves, "the AI seat never moved"
        conflicts = first.repo.conflicts + second.repo.conflicts  # type: ignore[attr-defined]
        assert conflicts > 0, "the two services never raced"
        assert sum(n for kind, n in losses.items() if kind != "tick") == 3 * rounds
        print(f"{rounds} rounds, {conflicts} version conflicts, losers: {dict(losses)}")
    finally:
        await db1.close()
        await db2.close()
