"""Read-only questions to the game service (:class:`Queries`): tables of a chat, of an id,
of a person; languages; the legal moves as command lines (for completions); what a page
opened on a table shows; statistics and game records. Nothing here changes a table. A
table that cannot be loaded is reported (:class:`bot.service.faults.TableFaults`) and is
no table to these questions (``None``, an empty list), which never raise for it."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from bot.i18n import normalize_locale
from bot.ports.model import ChatKey, Status, TableInfo, UserRef
from bot.ports.screens import Seen
from bot.service import engine_work
from bot.service.change_records import HISTORY, stored_changes
from bot.service.changes import TableChanges
from bot.service.compute import BudgetExceeded, Compute, Lane, WorkerLost
from bot.service.errors import NoTable, NotFinished, NotYourTable, UnreadableTable
from bot.service.model import Table
from bot.service.screens import Screens
from engine.dealing import new_game
from engine.records import export_record, revealed_deals

__all__ = ["Queries"]

log = logging.getLogger(__name__)


class Queries:
    """Questions that change nothing (see the module docstring)."""

    def __init__(
        self,
        changes: TableChanges,
        screens: Screens,
        compute: Compute,
        budget: float,
        default_locale: str,
    ) -> None:
        self.changes = changes
        self.repo = changes.repo
        self.screens = screens
        self.compute = compute
        self.budget = budget
        self.default_locale = default_locale

    async def _readable(self, where: ChatKey | int) -> Table | None:
        """The chat's active table or the table with that id; ``None`` (reported) when
        it cannot be loaded."""
        try:
            return await self.changes.read(where)
        except UnreadableTable:
            return None

    async def table_info(self, key: ChatKey) -> TableInfo | None:
        """The chat's active table, or ``None``."""
        table = await self._readable(key)
        return None if table is None else table.info()

    async def table_by_id(self, table_id: int) -> TableInfo | None:
        """Table ``table_id`` while it is active (lobby or game), else ``None``."""
        table = await self._readable(table_id)
        if table is None or table.status not in (Status.LOBBY, Status.PLAYING):
            return None
        return table.info()

    async def known_table(self, table_id: int) -> TableInfo | None:
        """Table ``table_id`` whatever its status (lobby, game, ended), or ``None`` (also
        when it cannot be loaded: reported)."""
        table = await self._readable(table_id)
        return None if table is None else table.info()

    async def tables_of(self, user: UserRef) -> list[TableInfo]:
        """The active tables where ``user`` sits (private chats list them)."""
        return [t.info() for t in await self.changes.tables_of(user.key)]

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

    async def locale_of(self, user: UserRef) -> str:
        """The user's language: their choice, else the platform's, else the default."""
        chosen = await self.repo.user_locale(user.key)
        return normalize_locale(chosen or user.locale or self.default_locale)

    async def set_locale(self, user: UserRef, locale: str | None) -> None:
        """Store the user's language (``None``: follow the platform)."""
        await self.repo.set_user_locale(user.key, locale)

    async def legal_commands(self, key: ChatKey, user: UserRef) -> list[str]:
        """The game commands ``user`` may send now at the chat's table, as text of the
        command language (:func:`engine.commands.format_action` of
        :func:`engine.game.legal_actions` for the user's own seat, in the engine's order),
        for completions. Only the user's seat is asked, so the commands name no card the
        user may not see. Empty when there is no running game here, the user has no seat,
        or has nothing to do now, and when the engine found no answer within the budget
        (the list is a convenience; typed moves still work)."""
        table = await self._readable(key)
        if table is None or table.state is None or table.status is not Status.PLAYING:
            return []
        seat = table.seat_of(user.key)
        if seat is None:
            return []
        try:
            return await self.compute.call(
                engine_work.legal_commands,
                table.state,
                seat,
                budget=self.budget,
                lane=Lane.BACKGROUND,
            )
        except (BudgetExceeded, WorkerLost):
            log.info("legal moves of table %d seat %d: none in time", table.id, seat)
            return []

    async def screens_of(self, table_id: int, user: UserRef | None) -> Seen | None:
        """What table ``table_id`` shows ``user``: the public table and, when they sit
        there in a running game, their own seat's screen (in their language);
        ``user=None``: the public table only; ``None`` when the table is not active. The
        table screen carries the last stored changes (its ``history``), so a page that
        catches up with another worker's change can say what happened."""
        try:
            table = await self.changes.load(table_id)
        except (NoTable, UnreadableTable):
            return None
        locales = await self.screens.locales(table, [] if user is None else [user.key])
        viewer = locales.table(table) if user is None else locales.of(user.key, user.locale)
        seat = None if user is None else table.seat_of(user.key)
        own = None
        if (
            user is not None
            and seat is not None
            and table.state is not None
            and table.status is Status.PLAYING
        ):
            facts = (await self.screens.facts(table, [seat]))[seat]
            guided = user.key in await self.screens.guided(table)
            own = self.screens.seat_screen(
                table, seat, facts, locales.of(user.key, user.locale), guided
            )
        history = tuple(
            change.past for change in await stored_changes(self.repo.outbox, table.id, HISTORY)
        )
        return Seen(
            replace(self.screens.table_screen(table, locales), history=history), own, viewer
        )

    async def stats(self, user: UserRef, key: ChatKey | None = None) -> dict[str, Any]:
        """``{"games", "wins"}`` of the user over every chat, ``"ratings"``: their
        skill ratings of the newest season they played in (one per variant:
        ``{"variant", "season", "shown", "games", "last_change"}``, see
        :meth:`bot.service.repository.Repository.ratings_of`), and ``"chat_ratings"``:
        those earned in the current season of the chat ``key`` (empty without one),
        ``"chat_season"`` its number (``None`` without a chat)."""
        stats = dict(await self.repo.user_stats(user.key))
        ratings = await self.repo.ratings_of(user.key)
        newest = max((r["season"] for r in ratings), default=None)
        stats["ratings"] = [r for r in ratings if r["season"] == newest]
        stats["chat_ratings"] = []
        stats["chat_season"] = None
        if key is not None:
            season = await self.current_season(key)
            stats["chat_season"] = season
            stats["chat_ratings"] = await self.repo.chat_ratings_of(user.key, str(key), season)
        return stats

    async def first_game(self, user: UserRef, variant: str) -> bool:
        """True while the user has finished no game of ``variant`` (the stored results): the
        screens then guide them (:mod:`bot.render.guide`)."""
        return await self.screens.first_games([user.key], variant) == {user.key}

    async def leaderboard(self, key: ChatKey | None, limit: int = 10) -> list[dict[str, Any]]:
        """Top players by wins, in one chat or (``key=None``) overall."""
        return await self.repo.leaderboard(None if key is None else str(key), limit)

    async def rating_board(
        self, variant: str, season: int, min_games: int, key: ChatKey | None, limit: int = 10
    ) -> list[dict[str, Any]]:
        """The best skill ratings of ``variant`` in ``season`` (at least ``min_games`` rated
        games): earned in the games of chat ``key`` (``season`` a season of the chat), or
        everywhere (``None``; an operator's season); ``{"user", "name", "shown", "games"}``
        best first."""
        return await self.repo.rating_board(
            variant, season, min_games, limit, None if key is None else str(key)
        )

    async def current_season(self, key: ChatKey | None = None) -> int:
        """The rating season running now (by the service's clock): the operator's season
        of the global board (``key`` ``None``), else the season of the chat ``key``."""
        return await self.repo.current_season(
            self.changes.clock.now(), None if key is None else str(key)
        )

    async def start_chat_season(self, key: ChatKey, by: UserRef) -> int:
        """Start the next rating season of the chat ``key`` now, by ``by``; returns its
        number. Raises :class:`~bot.service.errors.StorageUnavailable` when the database
        cannot take it."""
        return await self.repo.start_chat_season(str(key), self.changes.clock.now(), by.key)

    async def latest_ended_of_user(self, user: UserRef) -> TableInfo | None:
        """The person's most recently ended game, wherever it was played, or ``None``."""
        try:
            table = await self.repo.latest_ended_of_user(user.key)
        except UnreadableTable as error:
            await self.changes.report(error)
            return None
        return None if table is None else table.info()

    async def latest_ended(self, key: ChatKey) -> TableInfo | None:
        """The chat's most recently ended game (for ``export``), or ``None``."""
        try:
            table = await self.repo.latest_ended(key)
        except UnreadableTable as error:
            await self.changes.report(error)
            return None
        return None if table is None else table.info()

    async def export(self, table_id: int) -> dict[str, Any]:
        """The JSON game record of an ended table (see docs/records.md); replaying it gives
        the stored state. Raises :class:`NoTable` for an unknown id or a table never started,
        :class:`NotFinished` while it runs (the record's seed would reveal every hand)."""
        table = await self.changes.get(table_id)
        if table is None or table.state is None:
            raise NoTable()
        if table.status in (Status.LOBBY, Status.PLAYING):
            raise NotFinished()
        return await self.game_record(table)

    async def game_record(self, table: Table) -> dict[str, Any]:
        """The JSON game record of ``table``'s game so far (see docs/records.md), also of
        a running game: for the service's own use (the coach), never shown while the game
        runs (its seed would reveal every hand)."""
        assert table.state is not None
        names = [s.name for s in table.seats]
        rules = table.state.rules
        first_dealer = new_game(rules, names, seed=table.seed).dealer
        lines = [
            f"{names[e.seat]}: {e.command}"
            for e in await self.repo.action_log(table.id)
            if e.seat is not None and e.command not in ("leave", "back")
        ]
        return export_record(
            rules,
            names,
            table.seed,
            first_dealer,
            lines,
            comment=f"table {table.id} in {table.key}",
            fair=revealed_deals(table.state),
        )
