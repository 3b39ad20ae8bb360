"""What ``rummy-bot play`` was asked for, and the terminal's place in the game service:
its chat key, its one user, its table settings and its database file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.i18n import _
from bot.ports.model import ChatKey, TableSettings, UserRef
from engine.dealing import new_game
from engine.errors import RuleOptionError
from engine.rules import OptionValue, RuleSet, make_rules

__all__ = [
    "PLATFORM",
    "TERMINAL_KEY",
    "USER_KEY",
    "PlayConfig",
    "check_config",
    "default_db_path",
    "default_name",
    "parse_option_pairs",
    "terminal_settings",
    "terminal_user",
]

PLATFORM = "terminal"
"""The platform name of the terminal in the game service."""

TERMINAL_KEY = ChatKey(PLATFORM, "local", "")
"""The terminal's one "chat": a database holds at most one unfinished terminal game."""

USER_KEY = f"{PLATFORM}:local"
"""The user key of the person at the keyboard (whatever name they play under)."""

KEEP_DAYS = 3650.0
"""A stored terminal game waits this many days for its player (the service would end an
idle game after a week, and deal the next hand on its own after a few seconds)."""


@dataclass(frozen=True, slots=True)
class PlayConfig:
    """What ``rummy-bot play`` was asked for.

    ``players``: seats in all, the human included (seat 1). ``options``: rule
    option values as typed (``{"deals": "1"}``). ``ai``: ``greedy`` or
    ``random``. ``delay``: seconds before each AI move. ``seed``: the game
    seed (``None``: random); the service seeds the AIs from it too. ``chosen``: the game
    was named on the command line (variant, preset or options), so a stored game of other
    rules is not resumed without asking.
    """

    variant: str = "basic"
    preset: str | None = None
    players: int = 3
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    seed: int | None = None
    name: str = "Player"
    ai: str = "greedy"
    delay: float = 0.0
    chosen: bool = False


def default_name(environ: Mapping[str, str]) -> str:
    """The login name from ``USER`` / ``USERNAME`` when it is a valid player name, else
    "Player" in the current language ("Spieler")."""
    for variable in ("USER", "USERNAME"):
        name = environ.get(variable, "").strip()
        if name and ":" not in name:
            return name
    return _("Player")


def default_db_path(environ: Mapping[str, str]) -> Path:
    """``$XDG_DATA_HOME/rummy-bot/terminal.sqlite3``; ``XDG_DATA_HOME`` defaults to
    ``~/.local/share`` (a relative value is ignored, as the XDG spec says)."""
    data_home = environ.get("XDG_DATA_HOME", "")
    base = (
        Path(data_home)
        if data_home and Path(data_home).is_absolute()
        else Path.home() / ".local" / "share"
    )
    return base / "rummy-bot" / "terminal.sqlite3"


def check_config(config: PlayConfig) -> RuleSet:
    """The rules of ``config``, checked before anything is stored.

    Raises :class:`engine.errors.RuleOptionError` for an unknown variant, preset
    or option, a bad value, or a player count the variant does not allow.
    """
    rules = make_rules(config.variant, config.preset, dict(config.options))
    # The engine's own seat-count check (a trial deal that is thrown away).
    new_game(rules, [f"seat{n}" for n in range(config.players)], seed=0)
    return rules


def terminal_settings(delay: float) -> TableSettings:
    """Table settings of a terminal game: no turn timer, ``delay`` seconds before each AI
    move, and the next deal only when the player asks for it (``next``). The terminal asks
    the player itself when a call window opens, so the AI does not wait longer then."""
    return TableSettings(
        timer="off",
        ai_delay=max(delay, 0.0),
        call_window=0.0,
        next_deal_delay=KEEP_DAYS * 86400,
        idle_days=KEEP_DAYS,
    )


def terminal_user(name: str, locale: str | None) -> UserRef:
    """The person at the keyboard, playing as ``name``."""
    return UserRef(PLATFORM, "local", name, locale)


def parse_option_pairs(items: Sequence[str]) -> dict[str, str]:
    """``["deals=1", "ace=high_or_low"]`` -> ``{"deals": "1", "ace": "high_or_low"}``.

    Raises :class:`engine.errors.RuleOptionError` (option ``option``) for an item
    without ``=``.
    """
    values: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise RuleOptionError(
                detail=f"option '{item}' needs the form name=value",
                option="option",
                value=item,
                accepts="name=value",
            )
        values[name.strip()] = value.strip()
    return values
