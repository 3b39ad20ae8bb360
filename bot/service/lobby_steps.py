"""Lobby steps of the game service: open a table, join, leave, AI seats, settings, start
and cancel. Each is one change of the table (:meth:`TableChanges.run`) and returns the
:class:`~bot.service.changes.Committed` result; the caller (the entry point) shows it.
``where`` names the table: its chat (:class:`bot.ports.model.ChatKey`) or its id."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import replace

from bot.ports.model import ChatKey, Seat, SeatKind, Status, TableSettings, UserRef
from bot.ports.screens import Notice
from bot.ports.table_rules import DEFAULT_LEVEL, table_rules
from bot.service import engine_work, lobby
from bot.service.change_records import change_record
from bot.service.changes import Change, Committed, TableChanges
from bot.service.compute import BudgetExceeded, Compute, Lane, WorkerLost
from bot.service.errors import (
    EngineTimeout,
    NotEnoughPlayers,
    NotHost,
    NotSeated,
    TableExists,
    TooManyTables,
)
from bot.service.limits import MAX_TABLES_PER_USER
from bot.service.model import Table
from bot.service.repository import ActiveTableExists, Repository
from bot.service.scheduling import reschedule
from bot.service.screens import people
from engine.events import DealStarted
from engine.fairness import SECRET_BYTES
from engine.rules import OptionValue
from engine.variants import get_variant

__all__ = ["LobbySteps"]

Where = ChatKey | int


def _random_fair_key() -> bytes:
    """A new game's fair key: 32 bytes from :mod:`secrets` (never shown)."""
    return secrets.token_bytes(SECRET_BYTES)


def _no_fair_key() -> None:
    """No fair key: the game deals from its seed (a seed chosen for its cards)."""
    return None


