"""What a person asks for and what they get back: the records of the service's entry
point (:class:`bot.ports.entry.Entry`).

Every front end decodes its platform's input (a Telegram callback, command or text; a
Discord component, slash command or text; a terminal line; a web page's message) into one
:class:`Intent` and does nothing else with it; the service answers with one
:class:`Outcome`.

An intent's :attr:`Intent.request` is one of the closed union :data:`Request` of frozen
records, and its :attr:`Intent.at` one of the closed union :data:`Address`; the service
dispatches both with ``match`` and :func:`typing.assert_never`, so a new kind of request
that is not handled everywhere fails the type check (mypy) instead of a chat.

- the table requests of the chat command language (:data:`bot.interaction.commands.VERBS`):
  :class:`OpenTable` (``new``), :class:`Join`, :class:`Leave`, :class:`AddAI` (``addbot``),
  :class:`RemoveAI` (``removebot``), :class:`Configure` (``set``), :class:`Start`,
  :class:`Cancel`, :class:`Back`, :class:`SetLanguage` (``lang``), :class:`Coach`,
  :class:`Stats`, :class:`Top`, :class:`NewSeason` (``season new``), :class:`Export`,
  :class:`ReplayGame` (``replay``), :class:`ShowHand` (``hand``), :class:`Rules`,
  :class:`Help`;
- :class:`Move`: a game move, typed (``words`` of :mod:`engine.commands`) or named by a
  control (``action``: the engine action; its seat is replaced by the person's);
- the hand screen's own requests, which need a :class:`Selection`: :class:`Select` (show
  this selection), :class:`Sort` (the next order, or the order ``word`` names),
  :class:`Hint` (select the suggested move's cards), :class:`PressOffer` (carry out the
  offer ``selection.offer`` of the hand model drawn for that selection);
- what no front end can carry out: :class:`Unknown` (a word that is no verb, or an empty
  line) and :class:`TooLong` (a line over the length limit, refused unread).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from bot.ports.hand import HandModel, SortMode
from bot.ports.model import ChatKey, TableInfo, UserRef
from bot.ports.screens import TableUpdate
from engine.errors import EngineError

__all__ = [
    "AddAI",
    "Address",
    "AtTable",
    "Back",
    "Cancel",
    "Coach",
    "Configure",
    "Export",
    "Help",
    "Hint",
    "InChat",
    "Intent",
    "Join",
    "Leave",
    "Mine",
    "Move",
    "NewSeason",
    "OpenTable",
    "Outcome",
    "PlayRequest",
    "PressOffer",
    "Question",
    "RemoveAI",
    "ReplayGame",
    "Reply",
    "Request",
    "Rules",
    "Select",
    "Selection",
    "SetLanguage",
    "ShowHand",
    "Sort",
    "Start",
    "Stats",
    "TableRequest",
    "TooLong",
    "Top",
    "Unknown",
]


# --- the requests ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OpenTable:
    """``new [variant] [preset] [option=value ...]``: open a lobby in the chat; ``words``
    as typed (the service reads them and refuses unknown ones)."""

    verb: ClassVar[str] = "new"
    words: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Join:
    """``join``: take a seat at the lobby."""

    verb: ClassVar[str] = "join"


@dataclass(frozen=True, slots=True)
class Leave:
    """``leave``: give up one's seat (a running game: the AI plays it)."""

    verb: ClassVar[str] = "leave"


@dataclass(frozen=True, slots=True)
class AddAI:
    """``addbot [level]``: the host adds an AI seat of ``level`` (``None``: the default
    level; an unknown word is refused by the service)."""

    verb: ClassVar[str] = "addbot"
    level: str | None = None


@dataclass(frozen=True, slots=True)
class RemoveAI:
    """``removebot [seat]``: the host removes the AI seat ``word`` numbers (``None``: the
    last one)."""

    verb: ClassVar[str] = "removebot"
    word: str | None = None


@dataclass(frozen=True, slots=True)
class Configure:
    """``set name=value ...``: the host changes the lobby's options (``words`` as typed;
    none: the settings are shown)."""

    verb: ClassVar[str] = "set"
    words: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Start:
    """``start``: the host deals the first hand."""

    verb: ClassVar[str] = "start"


@dataclass(frozen=True, slots=True)
class Cancel:
    """``cancel``: the host (or a chat admin) ends the table."""

    verb: ClassVar[str] = "cancel"


