"""The game service, put together (:class:`GameService`): every front end's way into
lobbies and games is its :attr:`~GameService.entry` (:class:`bot.service.entry.EntryPoint`,
the :class:`bot.ports.entry.Entry` protocol); the scheduler runs what tables do on their
own.

Parts, each with its dependencies given to its constructor (no part knows the service):

- :class:`~bot.service.changes.TableChanges`: load, step, commit with compare-and-set;
- :class:`~bot.service.screens.Screens`: seat facts and the screens of a change;
- :class:`~bot.service.publish.Publisher`: the notifiers of each platform;
- :class:`~bot.service.delivery.Delivery`: each change shown in its chat by the chat's
  owner among several workers, from the change rows every commit writes;
- :class:`~bot.service.faults.TableFaults`: tables that cannot be loaded, reported once;
- :class:`~bot.service.lobby_steps.LobbySteps`, :class:`~bot.service.play.PlaySteps`:
  the steps people take; :class:`~bot.service.automatic.AutomaticSteps`: the steps
  tables take on their own (AI moves, timers, next deals), run by
  :class:`~bot.service.scheduler.Scheduler`;
- :class:`~bot.service.queries.Queries`: questions that change nothing;
- :class:`~bot.service.verbs.Verbs` and :class:`~bot.service.entry.EntryPoint`: one
  intent in, one outcome out.

Engine work (moves, AI decisions, screen facts, legal-move lists) runs in ``compute``
(:mod:`bot.service.compute`: worker processes with a budget per call), never on the event
loop. docs/architecture.md draws the flow of a press.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Mapping

from bot.http import HttpServer
from bot.ports.host import Host
from bot.ports.model import TableSettings
from bot.ports.notifier import Notifier
from bot.service.automatic import AutomaticSteps
from bot.service.changes import TableChanges
from bot.service.clock import Clock, SystemClock
from bot.service.coaching import Coaching
from bot.service.compute import Compute, InlineCompute
from bot.service.delivery import Delivery
from bot.service.entry import EntryPoint
from bot.service.faults import TableFaults
from bot.service.flow import FlowControl
from bot.service.limits import DEFAULT_BUDGET
from bot.service.lobby_steps import LobbySteps
from bot.service.play import PlaySteps
from bot.service.publish import Publisher
from bot.service.queries import Queries
from bot.service.repository import Repository
from bot.service.scheduler import Scheduler
from bot.service.screens import Screens
from bot.service.verbs import Verbs

__all__ = ["GameService"]


class GameService:
    """Lobbies and games of every chat, stored through a :class:`Repository`.

    ``notifiers`` maps a platform name (``telegram``, ``discord``, ``terminal``) to its
    :class:`Notifier`. ``clock`` is injectable so tests can move time; ``seed_source``
    makes game seeds reproducible in tests. ``default_locale`` is the language of users
    and chats without a preference. ``compute``: where engine work runs (in-process by
    default, for tests; :class:`bot.service.compute.WorkerPool` in the bot), ``budget``:
    seconds per engine call, ``worker_id``: this process's name in leases on due work
    (``WORKER_ID``; random by default), ``guide``: guide people through their first game
    of a variant (:mod:`bot.render.guide`; ``FIRST_GAME_GUIDE=off`` turns it off),
    ``coach``: the coach's notes after each deal for the people who want them
    (:mod:`bot.service.coaching`; ``COACH=off`` turns it off; off by default here, for
    tests that do not test it).
    """

    def __init__(
        self,
        repo: Repository,
        notifiers: Mapping[str, Notifier] | None = None,
        clock: Clock | None = None,
        defaults: TableSettings | None = None,
        seed_source: Callable[[], int] | None = None,
        default_locale: str = "en",
        compute: Compute | None = None,
        budget: float = DEFAULT_BUDGET,
        worker_id: str | None = None,
        guide: bool = True,
        coach: bool = False,
    ) -> None:
        self.repo = repo
        self.clock = clock or SystemClock()
        compute = compute or InlineCompute()
        self.worker_id = worker_id or secrets.token_hex(6)
        self.publisher = Publisher(notifiers)
        self.faults = TableFaults(repo, self.publisher, default_locale)
        self.changes = TableChanges(
            repo, self.clock, lambda due: self.scheduler.poke(due), self.faults
        )
        self.screens = Screens(repo, compute, budget, default_locale, guide)
        self.queries = Queries(self.changes, self.screens, compute, budget, default_locale)
        self.coaching = Coaching(repo, self.queries, self.screens, self.publisher, compute, coach)
        self.delivery = Delivery(
            repo.outbox,
            self.publisher,
            self.changes,
            self.screens,
            self.clock,
            self.worker_id,
            self.coaching,
        )
        self.lobby = LobbySteps(
            self.changes, compute, budget, defaults or TableSettings(), seed_source
        )
        self.play = PlaySteps(self.changes, self.screens, compute, budget)
        self.automatic = AutomaticSteps(
            self.changes, self.screens, self.delivery, compute, budget, self.worker_id
        )
        self.scheduler = Scheduler(self.automatic, reporter=self.faults)
        self.entry = EntryPoint(
            Verbs(self.changes, self.screens, self.lobby, self.play, self.queries, default_locale),
            self.queries,
            self.delivery,
            FlowControl(),
            repo,
        )

    def host(self, http: HttpServer | None = None) -> Host:
        """What a front end is handed when it starts: the entry point, the chat adapters'
        message rows, the process's HTTP server and the roles among workers (the
        polling role; :class:`bot.ports.host.Host`) and the service's clock."""
        return Host(
            self.entry,
            self.repo.telegram_messages,
            self.repo.discord_messages,
            http,
            self.repo.take_role,
            now=self.clock.now,
        )

    @property
    def compute(self) -> Compute:
        """Where engine work runs."""
        return self.screens.compute

    @compute.setter
    def compute(self, compute: Compute) -> None:
        """Run engine work elsewhere from now on (every part that calls the engine)."""
        for part in (
            self.screens,
            self.lobby,
            self.play,
            self.queries,
            self.automatic,
            self.coaching,
        ):
            part.compute = compute

    def register(self, platform: str, notifier: Notifier, every_platform: bool = False) -> None:
        """Show changes through ``notifier``: the tables of ``platform``'s chats, or with
        ``every_platform`` those of every platform (the web table)."""
        if every_platform:
            self.publisher.everywhere.append(notifier)
        else:
            self.publisher.notifiers[platform] = notifier

    @property
    def notifiers(self) -> dict[str, Notifier]:
        """Platform name -> its notifier (adapters register theirs on start)."""
        return self.publisher.notifiers

    @property
    def flow(self) -> FlowControl:
        """Flow control applied to every intent before it is carried out."""
        return self.entry.flow

    @flow.setter
    def flow(self, flow: FlowControl) -> None:
        self.entry.flow = flow

    async def tick(self) -> int:
        """Run every automatic step that is due now (AI moves, timer warnings and expiry,
        the next deal, idle ends); returns how many steps ran. A failing table is backed
        off and never stops the others (:meth:`Scheduler.run_due_now`)."""
        return await self.scheduler.run_due_now()

    async def run(self, stop: asyncio.Event, max_sleep: float = 30.0) -> None:
        """Run due steps whenever something is due until ``stop`` is set (the bot's
        background loop; see :class:`bot.service.scheduler.Scheduler`), and keep showing
        changes in the chats this worker owns (:meth:`Delivery.run`)."""
        showing = asyncio.create_task(self.delivery.run(stop))
        try:
            await self.scheduler.run(stop, max_sleep)
        finally:
            stop.set()
            await showing
            await self.coaching.close()
