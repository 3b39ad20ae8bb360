"""The SQLite repository: every read and write of the game service
(:class:`bot.service.repository.Repository`, the protocol the service owns; its record
types and errors are re-exported here).

:class:`SqliteRepository` is the implementation. Writes of a table go through
:meth:`Repository.commit`, one transaction with a compare-and-set on the
table's version: the action log, the seen update key and the results land
together with the new state, or nothing does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Sequence
from contextlib import asynccontextmanager
from typing import Any

import aiosqlite
from cachetools import LRUCache

from bot.ports.message_store import DiscordMessageStore, TelegramMessageStore
from bot.ports.model import ChatKey, Seat, SeatKind, Status, TableSettings
from bot.ports.roles import RoleLock, hold_forever
from bot.ports.table_rules import AI_LEVELS
from bot.ports.text_bounds import DISPLAY_NAME, LANGUAGE_TAG, bounded_text
from bot.service.errors import (
    SeasonStillEmpty,
    StorageUnavailable,
    TableFromNewerRelease,
    UnreadableTable,
)
from bot.service.model import Table
from bot.service.outbox import OutboxStore
from bot.service.repository import (
    ActiveTableExists,
    DueClaim,
    DuplicateUpdate,
    LogEntry,
    ResultRow,
    VersionConflict,
)
from bot.storage.database import Database
from bot.storage.message_store import SqliteDiscordMessages, SqliteTelegramMessages
from bot.storage.outbox import SqlOutbox
from bot.storage.ratings_store import chat_season_at, rate_finished, season_at
from engine.errors import EngineError
from engine.serialize import fraction_to_json, state_from_dict, state_to_dict

log = logging.getLogger(__name__)

__all__ = ["Reader", "SqliteRepository", "storage_error", "table_from_row"]

Reader = Callable[..., Awaitable[list[Any]]]
"""``await read(sql, params=())``: the rows of one query inside a
:meth:`SqliteRepository.snapshot` (each row indexable by column name, with ``keys()``)."""

ROW_FORMAT = 1
"""The format of the ``tables`` rows this release writes (column ``format``). A release
that changes what a row means raises it; an older release then refuses such a row
(:class:`TableFromNewerRelease`) instead of misreading it."""

#: SQLite errors that say "not now" (another program holds the lock, the disk is full or
#: read-only): the person is asked to try again, the process keeps running.
_LEVEL_ORDER = {level: rank for rank, level in enumerate(AI_LEVELS)}
"""The AI levels from the weakest (``stats`` lists a person's games against them so)."""

_NEWEST_NAME = (
    "SELECT n.name FROM results n WHERE n.user_key = {user} "
    "ORDER BY n.finished_at DESC, n.table_id DESC LIMIT 1"
)
"""The name a person had in their newest finished game (boards show it; ``{user}``: the
column holding their user key)."""

_TRANSIENT = (
    "locked",
    "busy",
    "full",
    "readonly",
    "read-only",
    "disk i/o",
    "unable to open",
    "malformed",
)


def storage_error(error: sqlite3.Error) -> Exception:
    """:class:`StorageUnavailable` for a transient SQLite error, else ``error`` itself."""
    text = str(error).lower()
    if isinstance(error, sqlite3.OperationalError | sqlite3.DatabaseError) and any(
        word in text for word in _TRANSIENT
    ):
        log.error("database unavailable: %s", error)
        return StorageUnavailable()
    return error


def _seat_to_json(seat: Seat) -> dict[str, Any]:
    return {
        "kind": seat.kind.value,
        "name": seat.name,
        "user": seat.user,
        "ai": seat.ai,
        "autopilot": seat.autopilot,
        "missed": seat.missed,
    }


def _seat_from_json(data: dict[str, Any]) -> Seat:
    return Seat(
        SeatKind(data["kind"]),
        data["name"],
        data.get("user"),
        data.get("ai", "greedy"),
        bool(data.get("autopilot", False)),
        int(data.get("missed", 0)),
    )


def _settings_to_json(settings: TableSettings) -> dict[str, Any]:
    return {
        "timer": settings.timer,
        "warn_before": settings.warn_before,
        "autopilot_after": settings.autopilot_after,
        "ai_delay": settings.ai_delay,
        "next_deal_delay": settings.next_deal_delay,
        "idle_days": settings.idle_days,
        "call_window": settings.call_window,
        "lobby_idle_hours": settings.lobby_idle_hours,
        "locale": settings.locale,
    }


def _settings_from_json(data: dict[str, Any]) -> TableSettings:
    return TableSettings(**data)


def table_from_row(row: aiosqlite.Row) -> Table:
    """Decode one ``tables`` row (JSON columns, the engine state through engine.serialize).

    Raises :class:`TableFromNewerRelease` for a row of a newer format than
    :data:`ROW_FORMAT`, :class:`UnreadableTable` for any row that does not decode (a
    field this release does not know, damaged JSON); either carries what could still be
    read of the row to tell its chat (:func:`_hints`)."""
    keys = row.keys()
    if "format" in keys and (row["format"] or 1) > ROW_FORMAT:
        raise TableFromNewerRelease(**_hints(row), reason=f"row format {row['format']}")
    try:
        return _decode_row(row)
    except (KeyError, TypeError, ValueError, AttributeError, EngineError) as error:
        reason = f"{type(error).__name__}: {error}"[:300]
        raise UnreadableTable(**_hints(row), reason=reason) from error


def _hints(row: aiosqlite.Row) -> dict[str, Any]:
    """The table id of a row that does not decode, and its chat key, the table's language
    and its host where those columns still read."""
    hints: dict[str, Any] = {"table": row["id"]}
    with contextlib.suppress(Exception):
        hints["key"] = ChatKey.parse(row["chat_key"])
    with contextlib.suppress(Exception):
        locale = json.loads(row["settings"]).get("locale")
        if isinstance(locale, str):
            hints["locale"] = locale
    with contextlib.suppress(Exception):
        if isinstance(row["host"], str):
            hints["host"] = row["host"]
    return hints


CONTENT = (
    "chat_key",
    "status",
    "variant",
    "preset",
    "options",
    "host",
    "seats",
    "settings",
    "seed",
    "state",
    "version",
    "due_at",
    "deadline",
    "warned",
    "ended_reason",
    "created_at",
    "updated_at",
    "last_human_at",
    "format",
)
"""The columns of a ``tables`` row that this release writes (:func:`_table_values`)."""


def fingerprint(row: Any) -> int:
    """A hash of the :data:`CONTENT` columns of a ``tables`` row (a row read or the values
    written): a table of the decoded-table cache is served again only while its row's
    fingerprint is the same, so a row rewritten without a new version (by hand, by a
    damaged disk) is decoded again. A hash of the JSON text costs microseconds; decoding
    it, milliseconds."""
    return hash(tuple(row[column] for column in CONTENT))


def _decode_row(row: aiosqlite.Row) -> Table:
    state = state_from_dict(json.loads(row["state"])) if row["state"] else None
    return Table(
        id=row["id"],
        key=ChatKey.parse(row["chat_key"]),
        status=Status(row["status"]),
        variant=row["variant"],
        preset=row["preset"],
        options=tuple((k, v) for k, v in json.loads(row["options"]).items()),
        host=row["host"],
        seats=tuple(_seat_from_json(s) for s in json.loads(row["seats"])),
        settings=_settings_from_json(json.loads(row["settings"])),
        seed=row["seed"],
        state=state,
        version=row["version"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        last_human_at=row["last_human_at"],
        due_at=row["due_at"],
        deadline=row["deadline"],
        warned=bool(row["warned"]),
        ended_reason=row["ended_reason"],
    )


def _table_values(table: Table) -> dict[str, Any]:
    return {
        "chat_key": str(table.key),
        "status": table.status.value,
        "variant": table.variant,
        "preset": table.preset,
        "options": json.dumps(dict(table.options)),
        "host": table.host,
        "seats": json.dumps([_seat_to_json(s) for s in table.seats]),
        "settings": json.dumps(_settings_to_json(table.settings)),
        "seed": table.seed,
        "state": json.dumps(state_to_dict(table.state), separators=(",", ":"))
        if table.state is not None
        else None,
        "version": table.version,
        "due_at": table.due_at,
        "deadline": table.deadline,
        "warned": int(table.warned),
        "ended_reason": table.ended_reason,
        "created_at": table.created_at,
        "updated_at": table.updated_at,
        "last_human_at": table.last_human_at,
        "format": ROW_FORMAT,
    }


class SqliteRepository:
    """:class:`Repository` on one aiosqlite connection. A lock keeps the transactions of
    concurrent coroutines apart; other processes are kept apart by SQLite's write lock
    (``BEGIN IMMEDIATE``) and the version compare-and-set.

    The table this process last read or wrote is kept decoded for the ``cache_size`` most
    recently used tables, with the fingerprint of its row (:func:`fingerprint`, a hash of
    every column): a read whose row is the same returns it instead of decoding the JSON
    state again (decoding is most of a move's CPU time). A row written by another process
    has another version, and one changed without a new version (by hand, a damaged
    disk) another fingerprint: both are decoded, never hidden by the cache.
    """

    #: One bot process per SQLite file: its chats are always its own (chat leases are
    #: for several workers on one PostgreSQL database).
    single_process = True

    def __init__(self, db: Database, cache_size: int = 1024) -> None:
        self._conn = db.conn
        self._lock = asyncio.Lock()
        self._init_shared(cache_size)

    def _init_shared(self, cache_size: int) -> None:
        """The parts every dialect has: the decoded-table cache and the message stores."""
        self._written: LRUCache[int, tuple[int, Table]] = LRUCache(cache_size)
        self._telegram = SqliteTelegramMessages(self)
        self._discord = SqliteDiscordMessages(self)
        self._outbox = SqlOutbox(self, exclusive=self.single_process)

    @property
    def telegram_messages(self) -> TelegramMessageStore:
        return self._telegram

    @property
    def discord_messages(self) -> DiscordMessageStore:
        return self._discord

    @property
    def outbox(self) -> OutboxStore:
        return self._outbox

    def _decode(self, row: aiosqlite.Row) -> Table:
        mark = fingerprint(row)
        cached = self._written.get(row["id"])
        if cached is not None and cached[0] == mark:
            return cached[1]
        table = table_from_row(row)
        self._keep(mark, table)
        return table

    def _keep(self, mark: int, table: Table) -> None:
        """Keep ``table`` decoded, as the content of a row with fingerprint ``mark``."""
        self._written[table.id] = (mark, table)

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction. A locked, full or read-only database raises
        :class:`StorageUnavailable` after rolling back: nothing changed."""
        async with self._lock:
            try:
                await self._conn.execute("BEGIN IMMEDIATE")
            except BaseException as error:
                # A busy BEGIN, or one cancelled while it ran on aiosqlite's thread, may
                # have left a transaction open: never let the next one find it.
                with contextlib.suppress(Exception):
                    await self._conn.execute("ROLLBACK")
                if isinstance(error, sqlite3.Error):
                    raise storage_error(error) from error
                raise
            try:
                yield self._conn
                await self._conn.execute("COMMIT")
            except BaseException as error:
                with contextlib.suppress(Exception):
                    await self._conn.execute("ROLLBACK")
                if isinstance(error, sqlite3.Error) and not isinstance(
                    error, sqlite3.IntegrityError
                ):
                    raise storage_error(error) from error
                raise

    # Reads run as one call on aiosqlite's thread (execute + fetch + close): every
    # separate await is a thread round trip, which costs more than the query itself.

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Row | None:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        async with self._lock:
            try:
                return list(await self._conn.execute_fetchall(sql, params))
            except sqlite3.Error as error:
                raise storage_error(error) from error

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        """The rows of one query, between this repository's transactions (for the
        message stores of :mod:`bot.storage.message_store`)."""
        return await self._all(sql, params)

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Reader]:
        """One read transaction for several queries (``export-db``): every query through
        the yielded :data:`Reader` sees the database as it was at the first one, whatever
        other connections commit meanwhile (SQLite in WAL mode: a deferred transaction's
        snapshot). This repository's own writes wait until it ends. Raises
        :class:`StorageUnavailable` when the database cannot be read."""
        async with self._lock:
            try:
                await self._conn.execute("BEGIN DEFERRED")
            except sqlite3.Error as error:
                raise storage_error(error) from error

            async def read(sql: str, params: Sequence[Any] = ()) -> list[Any]:
                try:
                    return list(await self._conn.execute_fetchall(sql, params))
                except sqlite3.Error as error:
                    raise storage_error(error) from error

            try:
                yield read
            finally:
                with contextlib.suppress(Exception):
                    await self._conn.execute("ROLLBACK")  # read only: nothing to keep

    async def execute_one(self, sql: str, params: Sequence[Any] = ()) -> None:
        """One write statement, committed on its own between this repository's
        transactions. Raises :class:`StorageUnavailable` when the database is locked,
        full or read-only."""
        async with self._lock:
            try:
                await self._conn.execute(sql, params)
            except sqlite3.Error as error:
                raise storage_error(error) from error

    async def upsert_user(
        self, platform: str, user_id: str, name: str, app_locale: str | None = None
    ) -> None:
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO users (platform, user_id, display_name, app_locale, created_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (platform, user_id) "
                "DO UPDATE SET display_name = excluded.display_name, "
                "app_locale = COALESCE(excluded.app_locale, users.app_locale)",
                (
                    platform,
                    user_id,
                    bounded_text(name, DISPLAY_NAME),
                    None if app_locale is None else bounded_text(app_locale, LANGUAGE_TAG),
                    time.time(),
                ),
            )

    async def user_locales(
        self, user_keys: Collection[str]
    ) -> dict[str, tuple[str | None, str | None]]:
        keys = sorted(set(user_keys))
        if not keys:
            return {}
        pairs, params = _user_pairs(keys)
        rows = await self._all(
            f"SELECT platform, user_id, locale, app_locale FROM users WHERE {pairs}", params
        )
        return {f"{row[0]}:{row[1]}": (row[2], row[3]) for row in rows}

    async def user_locale(self, user_key: str) -> str | None:
        platform, _, user_id = user_key.partition(":")
        row = await self._one(
            "SELECT locale FROM users WHERE platform = ? AND user_id = ?", (platform, user_id)
        )
        return None if row is None else row["locale"]

    async def set_user_locale(self, user_key: str, locale: str | None) -> None:
        await self._set_user_choice(user_key, "locale", locale)

    async def _set_user_choice(self, user_key: str, column: str, value: object) -> None:
        """Store one of a person's choices (``column``: ``locale`` or ``coach``), making
        their row if they have none yet."""
        assert column in ("locale", "coach")
        platform, _, user_id = user_key.partition(":")
        async with self._transaction() as conn:
            await conn.execute(
                f"INSERT INTO users (platform, user_id, display_name, {column}, created_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (platform, user_id) "
                f"DO UPDATE SET {column} = excluded.{column}",
                (platform, user_id, user_id, value, time.time()),
            )

    async def coach_choices(self, user_keys: Collection[str]) -> dict[str, bool]:
        keys = sorted(set(user_keys))
        if not keys:
            return {}
        pairs, params = _user_pairs(keys)
        rows = await self._all(
            f"SELECT platform, user_id, coach FROM users WHERE coach IS NOT NULL AND ({pairs})",
            params,
        )
        return {f"{row[0]}:{row[1]}": bool(row[2]) for row in rows}

    async def set_coach(self, user_key: str, on: bool | None) -> None:
        await self._set_user_choice(user_key, "coach", None if on is None else int(on))

    async def create_table(self, table: Table, record: str | None = None) -> Table:
        values = _table_values(table)
        columns = ", ".join(values)
        marks = ", ".join("?" for _ in values)
        try:
            async with self._transaction() as conn:
                cursor = await conn.execute(
                    f"INSERT INTO tables ({columns}) VALUES ({marks})", tuple(values.values())
                )
                new_id = cursor.lastrowid
                if record is not None and new_id is not None:
                    await self._record(conn, new_id, table, record)
        except aiosqlite.IntegrityError:
            raise ActiveTableExists(str(table.key)) from None
        assert new_id is not None
        created = Table(**{**_fields(table), "id": new_id})
        self._keep(fingerprint(values), created)
        return created

    async def active_table(self, key: ChatKey) -> Table | None:
        row = await self._one(
            "SELECT * FROM tables WHERE chat_key = ? AND status IN ('lobby', 'playing')",
            (str(key),),
        )
        return None if row is None else self._decode(row)

    async def get_table(self, table_id: int) -> Table | None:
        row = await self._one("SELECT * FROM tables WHERE id = ?", (table_id,))
        return None if row is None else self._decode(row)

    async def commit(
        self,
        table: Table,
        expected_version: int,
        log: Sequence[LogEntry] = (),
        update_key: str | None = None,
        results: Sequence[ResultRow] = (),
        record: str | None = None,
    ) -> None:
        if table.version <= expected_version:
            raise ValueError("a commit must raise the table's version")
        values = _table_values(table)
        assignments = ", ".join(f"{k} = ?" for k in values)
        async with self._transaction() as conn:
            # One statement per step (each is a thread round trip): the key's insert is
            # its own duplicate check, and empty log or result lists send nothing.
            if update_key is not None:
                await self._claim_update_key(conn, table, update_key)
            cursor = await conn.execute(
                f"UPDATE tables SET {assignments} WHERE id = ? AND version = ?",
                (*values.values(), table.id, expected_version),
            )
            if cursor.rowcount != 1:
                raise VersionConflict(f"table {table.id} is no longer at {expected_version}")
            now = time.time()
            if log:
                await conn.executemany(
                    "INSERT INTO actions (table_id, version, seat, command, actor, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    [(table.id, e.version, e.seat, e.command, e.actor, now) for e in log],
                )
            if results:
                await self._store_results(conn, table, results, now)
            if record is not None:
                await self._record(conn, table.id, table, record)
            await self._announce(conn, table)
        self._keep(fingerprint(values), table)

    @staticmethod
    async def _claim_update_key(conn: Any, table: Table, update_key: str) -> None:
        """Note ``update_key`` as applied to ``table``'s new version, in the transaction of
        ``conn``; raises :class:`DuplicateUpdate` when it was applied before (the insert
        is its own duplicate check)."""
        cursor = await conn.execute(
            "INSERT INTO seen_updates VALUES (?, ?, ?, ?) ON CONFLICT (key) DO NOTHING",
            (update_key, table.id, table.version, time.time()),
        )
        if cursor.rowcount != 1:
            raise DuplicateUpdate(update_key)

    @staticmethod
    async def _store_results(
        conn: Any, table: Table, results: Sequence[ResultRow], now: float
    ) -> None:
        """The finished game's result rows and its rating, in the transaction of
        ``conn``."""
        await conn.executemany(
            "INSERT INTO results (table_id, seat, user_key, name, chat_key, variant, score, "
            "won, finished_at, ai_level) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    table.id,
                    r.seat,
                    r.user_key,
                    r.name,
                    str(table.key),
                    table.variant,
                    str(fraction_to_json(r.score)),
                    int(r.won),
                    now,
                    r.ai_level,
                )
                for r in results
            ],
        )
        await rate_finished(conn, table, now)

    @staticmethod
    async def _record(conn: Any, table_id: int, table: Table, record: str) -> None:
        """The change row of ``table``'s new version, in the transaction of ``conn``."""
        await conn.execute(
            "INSERT INTO table_changes (table_id, version, chat_key, record, created_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (table_id, table.version, str(table.key), record, table.updated_at),
        )

    async def _announce(self, conn: Any, table: Table) -> None:
        """Say, inside the commit's transaction, that ``table`` is now at its version, for
        the other processes' change feeds (:class:`bot.ports.feed.ChangeFeed`). One SQLite
        file serves one bot process: nothing to say."""

    # --- skill ratings (bot/storage/ratings_store.py) -------------------------------------

    async def rebuild_ratings(self) -> int:
        """Recompute every rating from the stored finished games (in the order they
        finished; on the global board each in the operator's season of its end, on its
        chat's board in the chat's season it was rated in, else the chat's season of its
        end) in one transaction; returns the games rated. The same games give the same
        ratings: running it again changes nothing."""
        finished = await self._all(
            "SELECT table_id, MIN(finished_at) FROM results "
            "GROUP BY table_id ORDER BY MIN(finished_at), table_id"
        )
        kept = {
            int(r[0]): int(r[1])
            for r in await self._all(
                "SELECT table_id, chat_season FROM rated_games WHERE chat_season IS NOT NULL"
            )
        }
        games: list[tuple[Table, float]] = []
        for table_id, at in finished:
            row = await self._one("SELECT * FROM tables WHERE id = ?", (table_id,))
            if row is None:
                continue
            try:
                games.append((table_from_row(row), float(at)))
            except UnreadableTable:
                log.warning("ratings rebuild: table %s cannot be read; left out", table_id)
        async with self._transaction() as conn:
            await conn.execute("DELETE FROM ratings")
            await conn.execute("DELETE FROM chat_ratings")
            await conn.execute("DELETE FROM rated_games")
            rated = 0
            for table, at in games:
                chat_season = kept.get(table.id)
                if chat_season is None:
                    chat_season = await chat_season_at(conn, str(table.key), at)
                rated += await rate_finished(conn, table, at, chat_season)
        return rated

    async def chat_ratings_of(
        self, user_key: str, chat_key: str, season: int
    ) -> list[dict[str, Any]]:
        rows = await self._all(
            "SELECT variant, season, mu, sigma, games, last_change FROM chat_ratings "
            "WHERE user_key = ? AND chat_key = ? AND season = ? ORDER BY variant",
            (user_key, chat_key, season),
        )
        return [_rating_row(r) for r in rows]

    async def ratings_of(self, user_key: str) -> list[dict[str, Any]]:
        """A person's ratings: ``{"variant", "season", "mu", "sigma", "shown", "games",
        "last_change"}`` per variant and season (``shown`` = mu - 3 sigma), newest season
        first."""
        rows = await self._all(
            "SELECT variant, season, mu, sigma, games, last_change FROM "
            "ratings WHERE user_key = ? ORDER BY season DESC, variant",
            (user_key,),
        )
        return [_rating_row(r) for r in rows]

    async def rating_board(
        self,
        variant: str,
        season: int,
        min_games: int = 1,
        limit: int = 10,
        chat_key: str | None = None,
    ) -> list[dict[str, Any]]:
        """The best ``limit`` ratings of ``variant`` in ``season`` with at least
        ``min_games`` rated games, by mu - 3 sigma: ``{"user", "name", "shown", "games"}``
        (``name``: the newest name the person finished a game under). ``chat_key`` ``None``:
        the global board (``season`` an operator's season); else that chat's board
        (``season`` a season of the chat: the ratings earned in its games)."""
        if chat_key is None:
            source, where = "ratings", "variant = ? AND season = ? AND games >= ?"
            params: list[Any] = [variant, season, min_games]
        else:
            source = "chat_ratings"
            where = "chat_key = ? AND variant = ? AND season = ? AND games >= ?"
            params = [chat_key, variant, season, min_games]
        rows = await self._all(
            "SELECT user_key, mu - 3 * sigma AS shown, games, "
            f"({_NEWEST_NAME.format(user=f'{source}.user_key')}) AS name "
            f"FROM {source} WHERE {where} ORDER BY shown DESC, user_key LIMIT ?",
            (*params, limit),
        )
        return [
            {"user": r[0], "shown": float(r[1]), "games": int(r[2]), "name": r[3] or r[0]}
            for r in rows
        ]

    async def current_season(self, at: float, chat_key: str | None = None) -> int:
        """The season running at ``at`` (Unix seconds), 1 before any other was started:
        ``chat_key`` ``None``: the operator's season of the global board (the last one
        started by ``at``; the operator may start one ahead), else that chat's latest
        season (a chat's season starts when it is started; :meth:`start_chat_season`)."""
        if chat_key is None:
            row = await self._one(
                "SELECT MAX(number) FROM rating_seasons WHERE started_at <= ?", (at,)
            )
        else:
            row = await self._one(
                "SELECT MAX(number) FROM chat_seasons WHERE chat_key = ?", (chat_key,)
            )
        return 1 if row is None or row[0] is None else int(row[0])

    async def start_season(self, at: float) -> int:
        """Start the next rating season of the global board at ``at`` (Unix seconds, not
        before the current season's start); returns its number (2 for the first one
        started)."""
        async with self._transaction() as conn:
            current = await season_at(conn, float("inf"))
            await conn.execute(
                "INSERT INTO rating_seasons (number, started_at) VALUES (?, ?)", (current + 1, at)
            )
        return current + 1

    async def start_chat_season(self, chat_key: str, at: float, by: str) -> int:
        """Start the next rating season of the chat ``chat_key`` at ``at`` (Unix seconds),
        started by the person ``by`` (a user key); returns its number (2 for the chat's
        first one started). The chat's games whose final commit comes after this one count
        in it (each game keeps the season it was rated in). Raises :class:`SeasonStillEmpty`
        while no game of the chat was rated in its running season (so two starts at once
        give one season: the loser of the race on a number finds the winner's season
        empty), :class:`StorageUnavailable` when the database cannot take it."""
        for _attempt in range(5):
            async with self._transaction() as conn:
                current = await chat_season_at(conn, chat_key, math.inf)
                if not await _rated_in_chat_season(conn, chat_key, current):
                    raise SeasonStillEmpty(season=current)
                cursor = await conn.execute(
                    "INSERT INTO chat_seasons (chat_key, number, started_at, started_by) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT (chat_key, number) DO NOTHING",
                    (chat_key, current + 1, at, by),
                )
                if cursor.rowcount == 1:
                    return current + 1
        raise StorageUnavailable()

    async def latest_ended(self, key: ChatKey) -> Table | None:
        row = await self._one(
            "SELECT * FROM tables WHERE chat_key = ? AND status IN "
            "('finished', 'cancelled') AND state IS NOT NULL "
            "ORDER BY updated_at DESC, id DESC LIMIT 1",
            (str(key),),
        )
        return None if row is None else self._decode(row)

    async def latest_ended_of_user(self, user_key: str) -> Table | None:
        rows = await self._all(
            "SELECT * FROM tables WHERE status IN ('finished', 'cancelled') "
            "AND state IS NOT NULL AND seats LIKE ? ORDER BY updated_at DESC, id DESC LIMIT 20",
            (f'%"user": "{user_key}"%',),
        )
        for row in rows:  # LIKE may match a longer key that starts the same way: check
            table = self._decode(row)
            if table.seat_of(user_key) is not None:
                return table
        return None

    async def seen_update(self, key: str) -> bool:
        return await self._one("SELECT 1 FROM seen_updates WHERE key = ?", (key,)) is not None

    async def update_table(self, key: str) -> int | None:
        row = await self._one("SELECT table_id FROM seen_updates WHERE key = ?", (key,))
        return None if row is None else int(row[0])

    async def prune_updates(self, before: float) -> int:
        async with self._transaction() as conn:
            cursor = await conn.execute("DELETE FROM seen_updates WHERE seen_at < ?", (before,))
            await conn.execute("DELETE FROM sent_keys WHERE created_at < ?", (before,))
            await conn.execute("DELETE FROM table_changes WHERE created_at < ?", (before,))
            return cursor.rowcount

    async def due_tables(self, now: float) -> list[int]:
        rows = await self._all(
            "SELECT id FROM tables WHERE status IN ('lobby', 'playing') "
            "AND due_at IS NOT NULL AND due_at <= ? AND id NOT IN "
            "(SELECT table_id FROM table_faults WHERE kind = 'quarantined')"
            " ORDER BY due_at",
            (now,),
        )
        return [row["id"] for row in rows]

    async def next_due(self, exclude: Collection[int] = ()) -> float | None:
        skip = sorted(exclude)
        marks = ", ".join("?" for _ in skip)
        extra = f" AND id NOT IN ({marks})" if skip else ""
        row = await self._one(
            "SELECT MIN(due_at) AS due FROM tables "
            "WHERE status IN ('lobby', 'playing') AND id NOT IN "
            "(SELECT table_id FROM table_faults WHERE kind = 'quarantined')" + extra,
            skip,
        )
        return None if row is None else row["due"]

    async def tables_of_user(
        self, user_key: str, unreadable: list[UnreadableTable] | None = None
    ) -> list[Table]:
        rows = await self._all(
            "SELECT * FROM tables WHERE status IN ('lobby', 'playing') "
            "AND seats LIKE ? ORDER BY id",
            (f'%"user": "{user_key}"%',),
        )
        tables = []
        for row in rows:
            try:
                tables.append(self._decode(row))
            except UnreadableTable as error:  # set aside; the user's other tables work
                if unreadable is not None:
                    unreadable.append(error)
        return [t for t in tables if t.seat_of(user_key) is not None]

    async def action_log(self, table_id: int) -> list[LogEntry]:
        rows = await self._all(
            "SELECT version, seat, command, actor FROM actions WHERE table_id = ? ORDER BY id",
            (table_id,),
        )
        return [LogEntry(r["version"], r["seat"], r["command"], r["actor"]) for r in rows]

    async def user_stats(self, user_key: str) -> dict[str, Any]:
        row = await self._one(
            "SELECT COUNT(*) AS games, COALESCE(SUM(won), 0) AS wins "
            "FROM results WHERE user_key = ?",
            (user_key,),
        )
        assert row is not None
        levels = await self._all(
            "SELECT ai.ai_level AS level, COUNT(DISTINCT own.table_id) AS games, "
            "COUNT(DISTINCT CASE WHEN own.won = 1 THEN own.table_id END) AS wins "
            "FROM results own JOIN results ai ON ai.table_id = own.table_id "
            "AND ai.ai_level IS NOT NULL WHERE own.user_key = ? GROUP BY ai.ai_level",
            (user_key,),
        )
        against = sorted(
            ({"level": r["level"], "games": r["games"], "wins": r["wins"]} for r in levels),
            key=lambda r: (_LEVEL_ORDER.get(r["level"], len(_LEVEL_ORDER)), r["level"]),
        )
        return {"games": row["games"], "wins": row["wins"], "against_ai": against}

    async def finished_games(self, user_keys: Collection[str], variant: str) -> dict[str, int]:
        keys = sorted(set(user_keys))
        if not keys:
            return {}
        marks = ", ".join("?" for _ in keys)
        rows = await self._all(
            f"SELECT user_key, COUNT(*) FROM results WHERE variant = ? "
            f"AND user_key IN ({marks}) GROUP BY user_key",
            [variant, *keys],
        )
        counts = {key: 0 for key in keys}
        counts.update({row[0]: int(row[1]) for row in rows})
        return counts

    async def leaderboard(self, chat_key: str | None, limit: int) -> list[dict[str, Any]]:
        where = "user_key IS NOT NULL" + (" AND chat_key = ?" if chat_key else "")
        params: tuple[Any, ...] = (chat_key,) if chat_key else ()
        rows = await self._all(
            f"SELECT user_key, ({_NEWEST_NAME.format(user='g.user_key')}) AS name, "
            f"COUNT(*) AS games, SUM(won) AS wins "
            f"FROM results g WHERE {where} GROUP BY user_key "
            f"ORDER BY wins DESC, games DESC, name LIMIT ?",
            (*params, limit),
        )
        return [
            {"user": r["user_key"], "name": r["name"], "games": r["games"], "wins": r["wins"]}
            for r in rows
        ]

    async def count_tables(self) -> int:
        row = await self._one("SELECT COUNT(*) AS n FROM tables")
        assert row is not None
        return int(row["n"])

    async def heartbeat(self, now: float) -> None:
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO heartbeat VALUES (1, ?) ON CONFLICT (id) "
                "DO UPDATE SET beat_at = excluded.beat_at",
                (now,),
            )

    async def last_heartbeat(self) -> float | None:
        row = await self._one("SELECT beat_at FROM heartbeat WHERE id = 1")
        return None if row is None else float(row["beat_at"])

    async def shift_timeline(self, seconds: float) -> int:
        # The rows keep their version: the content a version names stays the same for
        # every reader that decodes it again, so the decoded-table cache is dropped.
        async with self._transaction() as conn:
            cursor = await conn.execute(
                "UPDATE tables SET due_at = due_at + ?1, deadline = deadline + ?1, "
                "last_human_at = last_human_at + ?1, updated_at = CASE status "
                "WHEN 'lobby' THEN updated_at + ?1 ELSE updated_at END "
                "WHERE status IN ('lobby', 'playing')",
                (seconds,),
            )
            count = cursor.rowcount
        self._written.clear()
        return count

    async def record_fault(
        self, table_id: int, kind: str, failures: int, error: str, retry_at: float | None
    ) -> None:
        now = time.time()
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO table_faults VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id) "
                "DO UPDATE SET kind = excluded.kind, failures = excluded.failures, "
                "error = excluded.error, retry_at = excluded.retry_at, "
                "last_at = excluded.last_at",
                (table_id, kind, failures, error, retry_at, now, now),
            )

    async def quarantine(self, table_id: int, error: str) -> bool:
        # One statement: a row of another kind (a back-off) becomes the quarantine; a
        # quarantine already stored stays as it is and says so (no row changed).
        now = time.time()
        async with self._transaction() as conn:
            cursor = await conn.execute(
                "INSERT INTO table_faults VALUES (?, 'quarantined', 1, ?, NULL, ?, ?) "
                "ON CONFLICT (table_id) DO UPDATE SET kind = excluded.kind, failures = 1, "
                "error = excluded.error, retry_at = NULL, last_at = excluded.last_at "
                "WHERE table_faults.kind <> 'quarantined'",
                (table_id, error, now, now),
            )
            return bool(cursor.rowcount)

    async def clear_fault(self, table_id: int) -> None:
        async with self._transaction() as conn:
            await conn.execute("DELETE FROM table_faults WHERE table_id = ?", (table_id,))

    async def faults(self) -> list[dict[str, Any]]:
        rows = await self._all(
            "SELECT f.*, t.chat_key FROM table_faults f LEFT JOIN tables t ON t.id = f.table_id "
            "ORDER BY f.last_at DESC"
        )
        return [dict(zip(row.keys(), row, strict=True)) for row in rows]

    async def quarantined_tables(self) -> list[int]:
        rows = await self._all("SELECT table_id FROM table_faults WHERE kind = 'quarantined'")
        return [row["table_id"] for row in rows]

    async def claim_due(
        self, owner: str, now: float, seconds: float, limit: int, exclude: Collection[int] = ()
    ) -> list[DueClaim]:
        """The due tables, loaded (one query): one process owns a SQLite file, so there
        is nobody to lease them from (several services on one file, as in the tests, are
        still kept apart by the version compare-and-set)."""
        skip = sorted(exclude)
        marks = ", ".join("?" for _ in skip)
        extra = f" AND id NOT IN ({marks})" if skip else ""
        rows = await self._all(
            "SELECT * FROM tables WHERE status IN ('lobby', 'playing') AND due_at IS NOT NULL "
            "AND due_at <= ? AND id NOT IN (SELECT table_id FROM table_faults WHERE "
            "kind = 'quarantined' OR retry_at > ?)" + extra + " ORDER BY due_at LIMIT ?",
            (now, now, *skip, limit),
        )
        return [self._claimed(row) for row in rows]

    def _claimed(self, row: Any) -> DueClaim:
        """A claimed row decoded, or the error that kept it from decoding."""
        try:
            return DueClaim(row["id"], self._decode(row))
        except UnreadableTable as error:
            return DueClaim(row["id"], None, error)

    async def take_role(self, role: str) -> RoleLock | None:
        """Always granted: one process owns a SQLite file."""
        return await hold_forever(role)


