"""The due-work loop: AI moves, timers, next deals and lobby expiry of every table, with
each table's failures kept to that table.

- **Isolation.** Due tables run as separate tasks (at most ``concurrency`` at once); a
  step that raises backs off only its own table: retried after 1, 2, 4 ... seconds (at
  most :data:`BACKOFF_CAP`), logged once per back-off with the table id, recorded in the
  ``table_faults`` table for operators (``rummy-bot faults``). A row that does not
  decode (:class:`bot.service.errors.UnreadableTable`, e.g. written by a newer release)
  is quarantined (:class:`bot.service.faults.TableFaults`: recorded, logged and told to
  its chat once, as when a command finds it first): never scheduled again until an
  operator clears it. A database that
  refuses writes (locked, full) is no table's fault: the pass stops and the loop waits
  (one log line per wait, waits doubling up to ``max_sleep``).
- **Stopping.** ``stop`` is checked before every step; on stop no new step starts and
  the running ones get :data:`STOP_GRACE` seconds (each is bounded by the engine budget)
  before they are cancelled. Nothing is lost either way: a step that did not commit did
  not happen, and nobody was told about it.
- **Downtime** (:meth:`Scheduler.resume`): the loop stores a heartbeat every
  :data:`HEARTBEAT_EVERY` seconds; on start, when the last beat is older than
  :data:`DOWNTIME_MIN`, every running table's deadlines, idle clock and lobby expiry move
  by the downtime, so an outage costs no player a turn and counts toward no idle end.
- **Clock steps.** Pacing compares the wall clock with a monotonic one; when the wall
  clock jumps (by more than :data:`CLOCK_STEP_MIN`) the stored timeline moves with it,
  so a clock set back an hour does not freeze AI tables for an hour.
- **One timeline keeper.** With several workers on one database, downtime and clock-step
  compensation and the heartbeats are the work of one of them: the holder of the
  :data:`TIMELINE_ROLE` (:mod:`bot.ports.roles`; the others try to take it every
  :data:`TIMELINE_RETRY` seconds, and a worker that takes it over compensates the gap
  since the last beat). So a clock step is compensated once, not once per worker. On
  PostgreSQL every worker's clock is the database's
  (:class:`bot.storage.postgres.DatabaseClock`): a step of one worker's own clock moves
  nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from typing import Any, Protocol

from bot.ports.roles import RoleLock
from bot.service.clock import Clock
from bot.service.errors import StorageUnavailable, TableBusy, TableLocked, UnreadableTable
from bot.service.faults import TableFaults
from bot.service.limits import LEASE_SECONDS
from bot.service.model import Table
from bot.service.repository import Repository

log = logging.getLogger(__name__)

BACKOFF_FIRST = 1.0
"""Seconds before a failed table is tried again the first time (doubling after that)."""

BACKOFF_CAP = 900.0
"""The longest back-off of a failing table (15 minutes)."""

STOP_GRACE = 3.0
"""Seconds running steps get to finish after ``stop`` (an engine call is bounded by its
budget, 2 s by default) before they are cancelled."""

HEARTBEAT_EVERY = 30.0
"""Seconds between two heartbeats stored by the running loop."""

DOWNTIME_MIN = 90.0
"""A gap since the last heartbeat longer than this counts as downtime at start."""

CLOCK_STEP_MIN = 5.0
"""A jump of the wall clock against the monotonic clock larger than this (seconds) moves
the stored timeline; smaller ones are ordinary time corrections."""

MAX_STEPS = 10_000
"""Due tables claimed in one :meth:`Scheduler.run_due_now` call at most (a bound for a
table that is due again at once after every step, forever)."""

TIMELINE_ROLE = "timeline"
"""The role of the worker that keeps the stored timeline (see the module docstring)."""

TIMELINE_RETRY = 5.0
"""Seconds (monotonic) between two attempts of a worker to take the timeline role."""

PRUNE_EVERY = 3600.0
"""Seconds between two prunings of old idempotency keys."""


class DueWork(Protocol):
    """What the scheduler runs: a table's due step (:class:`AutomaticSteps`)."""

    repo: Repository
    clock: Clock
    worker_id: str

    async def run_due(self, table: Table) -> bool:
        """Run the due step of ``table`` (claimed and loaded), if any; True when one
        ran."""

    async def prune_update_keys(self, now: float | None = None) -> int:
        """Forget old idempotency keys; returns how many."""


@dataclass
class Fault:
    """A table whose step failed: how often in a row, the last error, and when (monotonic
    seconds) it may be tried again."""

    table_id: int
    failures: int
    error: str
    retry_at: float


