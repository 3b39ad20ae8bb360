"""The core of the game service (:class:`TableCore`): its parts and the one way a table
changes. Flow of a change: take the table's lock, load it, let the engine (or a lobby
step) produce the new table, commit it in one transaction with a compare-and-set on its
version (and the action log, the update's idempotency key, the results), and only then
notify the platforms. A refused change raises an :class:`engine.errors.EngineError`
subclass and changes nothing. Also the service's limits and budgets, and the records a
step returns (:class:`Change`) or a hand screen is built from (:class:`HandFacts`)."""

from __future__ import annotations

import asyncio
import logging
import secrets
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from bot.ports.model import ChatKey, Status, TableInfo, TableSettings, UserRef
from bot.service.clock import Clock, SystemClock
from bot.service.compute import BudgetExceeded, Compute, InlineCompute
from bot.service.errors import (
    NoTable,
    NotPlaying,
    NotSeated,
    TableBusy,
    TooManyTables,
)
from bot.service.flow import FlowControl
from bot.service.model import Table
from bot.service.notifier import Notice, Notifier
from bot.service.repository import (
    DuplicateUpdate,
    LogEntry,
    Repository,
    ResultRow,
    VersionConflict,
)
from bot.service.scheduler import Scheduler
from bot.service.scheduling import reschedule
from bot.service.table_rules import table_rules
from engine.actions import Action
from engine.errors import EngineError
from engine.events import Event
from engine.game import current_player
from engine.rules import RuleSet
from engine.search import Partition
from engine.state import GameState
from engine.views import PlayerView, public_view, view_for

log = logging.getLogger(__name__)

#: How often a change is retried after losing a version race to another process.
RETRIES = 3

UPDATE_KEY_SECONDS = 2 * 86400
"""How long an update's idempotency key is kept: Telegram keeps an undelivered update for
24 hours and a Discord interaction expires after 15 minutes, so no platform delivers an
update again after this; older keys are pruned (they were a third of the database)."""

DEFAULT_BUDGET = 2.0
"""Seconds an engine call (a move, an AI decision, a hint, the legal-move list) may take
before it is given up (``ENGINE_BUDGET``): far above the engine's usual milliseconds, far
below what a person waiting for an answer tolerates."""

QUICK_BUDGET = 0.5
"""Seconds for :func:`engine.game.quick_action` when an AI decision ran out of budget."""

MAX_TABLES_PER_USER = 20
"""Active tables (lobbies and games) one person may sit at: bounds what one account can
make the bot store and run."""

MAX_TURN_ACTIONS = 64
"""Actions the autopilot may play in one expired turn (a turn is a handful of actions;
the bound keeps a confused engine from looping)."""

QUICK_AFTER_TIMEOUT = 8
"""After an AI decision of a table ran out of its budget, the table's next this many AI
actions are quick moves: one hard position must not keep the background workers (which
every AI table shares) busy for a budget per move."""

LEASE_SECONDS = 15.0
"""How long a worker's claim on a table's due step lasts (PostgreSQL with several workers):
longer than a step takes (an engine call has a budget of a few seconds); a dead worker's
tables wait at most this long for another worker."""

HINT_CACHE = 512
"""Hints kept per (table, version, seat): asking again for the same position is free."""


