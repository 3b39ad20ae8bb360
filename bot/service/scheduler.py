"""The due-work loop: AI moves, timers, next deals and lobby expiry of every table, with
each table's failures kept to that table.

- **Isolation.** Due tables run as separate tasks (at most ``concurrency`` at once); a
  step that raises backs off only its own table: retried after 1, 2, 4 ... seconds (at
  most :data:`BACKOFF_CAP`), logged once per back-off with the table id, recorded in the
  ``table_faults`` table for operators (``rummy-bot faults``). A row that does not
  decode (:class:`bot.service.errors.UnreadableTable`, e.g. written by a newer release)
  is quarantined: never scheduled again until an operator clears it. A database that
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
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.service.clock import Clock
from bot.service.errors import StorageUnavailable, TableBusy, UnreadableTable
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

MAX_PASSES = 1000
"""Passes over the due tables in one :meth:`Scheduler.run_due_now` call."""

PRUNE_EVERY = 3600.0
"""Seconds between two prunings of old idempotency keys."""


class DueWork(Protocol):
    """What the scheduler runs: a table's due step (:class:`AutomaticSteps`)."""

    repo: Repository
    clock: Clock

    async def run_due(self, table_id: int) -> bool:
        """Run table ``table_id``'s due step, if any; True when one ran."""

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
    compute pool; the rest of a step is database and notifications)."""

    def __init__(self, service: DueWork, concurrency: int = 8) -> None:
        self.service = service
        self.concurrency = max(concurrency, 1)
        self.faults: dict[int, Fault] = {}
        self.quarantined: set[int] = set()
        self._running: set[int] = set()
        self._wake = asyncio.Event()
        #: Until when :meth:`run` sleeps (clock time); ``None`` while it is awake or not
        #: running, when every change wakes it.
        self._asleep_until: float | None = None
        self._offset: float | None = None

    # --- time ---------------------------------------------------------------------------

    def _monotonic(self) -> float:
        clock = self.service.clock
        mono = getattr(clock, "monotonic", None)
        return mono() if mono is not None else time.monotonic()

    async def resume(self) -> float:
        """Start-up: move every active table's timeline by the downtime since the last
        heartbeat (when longer than :data:`DOWNTIME_MIN`), then beat. Returns the
        downtime moved (0 when none)."""
        repo = self.service.repo
        now = self.service.clock.now()
        last = await repo.last_heartbeat()
        moved = 0.0
        if last is not None and now - last > DOWNTIME_MIN:
            moved = now - last
            count = await repo.shift_timeline(moved)
            log.warning("the bot was down for %.0f s: deadlines, idle clocks and lobby "
                        "expiry of %d active tables moved by that", moved, count)
        await repo.heartbeat(now)
        self._offset = now - self._monotonic()
        return moved

    async def _check_clock(self) -> None:
        """Move the stored timeline when the wall clock jumped against the monotonic
        clock since the last look."""
        offset = self.service.clock.now() - self._monotonic()
        if self._offset is None:
            self._offset = offset
            return
        jump = offset - self._offset
        if abs(jump) > CLOCK_STEP_MIN:
            count = await self.service.repo.shift_timeline(jump)
            log.warning("the wall clock jumped by %+.0f s: the timeline of %d active "
                        "tables moved with it", jump, count)
        self._offset = offset

    # --- one pass -----------------------------------------------------------------------

    def backing_off(self) -> set[int]:
        """Ids of tables waiting out a back-off now."""
        now = self._monotonic()
        return {t for t, fault in self.faults.items() if fault.retry_at > now}

    async def run_due_now(self, stop: asyncio.Event | None = None) -> int:
        """Run every due step until nothing is due now (or ``stop`` is set); returns how
        many steps ran. Never raises for a table's failure."""
        ran = 0
        for _ in range(MAX_PASSES):
            if stop is not None and stop.is_set():
                break
            skip = self.backing_off() | self.quarantined | self._running
            due = [t for t in await self.service.repo.due_tables(self.service.clock.now())
                   if t not in skip]
            if not due:
                break
            done = await self._run_batch(due, stop)
            ran += done
            if not done:
                break
        return ran

    async def _run_batch(self, due: list[int], stop: asyncio.Event | None) -> int:
        gate = asyncio.Semaphore(self.concurrency)
        ran = 0

        async def one(table_id: int) -> None:
            nonlocal ran
            async with gate:
                if stop is not None and stop.is_set():
                    return
                if await self._guarded(table_id):
                    ran += 1

        tasks = [asyncio.ensure_future(one(t)) for t in due]
        try:
            if stop is None:
                await asyncio.gather(*tasks)
            else:
                await self._until_stop(tasks, stop)
        finally:
            for task in tasks:
                task.cancel()
            # let cancelled steps roll back before anything else uses the database
            await asyncio.gather(*tasks, return_exceptions=True)
        return ran

    async def _until_stop(self, tasks: Sequence[asyncio.Future[None]], stop: asyncio.Event
                          ) -> None:
        """Wait for ``tasks``; once ``stop`` is set, give them :data:`STOP_GRACE`."""
        stopper: asyncio.Future[Any] = asyncio.ensure_future(stop.wait())
        try:
            pending: set[asyncio.Future[Any]] = set(tasks)
            while pending and not stop.is_set():
                _done, pending = await asyncio.wait(pending | {stopper},
                                                    return_when=asyncio.FIRST_COMPLETED)
                pending.discard(stopper)
            if pending:
                await asyncio.wait(pending, timeout=STOP_GRACE)
        finally:
            stopper.cancel()

    async def _guarded(self, table_id: int) -> bool:
        """Run the table's due step; a failure backs off (or quarantines) this table."""
        self._running.add(table_id)
        try:
            ran = await self.service.run_due(table_id)
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
        finally:
            self._running.discard(table_id)
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
        log.error("table %d: automatic step failed (%d in a row), next try in %.0f s: %s",
                  table_id, failures, delay, text, exc_info=failures == 1)
        try:
            await self.service.repo.record_fault(table_id, "backoff", failures, text,
                                                 self.service.clock.now() + delay)
        except Exception:
            log.warning("table %d: could not store the fault", table_id)

    async def _quarantine(self, table_id: int, error: Exception) -> None:
        self.quarantined.add(table_id)
        self.faults.pop(table_id, None)
        text = f"{type(error).__name__}: {error}"[:500]
        log.error("table %d quarantined: its stored row cannot be loaded (%s); clear it "
                  "with rummy-bot faults --clear %d once fixed", table_id, text, table_id)
        try:
            await self.service.repo.record_fault(table_id, "quarantined", 1, text, None)
        except Exception:
            log.warning("table %d: could not store the quarantine", table_id)

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
        try:
            self.quarantined |= set(await repo.quarantined_tables())
            await self.resume()
        except Exception:
            log.exception("resuming after downtime failed; continuing")
        beat_at = self._monotonic()
        pruned_at = -PRUNE_EVERY
        trouble = 0
        while not stop.is_set():
            try:
                await self._check_clock()
                await self.run_due_now(stop)
                if self._monotonic() - beat_at >= HEARTBEAT_EVERY:
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
            delay = max_sleep if nxt is None else min(max(nxt - clock.now(), 0.05), max_sleep)
            retry = [f.retry_at for f in self.faults.values()]
            if retry:
                delay = min(delay, max(min(retry) - self._monotonic(), 0.05))
            if trouble:
                delay = min(2.0 ** trouble, max_sleep)
            self._wake.clear()
            self._asleep_until = clock.now() + delay
            waiters = [asyncio.ensure_future(stop.wait()),
                       asyncio.ensure_future(self._wake.wait())]
            await asyncio.wait(waiters, timeout=delay, return_when=asyncio.FIRST_COMPLETED)
            self._asleep_until = None
            for waiter in waiters:
                waiter.cancel()
        with contextlib.suppress(Exception):
            await repo.heartbeat(clock.now())
