"""The change row of a commit (:mod:`bot.service.outbox`): what a committed change showed,
as JSON, so that any worker can show it later.

A record is ``{"format": 1, "events": [...], "notices": [...], "hands": [...] | null,
"turn": seat | null}``: the engine's events (:mod:`engine.events_json`), the service's
notices (:mod:`bot.ports.notice_json`), the seats whose private hand changed (``null``:
every seat's) and the person's seat whose turn began with the change
(:func:`turn_began`). A record that cannot be read (a newer release wrote it, a damaged
row) is shown without lines, as if every hand had changed.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from bot.ports.model import Status
from bot.ports.notice_json import notices_from_json, notices_to_json
from bot.ports.screens import Notice, PastChange
from bot.service.model import Table
from bot.service.outbox import ChangeRow, OutboxStore
from engine.errors import EngineError
from engine.events import Event
from engine.events_json import events_from_json, events_to_json
from engine.game import current_player

__all__ = [
    "HISTORY",
    "RECORD_FORMAT",
    "StoredChange",
    "change_record",
    "read_change",
    "stored_changes",
    "turn_began",
]

log = logging.getLogger(__name__)

RECORD_FORMAT = 1
HISTORY = 12
"""Change rows read for the recent lines (a table message shows at most 8 lines)."""


def turn_began(before: Table, after: Table) -> int | None:
    """The seat of a person (not played by the AI) whose turn began with the change from
    ``before`` to ``after`` (another seat to act, or a new deal), else ``None``."""
    state = after.state
    if state is None or after.status is not Status.PLAYING:
        return None
    seat = current_player(state)
    if seat is None or after.seats[seat].automated or after.seats[seat].user is None:
        return None
    old = before.state
    if (
        old is not None
        and before.status is Status.PLAYING
        and (old.deal_number, current_player(old)) == (state.deal_number, seat)
        and not before.seats[seat].automated
    ):
        return None
    return seat


def change_record(
    before: Table,
    after: Table,
    events: Sequence[Event],
    notices: Sequence[Notice],
    hands: Collection[int] | None,
) -> str:
    """The JSON record of the change from ``before`` to ``after`` (see the module
    docstring)."""
    try:
        written_notices = notices_to_json(notices)
    except TypeError:  # a notice param without a JSON form: the lines lose it, not the move
        log.exception("table %d: a notice of version %d has no JSON form", after.id, after.version)
        written_notices = []
    return json.dumps(
        {
            "format": RECORD_FORMAT,
            "events": events_to_json(events),
            "notices": written_notices,
            "hands": None if hands is None else sorted(hands),
            "turn": turn_began(before, after),
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )


@dataclass(frozen=True, slots=True)
class StoredChange:
    """A change row read back: its ``version``, whether it was ``shown``, its ``events``
    and ``notices``, the seats whose ``hands`` changed (``None``: every seat's) and the
    ``turn`` that began with it."""

    version: int
    shown: bool
    events: tuple[Event, ...] = ()
    notices: tuple[Notice, ...] = ()
    hands: frozenset[int] | None = None
    turn: int | None = None

    @property
    def past(self) -> PastChange:
        """The change as a table screen's history shows it."""
        return PastChange(self.version, self.events, self.notices)


async def stored_changes(outbox: OutboxStore, table_id: int, limit: int) -> list[StoredChange]:
    """The last ``limit`` change rows of ``table_id``, read, oldest first."""
    return [read_change(row, table_id) for row in await outbox.recent_changes(table_id, limit)]


def read_change(row: ChangeRow, table_id: int) -> StoredChange:
    """Decode a change row; one that cannot be read gives no lines and every hand (logged:
    it is not the person's fault, and the table is still shown)."""
    try:
        data: Any = json.loads(row.record)
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise ValueError(f"format {data.get('format') if isinstance(data, dict) else '?'}")
        hands = data.get("hands")
        turn = data.get("turn")
        return StoredChange(
            row.version,
            row.shown,
            events_from_json(data.get("events", [])),
            notices_from_json(data.get("notices", [])),
            None if hands is None else frozenset(int(seat) for seat in hands),
            None if turn is None else int(turn),
        )
    except (ValueError, TypeError, EngineError) as error:
        log.warning(
            "table %d: change row %d cannot be read (%s); shown without its lines",
            table_id,
            row.version,
            error,
        )
        return StoredChange(row.version, row.shown)
