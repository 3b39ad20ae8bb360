"""What tables do on their own: AI moves, the next deal, turn-timer warnings and expiry
(the autopilot), idle and lobby ends (:class:`AutomaticSteps`), run by
:class:`bot.service.scheduler.Scheduler` when due, each isolated from the other tables.
Every step is one worker call at most (the AI's move and the people's screen facts in the
new position together), one commit, then the screens are published."""

from __future__ import annotations

import logging
import time
from dataclasses import replace

from cachetools import LRUCache

from bot.ports.model import SeatKind, Status
from bot.ports.screens import Notice, TimerWarning
from bot.service import engine_work
from bot.service.changes import (
    Change,
    Committed,
    Step,
    TableChanges,
    result_rows,
    why_failed,
)
from bot.service.compute import BudgetExceeded, Compute, Lane, WorkerLost
from bot.service.delivery import Delivery
from bot.service.limits import (
    HINT_CACHE,
    MAX_TURN_ACTIONS,
    QUICK_AFTER_TIMEOUT,
    QUICK_BUDGET,
    UPDATE_KEY_SECONDS,
)
from bot.service.model import Table
from bot.service.play import applied_change
from bot.service.scheduling import Due, due_kind
from bot.service.screens import Screens, people
from engine.actions import NextDeal

__all__ = ["AutomaticSteps", "StaleTable"]

log = logging.getLogger(__name__)


class StaleTable(Exception):
    """A due step that another worker already handled."""


