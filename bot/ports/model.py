"""The records every part of the bot shares: chat keys, users, seats, table settings and
the adapter-safe :class:`TableInfo` of a table.

The service's stored record with the hidden game state, :class:`bot.service.model.Table`,
never leaves the service: front ends get a :class:`TableInfo` and views.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.rules import OptionValue

TIMERS: dict[str, float | None] = {
    "off": None,
    "30s": 30.0,
    "2m": 120.0,
    "10m": 600.0,
    "24h": 86400.0,
}


@dataclass(frozen=True, slots=True)
class ChatKey:
    """Where a table lives: platform (``telegram``, ``discord``, ``terminal``), the chat
    id and the thread or forum topic id (``""`` when none). Text form:
    ``telegram:-100123:7``."""

    platform: str
    chat_id: str
    thread_id: str = ""

    def __str__(self) -> str:
        return f"{self.platform}:{self.chat_id}:{self.thread_id}"

    @staticmethod
    def parse(text: str) -> ChatKey:
        """Inverse of ``str()``; raises ``ValueError`` for a malformed key."""
        parts = text.split(":")
        if len(parts) != 3 or not parts[0] or not parts[1]:
            raise ValueError(f"not a chat key: {text!r}")
        return ChatKey(parts[0], parts[1], parts[2])


@dataclass(frozen=True, slots=True)
class UserRef:
    """A person on a platform: ``platform``, ``user_id``, the ``name`` shown at the table
    and the platform's language tag (``de-DE``), if known."""

    platform: str
    user_id: str
    name: str
    locale: str | None = None

    @property
    def key(self) -> str:
        """``platform:user_id``."""
        return f"{self.platform}:{self.user_id}"


class SeatKind(enum.Enum):
    """A human player or an AI seat."""

    HUMAN = "human"
    AI = "ai"


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat. ``user`` is the user key of a human. ``autopilot``: the AI plays for the
    human (after missed turns) until they say ``back``; ``missed``: turns missed in a row."""

    kind: SeatKind
    name: str
    user: str | None = None
    ai: str = "greedy"
    autopilot: bool = False
    missed: int = 0

    @property
    def automated(self) -> bool:
        """True when the AI moves for this seat."""
        return self.kind is SeatKind.AI or self.autopilot


class Status(enum.Enum):
    """Table life cycle: lobby -> playing -> finished (or cancelled)."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class TableSettings:
    """Per-table settings (units: seconds unless named otherwise).

    ``timer``: one of :data:`TIMERS` (a turn's time limit). ``warn_before``: warning
    this long before expiry. ``autopilot_after``: missed turns before the AI takes
    over the seat. ``ai_delay``: pause before an AI move so people can follow.
    ``next_deal_delay``: pause on the score sheet before the next deal.
    ``call_window``: how long an AI waits before drawing while a human may call out of
    turn (Rummy 500's "Rommé!").
    ``idle_days``: a game with no human action this long ends. ``locale``: the
    table's language for public messages (``None``: the host's).
    """

    timer: str = "24h"
    warn_before: float = 0.2
    autopilot_after: int = 2
    ai_delay: float = 1.5
    next_deal_delay: float = 8.0
    call_window: float = 6.0
    idle_days: float = 7.0
    lobby_idle_hours: float = 12.0
    locale: str | None = None

    @property
    def turn_seconds(self) -> float | None:
        """The turn limit in seconds, ``None`` without a timer."""
        return TIMERS[self.timer]

    def warning_lead(self) -> float | None:
        """Seconds before expiry at which the player is warned (a fraction of the limit when
        ``warn_before`` < 1, else seconds)."""
        limit = self.turn_seconds
        if limit is None:
            return None
        return limit * self.warn_before if self.warn_before < 1 else self.warn_before


@dataclass(frozen=True, slots=True)
class TableInfo:
    """Everything about a table except the hidden game state: what adapters may hold."""

    id: int
    key: ChatKey
    status: Status
    variant: str
    preset: str | None
    options: tuple[tuple[str, OptionValue], ...]
    host: str
    seats: tuple[Seat, ...]
    settings: TableSettings
    version: int
    deadline: float | None = None
    ended_reason: str | None = None
    updated_at: float | None = None

    def seat_of(self, user_key: str) -> int | None:
        """The seat of a human user, or ``None``."""
        for index, seat in enumerate(self.seats):
            if seat.user == user_key:
                return index
        return None
