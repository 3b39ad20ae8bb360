"""Skill ratings in the database (bot/storage/ratings_store.py), on SQLite and PostgreSQL:
a finished game's commit rates it once, seasons, and `ratings rebuild` gives the ratings
the games gave (again and again)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from bot.ports.model import ChatKey, Seat, SeatKind, Status, TableSettings
from bot.ports.table_rules import AI_LEVELS
from bot.service.changes import result_rows
from bot.service.errors import SeasonStillEmpty
from bot.service.model import Table
from bot.service.ratings import NEW, rate_game
from bot.service.repository import ResultRow, VersionConflict
from bot.storage import open_database
from bot.storage.postgres import PostgresRepository, open_postgres
from bot.storage.ratings_store import rate_finished
from bot.storage.repository import SqliteRepository
from engine.dealing import new_game
from engine.frozen import replace as replace_state
from engine.rules import make_rules
from engine.state import Phase

CHAT = ChatKey("telegram", "-100", "")
PEOPLE = ("telegram:1", "telegram:2", "telegram:3", "telegram:4")


@pytest.fixture(params=["sqlite", "postgres"])
async def repo(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Any]:
    """A fresh repository on each backend."""
    if request.param == "sqlite":
        db: Any = await open_database(tmp_path / "ratings.sqlite3")
        yield SqliteRepository(db)
    else:
        db = await open_postgres(request.getfixturevalue("pg_server").create())
        yield PostgresRepository(db)
    await db.close()


async def finish_game(
    repo: Any,
    users: list[str | None],
    totals: list[int],
    variant: str = "basic",
    chat: ChatKey = CHAT,
    names: list[str] | None = None,
) -> Table:
    """Create a game of ``users`` (``None``: an AI seat at level normal; ``"ai:LEVEL"``:
    one of that level; people named ``names``, default P0 for user id 1, P1 for 2, ...) in
    ``chat`` and commit its end with ``totals`` (the variant's winners of them win), as
    the service does."""
    table, results = _game(users, totals, variant, chat, names)
    created = await repo.create_table(table)
    ended = replace(created, status=Status.FINISHED, version=created.version + 1)
    await repo.commit(ended, created.version, results=results)
    return ended


def _name(user_key: str) -> str:
    """The name of the person ``user_key`` in every game (``telegram:1`` is P0)."""
    return f"P{int(user_key.rpartition(':')[2]) - 1}"


def _game(
    users: list[str | None],
    totals: list[int],
    variant: str,
    chat: ChatKey,
    names: list[str] | None = None,
) -> tuple[Table, list[ResultRow]]:
    """A running game of ``users`` at its end (``totals``) and its result rows."""
    seats = tuple(
        Seat(SeatKind.HUMAN, names[i] if names else _name(u), user=u)
        if u is not None and not u.startswith("ai:")
        else Seat(SeatKind.AI, f"Bot{i}", ai=AI_LEVELS[(u or "ai:normal")[3:]])
        for i, u in enumerate(users)
    )
    rules = make_rules(variant)
    state = new_game(rules, [s.name for s in seats], seed=1)
    fractions = tuple(Fraction(t) for t in totals)
    winners = rules.var.match_winners(rules, fractions)
    state = replace_state(state, totals=fractions, winners=winners, phase=Phase.GAME_OVER)
    table = Table(
        0,
        chat,
        Status.PLAYING,
        variant,
        None,
        (),
        users[0] or "x",
        seats,
        TableSettings(timer="2m"),
        1,
        state,
        1,
        1000.0,
        1000.0,
        1000.0,
    )
    return table, result_rows(table, winners)


async def test_a_finished_game_rates_its_people_once(repo: Any) -> None:
    table = await finish_game(repo, [PEOPLE[0], PEOPLE[1], None], [50, 10, 20])
    ana = await repo.ratings_of(PEOPLE[0])
    ben = await repo.ratings_of(PEOPLE[1])
    assert [(r["variant"], r["season"], r["games"]) for r in ana] == [("basic", 1, 1)]
    expected = rate_game((0, 2, 1), [NEW, NEW, "normal"])
    assert expected[0] is not None and expected[1] is not None
    assert ana[0]["mu"] == pytest.approx(expected[0].mu)
    assert ben[0]["sigma"] == pytest.approx(expected[1].sigma)
    assert ana[0]["last_change"] == pytest.approx(expected[0].shown - NEW.shown)
    assert ana[0]["shown"] > ben[0]["shown"]
    # a second attempt to rate the same game changes nothing
    async with repo._transaction() as conn:
        assert not await rate_finished(conn, table, 2000.0)
    assert await repo.ratings_of(PEOPLE[0]) == ana
    board = await repo.rating_board("basic", 1)
    assert [row["user"] for row in board] == [PEOPLE[0], PEOPLE[1]]
    assert await repo.rating_board("basic", 1, min_games=2) == []


async def test_rebuild_gives_the_live_ratings_and_is_idempotent(repo: Any) -> None:
    """Games of every variant with random people, AI seats and totals (ties included),
    rated live one after the other; the rebuild from the stored games gives exactly those
    ratings, and so does a second rebuild."""
    rng = random.Random(47)
    variants = ("basic", "500", "german", "romanian")
    for _ in range(12):
        variant = rng.choice(variants)
        count = rng.randint(2, 4)
        people = rng.sample(PEOPLE, rng.randint(1, count))
        users: list[str | None] = [*people, *([None] * (count - len(people)))]
        rng.shuffle(users)
        await finish_game(repo, users, [rng.choice([0, 10, 10, 40]) for _ in users], variant)
    live = {p: await repo.ratings_of(p) for p in PEOPLE}
    assert any(live.values())
    assert await repo.rebuild_ratings() == 12
    assert {p: await repo.ratings_of(p) for p in PEOPLE} == live
    assert await repo.rebuild_ratings() == 12
    assert {p: await repo.ratings_of(p) for p in PEOPLE} == live


async def test_a_new_season_starts_from_new_ratings(repo: Any) -> None:
    await finish_game(repo, [PEOPLE[0], PEOPLE[1]], [30, 0])
    assert await repo.start_season(1.0) == 2  # before the game: the game moves to season 2
    assert await repo.rebuild_ratings() == 1
    assert [r["season"] for r in await repo.ratings_of(PEOPLE[0])] == [2]
    number = await repo.start_season(4e9)  # far ahead: the next game is still season 2
    assert number == 3
    await finish_game(repo, [PEOPLE[0], PEOPLE[1]], [0, 30])
    rows = await repo.ratings_of(PEOPLE[0])
    assert [(r["season"], r["games"]) for r in rows] == [(2, 2)]


async def test_two_workers_rate_each_game_once_on_postgresql(pg_server: Any) -> None:
    """Two workers (each its own pool) commit the last move of the same game: one commit
    wins, the game is rated once. Two games of the same people end at the same moment on
    the two workers: both count (the second transaction waits for the first's rows)."""
    url = pg_server.create()
    dbs = [await open_postgres(url), await open_postgres(url)]
    one, two = (PostgresRepository(db) for db in dbs)
    try:
        seats = (
            Seat(SeatKind.HUMAN, "P0", user=PEOPLE[0]),
            Seat(SeatKind.HUMAN, "P1", user=PEOPLE[1]),
        )
        rules = make_rules("basic")
        state = new_game(rules, ["P0", "P1"], seed=1)
        state = replace_state(
            state, totals=(Fraction(30), Fraction(0)), winners=(0,), phase=Phase.GAME_OVER
        )
        tables = [
            await one.create_table(
                Table(
                    0,
                    ChatKey("telegram", str(-100 - n), ""),
                    Status.PLAYING,
                    "basic",
                    None,
                    (),
                    PEOPLE[0],
                    seats,
                    TableSettings(timer="2m"),
                    1,
                    state,
                    1,
                    1000.0,
                    1000.0,
                    1000.0,
                )
            )
            for n in range(3)
        ]
        results = [
            ResultRow(0, PEOPLE[0], "P0", Fraction(30), True),
            ResultRow(1, PEOPLE[1], "P1", Fraction(0), False),
        ]

        async def finish(repo: Any, table: Table) -> bool:
            try:
                await repo.commit(
                    replace(table, status=Status.FINISHED, version=2), 1, results=results
                )
            except VersionConflict:  # the other worker's commit came first
                return False
            return True

        outcome = await asyncio.gather(finish(one, tables[0]), finish(two, tables[0]))
        assert sorted(outcome) == [False, True]
        assert [r["games"] for r in await one.ratings_of(PEOPLE[0])] == [1]
        assert await asyncio.gather(finish(one, tables[1]), finish(two, tables[2])) == [True, True]
        rows = await two.ratings_of(PEOPLE[0])
        assert [r["games"] for r in rows] == [3]
        rating = NEW
        ben = NEW
        for _ in range(3):
            rating, ben = rate_game((0, 1), [rating, ben])  # type: ignore[assignment]
        assert rows[0]["mu"] == pytest.approx(rating.mu)
        assert (await one.ratings_of(PEOPLE[1]))[0]["mu"] == pytest.approx(ben.mu)
    finally:
        for db in dbs:
            await db.close()


OTHER = ChatKey("discord", "55", "7")


async def _boards(repo: Any, seasons: int = 3) -> dict[tuple[str, int, str], list[dict[str, Any]]]:
    """Every board of the two chats' seasons 1 to ``seasons`` and the global one, every
    variant."""
    boards = {}
    for variant in ("basic", "500", "german", "romanian"):
        for season in range(1, seasons + 1):
            for chat in (str(CHAT), str(OTHER), None):
                rows = await repo.rating_board(variant, season, 1, 100, chat)
                boards[(variant, season, chat or "global")] = rows
    return boards


async def test_a_chats_seasons_rank_the_ratings_earned_there(repo: Any) -> None:
    """A chat's board ranks what was earned in its games in its season; a new season of a
    chat starts from new ratings there, leaves the old season's board and the other chats'
    and the global board as they were."""
    await finish_game(repo, [PEOPLE[0], PEOPLE[1]], [30, 0])
    await finish_game(repo, [PEOPLE[1], PEOPLE[0]], [30, 0], chat=OTHER)
    here = await repo.rating_board("basic", 1, 1, 10, str(CHAT))
    assert [(r["user"], r["games"]) for r in here] == [(PEOPLE[0], 1), (PEOPLE[1], 1)]
    there = await repo.rating_board("basic", 1, 1, 10, str(OTHER))
    assert [(r["user"], r["games"]) for r in there] == [(PEOPLE[1], 1), (PEOPLE[0], 1)]
    assert {r["games"] for r in await repo.rating_board("basic", 1)} == {2}
    # started "at 1.0", before the game's stored finish: the game keeps its season 1
    assert await repo.start_chat_season(str(CHAT), 1.0, PEOPLE[0]) == 2
    assert await repo.current_season(0.0, str(CHAT)) == 2
    assert await repo.current_season(0.0, str(OTHER)) == 1
    assert await repo.rating_board("basic", 2, 1, 10, str(CHAT)) == []
    assert await repo.rating_board("basic", 1, 1, 10, str(CHAT)) == here
    await finish_game(repo, [PEOPLE[0], PEOPLE[2]], [0, 30])
    new = await repo.rating_board("basic", 2, 1, 10, str(CHAT))
    assert [(r["user"], r["games"]) for r in new] == [(PEOPLE[2], 1), (PEOPLE[0], 1)]
    assert new[1]["shown"] == pytest.approx(rate_game((1, 0), [NEW, NEW])[0].shown)  # type: ignore[union-attr]
    assert await repo.rating_board("basic", 1, 1, 10, str(CHAT)) == here
    assert await repo.rating_board("basic", 1, 1, 10, str(OTHER)) == there
    assert [r["games"] for r in await repo.ratings_of(PEOPLE[0])] == [3]  # global: every game


async def test_rebuild_gives_every_chats_season_boards_again(repo: Any) -> None:
    """Games in two chats, a season of one started midway: the rebuild gives every board
    of every chat season (and the global one) as the live updates gave them, twice."""
    rng = random.Random(2)
    for n in range(14):
        if n == 7:
            assert await repo.start_chat_season(str(CHAT), 0.0, PEOPLE[0]) == 2
        count = rng.randint(2, 4)
        people = rng.sample(PEOPLE, rng.randint(1, count))
        users: list[str | None] = [*people, *([None] * (count - len(people)))]
        rng.shuffle(users)
        variant = rng.choice(("basic", "500", "german", "romanian"))
        chat = rng.choice((CHAT, OTHER))
        await finish_game(repo, users, [rng.choice([0, 10, 40]) for _ in users], variant, chat)
    live = await _boards(repo)
    assert any(rows for (_v, season, chat), rows in live.items() if season == 2)
    assert await repo.rebuild_ratings() == 14
    assert await _boards(repo) == live
    assert await repo.rebuild_ratings() == 14
    assert await _boards(repo) == live


async def test_a_season_started_while_games_finish_rebuilds_alike_on_postgresql(
    pg_server: Any,
) -> None:
    """Two workers (each its own pool): one finishes games of a chat while the other starts
    the chat's next season, again and again at the same moment. Each game lands in one
    season, and the rebuild puts it into the same one (the start waits for a finishing
    game and starts after the chat's last finish)."""
    url = pg_server.create()
    dbs = [await open_postgres(url), await open_postgres(url)]
    one, two = (PostgresRepository(db) for db in dbs)
    try:
        started = 0
        for n in range(12):
            people = [PEOPLE[n % 3], PEOPLE[(n + 1) % 3]]
            finished, start = await asyncio.gather(
                finish_game(one, people, [30, 0]),
                two.start_chat_season(str(CHAT), time.time(), PEOPLE[0]),
                return_exceptions=True,
            )
            assert not isinstance(finished, BaseException)
            if isinstance(start, SeasonStillEmpty):  # the start came before the game
                continue
            assert start == 2 + started
            started += 1
        current = await one.current_season(0.0, str(CHAT))
        assert current == 1 + started and started >= 5  # about every second start at least
        live = await _boards(one, current)
        chat = [r["games"] for (_v, _s, c), rows in live.items() if c == str(CHAT) for r in rows]
        assert sum(chat) == 12 * 2  # every game rated once in the chat, two people each
        assert await two.rebuild_ratings() == 12
        assert await _boards(one, current) == live
    finally:
        for db in dbs:
            await db.close()


async def test_a_game_keeps_the_chat_season_it_was_rated_in_on_postgresql(
    pg_server: Any,
) -> None:
    """A worker is inside a game's final commit (the game rated in the chat's season 1,
    which has a game already)
    when another, whose clock runs 10 s behind, starts the chat's next season and commits
    first: the game stays in season 1, live and after the rebuild (by the times alone the
    rebuild would move it to season 2)."""
    url = pg_server.create()
    dbs = [await open_postgres(url), await open_postgres(url)]
    one, two = (PostgresRepository(db) for db in dbs)
    try:
        await finish_game(one, [PEOPLE[0], PEOPLE[1]], [30, 0])  # season 1 is not empty
        table, _results = _game([PEOPLE[0], PEOPLE[1]], [30, 0], "basic", CHAT)
        created = await one.create_table(table)
        ended = replace(created, status=Status.FINISHED, version=created.version + 1)
        finished_at = time.time()
        async with one._transaction() as conn:
            await conn.execute(
                "UPDATE tables SET status = 'finished', version = ? WHERE id = ?",
                (ended.version, created.id),
            )
            for seat, user in enumerate(PEOPLE[:2]):
                await conn.execute(
                    "INSERT INTO results (table_id, seat, user_key, name, chat_key, variant, "
                    "score, won, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (created.id, seat, user, f"P{seat}", str(CHAT), "basic", "0", 0, finished_at),
                )
            assert await rate_finished(conn, ended, finished_at)
            assert await two.start_chat_season(str(CHAT), finished_at - 10, PEOPLE[2]) == 2
        live = await _boards(one)
        assert [r["games"] for r in live[("basic", 1, str(CHAT))]] == [2, 2]
        assert live[("basic", 2, str(CHAT))] == []
        assert await two.rebuild_ratings() == 2
        assert await _boards(one) == live
    finally:
        for db in dbs:
            await db.close()


async def test_stats_count_the_games_against_each_ai_level(repo: Any) -> None:
    """Issue 46: "the stats and leaderboard say which level an AI seat played"."""
    await finish_game(repo, [PEOPLE[0], "ai:expert", "ai:hard"], [120, 10, 40])
    await finish_game(repo, [PEOPLE[0], "ai:expert"], [0, 150])
    await finish_game(repo, [PEOPLE[0], PEOPLE[1], None, None], [10, 200, 5, 0])
    await finish_game(repo, [PEOPLE[1], "ai:easy"], [150, 0])
    ana = await repo.user_stats(PEOPLE[0])
    assert (ana["games"], ana["wins"]) == (3, 1)
    assert ana["against_ai"] == [
        {"level": "normal", "games": 1, "wins": 0},  # two normal seats: one game
        {"level": "hard", "games": 1, "wins": 1},
        {"level": "expert", "games": 2, "wins": 1},
    ]
    ben = await repo.user_stats(PEOPLE[1])
    assert ben["against_ai"] == [
        {"level": "easy", "games": 1, "wins": 1},
        {"level": "normal", "games": 1, "wins": 1},
    ]
    assert (await repo.user_stats(PEOPLE[2]))["against_ai"] == []


async def test_boards_name_a_person_as_in_their_newest_game(repo: Any) -> None:
    """A person who changed their name stands on the boards under the newest one (not the
    alphabetically last)."""
    for names in (["Zoe", "Ben"], ["Zoe", "Ben"], ["Ada", "Ben"]):
        await finish_game(repo, [PEOPLE[0], PEOPLE[1]], [120, 10], names=names)
    board = await repo.rating_board("basic", 1, 3, 10, None)
    assert [row["name"] for row in board] == ["Ada", "Ben"]
    assert [row["name"] for row in await repo.rating_board("basic", 1, 3, 10, str(CHAT))] == [
        "Ada",
        "Ben",
    ]
    wins = await repo.leaderboard(None, 10)
    assert [(row["name"], row["wins"]) for row in wins] == [("Ada", 3), ("Ben", 0)]
