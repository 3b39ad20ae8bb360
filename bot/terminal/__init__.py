"""The terminal front end (``rummy-bot play``): one human seat against AI seats, on the
game service with its own SQLite file, so a game can be left and resumed. The command's
composition (the database, the service, set-up and resume) is :mod:`bot.play`."""

from __future__ import annotations

from bot.terminal.game import TerminalGame
from bot.terminal.input import AsyncLineReader, LineReader, stream_reader, threaded_reader
from bot.terminal.notifier import TerminalNotifier
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
    "LineReader",
    "PlayConfig",
    "TerminalGame",
    "TerminalNotifier",
    "check_config",
    "default_db_path",
    "default_name",
    "parse_option_pairs",
    "stream_reader",
    "threaded_reader",
]
