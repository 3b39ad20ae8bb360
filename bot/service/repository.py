"""The storage port of the game service: what it needs from a database (:class:`Repository`),
the records it writes with a table (:class:`LogEntry`, :class:`ResultRow`) and the
outcomes of a commit (:class:`VersionConflict`, :class:`DuplicateUpdate`,
:class:`ActiveTableExists`).

The service owns this protocol; :mod:`bot.storage` implements it (SQLite today), so the
service never imports storage and storage depends on the service's model only.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from bot.ports.message_store import DiscordMessageStore, TelegramMessageStore
from bot.ports.model import ChatKey
from bot.ports.roles import RoleLock
from bot.service.errors import UnreadableTable
from bot.service.model import Table
from bot.service.outbox import OutboxStore

__all__ = [
    "ActiveTableExists",
    "DueClaim",
    "DuplicateUpdate",
    "LogEntry",
    "Repository",
    "ResultRow",
    "VersionConflict",
]


class VersionConflict(Exception):
    """The table changed since it was loaded (another click or process won)."""


class DuplicateUpdate(Exception):
    """This platform update or interaction was already applied."""


class ActiveTableExists(Exception):
    """The chat already has a lobby or a running game."""


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of a table's action log: the ``version`` it produced, the ``seat`` (or
    ``None`` for lobby steps), the ``command`` text and the ``actor`` (user key, ``ai``,
    ``timer``)."""

    version: int
    seat: int | None
    command: str
    actor: str


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One seat's result of a finished game: ``user_key`` ``None`` and ``ai_level`` the
    level it played at (easy, normal, hard, expert) for an AI seat."""

    seat: int
    user_key: str | None
    name: str
    score: Fraction
    won: bool
    ai_level: str | None = None


@dataclass(frozen=True, slots=True)
class DueClaim:
    """A due table claimed for a worker (:meth:`Repository.claim_due`): its id and the
    ``table`` as loaded, or the ``error`` its row raised when it did not decode
    (:class:`bot.service.errors.UnreadableTable`; ``table`` is then ``None``)."""

    table_id: int
    table: Table | None
    error: UnreadableTable | None = None


class Repository(Protocol):
    """What the game service needs from storage."""

    async def upsert_user(
        self, platform: str, user_id: str, name: str, app_locale: str | None = None
    ) -> None:
        """Create the user or update the display name and, when given, the language of
        their app (``app_locale``, a tag such as ``de-DE``)."""

    async def user_locales(
        self, user_keys: Collection[str]
    ) -> dict[str, tuple[str | None, str | None]]:
        """For each known user of ``user_keys``: (the language they chose with ``lang``,
        their app's language as last seen); one query."""

    async def user_locale(self, user_key: str) -> str | None:
        """The language the user chose with ``lang`` (``None``: follow the platform)."""

    async def set_user_locale(self, user_key: str, locale: str | None) -> None:
        """Store (or clear) the user's language."""

    async def coach_choices(self, user_keys: Collection[str]) -> dict[str, bool]:
        """For each user of ``user_keys`` who chose (``coach on|off``): whether the coach's
        notes are on; one query (a user missing: the default)."""

    async def set_coach(self, user_key: str, on: bool | None) -> None:
        """Store (or, with ``None``, clear) the user's choice of the coach's notes."""

    async def create_table(self, table: Table, record: str | None = None) -> Table:
        """Insert a new table (with its first change row ``record``:
        :mod:`bot.service.change_records`); returns it with its id. Raises
        :class:`ActiveTableExists`."""

    async def active_table(self, key: ChatKey) -> Table | None:
        """The lobby or running game of a chat."""

    async def get_table(self, table_id: int) -> Table | None:
        """A table by id, whatever its status."""

    async def commit(
        self,
        table: Table,
        expected_version: int,
        log: Sequence[LogEntry] = (),
        update_key: str | None = None,
        results: Sequence[ResultRow] = (),
        record: str | None = None,
    ) -> None:
        """Store ``table`` if the stored version is still ``expected_version``, with its
        change row (``record``, JSON: :mod:`bot.service.change_records`) in the same
        transaction.

        Raises :class:`VersionConflict` or :class:`DuplicateUpdate`; then nothing changed.
        """

    async def seen_update(self, key: str) -> bool:
        """True when an update with this idempotency key was applied."""

    async def update_table(self, key: str) -> int | None:
        """The id of the table an update with this idempotency key was applied to, or
        ``None`` when it was not applied."""

    async def prune_updates(self, before: float) -> int:
        """Forget the idempotency keys seen before ``before`` (Unix time, seconds), and the
        send keys and change rows (:mod:`bot.service.outbox`) written before it; returns
        how many update keys were removed. Platforms stop redelivering long before."""

    async def latest_ended(self, key: ChatKey) -> Table | None:
        """The chat's most recently ended (finished or cancelled) table that was played."""

    async def latest_ended_of_user(self, user_key: str) -> Table | None:
        """The most recently ended (finished or cancelled) table that was played with
        ``user_key`` in a seat, wherever it was played."""

    async def due_tables(self, now: float) -> list[int]:
        """Ids of active tables whose next automatic step is due (not quarantined)."""

    async def next_due(self, exclude: Collection[int] = ()) -> float | None:
        """The earliest ``due_at`` of an active, not quarantined table not in
        ``exclude``."""

    async def tables_of_user(
        self, user_key: str, unreadable: list[UnreadableTable] | None = None
    ) -> list[Table]:
        """Active tables where the user has a seat that can be loaded; the error of each
        that cannot is appended to ``unreadable`` (when given)."""

    async def action_log(self, table_id: int) -> list[LogEntry]:
        """The table's action log in order."""

    async def user_stats(self, user_key: str) -> dict[str, Any]:
        """``{"games", "wins"}`` of a user over every finished game, and ``"against_ai"``:
        per AI level met at their tables, ``{"level", "games", "wins"}`` (the games with
        at least one AI seat of that level, and how many of them the user won), levels
        in the order easy, normal, hard, expert."""

    async def finished_games(self, user_keys: Collection[str], variant: str) -> dict[str, int]:
        """How many games of ``variant`` each of ``user_keys`` has finished (their stored
        results); one query."""

    async def leaderboard(self, chat_key: str | None, limit: int) -> list[dict[str, Any]]:
        """Users by wins (then games), in one chat or overall."""

    async def rating_board(
        self,
        variant: str,
        season: int,
        min_games: int = 1,
        limit: int = 10,
        chat_key: str | None = None,
    ) -> list[dict[str, Any]]:
        """The best ``limit`` ratings of ``variant`` in ``season`` with at least
        ``min_games`` rated games, by mu - 3 sigma: ``{"user", "name", "shown", "games"}``;
        ``chat_key``: that chat's board (``season`` a season of the chat; the ratings earned
        in its games), else the global board (an operator's season)."""

    async def current_season(self, at: float, chat_key: str | None = None) -> int:
        """The rating season a game finishing at ``at`` (Unix seconds) counts in (1 before
        any other was started): the operator's, or the chat ``chat_key``'s."""

    async def start_chat_season(self, chat_key: str, at: float, by: str) -> int:
        """Start the next season of the chat ``chat_key``'s board at ``at``, by the person
        ``by`` (a user key); returns its number. Raises :class:`StorageUnavailable` when
        the database cannot take it."""

    async def ratings_of(self, user_key: str) -> list[dict[str, Any]]:
        """A person's skill ratings (:mod:`bot.service.ratings`): ``{"variant", "season",
        "mu", "sigma", "shown", "games", "last_change"}`` per variant and season, newest
        season first."""

    async def chat_ratings_of(
        self, user_key: str, chat_key: str, season: int
    ) -> list[dict[str, Any]]:
        """A person's skill ratings earned in the chat ``chat_key``'s season ``season``
        (``chat_ratings``): ``{"variant", "season", "mu", "sigma", "shown", "games",
        "last_change"}`` per variant."""

    async def count_tables(self) -> int:
        """All stored tables."""

    async def heartbeat(self, now: float) -> None:
        """Store that the bot is up at ``now`` (Unix time)."""

    async def last_heartbeat(self) -> float | None:
        """The last stored heartbeat, ``None`` before the first."""

    async def shift_timeline(self, seconds: float) -> int:
        """Move the deadlines, due times, idle clocks and lobby expiry of every active
        table by ``seconds`` (downtime, a clock step); returns how many tables moved."""

    async def record_fault(
        self, table_id: int, kind: str, failures: int, error: str, retry_at: float | None
    ) -> None:
        """Store a table's fault (``kind``: ``backoff`` or ``quarantined``)."""

    async def quarantine(self, table_id: int, error: str) -> bool:
        """Record that table ``table_id`` cannot be loaded (``error``: why, for the
        operator): it is never scheduled again until the fault is cleared. True when this
        recorded it, False when it was recorded before (by this process or another)."""

    async def clear_fault(self, table_id: int) -> None:
        """Forget a table's fault (it runs again)."""

    async def faults(self) -> list[dict[str, Any]]:
        """Every stored fault, newest first (for operators)."""

    async def quarantined_tables(self) -> list[int]:
        """Ids of quarantined tables."""

    async def claim_due(
        self, owner: str, now: float, seconds: float, limit: int, exclude: Collection[int] = ()
    ) -> list[DueClaim]:
        """Claim and load up to ``limit`` active tables whose automatic step is due at
        ``now`` (Unix time) for worker ``owner``, earliest first, in one statement: not
        quarantined, not backing off (a stored fault whose ``retry_at`` is after
        ``now``), not in ``exclude``, and not leased to another worker for the table's
        current version. The lease lasts until ``now + seconds`` and ends when the step's
        commit raises the version. No worker waits for rows another one holds (PostgreSQL:
        ``FOR UPDATE SKIP LOCKED``); with one process per SQLite file there are no leases."""

    async def take_role(self, role: str) -> RoleLock | None:
        """Take ``role`` (e.g. ``telegram-polling``) now, or ``None`` when another live
        process holds it (:mod:`bot.ports.roles`). With one process per database: always
        granted."""

    @property
    def telegram_messages(self) -> TelegramMessageStore:
        """The Telegram adapter's message rows, on this repository's connection."""

    @property
    def discord_messages(self) -> DiscordMessageStore:
        """The Discord adapter's message rows, on this repository's connection."""

    @property
    def outbox(self) -> OutboxStore:
        """Change rows, chat owners and send keys (:mod:`bot.service.outbox`)."""
