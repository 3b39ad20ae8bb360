"""Lobby steps of the game service: open a table, join, leave, AI seats, settings, start
and cancel. Each is one change of the table (:meth:`TableCore._change`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from bot.ports.model import ChatKey, Seat, SeatKind, Status, TableInfo, TableSettings, UserRef
from bot.service import lobby
from bot.service.ai_levels import DEFAULT_LEVEL
from bot.service.core import (
    Change,
    TableCore,
)
from bot.service.errors import (
    NotEnoughPlayers,
    NotHost,
    NotSeated,
    TableExists,
)
from bot.service.model import Table
from bot.service.notifier import Notice
from bot.service.repository import (
    ActiveTableExists,
)
from bot.service.scheduling import reschedule
from bot.service.table_rules import table_rules
from engine.dealing import new_game
from engine.events import DealStarted
from engine.rules import OptionValue
from engine.variants import get_variant


class LobbySteps(TableCore):
    """The lobby steps (see the module docstring)."""

    async def new_table(self, key: ChatKey, host: UserRef, variant: str = "basic",
                        preset: str | None = None,
                        options: Mapping[str, OptionValue] | None = None,
                        settings: TableSettings | None = None) -> TableInfo:
        """Open a lobby in ``key`` with ``host`` seated. Raises :class:`TableExists`, or
        ``RuleOptionError`` for a bad variant, preset or option."""
        rules = table_rules(variant, preset, options)
        host = lobby.bounded_user(host)
        await self._check_table_count(host)
        await self.repo.upsert_user(host.platform, host.user_id, host.name)
        now = self.clock.now()
        async with self._lock(key):
            if await self.repo.active_table(key) is not None:
                raise TableExists()
            seat = Seat(SeatKind.HUMAN, lobby.seat_name(host.name), host.key)
            table = Table(id=0, key=key, status=Status.LOBBY, variant=rules.variant,
                          preset=preset, options=tuple((options or {}).items()),
                          host=host.key, seats=(seat,), settings=settings or self.defaults,
                          seed=self._seed(), state=None, version=1, created_at=now,
                          updated_at=now, last_human_at=now)
            table = reschedule(None, table, now)
            try:
                table = await self.repo.create_table(table)
            except ActiveTableExists:
                raise TableExists() from None
        await self._notify(Change(table, notices=[Notice("lobby_opened",
                                                         {"name": seat.name})]))
        self._poke(table.due_at)
        return table.info()

    async def join(self, key: ChatKey, user: UserRef, update_key: str | None = None
                   ) -> TableInfo:
        """Seat ``user`` in the lobby (at most :data:`MAX_TABLES_PER_USER` active tables
        per person: :class:`TooManyTables`)."""
        user = lobby.bounded_user(user)
        if update_key is None or await self._applied(update_key) is None:
            await self._check_table_count(user)
        await self.repo.upsert_user(user.platform, user.user_id, user.name)

        async def step(table: Table) -> Change:
            new = lobby.join(table, user)
            return Change(new, log=[(None, "join", user.key)],
                          notices=[Notice("player_joined", {"name": new.seats[-1].name})])

        return await self._change(key, step, update_key)

    async def leave(self, key: ChatKey, user: UserRef, update_key: str | None = None
                    ) -> TableInfo:
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
                return Change(new, log=[(None, "leave", user.key)],
                              notices=[Notice("player_left", {"name": name})])
            seats = list(table.seats)
            seats[seat] = replace(seats[seat], autopilot=True)
            return Change(replace(table, seats=tuple(seats)), log=[(seat, "leave", user.key)],
                          notices=[Notice("autopilot_on", {"name": name})])

        return await self._change(key, step, update_key)

    async def add_ai(self, key: ChatKey, user: UserRef, level: str = DEFAULT_LEVEL,
                     update_key: str | None = None) -> TableInfo:
        """The host adds an AI seat of ``level`` (easy, normal, hard:
        :mod:`bot.service.ai_levels`; ``AILevelUnavailable`` when the engine lacks it)."""

        async def step(table: Table) -> Change:
            new = lobby.add_ai(table, user, level)
            return Change(new, log=[(None, f"addbot {new.seats[-1].ai}", user.key)],
                          notices=[Notice("ai_added", {"name": new.seats[-1].name})])

        return await self._change(key, step, update_key)

    async def remove_ai(self, key: ChatKey, user: UserRef, seat: int | None = None,
                        update_key: str | None = None) -> TableInfo:
        """The host removes an AI seat (1-based number, or the last one)."""

        async def step(table: Table) -> Change:
            new = lobby.remove_ai(table, user, seat)
            gone = next(s for s in table.seats if s not in new.seats)
            return Change(new, log=[(None, "removebot", user.key)],
                          notices=[Notice("ai_removed", {"name": gone.name})])

        return await self._change(key, step, update_key)

    async def configure(self, key: ChatKey, user: UserRef, changes: Mapping[str, str],
                        update_key: str | None = None) -> TableInfo:
        """The host changes variant, preset, timer, language or rule options."""

        async def step(table: Table) -> Change:
            new = lobby.configure(table, user, changes)
            text = " ".join(f"{k}={v}" for k, v in changes.items())
            return Change(new, log=[(None, f"set {text}", user.key)],
                          notices=[Notice("settings_changed", {"changes": text})])

        return await self._change(key, step, update_key)

    async def start(self, key: ChatKey, user: UserRef, update_key: str | None = None
                    ) -> TableInfo:
        """The host starts the game once enough players sit: the first deal is dealt."""

        async def step(table: Table) -> Change:
            lobby.require_lobby(table)
            lobby.require_host(table, user, "start the game")
            var = get_variant(table.variant)
            if not var.min_players <= len(table.seats) <= var.max_players:
                raise NotEnoughPlayers(variant=var.name, minimum=var.min_players,
                                       maximum=var.max_players, seats=len(table.seats))
            rules = self.rules_of(table)
            state = new_game(rules, [s.name for s in table.seats], seed=table.seed)
            new = replace(table, status=Status.PLAYING, state=state)
            dealt = DealStarted(state.deal_number, state.dealer, state.upcard)
            return Change(new, log=[(None, "start", user.key)], hands=None, events=[dealt],
                          notices=[Notice("game_started", {})])

        return await self._change(key, step, update_key)

    async def cancel(self, key: ChatKey, user: UserRef, is_admin: bool = False,
                     update_key: str | None = None) -> TableInfo:
        """The host or a chat admin cancels the lobby or the game."""

        async def step(table: Table) -> Change:
            if user.key != table.host and not is_admin:
                raise NotHost(action="cancel the game")
            new = replace(table, status=Status.CANCELLED, ended_reason="cancelled")
            return Change(new, log=[(None, "cancel", user.key)],
                          notices=[Notice("game_cancelled", {})])

        return await self._change(key, step, update_key)