class LobbySteps:
    """The lobby steps (see the module docstring). ``defaults``: the settings of a new
    table; ``seed_source``: each new game's seed (random by default); ``fair_key_source``:
    each new game's fair key (:mod:`engine.fairness`: every deal from its own secret,
    with a commitment). Default: 32 bytes from :mod:`secrets`, and none (deals from the
    seed, as before) when a ``seed_source`` is given (tests that pick a seed for its
    cards)."""

    def __init__(
        self,
        changes: TableChanges,
        compute: Compute,
        budget: float,
        defaults: TableSettings,
        seed_source: Callable[[], int] | None = None,
        fair_key_source: Callable[[], bytes | None] | None = None,
    ) -> None:
        self.changes = changes
        self.repo: Repository = changes.repo
        self.compute = compute
        self.budget = budget
        self.defaults = defaults
        self._seed = seed_source or (lambda: secrets.randbits(62))
        if fair_key_source is None:
            fair_key_source = _no_fair_key if seed_source is not None else _random_fair_key
        self.fair_key_source = fair_key_source

    async def _check_table_count(self, user: UserRef) -> None:
        if len(await self.changes.tables_of(user.key)) >= MAX_TABLES_PER_USER:
            raise TooManyTables(limit=MAX_TABLES_PER_USER)

    async def new_table(
        self,
        key: ChatKey,
        host: UserRef,
        variant: str = "basic",
        preset: str | None = None,
        options: Mapping[str, OptionValue] | None = None,
        settings: TableSettings | None = None,
    ) -> Committed:
        """Open a lobby in ``key`` with ``host`` seated. Raises :class:`TableExists`,
        :class:`TooManyTables`, or ``RuleOptionError`` for a bad variant, preset or
        option."""
        rules = table_rules(variant, preset, options)
        host = lobby.bounded_user(host)
        await self._check_table_count(host)
        now = self.changes.clock.now()
        seat = Seat(SeatKind.HUMAN, lobby.seat_name(host.name), host.key)
        table = Table(
            id=0,
            key=key,
            status=Status.LOBBY,
            variant=rules.variant,
            preset=preset,
            options=tuple((options or {}).items()),
            host=host.key,
            seats=(seat,),
            settings=settings or self.defaults,
            seed=self._seed(),
            state=None,
            version=1,
            created_at=now,
            updated_at=now,
            last_human_at=now,
        )
        table = reschedule(None, table, now)
        notices = [Notice("lobby_opened", {"name": seat.name})]
        try:
            table = await self.repo.create_table(
                table, change_record(table, table, (), notices, frozenset())
            )
        except ActiveTableExists:
            raise TableExists() from None
        self.changes.note_committed(table)
        self.changes.poke(table.due_at)
        change = Change(table, notices=notices)
        return Committed(table, change, stored=True)

    async def join(
        self,
        where: Where,
        user: UserRef,
        update_key: str | None = None,
        loaded: Table | None = None,
    ) -> Committed:
        """Seat ``user`` in the lobby (at most :data:`MAX_TABLES_PER_USER` active tables
        per person: :class:`TooManyTables`)."""
        user = lobby.bounded_user(user)

        async def step(table: Table) -> Change:
            new = lobby.join(table, user)
            await self._check_table_count(user)
            return Change(
                new,
                log=[(None, "join", user.key)],
                notices=[Notice("player_joined", {"name": new.seats[-1].name})],
            )

        return await self.changes.run(where, step, update_key, loaded)

    async def leave(
        self,
        where: Where,
        user: UserRef,
        update_key: str | None = None,
        loaded: Table | None = None,
    ) -> Committed:
        """Leave the lobby; during a game the AI takes the seat over for good."""

        async def step(table: Table) -> Change:
            seat = table.seat_of(user.key)
            if seat is None:
                raise NotSeated()
            name = table.seats[seat].name
            if table.status is Status.LOBBY:
                new = lobby.leave(table, user)
                if not any(s.kind is SeatKind.HUMAN for s in new.seats):
                    new = replace(new, status=Status.CANCELLED, ended_reason="empty")
                return Change(
                    new,
                    log=[(None, "leave", user.key)],
                    notices=[Notice("player_left", {"name": name})],
                )
            seats = list(table.seats)
            seats[seat] = replace(seats[seat], autopilot=True)
            return Change(
                replace(table, seats=tuple(seats)),
                log=[(seat, "leave", user.key)],
                notices=[Notice("autopilot_on", {"name": name})],
                hands=set(),
            )

        return await self.changes.run(where, step, update_key, loaded)

    async def add_ai(
        self,
        where: Where,
        user: UserRef,
        level: str = DEFAULT_LEVEL,
        update_key: str | None = None,
        loaded: Table | None = None,
    ) -> Committed:
        """The host adds an AI seat of ``level`` (easy, normal, hard, expert:
        :mod:`bot.service.ai_levels`; ``AILevelUnavailable`` when the engine lacks it)."""

        async def step(table: Table) -> Change:
            new = lobby.add_ai(table, user, level)
            return Change(
                new,
                log=[(None, f"addbot {new.seats[-1].ai}", user.key)],
                notices=[Notice("ai_added", {"name": new.seats[-1].name})],
            )

        return await self.changes.run(where, step, update_key, loaded)

    async def remove_ai(
        self,
        where: Where,
        user: UserRef,
        seat: int | None = None,
        update_key: str | None = None,
        loaded: Table | None = None,
    ) -> Committed:
        """The host removes an AI seat (1-based number, or the last one)."""

        async def step(table: Table) -> Change:
            new = lobby.remove_ai(table, user, seat)
            gone = next(s for s in table.seats if s not in new.seats)
            return Change(
                new,
                log=[(None, "removebot", user.key)],
                notices=[Notice("ai_removed", {"name": gone.name})],
            )

        return await self.changes.run(where, step, update_key, loaded)

    async def configure(
        self,
        where: Where,
        user: UserRef,
        changes: Mapping[str, str],
        update_key: str | None = None,
        loaded: Table | None = None,
    ) -> Committed:
        """The host changes variant, preset, timer, language or rule options."""

        async def step(table: Table) -> Change:
            new = lobby.configure(table, user, changes)
            text = " ".join(f"{k}={v}" for k, v in changes.items())
            return Change(
                new,
                log=[(None, f"set {text}", user.key)],
                notices=[Notice("settings_changed", {"changes": text})],
            )

        return await self.changes.run(where, step, update_key, loaded)

    async def start(
        self,
        where: Where,
        user: UserRef,
        update_key: str | None = None,
        loaded: Table | None = None,
    ) -> Committed:
        """The host starts the game once enough players sit: the first deal is dealt (in
        the worker pool, with the people's screen facts)."""

        async def step(table: Table) -> Change:
            lobby.require_lobby(table)
            lobby.require_host(table, user, "start the game")
            var = get_variant(table.variant)
            if not var.min_players <= len(table.seats) <= var.max_players:
                raise NotEnoughPlayers(
                    variant=var.name,
                    minimum=var.min_players,
                    maximum=var.max_players,
                    seats=len(table.seats),
                )
            rules = table_rules(table.variant, table.preset, dict(table.options))
            try:
                state, facts = await self.compute.call(
                    engine_work.deal,
                    rules,
                    [s.name for s in table.seats],
                    table.seed,
                    people(table),
                    self.fair_key_source(),
                    budget=self.budget,
                    lane=Lane.MOVE,
                )
            except (BudgetExceeded, WorkerLost):
                raise EngineTimeout() from None
            new = replace(table, status=Status.PLAYING, state=state)
            dealt = DealStarted(state.deal_number, state.dealer, state.upcard, state.commitment)
            return Change(
                new,
                log=[(None, "start", user.key)],
                hands=None,
                events=[dealt],
                notices=[Notice("game_started", {})],
                facts=facts,
            )

        return await self.changes.run(where, step, update_key, loaded)

    async def cancel(
        self,
        where: Where,
        user: UserRef,
        is_admin: bool = False,
        update_key: str | None = None,
        loaded: Table | None = None,
    ) -> Committed:
        """The host or a chat admin cancels the lobby or the game."""

        async def step(table: Table) -> Change:
            if user.key != table.host and not is_admin:
                raise NotHost(action="cancel the game")
            new = replace(table, status=Status.CANCELLED, ended_reason="cancelled")
            return Change(
                new,
                log=[(None, "cancel", user.key)],
                notices=[Notice("game_cancelled", {})],
                hands=set(),
            )

        return await self.changes.run(where, step, update_key, loaded)
