"""The service's one entry point (:class:`EntryPoint`, the :class:`bot.ports.entry.Entry`
of every front end): an :class:`~bot.ports.intents.Intent` in, an
:class:`~bot.ports.intents.Outcome` out.

One intent, in order:

1. flow control (per person and per chat: :class:`bot.service.flow.FlowControl`);
2. the table it is for, loaded once (by chat, by id, or the person's newest table);
3. the languages of everyone the answer concerns, one query; the person's language is
   set for the whole handling (:func:`bot.i18n.use_locale`) and read everywhere else;
4. the verb (:class:`bot.service.verbs.Verbs`): at most one engine worker call — a move is
   applied and every person's screen facts in the new position come back with it — and at
   most one commit;
5. the screens: the presser's hand model and the :class:`~bot.ports.screens.TableUpdate`
   for every seat, the presser's first;
6. the update to every notifier: at once, or, when the front end handles the input
   inside :meth:`EntryPoint.answer_first`, after it answered the presser (the block's
   end). No front end code runs inside the service.

A refusal is an :class:`engine.errors.EngineError` raised anywhere in 2-4: it comes back
as a localised private :class:`~bot.ports.intents.Reply` (``ok=False``), nothing changed;
a control that was stale also gets the fresh hand screen. Nothing here raises for bad
input.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace

from cachetools import LRUCache

from bot.i18n import use_locale
from bot.i18n.errors import localize_error
from bot.ports.clean import clean_intent
from bot.ports.intents import Intent, Outcome, Reply
from bot.ports.model import ChatKey, TableInfo, UserRef
from bot.ports.replays import Replay
from bot.ports.screens import Seen, TablesOf, TableUpdate
from bot.service.delivery import Delivery
from bot.service.flow import FlowControl, TooFast
from bot.service.lobby import bounded_user
from bot.service.queries import Queries
from bot.service.replays import replay_of
from bot.service.repository import Repository
from bot.service.verbs import Handling, Verbs
from engine.errors import EngineError

__all__ = ["EntryPoint"]

log = logging.getLogger(__name__)

KNOWN_USERS = 50_000
"""People whose name and app language this process last stored (a changed one is
stored again)."""


class _Held:
    """The changes committed inside one :meth:`EntryPoint.answer_first` block, shown when
    it ends (``open`` until then: a task the block started that commits later shows its
    change itself)."""

    def __init__(self) -> None:
        self.updates: list[TableUpdate] = []
        self.open = True


_HELD: ContextVar[_Held | None] = ContextVar("held_updates", default=None)
"""The running :meth:`EntryPoint.answer_first` block's changes; ``None`` outside one."""


@dataclass(frozen=True)
class _Seen:
    name: str
    locale: str | None


