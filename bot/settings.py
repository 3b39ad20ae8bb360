"""Runtime settings read from the environment and an optional ``.env`` file.

Every variable is documented in ``.env.example``. Values in the process
environment win over the ``.env`` file. A variable that is present but empty
(``DISCORD_TOKEN=``) counts as unset and gets its default.

>>> settings = Settings.from_env({"LOG_LEVEL": "debug"}, env_file=None)
>>> settings.log_level, settings.default_timer
('DEBUG', '24h')
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal
from urllib.parse import urlsplit

from dotenv import dotenv_values

from bot.i18n import SUPPORTED_LOCALES, _, is_supported_locale, normalize_locale

__all__ = [
    "ENV_VARIABLES",
    "LOG_LEVELS",
    "TIMER_CHOICES",
    "TIMER_SECONDS",
    "Settings",
    "SettingsError",
    "TimerSetting",
]

TimerSetting = Literal["off", "30s", "2m", "10m", "24h"]
"""Per-turn time limit: off, or 30 seconds, 2 minutes, 10 minutes, 24 hours."""

TIMER_CHOICES: Final[tuple[TimerSetting, ...]] = ("off", "30s", "2m", "10m", "24h")
"""Allowed values of ``DEFAULT_TIMER``, shortest to longest."""

TIMER_SECONDS: Final[Mapping[TimerSetting, int | None]] = {
    "off": None,
    "30s": 30,
    "2m": 2 * 60,
    "10m": 10 * 60,
    "24h": 24 * 60 * 60,
}
"""Turn time limit in seconds for each timer setting (``None``: no limit)."""

LOG_LEVELS: Final[tuple[str, ...]] = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")
"""Allowed values of ``LOG_LEVEL`` (case-insensitive in the environment)."""

ENV_VARIABLES: Final[tuple[str, ...]] = (
    "DISCORD_TOKEN",
    "TELEGRAM_TOKEN",
    "DATABASE_PATH",
    "DATABASE_URL",
    "WORKER_ID",
    "LOG_LEVEL",
    "DEFAULT_TIMER",
    "DEFAULT_LOCALE",
    "DISCORD_GUILD_ID",
    "DISCORD_SHARD_COUNT",
    "DISCORD_SHARD_IDS",
    "TELEGRAM_WEBHOOK_URL",
    "ENGINE_WORKERS",
    "ENGINE_BUDGET",
)
"""Names of all environment variables read by :meth:`Settings.from_env`."""


class SettingsError(ValueError):
    """A setting is missing or invalid; the message names the variable.

    ``variable`` holds the offending environment variable (or field) name.
    """

    def __init__(self, variable: str, message: str) -> None:
        super().__init__(message)
        self.variable = variable


@dataclass(frozen=True, slots=True)
class Settings:
    """Validated, immutable bot configuration.

    Build it with :meth:`from_env`; direct construction is for tests and is
    validated too (raises :class:`SettingsError` naming the field). Tokens are
    left out of ``repr`` so that logging the settings never leaks them.
    """

    discord_token: str | None = field(default=None, repr=False)
    """Discord bot token (``DISCORD_TOKEN``); ``None`` disables the Discord adapter."""

    telegram_token: str | None = field(default=None, repr=False)
    """Telegram bot token (``TELEGRAM_TOKEN``); ``None`` disables the Telegram adapter."""

    database_path: Path = Path("rummy.sqlite3")
    """SQLite database file (``DATABASE_PATH``), relative to the working directory."""

    worker_id: str | None = None
    """This worker's name in the leases on due work (``WORKER_ID``, several workers on
    PostgreSQL): a restarted worker of the same name takes its own leases back at once
    instead of waiting for them to run out; ``None``: a random name per process."""

    database_url: str | None = field(default=None, repr=False)
    """PostgreSQL server (``DATABASE_URL``, ``postgresql://user:password@host/db``) for
    several workers sharing one database; ``None``: the SQLite file above."""

    log_level: str = "INFO"
    """Root log level name (``LOG_LEVEL``), one of :data:`LOG_LEVELS`."""

    default_timer: TimerSetting = "24h"
    """Turn timer for new games (``DEFAULT_TIMER``); 24h suits casual async play."""

    default_locale: str = "en"
    """Language for players/chats without a preference (``DEFAULT_LOCALE``)."""

    discord_guild_id: int | None = None
    """If set, slash commands are synced to this guild only (fast, for development)."""

    discord_shard_count: int | None = None
    """Shards of the Discord bot in all (``DISCORD_SHARD_COUNT``; Discord requires them
    from 2,500 servers); ``None``: one connection, no sharding."""

    discord_shard_ids: tuple[int, ...] | None = None
    """The shards this process runs (``DISCORD_SHARD_IDS``, e.g. ``0,1``), so shards can
    be spread over processes; ``None``: all of them."""

    telegram_webhook_url: str | None = None
    """Public https URL for Telegram webhooks; ``None`` means long polling."""

    engine_workers: int | None = None
    """Worker processes for engine work (``ENGINE_WORKERS``, 1-64); ``None``: the CPU
    count, at least 2 and at most 4 (:func:`bot.service.compute.default_workers`)."""

    engine_budget: float = 2.0
    """Seconds one engine call (a move, an AI decision, a hint, the legal-move list) may
    take before it is given up (``ENGINE_BUDGET``, 0.1-60)."""

    def __post_init__(self) -> None:
        """Check field invariants; raises :class:`SettingsError` naming the field."""
        if self.log_level not in LOG_LEVELS:
            raise SettingsError(
                "log_level", _invalid_choice("log_level", self.log_level, LOG_LEVELS)
            )
        if self.default_timer not in TIMER_CHOICES:
            raise SettingsError(
                "default_timer", _invalid_choice("default_timer", self.default_timer, TIMER_CHOICES)
            )
        if self.default_locale not in SUPPORTED_LOCALES:
            raise SettingsError(
                "default_locale",
                _invalid_choice("default_locale", self.default_locale, SUPPORTED_LOCALES),
            )
        if self.engine_workers is not None and not 1 <= self.engine_workers <= 64:
            raise SettingsError("engine_workers", _range("engine_workers",
                                                         self.engine_workers, 1, 64))
        if not 0.1 <= self.engine_budget <= 60:
            raise SettingsError("engine_budget", _range("engine_budget", self.engine_budget,
                                                        0.1, 60))
        if self.discord_guild_id is not None and self.discord_guild_id <= 0:
            raise SettingsError(
                "discord_guild_id",
                _("{variable} must be a positive integer (got {value!r}).").format(
                    variable="discord_guild_id", value=self.discord_guild_id
                ),
            )

    @classmethod
    def from_env(
        cls,
        environ: Mapping[str, str] | None = None,
        env_file: Path | None = Path(".env"),
    ) -> Settings:
        """Read settings from ``environ`` (default ``os.environ``) and ``env_file``.

        ``env_file`` is parsed with python-dotenv's ``dotenv_values`` if it
        exists (a missing file is ignored; ``None`` skips it). A variable set in
        ``environ`` wins over the file, even if empty; empty values mean
        "use the default". Values are stripped of surrounding whitespace.

        Raises :class:`SettingsError` (a ``ValueError``) whose message names the
        offending variable, e.g. ``DEFAULT_TIMER must be one of: ...``.
        """
        values: dict[str, str] = {}
        if env_file is not None and env_file.is_file():
            for key, value in dotenv_values(env_file).items():
                if value is not None:
                    values[key] = value
        values.update(os.environ if environ is None else environ)

        def get(variable: str) -> str | None:
            raw = values.get(variable)
            if raw is None:
                return None
            raw = raw.strip()
            return raw or None

        guild_id = _parse_int("DISCORD_GUILD_ID", get("DISCORD_GUILD_ID"))
        if guild_id is not None and guild_id <= 0:
            raise SettingsError(
                "DISCORD_GUILD_ID",
                _("{variable} must be a positive integer (got {value!r}).").format(
                    variable="DISCORD_GUILD_ID", value=get("DISCORD_GUILD_ID")
                ),
            )

        database = get("DATABASE_PATH")
        url = get("DATABASE_URL")
        if url and not url.startswith(("postgresql://", "postgres://")):
            raise SettingsError("DATABASE_URL", _(
                "{variable} must start with postgresql:// (got {value!r}).").format(
                    variable="DATABASE_URL", value=url.split("@")[-1]))
        shard_count = _parse_int("DISCORD_SHARD_COUNT", get("DISCORD_SHARD_COUNT"))
        shard_ids = _parse_shard_ids(get("DISCORD_SHARD_IDS"), shard_count)
        workers = _parse_int("ENGINE_WORKERS", get("ENGINE_WORKERS"))
        if workers is not None and not 1 <= workers <= 64:
            raise SettingsError("ENGINE_WORKERS", _range("ENGINE_WORKERS", workers, 1, 64))
        budget = _parse_float("ENGINE_BUDGET", get("ENGINE_BUDGET"), 2.0)
        if not 0.1 <= budget <= 60:
            raise SettingsError("ENGINE_BUDGET", _range("ENGINE_BUDGET", budget, 0.1, 60))
        return cls(
            discord_token=_parse_token("DISCORD_TOKEN", get("DISCORD_TOKEN")),
            telegram_token=_parse_token("TELEGRAM_TOKEN", get("TELEGRAM_TOKEN")),
            database_path=Path(database).expanduser() if database else Path("rummy.sqlite3"),
            database_url=url or None,
            worker_id=(get("WORKER_ID") or "").strip()[:64] or None,
            log_level=_parse_log_level(get("LOG_LEVEL")),
            default_timer=_parse_timer(get("DEFAULT_TIMER")),
            default_locale=_parse_locale(get("DEFAULT_LOCALE")),
            discord_guild_id=guild_id,
            discord_shard_count=shard_count,
            discord_shard_ids=shard_ids,
            telegram_webhook_url=_parse_webhook_url(get("TELEGRAM_WEBHOOK_URL")),
            engine_workers=workers,
            engine_budget=budget,
        )

    @property
    def log_level_number(self) -> int:
        """The ``logging`` module's numeric level for :attr:`log_level` (e.g. 20 for INFO)."""
        return logging.getLevelNamesMapping()[self.log_level]

    @property
    def default_timer_seconds(self) -> int | None:
        """Turn time limit of :attr:`default_timer` in seconds, ``None`` for "off"."""
        return TIMER_SECONDS[self.default_timer]

    def require_discord_token(self) -> str:
        """Return the Discord token; raises :class:`SettingsError` if it is not set."""
        if self.discord_token is None:
            raise SettingsError("DISCORD_TOKEN", _not_set("DISCORD_TOKEN"))
        return self.discord_token

    def require_telegram_token(self) -> str:
        """Return the Telegram token; raises :class:`SettingsError` if it is not set."""
        if self.telegram_token is None:
            raise SettingsError("TELEGRAM_TOKEN", _not_set("TELEGRAM_TOKEN"))
        return self.telegram_token


def _invalid_choice(variable: str, value: object, choices: tuple[str, ...]) -> str:
    """Message for a value outside ``choices``."""
    return _("{variable} must be one of: {choices} (got {value!r}).").format(
        variable=variable, choices=", ".join(choices), value=value
    )


def _not_set(variable: str) -> str:
    """Message for a required variable that is missing."""
    return _("{variable} is not set. Set it in the environment or in the .env file.").format(
        variable=variable
    )


def _parse_token(variable: str, raw: str | None) -> str | None:
    """Accept any token without whitespace; raises :class:`SettingsError` otherwise."""
    if raw is not None and any(char.isspace() for char in raw):
        raise SettingsError(
            variable,
            _("{variable} must not contain whitespace.").format(variable=variable),
        )
    return raw


def _parse_shard_ids(raw: str | None, count: int | None) -> tuple[int, ...] | None:
    """``DISCORD_SHARD_IDS``: comma-separated shard numbers below ``DISCORD_SHARD_COUNT``
    (which it needs)."""
    if raw is None or not raw.strip():
        if count is not None and count < 1:
            raise SettingsError("DISCORD_SHARD_COUNT", _range("DISCORD_SHARD_COUNT", count,
                                                               1, 1_000_000))
        return None
    if count is None or count < 1:
        raise SettingsError("DISCORD_SHARD_IDS", _(
            "{variable} needs DISCORD_SHARD_COUNT.").format(variable="DISCORD_SHARD_IDS"))
    ids = tuple(sorted({_parse_int("DISCORD_SHARD_IDS", part.strip()) or 0
                        for part in raw.split(",") if part.strip()}))
    if not ids or any(not 0 <= shard < count for shard in ids):
        raise SettingsError("DISCORD_SHARD_IDS", _(
            "{variable} must list shard numbers from 0 to {last} (got {value!r}).").format(
                variable="DISCORD_SHARD_IDS", last=count - 1, value=raw))
    return ids


def _parse_int(variable: str, raw: str | None) -> int | None:
    """Parse a decimal integer; raises :class:`SettingsError` if ``raw`` is not one."""
    if raw is None:
        return None
    try:
        return int(raw, 10)
    except ValueError:
        raise SettingsError(
            variable,
            _("{variable} must be an integer (got {value!r}).").format(
                variable=variable, value=raw
            ),
        ) from None


def _range(variable: str, value: object, low: float, high: float) -> str:
    """Message for a number outside ``low``..``high``."""
    return _("{variable} must be between {low} and {high} (got {value!r}).").format(
        variable=variable, low=low, high=high, value=value)


def _parse_float(variable: str, raw: str | None, default: float) -> float:
    """Parse a decimal number; raises :class:`SettingsError` if ``raw`` is not one."""
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = float("nan")
    if value != value or value in (float("inf"), float("-inf")):
        raise SettingsError(
            variable,
            _("{variable} must be a number (got {value!r}).").format(
                variable=variable, value=raw
            ),
        )
    return value


def _parse_log_level(raw: str | None) -> str:
    """Upper-case and check ``LOG_LEVEL``; default INFO."""
    if raw is None:
        return "INFO"
    level = raw.upper()
    if level not in LOG_LEVELS:
        raise SettingsError("LOG_LEVEL", _invalid_choice("LOG_LEVEL", raw, LOG_LEVELS))
    return level


def _parse_timer(raw: str | None) -> TimerSetting:
    """Lower-case and check ``DEFAULT_TIMER``; default 24h."""
    if raw is None:
        return "24h"
    for choice in TIMER_CHOICES:
        if choice == raw.lower():
            return choice
    raise SettingsError("DEFAULT_TIMER", _invalid_choice("DEFAULT_TIMER", raw, TIMER_CHOICES))


def _parse_locale(raw: str | None) -> str:
    """Accept "en"/"de" with any region or case ("de-AT" -> "de"); default en."""
    if raw is None:
        return "en"
    if not is_supported_locale(raw):
        raise SettingsError(
            "DEFAULT_LOCALE", _invalid_choice("DEFAULT_LOCALE", raw, SUPPORTED_LOCALES)
        )
    return normalize_locale(raw)


def _parse_webhook_url(raw: str | None) -> str | None:
    """Check that ``TELEGRAM_WEBHOOK_URL`` is an absolute https URL (Telegram requires it)."""
    if raw is None:
        return None
    parts = urlsplit(raw)
    if parts.scheme != "https" or not parts.hostname:
        raise SettingsError(
            "TELEGRAM_WEBHOOK_URL",
            _("{variable} must be an https:// URL (got {value!r}).").format(
                variable="TELEGRAM_WEBHOOK_URL", value=raw
            ),
        )
    return raw
