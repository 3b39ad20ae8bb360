"""Moves of people: a game command or action of the seat to move, and taking a seat
back from the autopilot; each verified by the engine (in the worker pool) and committed
as one change."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace

from bot.ports.model import ChatKey, Status, TableInfo, UserRef
from bot.service import engine_work
from bot.service.compute import BudgetExceeded, Lane, WorkerLost
from bot.service.core import (
    Change,
    TableCore,
    result_rows,
    why_failed,
)
from bot.service.errors import (
    EngineTimeout,
    NotPlaying,
    NotSeated,
)
from bot.service.model import Table
from bot.service.notifier import Notice
from engine.actions import Action
from engine.commands import format_action, parse_action
from engine.errors import CardParseError
from engine.events import Event
from engine.state import GameState, Phase
from engine.variants import get_variant

log = logging.getLogger(__name__)


class PlaySteps(TableCore):
    """Moves of people (see the module docstring)."""

    async def act(self, key: ChatKey, user: UserRef, command: str | Action,
                  update_key: str | None = None) -> TableInfo:
        """Apply a game command of ``user`` (text in the command language, or an action;
        its seat is replaced by the user's seat). Raises ``CommandError``,
        ``CardParseError``, ``IllegalMove`` subclasses or a :class:`ServiceError`."""

        async def step(table: Table) -> Change:
            seat = table.seat_of(user.key)
            # Parse first, so a typo is named as such even before the game starts.
            try:
                parsed = parse_action(command, seat or 0) if isinstance(command, str) \
                    else command
            except CardParseError as error:
                var = get_variant(table.variant)
                if not var.uses_tiles:
                    raise
                raise CardParseError(str(error.params["text"]), "tile",
                                     var.notation_examples) from None
            if table.status is not Status.PLAYING or table.state is None:
                raise NotPlaying()
            if seat is None:
                raise NotSeated()
            action = replace(parsed, seat=seat)
            change = await self._apply_move(table, action, user.key)
            if table.seats[seat].autopilot or table.seats[seat].missed:
                seats = list(change.table.seats)
                was_auto = seats[seat].autopilot
                seats[seat] = replace(seats[seat], autopilot=False, missed=0)
                change.table = replace(change.table, seats=tuple(seats))
                if was_auto:
                    change.notices.append(Notice("autopilot_off", {"name": seats[seat].name}))
            return change

        return await self._change(key, step, update_key)

    async def back(self, key: ChatKey, user: UserRef, update_key: str | None = None
                   ) -> TableInfo:
        """The player takes the seat back from the autopilot."""

        async def step(table: Table) -> Change:
            seat = table.seat_of(user.key)
            if seat is None:
                raise NotSeated()
            if not table.seats[seat].autopilot and not table.seats[seat].missed:
                return Change(table)  # nothing to take back: nothing is stored
            seats = list(table.seats)
            seats[seat] = replace(seats[seat], autopilot=False, missed=0)
            return Change(replace(table, seats=tuple(seats)), log=[(seat, "back", user.key)],
                          notices=[Notice("autopilot_off", {"name": seats[seat].name})])

        return await self._change(key, step, update_key)

    async def _apply_move(self, table: Table, action: Action, actor: str,
                          lane: Lane = Lane.MOVE) -> Change:
        """Apply one engine action to the table in the compute pool (raising
        ``IllegalMove``, changing nothing). A person whose move overran the budget gets
        :class:`EngineTimeout` ("try again"); nothing changed."""
        assert table.state is not None
        try:
            state, events = await self.compute.call(engine_work.apply_move, table.state,
                                                    action, budget=self.budget, lane=lane)
        except (BudgetExceeded, WorkerLost) as error:
            log.warning("table %d: move %s %s", table.id, format_action(action), why_failed(error))
            raise EngineTimeout() from None
        return self._applied_change(table, action, state, events, actor)

    def _applied_change(self, table: Table, action: Action, state: GameState,
                        events: Sequence[Event], actor: str) -> Change:
        """The change of a table whose state ``action`` turned into ``state``."""
        assert table.state is not None
        new = replace(table, state=state)
        change = Change(new, log=[(action.seat, format_action(action), actor)],
                        events=list(events), hands=self._changed_hands(table.state, state,
                                                                         action.seat))
        if state.phase is Phase.GAME_OVER:
            change.table = replace(new, status=Status.FINISHED, ended_reason="over")
            change.results = result_rows(change.table, state.winners)
        return change

    @staticmethod
    def _changed_hands(before: GameState, after: GameState, seat: int) -> set[int] | None:
        if before.deal_number != after.deal_number or (after.phase is not before.phase \
                and after.phase in (Phase.HAND_OVER, Phase.GAME_OVER)):
            return None
        return {seat}
