"""The text of the Discord messages: the public table message and a player's hand message.

Built from the platform-neutral screens of :mod:`bot.render` (so only views are read)
and fitted into Discord's 2000 characters per message. Call inside
``use_locale(...)``. Names and event lines are escaped so that a player named
``**x**`` or ``@everyone`` changes neither the layout nor who is notified.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from bot.i18n import _
from bot.interaction.catalogue import variant_name
from bot.interaction.hand import HandModel
from bot.ports.model import Status, TableInfo
from bot.render.hand import hand_in_order, selection_text
from bot.render.lobby import render_lobby
from bot.render.text import render_hand_end, render_scores, render_table
from engine.state import Phase
from engine.views import PublicView

if TYPE_CHECKING:
    pass

#: Discord's limit for a message's content.
CONTENT_LIMIT = 2000

#: How many recent event lines the table message shows.
RECENT_LINES = 6


def escape(text: str) -> str:
    """Text outside code blocks: markdown and mentions escaped."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def block(text: str) -> str:
    """A code block (keeps the table's columns); backticks in names cannot close it."""
    return "```\n" + text.replace("`", "ˋ") + "\n```"


def fit(parts: Sequence[str], optional: Sequence[str] = (), limit: int = CONTENT_LIMIT) -> str:
    """Join ``parts`` with newlines, then as many ``optional`` lines as still fit; cut the
    result to ``limit`` characters (a cut code block is closed again)."""
    text = "\n".join(p for p in parts if p)
    for line in optional:
        if len(text) + 1 + len(line) > limit:
            break
        text += "\n" + line
    if len(text) <= limit:
        return text
    cut = text[: limit - 5].rsplit("\n", 1)[0]
    if cut.count("```") % 2:
        cut += "\n```"
    return cut[: limit - 1] + "…"


def pieces(text: str, limit: int = CONTENT_LIMIT, most: int = 4) -> list[str]:
    """A long answer (the rules, the help) as up to ``most`` messages of at most ``limit``
    characters, split between lines; what does not fit is cut (see :func:`fit`)."""
    out: list[str] = []
    current = ""
    for line in text.split("\n"):
        joined = f"{current}\n{line}" if current else line
        if len(joined) <= limit or not current:
            current = joined
            continue
        out.append(current)
        current = line
    out.append(current)
    out = [fit([piece], limit=limit) for piece in out if piece]
    if len(out) > most:
        out = [*out[: most - 1], fit(["\n".join(out[most - 1 :])], limit=limit)]
    return out or [text]


def table_title(info: TableInfo) -> str:
    """``**Basic Rummy** · table 12``."""
    name = _(variant_name(info.variant))
    return _("**{variant}** · table {number}").format(variant=name, number=info.id)


def table_content(info: TableInfo, view: PublicView | None, recent: Sequence[str]) -> str:
    """The public table message: the lobby, the table during a deal, the score sheet
    between deals and at the end; then the recent events (newest last)."""
    parts = [table_title(info)]
    if view is None:
        parts.append(block(render_lobby(info)))
    elif view.phase is Phase.GAME_OVER:
        parts.append(block(render_hand_end(view)))
        parts.append(block(render_scores(view, winners=False)))
    elif view.phase is Phase.HAND_OVER:
        parts.append(block(render_hand_end(view)))
    elif info.status in (Status.FINISHED, Status.CANCELLED):
        parts.append(block(render_scores(view)))
    else:
        parts.append(block(render_table(view)))
    lines = ["· " + escape(line) for line in recent[-RECENT_LINES:]]
    # The newest lines matter most: keep them when space is short.
    kept: list[str] = []
    budget = CONTENT_LIMIT - len("\n".join(parts)) - 1
    for line in reversed(lines):
        if len(line) + 1 > budget:
            break
        kept.insert(0, line)
        budget -= len(line) + 1
    return fit(parts, kept)


def hand_content(info: TableInfo, model: HandModel, note: str | None = None) -> str:
    """A player's private hand message: title, what to do now (the hand model's phase
    line), the hand in the model's order (melds first: grouped), the selection and a note
    (the answer to the last click)."""
    view = model.view
    parts = [_("**Your hand** · table {number}").format(number=info.id), escape(model.phase_line)]
    if view.table.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
        parts.append(block(render_hand_end(view)))
    else:
        parts.append(block(hand_in_order(model)))
    if model.selected:
        parts.append(selection_text(model.selected))
    if note:
        parts.append(note)
    return fit(parts)