def _fields(table: Table) -> dict[str, Any]:
    return {name: getattr(table, name) for name in Table.__dataclass_fields__}


def _user_pairs(user_keys: Sequence[str]) -> tuple[str, list[str]]:
    """The ``users`` rows of ``user_keys`` (``platform:user_id``) as a WHERE clause of
    (platform, user id) pairs and its parameters."""
    pairs = " OR ".join("(platform = ? AND user_id = ?)" for _ in user_keys)
    return pairs, [part for key in user_keys for part in key.split(":", 1)]


async def _rated_in_chat_season(conn: Any, chat_key: str, season: int) -> bool:
    """Whether a game of the chat ``chat_key`` was rated in the chat's ``season``, read
    in the transaction of ``conn``."""
    rows = await conn.execute_fetchall(
        "SELECT 1 FROM rated_games g JOIN tables t ON t.id = g.table_id "
        "WHERE t.chat_key = ? AND g.chat_season = ? LIMIT 1",
        (chat_key, season),
    )
    return bool(rows)


def _rating_row(r: Any) -> dict[str, Any]:
    """A row ``variant, season, mu, sigma, games, last_change`` of ``ratings`` or
    ``chat_ratings`` as ``{"variant", "season", "mu", "sigma", "shown", "games",
    "last_change"}`` (``shown`` = mu - 3 sigma)."""
    return {
        "variant": r[0],
        "season": int(r[1]),
        "mu": float(r[2]),
        "sigma": float(r[3]),
        "shown": float(r[2]) - 3 * float(r[3]),
        "games": int(r[4]),
        "last_change": float(r[5]),
    }