@dataclass(frozen=True, slots=True)
class Back:
    """``back``: play one's seat again after the AI took it over."""

    verb: ClassVar[str] = "back"


@dataclass(frozen=True, slots=True)
class SetLanguage:
    """``lang [en|de|auto]``: the person's language (``None`` or ``auto``: their app's)."""

    verb: ClassVar[str] = "lang"
    word: str | None = None


@dataclass(frozen=True, slots=True)
class Coach:
    """``coach [on|off]``: whether the person gets the coach's notes after each deal (the
    moves where the expert's alternative was clearly better); no word: say which. On by
    default in a person's first three games of a variant."""

    verb: ClassVar[str] = "coach"
    word: str | None = None


@dataclass(frozen=True, slots=True)
class Stats:
    """``stats``: the person's games and wins."""

    verb: ClassVar[str] = "stats"


@dataclass(frozen=True, slots=True)
class Top:
    """``top [global] [variant] [season N]``: the best players by skill rating, of the chat
    (``global``: everywhere), of a variant (default: the chat's) and a season (default: the
    running one); ``words`` as typed (the service reads them and refuses unknown ones)."""

    verb: ClassVar[str] = "top"
    words: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class NewSeason:
    """``season new`` (German ``saison neu``): the chat's host or a chat admin ends the
    chat's rating season and starts the next one; ``words`` as typed after the verb (the
    service accepts ``new``/``neu`` alone and refuses any other)."""

    verb: ClassVar[str] = "season"
    words: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Export:
    """``export``: the record of the chat's last finished game."""

    verb: ClassVar[str] = "export"


@dataclass(frozen=True, slots=True)
class ReplayGame:
    """``replay``: the finished deals of the chat's game (its running game once a deal is
    over, else its last ended game) or of the person's newest table, to step through in
    the web table (docs/replay.md); the outcome's ``info`` names the table."""

    verb: ClassVar[str] = "replay"


@dataclass(frozen=True, slots=True)
class ShowHand:
    """``hand [melds]``: the person's hand, privately (``grouped``: with its best melds)."""

    verb: ClassVar[str] = "hand"
    grouped: bool = False


@dataclass(frozen=True, slots=True)
class Rules:
    """``rules [topic]``: how the table's variant is played (``topic``: one part, or
    ``options``)."""

    verb: ClassVar[str] = "rules"
    topic: str | None = None


@dataclass(frozen=True, slots=True)
class Help:
    """``help [command]``: how to play with this bot."""

    verb: ClassVar[str] = "help"
    topic: str | None = None


@dataclass(frozen=True, slots=True)
class Move:
    """A game move: typed (``words``: a line of :mod:`engine.commands`, ``draw``,
    ``meld 7h 8h 9h``) or named by a control (``action``: the engine action; its seat is
    replaced by the presser's)."""

    verb: ClassVar[str] = "move"
    words: tuple[str, ...] = ()
    action: object | None = field(default=None, compare=True)


@dataclass(frozen=True, slots=True)
class Select:
    """The hand screen for the intent's :class:`Selection` (a card toggled, cleared, the
    pile screen): changes no table."""

    verb: ClassVar[str] = "select"


@dataclass(frozen=True, slots=True)
class Sort:
    """The hand in the next order, or the order ``word`` names (``suit``, ``rank``,
    ``melds``; German ``farbe``, ``rang``, ``meldungen``); the selection is kept."""

    verb: ClassVar[str] = "sort"
    word: str | None = None


@dataclass(frozen=True, slots=True)
class Hint:
    """Select the cards of the suggested move and say it."""

    verb: ClassVar[str] = "hint"


@dataclass(frozen=True, slots=True)
class PressOffer:
    """Carry out the offer ``selection.offer`` of the hand model drawn for the intent's
    :class:`Selection` at its ``version`` (resolved by the engine worker)."""

    verb: ClassVar[str] = "offer"


@dataclass(frozen=True, slots=True)
class Unknown:
    """A line whose first ``word`` is no verb of this front end (``""``: an empty line)."""

    verb: ClassVar[str] = "unknown"
    word: str = ""


@dataclass(frozen=True, slots=True)
class TooLong:
    """A line longer than the limit (:data:`bot.interaction.commands.MAX_COMMAND`): refused
    unread."""

    verb: ClassVar[str] = "too_long"