class AutomaticSteps:
    """Automatic steps (see the module docstring). ``worker_id``: this service's name in
    leases on due work (the scheduler claims with it)."""

    def __init__(
        self,
        changes: TableChanges,
        screens: Screens,
        publisher: Delivery,
        compute: Compute,
        budget: float,
        worker_id: str,
    ) -> None:
        self.changes = changes
        self.repo = changes.repo
        self.clock = changes.clock
        self.screens = screens
        self.publisher = publisher
        self.compute = compute
        self.budget = budget
        self.worker_id = worker_id
        #: Table id -> AI actions still to play quickly after a decision over budget.
        self._quick: LRUCache[int, int] = LRUCache(HINT_CACHE)

    async def prune_update_keys(self, now: float | None = None) -> int:
        """Forget idempotency keys older than :data:`UPDATE_KEY_SECONDS` (``now``: Unix
        time, default the wall clock, as the keys are stamped); returns how many."""
        now = time.time() if now is None else now
        return await self.repo.prune_updates(now - UPDATE_KEY_SECONDS)

    async def run_due(self, table: Table) -> bool:
        """Run the automatic step ``table`` (as claimed and loaded by the scheduler:
        :meth:`bot.service.repository.Repository.claim_due`) needs now, if any, and show
        it; True when one ran. Raises whatever the step raised (the scheduler backs the
        table off). The commit of the step ends this worker's lease on it."""
        kind = due_kind(table, self.clock.now())
        if kind is Due.NOTHING:
            return False
        steps: dict[Due, Step] = {
            Due.AI_MOVE: self._ai_step,
            Due.NEXT_DEAL: self._next_deal_step,
            Due.WARN: self._warn_step,
            Due.EXPIRED: self._expired_step,
            Due.IDLE_END: self._idle_step,
            Due.LOBBY_EXPIRED: self._lobby_expired_step,
        }

        async def guarded(current: Table) -> Change:
            if due_kind(current, self.clock.now()) is not kind:
                raise StaleTable()
            return await steps[kind](current)

        try:
            committed = await self.changes.run(table.id, guarded, None, table)
        except StaleTable:
            return False
        if committed.stored:
            await self._show(committed)
        if kind is Due.WARN:
            await self._warn(committed.table)
        return True

    async def _show(self, committed: Committed) -> None:
        locales = await self.screens.locales(committed.table)
        await self.publisher.publish(await self.screens.update(committed, locales))

    def _ai_seed(self, table: Table) -> int:
        return table.seed + 7919 * table.version

    async def _ai_step(self, table: Table) -> Change:
        """The AI plays one action for the automated seat to act (after other AI seats
        were asked for an out-of-turn call: :func:`engine.ai.interrupt.interrupt`; people
        had the call window first, so AI seats never race people for a call). When the
        decision runs out of its budget, :func:`engine.game.quick_action` plays, and also
        for the table's next :data:`QUICK_AFTER_TIMEOUT` AI actions."""
        assert table.state is not None
        seat = table.state.current
        callers = [s.ai if s.kind is SeatKind.AI else None for s in table.seats]
        quick = self._quick.pop(table.id, 0)
        try:
            if quick:
                raise BudgetExceeded("a recent decision of this table")
            action, state, events, facts = await self.compute.call(
                engine_work.ai_move,
                table.state,
                seat,
                table.seats[seat].ai,
                callers,
                self._ai_seed(table),
                people(table),
                table.seed,
                budget=self.budget,
                lane=Lane.BACKGROUND,
            )
        except (BudgetExceeded, WorkerLost) as error:
            if not quick:
                log.warning(
                    "table %d: AI decision %s; playing quick moves for its next %d AI actions",
                    table.id,
                    why_failed(error),
                    QUICK_AFTER_TIMEOUT,
                )
                quick = QUICK_AFTER_TIMEOUT + 1
            action, state, events, facts = await self.compute.call(
                engine_work.quick_move,
                table.state,
                seat,
                people(table),
                table.seed,
                budget=QUICK_BUDGET,
                lane=Lane.BACKGROUND,
            )
            if quick > 1:
                self._quick[table.id] = quick - 1
        change = applied_change(table, action, state, events, "ai")
        change.human = False
        change.facts = facts
        return change

    async def _next_deal_step(self, table: Table) -> Change:
        assert table.state is not None
        try:
            state, events, facts = await self.compute.call(
                engine_work.apply_move,
                table.state,
                NextDeal(0),
                people(table),
                table.seed,
                budget=self.budget,
                lane=Lane.BACKGROUND,
            )
        except (BudgetExceeded, WorkerLost) as error:
            log.warning("table %d: next deal %s", table.id, why_failed(error))
            raise
        change = applied_change(table, NextDeal(0), state, events, "timer")
        change.human = False
        change.facts = facts
        return change

    async def _warn_step(self, table: Table) -> Change:
        return Change(replace(table, warned=True), human=False, hands=set())

    async def _expired_step(self, table: Table) -> Change:
        """The turn ran out: the AI plays the whole turn for the player (announced), in
        one worker call; after ``autopilot_after`` missed turns in a row it keeps the seat
        until ``back``. A turn over budget is played by :func:`engine.game.quick_action`
        instead."""
        assert table.state is not None
        seat = table.state.current
        seats = list(table.seats)
        missed = seats[seat].missed + 1
        auto = missed >= table.settings.autopilot_after
        seats[seat] = replace(seats[seat], missed=missed, autopilot=auto)
        name = seats[seat].name
        notices = [Notice("autopilot_turn", {"name": name})]
        if auto:
            notices.append(Notice("autopilot_on", {"name": name}))
        current = replace(table, seats=tuple(seats))
        turn = (table.state, seat, seats[seat].ai, self._ai_seed(table) + seat, MAX_TURN_ACTIONS)
        try:
            played, facts = await self.compute.call(
                engine_work.autopilot_turn,
                *turn,
                people(table),
                table.seed,
                budget=self.budget,
                lane=Lane.BACKGROUND,
            )
        except (BudgetExceeded, WorkerLost) as error:
            log.warning(
                "table %d: autopilot turn %s; playing quick moves", table.id, why_failed(error)
            )
            played, facts = await self.compute.call(
                engine_work.autopilot_turn,
                *turn,
                people(table),
                table.seed,
                True,  # quick moves
                budget=QUICK_BUDGET,
                lane=Lane.BACKGROUND,
            )
        total = Change(current, notices=notices, human=False, hands=set())
        for action, state, events in played:
            step = applied_change(current, action, state, events, "timer")
            current = step.table
            total.log.extend(step.log)
            total.events.extend(step.events)
            total.results.extend(step.results)
            total.hands = (
                None if step.hands is None or total.hands is None else total.hands | step.hands
            )
        total.table = current
        total.facts = facts
        return total

    async def _idle_step(self, table: Table) -> Change:
        new = replace(table, status=Status.FINISHED, ended_reason="idle")
        return Change(
            new,
            log=[(None, "idle end", "timer")],
            human=False,
            results=result_rows(new, winners=()),
            notices=[Notice("game_idle_ended", {})],
        )

    async def _lobby_expired_step(self, table: Table) -> Change:
        new = replace(table, status=Status.CANCELLED, ended_reason="expired")
        return Change(
            new,
            log=[(None, "expired", "timer")],
            human=False,
            notices=[Notice("lobby_expired", {})],
        )

    async def _warn(self, table: Table) -> None:
        if table.state is None or table.deadline is None:
            return
        seat = table.state.current
        user_key = table.seats[seat].user
        if user_key is None:
            return
        locales = await self.screens.locales(table)
        await self.publisher.warn(
            TimerWarning(
                table.info(),
                seat,
                user_key,
                table.deadline - self.clock.now(),
                locales.table(table),
            )
        )
