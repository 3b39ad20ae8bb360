"""Colour in the terminal: red suits red, tiles in their colours, where the terminal can
show colour.

Through rich's :class:`rich.console.Console` (it decides from the output: a terminal or
not, ``TERM=dumb``, ``NO_COLOR``, ``FORCE_COLOR``), so a pipe, a file or a test's
``StringIO`` gets the plain text and ``NO_COLOR=1`` turns colour off
(https://no-color.org). Only cards and tiles are coloured; the words stay as they are.
"""

from __future__ import annotations

from typing import TextIO

from rich.console import Console
from rich.text import Text

__all__ = ["Painter"]

_STYLES: tuple[tuple[str, str], ...] = (
    (r"(?:10|[2-9AJQKBD])[♥♦]", "bold red"),
    (r"(?:10|[2-9AJQKBD])[♣♠]", "bold"),
    (r"🔴\d+", "bold red"),
    (r"🟡\d+", "bold yellow"),
    (r"🔵\d+", "bold blue"),
    (r"⚫\d+", "bold"),
)
"""Card and tile patterns of the screens (:func:`bot.render.cards.card_text`) and their
styles."""


class Painter:
    """Colours the card and tile names of text written to ``out`` when ``out`` is a terminal
    that shows colour (and ``NO_COLOR`` is not set); else returns the text unchanged."""

    def __init__(self, out: TextIO) -> None:
        self._console = Console(
            file=out, highlight=False, markup=False, emoji=False, soft_wrap=True
        )
        self.enabled = self._console.color_system is not None and not self._console.no_color

    def paint(self, text: str) -> str:
        """``text`` with ANSI colours around its cards and tiles (or unchanged)."""
        if not self.enabled:
            return text
        styled = Text(text)
        for pattern, style in _STYLES:
            styled.highlight_regex(pattern, style)
        with self._console.capture() as captured:
            self._console.print(styled, end="")
        return captured.get()