@dataclass
class Change:
    """What one step did: the new table, its log lines, events, notices, results, and
    which seats' private views changed (``None``: every human seat)."""

    table: Table
    log: list[tuple[int | None, str, str]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    results: list[ResultRow] = field(default_factory=list)
    hands: set[int] | None = None
    human: bool = True


Step = Callable[[Table], Awaitable[Change]]


@dataclass(frozen=True)
class HandFacts:
    """One seat's hand screen facts (:meth:`GameService.hand_facts`): the table ``info``,
    the seat's ``view``, its ``legal`` actions now, the ``suggestion`` (one of them, or
    ``None``), the ``melds`` of the hand when asked for, and whether the engine answered
    in time (``complete``)."""

    info: TableInfo
    view: PlayerView
    legal: tuple[Action, ...]
    suggestion: Action | None
    melds: Partition | None
    complete: bool = True


class TableCore:
    """The shared core of the game service: its parts (repository, notifiers, clock,
    engine worker pool, flow control) and the one way a table changes: take its lock,
    load it, run a step, commit with a compare-and-set on the version, then notify
    (:meth:`_change`). The steps and questions are mixed in by
    :class:`bot.service.service.GameService`."""

    def __init__(self, repo: Repository, notifiers: Mapping[str, Notifier] | None = None,
                 clock: Clock | None = None, defaults: TableSettings | None = None,
                 seed_source: Callable[[], int] | None = None,
                 default_locale: str = "en", compute: Compute | None = None,
                 budget: float = DEFAULT_BUDGET, worker_id: str | None = None) -> None:
        self.repo = repo
        #: Where engine work runs (:class:`bot.service.compute.WorkerPool` in the bot and
        #: the terminal; in-process by default, for tests).
        self.compute: Compute = compute or InlineCompute()
        self.budget = budget
        self.default_locale = default_locale
        self.notifiers: dict[str, Notifier] = dict(notifiers or {})
        self.clock = clock or SystemClock()
        self.defaults = defaults or TableSettings()
        self._seed = seed_source or (lambda: secrets.randbits(62))
        # A table's lock lives while someone holds or waits for it: no growth per chat.
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = \
            weakref.WeakValueDictionary()
        self._hints: OrderedDict[tuple[int, int, int], Partition | None] = OrderedDict()
        self._facts: OrderedDict[tuple[int, int, int],
                                 tuple[list[Action], Action | None, Partition | None]] = \
            OrderedDict()
        #: Table id -> AI actions still to play quickly after a decision over budget.
        self._quick: OrderedDict[int, int] = OrderedDict()
        self._scheduler: Scheduler | None = None
        #: Flow control the adapters apply to every update before it reaches the service.
        self.flow = FlowControl()
        #: This service's name in leases on due work: ``worker_id`` (``WORKER_ID``: a
        #: restarted worker of the same name takes its leases back at once), else random.
        self.worker_id = worker_id or secrets.token_hex(6)

    def rules_of(self, table: Table) -> RuleSet:
        """The table's rule set (:func:`bot.service.table_rules.table_rules`)."""
        return table_rules(table.variant, table.preset, dict(table.options))

    def _ai_seed(self, table: Table) -> int:
        return table.seed + 7919 * table.version

    def _poke(self, due_at: float | None) -> None:
        """Tell the scheduler that a table is now due at ``due_at``."""
        if self._scheduler is not None:
            self._scheduler.poke(due_at)

    async def _change(self, key: ChatKey, step: Step, update_key: str | None) -> TableInfo:
        """Load, step, commit with compare-and-set, then notify. Retries a lost version race.
        A duplicate update (same ``update_key``, e.g. a message delivered twice) changes
        nothing and returns the table it was applied to, even when both deliveries arrive
        at once or the first one ended the game."""
        if update_key is not None and (done := await self._applied(update_key)) is not None:
            return done
        for attempt in range(RETRIES):
            async with self._lock(key):
                if update_key is not None \
                        and (done := await self._applied(update_key)) is not None:
                    return done
                before = await self._load(key)
                try:
                    change = await step(before)
                except EngineError:
                    # another process may have applied this very update meanwhile
                    if update_key is not None \
                            and (done := await self._applied(update_key)) is not None:
                        return done
                    raise
                if change.table == before:  # a step that changes nothing stores nothing
                    return before.info()
                now = self.clock.now()
                table = replace(change.table, version=before.version + 1, updated_at=now,
                                last_human_at=now if change.human else before.last_human_at)
                change.table = reschedule(before, table, now)
                entries = [LogEntry(before.version + 1, seat, command, actor)
                           for seat, command, actor in change.log]
                try:
                    await self.repo.commit(change.table, before.version, entries, update_key,
                                           change.results)
                except DuplicateUpdate:
                    assert update_key is not None
                    return await self._applied(update_key) or before.info()
                except VersionConflict:
                    if attempt == RETRIES - 1:
                        raise TableBusy() from None
                    continue
            await self._notify(change)
            self._poke(change.table.due_at)
            return change.table.info()
        raise AssertionError("unreachable")

    async def _applied(self, update_key: str) -> TableInfo | None:
        """The table an update with ``update_key`` was already applied to, or ``None``."""
        table_id = await self.repo.update_table(update_key)
        if table_id is None:
            return None
        table = await self.repo.get_table(table_id)
        return None if table is None else table.info()

    async def _seated(self, key: ChatKey, user: UserRef) -> tuple[Table, int, GameState]:
        """The chat's running table, the user's seat and the game state. Raises
        :class:`NoTable`, :class:`NotSeated` or :class:`NotPlaying`."""
        table = await self._load(key)
        seat = table.seat_of(user.key)
        if seat is None:
            raise NotSeated()
        if table.state is None or table.status is not Status.PLAYING:
            raise NotPlaying()
        return table, seat, table.state

    async def _load(self, key: ChatKey) -> Table:
        table = await self.repo.active_table(key)
        if table is None:
            raise NoTable()
        return table

    def _lock(self, key: ChatKey) -> asyncio.Lock:
        name = str(key)
        lock = self._locks.get(name)
        if lock is None:
            lock = self._locks[name] = asyncio.Lock()
        return lock

    async def _check_table_count(self, user: UserRef) -> None:
        if len(await self.repo.tables_of_user(user.key)) >= MAX_TABLES_PER_USER:
            raise TooManyTables(limit=MAX_TABLES_PER_USER)

    async def _notify(self, change: Change) -> None:
        notifier = self.notifiers.get(change.table.key.platform)
        if notifier is None:
            return
        table = change.table
        info = table.info()
        state = table.state
        view = None if state is None else public_view(state)
        await safely(notifier.table_changed(info, view, change.events, change.notices))
        if state is None:
            return
        for seat, seat_info in enumerate(table.seats):
            owner = seat_info.user
            if owner is not None and (change.hands is None or seat in change.hands):
                await safely(notifier.hand_changed(info, seat, owner, view_for(state, seat)))
        turn = current_player(state) if table.status is Status.PLAYING else None
        if turn is not None and change.events and not table.seats[turn].automated:
            turn_user = table.seats[turn].user
            if turn_user is not None:
                await safely(notifier.turn_started(info, turn, turn_user))


def why_failed(error: BaseException) -> str:
    """Why an engine call gave no answer, for the log."""
    return "ran out of its budget" if isinstance(error, BudgetExceeded) \
        else f"lost its worker ({error})"


class StaleTable(Exception):
    """A due step that another worker already handled."""


def result_rows(table: Table, winners: Sequence[int]) -> list[ResultRow]:
    """One :class:`ResultRow` per seat of a finished game (its totals and winners)."""
    assert table.state is not None
    return [ResultRow(seat, s.user, s.name, table.state.totals[seat], seat in winners)
            for seat, s in enumerate(table.seats)]


async def safely(call: Awaitable[None]) -> None:
    """A notification that fails (platform down) never undoes a committed move."""
    try:
        await call
    except Exception:
        log.exception("notification failed")
