"""The text of a player's private hand message, from the hand model
(:class:`bot.interaction.hand.HandModel`) or, once the game is closed, from the view.

Pure functions; nothing here sends messages or knows a rule: the phase line, the cards
in display order and the selection come from the model.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import _, ngettext
from bot.interaction.hand import HandModel
from bot.render.cards import card_text, cards_text, meld_text
from bot.render.hand import hand_in_order, selection_text, sort_name
from bot.render.text import render_hand_end
from bot.render.variants import variant_table_lines
from engine.cards import Card, sort_cards
from engine.state import Phase
from engine.views import PlayerView

MAX_TEXT = 4096
"""Telegram's message limit (characters)."""


def signature(hand: Sequence[Card]) -> str:
    """The hand in command notation, sorted: what a keyboard was drawn for."""
    return " ".join(str(c) for c in sort_cards(hand))


def hand_text(model: HandModel, title: str, note: str = "") -> str:
    """The private hand message: table name, what the seat may do now, melds, the pile
    (the upcard and stock, or a tile table's own lines: wall, face-up tile, discard row),
    the hand in the model's order, the selection and the order's name."""
    view = model.view
    table = view.table
    lines = [title]
    if table.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
        lines.append(render_hand_end(view))
        return _clip("\n".join(lines))
    lines.append(model.phase_line)
    if table.melds:
        lines.append(_("Melds:"))
        for number, meld in enumerate(table.melds, start=1):
            lines.append(f"  {number}. {table.players[meld.owner]}: {meld_text(meld)}")
    if table.rules.var.uses_tiles:
        lines.append(
            _("Wall: {count}").format(
                count=ngettext("{n} tile", "{n} tiles", table.stock_size).format(n=table.stock_size)
            )
        )
        lines.extend(variant_table_lines(table))
    else:
        upcard = card_text(table.upcard) if table.upcard is not None else "—"
        lines.append(
            _("Upcard: {card} · stock: {count}").format(card=upcard, count=table.stock_size)
        )
        if len(table.discard) > 1:  # a spread pile (Rummy 500): every card may be taken
            lines.append(
                _("Discard pile, top last: {cards}").format(cards=cards_text(table.discard))
            )
    lines.append(hand_in_order(model))
    if model.selected:
        lines.append(selection_text(model.selected))
    tiles = model.view.table.rules.var.uses_tiles
    lines.append(_("Order: {name}").format(name=sort_name(model.sort, tiles)))
    if note:
        lines.append(note)
    return _clip("\n".join(lines))


def ended_text(view: PlayerView, title: str) -> str:
    """The hand message of a game that is no longer running (its last score sheet)."""
    return _clip(f"{title}\n{render_hand_end(view)}")


def closed_text(title: str, reason: str) -> str:
    """The hand message once the table is closed."""
    return _clip(f"{title}\n{reason}")


def _clip(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"
