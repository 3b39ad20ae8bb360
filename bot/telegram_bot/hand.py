"""A player's hand on the keyboard: the card order, the selection bit set, the hand
message text, the hint, and the actions a selection stands for.

Pure functions of an :class:`engine.views.PlayerView`; nothing here sends messages.
The selection is a bit set over the hand *in display order* (bit ``i`` = the ``i``-th
card shown), so the order must be a deterministic function of the hand and the sort
mode: 0 by suit (:func:`engine.cards.sort_cards`), 1 by rank, 2 melds first (the hand's
best melds, found by the service's engine workers and handed in: nothing here searches).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.i18n import _
from bot.interaction.hand import SortMode, order_cards, selected_cards
from bot.render.cards import card_text, cards_text, meld_text
from bot.render.hand import phase_line
from bot.render.text import render_hand, render_hand_end
from bot.telegram_bot import texts
from engine.actions import Action, LayOff, MeldCards
from engine.cards import Card, parse_face, sort_cards
from engine.melds import CardSpec, Meld
from engine.state import Phase
from engine.views import PlayerView

if TYPE_CHECKING:
    from engine.search import Partition

MAX_TEXT = 4096
"""Telegram's message limit (characters)."""


def ordered(hand: Sequence[Card], sort_mode: int, melds: Partition | None = None
            ) -> tuple[Card, ...]:
    """The hand in display order for ``sort_mode`` (0 by suit, 1 by rank, 2 melds first:
    :func:`bot.interaction.hand.order_cards`); melds first needs ``melds`` (the best melds
    of ``hand``), else the hand is ordered by suit."""
    return order_cards(hand, SortMode(sort_mode), melds)


def signature(hand: Sequence[Card]) -> str:
    """The hand in command notation, sorted: what a keyboard was drawn for."""
    return " ".join(str(c) for c in sort_cards(hand))


def selected(order: Sequence[Card], mask: int) -> list[Card]:
    """The selected cards as a list (:func:`bot.interaction.hand.selected_cards`)."""
    return list(selected_cards(order, mask))


def my_turn(view: PlayerView) -> bool:
    """True when the seat is to play (draw or play phase)."""
    return view.table.current == view.seat and view.table.phase in (Phase.DRAW, Phase.PLAY)


# --- actions from a selection ------------------------------------------------------------


def meld_action(seat: int, cards: Sequence[Card], partition: Partition | None) -> Action:
    """The meld the selected ``cards`` stand for: one meld, or, when their best melds
    (``partition``, found by the service's engine workers) use them all in several melds
    (a whole hand going down at once), those melds with their jokers declared."""
    specs = tuple(CardSpec(c) for c in cards)
    if partition is not None and len(partition.melds) > 1 and not partition.deadwood:
        return MeldCards(seat, tuple(partition.melds))
    return MeldCards(seat, (specs,))


def with_joker_faces(action: Action, faces: Sequence[Card]) -> Action:
    """``action`` (a one-group meld or a lay-off) with its jokers declared, in order."""
    pending = list(faces)

    def declare(specs: tuple[CardSpec, ...]) -> tuple[CardSpec, ...]:
        out = []
        for spec in specs:
            if spec.card.is_joker and spec.face is None and pending:
                out.append(CardSpec(spec.card, pending.pop(0)))
            else:
                out.append(spec)
        return tuple(out)

    if isinstance(action, MeldCards):
        return MeldCards(action.seat, tuple(declare(g) for g in action.groups))
    if isinstance(action, LayOff):
        return LayOff(action.seat, declare(action.cards), action.meld)
    return action


def reading_faces(option: str, meld: Meld | None) -> list[Card]:
    """The faces of the *new* jokers in one reading offered by ``AmbiguousJoker``.

    ``option`` is the whole meld as the engine writes it (``"jk=7h 8h 9h"``); for a
    lay-off, ``meld`` is the meld on the table before it, whose jokers are not new.
    Raises ``ValueError`` for an option that is not in card notation.
    """
    faces = []
    for word in option.split():
        spec = CardSpec.parse(word)
        if spec.card.is_joker and spec.face is not None:
            faces.append(spec.face)
    if meld is not None:
        for placed in meld.cards:
            if placed.card.is_joker and placed.face in faces:
                faces.remove(placed.face)
    return faces


def faces_arg(faces: Sequence[Card]) -> str:
    """Joker faces for ``callback_data``: ``7h,8`` (a set's face has no suit)."""
    return ",".join(str(f) for f in faces)


def faces_from_arg(arg: str) -> list[Card]:
    """Inverse of :func:`faces_arg`; raises ``CardParseError`` (a ``ValueError``)."""
    return [parse_face(word) for word in arg.split(",") if word]


# --- the message text ----------------------------------------------------------------------


def hand_text(view: PlayerView, title: str, order: Sequence[Card], mask: int, sort_mode: int,
              note: str = "", melds: Partition | None = None) -> str:
    """The private hand message: table name, turn, melds, upcard, hand, selection."""
    table = view.table
    lines = [title]
    if table.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
        lines.append(render_hand_end(view))
        return _clip("\n".join(lines))
    lines.append(phase_line(view, ()))
    if table.melds:
        lines.append(_("Melds:"))
        for number, meld in enumerate(table.melds, start=1):
            lines.append(f"  {number}. {table.players[meld.owner]}: {meld_text(meld)}")
    upcard = card_text(table.upcard) if table.upcard is not None else "—"
    lines.append(_("Upcard: {card} · stock: {count}").format(card=upcard,
                                                             count=table.stock_size))
    if len(table.discard) > 1:  # a spread pile (Rummy 500): every card may be taken
        lines.append(_("Discard pile, top last: {cards}").format(cards=cards_text(table.discard)))
    lines.append(render_hand(view, melds if sort_mode == 2 else None))
    chosen = selected(order, mask)
    if chosen:
        lines.append(_("Selected: {cards}").format(cards=cards_text(chosen)))
    lines.append(_("Order: {name}").format(name=_(texts.SORT_NAMES[sort_mode])))
    if note:
        lines.append(note)
    return _clip("\n".join(lines))


def closed_text(title: str, reason: str) -> str:
    """The hand message once the table is closed."""
    return _clip(f"{title}\n{reason}")


def _clip(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"
