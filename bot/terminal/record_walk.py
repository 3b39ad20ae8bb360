"""``rummy-bot replay FILE --step``: walk a game record move by move in the terminal.

Each position is the public table (:func:`bot.render.text.render_table`) and every hand:
a record holds every card, so nothing is hidden from the person who has it (as people
show their cards after a game). Between positions one line is read: Enter (or ``n``) the
next, ``b`` the one before, ``q`` (or the end of the input) stops.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.i18n import _
from bot.i18n.errors import localize_error
from bot.render.cards import hand_by_suit
from bot.render.events import render_event
from bot.render.text import render_table
from engine.records import ReplayStep, ReplayStopped, replay_steps
from engine.views import public_view

__all__ = ["BACK_WORDS", "QUIT_WORDS", "position_text", "walk_record"]

BACK_WORDS = frozenset({"b", "back", "zurück", "zurueck"})
"""The words that show the position before."""
QUIT_WORDS = frozenset({"q", "quit", "ende"})
"""The words that stop the walk (so does the end of the input)."""


def position_text(step: ReplayStep) -> str:
    """One position of the walk: what happened (the deal's start, or the action line and
    its events), the public table and every hand. Call inside ``use_locale``."""
    state = step.state
    players = list(state.players)
    tiles = state.rules.var.uses_tiles
    if step.line is None:
        lines = [_("Deal {deal} as dealt:").format(deal=step.deal)]
    else:
        lines = [
            _("Deal {deal}, move {number}: {line}").format(
                deal=step.deal, number=step.number, line=step.line
            )
        ]
        lines += [render_event(event, players, tiles=tiles) for event in step.events]
    lines.append(render_table(public_view(state)))
    width = max(len(name) for name in players)
    lines.append(_("Racks:") if tiles else _("Hands:"))
    lines += [
        f"  {name.ljust(width)}  {hand_by_suit(hand) or '—'}"
        for name, hand in zip(players, state.hands, strict=True)
    ]
    return "\n".join(lines)


def walk_record(
    record: Mapping[str, Any],
    read_line: Callable[[], str | None],
    write: Callable[[str], object],
) -> int:
    """Walk ``record`` (see the module docstring), reading with ``read_line`` (``None``:
    the input ended) and writing with ``write``. Returns 0 when the walk ended at the
    person's word or the record's end, 1 when the record has an error (said in one line,
    after the good positions before it)."""
    steps: list[ReplayStep] = []
    walker = replay_steps(record)
    at = 0
    while True:
        while at >= len(steps):
            try:
                steps.append(next(walker))
            except StopIteration:
                write(_("The end of the record."))
                return 0
            except ReplayStopped as stop:
                write(_("The record stops here: {error}").format(error=localize_error(stop.error)))
                return 1
        write(position_text(steps[at]))
        write(_("Enter: next move · b: back · q: quit"))
        word = read_line()
        if word is None or word.strip().lower() in QUIT_WORDS:
            return 0
        at = max(at - 1, 0) if word.strip().lower() in BACK_WORDS else at + 1
