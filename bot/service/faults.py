"""Tables that cannot be loaded (:class:`TableFaults`): recorded, logged and told to their
chat once, at the first failure, whoever touched the table.

A stored row that does not decode (:class:`bot.service.errors.UnreadableTable`: damaged
JSON, a field this release does not know, a row format of a newer release) is found by
whatever loads the table first — a person's command or button, a page, the scheduler's
due step. That first failure quarantines the table in storage (never scheduled again,
listed by ``rummy-bot faults`` until an operator clears it), is logged once with the
table and the reason, and its chat is told once, in the chat's language, through the
notifiers (:class:`bot.ports.screens.TableFault`). Every later failure of the same table
is answered with the same refusal and nothing else: not logged again, no storage write
(this process remembers the table), and no second message to the chat, even from another
worker or after a restart (storage remembers the quarantine).
"""

from __future__ import annotations

import logging

from cachetools import LRUCache

from bot.i18n import normalize_locale
from bot.ports.screens import TableFault
from bot.service.errors import UnreadableTable
from bot.service.publish import Publisher
from bot.service.repository import Repository

__all__ = ["TableFaults"]

log = logging.getLogger(__name__)

KNOWN = 10_000
"""Unreadable tables this process remembers having reported (bounded)."""


class TableFaults:
    """Reports tables that cannot be loaded (see the module docstring). ``repo``: where
    the quarantine is recorded; ``publisher``: the notifiers that tell the chat;
    ``default_locale``: the language when the row names none and its host chose none."""

    def __init__(self, repo: Repository, publisher: Publisher, default_locale: str) -> None:
        self.repo = repo
        self.publisher = publisher
        self.default_locale = default_locale
        self._reported: LRUCache[int, None] = LRUCache(KNOWN)

    @property
    def reported(self) -> set[int]:
        """Ids of the unreadable tables this process has reported."""
        return set(self._reported)

    async def unreadable(self, error: UnreadableTable) -> None:
        """Report the table of ``error`` unless this process did already: record its
        quarantine; when that is new, log it and tell its chat. A storage failure while
        recording is logged; the refusal of the table stands either way."""
        table_id = error.table_id
        if table_id in self._reported:
            return
        reason = error.reason or type(error).__name__
        try:
            new = await self.repo.quarantine(table_id, f"{type(error).__name__}: {reason}"[:500])
        except Exception as failed:
            log.warning(
                "table %d cannot be loaded (%s); recording its quarantine failed: %s",
                table_id,
                reason,
                failed,
            )
            return
        self._remember(table_id)
        if not new:
            return  # reported before: by another worker, or before a restart
        log.error(
            "table %d quarantined: its stored row cannot be loaded (%s); its chat "
            "is told; rummy-bot faults lists it, --clear %d once it is repaired",
            table_id,
            reason,
            table_id,
        )
        if error.key is not None:
            await self.publisher.fault(
                TableFault(table_id, error.key, error.code, await self._locale(error))
            )

    def loaded(self, table_id: int) -> None:
        """Table ``table_id`` loaded again (repaired): a new failure is a new fault."""
        self._reported.pop(table_id, None)

    def _remember(self, table_id: int) -> None:
        self._reported[table_id] = None

    async def _locale(self, error: UnreadableTable) -> str:
        """The chat's language: the table's setting, else its host's, else the default."""
        chosen = error.locale
        if chosen is None and error.host is not None:
            try:
                picked, app = (await self.repo.user_locales([error.host])).get(
                    error.host, (None, None)
                )
                chosen = picked or app
            except Exception:
                chosen = None
        return normalize_locale(chosen or self.default_locale)