class EntryPoint:
    """:class:`bot.ports.entry.Entry` of the game service (see the module docstring)."""

    def __init__(
        self,
        verbs: Verbs,
        queries: Queries,
        publisher: Delivery,
        flow: FlowControl,
        repo: Repository,
    ) -> None:
        self.verbs = verbs
        self.queries = queries
        self.publisher = publisher
        self.flow = flow
        self.repo = repo
        self._seen: LRUCache[str, _Seen] = LRUCache(KNOWN_USERS)

    async def handle(self, intent: Intent) -> Outcome:
        """Carry out ``intent`` (see the module docstring); never raises for bad input."""
        intent = clean_intent(intent)  # no lone surrogate or NUL reaches a store
        chat = str(intent.key) if intent.key is not None else f"private:{intent.user.key}"
        if not await self.flow.admit(intent.user.key, chat):
            outcome = await self._refused_fast(intent, chat)
        else:
            await self._remember(intent.user)
            handling = Handling(self.verbs, intent)
            try:
                outcome = await handling.run()
            except EngineError as error:
                outcome = await handling.refusal(error)
            if handling.among > 1:
                outcome = replace(outcome, among=handling.among)
            if not outcome.ok and outcome.reply.text is not None:
                quiet = not self.flow.first_time(intent.user.key, chat, outcome.reply.text)
                if quiet:
                    outcome = replace(outcome, reply=replace(outcome.reply, quiet=True))
        if outcome.update is not None:
            held = _HELD.get()
            if held is None or not held.open:
                await self.publisher.publish(outcome.update)
            else:
                held.updates.append(outcome.update)
        return outcome

    @asynccontextmanager
    async def answer_first(self) -> AsyncIterator[None]:
        """:meth:`bot.ports.entry.Entry.answer_first`: the changes :meth:`handle` commits
        inside the block (also from tasks the block starts) are shown when it ends, in
        the order they were committed; a block inside another one leaves them to it."""
        outer = _HELD.get()
        if outer is not None and outer.open:
            yield
            return
        held = _Held()
        token = _HELD.set(held)
        try:
            yield
        finally:
            held.open = False
            _HELD.reset(token)
            for update in held.updates:
                try:
                    await self.publisher.publish(update)
                except Exception:  # committed: the sweep shows what could not be shown now
                    log.exception(
                        "showing table %d v%d failed", update.info.id, update.info.version
                    )

    async def _refused_fast(self, intent: Intent, chat: str) -> Outcome:
        locale = await self.queries.locale_of(intent.user)
        with use_locale(locale):
            text = localize_error(TooFast())
        quiet = not self.flow.first_time(intent.user.key, chat, text)
        return Outcome(Reply(text, True, False, TooFast.code, quiet), locale, error=TooFast())

    async def _remember(self, user: UserRef) -> None:
        """Store the person's name and app language when this process has not seen them
        yet or they changed (other seats' screens are drawn in that language)."""
        seen = _Seen(user.name, user.locale)
        if self._seen.get(user.key) == seen:
            return
        name = bounded_user(user).name  # as a seat shows it: no control characters
        try:
            await self.repo.upsert_user(user.platform, user.user_id, name, user.locale)
        except EngineError:
            return  # the database refuses writes now: the move itself will say so
        self._seen[user.key] = seen

    # --- questions that change nothing ------------------------------------------------------

    async def admit(self, user: UserRef, chat: str) -> bool:
        """:meth:`bot.ports.entry.Entry.admit`."""
        return await self.flow.admit(user.key, chat)

    async def table_info(self, key: ChatKey) -> TableInfo | None:
        """The chat's active table, or ``None``."""
        return await self.queries.table_info(key)

    async def table_by_id(self, table_id: int) -> TableInfo | None:
        """Table ``table_id`` while it is active, else ``None``."""
        return await self.queries.table_by_id(table_id)

    async def locale_of(self, user: UserRef) -> str:
        """The person's language."""
        return await self.queries.locale_of(user)

    async def legal_commands(self, key: ChatKey, user: UserRef) -> list[str]:
        """The person's legal moves as command lines (completions)."""
        return await self.queries.legal_commands(key, user)

    async def screens(self, table_id: int, user: UserRef | None) -> Seen | None:
        """What table ``table_id`` shows ``user`` (``None``: the public table only);
        ``None`` when the table is not active."""
        return await self.queries.screens_of(table_id, user)

    async def tables_of(self, user: UserRef) -> TablesOf:
        """The active tables where ``user`` sits, and their language."""
        tables = await self.queries.tables_of(user)
        return TablesOf(tuple(tables), await self.queries.locale_of(user))

    async def known_table(self, table_id: int) -> TableInfo | None:
        """Table ``table_id`` whatever its status, or ``None``."""
        return await self.queries.known_table(table_id)

    async def latest_ended(self, key: ChatKey) -> TableInfo | None:
        """The chat's most recently ended game, or ``None``."""
        return await self.queries.latest_ended(key)

    async def replay(self, table_id: int, user: UserRef, may_watch: bool) -> Replay:
        """The finished deals of table ``table_id`` as ``user`` may see them
        (:func:`bot.service.replays.replay_of`)."""
        return await replay_of(self.queries, table_id, user, may_watch)
