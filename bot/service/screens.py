"""The screens of a table, built once per change (:class:`Screens`): the public table in
the table's language and every person's seat screen in that person's language, from the
engine's facts (legal actions, suggestion, best melds) of each seat.

Facts come from the step's own worker call when it computed them (a move, an AI move, a
deal: :mod:`bot.service.engine_work` returns them with the new state), else from a
memory per (table, game state version, seat) — a lobby step or a change of the seats
leaves the game state as it was, and its facts with it — else from one worker call for
all missing seats. Languages of every person involved come from one query
(:class:`Locales`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from cachetools import LRUCache

from bot.i18n import normalize_locale
from bot.ports.model import Status
from bot.ports.screens import Notice, SeatFacts, SeatScreen, TableScreen, TableUpdate
from bot.service import engine_work
from bot.service.change_records import turn_began
from bot.service.changes import Committed
from bot.service.compute import BudgetExceeded, Compute, Lane, WorkerLost
from bot.service.limits import FACTS_CACHE
from bot.service.model import Table
from bot.service.repository import Repository
from engine.events import Event
from engine.views import public_view, view_for

__all__ = ["NEWCOMER_SECONDS", "Locales", "Screens", "people"]

log = logging.getLogger(__name__)

NEWCOMER_SECONDS = 600.0
"""How long this process trusts that a person has finished no game of a variant before it
looks at the stored results again (another worker may have stored one meanwhile)."""

MEMORY = 50_000
"""Entries of each first-game memory."""


def people(table: Table) -> list[int]:
    """The seats of people (a user, whether the AI plays for them now or not)."""
    return [seat for seat, s in enumerate(table.seats) if s.user is not None]


@dataclass(frozen=True)
class Locales:
    """The languages of the people one update concerns, read in one query: per user key
    (the language chosen with ``lang``, the app's language last seen); ``default``: the
    bot's."""

    known: Mapping[str, tuple[str | None, str | None]]
    default: str

    def of(self, user_key: str, app_locale: str | None = None) -> str:
        """A person's language: their choice, else ``app_locale`` (their app's, from the
        update at hand), else their app's as last seen, else the bot's default."""
        chosen, seen = self.known.get(user_key, (None, None))
        return normalize_locale(chosen or app_locale or seen or self.default)

    def table(self, table: Table) -> str:
        """The language of a table's public messages: its setting, else the language the
        host chose, else the bot's default."""
        if table.settings.locale:
            return normalize_locale(table.settings.locale)
        chosen, _seen = self.known.get(table.host, (None, None))
        return normalize_locale(chosen or self.default)


class Screens:
    """Builds seat facts and :class:`TableUpdate` records (see the module docstring)."""

    def __init__(
        self,
        repo: Repository,
        compute: Compute,
        budget: float,
        default_locale: str,
        guide: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.repo = repo
        self.compute = compute
        self.budget = budget
        self.default_locale = default_locale
        #: Whether first games are guided (:mod:`bot.render.guide`; off with a setting).
        self.guide = guide
        self._clock = clock
        self._facts: LRUCache[tuple[int, int, int], SeatFacts] = LRUCache(FACTS_CACHE)
        #: (user, variant) -> when they were last seen without a finished game of it.
        self._newcomers: LRUCache[tuple[str, str], float] = LRUCache(MEMORY)
        #: (user, variant) of people with a finished game of it (they stay so).
        self._veterans: LRUCache[tuple[str, str], None] = LRUCache(MEMORY)

    async def first_games(self, user_keys: Collection[str], variant: str) -> set[str]:
        """Those of ``user_keys`` who have finished no game of ``variant`` (their stored
        results; one query for the ones this process has not looked up within
        :data:`NEWCOMER_SECONDS`, and none for people known to have finished one)."""
        now = self._clock()
        found: set[str] = set()
        ask = []
        for key in set(user_keys):
            if (key, variant) in self._veterans:
                continue
            seen = self._newcomers.get((key, variant))
            if seen is not None and now - seen < NEWCOMER_SECONDS:
                found.add(key)
            else:
                ask.append(key)
        if ask:
            for key, games in (await self.repo.finished_games(ask, variant)).items():
                if games:
                    self._veterans[(key, variant)] = None
                    self._newcomers.pop((key, variant), None)
                else:
                    self._newcomers[(key, variant)] = now
                    found.add(key)
        return found

    async def guided(self, table: Table) -> set[str]:
        """The people of ``table`` whose screens guide them (their first game of its
        variant), none when the guide is off."""
        if not self.guide or table.state is None:
            return set()
        return await self.first_games(
            [s.user for s in table.seats if s.user is not None], table.variant
        )

    def finished(self, table: Table) -> None:
        """``table``'s game was just stored as finished: its people are no longer new to
        its variant."""
        for seat in table.seats:
            if seat.user is not None:
                self._newcomers.pop((seat.user, table.variant), None)
                self._veterans[(seat.user, table.variant)] = None

    async def locales(self, table: Table | None, user_keys: Collection[str] = ()) -> Locales:
        """The languages of ``table``'s people and host and of ``user_keys``, one query."""
        keys = set(user_keys)
        if table is not None:
            keys |= {s.user for s in table.seats if s.user is not None} | {table.host}
        return Locales(await self.repo.user_locales(keys), self.default_locale)

    def remember(self, table: Table, facts: Mapping[int, SeatFacts]) -> None:
        """Keep the facts of ``table``'s current game state (seat -> facts)."""
        if table.state is None:
            return
        for seat, found in facts.items():
            # facts not found in time are remembered too: asking again for the same
            # position would only keep a worker busy for another budget
            self._facts[(table.id, table.state.version, seat)] = found

    async def facts(
        self, table: Table, seats: Sequence[int], given: Mapping[int, SeatFacts] | None = None
    ) -> dict[int, SeatFacts]:
        """The facts of ``seats`` in ``table``'s running game: ``given`` (the step's own),
        remembered ones, and one worker call (background lane, within the budget) for the
        rest; a seat whose facts were not found in time gets incomplete facts (nothing
        offered; typed commands still work)."""
        state = table.state
        if state is None or table.status is not Status.PLAYING:
            return {}
        found: dict[int, SeatFacts] = {}
        missing = []
        for seat in seats:
            known = (given or {}).get(seat) or self._facts.get((table.id, state.version, seat))
            if known is None:
                missing.append(seat)
            else:
                found[seat] = known
        if missing:
            try:
                computed = await self.compute.call(
                    engine_work.facts_for,
                    state,
                    missing,
                    table.seed,
                    budget=self.budget,
                    lane=Lane.BACKGROUND,
                )
            except (BudgetExceeded, WorkerLost) as error:
                log.info("table %d: seat facts not in time (%s)", table.id, error)
                computed = {seat: SeatFacts(complete=False) for seat in missing}
            found.update(computed)
        self.remember(table, found)
        return found

    def seat_screen(
        self, table: Table, seat: int, facts: SeatFacts, locale: str, guided: bool = False
    ) -> SeatScreen:
        """Seat ``seat``'s screen (its own view only)."""
        assert table.state is not None and table.seats[seat].user is not None
        return SeatScreen(
            table.info(),
            seat,
            table.seats[seat].user or "",
            view_for(table.state, seat),
            facts,
            locale,
            guided,
        )

    def table_screen(
        self,
        table: Table,
        locales: Locales,
        events: Sequence[Event] = (),
        notices: Sequence[Notice] = (),
    ) -> TableScreen:
        """The public table of ``table`` with the events and notices of a change."""
        view = None if table.state is None else public_view(table.state)
        return TableScreen(table.info(), view, tuple(events), tuple(notices), locales.table(table))

    async def update(
        self, committed: Committed, locales: Locales, actor: str | None = None
    ) -> TableUpdate:
        """What everyone is shown after a committed change: the table screen and every
        person's seat screen (facts of the step's worker call, remembered or computed
        once), whose hands changed, whose turn began, and the ``actor`` who made it
        (drawn first)."""
        change = committed.change
        table = change.table
        if change.results:
            self.finished(table)
        seats = await self._seats(table, locales, change.facts)
        hands = None if change.hands is None else frozenset(change.hands)
        return TableUpdate(
            self.table_screen(table, locales, change.events, change.notices),
            seats,
            hands,
            turn_began(committed.before, table),
            actor,
        )

    async def redraw(
        self,
        table: Table,
        hands: frozenset[int] | None,
        turn: int | None,
        turn_version: int | None = None,
    ) -> TableUpdate:
        """``table``'s screens as stored now, for changes this worker did not publish when
        they were committed (another worker's, or a worker's that died before showing
        them): ``hands`` changed, ``turn`` began at version ``turn_version``."""
        locales = await self.locales(table)
        seats = await self._seats(table, locales, {})
        return TableUpdate(
            self.table_screen(table, locales), seats, hands, turn, None, turn_version
        )

    async def _seats(
        self, table: Table, locales: Locales, given: Mapping[int, SeatFacts]
    ) -> tuple[SeatScreen, ...]:
        """Every person's seat screen of ``table`` (none in the lobby)."""
        if table.state is not None and table.status is Status.PLAYING:
            facts = await self.facts(table, people(table), given)
            guided = await self.guided(table)
            return tuple(
                self.seat_screen(
                    table,
                    seat,
                    facts[seat],
                    locales.of(table.seats[seat].user or ""),
                    table.seats[seat].user in guided,
                )
                for seat in people(table)
            )
        if table.state is not None:  # the game just ended: the final views, no moves
            return tuple(
                self.seat_screen(table, seat, SeatFacts(), locales.of(table.seats[seat].user or ""))
                for seat in people(table)
            )
        return ()