TableRequest = OpenTable | Join | Leave | AddAI | RemoveAI | Configure | Start | Cancel | Back
"""Requests that open or change a lobby or a table's seats."""
Question = (
    SetLanguage | Coach | Stats | Top | NewSeason | Export | ReplayGame | ShowHand | Rules | Help
)
"""Requests about the person or the table that change no table (``lang`` changes the
person's language, ``season new`` the chat's rating season)."""
PlayRequest = Move | Select | Sort | Hint | PressOffer
"""A move, and the hand screen's own requests."""
Request = TableRequest | Question | PlayRequest | Unknown | TooLong
"""Everything a person can ask of the service (a closed union: see the module docstring)."""


# --- where a request is meant -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class InChat:
    """The table of the chat ``key`` (a group, channel, thread or the terminal); with
    ``table_id`` (a control's table), that table, which must be this chat's."""

    key: ChatKey
    table_id: int | None = None


@dataclass(frozen=True, slots=True)
class AtTable:
    """Table ``table_id``, wherever it is played: a private chat's control, a deep link,
    a web page."""

    table_id: int


@dataclass(frozen=True, slots=True)
class Mine:
    """One of the person's own tables (a line typed in a private chat): the one
    ``table_id`` names, else their newest (a running game before a lobby)."""

    table_id: int | None = None


Address = InChat | AtTable | Mine
"""Where an intent is meant (a closed union: see the module docstring)."""


@dataclass(frozen=True, slots=True)
class Selection:
    """The hand screen a control was drawn for: the selection ``mask`` over the hand in
    ``sort`` order, the ``digest`` of the hand it was drawn for
    (:func:`bot.interaction.hand.hand_digest`; ``None``: not checked) and, for ``offer``,
    the offer number pressed (an index into :attr:`bot.ports.hand.HandModel.offers`)."""

    mask: int = 0
    sort: SortMode = SortMode.SUIT
    digest: str | None = None
    offer: int | None = None


@dataclass(frozen=True, slots=True)
class Intent:
    """One input of a person, decoded by a front end.

    ``request``: what they ask (:data:`Request`); ``user``: who (with the platform's
    language tag); ``at``: the table it is meant for (:data:`Address`). ``version``: the
    game state's version (:attr:`engine.views.PublicView.version`) the control was drawn
    for (a move from an old screen is refused and answered with the fresh one);
    ``selection``: the hand screen it was drawn for. ``update_key``: the platform
    update's idempotency key (a redelivered update changes nothing twice). ``is_admin``:
    the person administers the chat (may cancel other people's games)."""

    request: Request
    user: UserRef
    at: Address = Mine()
    version: int | None = None
    selection: Selection | None = None
    update_key: str | None = None
    is_admin: bool = False

    @property
    def key(self) -> ChatKey | None:
        """The chat the input came from (``None``: a private chat or a page)."""
        return self.at.key if isinstance(self.at, InChat) else None

    @property
    def table_id(self) -> int | None:
        """The table the input names (``None``: the chat's, or the person's newest)."""
        return self.at.table_id


@dataclass(frozen=True, slots=True)
class Reply:
    """What to say to the person: ``text`` (localised; ``None``: nothing, the table shows
    the change), whether only they may see it (``private``), whether it worked (``ok``),
    the refusal's stable ``code`` and ``quiet``: the same refusal was said to this person
    here a moment ago (flow control), so a front end may stay silent."""

    text: str | None
    private: bool = False
    ok: bool = True
    code: str | None = None
    quiet: bool = False


@dataclass(frozen=True)
class Outcome:
    """The answer to one :class:`Intent`: the ``reply``, the person's ``locale`` (found
    once for the whole handling), the table ``info`` after it (``None``: no table; when a
    control's table is no longer its chat's, ``no_table`` with the chat's table now), the
    person's own ``hand`` screen when they sit at a running game (for the selection the
    intent asked for: the same order, and after a move nothing selected), the committed
    ``update`` the others are shown (``None`` when nothing was stored), for a refusal,
    the ``error`` (its ``code`` and ``params``), and ``among``: of how many of the
    person's own tables the table was chosen (an intent addressed :class:`Mine`; more than
    one: a front end names the table it was for)."""

    reply: Reply
    locale: str
    info: TableInfo | None = None
    hand: HandModel | None = None
    update: TableUpdate | None = None
    error: EngineError | None = None
    among: int = 1

    @property
    def ok(self) -> bool:
        """True when the intent was carried out."""
        return self.reply.ok
