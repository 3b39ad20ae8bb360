"""The service's stored record of a table: :class:`Table` is one row of the ``tables``
table, a lobby first, then a game whose engine state travels as
:class:`engine.state.GameState`. Front ends never get a ``Table``: they get its
:class:`bot.ports.model.TableInfo` and views."""

from __future__ import annotations

from dataclasses import dataclass

from bot.ports.model import ChatKey, Seat, Status, TableInfo, TableSettings
from engine.rules import OptionValue
from engine.state import GameState

__all__ = ["Table"]


@dataclass(frozen=True, slots=True)
class Table:
    """A stored table: :class:`TableInfo` fields plus the seed, the game state and the
    timing columns. Frozen: the service builds a new one for every change."""

    id: int
    key: ChatKey
    status: Status
    variant: str
    preset: str | None
    options: tuple[tuple[str, OptionValue], ...]
    host: str
    seats: tuple[Seat, ...]
    settings: TableSettings
    seed: int
    state: GameState | None
    version: int
    created_at: float
    updated_at: float
    last_human_at: float
    due_at: float | None = None
    deadline: float | None = None
    warned: bool = False
    ended_reason: str | None = None

    def info(self) -> TableInfo:
        """The adapter-safe part."""
        return TableInfo(
            self.id,
            self.key,
            self.status,
            self.variant,
            self.preset,
            self.options,
            self.host,
            self.seats,
            self.settings,
            self.version,
            self.deadline,
            self.ended_reason,
            self.updated_at,
        )

    def seat_of(self, user_key: str) -> int | None:
        """The seat of a human user, or ``None``."""
        return self.info().seat_of(user_key)
