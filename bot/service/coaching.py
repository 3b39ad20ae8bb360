"""The coach after each deal (:class:`Coaching`): for each person at the table who wants it,
the moves of the deal just ended where the expert's alternative was clearly better
(:mod:`engine.ai.coach`), sent to them privately through their front end's notifier
(:meth:`bot.ports.notifier.Notifier.coach`).

Who gets it: a person who said ``coach on``, and, while they said nothing, a person in
their first :data:`FIRST_GAMES` games of the variant (issue: "on by default for a
person's first three games"); ``coach off`` stops it. The review runs in the engine
worker pool on the background lane (:class:`bot.service.compute.Lane`: it waits while
the workers are needed for moves), after the change that ended the deal was shown, in a
task of its own: the next deal's first move never waits for it, and a review that fails
or runs out of its budget is logged and dropped (it is advice, not a move).

Exactly once per deal across workers: the worker that shows a chat's change
(:class:`bot.service.delivery.Delivery`) starts the coach for the deals that change
ended.
"""

from __future__ import annotations

import asyncio
import logging

from bot.i18n import use_locale
from bot.ports.model import SeatKind
from bot.ports.screens import CoachAdvice
from bot.render.coach import deal_review_text
from bot.service import engine_work
from bot.service.compute import BudgetExceeded, Compute, Lane, WorkerLost
from bot.service.publish import Publisher
from bot.service.queries import Queries
from bot.service.repository import Repository
from bot.service.screens import Screens
from engine.errors import EngineError

__all__ = ["COACH_BUDGET", "FIRST_GAMES", "Coaching"]

log = logging.getLogger(__name__)

FIRST_GAMES = 3
"""Finished games of a variant during which a person who said nothing is coached."""
COACH_BUDGET = 20.0
"""Seconds one deal's review of one seat may take in a worker (the review's own budget is
a count of playouts: 2 s at the 99th percentile, docs/ai.md)."""
SEED = 0
"""The coach's seed: the same deal gets the same notes."""


class Coaching:
    """Starts the coach's reviews (see the module docstring). ``enabled``: False in a
    service that coaches nobody (a setting; tests that do not test the coach)."""

    def __init__(
        self,
        repo: Repository,
        queries: Queries,
        screens: Screens,
        publisher: Publisher,
        compute: Compute,
        enabled: bool = True,
    ) -> None:
        self.repo = repo
        self.queries = queries
        self.screens = screens
        self.publisher = publisher
        self.compute = compute
        self.enabled = enabled
        self._tasks: set[asyncio.Task[None]] = set()

    def deals_ended(self, table_id: int, deals: tuple[int, ...]) -> None:
        """Deals ``deals`` (1-based) of table ``table_id`` ended in a change this worker
        showed: review them for the people who want it, in a task (never blocks)."""
        if not self.enabled or not deals:
            return
        task = asyncio.get_running_loop().create_task(self._coach(table_id, deals))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settled(self) -> None:
        """Wait for the reviews under way (the terminal before it exits, tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        """Stop the reviews under way (a stopping worker: advice, not a move, so nothing
        is lost that a player was promised)."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _coach(self, table_id: int, deals: tuple[int, ...]) -> None:
        try:
            for deal in deals:
                await self._coach_deal(table_id, deal)
        except (BudgetExceeded, WorkerLost, EngineError) as error:
            log.warning("table %d: the coach gave up: %s", table_id, type(error).__name__)
        except Exception:  # one table's coach must not reach another table
            log.exception("table %d: the coach failed", table_id)

    async def _coach_deal(self, table_id: int, deal: int) -> None:
        table = await self.queries.changes.get(table_id)
        if table is None or table.state is None:
            return
        people = {
            seat: s.user
            for seat, s in enumerate(table.seats)
            if s.kind is SeatKind.HUMAN and s.user is not None
        }
        if not people:
            return
        chosen = await self.repo.coach_choices(people.values())
        games = await self.repo.finished_games(people.values(), table.variant)
        wanted = {
            seat: user
            for seat, user in people.items()
            if chosen.get(user, games.get(user, 0) < FIRST_GAMES)
        }
        if not wanted:
            return
        record = await self.queries.game_record(table)
        locales = await self.screens.locales(table, wanted.values())
        names = [s.name for s in table.seats]
        for seat, user in wanted.items():
            review = await self.compute.call(
                engine_work.coach_review,
                record,
                seat,
                deal,
                SEED,
                budget=COACH_BUDGET,
                lane=Lane.BACKGROUND,
            )
            locale = locales.of(user, None)
            with use_locale(locale):
                text = deal_review_text(review, names)
            advice = CoachAdvice(table.info(), user, seat, deal, locale, text)
            await self.publisher.coach(advice)
