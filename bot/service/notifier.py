"""What the game service tells the platforms: the :class:`Notifier` protocol.

Each adapter implements it for its platform. Notifications carry the public
:class:`engine.views.PublicView` for the chat and a :class:`engine.views.PlayerView`
only for its owner, so no adapter ever holds another seat's hidden cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.ports.model import TableInfo
from engine.events import Event
from engine.views import PlayerView, PublicView


@dataclass(frozen=True, slots=True)
class Notice:
    """An announcement for the table, localised by the adapter from ``code`` + ``params``.

    Codes: ``autopilot_turn`` {name}, ``autopilot_on`` {name}, ``autopilot_off`` {name},
    ``lobby_expired``, ``game_idle_ended``, ``game_cancelled``, ``player_joined`` {name},
    ``player_left`` {name}, ``ai_added`` {name}, ``ai_removed`` {name}, ``settings_changed``,
    ``game_started``.
    """

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)


class Notifier(Protocol):
    """Implemented by each platform adapter."""

    async def table_changed(self, info: TableInfo, view: PublicView | None,
                            events: Sequence[Event], notices: Sequence[Notice]) -> None:
        """The public table (lobby when ``view`` is ``None``) changed: edit it in place."""

    async def hand_changed(self, info: TableInfo, seat: int, user_key: str,
                           view: PlayerView) -> None:
        """A human's private hand view changed (send to that user only)."""

    async def turn_started(self, info: TableInfo, seat: int, user_key: str) -> None:
        """It is this human's turn (ping them)."""

    async def timer_warning(self, info: TableInfo, seat: int, user_key: str,
                            seconds_left: float) -> None:
        """The human's turn time runs out soon."""
