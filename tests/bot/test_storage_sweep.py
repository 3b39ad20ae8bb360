"""Every method of the repository and of each adapter's message store, run on SQLite and on
PostgreSQL (issue "workers for real", D1: the Telegram store's chat upsert was valid SQLite
but ambiguous on PostgreSQL, so every group command failed there with no reply).

The sweep is checked for completeness against the protocols themselves: a method added to
:class:`bot.service.repository.Repository`, :class:`bot.service.outbox.OutboxStore`,
:class:`TelegramMessageStore` or :class:`DiscordMessageStore` without a step here fails
:func:`test_the_sweep_covers_every_method`.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Awaitable, Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from bot.ports.message_store import (
    DiscordHandAnchor,
    DiscordMessageStore,
    DiscordTableMessage,
    KnownUser,
    TelegramHandMessage,
    TelegramMessageStore,
    TelegramTableMessage,
)
from bot.ports.model import ChatKey, Seat, SeatKind, Status, TableSettings
from bot.service.errors import SeasonStillEmpty
from bot.service.model import Table
from bot.service.outbox import ChangeRow, OutboxStore
from bot.service.repository import (
    ActiveTableExists,
    DuplicateUpdate,
    LogEntry,
    Repository,
    ResultRow,
    VersionConflict,
)
from bot.storage import open_database
from bot.storage.postgres import PostgresRepository, open_postgres
from bot.storage.repository import SqliteRepository
from engine.dealing import new_game
from engine.rules import make_rules

CHAT = ChatKey("telegram", "-100", "")
OTHER_CHAT = ChatKey("discord", "55", "7")


@pytest.fixture(params=["sqlite", "postgres"])
async def repo(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Any]:
    """A fresh repository on each backend."""
    if request.param == "sqlite":
        db: Any = await open_database(tmp_path / "sweep.sqlite3")
        yield SqliteRepository(db)
    else:
        db = await open_postgres(request.getfixturevalue("pg_server").create())
        yield PostgresRepository(db)
    await db.close()


def _table(
    key: ChatKey = CHAT,
    *,
    status: Status = Status.LOBBY,
    version: int = 1,
    due_at: float | None = None,
    deadline: float | None = None,
) -> Table:
    seats = (Seat(SeatKind.HUMAN, "Ana", user="telegram:1"), Seat(SeatKind.AI, "Bot", ai="greedy"))
    return Table(
        0,
        key,
        status,
        "basic",
        None,
        (("target", 100),),
        "telegram:1",
        seats,
        TableSettings(timer="2m"),
        42,
        None,
        version,
        1000.0,
        1000.0,
        1000.0,
        due_at=due_at,
        deadline=deadline,
    )


def _public(cls: type) -> set[str]:
    return {name for name, _ in inspect.getmembers(cls) if not name.startswith("_")}


Step = Callable[[Any], Awaitable[None]]


# --- Repository ------------------------------------------------------------------------------


async def _users(repo: Repository) -> None:
    await repo.upsert_user("telegram", "1", "Ana")
    await repo.upsert_user("telegram", "1", "Ana B.", "de-AT")
    await repo.upsert_user("telegram", "1", "Ana B.")  # no app language: the last one stays
    await repo.upsert_user("discord", "2", "Ben", "en-GB")
    assert await repo.user_locale("telegram:1") is None
    await repo.set_user_locale("telegram:1", "de")
    assert await repo.user_locale("telegram:1") == "de"
    assert await repo.user_locales(["telegram:1", "discord:2", "discord:3"]) == {
        "telegram:1": ("de", "de-AT"),
        "discord:2": (None, "en-GB"),
    }
    assert await repo.user_locales([]) == {}
    await repo.set_user_locale("telegram:1", None)
    assert await repo.user_locale("telegram:1") is None
    # the coach's notes: a choice per person, none by default (a new person too)
    assert await repo.coach_choices(["telegram:1", "discord:2"]) == {}
    await repo.set_coach("telegram:1", False)
    await repo.set_coach("discord:2", True)
    await repo.set_coach("discord:9", True)
    assert await repo.coach_choices(["telegram:1", "discord:2", "discord:3"]) == {
        "telegram:1": False,
        "discord:2": True,
    }
    await repo.set_coach("discord:2", None)
    assert await repo.coach_choices(["discord:2", "discord:9"]) == {"discord:9": True}
    assert await repo.coach_choices([]) == {}
    assert await repo.user_locale("discord:9") is None


async def _tables(repo: Repository) -> None:
    created = await repo.create_table(_table())
    assert created.id > 0
    with pytest.raises(ActiveTableExists):
        await repo.create_table(_table())
    assert (await repo.active_table(CHAT)).id == created.id  # type: ignore[union-attr]
    assert (await repo.get_table(created.id)).version == 1  # type: ignore[union-attr]
    assert await repo.get_table(created.id + 100) is None
    assert [t.id for t in await repo.tables_of_user("telegram:1")] == [created.id]
    assert await repo.count_tables() == 1


async def _commit(repo: Repository) -> None:
    table = await repo.create_table(_table())
    moved = Table(**{**_fields(table), "version": 2})
    await repo.commit(moved, 1, [LogEntry(2, None, "join", "telegram:2")], update_key="u:1")
    with pytest.raises(VersionConflict):
        await repo.commit(moved, 1)
    with pytest.raises(DuplicateUpdate):
        await repo.commit(Table(**{**_fields(table), "version": 3}), 2, update_key="u:1")
    assert await repo.seen_update("u:1")
    assert not await repo.seen_update("u:2")
    assert await repo.update_table("u:1") == table.id
    assert await repo.update_table("u:2") is None
    assert await repo.prune_updates(0.0) == 0
    assert await repo.prune_updates(10**12) == 1
    assert not await repo.seen_update("u:1")
    assert [(e.version, e.command) for e in await repo.action_log(table.id)] == [(2, "join")]


def _fields(table: Table) -> dict[str, Any]:
    return {name: getattr(table, name) for name in Table.__slots__}


async def _results(repo: Repository) -> None:
    table = await repo.create_table(_table(status=Status.PLAYING))
    state = new_game(make_rules("basic"), ["Ana", "Bot"], seed=42)
    ended = Table(**{**_fields(table), "version": 2, "status": Status.FINISHED, "state": state})
    await repo.commit(
        ended,
        1,
        results=[
            ResultRow(0, "telegram:1", "Ana", Fraction(-5), True),
            ResultRow(1, None, "Bot", Fraction(30), False),
        ],
    )
    stats = await repo.user_stats("telegram:1")
    assert (stats["games"], stats["wins"]) == (1, 1)
    assert [row["wins"] for row in await repo.leaderboard(str(CHAT), 10)] == [1]
    assert len(await repo.leaderboard(None, 10)) == 1
    assert (await repo.latest_ended(CHAT)).id == table.id  # type: ignore[union-attr]
    assert await repo.latest_ended(OTHER_CHAT) is None
    assert (await repo.latest_ended_of_user("telegram:1")).id == table.id  # type: ignore[union-attr]
    assert await repo.latest_ended_of_user("telegram:9") is None
    assert await repo.finished_games(["telegram:1", "telegram:9"], "basic") == {
        "telegram:1": 1,
        "telegram:9": 0,
    }
    assert await repo.finished_games(["telegram:1"], "500") == {"telegram:1": 0}


async def _ratings(repo: Repository) -> None:
    await _results(repo)  # a finished game: its commit rated it
    rated = await repo.ratings_of("telegram:1")
    assert [(r["variant"], r["season"], r["games"]) for r in rated] == [("basic", 1, 1)]
    board = await repo.rating_board("basic", 1, 1, 10, str(CHAT))
    assert [(row["user"], row["name"], row["games"]) for row in board] == [("telegram:1", "Ana", 1)]
    assert await repo.rating_board("basic", 1, 1, 10, str(OTHER_CHAT)) == []
    assert await repo.rating_board("basic", 1, 2) == []
    assert await repo.current_season(2_000_000_000.0) == 1


async def _chat_ratings(repo: Repository) -> None:
    await _results(repo)  # a finished game of CHAT: rated in the chat's season 1
    [rating] = await repo.chat_ratings_of("telegram:1", str(CHAT), 1)
    assert (rating["variant"], rating["season"], rating["games"]) == ("basic", 1, 1)
    assert rating["shown"] == rating["mu"] - 3 * rating["sigma"]
    assert await repo.chat_ratings_of("telegram:1", str(CHAT), 2) == []
    assert await repo.chat_ratings_of("telegram:1", str(OTHER_CHAT), 1) == []


async def _chat_seasons(repo: Repository) -> None:
    await _results(repo)  # a finished game of CHAT: rated in the chat's season 1
    assert await repo.current_season(0.0, str(CHAT)) == 1
    assert await repo.start_chat_season(str(CHAT), 1.0, "telegram:1") == 2
    with pytest.raises(SeasonStillEmpty):  # no game rated in season 2 yet
        await repo.start_chat_season(str(CHAT), 2.0, "telegram:2")
    with pytest.raises(SeasonStillEmpty):  # no game in that chat at all
        await repo.start_chat_season(str(OTHER_CHAT), 3.0, "discord:1")
    assert await repo.current_season(0.0, str(CHAT)) == 2
    assert await repo.current_season(0.0, str(OTHER_CHAT)) == 1
    assert await repo.current_season(2_000_000_000.0) == 1  # the global board's: no change
    board = await repo.rating_board("basic", 1, 1, 10, str(CHAT))
    assert [(row["user"], row["games"]) for row in board] == [("telegram:1", 1)]
    assert await repo.rating_board("basic", 2, 1, 10, str(CHAT)) == []


async def _due(repo: Repository) -> None:
    table = await repo.create_table(_table(status=Status.PLAYING, due_at=500.0, deadline=600.0))
    assert await repo.due_tables(400.0) == []
    assert await repo.due_tables(500.0) == [table.id]
    assert await repo.next_due() == 500.0
    assert await repo.next_due([table.id]) is None
    assert await repo.shift_timeline(100.0) == 1
    assert await repo.next_due() == 600.0
    other = await repo.create_table(_table(OTHER_CHAT, status=Status.PLAYING, due_at=900.0))
    assert await repo.claim_due("w1", 550.0, 30.0, 10) == []  # due at 600 now
    claimed = await repo.claim_due("w1", 1000.0, 30.0, 10)
    assert [(c.table_id, c.table.version if c.table else None) for c in claimed] == [
        (table.id, 1),
        (other.id, 1),
    ]  # earliest first, loaded
    assert [c.table_id for c in await repo.claim_due("w1", 1000.0, 30.0, 1)] == [table.id]
    assert [
        c.table_id for c in await repo.claim_due("w1", 1000.0, 30.0, 10, exclude=[table.id])
    ] == [other.id]
    await repo.record_fault(other.id, "backoff", 1, "boom", 2000.0)
    assert [c.table_id for c in await repo.claim_due("w2", 2100.0, 30.0, 10)] == [
        table.id,
        other.id,
    ]  # w1's leases ran out; the back-off too
    await repo.record_fault(other.id, "backoff", 2, "boom", 3000.0)
    assert [c.table_id for c in await repo.claim_due("w2", 2200.0, 30.0, 10)] == [table.id]


async def _heartbeat(repo: Repository) -> None:
    assert await repo.last_heartbeat() is None
    await repo.heartbeat(123.5)
    await repo.heartbeat(124.5)
    assert await repo.last_heartbeat() == 124.5


async def _faults(repo: Repository) -> None:
    table = await repo.create_table(_table(status=Status.PLAYING, due_at=1.0))
    await repo.record_fault(table.id, "backoff", 1, "boom", 99.0)
    await repo.record_fault(table.id, "quarantined", 3, "boom again", None)
    faults = await repo.faults()
    assert [(f["table_id"], f["kind"], f["failures"]) for f in faults] == [
        (table.id, "quarantined", 3)
    ]
    assert await repo.quarantined_tables() == [table.id]
    assert await repo.due_tables(10.0) == []
    await repo.clear_fault(table.id)
    assert await repo.faults() == []
    assert await repo.due_tables(10.0) == [table.id]
    # a quarantine is recorded once, over a back-off too; the second says it was known
    await repo.record_fault(table.id, "backoff", 2, "boom", 99.0)
    assert await repo.quarantine(table.id, "UnreadableTable: seats")
    assert not await repo.quarantine(table.id, "UnreadableTable: seats again")
    [row] = await repo.faults()
    assert (row["kind"], row["failures"], row["error"], row["retry_at"]) == (
        "quarantined",
        1,
        "UnreadableTable: seats",
        None,
    )
    assert await repo.quarantined_tables() == [table.id]
    await repo.clear_fault(table.id)


async def _role(repo: Repository) -> None:
    role = await repo.take_role("telegram-polling")
    assert role is not None and role.held
    await role.release()
    assert not role.held


REPOSITORY: dict[str, Step] = {
    "upsert_user": _users,
    "user_locale": _users,
    "set_user_locale": _users,
    "user_locales": _users,
    "coach_choices": _users,
    "set_coach": _users,
    "finished_games": _results,
    "create_table": _tables,
    "active_table": _tables,
    "get_table": _tables,
    "tables_of_user": _tables,
    "count_tables": _tables,
    "commit": _commit,
    "seen_update": _commit,
    "update_table": _commit,
    "prune_updates": _commit,
    "action_log": _commit,
    "user_stats": _results,
    "leaderboard": _results,
    "latest_ended": _results,
    "latest_ended_of_user": _results,
    "ratings_of": _ratings,
    "rating_board": _ratings,
    "current_season": _ratings,
    "start_chat_season": _chat_seasons,
    "chat_ratings_of": _chat_ratings,
    "due_tables": _due,
    "next_due": _due,
    "shift_timeline": _due,
    "claim_due": _due,
    "heartbeat": _heartbeat,
    "last_heartbeat": _heartbeat,
    "record_fault": _faults,
    "clear_fault": _faults,
    "faults": _faults,
    "quarantined_tables": _faults,
    "quarantine": _faults,
    "take_role": _role,
}


# --- Outbox: change rows, chat owners, send keys ---------------------------------------------


async def _outbox_changes(repo: Repository) -> None:
    outbox: OutboxStore = repo.outbox
    table = await repo.create_table(_table(), record='{"v":1}')
    assert await outbox.recent_changes(table.id, 5) == [ChangeRow(1, '{"v":1}', False)]
    fields = _fields(table)
    for version in (2, 3, 4):
        await repo.commit(
            Table(**{**fields, "version": version, "updated_at": 1000.0 + version}),
            version - 1,
            record=f'{{"v":{version}}}',
        )
    assert await outbox.recent_changes(table.id, 2) == [
        ChangeRow(3, '{"v":3}', False),
        ChangeRow(4, '{"v":4}', False),
    ]
    assert await outbox.unshown_tables(1000.5, 0.0) == [(table.id, str(CHAT))]  # version 1
    assert await outbox.unshown_tables(1000.0, 0.0) == []
    assert await outbox.unshown_tables(10**12, 1004.5) == []  # none written since 1004.5
    await outbox.mark_shown(table.id, 3, keep=1)  # 1 to 3 shown
    assert [(r.version, r.shown) for r in await outbox.recent_changes(table.id, 10)] == [
        (1, True),
        (2, True),
        (3, True),
        (4, False),
    ]
    assert await outbox.unshown_tables(10**12, 0.0) == [(table.id, str(CHAT))]
    await outbox.mark_shown(table.id, 8, keep=5)  # 4 shown; 1 to 3 no longer kept
    assert [(r.version, r.shown) for r in await outbox.recent_changes(table.id, 10)] == [(4, True)]
    assert await outbox.unshown_tables(10**12, 0.0) == []
    assert await repo.prune_updates(10**12) == 0  # change rows go with the update keys
    assert await outbox.recent_changes(table.id, 10) == []


async def _outbox_owners(repo: Repository) -> None:
    outbox: OutboxStore = repo.outbox
    if not isinstance(repo, PostgresRepository):  # one process per SQLite file: its own
        assert await outbox.take_chat("telegram:-1:", "a", 100.0, 10.0) == (True, False)
        assert await outbox.take_chat("telegram:-1:", "b", 105.0, 10.0) == (True, True)
        assert await outbox.take_chat("telegram:-1:", "b", 106.0, 10.0) == (True, False)
        await outbox.release_chats("b")
        assert await outbox.lapsed_chats(10.0**12) == []
        return
    assert await outbox.take_chat("telegram:-1:", "a", 100.0, 10.0) == (True, False)
    assert await outbox.take_chat("telegram:-1:", "b", 105.0, 10.0) == (False, False)
    assert await outbox.take_chat("telegram:-1:", "a", 105.0, 10.0) == (True, False)
    assert await outbox.renew_chats("a", 120.0) == 1
    assert await outbox.renew_chats("b", 120.0) == 0
    assert await outbox.lapsed_chats(119.0) == []
    assert await outbox.lapsed_chats(121.0) == ["telegram:-1:"]
    assert await outbox.take_chat("telegram:-1:", "b", 121.0, 10.0) == (True, True)
    await outbox.release_chats("b")
    assert await outbox.lapsed_chats(10.0**12) == []
    assert await outbox.take_chat("telegram:-1:", "a", 0.0, 10.0) == (True, False)


async def _outbox_sends(repo: Repository) -> None:
    outbox: OutboxStore = repo.outbox
    assert await outbox.begin_send("k", 1.0) == "new"
    assert await outbox.begin_send("k", 2.0) == "again"  # its worker died before the mark
    await outbox.end_send("k")
    assert await outbox.begin_send("k", 3.0) == "sent"
    assert await repo.prune_updates(10**12) == 0  # send keys go with the update keys
    assert await outbox.begin_send("k", 4.0) == "new"


OUTBOX: dict[str, Step] = {
    "recent_changes": _outbox_changes,
    "mark_shown": _outbox_changes,
    "unshown_tables": _outbox_changes,
    "take_chat": _outbox_owners,
    "renew_chats": _outbox_owners,
    "release_chats": _outbox_owners,
    "lapsed_chats": _outbox_owners,
    "begin_send": _outbox_sends,
    "end_send": _outbox_sends,
}


# --- Telegram message store --------------------------------------------------------------------


async def _telegram_tables(repo: Repository) -> None:
    store: TelegramMessageStore = repo.telegram_messages
    table = await repo.create_table(_table())
    assert await store.table_message(table.id) is None
    first = TelegramTableMessage(table.id, str(CHAT), -100, None, 10, 1)
    await store.save_table_message(first)
    later = TelegramTableMessage(table.id, str(CHAT), -100, 5, 11, 4)
    await store.save_table_message(later)
    assert await store.table_message(table.id) == later


async def _telegram_hands(repo: Repository) -> None:
    store: TelegramMessageStore = repo.telegram_messages
    table = await repo.create_table(_table())
    assert await store.hand_message(1, table.id) is None
    await store.save_hand_message(TelegramHandMessage(1, table.id, str(CHAT), 20, 1, "as 2s"))
    again = TelegramHandMessage(1, table.id, str(CHAT), 21, 3, "as 2s 3s", 2)
    await store.save_hand_message(again)
    assert await store.hand_message(1, table.id) == again


async def _telegram_chats(repo: Repository) -> None:
    store: TelegramMessageStore = repo.telegram_messages
    assert await store.chat_title(-100) is None
    await store.remember_chat(-100, "Rummy night")
    await store.remember_chat(-100, None)  # a title-less update keeps the title
    assert await store.chat_title(-100) == "Rummy night"
    await store.remember_chat(-100, "Rummy nights")
    assert await store.chat_title(-100) == "Rummy nights"
    assert await store.current_chat(-100) == -100
    await store.migrate_chat(-100, -1001)
    assert await store.current_chat(-100) == -1001
    assert await store.canonical_chat(-1001) == -100
    assert await store.canonical_chat(-7) == -7
    await store.migrate_chat(-1001, -1002)  # upgraded again: still keyed by the first id
    assert await store.current_chat(-100) == -1002


async def _telegram_users(repo: Repository) -> None:
    store: TelegramMessageStore = repo.telegram_messages
    assert await store.user(1) is None
    await store.set_reachable(1, False)
    await store.remember_user(1, "Ana", "ana", "de")
    assert await store.user(1) == KnownUser(1, "Ana", "ana", "de", False)
    await store.set_reachable(1, True)
    await store.remember_user(1, "Ana B.", None, None)
    assert await store.user(1) == KnownUser(1, "Ana B.", None, None, True)


async def _keyed_sends(store: TelegramMessageStore | DiscordMessageStore, platform: str) -> None:
    """A send noted as done is skipped; one started but never noted is "again" (its
    worker died between sending and noting it)."""
    assert await store.begin_send(f"{platform}:ping:1:2") == "new"
    await store.end_send(f"{platform}:ping:1:2")
    assert await store.begin_send(f"{platform}:ping:1:2") == "sent"
    assert await store.begin_send(f"{platform}:table:1:0") == "new"
    assert await store.begin_send(f"{platform}:table:1:0") == "again"


async def _telegram_sends(repo: Repository) -> None:
    await _keyed_sends(repo.telegram_messages, "telegram")


async def _telegram_budget(repo: Repository) -> None:
    store: TelegramMessageStore = repo.telegram_messages
    waits = [await store.spend_group_call(-100, 1000.0, 20, 60.0) for _ in range(22)]
    assert waits[:20] == [0.0] * 20  # a full bucket: 20 calls at once
    assert waits[20:] == pytest.approx([3.0, 6.0])  # then one every 3 s, in line
    # 9 s later 3 tokens came back: the debt of 2 is paid and this call has its own
    assert await store.spend_group_call(-100, 1009.0, 20, 60.0) == pytest.approx(0.0)
    assert await store.spend_group_call(-100, 2000.0, 20, 60.0) == 0.0  # full: 20, no more
    assert [await store.spend_group_call(-100, 2000.0, 20, 60.0) for _ in range(19)] == [0.0] * 19
    assert await store.spend_group_call(-100, 2000.0, 20, 60.0) == pytest.approx(3.0)
    assert await store.spend_group_call(-200, 1.0, 20, 60.0) == 0.0  # another group: its own
    behind = await store.spend_group_call(-100, 1500.0, 20, 60.0)  # a clock behind
    assert behind > 0  # refills nothing


TELEGRAM: dict[str, Step] = {
    "table_message": _telegram_tables,
    "save_table_message": _telegram_tables,
    "hand_message": _telegram_hands,
    "save_hand_message": _telegram_hands,
    "chat_title": _telegram_chats,
    "remember_chat": _telegram_chats,
    "current_chat": _telegram_chats,
    "canonical_chat": _telegram_chats,
    "migrate_chat": _telegram_chats,
    "user": _telegram_users,
    "remember_user": _telegram_users,
    "set_reachable": _telegram_users,
    "begin_send": _telegram_sends,
    "end_send": _telegram_sends,
    "spend_group_call": _telegram_budget,
}


# --- Discord message store ---------------------------------------------------------------------


async def _discord(repo: Repository) -> None:
    store: DiscordMessageStore = repo.discord_messages
    table = await repo.create_table(_table(OTHER_CHAT))
    assert await store.get(table.id) is None
    first = DiscordTableMessage(table.id, "55", "900", 1)
    await store.save(first)
    assert await store.get(table.id) == first
    later = DiscordTableMessage(table.id, "55", "901", 2, "77", 1, ("Ana drew.", "Bot: 7♥"))
    await store.save(later)
    assert await store.get(table.id) == later


async def _discord_anchors(repo: Repository) -> None:
    store: DiscordMessageStore = repo.discord_messages
    table = await repo.create_table(_table(OTHER_CHAT))
    other = await repo.create_table(_table())
    assert await store.hand_anchor(table.id, "discord:2") is None
    first = DiscordHandAnchor(table.id, "discord:2", "4242", "tok-1", None, "3fa2", 0, 0, 3, 1000.0)
    await store.save_hand_anchor(first)
    assert await store.hand_anchor(table.id, "discord:2") == first
    # a later press: the newest interaction replaces the row
    newer = DiscordHandAnchor(
        table.id, "discord:2", "4242", "tok-2", "901", "3fa2", 1, (1 << 59) | 5, 4, 1100.0
    )
    await store.save_hand_anchor(newer)
    assert await store.hand_anchor(table.id, "discord:2") == newer
    # a redraw through the old token, or to an older version, changes nothing
    assert not await store.update_hand_anchor(table.id, "discord:2", "tok-1", "beef", 2, 1, 9)
    assert not await store.update_hand_anchor(table.id, "discord:2", "tok-2", "beef", 2, 1, 4)
    assert await store.update_hand_anchor(table.id, "discord:2", "tok-2", "beef", 2, 1, 6)
    assert await store.hand_anchor(table.id, "discord:2") == DiscordHandAnchor(
        table.id, "discord:2", "4242", "tok-2", "901", "beef", 2, 1, 6, 1100.0
    )
    # forgetting a refused token keeps a newer anchor
    await store.forget_hand_anchor(table.id, "discord:2", "tok-1")
    assert await store.hand_anchor(table.id, "discord:2") is not None
    await store.forget_hand_anchor(table.id, "discord:2", "tok-2")
    assert await store.hand_anchor(table.id, "discord:2") is None
    # expired rows are pruned; a closed table's rows go
    await store.save_hand_anchor(first)
    await store.save_hand_anchor(
        DiscordHandAnchor(other.id, "discord:2", "4242", "tok-3", "902", "3fa2", 0, 0, 1, 2000.0)
    )
    await store.save_hand_anchor(
        DiscordHandAnchor(table.id, "discord:3", "4242", "tok-4", "903", "3fa2", 0, 0, 1, 1500.0)
    )
    assert await store.prune_hand_anchors(1200.0) == 1
    assert await store.hand_anchor(table.id, "discord:2") is None
    await store.forget_hand_anchors(table.id)
    assert await store.hand_anchor(table.id, "discord:3") is None
    assert await store.hand_anchor(other.id, "discord:2") is not None


async def _discord_sends(repo: Repository) -> None:
    await _keyed_sends(repo.discord_messages, "discord")


DISCORD: dict[str, Step] = {
    "get": _discord,
    "save": _discord,
    "begin_send": _discord_sends,
    "end_send": _discord_sends,
    "hand_anchor": _discord_anchors,
    "save_hand_anchor": _discord_anchors,
    "update_hand_anchor": _discord_anchors,
    "forget_hand_anchor": _discord_anchors,
    "forget_hand_anchors": _discord_anchors,
    "prune_hand_anchors": _discord_anchors,
}


def test_the_sweep_covers_every_method() -> None:
    """Each public method of each storage protocol has a step in the sweep."""
    assert _public(Repository) - {"telegram_messages", "discord_messages", "outbox"} == set(
        REPOSITORY
    )
    assert _public(OutboxStore) == set(OUTBOX)
    assert _public(TelegramMessageStore) == set(TELEGRAM)
    assert _public(DiscordMessageStore) == set(DISCORD)


STEPS = sorted(
    {*REPOSITORY.values(), *OUTBOX.values(), *TELEGRAM.values(), *DISCORD.values()},
    key=lambda step: step.__name__,
)


@pytest.mark.parametrize("step", STEPS, ids=[step.__name__.strip("_") for step in STEPS])
async def test_every_storage_method_runs_on_both_backends(repo: Any, step: Step) -> None:
    """The step's calls answer on this backend as the protocol says."""
    await step(repo)
