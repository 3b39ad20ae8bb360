"""Read-only questions to the game service: views of a table, the seat's legal moves,
hints and the hand model's facts (engine work in the pool), tables of a user,
languages, statistics and game records."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from bot.ports.model import ChatKey, Status, TableInfo, UserRef
from bot.service import engine_work
from bot.service.compute import BudgetExceeded, Lane, WorkerLost
from bot.service.core import (
    HINT_CACHE,
    HandFacts,
    TableCore,
    why_failed,
)
from bot.service.errors import (
    NoHintInTime,
    NoTable,
    NotFinished,
    NotPlaying,
    NotSeated,
    NotYourTable,
)
from engine.cards import Card
from engine.dealing import new_game
from engine.records import export_record
from engine.rules import RuleSet
from engine.search import Partition
from engine.views import PlayerView, PublicView, public_view, view_for

log = logging.getLogger(__name__)


class Queries(TableCore):
    """Questions that change nothing (see the module docstring)."""

    async def player_view(self, key: ChatKey, user: UserRef) -> tuple[TableInfo, PlayerView]:
        """The user's own view of the running game (for "show my hand")."""
        table = await self._load(key)
        seat = table.seat_of(user.key)
        if seat is None:
            raise NotSeated()
        if table.state is None:
            raise NotPlaying()
        return table.info(), view_for(table.state, seat)

    async def table_view(self, key: ChatKey) -> tuple[TableInfo, PublicView | None]:
        """The public state of the chat's table (``None`` view in the lobby)."""
        table = await self._load(key)
        return table.info(), None if table.state is None else public_view(table.state)

    async def legal_commands(self, key: ChatKey, user: UserRef) -> list[str]:
        """The game commands ``user`` may send now at the chat's table, as text of the
        command language (:func:`engine.commands.format_action` of
        :func:`engine.game.legal_actions` for the user's own seat, in the engine's order),
        for completions and buttons. Only the user's seat is asked, so the commands name
        no card the user may not see. Empty when there is no running game here, the user
        has no seat, or has nothing to do now, and when the engine found no answer within
        the budget (the list is a convenience; typed moves still work)."""
        table = await self.repo.active_table(key)
        if table is None or table.state is None or table.status is not Status.PLAYING:
            return []
        seat = table.seat_of(user.key)
        if seat is None:
            return []
        try:
            return await self.compute.call(engine_work.legal_commands, table.state, seat,
                                           budget=self.budget, lane=Lane.BACKGROUND)
        except (BudgetExceeded, WorkerLost):
            log.info("legal moves of table %d seat %d: none in time", table.id, seat)
            return []

    async def hint(self, key: ChatKey, user: UserRef) -> Partition:
        """The best melds of the user's hand at the chat's running game
        (:func:`engine.search.best_melds`, run off the event loop within the budget).
        Raises :class:`NoHintInTime` when none was found in time (the answer is
        remembered for this position, so asking again costs nothing),
        :class:`NotSeated` / :class:`NotPlaying` / :class:`NoTable` otherwise."""
        table, seat, state = await self._seated(key, user)
        cache_key = (table.id, table.version, seat)
        if cache_key in self._hints:
            found = self._hints[cache_key]
        else:
            try:
                found = await self.compute.call(engine_work.hint, state.hands[seat],
                                                state.rules, budget=self.budget,
                                                lane=Lane.BACKGROUND)
            except (BudgetExceeded, WorkerLost):
                found = None
            self._hints[cache_key] = found
            while len(self._hints) > HINT_CACHE:
                self._hints.popitem(last=False)
        if found is None:
            raise NoHintInTime()
        return found

    async def melds_of(self, cards: Sequence[Card], rules: RuleSet) -> Partition | None:
        """The best melds of ``cards`` under ``rules`` (:func:`engine.search.best_melds`:
        e.g. a selection that may split into several melds), found in the worker pool
        within the budget; ``None`` when not found in time."""
        try:
            found: Partition = await self.compute.call(engine_work.hint, tuple(cards), rules,
                                                       budget=self.budget,
                                                       lane=Lane.BACKGROUND)
        except (BudgetExceeded, WorkerLost):
            return None
        return found

    async def hand_facts(self, key: ChatKey, user: UserRef, melds: bool = False
                         ) -> HandFacts:
        """What the user's hand screen at the chat's running game is built from: the
        table, the seat's own view, its legal actions, the suggested move (one of them) and,
        when ``melds``, the best melds of the hand; engine work runs in the pool within the
        budget, background lane, and is remembered per (table, version, seat). When the
        engine found no answer in time, ``complete`` is False and the lists are empty (the
        typed commands still work). Raises :class:`NotSeated` / :class:`NotPlaying` /
        :class:`NoTable`."""
        table, seat, state = await self._seated(key, user)
        view = view_for(state, seat)
        cache_key = (table.id, table.version, seat)
        found = self._facts.get(cache_key)
        if found is None or (melds and found[2] is None):
            try:
                found = await self.compute.call(engine_work.hand_facts, state, seat,
                                                self._ai_seed(table) + seat, melds,
                                                budget=self.budget, lane=Lane.BACKGROUND)
                self._facts[cache_key] = found
                while len(self._facts) > HINT_CACHE:
                    self._facts.popitem(last=False)
            except (BudgetExceeded, WorkerLost) as error:
                log.info("hand of table %d seat %d: %s", table.id, seat, why_failed(error))
                return HandFacts(table.info(), view, (), None, None, complete=False)
        legal, suggestion, partition = found
        return HandFacts(table.info(), view, tuple(legal), suggestion, partition)

    async def choose_table(self, user: UserRef, table_id: int | None) -> TableInfo | None:
        """The active table a private command is for: table ``table_id`` when given (it
        must be one where the user sits, else :class:`NotYourTable`, whatever else the
        user plays), otherwise the user's newest running game, else their newest lobby;
        ``None`` when the user sits at no table and named none."""
        tables = await self.tables_of(user)
        if table_id is not None:
            chosen = next((t for t in tables if t.id == table_id), None)
            if chosen is None:
                raise NotYourTable(table=table_id)
            return chosen
        if not tables:
            return None
        return max(tables, key=lambda t: (t.status is Status.PLAYING, t.id))

    async def latest_ended(self, key: ChatKey) -> TableInfo | None:
        """The chat's most recently ended game (for ``export``), or ``None``."""
        table = await self.repo.latest_ended(key)
        return None if table is None else table.info()

    async def table_info(self, key: ChatKey) -> TableInfo | None:
        """The chat's active table, or ``None``."""
        table = await self.repo.active_table(key)
        return None if table is None else table.info()

    async def tables_of(self, user: UserRef) -> list[TableInfo]:
        """The active tables where ``user`` sits (private chats list them)."""
        return [t.info() for t in await self.repo.tables_of_user(user.key)]

    async def set_locale(self, user: UserRef, locale: str | None) -> None:
        """Store the user's language (``None``: follow the platform)."""
        await self.repo.set_user_locale(user.key, locale)

    async def locale_of(self, user: UserRef) -> str:
        """The user's language: their choice, else the platform's, else English."""
        from bot.i18n import normalize_locale

        chosen = await self.repo.user_locale(user.key)
        return normalize_locale(chosen or user.locale or self.default_locale)

    async def table_locale(self, info: TableInfo) -> str:
        """The language of a table's public messages: its setting, else the host's."""
        from bot.i18n import normalize_locale

        if info.settings.locale:
            return normalize_locale(info.settings.locale)
        return normalize_locale(await self.repo.user_locale(info.host) or self.default_locale)

    async def stats(self, user: UserRef) -> dict[str, Any]:
        """``{"games", "wins"}`` of the user over every chat."""
        return await self.repo.user_stats(user.key)

    async def first_game(self, user: UserRef, variant: str) -> bool:
        """True while the user has finished no game of ``variant`` (the stored results): the
        screens then guide them (:mod:`bot.render.guide`)."""
        return await self.repo.finished_games(user.key, variant) == 0

    async def leaderboard(self, key: ChatKey | None, limit: int = 10) -> list[dict[str, Any]]:
        """Top players by wins, in one chat or (``key=None``) overall."""
        return await self.repo.leaderboard(None if key is None else str(key), limit)

    async def export(self, table_id: int) -> dict[str, Any]:
        """The JSON game record of an ended table (see docs/records.md); replaying it gives
        the stored state. Raises :class:`NoTable` for an unknown id or a table never started,
        :class:`NotFinished` while it runs (the record's seed would reveal every hand)."""
        table = await self.repo.get_table(table_id)
        if table is None or table.state is None:
            raise NoTable()
        if table.status in (Status.LOBBY, Status.PLAYING):
            raise NotFinished()
        names = [s.name for s in table.seats]
        rules = table.state.rules
        first_dealer = new_game(rules, names, seed=table.seed).dealer
        lines = [f"{names[e.seat]}: {e.command}" for e in await self.repo.action_log(table_id)
                 if e.seat is not None and e.command not in ("leave", "back")]
        return export_record(rules, names, table.seed, first_dealer, lines,
                             comment=f"table {table.id} in {table.key}")
