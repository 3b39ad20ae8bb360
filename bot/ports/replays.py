"""A finished deal replayed for one person (:class:`Replay`), as the service hands it to a
front end (:meth:`bot.ports.entry.Entry.replay`).

While the game runs, a replay holds only the deals already over and, at each position,
only what that person could see then: their own seat's view (:func:`engine.views.view_for`)
or, for someone who watches, the public table. After the game, every hand is shown at
every position, as people show their cards after a game.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.ports.model import TableInfo
from engine.cards import Card
from engine.views import PublicView

__all__ = ["REPLAY_REFUSALS", "Replay", "ReplayPosition"]

REPLAY_REFUSALS = ("no_table", "not_at_table", "no_deal", "damaged", "busy")
"""Why a replay can be refused: the table is unknown or never started, the person neither
sat there nor may watch it, no deal of it is over yet, its stored record does not replay,
no engine worker replayed it in time."""


@dataclass(frozen=True, slots=True)
class ReplayPosition:
    """One position: the ``deal`` (1-based) and the ``number`` of the move within it (0:
    the deal as dealt), the public ``table`` then, the ``hands`` shown (by seat; ``None``
    for a hand the person may not see) and what the move did (``events``, one line each in
    the person's language)."""

    deal: int
    number: int
    table: PublicView
    hands: tuple[tuple[Card, ...] | None, ...]
    events: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Replay:
    """The positions of a table's finished deals for one person: the table's ``info``, the
    person's ``seat`` (``None``: they watch), whether the game is ``over`` (then every hand
    is shown), their ``locale``; or a refusal: ``refused``, one of
    :data:`REPLAY_REFUSALS`, and ``text``, one line saying why in their language."""

    info: TableInfo | None
    seat: int | None
    over: bool
    locale: str
    positions: tuple[ReplayPosition, ...] = ()
    refused: str | None = None
    text: str = ""
