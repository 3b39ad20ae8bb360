"""Playing in the terminal (``rummy-bot play``): one human seat against AI seats, on the
game service with its own SQLite file, so a game can be left and resumed."""

from __future__ import annotations

from bot.terminal.game import TerminalGame
from bot.terminal.input import AsyncLineReader, LineReader, stream_reader, threaded_reader
from bot.terminal.notifier import TerminalNotifier
from bot.terminal.play import DatabaseUnavailable, play
from bot.terminal.setup import (
    TERMINAL_KEY,
    PlayConfig,
    check_config,
    default_db_path,
    default_name,
    parse_option_pairs,
)

__all__ = [
    "TERMINAL_KEY",
    "AsyncLineReader",
    "DatabaseUnavailable",
    "LineReader",
    "PlayConfig",
    "TerminalGame",
    "TerminalNotifier",
    "check_config",
    "default_db_path",
    "default_name",
    "parse_option_pairs",
    "play",
    "stream_reader",
    "threaded_reader",
]
