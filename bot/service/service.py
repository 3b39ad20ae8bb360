"""The game service: every adapter's way into lobbies and games.

Flow of a change: take the table's lock, load it, let the engine (or a lobby
step) produce the new table, commit it in one transaction with a
compare-and-set on its version (and the action log, the update's idempotency
key, the results), and only then notify the platforms. A refused change raises
an :class:`engine.errors.EngineError` subclass and changes nothing.

Engine work (moves, AI decisions, hints, legal-move lists) runs in ``compute``
(:mod:`bot.service.compute`: worker processes with a budget per call), never on the
event loop; automatic steps are run by :class:`bot.service.scheduler.Scheduler`.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.service import engine_work, lobby
from bot.service.ai_levels import DEFAULT_LEVEL
from bot.service.clock import Clock, SystemClock
from bot.service.compute import BudgetExceeded, Compute, InlineCompute, Lane, WorkerLost
from bot.service.errors import (
    EngineTimeout,
    NoHintInTime,
    NoTable,
    NotEnoughPlayers,
    NotFinished,
    NotHost,
    NotPlaying,
    NotSeated,
    NotYourTable,
    TableBusy,
    TableExists,
    TooManyTables,
)
from bot.service.flow import FlowControl
from bot.service.model import (
    ChatKey,
    Seat,
    SeatKind,
    Status,
    Table,
    TableInfo,
    TableSettings,
    UserRef,
)
from bot.service.notifier import Notice, Notifier
from bot.service.repository import (
    ActiveTableExists,
    DuplicateUpdate,
    LogEntry,
    Repository,
    ResultRow,
    VersionConflict,
)
from bot.service.scheduler import Scheduler
from bot.service.scheduling import Due, due_kind, reschedule
from bot.service.table_rules import table_rules
from engine.actions import Action, NextDeal
from engine.cards import Card
from engine.commands import format_action, parse_action
from engine.dealing import new_game
from engine.errors import CardParseError, EngineError
from engine.events import DealStarted, Event
from engine.game import current_player
from engine.records import export_record
from engine.rules import OptionValue, RuleSet
from engine.search import Partition
from engine.state import GameState, Phase
from engine.variants import get_variant
from engine.views import PlayerView, PublicView, public_view, view_for

log = logging.getLogger(__name__)

#: How often a change is retried after losing a version race to another process.
RETRIES = 3

UPDATE_KEY_SECONDS = 2 * 86400
"""How long an update's idempotency key is kept: Telegram keeps an undelivered update for
24 hours and a Discord interaction expires after 15 minutes, so no platform delivers an
update again after this; older keys are pruned (they were a third of the database)."""

DEFAULT_BUDGET = 2.0
"""Seconds an engine call (a move, an AI decision, a hint, the legal-move list) may take
before it is given up (``ENGINE_BUDGET``): far above the engine's usual milliseconds, far
below what a person waiting for an answer tolerates."""

QUICK_BUDGET = 0.5
"""Seconds for :func:`engine.game.quick_action` when an AI decision ran out of budget."""

MAX_TABLES_PER_USER = 20
"""Active tables (lobbies and games) one person may sit at: bounds what one account can
make the bot store and run."""

MAX_TURN_ACTIONS = 64
"""Actions the autopilot may play in one expired turn (a turn is a handful of actions;
the bound keeps a confused engine from looping)."""

QUICK_AFTER_TIMEOUT = 8
"""After an AI decision of a table ran out of its budget, the table's next this many AI
actions are quick moves: one hard position must not keep the background workers (which
every AI table shares) busy for a budget per move."""

HINT_CACHE = 512
"""Hints kept per (table, version, seat): asking again for the same position is free."""


@dataclass
class Change:
    """What one step did: the new table, its log lines, events, notices, results, and
    which seats' private views changed (``None``: every human seat)."""

    table: Table
    log: list[tuple[int | None, str, str]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    results: list[ResultRow] = field(default_factory=list)
    hands: set[int] | None = None
    human: bool = True


Step = Callable[[Table], Awaitable[Change]]


@dataclass(frozen=True)
class HandFacts:
    """One seat's hand screen facts (:meth:`GameService.hand_facts`): the table ``info``,
    the seat's ``view``, its ``legal`` actions now, the ``suggestion`` (one of them, or
    ``None``), the ``melds`` of the hand when asked for, and whether the engine answered
    in time (``complete``)."""

    info: TableInfo
    view: PlayerView
    legal: tuple[Action, ...]
    suggestion: Action | None
    melds: Partition | None
    complete: bool = True


class GameService:
    """Lobbies and games of every chat, stored through a :class:`Repository`.

    ``notifiers`` maps a platform name (``telegram``, ``discord``, ``terminal``) to
    its :class:`Notifier`. ``clock`` is injectable so tests can move time;
    ``seed_source`` makes game seeds reproducible in tests. ``default_locale`` is the
    language of users and chats without a preference.
    """

    def __init__(self, repo: Repository, notifiers: Mapping[str, Notifier] | None = None,
                 clock: Clock | None = None, defaults: TableSettings | None = None,
                 seed_source: Callable[[], int] | None = None,
                 default_locale: str = "en", compute: Compute | None = None,
                 budget: float = DEFAULT_BUDGET) -> None:
        self.repo = repo
        #: Where engine work runs (:class:`bot.service.compute.WorkerPool` in the bot and
        #: the terminal; in-process by default, for tests).
        self.compute: Compute = compute or InlineCompute()
        self.budget = budget
        self.default_locale = default_locale
        self.notifiers: dict[str, Notifier] = dict(notifiers or {})
        self.clock = clock or SystemClock()
        self.defaults = defaults or TableSettings()
        self._seed = seed_source or (lambda: secrets.randbits(62))
        # A table's lock lives while someone holds or waits for it: no growth per chat.
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = \
            weakref.WeakValueDictionary()
        self._hints: OrderedDict[tuple[int, int, int], Partition | None] = OrderedDict()
        self._facts: OrderedDict[tuple[int, int, int],
                                 tuple[list[Action], Action | None, Partition | None]] = \
            OrderedDict()
        #: Table id -> AI actions still to play quickly after a decision over budget.
        self._quick: OrderedDict[int, int] = OrderedDict()
        self._scheduler: Scheduler | None = None
        #: Flow control the adapters apply to every update before it reaches the service.
        self.flow = FlowControl()

    # --- lobby ----------------------------------------------------------------------------

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

    # --- playing --------------------------------------------------------------------------

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
                log.info("hand of table %d seat %d: %s", table.id, seat, _why(error))
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

    # --- language, stats, records -----------------------------------------------------------

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

    def rules_of(self, table: Table) -> RuleSet:
        """The table's rule set (:func:`bot.service.table_rules.table_rules`)."""
        return table_rules(table.variant, table.preset, dict(table.options))

    # --- automatic steps ------------------------------------------------------------------

    @property
    def scheduler(self) -> Scheduler:
        """The due-work loop of this service (:class:`bot.service.scheduler.Scheduler`)."""
        if self._scheduler is None:
            self._scheduler = Scheduler(self)
        return self._scheduler

    async def tick(self) -> int:
        """Run every automatic step that is due now (AI moves, timer warnings and expiry,
        the next deal, idle ends); returns how many steps ran. A failing table is backed
        off and never stops the others (:meth:`Scheduler.run_due_now`)."""
        return await self.scheduler.run_due_now()

    async def run(self, stop: asyncio.Event, max_sleep: float = 30.0) -> None:
        """Run due steps whenever something is due until ``stop`` is set (the bot's
        background loop; see :class:`bot.service.scheduler.Scheduler`)."""
        await self.scheduler.run(stop, max_sleep)

    async def prune_update_keys(self, now: float | None = None) -> int:
        """Forget idempotency keys older than :data:`UPDATE_KEY_SECONDS` (``now``: Unix
        time, default the wall clock, as the keys are stamped); returns how many."""
        now = time.time() if now is None else now
        return await self.repo.prune_updates(now - UPDATE_KEY_SECONDS)

    def _poke(self, due_at: float | None) -> None:
        """Tell the scheduler that a table is now due at ``due_at``."""
        if self._scheduler is not None:
            self._scheduler.poke(due_at)

    async def run_due(self, table_id: int) -> bool:
        """Run the automatic step table ``table_id`` needs now, if any; True when one
        ran. Raises whatever the step raised (the scheduler backs the table off)."""
        table = await self.repo.get_table(table_id)
        if table is None:
            return False
        kind = due_kind(table, self.clock.now())
        if kind is Due.NOTHING:
            return False
        steps: dict[Due, Step] = {
            Due.AI_MOVE: self._ai_step,
            Due.NEXT_DEAL: self._next_deal_step,
            Due.WARN: self._warn_step,
            Due.EXPIRED: self._expired_step,
            Due.IDLE_END: self._idle_step,
            Due.LOBBY_EXPIRED: self._lobby_expired_step,
        }

        async def guarded(current: Table) -> Change:
            if due_kind(current, self.clock.now()) is not kind:
                raise _Stale()
            return await steps[kind](current)

        try:
            await self._change(table.key, guarded, None)
        except _Stale:
            return False
        if kind is Due.WARN:
            await self._warn(table)
        return True

    def _ai_seed(self, table: Table) -> int:
        return table.seed + 7919 * table.version

    async def _ai_step(self, table: Table) -> Change:
        """The AI plays one action for the automated seat to act (after other AI seats
        were asked for an out-of-turn call: :func:`engine.ai.interrupt.interrupt`; people
        had the call window first, so AI seats never race people for a call). When the
        decision runs out of its budget, :func:`engine.game.quick_action` plays, and also
        for the table's next :data:`QUICK_AFTER_TIMEOUT` AI actions."""
        assert table.state is not None
        seat = table.state.current
        callers = [s.ai if s.kind is SeatKind.AI else None for s in table.seats]
        quick = self._quick.pop(table.id, 0)
        try:
            if quick:
                raise BudgetExceeded("a recent decision of this table")
            action, state, events = await self.compute.call(
                engine_work.ai_move, table.state, seat, table.seats[seat].ai, callers,
                self._ai_seed(table), budget=self.budget, lane=Lane.BACKGROUND)
        except (BudgetExceeded, WorkerLost) as error:
            if not quick:
                log.warning("table %d: AI decision %s; playing quick moves for its next "
                            "%d AI actions", table.id, _why(error), QUICK_AFTER_TIMEOUT)
                quick = QUICK_AFTER_TIMEOUT + 1
            action, state, events = await self.compute.call(
                engine_work.quick_move, table.state, seat, budget=QUICK_BUDGET,
                lane=Lane.BACKGROUND)
            if quick > 1:
                self._quick[table.id] = quick - 1
                while len(self._quick) > HINT_CACHE:
                    self._quick.popitem(last=False)
        change = self._applied_change(table, action, state, events, "ai")
        change.human = False
        return change

    async def _next_deal_step(self, table: Table) -> Change:
        change = await self._apply_move(table, NextDeal(0), "timer", Lane.BACKGROUND)
        change.human = False
        return change

    async def _warn_step(self, table: Table) -> Change:
        return Change(replace(table, warned=True), human=False, hands=set())

    async def _expired_step(self, table: Table) -> Change:
        """The turn ran out: the AI plays the whole turn for the player (announced); after
        ``autopilot_after`` missed turns in a row it keeps the seat until ``back``. A
        decision over budget is replaced by :func:`engine.game.quick_action`."""
        assert table.state is not None
        seat = table.state.current
        seats = list(table.seats)
        missed = seats[seat].missed + 1
        auto = missed >= table.settings.autopilot_after
        seats[seat] = replace(seats[seat], missed=missed, autopilot=auto)
        name = seats[seat].name
        notices = [Notice("autopilot_turn", {"name": name})]
        if auto:
            notices.append(Notice("autopilot_on", {"name": name}))
        current = replace(table, seats=tuple(seats))
        total = Change(current, notices=notices, human=False, hands=set())
        deal = table.state.deal_number
        seed = self._ai_seed(table) + seat
        for _ in range(MAX_TURN_ACTIONS):
            state = current.state
            if state is None or current.status is not Status.PLAYING \
                    or current_player(state) != seat or state.deal_number != deal:
                break
            try:
                action = await self.compute.call(
                    engine_work.ai_decision, state, seat, seats[seat].ai, seed,
                    budget=self.budget, lane=Lane.BACKGROUND)
                step = await self._apply_move(current, action, "timer", Lane.BACKGROUND)
            except (BudgetExceeded, WorkerLost) as error:
                log.warning("table %d: autopilot decision %s; playing a quick move",
                            current.id, _why(error))
                action, after, events = await self.compute.call(
                    engine_work.quick_move, state, seat, budget=QUICK_BUDGET,
                    lane=Lane.BACKGROUND)
                step = self._applied_change(current, action, after, events, "timer")
            current = step.table
            total.log.extend(step.log)
            total.events.extend(step.events)
            total.results.extend(step.results)
            total.hands = None if step.hands is None or total.hands is None \
                else total.hands | step.hands
        total.table = current
        return total

    async def _idle_step(self, table: Table) -> Change:
        new = replace(table, status=Status.FINISHED, ended_reason="idle")
        return Change(new, log=[(None, "idle end", "timer")], human=False,
                      results=_results(new, winners=()),
                      notices=[Notice("game_idle_ended", {})])

    async def _lobby_expired_step(self, table: Table) -> Change:
        new = replace(table, status=Status.CANCELLED, ended_reason="expired")
        return Change(new, log=[(None, "expired", "timer")], human=False,
                      notices=[Notice("lobby_expired", {})])

    # --- the change pipeline ----------------------------------------------------------------

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
            log.warning("table %d: move %s %s", table.id, format_action(action), _why(error))
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
            change.results = _results(change.table, state.winners)
        return change

    @staticmethod
    def _changed_hands(before: GameState, after: GameState, seat: int) -> set[int] | None:
        if before.deal_number != after.deal_number or (after.phase is not before.phase \
                and after.phase in (Phase.HAND_OVER, Phase.GAME_OVER)):
            return None
        return {seat}

    async def _change(self, key: ChatKey, step: Step, update_key: str | None) -> TableInfo:
        """Load, step, commit with compare-and-set, then notify. Retries a lost version race.
        A duplicate update (same ``update_key``, e.g. a message delivered twice) changes
        nothing and returns the table it was applied to, even when both deliveries arrive
        at once or the first one ended the game."""
        if update_key is not None and (done := await self._applied(update_key)) is not None:
            return done
        for attempt in range(RETRIES):
            async with self._lock(key):
                if update_key is not None \
                        and (done := await self._applied(update_key)) is not None:
                    return done
                before = await self._load(key)
                try:
                    change = await step(before)
                except EngineError:
                    # another process may have applied this very update meanwhile
                    if update_key is not None \
                            and (done := await self._applied(update_key)) is not None:
                        return done
                    raise
                if change.table == before:  # a step that changes nothing stores nothing
                    return before.info()
                now = self.clock.now()
                table = replace(change.table, version=before.version + 1, updated_at=now,
                                last_human_at=now if change.human else before.last_human_at)
                change.table = reschedule(before, table, now)
                entries = [LogEntry(before.version + 1, seat, command, actor)
                           for seat, command, actor in change.log]
                try:
                    await self.repo.commit(change.table, before.version, entries, update_key,
                                           change.results)
                except DuplicateUpdate:
                    assert update_key is not None
                    return await self._applied(update_key) or before.info()
                except VersionConflict:
                    if attempt == RETRIES - 1:
                        raise TableBusy() from None
                    continue
            await self._notify(change)
            self._poke(change.table.due_at)
            return change.table.info()
        raise AssertionError("unreachable")

    async def _applied(self, update_key: str) -> TableInfo | None:
        """The table an update with ``update_key`` was already applied to, or ``None``."""
        table_id = await self.repo.update_table(update_key)
        if table_id is None:
            return None
        table = await self.repo.get_table(table_id)
        return None if table is None else table.info()

    async def _seated(self, key: ChatKey, user: UserRef) -> tuple[Table, int, GameState]:
        """The chat's running table, the user's seat and the game state. Raises
        :class:`NoTable`, :class:`NotSeated` or :class:`NotPlaying`."""
        table = await self._load(key)
        seat = table.seat_of(user.key)
        if seat is None:
            raise NotSeated()
        if table.state is None or table.status is not Status.PLAYING:
            raise NotPlaying()
        return table, seat, table.state

    async def _load(self, key: ChatKey) -> Table:
        table = await self.repo.active_table(key)
        if table is None:
            raise NoTable()
        return table

    def _lock(self, key: ChatKey) -> asyncio.Lock:
        name = str(key)
        lock = self._locks.get(name)
        if lock is None:
            lock = self._locks[name] = asyncio.Lock()
        return lock

    async def _check_table_count(self, user: UserRef) -> None:
        if len(await self.repo.tables_of_user(user.key)) >= MAX_TABLES_PER_USER:
            raise TooManyTables(limit=MAX_TABLES_PER_USER)

    # --- notifications ----------------------------------------------------------------------

    async def _notify(self, change: Change) -> None:
        notifier = self.notifiers.get(change.table.key.platform)
        if notifier is None:
            return
        table = change.table
        info = table.info()
        state = table.state
        view = None if state is None else public_view(state)
        await _safely(notifier.table_changed(info, view, change.events, change.notices))
        if state is None:
            return
        for seat, seat_info in enumerate(table.seats):
            owner = seat_info.user
            if owner is not None and (change.hands is None or seat in change.hands):
                await _safely(notifier.hand_changed(info, seat, owner, view_for(state, seat)))
        turn = current_player(state) if table.status is Status.PLAYING else None
        if turn is not None and change.events and not table.seats[turn].automated:
            turn_user = table.seats[turn].user
            if turn_user is not None:
                await _safely(notifier.turn_started(info, turn, turn_user))

    async def _warn(self, before: Table) -> None:
        table = await self.repo.get_table(before.id)
        notifier = self.notifiers.get(before.key.platform)
        if table is None or notifier is None or table.state is None or table.deadline is None:
            return
        seat = table.state.current
        user_key = table.seats[seat].user
        if user_key is not None:
            await _safely(notifier.timer_warning(table.info(), seat, user_key,
                                                 table.deadline - self.clock.now()))


def _why(error: BaseException) -> str:
    return "ran out of its budget" if isinstance(error, BudgetExceeded) \
        else f"lost its worker ({error})"


class _Stale(Exception):
    """A due step that another worker already handled."""


def _results(table: Table, winners: Sequence[int]) -> list[ResultRow]:
    assert table.state is not None
    return [ResultRow(seat, s.user, s.name, table.state.totals[seat], seat in winners)
            for seat, s in enumerate(table.seats)]


async def _safely(call: Awaitable[None]) -> None:
    """A notification that fails (platform down) never undoes a committed move."""
    try:
        await call
    except Exception:
        log.exception("notification failed")
