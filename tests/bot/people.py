"""People acting through the service's entry point, as a front end would: the tests'
driver of the game service (:class:`People`: the old step names, each one intent) and
:func:`say` (one typed line)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.interaction.commands import parse, request_of
from bot.ports.intents import (
    Hint,
    InChat,
    Intent,
    Mine,
    Move,
    Outcome,
    Reply,
    Request,
    Selection,
)
from bot.ports.model import ChatKey, TableInfo, TableSettings, UserRef
from bot.ports.screens import SeatFacts
from bot.service.service import GameService
from engine.views import PlayerView, PublicView, public_view, view_for

__all__ = ["People", "say"]


class People:
    """People acting through the service's entry point, as a front end would: each call is
    one :class:`Intent`; a refusal raises the service's error (for ``pytest.raises``)."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.repo = service.repo
        self.scheduler = service.scheduler
        self.clock = service.clock

    @property
    def compute(self) -> Any:
        return self.service.compute

    @compute.setter
    def compute(self, compute: Any) -> None:
        self.service.compute = compute

    async def do(
        self,
        user: UserRef,
        request: Request,
        key: ChatKey | None = None,
        update_key: str | None = None,
        **intent: Any,
    ) -> Outcome:
        """Run one intent (in chat ``key``, else at the person's newest table); raise its
        refusal."""
        at = InChat(key) if key is not None else Mine()
        outcome = await self.service.entry.handle(
            Intent(request, user, at, update_key=update_key, **intent)
        )
        if outcome.error is not None:
            raise outcome.error
        return outcome

    async def _info(
        self,
        key: ChatKey,
        user: UserRef,
        verb: str,
        *args: str,
        update_key: str | None = None,
        **intent: Any,
    ) -> TableInfo:
        outcome = await self.do(
            user, request_of(verb, args), key=key, update_key=update_key, **intent
        )
        assert outcome.info is not None
        return outcome.info

    async def new_table(
        self,
        key: ChatKey,
        host: UserRef,
        variant: str = "basic",
        preset: str | None = None,
        options: Mapping[str, Any] | None = None,
        settings: TableSettings | None = None,
    ) -> TableInfo:
        if settings is not None:
            committed = await self.service.lobby.new_table(
                key, host, variant, preset, options, settings
            )
            return committed.table.info()
        words = (
            [variant]
            + ([preset] if preset else [])
            + [f"{name}={value}" for name, value in (options or {}).items()]
        )
        return await self._info(key, host, "new", *words)

    async def busy_ai_tables(self, platform: str, count: int) -> None:
        """``count`` tables in chats ``c0``, ``c1``... of ``platform`` where the AI plays
        every seat (the host leaves: the autopilot plays them too), 50 deals each: with
        no pauses configured (the service's defaults), every table is always due."""
        for n in range(count):
            key = ChatKey(platform, f"c{n}")
            host = UserRef(platform, f"u{n}", f"host{n}")
            await self.new_table(key, host, "basic", None, {"deals": 50})
            await self.add_ai(key, host)
            await self.add_ai(key, host, "random")
            await self.start(key, host)
            await self.leave(key, host)

    async def join(self, key: ChatKey, user: UserRef, update_key: str | None = None) -> TableInfo:
        return await self._info(key, user, "join", update_key=update_key)

    async def leave(self, key: ChatKey, user: UserRef, update_key: str | None = None) -> TableInfo:
        return await self._info(key, user, "leave", update_key=update_key)

    async def add_ai(
        self, key: ChatKey, user: UserRef, level: str = "normal", update_key: str | None = None
    ) -> TableInfo:
        return await self._info(key, user, "addbot", level, update_key=update_key)

    async def remove_ai(
        self, key: ChatKey, user: UserRef, seat: int | None = None, update_key: str | None = None
    ) -> TableInfo:
        words = () if seat is None else (str(seat),)
        return await self._info(key, user, "removebot", *words, update_key=update_key)

    async def configure(
        self, key: ChatKey, user: UserRef, changes: Mapping[str, str], update_key: str | None = None
    ) -> TableInfo:
        return await self._info(
            key, user, "set", *(f"{k}={v}" for k, v in changes.items()), update_key=update_key
        )

    async def start(self, key: ChatKey, user: UserRef, update_key: str | None = None) -> TableInfo:
        return await self._info(key, user, "start", update_key=update_key)

    async def cancel(
        self, key: ChatKey, user: UserRef, is_admin: bool = False, update_key: str | None = None
    ) -> TableInfo:
        return await self._info(key, user, "cancel", update_key=update_key, is_admin=is_admin)

    async def act(
        self, key: ChatKey, user: UserRef, command: str | object, update_key: str | None = None
    ) -> TableInfo:
        if isinstance(command, str):
            outcome = await self.do(
                user, Move(tuple(command.split())), key=key, update_key=update_key
            )
        else:
            outcome = await self.do(user, Move(action=command), key=key, update_key=update_key)
        assert outcome.info is not None
        return outcome.info

    async def back(self, key: ChatKey, user: UserRef, update_key: str | None = None) -> TableInfo:
        return await self._info(key, user, "back", update_key=update_key)

    async def hint(self, key: ChatKey, user: UserRef) -> Outcome:
        return await self.do(user, Hint(), key=key, selection=Selection())

    # questions (no intent: the service's queries)

    async def table_info(self, key: ChatKey) -> TableInfo | None:
        return await self.service.queries.table_info(key)

    async def table_view(self, key: ChatKey) -> tuple[TableInfo, PublicView | None]:
        table = await self.service.changes.load(key)
        return table.info(), None if table.state is None else public_view(table.state)

    async def player_view(self, key: ChatKey, user: UserRef) -> tuple[TableInfo, PlayerView]:
        table = await self.service.changes.load(key)
        seat = table.seat_of(user.key)
        assert seat is not None and table.state is not None
        return table.info(), view_for(table.state, seat)

    async def hand_facts(self, key: ChatKey, user: UserRef) -> SeatFacts:
        """The engine's facts of the user's seat (legal moves, suggestion, best melds)."""
        info = await self.service.queries.table_info(key)
        assert info is not None
        found = await self.service.entry.screens(info.id, user)
        assert found is not None and found.own is not None
        return found.own.facts

    async def legal_commands(self, key: ChatKey, user: UserRef) -> list[str]:
        return await self.service.queries.legal_commands(key, user)

    async def choose_table(self, user: UserRef, table_id: int | None) -> TableInfo | None:
        return await self.service.queries.choose_table(user, table_id)

    async def stats(self, user: UserRef) -> dict[str, Any]:
        return await self.service.queries.stats(user)

    async def leaderboard(self, key: ChatKey | None, limit: int = 10) -> list[dict[str, Any]]:
        return await self.service.queries.leaderboard(key, limit)

    async def export(self, table_id: int) -> dict[str, Any]:
        return await self.service.queries.export(table_id)

    async def tick(self) -> int:
        return await self.service.tick()

    async def prune_update_keys(self, now: float | None = None) -> int:
        return await self.service.automatic.prune_update_keys(now)

    def rules_of(self, info: TableInfo) -> Any:
        from bot.ports.table_rules import table_rules

        return table_rules(info.variant, info.preset, dict(info.options))


async def say(
    people: People | GameService,
    key: ChatKey,
    user: UserRef,
    text: str,
    update_key: str | None = None,
    is_admin: bool = False,
) -> Reply:
    """One typed line of ``user`` in chat ``key``, through the entry point as a chat front
    end sends it (:func:`bot.interaction.commands.parse`); the reply."""
    service = people.service if isinstance(people, People) else people
    outcome = await service.entry.handle(
        Intent(parse(text), user, InChat(key), update_key=update_key, is_admin=is_admin)
    )
    return outcome.reply
