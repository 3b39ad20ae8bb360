"""What a committed change looks like to the people at a table: the records the service
hands the notifiers (:class:`bot.ports.notifier.Notifier`), computed once per change.

- :class:`TableScreen`: the public table (lobby when ``view`` is ``None``), the events and
  notices of the change, in the table's language;
- :class:`SeatScreen`: one human seat's private screen: its own view and the engine's
  facts for it (:class:`SeatFacts`: legal actions, the suggested move, the best melds), in
  that person's language; a front end builds its hand model from it
  (:func:`bot.interaction.hand.build_hand_model`) for the selection it keeps;
- :class:`TableUpdate`: one change of a table: the table screen, every human seat's screen,
  whose hand changed, whose turn began, and whose own screen the presser's front end has
  drawn already;
- :class:`TableFault`: a table that cannot be loaded any more, told to its chat once.

A seat's screen carries only that seat's view (:func:`engine.views.view_for`): a notifier
that sends it to its owner only can never leak another seat's hidden cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from bot.ports.model import ChatKey, TableInfo
from engine.actions import Action
from engine.events import Event
from engine.views import PlayerView, PublicView

if TYPE_CHECKING:
    from engine.search import Partition

__all__ = [
    "CoachAdvice",
    "Notice",
    "PastChange",
    "SeatFacts",
    "SeatScreen",
    "Seen",
    "TableFault",
    "TableScreen",
    "TableUpdate",
    "TablesOf",
    "TimerWarning",
]


@dataclass(frozen=True, slots=True)
class Notice:
    """An announcement for the table, localised by the front end from ``code`` +
    ``params``.

    Codes: ``autopilot_turn`` {name}, ``autopilot_on`` {name}, ``autopilot_off`` {name},
    ``lobby_opened`` {name}, ``lobby_expired``, ``game_idle_ended``, ``game_cancelled``,
    ``player_joined`` {name}, ``player_left`` {name}, ``ai_added`` {name}, ``ai_removed``
    {name}, ``settings_changed`` {changes}, ``game_started``.
    """

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """What the engine says about one seat at one table version: its ``legal`` actions now
    (the engine's order), the ``suggestion`` (one of them, or ``None`` when the seat has
    nothing to do), the ``melds`` of its hand (:func:`engine.search.best_melds`, for the
    "melds first" order and the hint) and whether the engine answered in time
    (``complete``; when not, the lists are empty and typed commands still work)."""

    legal: tuple[Action, ...] = ()
    suggestion: Action | None = None
    melds: Partition | None = None
    complete: bool = True


@dataclass(frozen=True, slots=True)
class SeatScreen:
    """Seat ``seat`` of ``user_key`` at table ``info``: its own ``view``, the engine's
    ``facts``, the person's ``locale`` and whether they are ``guided`` (their first game of
    the variant: the screens say what to type)."""

    info: TableInfo
    seat: int
    user_key: str
    view: PlayerView
    facts: SeatFacts
    locale: str
    guided: bool = False


@dataclass(frozen=True, slots=True)
class PastChange:
    """One committed change of a table as its recent lines show it: the ``version`` it
    produced, its ``events`` and ``notices``."""

    version: int
    events: tuple[Event, ...] = ()
    notices: tuple[Notice, ...] = ()


@dataclass(frozen=True, slots=True)
class TableScreen:
    """The public side of a table: ``info``, the public ``view`` (``None`` in the lobby),
    the ``events`` and ``notices`` of the change it follows, the table's ``locale`` (its
    setting, else the host's language) and its ``history``: the last stored changes,
    oldest first, this one included, the same whichever worker shows the table (empty when
    the screen was not published through the outbox: then a front end shows the lines of
    this change)."""

    info: TableInfo
    view: PublicView | None
    events: tuple[Event, ...] = ()
    notices: tuple[Notice, ...] = ()
    locale: str = "en"
    history: tuple[PastChange, ...] = ()


@dataclass(frozen=True, slots=True)
class TableUpdate:
    """One committed change of a table (or a redraw of it).

    ``seats``: the screen of every human seat of a running game (empty in the lobby and
    once the table closed without a game); ``hands``: the seats whose private hand changed
    (``None``: every seat's, e.g. a new deal); ``turn``: the human seat whose turn began
    with this change (ping them), else ``None``; ``actor``: the user key of the person
    whose intent made the change (``None``: an automatic step), whose screen every
    notifier draws first (:attr:`seats_actor_first`); ``turn_version``:
    the table version whose change began that turn when it is older than this one (a
    worker showing changes another one committed), so a ping keyed by the turn is sent
    once."""

    table: TableScreen
    seats: tuple[SeatScreen, ...] = ()
    hands: frozenset[int] | None = frozenset()
    turn: int | None = None
    actor: str | None = None
    turn_version: int | None = None

    def with_history(self, history: tuple[PastChange, ...]) -> TableUpdate:
        """A copy whose table screen carries ``history``."""
        return replace(self, table=replace(self.table, history=history))

    @property
    def turn_started(self) -> int:
        """The table version at which :attr:`turn` began."""
        return self.info.version if self.turn_version is None else self.turn_version

    @property
    def info(self) -> TableInfo:
        """The table after the change."""
        return self.table.info

    def seat_screen(self, seat: int) -> SeatScreen | None:
        """The screen of human seat ``seat``, if there is one."""
        return next((s for s in self.seats if s.seat == seat), None)

    def hand_changed(self, seat: int) -> bool:
        """True when seat ``seat``'s hand changed or its turn began with this change."""
        return self.hands is None or seat in self.hands or seat == self.turn

    @property
    def seats_actor_first(self) -> tuple[SeatScreen, ...]:
        """:attr:`seats` with the :attr:`actor`'s screen first (the person who made the
        change sees it first), the others in seat order."""
        return tuple(sorted(self.seats, key=lambda s: s.user_key != self.actor))


@dataclass(frozen=True, slots=True)
class TimerWarning:
    """Seat ``seat`` (``user_key``) of table ``info`` has ``seconds_left`` of its turn;
    ``locale``: the table's language (the warning is said where the table is)."""

    info: TableInfo
    seat: int
    user_key: str
    seconds_left: float
    locale: str


@dataclass(frozen=True, slots=True)
class Seen:
    """What a table shows one viewer (:meth:`bot.ports.entry.Entry.screens`): the public
    ``table``, their own seat's screen ``own`` when they sit at a running game, and the
    viewer's language ``locale`` (their choice, else their app's, else the bot's; the
    table's language when nobody is asking)."""

    table: TableScreen
    own: SeatScreen | None
    locale: str


@dataclass(frozen=True, slots=True)
class TablesOf:
    """The active tables where a person sits (:meth:`bot.ports.entry.Entry.tables_of`),
    newest first, and the person's language ``locale``, so a front end that lists them
    asks once."""

    tables: tuple[TableInfo, ...]
    locale: str


@dataclass(frozen=True, slots=True)
class CoachAdvice:
    """The coach's word to the person ``user_key`` (seat ``seat`` of table ``info``) on
    deal ``deal`` that just ended: ``text``, in their language ``locale``: up to three
    moves where the expert's alternative was clearly better, each with the position as
    they saw it (:mod:`bot.render.coach`), or one line saying no move was. Shown only to
    them (their private chat, a message only they see, their page, the terminal)."""

    info: TableInfo
    user_key: str
    seat: int
    deal: int
    locale: str
    text: str


@dataclass(frozen=True, slots=True)
class TableFault:
    """Table ``table_id`` of the chat ``key`` cannot be loaded (its stored row is damaged,
    or was written by a newer release): ``code`` is the refusal's
    (``unreadable_table``, ``table_from_newer_release``:
    :data:`bot.i18n.errors.ERROR_TEMPLATES`), ``locale`` the chat's language as far as it
    can still be read (the table's setting, its host's language, the bot's default). The
    service tells each chat once per fault, when it is first found; the operator sees it
    in ``rummy-bot faults``."""

    table_id: int
    key: ChatKey
    code: str
    locale: str
