"""Showing committed changes in their chats with one or several workers (:class:`Delivery`).

Every commit leaves a change row (:mod:`bot.service.change_records`). A change is shown
in its chat (the table message, pings, the other people's hand messages) by the chat's
*owner* only, a lease in the database (:mod:`bot.service.outbox`), so one worker keeps a
chat's message state and its rate budget, and a message is never edited back to an older
version by a slower worker:

- the worker that committed a change and owns the chat (or takes it, free) shows it at
  once, with the recent lines of the last stored changes (:attr:`TableScreen.history`);
- a change another worker committed reaches the owner through the change feed
  (:meth:`changed`, PostgreSQL ``NOTIFY``) or, when an announcement was lost, through the
  sweep (:meth:`sweep`, every :data:`SWEEP_SECONDS`): it loads the table and shows it;
- a worker that dies leaves leases that run out: the sweep of another worker takes the
  chat and draws its table again (so the message ends at the stored version), and shows
  the changes nobody showed;
- a worker that stops gives its chats up (:meth:`release`).

Front ends that serve every platform (the web table) are told about every change by the
worker that committed it, owner or not. A worker without the front end of a chat's
platform (a worker run without that token) never owns that chat.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Coroutine, Iterable
from dataclasses import replace
from typing import Any

from cachetools import LRUCache

from bot.ports.feed import TableChanged
from bot.ports.model import ChatKey
from bot.ports.screens import TableUpdate, TimerWarning
from bot.service.change_records import HISTORY, StoredChange, stored_changes
from bot.service.changes import TableChanges
from bot.service.clock import Clock
from bot.service.coaching import Coaching
from bot.service.errors import StorageUnavailable, UnreadableTable
from bot.service.model import Table
from bot.service.outbox import OutboxStore
from bot.service.publish import Publisher
from bot.service.screens import Screens
from engine.events import HandEnded
from engine.game import current_player

__all__ = ["CHAT_LEASE_SECONDS", "HISTORY", "KEEP", "SWEEP_SECONDS", "Delivery"]

log = logging.getLogger(__name__)

CHAT_LEASE_SECONDS = 10.0
"""How long a chat stays with its owner without a renewal: a dead worker's chats are
shown by another one after at most this long (plus a sweep)."""
SWEEP_SECONDS = 2.0
"""How often leases are renewed and unshown or orphaned changes looked for."""
GRACE_SECONDS = 3.0
"""A change not shown this long after its commit is taken up by the sweep (its worker
died, or the owner's announcement was lost)."""
ABANDONED_SECONDS = 3600.0
"""A change nobody showed for this long is left alone by the sweeps (no worker runs its
platform's front end: the bot runs without that token)."""
KEEP = 32
"""Shown change rows kept per table (older ones are deleted)."""


class Delivery:
    """Shows changes in their chats (see the module docstring). ``worker_id``: this
    worker's name in the chat leases."""

    def __init__(
        self,
        outbox: OutboxStore,
        publisher: Publisher,
        changes: TableChanges,
        screens: Screens,
        clock: Clock,
        worker_id: str,
        coaching: Coaching | None = None,
    ) -> None:
        self.outbox = outbox
        self.coaching = coaching
        self.publisher = publisher
        self.changes = changes
        self.screens = screens
        self.clock = clock
        self.worker_id = worker_id
        #: chat key -> until when this worker's lease runs (as last written).
        self._owned: dict[str, float] = {}
        #: table id -> the newest version this worker showed (bounded).
        self._shown: LRUCache[int, int] = LRUCache(10_000)
        #: table id -> its chat key, for the feed's announcements (bounded).
        self._chat_of: LRUCache[int, str] = LRUCache(10_000)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._pending: set[int] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        changes.lost = self._look_again

    # --- changes this worker committed ------------------------------------------------------

    async def publish(self, update: TableUpdate) -> None:
        """Show a change this worker committed: in its chat when this worker owns the chat
        (else its owner shows it), to the front ends of every platform in any case."""
        info = update.info
        chat = str(info.key)
        self._note_chat(info.id, chat)
        if not self.publisher.shows(info.key.platform) or not await self._own(chat):
            await self.publisher.publish(update, chats=False)
            return
        async with self._lock(info.id):
            if self._shown.get(info.id, -1) >= info.version:
                await self.publisher.publish(update, chats=False)
                return  # a newer change was shown meanwhile, its lines included
            rows = await self._rows(info.id)
            await self._show(update, rows)

    async def warn(self, warning: TimerWarning) -> None:
        """A running-out turn timer, said by the worker whose due step found it (a
        warning is not a change: it has no row)."""
        await self.publisher.warn(warning)

    # --- changes other workers committed ----------------------------------------------------

    def changed(self, change: TableChanged) -> None:
        """The change feed's announcement: when this worker owns the table's chat, has
        not shown that version and did not commit it itself, load and show it (never
        blocks)."""
        if change.table_id == 0:  # the feed reconnected: the sweep catches up
            return
        if self._shown.get(change.table_id, -1) >= change.version or self.changes.committed_here(
            change.table_id, change.version
        ):
            return
        self._look_again(change.table_id)

    def _look_again(self, table_id: int) -> None:
        """Load and show the changes of ``table_id`` nobody showed, when this worker owns
        its chat (also told by :class:`TableChanges` when a commit of this worker lost: the
        change that won was announced while this worker expected to show its own)."""
        chat = self._chat_of.get(table_id)
        if chat is None or chat not in self._owned or table_id in self._pending:
            return
        self._pending.add(table_id)
        self._spawn(self._later(table_id))

    async def _later(self, table_id: int) -> None:
        # announcements that come before this task starts are shown by it
        self._pending.discard(table_id)
        await self.catch_up(table_id)

    async def catch_up(self, table_id: int, redraw: bool = False) -> bool:
        """Show the changes of ``table_id`` nobody showed yet (``redraw``: draw the table
        again even when every change was shown: its chat was taken from a dead worker).
        Returns True when something was shown."""
        async with self._lock(table_id):
            found = await self._unshown(table_id, redraw)
            if found is None:
                return False
            table, rows, pending = found
            if not redraw and self._shown.get(table_id, -1) >= table.version:
                await self.outbox.mark_shown(table_id, table.version, KEEP)
                return False
            # a chat taken from a dead worker: its last pings and hand messages may not
            # have gone out although marked shown (the pings' keys tell)
            current = None if table.state is None else current_player(table.state)
            turn, turn_version = _open_turn(rows if redraw else pending, current)
            update = await self.screens.redraw(
                table, _changed_hands(pending, redraw), turn, turn_version
            )
            self._note_chat(table_id, str(table.key))
            await self._show(update, rows)
            return True

    async def _unshown(
        self, table_id: int, redraw: bool
    ) -> tuple[Table, list[StoredChange], list[StoredChange]] | None:
        """The table at its stored version, its change rows up to that version and those
        of them not shown yet; ``None`` when nothing is to be shown (every row shown and
        no ``redraw``) or the table cannot be loaded (the loader reports it; its chat is
        told once)."""
        rows = await self._rows(table_id)
        if not redraw and all(row.shown for row in rows):
            return None
        table = await self._loaded(table_id)
        if table is None:
            return None
        rows = await self._rows_upto(table, rows)
        return table, rows, [row for row in rows if not row.shown]

    async def _loaded(self, table_id: int) -> Table | None:
        """Table ``table_id`` at its stored version; ``None`` when there is none or it
        cannot be loaded (the loader reports it)."""
        try:
            return await self.changes.get(table_id)
        except UnreadableTable:
            return None

    async def _rows_upto(self, table: Table, rows: list[StoredChange]) -> list[StoredChange]:
        """The change ``rows`` of ``table`` up to its version (read again when a change was
        committed after they were read)."""
        if rows and rows[-1].version < table.version:
            # committed between the two reads: its row (and the turn it may begin) is
            # shown now, as the table drawn is at its version
            rows = await self._rows(table.id)
        return [row for row in rows if row.version <= table.version]

    # --- the sweep --------------------------------------------------------------------------

    async def sweep(self) -> int:
        """Renew this worker's leases, take the chats of dead workers (drawing their
        tables again) and show changes nobody showed within :data:`GRACE_SECONDS`.
        Returns how many tables were drawn."""
        now = self.clock.now()
        if self._owned:
            held = await self.outbox.renew_chats(self.worker_id, now + CHAT_LEASE_SECONDS)
            if held < len(self._owned):  # a lease was lost (taken after running out)
                self._owned.clear()
            else:
                for chat in self._owned:
                    self._owned[chat] = now + CHAT_LEASE_SECONDS
        drawn = 0
        for chat in await self.outbox.lapsed_chats(now):
            if not self._shows(chat):
                continue
            owned, _ = await self.outbox.take_chat(chat, self.worker_id, now, CHAT_LEASE_SECONDS)
            if owned:
                self._owned[chat] = now + CHAT_LEASE_SECONDS
                drawn += await self._redraw_chat(chat)
        for table_id, chat in await self.outbox.unshown_tables(
            now - GRACE_SECONDS, now - ABANDONED_SECONDS
        ):
            self._note_chat(table_id, chat)
            if self._shows(chat) and await self._own(chat):
                drawn += await self.catch_up(table_id)
        return drawn

    async def _redraw_chat(self, chat: str) -> int:
        """Draw the chat's table again (the active one, else the one that ended last: its
        final score sheet may not have been drawn by the worker that died)."""
        try:
            key = ChatKey.parse(chat)
            table = await self.changes.read(key) or await self.changes.repo.latest_ended(key)
        except (ValueError, UnreadableTable):
            return 0
        if table is None:
            return 0
        log.info("chat %s: taken from a worker that stopped answering; drawn again", chat)
        return int(await self.catch_up(table.id, redraw=True))

    async def run(self, stop: asyncio.Event) -> None:
        """Sweep every :data:`SWEEP_SECONDS` until ``stop`` is set, then give the chats
        up. A database that cannot serve is logged and tried again at the next sweep."""
        try:
            while not stop.is_set():
                try:
                    await self.sweep()
                except StorageUnavailable as error:
                    log.warning("showing changes: %s", error)
                except Exception:  # one table's failure must not end the sweeps
                    log.exception("showing changes failed")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), SWEEP_SECONDS)
        finally:
            await self.release()

    async def release(self) -> None:
        """Give up every chat of this worker (it stops)."""
        for task in list(self._tasks):
            task.cancel()
        self._owned.clear()
        try:
            await self.outbox.release_chats(self.worker_id)
        except Exception as error:  # stopping anyway: the leases run out by themselves
            log.warning("giving chats up: %s", error)

    # --- parts ------------------------------------------------------------------------------

    async def _own(self, chat: str) -> bool:
        """True when this worker shows ``chat`` (taking it when free or run out)."""
        now = self.clock.now()
        until = self._owned.get(chat)
        if until is not None and until - now > CHAT_LEASE_SECONDS / 2:
            return True
        owned, took_over = await self.outbox.take_chat(
            chat, self.worker_id, now, CHAT_LEASE_SECONDS
        )
        if not owned:
            self._owned.pop(chat, None)
            return False
        self._owned[chat] = now + CHAT_LEASE_SECONDS
        if took_over:
            self._spawn(self._redraw_chat(chat))
        return True

    def _shows(self, chat: str) -> bool:
        """Whether this worker has a front end for ``chat``'s platform."""
        platform, _, _ = chat.partition(":")
        return self.publisher.shows(platform)

    async def _rows(self, table_id: int) -> list[StoredChange]:
        return await stored_changes(self.outbox, table_id, HISTORY)

    async def _show(self, update: TableUpdate, rows: Iterable[StoredChange]) -> None:
        """Draw ``update`` with the lines of the change ``rows`` up to its version, in
        version order (:func:`_with_earlier`), and tell the coach the deals they ended."""
        info = update.info
        rows = [row for row in rows if row.version <= info.version]
        history = tuple(row.past for row in rows)
        earlier = [row for row in rows if not row.shown and row.version < info.version]
        await self.publisher.publish(_with_earlier(update, earlier).with_history(history))
        self._shown[info.id] = max(info.version, self._shown.get(info.id, -1))
        await self.outbox.mark_shown(info.id, info.version, KEEP)
        if self.coaching is not None:  # the deals these changes ended, once (not shown yet)
            ended = tuple(
                e.deal_number
                for row in rows
                if not row.shown
                for e in row.events
                if isinstance(e, HandEnded)
            )
            self.coaching.deals_ended(info.id, ended)

    def _note_chat(self, table_id: int, chat: str) -> None:
        self._chat_of[table_id] = chat

    def _lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    def _spawn(self, work: Coroutine[Any, Any, object]) -> None:
        async def guarded() -> None:
            try:
                await work
            except asyncio.CancelledError:
                raise
            except Exception:  # one table's failure must not reach another
                log.exception("showing a change failed")

        task = asyncio.get_running_loop().create_task(guarded())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def _with_earlier(update: TableUpdate, earlier: list[StoredChange]) -> TableUpdate:
    """``update`` drawn after the ``earlier`` changes nobody showed yet (another worker's,
    whose announcement is late): the hands they touched are redrawn too, and the turn one
    of them began is pinged when that seat is still to act and did not make ``update``."""
    if not earlier:
        return update
    if update.hands is not None:
        touched = _changed_hands(earlier, redraw=False)
        update = replace(update, hands=None if touched is None else update.hands | touched)
    if update.turn is None and update.table.view is not None:
        turn, since = _open_turn(earlier, update.table.view.current)
        screen = None if turn is None else update.seat_screen(turn)
        if screen is not None and screen.user_key != update.actor:  # not who just acted
            update = replace(update, turn=turn, turn_version=since)
    return update


def _changed_hands(pending: list[StoredChange], redraw: bool) -> frozenset[int] | None:
    """The seats whose hands the ``pending`` changes touched (``None``: every seat, as for
    a ``redraw`` or a change that did not say)."""
    if redraw:
        return None
    hands: frozenset[int] = frozenset()
    for row in pending:
        if row.hands is None:
            return None
        hands |= row.hands
    return hands


def _open_turn(pending: list[StoredChange], current: int | None) -> tuple[int | None, int | None]:
    """The turn that began with the newest pending change that began one, and that
    change's version, when that seat is still to act (``current``; else no ping)."""
    for row in reversed(pending):
        if row.turn is not None:
            return (row.turn, row.version) if current == row.turn else (None, None)
    return None, None
