"""What tables do on their own: AI moves, the next deal, turn-timer warnings and expiry
(the autopilot), idle and lobby ends, run by :class:`bot.service.scheduler.Scheduler`
when due, each isolated from the other tables."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace

from bot.ports.model import SeatKind, Status
from bot.service import engine_work
from bot.service.compute import BudgetExceeded, Lane, WorkerLost
from bot.service.core import (
    HINT_CACHE,
    LEASE_SECONDS,
    MAX_TURN_ACTIONS,
    QUICK_AFTER_TIMEOUT,
    QUICK_BUDGET,
    UPDATE_KEY_SECONDS,
    Change,
    StaleTable,
    Step,
    result_rows,
    safely,
    why_failed,
)
from bot.service.model import Table
from bot.service.notifier import Notice
from bot.service.play import PlaySteps
from bot.service.scheduler import Scheduler
from bot.service.scheduling import Due, due_kind
from engine.actions import NextDeal
from engine.game import current_player

log = logging.getLogger(__name__)


class AutomaticSteps(PlaySteps):
    """Automatic steps (see the module docstring)."""

    @property
    def scheduler(self) -> Scheduler:
        """The due-work loop of this service (:class:`bot.service.scheduler.Scheduler`)."""
        if self._scheduler is None:
            self._scheduler = Scheduler(self)
        return self._scheduler

    async def tick(self) -> int:
        """Run every automatic step that is due now (AI moves, timer warnings and expiry,
        the next deal, idle ends); returns how many steps ran. A failing table is backed
        off and never stops the others (:meth:`Scheduler.run_due_now`)."""
        return await self.scheduler.run_due_now()

    async def run(self, stop: asyncio.Event, max_sleep: float = 30.0) -> None:
        """Run due steps whenever something is due until ``stop`` is set (the bot's
        background loop; see :class:`bot.service.scheduler.Scheduler`)."""
        await self.scheduler.run(stop, max_sleep)

    async def prune_update_keys(self, now: float | None = None) -> int:
        """Forget idempotency keys older than :data:`UPDATE_KEY_SECONDS` (``now``: Unix
        time, default the wall clock, as the keys are stamped); returns how many."""
        now = time.time() if now is None else now
        return await self.repo.prune_updates(now - UPDATE_KEY_SECONDS)

    async def run_due(self, table_id: int) -> bool:
        """Run the automatic step table ``table_id`` needs now, if any; True when one
        ran. Raises whatever the step raised (the scheduler backs the table off)."""
        now = self.clock.now()
        if not await self.repo.claim_due(table_id, self.worker_id, now, LEASE_SECONDS):
            return False  # another worker is on it
        try:
            return await self._run_claimed(table_id)
        finally:
            await self.repo.release_due(table_id, self.worker_id)

    async def _run_claimed(self, table_id: int) -> bool:
        table = await self.repo.get_table(table_id)
        if table is None:
            return False
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
            await self._change(table.key, guarded, None)
        except StaleTable:
            return False
        if kind is Due.WARN:
            await self._warn(table)
        return True

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
            action, state, events = await self.compute.call(
                engine_work.ai_move, table.state, seat, table.seats[seat].ai, callers,
                self._ai_seed(table), budget=self.budget, lane=Lane.BACKGROUND)
        except (BudgetExceeded, WorkerLost) as error:
            if not quick:
                log.warning("table %d: AI decision %s; playing quick moves for its next "
                            "%d AI actions", table.id, why_failed(error), QUICK_AFTER_TIMEOUT)
                quick = QUICK_AFTER_TIMEOUT + 1
            action, state, events = await self.compute.call(
                engine_work.quick_move, table.state, seat, budget=QUICK_BUDGET,
                lane=Lane.BACKGROUND)
            if quick > 1:
                self._quick[table.id] = quick - 1
                while len(self._quick) > HINT_CACHE:
                    self._quick.popitem(last=False)
        change = self._applied_change(table, action, state, events, "ai")
        change.human = False
        return change

    async def _next_deal_step(self, table: Table) -> Change:
        change = await self._apply_move(table, NextDeal(0), "timer", Lane.BACKGROUND)
        change.human = False
        return change

    async def _warn_step(self, table: Table) -> Change:
        return Change(replace(table, warned=True), human=False, hands=set())

    async def _expired_step(self, table: Table) -> Change:
        """The turn ran out: the AI plays the whole turn for the player (announced); after
        ``autopilot_after`` missed turns in a row it keeps the seat until ``back``. A
        decision over budget is replaced by :func:`engine.game.quick_action`."""
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
        total = Change(current, notices=notices, human=False, hands=set())
        deal = table.state.deal_number
        seed = self._ai_seed(table) + seat
        for _ in range(MAX_TURN_ACTIONS):
            state = current.state
            if state is None or current.status is not Status.PLAYING \
                    or current_player(state) != seat or state.deal_number != deal:
                break
            try:
                action = await self.compute.call(
                    engine_work.ai_decision, state, seat, seats[seat].ai, seed,
                    budget=self.budget, lane=Lane.BACKGROUND)
                step = await self._apply_move(current, action, "timer", Lane.BACKGROUND)
            except (BudgetExceeded, WorkerLost) as error:
                log.warning("table %d: autopilot decision %s; playing a quick move",
                            current.id, why_failed(error))
                action, after, events = await self.compute.call(
                    engine_work.quick_move, state, seat, budget=QUICK_BUDGET,
                    lane=Lane.BACKGROUND)
                step = self._applied_change(current, action, after, events, "timer")
            current = step.table
            total.log.extend(step.log)
            total.events.extend(step.events)
            total.results.extend(step.results)
            total.hands = None if step.hands is None or total.hands is None \
                else total.hands | step.hands
        total.table = current
        return total

    async def _idle_step(self, table: Table) -> Change:
        new = replace(table, status=Status.FINISHED, ended_reason="idle")
        return Change(new, log=[(None, "idle end", "timer")], human=False,
                      results=result_rows(new, winners=()),
                      notices=[Notice("game_idle_ended", {})])

    async def _lobby_expired_step(self, table: Table) -> Change:
        new = replace(table, status=Status.CANCELLED, ended_reason="expired")
        return Change(new, log=[(None, "expired", "timer")], human=False,
                      notices=[Notice("lobby_expired", {})])

    async def _warn(self, before: Table) -> None:
        table = await self.repo.get_table(before.id)
        notifier = self.notifiers.get(before.key.platform)
        if table is None or notifier is None or table.state is None or table.deadline is None:
            return
        seat = table.state.current
        user_key = table.seats[seat].user
        if user_key is not None:
            await safely(notifier.timer_warning(table.info(), seat, user_key,
                                                 table.deadline - self.clock.now()))
