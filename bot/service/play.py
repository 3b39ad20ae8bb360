"""Moves of people: a typed game command, an action a control names, an offer pressed on a
hand screen, and taking a seat back from the autopilot. Each is verified by the engine in
the worker pool — the same worker call applies the move and computes the facts of every
person's screen in the new position — and committed as one change (:class:`PlaySteps`).
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import replace

from bot.interaction.hand import hand_digest
from bot.ports.intents import Selection
from bot.ports.model import ChatKey, Status, UserRef
from bot.ports.screens import Notice
from bot.service import engine_work
from bot.service.changes import Change, Committed, TableChanges, result_rows, why_failed
from bot.service.compute import BudgetExceeded, Compute, Lane, WorkerLost
from bot.service.errors import EngineTimeout, NotPlaying, NotSeated, StaleControl
from bot.service.model import Table
from bot.service.screens import Screens, people
from engine.actions import Action, LayOff, SwapJoker
from engine.cards import Card
from engine.commands import MissingMeldNumber, canonical_verb, format_action, parse_action
from engine.errors import CardParseError
from engine.events import Event
from engine.melds import CardSpec
from engine.state import GameState, Phase
from engine.variants import get_variant

__all__ = ["PlaySteps", "applied_change"]

log = logging.getLogger(__name__)

Where = ChatKey | int


class PlaySteps:
    """Moves of people (see the module docstring)."""

    def __init__(
        self, changes: TableChanges, screens: Screens, compute: Compute, budget: float
    ) -> None:
        self.changes = changes
        self.screens = screens
        self.compute = compute
        self.budget = budget

    async def act(
        self,
        where: Where,
        user: UserRef,
        command: str | Action,
        update_key: str | None = None,
        loaded: Table | None = None,
        version: int | None = None,
    ) -> Committed:
        """Apply a game command of ``user`` (text in the command language, or an action;
        its seat is replaced by the user's seat). ``version``: the game state's version
        (:attr:`engine.views.PublicView.version`) the control that sent it was drawn for
        (:class:`StaleControl` when the game moved on). Raises ``CommandError``,
        ``CardParseError``, ``IllegalMove`` subclasses or a :class:`ServiceError`."""

        async def step(table: Table) -> Change:
            seat = table.seat_of(user.key)
            action = await self._action(table, seat, command)
            if table.status is not Status.PLAYING or table.state is None:
                raise NotPlaying()
            if seat is None:
                raise NotSeated()
            if version is not None and version != table.state.version:
                raise StaleControl()
            return self._taken_back(
                table, seat, await self._apply(table, replace(action, seat=seat), user.key)
            )

        return await self.changes.run(where, step, update_key, loaded)

    async def press(
        self,
        where: Where,
        user: UserRef,
        selection: Selection,
        version: int,
        update_key: str | None = None,
        loaded: Table | None = None,
    ) -> Committed:
        """Carry out offer ``selection.offer`` of the user's hand screen drawn at game state
        version ``version`` (:attr:`engine.views.PublicView.version`) for ``selection``
        (its order and selection): resolved to its action and applied in one worker call.
        Raises :class:`StaleControl` when the game or the hand moved on,
        :class:`bot.service.errors.UnknownOffer` for an offer number that screen never
        listed."""

        async def step(table: Table) -> Change:
            seat = table.seat_of(user.key)
            if seat is None:
                raise NotSeated()
            state = table.state
            if state is None or table.status is not Status.PLAYING:
                raise NotPlaying()
            if version != state.version or (
                selection.digest is not None and selection.digest != hand_digest(state.hands[seat])
            ):
                raise StaleControl()
            assert selection.offer is not None
            try:
                action, new, events, facts = await self.compute.call(
                    engine_work.press_offer,
                    state,
                    seat,
                    selection.mask,
                    int(selection.sort),
                    selection.offer,
                    people(table),
                    table.seed,
                    budget=self.budget,
                    lane=Lane.MOVE,
                )
            except (BudgetExceeded, WorkerLost) as error:
                log.warning("table %d: a pressed offer %s", table.id, why_failed(error))
                raise EngineTimeout() from None
            change = applied_change(table, action, new, events, user.key)
            change.facts = facts
            return self._taken_back(table, seat, change)

        return await self.changes.run(where, step, update_key, loaded)

    async def back(
        self,
        where: Where,
        user: UserRef,
        update_key: str | None = None,
        loaded: Table | None = None,
    ) -> Committed:
        """The player takes the seat back from the autopilot."""

        async def step(table: Table) -> Change:
            seat = table.seat_of(user.key)
            if seat is None:
                raise NotSeated()
            if not table.seats[seat].autopilot and not table.seats[seat].missed:
                return Change(table)  # nothing to take back: nothing is stored
            seats = list(table.seats)
            seats[seat] = replace(seats[seat], autopilot=False, missed=0)
            return Change(
                replace(table, seats=tuple(seats)),
                log=[(seat, "back", user.key)],
                notices=[Notice("autopilot_off", {"name": seats[seat].name})],
                hands=set(),
            )

        return await self.changes.run(where, step, update_key, loaded)

    async def _action(self, table: Table, seat: int | None, command: str | Action) -> Action:
        """The action of ``command``; a typed ``layoff 2h`` / ``swap 8h`` without a meld
        number means the one meld of the table that takes those cards among the seat's
        legal moves, when there is exactly one."""
        if not isinstance(command, str):
            return command
        try:
            return parse_action(command, seat or 0)
        except CardParseError as error:
            var = get_variant(table.variant)
            if not var.uses_tiles:
                raise
            raise CardParseError(str(error.params["text"]), "tile", var.notation_examples) from None
        except MissingMeldNumber:
            meld = await self._the_only_meld(table, seat, command)
            if meld is None:
                raise
            return parse_action(f"{command} {meld + 1}", seat or 0)

    async def _the_only_meld(self, table: Table, seat: int | None, move: str) -> int | None:
        words = move.split()
        verb = canonical_verb(words[0]) if words else None
        try:
            cards = Counter(CardSpec.parse(word).card for word in words[1:])
        except CardParseError:
            return None
        if seat is None:
            return None
        facts = (await self.screens.facts(table, [seat])).get(seat)
        legal = facts.legal if facts is not None else ()
        melds = {
            meld for action in legal if (meld := _meld_put_on(verb, action, cards)) is not None
        }
        return melds.pop() if len(melds) == 1 else None

    async def _apply(self, table: Table, action: Action, actor: str) -> Change:
        """Apply one engine action in the worker pool (raising ``IllegalMove``, changing
        nothing), with the people's facts in the new position. A move over the budget
        raises :class:`EngineTimeout` ("try again"); nothing changed."""
        assert table.state is not None
        try:
            state, events, facts = await self.compute.call(
                engine_work.apply_move,
                table.state,
                action,
                people(table),
                table.seed,
                budget=self.budget,
                lane=Lane.MOVE,
            )
        except (BudgetExceeded, WorkerLost) as error:
            log.warning("table %d: move %s %s", table.id, format_action(action), why_failed(error))
            raise EngineTimeout() from None
        change = applied_change(table, action, state, events, actor)
        change.facts = facts
        return change

    @staticmethod
    def _taken_back(table: Table, seat: int, change: Change) -> Change:
        """A person who moves plays their seat again (autopilot and missed turns reset)."""
        if table.seats[seat].autopilot or table.seats[seat].missed:
            seats = list(change.table.seats)
            was_auto = seats[seat].autopilot
            seats[seat] = replace(seats[seat], autopilot=False, missed=0)
            change.table = replace(change.table, seats=tuple(seats))
            if was_auto:
                change.notices.append(Notice("autopilot_off", {"name": seats[seat].name}))
        return change


def _meld_put_on(verb: str | None, action: object, cards: Counter[Card]) -> int | None:
    """The meld a legal ``action`` puts exactly ``cards`` on, when it is what ``verb``
    names: a lay-off for ``layoff``, a joker swap for ``swap``; ``None`` otherwise."""
    if verb == "layoff" and isinstance(action, LayOff):
        put = Counter(spec.card for spec in action.cards)
    elif verb == "swap" and isinstance(action, SwapJoker):
        put = Counter((action.card,))
    else:
        return None
    return action.meld if put == cards else None


def applied_change(
    table: Table,
    action: Action,
    state: GameState,
    events: tuple[Event, ...] | list[Event],
    actor: str,
) -> Change:
    """The change of a table whose state ``action`` turned into ``state``: the log line,
    the events, whose hands changed, and the results when the game ended."""
    assert table.state is not None
    new = replace(table, state=state)
    change = Change(
        new,
        log=[(action.seat, format_action(action), actor)],
        events=list(events),
        hands=_changed_hands(table.state, state, action.seat),
    )
    if state.phase is Phase.GAME_OVER:
        change.table = replace(new, status=Status.FINISHED, ended_reason="over")
        change.results = result_rows(change.table, state.winners)
    return change


def _changed_hands(before: GameState, after: GameState, seat: int) -> set[int] | None:
    if before.deal_number != after.deal_number or (
        after.phase is not before.phase and after.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
    ):
        return None
    return {seat}
