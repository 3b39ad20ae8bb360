"""One person's hand session and its pure reducer: select, sort, clear and hint give the
next session and its hand model, on every front end alike (Telegram's and Discord's hand
controls through the service's verbs, the web page in its hub, the terminal's ``sort`` and
``hint``).

A session is what a hand screen keeps besides the seat's screen: the display order and
the selected cards (a bit set over that order, :mod:`bot.ports.hand`). The reducer asks
nothing: the seat's screen (:class:`bot.ports.screens.SeatScreen`) already carries the
legal moves and the engine's suggestion, so a toggle or a new order is computed where the
screen is and loads no table.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import assert_never

from bot.i18n import _
from bot.interaction.hand import build_hand_model, mask_of, order_cards, valid_mask
from bot.ports.hand import HandModel, Offer, SortMode
from bot.ports.screens import SeatScreen
from bot.render.hand import hint_text

__all__ = [
    "SORT_WORDS",
    "Clear",
    "HandSession",
    "HandStep",
    "HintFound",
    "SelectCards",
    "ShowHint",
    "SortBy",
    "Stepped",
    "hint_reply",
    "sort_named",
    "step",
]

SORT_WORDS: dict[str, SortMode] = {
    "suit": SortMode.SUIT,
    "farbe": SortMode.SUIT,
    "colour": SortMode.SUIT,  # tiles have colours
    "color": SortMode.SUIT,
    "rank": SortMode.RANK,
    "rang": SortMode.RANK,
    "melds": SortMode.MELDS,
    "meldungen": SortMode.MELDS,
}
"""``sort suit|rank|melds`` (``colour`` for tiles; German: farbe, rang, meldungen);
``sort`` alone cycles."""


def sort_named(word: str | None) -> SortMode | None:
    """The order ``word`` names (any case), or ``None`` (no word, or one not known: the
    Sort button's next order)."""
    return None if word is None else SORT_WORDS.get(word.lower())


@dataclass(frozen=True, slots=True)
class HandSession:
    """The order the hand is shown in and the selected cards (bit ``i``: the ``i``-th card
    shown in that order)."""

    sort: SortMode = SortMode.SUIT
    mask: int = 0


@dataclass(frozen=True, slots=True)
class SelectCards:
    """The whole new selection (a card toggled: the control carries the mask it leads to).
    A mask naming cards the hand does not hold leaves the selection as it was."""

    mask: int


@dataclass(frozen=True, slots=True)
class SortBy:
    """Show the hand in ``sort`` order (``None``: the next order, as the Sort button does);
    the selected cards stay selected."""

    sort: SortMode | None = None


@dataclass(frozen=True, slots=True)
class Clear:
    """Select nothing."""


@dataclass(frozen=True, slots=True)
class ShowHint:
    """Select the cards of the engine's suggestion (one of the legal moves)."""


HandStep = SelectCards | SortBy | Clear | ShowHint
"""Everything a person can do to their hand screen without moving."""


class HintFound(enum.Enum):
    """What a :class:`ShowHint` found: a move (``MOVE``), no move worth suggesting
    (``NONE``: no meld in the hand yet), or nothing because the engine's search did not
    finish in time (``NOT_IN_TIME``)."""

    MOVE = "move"
    NONE = "none"
    NOT_IN_TIME = "not_in_time"


@dataclass(frozen=True, slots=True)
class Stepped:
    """The next ``session``, its hand ``model``, and for a :class:`ShowHint` what it found
    (``hint``: the suggested offer when ``found`` is ``MOVE``)."""

    session: HandSession
    model: HandModel
    found: HintFound | None = None
    hint: Offer | None = None


def step(screen: SeatScreen, session: HandSession, event: HandStep) -> Stepped:
    """The session after ``event`` on ``screen``'s hand, with its model. Pure; call inside
    ``use_locale`` (the model's labels are localised). A mask beyond the hand is cut to the
    hand (:func:`bot.interaction.hand.build_hand_model`)."""
    hand = screen.view.hand
    melds = screen.facts.melds
    match event:
        case SelectCards(mask):
            order = order_cards(hand, session.sort, melds)
            if valid_mask(order, mask):
                session = HandSession(session.sort, mask)
            return _stepped(screen, session)
        case SortBy(wanted):
            before = build_hand_model(screen, mask=session.mask, sort=session.sort)
            sort = wanted if wanted is not None else session.sort.next()
            order = order_cards(hand, sort, melds)
            return _stepped(screen, HandSession(sort, mask_of(order, before.selected)))
        case Clear():
            return _stepped(screen, HandSession(session.sort, 0))
        case ShowHint():
            model = build_hand_model(screen, mask=session.mask, sort=session.sort)
            if not model.complete:
                return Stepped(session, model, HintFound.NOT_IN_TIME)
            if model.hint is None:
                return Stepped(session, model, HintFound.NONE)
            chosen = HandSession(session.sort, model.hint_mask or session.mask)
            return Stepped(chosen, _stepped(screen, chosen).model, HintFound.MOVE, model.hint)
        case _:
            assert_never(event)


def _stepped(screen: SeatScreen, session: HandSession) -> Stepped:
    return Stepped(session, build_hand_model(screen, mask=session.mask, sort=session.sort))


def hint_reply(stepped: Stepped) -> str | None:
    """What a hint step says, in the current language: the suggested move
    (:func:`bot.render.hand.hint_text`), else that the hand holds no meld yet (also when
    the engine found nothing in time: the service refuses that case itself); ``None``
    for a step that was no hint."""
    if stepped.found is None:
        return None
    if stepped.found is HintFound.MOVE and stepped.hint is not None:
        return hint_text(stepped.hint.action, stepped.model.view)
    return _("Hint: no meld in your hand yet.")
