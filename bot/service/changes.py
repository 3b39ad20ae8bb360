"""The one way a table changes (:class:`TableChanges`): load it once, run a step (a lobby
step, a person's move, an automatic step) that produces the new table, commit it in one
transaction with a compare-and-set on its version (and the action log, the update's
idempotency key, the results, the change row that any worker shows it from:
:mod:`bot.service.change_records`). A refused step raises an
:class:`engine.errors.EngineError` subclass and changes nothing.

A table whose stored row cannot be loaded is reported at its first failure, whatever
loaded it (:class:`bot.service.faults.TableFaults`), and refused.

The table is loaded once, before its lock is taken; the lock only keeps two changes of
the same table in this process from computing on the same version. A version race lost
to another process (the compare-and-set failed) loads the table again and runs the step
once more, at most :data:`bot.service.limits.RETRIES` times. The update key is checked
once: in the commit's transaction (a key seen before makes it fail), or when the step
refuses a move that a first delivery of the same update already made.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace

from cachetools import LRUCache

from bot.ports.model import ChatKey, SeatKind, Status
from bot.ports.screens import Notice, SeatFacts
from bot.ports.table_rules import level_of
from bot.service.change_records import change_record
from bot.service.clock import Clock
from bot.service.compute import BudgetExceeded
from bot.service.errors import NoTable, TableBusy, UnreadableTable
from bot.service.faults import TableFaults
from bot.service.limits import RETRIES
from bot.service.model import Table
from bot.service.repository import (
    DuplicateUpdate,
    LogEntry,
    Repository,
    ResultRow,
    VersionConflict,
)
from bot.service.scheduling import reschedule
from engine.errors import EngineError
from engine.events import Event

__all__ = ["Change", "Committed", "Step", "TableChanges", "result_rows", "why_failed"]

log = logging.getLogger(__name__)

Where = ChatKey | int
"""A table by its chat (the chat's active table) or by its id."""


@dataclass
class Change:
    """What one step did: the new ``table``, its ``log`` lines (seat, command, actor),
    ``events``, ``notices``, ``results``, which seats' private hands changed (``hands``;
    ``None``: every seat's), whether a person acted (``human``: the idle clock restarts)
    and the engine's ``facts`` of the people's seats in the new position when the step's
    worker call computed them (seat -> facts)."""

    table: Table
    log: list[tuple[int | None, str, str]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    results: list[ResultRow] = field(default_factory=list)
    hands: set[int] | None = None
    human: bool = True
    facts: dict[int, SeatFacts] = field(default_factory=dict)


Step = Callable[[Table], Awaitable[Change]]
"""A change of a loaded table: returns the :class:`Change` (its ``table`` unchanged:
nothing to store) or raises an ``EngineError`` (nothing changes)."""


@dataclass(frozen=True)
class Committed:
    """The result of :meth:`TableChanges.run`: the table as ``before`` the step, the
    ``change`` (``change.table``: the stored table) and whether anything was ``stored``
    (``False``: the step changed nothing, or the update had been applied before; then
    ``change.table`` is the table as it is)."""

    before: Table
    change: Change
    stored: bool

    @property
    def table(self) -> Table:
        """The table after the step."""
        return self.change.table


class TableChanges:
    """Loads, steps and commits tables (see the module docstring). ``poke`` is told the
    new due time after every commit (the scheduler's wake-up); ``faults`` is told about
    each table that cannot be loaded."""

    def __init__(
        self,
        repo: Repository,
        clock: Clock,
        poke: Callable[[float | None], None] = lambda due_at: None,
        faults: TableFaults | None = None,
    ) -> None:
        self.repo = repo
        self.clock = clock
        self.poke = poke
        self.faults = faults
        # A table's lock lives while someone holds or waits for it: no growth per table.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        #: table id -> the newest version this process committed (bounded).
        self._newest: LRUCache[int, int] = LRUCache(10_000)
        #: table id -> the version this process is committing now.
        self._committing: dict[int, int] = {}
        #: Told the table id of a commit this process lost (another worker's change won,
        #: or the update was applied elsewhere): the delivery looks at the table again.
        self.lost: Callable[[int], None] = lambda table_id: None

    async def load(self, where: Where) -> Table:
        """The chat's active table, or the active table with that id. Raises
        :class:`NoTable`, or :class:`UnreadableTable` (reported)."""
        table = await self.read(where)
        if table is None or table.status not in (Status.LOBBY, Status.PLAYING):
            raise NoTable()
        return table

    async def read(self, where: Where) -> Table | None:
        """The chat's active table, or the table with that id whatever its status, or
        ``None``. Raises :class:`UnreadableTable` (reported)."""
        try:
            table = (
                await self.repo.active_table(where)
                if isinstance(where, ChatKey)
                else await self.repo.get_table(where)
            )
        except UnreadableTable as error:
            await self.report(error)
            raise
        if table is not None and self.faults is not None:
            self.faults.loaded(table.id)
        return table

    async def report(self, error: UnreadableTable) -> None:
        """Tell :attr:`faults` about a table that cannot be loaded."""
        if self.faults is not None:
            await self.faults.unreadable(error)

    async def tables_of(self, user_key: str) -> list[Table]:
        """The active tables where ``user_key`` sits; one that cannot be loaded is
        reported and left out (the person's other tables work)."""
        unreadable: list[UnreadableTable] = []
        tables = await self.repo.tables_of_user(user_key, unreadable)
        for error in unreadable:
            await self.report(error)
        return tables

    async def applied(self, update_key: str) -> Table | None:
        """The table an update with ``update_key`` was already applied to, or ``None``."""
        table_id = await self.repo.update_table(update_key)
        return None if table_id is None else await self.get(table_id)

    async def get(self, table_id: int) -> Table | None:
        """Table ``table_id`` whatever its status, or ``None``; raises
        :class:`UnreadableTable` (reported)."""
        return await self.read(table_id)

    def _lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    async def run(
        self, where: Where, step: Step, update_key: str | None = None, loaded: Table | None = None
    ) -> Committed:
        """Load the table (unless ``loaded`` is given), run ``step``, commit with
        compare-and-set. A duplicate update (same ``update_key``) changes nothing and
        answers with the table it was applied to, even when both deliveries arrive at once
        or the first one ended the game. Raises the step's ``EngineError``, or
        :class:`TableBusy` after :data:`RETRIES` lost races."""
        table = loaded if loaded is not None else await self.load(where)
        for attempt in range(RETRIES):
            async with self._lock(table.id):
                outcome = await self._attempt(table, step, update_key, attempt)
            if isinstance(outcome, Table):  # a race lost: again on the table as stored now
                table = outcome
                continue
            if outcome.stored:
                self.poke(outcome.change.table.due_at)
            return outcome
        raise AssertionError("unreachable")

    async def _attempt(
        self, table: Table, step: Step, update_key: str | None, attempt: int
    ) -> Committed | Table:
        """One try of :meth:`run` (under the table's lock): run ``step`` on ``table`` (on
        the table as stored now when this process moved it meanwhile) and commit. Returns
        the outcome, or the table as stored now after a race lost at this ``attempt``
        (then :meth:`run` tries again). Raises the step's ``EngineError`` unless the
        update had been applied before."""
        try:
            if self._newest.get(table.id, table.version) > table.version:
                table = await self._reload(table)  # this process moved it meanwhile
            change = await step(table)
        except EngineError:
            done = await self.applied(update_key) if update_key is not None else None
            if done is not None:  # a first delivery of this update made the move
                return Committed(done, Change(done), stored=False)
            raise
        if change.table == table:  # a step that changes nothing stores nothing
            return Committed(table, change, stored=False)
        return await self._commit(table, change, update_key, attempt)

    async def _commit(
        self, table: Table, change: Change, update_key: str | None, attempt: int
    ) -> Committed | Table:
        """Store ``change`` (made on ``table``) with compare-and-set: its version, times
        and next due step are set here. Returns the outcome, or the table as stored now
        after a race lost at this ``attempt``; raises :class:`TableBusy` after the last
        attempt and a storage fault as it is."""
        now = self.clock.now()
        new = replace(
            change.table,
            version=table.version + 1,
            updated_at=now,
            last_human_at=now if change.human else table.last_human_at,
        )
        change.table = reschedule(table, new, now)
        entries = [
            LogEntry(table.version + 1, seat, command, actor) for seat, command, actor in change.log
        ]
        record = change_record(table, change.table, change.events, change.notices, change.hands)
        self._committing[table.id] = table.version + 1
        try:
            await self.repo.commit(
                change.table, table.version, entries, update_key, change.results, record
            )
        except DuplicateUpdate:
            self._lost(table.id)
            assert update_key is not None
            done = await self.applied(update_key) or table
            return Committed(done, Change(done), stored=False)
        except VersionConflict:
            self._lost(table.id)
            if attempt == RETRIES - 1:
                raise TableBusy() from None
            return await self._after_conflict(table, update_key)
        except BaseException:  # a storage fault: the commit may have happened
            self._lost(table.id)
            raise
        self.note_committed(change.table)
        return Committed(table, change, stored=True)

    async def _after_conflict(self, table: Table, update_key: str | None) -> Committed | Table:
        """After a lost race on ``table``: the table as stored now, or, when the game ended
        meanwhile (maybe by this very update), the outcome of the update applied before;
        raises :class:`NoTable` when it was not."""
        try:
            return await self._reload(table)
        except NoTable:  # the game ended meanwhile: maybe by this very update
            done = await self.applied(update_key) if update_key else None
            if done is None:
                raise
            return Committed(done, Change(done), stored=False)

    async def _reload(self, table: Table) -> Table:
        """The table as stored now (read like :meth:`get`: a row that cannot be decoded is
        reported); :class:`NoTable` once it is no longer active (as :meth:`load` would
        say)."""
        fresh = await self.get(table.id)
        if fresh is None or fresh.status not in (Status.LOBBY, Status.PLAYING):
            raise NoTable()
        return fresh

    def committed_here(self, table_id: int, version: int) -> bool:
        """Whether this process committed (or is committing) ``version`` of table
        ``table_id`` or a later one: it shows that change itself once committed."""
        return max(self._committing.get(table_id, -1), self._newest.get(table_id, -1)) >= version

    def _lost(self, table_id: int) -> None:
        self._committing.pop(table_id, None)
        self.lost(table_id)

    def note_committed(self, table: Table) -> None:
        """Note that this process committed (or created) ``table`` at its version."""
        self._committing.pop(table.id, None)
        self._newest[table.id] = table.version


def result_rows(table: Table, winners: Sequence[int]) -> list[ResultRow]:
    """One :class:`ResultRow` per seat of a finished game (its totals and winners; an AI
    seat with the level it played at)."""
    assert table.state is not None
    return [
        ResultRow(
            seat,
            s.user,
            s.name,
            table.state.totals[seat],
            seat in winners,
            level_of(s.ai) if s.kind is SeatKind.AI and s.ai else None,
        )
        for seat, s in enumerate(table.seats)
    ]


def why_failed(error: BaseException) -> str:
    """Why an engine call gave no answer, for the log."""
    return (
        "ran out of its budget"
        if isinstance(error, BudgetExceeded)
        else f"lost its worker ({error})"
    )
