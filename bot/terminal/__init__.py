"""Playing in the terminal: a human seat against AI seats (``rummy-bot play``)."""

from __future__ import annotations

from bot.terminal.setup import (
    AI_NAMES,
    PlayConfig,
    build_table,
    default_name,
    parse_option_pairs,
    seat_names,
)
from bot.terminal.table import LineReader, TerminalTable, stream_reader

__all__ = [
    "AI_NAMES",
    "LineReader",
    "PlayConfig",
    "TerminalTable",
    "build_table",
    "default_name",
    "parse_option_pairs",
    "seat_names",
    "stream_reader",
]
