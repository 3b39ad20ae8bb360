"""What a person asks for and what they get back: the records of the service's entry
point (:class:`bot.ports.entry.Entry`).

Every front end decodes its platform's input (a Telegram callback, command or text; a
Discord component, slash command or text; a terminal line; a web page's message) into one
:class:`Intent` and does nothing else with it; the service answers with one
:class:`Outcome`.

Verbs of a :class:`Command`:

- the table verbs of the chat command language (:data:`bot.interaction.commands.VERBS`:
  ``new``, ``join``, ``leave``, ``addbot``, ``removebot``, ``set``, ``start``, ``cancel``,
  ``back``, ``lang``, ``stats``, ``top``, ``export``, ``hand``, ``rules``, ``help``);
- ``move``: a game move, typed (``args``: the words of :mod:`engine.commands`) or named
  by a control (``action``: the engine action; its seat is replaced by the person's);
- the hand screen's own verbs (:data:`SCREEN_VERBS`), which need a :class:`Selection`:
  ``select`` (show this selection), ``sort`` (the next order, or ``args[0]``: ``suit``,
  ``rank``, ``melds``), ``hint`` (select the suggested move's cards), ``offer`` (carry out
  the offer ``selection.offer`` of the hand model drawn for that selection).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.ports.hand import HandModel, SortMode
from bot.ports.model import ChatKey, TableInfo, UserRef
from bot.ports.screens import TableUpdate
from engine.errors import EngineError

__all__ = ["SCREEN_VERBS", "Answer", "Command", "Intent", "Outcome", "Reply", "Selection"]

SCREEN_VERBS = frozenset({"select", "sort", "hint", "offer"})
"""Verbs of the hand screen's controls (they carry a :class:`Selection`)."""


@dataclass(frozen=True, slots=True)
class Command:
    """One request of a person: the canonical ``verb``, its words ``args`` and, from a
    control, the engine ``action`` it stands for."""

    verb: str
    args: tuple[str, ...] = ()
    action: object | None = field(default=None, compare=True)


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

    ``user``: who (with the platform's language tag); ``key``: the chat the input came
    from (a group, channel or the terminal); without it, the table ``table_id`` names (a
    private chat's control or deep link, a web page), else the person's newest table.
    ``version``: the game state's version (:attr:`engine.views.PublicView.version`) the
    control was drawn for (a move from an old screen is refused and answered with the
    fresh one); ``selection``: the hand screen it was drawn for. ``update_key``: the
    platform update's idempotency key (a redelivered update changes nothing twice).
    ``is_admin``: the person administers the chat (may cancel other people's games).
    ``origin``: the front end that will draw the presser's screen from the outcome
    (``telegram``, ``discord``, ``terminal``, ``web:<page>``), so its notifier does not
    draw it again; ``None``: the presser's screens are pushed like everyone else's."""

    command: Command
    user: UserRef
    key: ChatKey | None = None
    table_id: int | None = None
    version: int | None = None
    selection: Selection | None = None
    update_key: str | None = None
    is_admin: bool = False
    origin: str | None = None


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
    once for the whole handling), the table ``info`` after it (``None``: no table), the
    person's own ``hand`` screen when they sit at a running game (for the selection the
    intent asked for: the same order, and after a move nothing selected), the committed
    ``update`` the others are shown (``None`` when nothing was stored) and, for a refusal,
    the ``error`` (its ``code`` and ``params``)."""

    reply: Reply
    locale: str
    info: TableInfo | None = None
    hand: HandModel | None = None
    update: TableUpdate | None = None
    error: EngineError | None = None

    @property
    def ok(self) -> bool:
        """True when the intent was carried out."""
        return self.reply.ok


Answer = Callable[[Outcome], Awaitable[None]]
"""A front end's way to answer the presser (``answerCallbackQuery``, the interaction
response, the page's reply); the entry point calls it after the commit and before any
other screen is pushed."""