class Scheduler:
    """Runs the automatic steps of :class:`bot.service.automatic.AutomaticSteps` (see the
    module docs).

    ``concurrency``: tables stepped at once (their engine work runs in the service's
    compute pool; the rest of a step is database and notifications); ``reporter``: where a
    table that cannot be loaded is reported (by default only recorded and logged)."""

    def __init__(
        self, service: DueWork, concurrency: int = 8, reporter: TableFaults | None = None
    ) -> None:
        self.service = service
        self.concurrency = max(concurrency, 1)
        self.reporter = reporter
        self.faults: dict[int, Fault] = {}
        self.quarantined: set[int] = set()
        self._running: set[int] = set()
        self._wake = asyncio.Event()
        #: Until when :meth:`run` sleeps (clock time); ``None`` while it is awake or not
        #: running, when every change wakes it.
        self._asleep_until: float | None = None
        self._offset: float | None = None
        self._timeline: RoleLock | None = None
        self._timeline_tried: float | None = None

    # --- time ---------------------------------------------------------------------------

    def _monotonic(self) -> float:
        clock = self.service.clock
        mono = getattr(clock, "monotonic", None)
        return mono() if mono is not None else time.monotonic()

    async def resume(self) -> float:
        """Start-up (or taking over the timeline role): move every active table's
        timeline by the downtime since the last heartbeat (when longer than
        :data:`DOWNTIME_MIN`), then beat. Returns the downtime moved in seconds (0 when
        none). :meth:`run` calls it only while this service keeps the timeline."""
        repo = self.service.repo
        now = self.service.clock.now()
        last = await repo.last_heartbeat()
        moved = 0.0
        if last is not None and now - last > DOWNTIME_MIN:
            moved = now - last
            count = await repo.shift_timeline(moved)
            log.warning(
                "the bot was down for %.0f s: deadlines, idle clocks and lobby "
                "expiry of %d active tables moved by that",
                moved,
                count,
            )
        await repo.heartbeat(now)
        self._offset = now - self._monotonic()
        return moved

    @property
    def keeps_timeline(self) -> bool:
        """Whether this service holds the :data:`TIMELINE_ROLE` now."""
        return self._timeline is not None and self._timeline.held

    async def _hold_timeline(self) -> bool:
        """Hold the timeline role, taking it when it is free (at most one attempt per
        :data:`TIMELINE_RETRY` seconds); True when held. Raises the repository's
        :class:`bot.service.errors.StorageUnavailable` when the database is away."""
        if self.keeps_timeline:
            return True
        self._timeline = None
        now = self._monotonic()
        if self._timeline_tried is not None and now - self._timeline_tried < TIMELINE_RETRY:
            return False
        self._timeline_tried = now
        self._timeline = await self.service.repo.take_role(TIMELINE_ROLE)
        if self._timeline is not None:
            log.info("this worker keeps the timeline (downtime, clock steps, heartbeats)")
        return self._timeline is not None

    async def _check_clock(self) -> None:
        """Move the stored timeline when the clock jumped against the monotonic clock
        since the last look (the clock synchronised first when it can:
        :class:`bot.storage.postgres.DatabaseClock`); only the timeline keeper moves it,
        the others take the new time as it is."""
        sync = getattr(self.service.clock, "sync", None)
        if sync is not None:
            await sync()
        offset = self.service.clock.now() - self._monotonic()
        if self._offset is None:
            self._offset = offset
            return
        jump = offset - self._offset
        self._offset = offset
        if abs(jump) <= CLOCK_STEP_MIN:
            return
        if not await self._hold_timeline():
            log.info("the clock jumped by %+.0f s; the worker keeping the timeline moves it", jump)
            return
        count = await self.service.repo.shift_timeline(jump)
        log.warning(
            "the wall clock jumped by %+.0f s: the timeline of %d active tables moved with it",
            jump,
            count,
        )

    # --- one pass -----------------------------------------------------------------------

    def backing_off(self) -> set[int]:
        """Ids of tables waiting out a back-off now."""
        now = self._monotonic()
        return {t for t, fault in self.faults.items() if fault.retry_at > now}

    async def run_due_now(self, stop: asyncio.Event | None = None) -> int:
        """Run every due step until nothing is due now (or ``stop`` is set); returns how
        many steps ran. Whenever one of the ``concurrency`` slots is free, as many due
        tables as there are free slots are claimed and loaded in one statement
        (:meth:`Repository.claim_due`), so one slow table never holds up the others.
        Never raises for a table's failure; a database that cannot serve at all
        (:class:`StorageUnavailable`, not a busy row) ends the call: raised once the
        running steps were cancelled and rolled back."""
        ran = claimed = 0
        idle: set[int] = set()  # claimed in this call with nothing to do: not again
        tasks: dict[asyncio.Future[bool], int] = {}
        more = True
        try:
            while stop is None or not stop.is_set():
                free = self.concurrency - len(tasks)
                if more and free > 0 and claimed < MAX_STEPS:
                    found = await self._claim(free, idle, tasks)
                    claimed += found
                    more = found == free
                if not tasks:
                    break
                done = await self._some_done(set(tasks), stop)
                ran += self._collect(done, tasks, idle)
                if done:
                    more = True  # a step done: its table (or another) may be due again
        finally:
            await self._wind_down(tasks, stop)
        return ran

    async def _claim(
        self, free: int, idle: set[int], tasks: dict[asyncio.Future[bool], int]
    ) -> int:
        """Claim up to ``free`` due tables (none backing off, quarantined, running or in
        ``idle``) and start a step for each into ``tasks`` (task to table id); a claimed
        table that could not be read is quarantined. Returns how many were claimed."""
        skip = self.backing_off() | self.quarantined | self._running | idle
        found = await self.service.repo.claim_due(
            self.service.worker_id, self.service.clock.now(), LEASE_SECONDS, free, skip
        )
        for claim in found:
            if claim.table is None:
                await self._quarantine(
                    claim.table_id, claim.error or UnreadableTable(table=claim.table_id)
                )
                continue
            self._running.add(claim.table_id)
            tasks[asyncio.ensure_future(self._guarded(claim.table))] = claim.table_id
        return len(found)

    def _collect(
        self,
        done: set[asyncio.Future[bool]],
        tasks: dict[asyncio.Future[bool], int],
        idle: set[int],
    ) -> int:
        """Take the finished steps ``done`` out of ``tasks``; a table whose step had
        nothing to do goes into ``idle``. Returns how many steps ran."""
        ran = 0
        for finished in done:
            table_id = tasks.pop(finished)
            self._running.discard(table_id)
            if finished.result():
                ran += 1
            else:
                idle.add(table_id)
        return ran

    async def _wind_down(
        self, tasks: dict[asyncio.Future[bool], int], stop: asyncio.Event | None
    ) -> None:
        """Cancel the steps still in ``tasks`` (after :data:`STOP_GRACE` when ``stop`` is
        set) and wait until they rolled back."""
        if not tasks:
            return
        if stop is not None and stop.is_set():
            await asyncio.wait(set(tasks), timeout=STOP_GRACE)
        for task in tasks:
            task.cancel()
        # let cancelled steps roll back before anything else uses the database
        await asyncio.gather(*tasks, return_exceptions=True)
        for table_id in tasks.values():
            self._running.discard(table_id)

    @staticmethod
    async def _some_done(
        tasks: set[asyncio.Future[bool]], stop: asyncio.Event | None
    ) -> set[asyncio.Future[bool]]:
        """Wait until one of ``tasks`` is done (or ``stop`` is set: then none may be)."""
        if stop is None:
            done, _pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            return done
        stopper: asyncio.Future[Any] = asyncio.ensure_future(stop.wait())
        try:
            done, _pending = await asyncio.wait(
                tasks | {stopper}, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            stopper.cancel()
        done.discard(stopper)
        return {task for task in done if task in tasks}

    async def _guarded(self, table: Table) -> bool:
        """Run the table's due step; a failure backs off (or quarantines) this table. A
        row that stayed locked (:class:`TableLocked`) is this table's trouble too: the
        other tables go on."""
        table_id = table.id
        try:
            ran = await self.service.run_due(table)
        except TableLocked as error:
            await self._back_off(table_id, error)
            return False
        except (asyncio.CancelledError, StorageUnavailable):
            raise  # the database, not this table: the loop waits and logs once
        except TableBusy:
            return False  # another worker moved the table meanwhile: not a fault
        except UnreadableTable as error:
            await self._quarantine(table_id, error)
            return False
        except Exception as error:
            await self._back_off(table_id, error)
            return False
        fault = self.faults.pop(table_id, None)
        if fault is not None:
            log.info("table %d runs again after %d failures", table_id, fault.failures)
            with contextlib.suppress(Exception):
                await self.service.repo.clear_fault(table_id)
        return ran

    async def _back_off(self, table_id: int, error: Exception) -> None:
        previous = self.faults.get(table_id)
        failures = 1 if previous is None else previous.failures + 1
        delay = min(BACKOFF_FIRST * 2 ** (failures - 1), BACKOFF_CAP)
        text = f"{type(error).__name__}: {error}"[:500]
        self.faults[table_id] = Fault(table_id, failures, text, self._monotonic() + delay)
        # once per back-off: the table is not tried (nor logged) again before it ends
        log.error(
            "table %d: automatic step failed (%d in a row), next try in %.0f s: %s",
            table_id,
            failures,
            delay,
            text,
            exc_info=failures == 1,
        )
        try:
            await self.service.repo.record_fault(
                table_id, "backoff", failures, text, self.service.clock.now() + delay
            )
        except Exception:
            log.warning("table %d: could not store the fault", table_id)

    async def _quarantine(self, table_id: int, error: UnreadableTable) -> None:
        self.quarantined.add(table_id)
        self.faults.pop(table_id, None)
        if self.reporter is not None:
            await self.reporter.unreadable(error)
            return
        text = f"{type(error).__name__}: {error.reason or error}"[:500]
        try:
            new = await self.service.repo.quarantine(table_id, text)
        except Exception:
            log.warning("table %d: could not store the quarantine", table_id)
            return
        if new:
            log.error(
                "table %d quarantined: its stored row cannot be loaded (%s); clear "
                "it with rummy-bot faults --clear %d once fixed",
                table_id,
                text,
                table_id,
            )

    # --- the loop -----------------------------------------------------------------------

    def poke(self, due_at: float | None) -> None:
        """Wake :meth:`run` for a table now due at ``due_at``, unless the loop looks again
        before that anyway: most changes (a human's move under a long turn timer) need no
        scan of the due tables, and each scan takes the repository from the next move."""
        if self._asleep_until is None or (due_at is not None and due_at < self._asleep_until):
            self._wake.set()

    async def run(self, stop: asyncio.Event, max_sleep: float = 30.0) -> None:
        """Run due steps whenever something is due until ``stop`` is set: first
        :meth:`resume`, then heartbeats, clock checks, pruning of old update keys."""
        repo = self.service.repo
        clock = self.service.clock
        await self._start()
        beat_at = self._monotonic()
        pruned_at = -PRUNE_EVERY
        trouble = 0
        while not stop.is_set():
            try:
                if not self.keeps_timeline and await self._hold_timeline():
                    await self.resume()  # taken over: the gap since the last keeper's beat
                    beat_at = self._monotonic()
                await self._check_clock()
                await self.run_due_now(stop)
                if self.keeps_timeline and self._monotonic() - beat_at >= HEARTBEAT_EVERY:
                    beat_at = self._monotonic()
                    await repo.heartbeat(clock.now())
                if self._monotonic() - pruned_at >= PRUNE_EVERY:
                    pruned_at = self._monotonic()
                    await self.service.prune_update_keys()
                skip = self.backing_off() | self.quarantined
                nxt = await repo.next_due(exclude=skip)
                trouble = 0
            except Exception:  # the database itself failed (locked, disk full): wait
                trouble += 1
                nxt = None
                log.exception("the scheduler's pass failed (%d in a row)", trouble)
            if stop.is_set():
                break
            await self._sleep(stop, self._delay(nxt, trouble, max_sleep))
        await self._finish()

    async def _start(self) -> None:
        """Before the first pass: load the quarantined tables, sync the clock (when it can)
        and :meth:`resume` when this worker keeps the timeline; a failure is logged."""
        try:
            self.quarantined |= set(await self.service.repo.quarantined_tables())
            sync = getattr(self.service.clock, "sync", None)
            if sync is not None:
                await sync()
            if await self._hold_timeline():
                await self.resume()
        except Exception:
            log.exception("resuming after downtime failed; continuing")

    def _delay(self, nxt: float | None, trouble: int, max_sleep: float) -> float:
        """Seconds to sleep until the next due step ``nxt`` (a clock time, ``None``: none
        known) or the next back-off ends, at most ``max_sleep``; after ``trouble`` failed
        passes in a row, an exponential back-off instead."""
        clock = self.service.clock
        delay = max_sleep if nxt is None else min(max(nxt - clock.now(), 0.05), max_sleep)
        retry = [f.retry_at for f in self.faults.values()]
        if retry:
            delay = min(delay, max(min(retry) - self._monotonic(), 0.05))
        if trouble:
            delay = min(2.0**trouble, max_sleep)
        return delay

    async def _sleep(self, stop: asyncio.Event, delay: float) -> None:
        """Sleep ``delay`` seconds, or until ``stop`` is set or :meth:`poke` wakes the
        loop."""
        clock = self.service.clock
        self._wake.clear()
        self._asleep_until = clock.now() + delay
        waiters = [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(self._wake.wait())]
        await asyncio.wait(waiters, timeout=delay, return_when=asyncio.FIRST_COMPLETED)
        self._asleep_until = None
        for waiter in waiters:
            waiter.cancel()

    async def _finish(self) -> None:
        """After the last pass: a last heartbeat (when this worker keeps the timeline) and
        the timeline released; failures are ignored."""
        if self.keeps_timeline:
            with contextlib.suppress(Exception):
                await self.service.repo.heartbeat(self.service.clock.now())
        if self._timeline is not None:
            with contextlib.suppress(Exception):
                await self._timeline.release()
            self._timeline = None
