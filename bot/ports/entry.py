"""The service's one entry point, as the front ends see it: :class:`Entry`."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Protocol

from bot.ports.intents import Intent, Outcome
from bot.ports.model import ChatKey, TableInfo, UserRef
from bot.ports.replays import Replay
from bot.ports.screens import Seen, TablesOf

__all__ = ["Entry"]


class Entry(Protocol):
    """:meth:`handle` for every input of every front end, plus questions that change
    nothing. Implemented by :class:`bot.service.entry.EntryPoint`."""

    async def handle(self, intent: Intent) -> Outcome:
        """Carry out ``intent``: flow control, the person's language (once), the table
        (loaded once), at most one engine worker call, at most one commit. Refusals come
        back as a localised :class:`~bot.ports.intents.Reply` with ``ok=False`` and change
        nothing; this never raises for bad input. The committed change is shown to every
        seat by the notifiers (the presser's own screen first): at once, or, inside
        :meth:`answer_first`, when that block ends."""

    def answer_first(self) -> AbstractAsyncContextManager[None]:
        """A block in which a front end handles one input and answers the presser
        (``answerCallbackQuery``, the interaction response, the page's reply): the changes
        committed inside are shown to everyone when the block ends, also when it raises,
        so the presser is answered before any other screen is drawn. Outside such a
        block :meth:`handle` shows its change before it returns."""

    async def admit(self, user: UserRef, chat: str) -> bool:
        """Take a token of the person's and the chat's flow control (``chat``: the chat
        key as text, or ``private:<user key>``) for a step a front end carries out itself
        (a card toggled on a hand screen it keeps); False (nothing taken) when either is
        spent: then the front end hands the intent to :meth:`handle`, which says so."""

    async def table_info(self, key: ChatKey) -> TableInfo | None:
        """The chat's active table (lobby or game), or ``None``."""

    async def table_by_id(self, table_id: int) -> TableInfo | None:
        """Table ``table_id`` while it is active (lobby or game), else ``None``."""

    async def locale_of(self, user: UserRef) -> str:
        """The person's language: their choice (``lang``), else their app's, else the
        bot's default."""

    async def legal_commands(self, key: ChatKey, user: UserRef) -> list[str]:
        """The person's legal moves now at the chat's table, as command lines (for
        completions); empty when none or not in time."""

    async def screens(self, table_id: int, user: UserRef | None) -> Seen | None:
        """What table ``table_id`` shows ``user``: the public table, their own seat's
        screen when they sit there in a running game, and their language, in one call
        (``user=None``: the public table only, in the table's language); ``None`` when the
        table is not active."""

    async def tables_of(self, user: UserRef) -> TablesOf:
        """The active tables where ``user`` sits, and their language, in one call."""

    async def known_table(self, table_id: int) -> TableInfo | None:
        """Table ``table_id`` whatever its status (lobby, game, ended), or ``None``."""

    async def latest_ended(self, key: ChatKey) -> TableInfo | None:
        """The chat's most recently ended game (finished or given up), or ``None``."""

    async def replay(self, table_id: int, user: UserRef, may_watch: bool) -> Replay:
        """The finished deals of table ``table_id`` as ``user`` may see them
        (:mod:`bot.ports.replays`): they sat there, or ``may_watch`` (the front end
        checked that they may watch it). While the game runs only the deals already over,
        each position with only their own hand; after it every hand. A refusal (unknown
        table, not allowed, no deal over, a damaged record) is ``Replay.refused`` with a
        line in their language; this never raises for bad input."""
