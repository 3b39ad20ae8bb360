"""Runtime settings read from the environment and an optional ``.env`` file.

Every variable is documented in ``.env.example``. Values in the process environment win
over the ``.env`` file, even an empty one; a variable that is present but empty
(``DISCORD_TOKEN=``) counts as unset and gets its default.

:class:`Settings` is a pydantic-settings model: its sources (the environment, the
``.env`` file read with python-dotenv) and the type conversion are the library's; this
module adds the rules of each variable and turns pydantic's errors into localized lines
(:class:`SettingsError`).

>>> settings = Settings.from_env({"LOG_LEVEL": "debug"}, env_file=None)
>>> settings.log_level, settings.default_timer
('DEBUG', '24h')
"""

from __future__ import annotations

import logging
import os
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal
from urllib.parse import urlsplit

from pydantic import (
    AliasGenerator,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic.fields import FieldInfo
from pydantic_core import ErrorDetails
from pydantic_settings import (
    BaseSettings,
    DotEnvSettingsSource,
    EnvSettingsSource,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from bot.i18n import N_, SUPPORTED_LOCALES, _, is_supported_locale, normalize_locale

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

TIMER_CHOICES: Final[tuple[TimerSetting, ...]] = typing.get_args(TimerSetting)
"""Allowed values of ``DEFAULT_TIMER``, shortest to longest."""

TIMER_SECONDS: Final[Mapping[TimerSetting, int | None]] = {
    "off": None,
    "30s": 30,
    "2m": 2 * 60,
    "10m": 10 * 60,
    "24h": 24 * 60 * 60,
}
"""Turn time limit in seconds for each timer setting (``None``: no limit)."""

LogLevel = Literal["CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG"]

LOG_LEVELS: Final[tuple[str, ...]] = typing.get_args(LogLevel)
"""Allowed values of ``LOG_LEVEL`` (case-insensitive in the environment)."""


class SettingsError(ValueError):
    """Settings are missing or invalid: one localized line per bad variable, each naming it.

    ``variable`` holds the first offending environment variable (or field) name,
    ``variables`` all of them in the order of the lines.
    """

    def __init__(
        self, variable: str, message: str, variables: tuple[str, ...] | None = None
    ) -> None:
        super().__init__(message)
        self.variable = variable
        self.variables = variables or (variable,)


class _Invalid(ValueError):
    """Raised by a validator: ``text`` is the localized message, to be formatted with the
    variable's name, the value given (unless ``fields`` has one) and ``fields``."""

    def __init__(self, text: str, **fields: object) -> None:
        super().__init__(text)
        self.text = text
        self.fields = fields


def _variable_name(field: str) -> str:
    """The environment variable of field ``field`` (its validation alias)."""
    return field.upper()


class _Environment(EnvSettingsSource):
    """pydantic-settings' environment source reading ``environ`` instead of ``os.environ``
    (the tests hand in a mapping)."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str]) -> None:
        self._environ = dict(environ)
        super().__init__(settings_cls)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        return self._environ


class Settings(BaseSettings):
    """Validated, immutable bot configuration.

    Build it with :meth:`from_env`; direct construction (``Settings(log_level="DEBUG")``)
    takes the given values and the defaults, reads no environment, and is validated the
    same way (raises :class:`SettingsError` naming the field). Tokens and the database URL
    are left out of ``repr`` so that logging the settings never leaks them.
    """

    model_config = SettingsConfigDict(
        frozen=True,
        # the environment variable of a field is its name in capitals, matched exactly
        alias_generator=AliasGenerator(validation_alias=_variable_name),
        validate_by_name=True,
        validate_by_alias=True,
        case_sensitive=True,
        # an empty value in the environment still wins over the .env file (then means unset)
        env_ignore_empty=False,
        env_file=None,
        # other variables of the environment and the .env file (PORT, ...) are not ours
        extra="ignore",
        hide_input_in_errors=True,
    )

    discord_token: str | None = Field(default=None, repr=False)
    """Discord bot token (``DISCORD_TOKEN``); ``None`` disables the Discord adapter."""

    telegram_token: str | None = Field(default=None, repr=False)
    """Telegram bot token (``TELEGRAM_TOKEN``); ``None`` disables the Telegram adapter."""

    database_path: Path = Path("rummy.sqlite3")
    """SQLite database file (``DATABASE_PATH``), relative to the working directory."""

    database_url: str | None = Field(default=None, repr=False)
    """PostgreSQL server (``DATABASE_URL``, ``postgresql://user:password@host/db``) for
    several workers sharing one database; ``None``: the SQLite file above."""

    worker_id: str | None = None
    """This worker's name in the leases on due work (``WORKER_ID``, several workers on
    PostgreSQL, cut to 64 characters): a restarted worker of the same name takes its own
    leases back at once instead of waiting for them to run out; ``None``: a random name
    per process."""

    log_level: LogLevel = "INFO"
    """Root log level name (``LOG_LEVEL``), one of :data:`LOG_LEVELS`."""

    default_timer: TimerSetting = "24h"
    """Turn timer for new games (``DEFAULT_TIMER``); 24h suits casual async play."""

    default_locale: str = "en"
    """Language for players/chats without a preference (``DEFAULT_LOCALE``)."""

    discord_guild_id: int | None = Field(default=None, gt=0)
    """If set, slash commands are synced to this guild only (fast, for development)."""

    discord_shard_count: int | None = Field(default=None, ge=1, le=1_000_000)
    """Shards of the Discord bot in all (``DISCORD_SHARD_COUNT``; Discord requires them
    from 2,500 servers); ``None``: one connection, no sharding."""

    discord_shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = None
    """The shards this process runs (``DISCORD_SHARD_IDS``, e.g. ``0,1``; sorted, each
    once), so shards can be spread over processes; ``None``: all of them."""

    telegram_webhook_url: str | None = None
    """Public https URL for Telegram webhooks; ``None`` means long polling."""

    web_base_url: str | None = None
    """Public https URL under which the web table (``bot/web``) is reached
    (``WEB_BASE_URL``, e.g. ``https://rummy.example.org``; a TLS proxy in front of
    ``$PORT``); ``None``: no web table and no web button anywhere."""

    web_auth_max_age: int = Field(default=86400, ge=60, le=30 * 86400)
    """Seconds a Telegram Mini App's signed ``initData`` stays valid after its
    ``auth_date`` (``WEB_AUTH_MAX_AGE``, 60 s to 30 days; default one day)."""

    web_sockets_per_session: int = Field(default=4, ge=1, le=100)
    """Pages one person may have open at one table at once (``WEB_SOCKETS_PER_SESSION``,
    1-100); a further one is refused (close code 4003)."""

    web_signin_per_address: int = Field(default=10, ge=1, le=10_000)
    """Discord sign-in calls a minute from one address (``WEB_SIGNIN_PER_ADDRESS``);
    beyond it a sign-in is refused without asking Discord (HTTP 429)."""

    web_signin_per_minute: int = Field(default=120, ge=1, le=100_000)
    """Discord sign-in calls a minute in all (``WEB_SIGNIN_PER_MINUTE``)."""

    http_max_connections: int = Field(default=0, ge=0, le=1_000_000)
    """Connections the HTTP server (webhook and web table) holds at once
    (``HTTP_MAX_CONNECTIONS``); 0: the descriptor limit (``ulimit -n``) less
    :attr:`http_descriptor_reserve`. A connection beyond it is answered 503 and closed."""

    http_descriptor_reserve: int = Field(default=128, ge=16, le=100_000)
    """Descriptors kept free of HTTP connections for the database, the engine workers and
    the platforms' clients (``HTTP_DESCRIPTOR_RESERVE``)."""

    http_per_address: int = Field(default=64, ge=0, le=1_000_000)
    """Connections at once from one remote address (``HTTP_PER_ADDRESS``); 0: no such
    limit (set 0 behind a proxy: every connection then comes from the proxy)."""

    http_header_timeout: float = Field(default=10.0, ge=1, le=600, allow_inf_nan=False)
    """Seconds a connection may go without a request under way (``HTTP_HEADER_TIMEOUT``):
    headers that arrive slower, and idle keep-alive connections, are closed."""

    discord_client_id: str | None = None
    """The Discord application's client id (``DISCORD_CLIENT_ID``) for the Activity's
    OAuth2 sign-in; with :attr:`discord_client_secret` and :attr:`web_base_url` the
    Discord table gets its Activity."""

    discord_client_secret: str | None = Field(default=None, repr=False)
    """The Discord application's OAuth2 client secret (``DISCORD_CLIENT_SECRET``)."""

    engine_workers: int | None = Field(default=None, ge=1, le=64)
    """Worker processes for engine work (``ENGINE_WORKERS``, 1-64); ``None``: the CPU
    count, at least 2 and at most 4 (:func:`bot.service.compute.default_workers`)."""

    engine_budget: float = Field(default=2.0, ge=0.1, le=60, allow_inf_nan=False)
    """Seconds one engine call (a move, an AI decision, a hint, the legal-move list) may
    take before it is given up (``ENGINE_BUDGET``, 0.1-60)."""

    first_game_guide: bool = True
    """Guide people through their first game of a variant (``FIRST_GAME_GUIDE``, on or
    off): what they can do now and what to type, and the rule behind the first refusal of
    a kind (:mod:`bot.render.guide`)."""

    coach: bool = True
    """The coach after each deal (``COACH``, on or off): the moves where the expert's
    alternative was clearly better, privately, to the people who want it (``coach on``,
    and by default in their first three games of a variant; :mod:`bot.service.coaching`).
    Its reviews run on the engine workers' background lane."""

    if not TYPE_CHECKING:  # keep the typed signature pydantic gives type checkers

        def __init__(self, **values: Any) -> None:
            try:
                super().__init__(**values)
            except ValidationError as error:
                raise _settings_error(error) from None

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Direct construction reads only the values given: the environment and the
        ``.env`` file are :meth:`from_env`'s."""
        return (init_settings,)

    @classmethod
    def from_env(
        cls,
        environ: Mapping[str, str] | None = None,
        env_file: Path | None = Path(".env"),
    ) -> Settings:
        """Read settings from ``environ`` (default ``os.environ``) and ``env_file``.

        ``env_file`` is read by pydantic-settings (python-dotenv) if it exists (a missing
        file is ignored; ``None`` skips it). A variable set in ``environ`` wins over the
        file, even if empty; empty values mean "use the default". Values are stripped of
        surrounding whitespace; ``LOG_LEVEL`` and ``DEFAULT_TIMER`` may be in any case,
        ``DEFAULT_LOCALE`` may carry a region (``de-AT``).

        Raises :class:`SettingsError` (a ``ValueError``) with one line per bad variable,
        each naming it, e.g. ``DEFAULT_TIMER must be one of: ...``.
        """
        environment = _Environment(cls, os.environ if environ is None else environ)
        dotenv = DotEnvSettingsSource(cls, env_file=env_file)
        values = {**dotenv(), **environment()}
        # by variable name only (the errors name the variables): the .env source hands on
        # the file's other lines too, and a lower-case "log_level=" would pass as the field
        return cls(**{name: values[name] for name in ENV_VARIABLES if name in values})

    @model_validator(mode="before")
    @classmethod
    def _blank_is_unset(cls, values: Any) -> Any:
        """Strip every text value; an empty one counts as not given (the default)."""
        if not isinstance(values, dict):
            return values
        stripped = {
            key: value.strip() if isinstance(value, str) else value for key, value in values.items()
        }
        return {key: value for key, value in stripped.items() if value != ""}

    @field_validator("log_level", "default_timer", mode="before")
    @classmethod
    def _any_case(cls, value: Any, info: ValidationInfo) -> Any:
        """``debug`` -> ``DEBUG``, ``OFF`` -> ``off``."""
        if not isinstance(value, str):
            return value
        choices = LOG_LEVELS if info.field_name == "log_level" else TIMER_CHOICES
        return next((choice for choice in choices if choice.lower() == value.lower()), value)

    @field_validator("default_locale")
    @classmethod
    def _supported_locale(cls, value: str) -> str:
        """A language with a catalogue, in any region or case (``de-AT`` -> ``de``)."""
        if not is_supported_locale(value):
            raise _Invalid(_(_CHOICE), choices=", ".join(SUPPORTED_LOCALES))
        return normalize_locale(value)

    @field_validator("discord_token", "telegram_token")
    @classmethod
    def _token_without_whitespace(cls, value: str | None) -> str | None:
        if value is not None and any(char.isspace() for char in value):
            raise _Invalid(_("{variable} must not contain whitespace."))
        return value

    @field_validator("database_path")
    @classmethod
    def _expand_home(cls, value: Path) -> Path:
        return value.expanduser()

    @field_validator("database_url")
    @classmethod
    def _postgres_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("postgresql://", "postgres://")):
            # the part after "@" only: the message must not show a password
            raise _Invalid(
                _("{variable} must start with postgresql:// (got {value!r})."),
                value=value.split("@")[-1],
            )
        return value

    @field_validator("worker_id", mode="before")
    @classmethod
    def _cut_worker_id(cls, value: Any) -> Any:
        return value[:64] if isinstance(value, str) else value

    @field_validator("discord_shard_ids", mode="before")
    @classmethod
    def _comma_separated(cls, value: Any) -> Any:
        """``"3, 1"`` -> ``["3", "1"]`` (pydantic then reads the numbers)."""
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("discord_shard_ids")
    @classmethod
    def _shards_below_count(
        cls, value: tuple[int, ...] | None, info: ValidationInfo
    ) -> tuple[int, ...] | None:
        """Shard numbers from 0 to ``DISCORD_SHARD_COUNT`` - 1, which they need."""
        if value is None or "discord_shard_count" not in info.data:
            return value  # a bad count has its own line
        count = info.data["discord_shard_count"]
        if count is None:
            raise _Invalid(_("{variable} needs DISCORD_SHARD_COUNT."))
        ids = tuple(sorted(set(value)))
        if not ids or any(not 0 <= shard < count for shard in ids):
            raise _Invalid(
                _("{variable} must list shard numbers from 0 to {last} (got {value!r})."),
                last=count - 1,
            )
        return ids

    @field_validator("telegram_webhook_url")
    @classmethod
    def _https_url(cls, value: str | None) -> str | None:
        """An absolute https URL (Telegram requires it)."""
        if value is not None:
            parts = urlsplit(value)
            if parts.scheme != "https" or not parts.hostname:
                raise _Invalid(_("{variable} must be an https:// URL (got {value!r})."))
        return value

    @field_validator("web_base_url")
    @classmethod
    def _https_base(cls, value: str | None) -> str | None:
        """An absolute https URL without a query; a trailing slash is dropped."""
        if value is not None:
            parts = urlsplit(value)
            if parts.scheme != "https" or not parts.hostname or parts.query or parts.fragment:
                raise _Invalid(_("{variable} must be an https:// URL (got {value!r})."))
            return value.rstrip("/")
        return value

    @field_validator("discord_client_id")
    @classmethod
    def _snowflake(cls, value: str | None) -> str | None:
        """A Discord id: digits only."""
        if value is not None and not value.isdigit():
            raise _Invalid(_("{variable} must be a positive integer (got {value!r})."))
        return value

    @field_validator("discord_client_secret")
    @classmethod
    def _secret_without_whitespace(cls, value: str | None) -> str | None:
        if value is not None and any(char.isspace() for char in value):
            raise _Invalid(_("{variable} must not contain whitespace."))
        return value

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


ENV_VARIABLES: Final[tuple[str, ...]] = tuple(
    _variable_name(name) for name in Settings.model_fields
)
"""Names of all environment variables read by :meth:`Settings.from_env`."""


def _not_set(variable: str) -> str:
    """Message for a required variable that is missing."""
    return _("{variable} is not set. Set it in the environment or in the .env file.").format(
        variable=variable
    )


_CHOICE = N_("{variable} must be one of: {choices} (got {value!r}).")


def _line(error: ErrorDetails) -> tuple[str, str]:
    """``(variable, localized line)`` for one of pydantic's errors. The variable is the
    error's location: the field's name for direct construction, its environment variable
    for :meth:`Settings.from_env`; the value is the one given."""
    variable = str(error["loc"][0]) if error["loc"] else "Settings"
    field = Settings.model_fields.get(variable.lower(), FieldInfo())
    value = error.get("input")
    text, fields = _template(error, field)
    if isinstance(value, list | tuple):  # DISCORD_SHARD_IDS as the validator saw it
        value = ",".join(str(part) for part in value)
    return variable, text.format(**{"variable": variable, "value": value, **fields})


def _template(error: ErrorDetails, field: FieldInfo) -> tuple[str, dict[str, object]]:
    """The localized line for pydantic's ``error`` on ``field``, its ``{variable}`` and
    ``{value}`` still to fill, and the further fields it names (bounds, choices)."""
    kind = error["type"]
    if kind == "value_error" and isinstance(error.get("ctx", {}).get("error"), _Invalid):
        return error["ctx"]["error"].text, error["ctx"]["error"].fields
    if kind == "greater_than":  # discord_guild_id, the one field with gt=0
        return _("{variable} must be a positive integer (got {value!r})."), {}
    if kind in ("greater_than_equal", "less_than_equal"):
        return _("{variable} must be between {low} and {high} (got {value!r})."), {
            "low": next(item.ge for item in field.metadata if hasattr(item, "ge")),
            "high": next(item.le for item in field.metadata if hasattr(item, "le")),
        }
    if kind == "literal_error":
        return _(_CHOICE), {"choices": ", ".join(typing.get_args(field.annotation))}
    return _type_text(kind), {}


def _type_text(kind: str) -> str:
    """The localized line for a value of the wrong type (pydantic's error ``kind``)."""
    if kind.startswith("bool_"):
        return _("{variable} must be on or off (got {value!r}).")
    if kind.startswith("int_"):
        return _("{variable} must be an integer (got {value!r}).")
    if kind.startswith("float_") or kind == "finite_number":
        return _("{variable} must be a number (got {value!r}).")
    return _("{variable} has an invalid value.")  # a list where a text belongs, ...


def _settings_error(error: ValidationError) -> SettingsError:
    """One :class:`SettingsError` with a line per bad variable (its first problem)."""
    lines: dict[str, str] = {}
    for detail in error.errors(include_url=False):
        variable, line = _line(detail)
        lines.setdefault(variable, line)
    variables = tuple(lines)
    return SettingsError(variables[0], "\n".join(lines.values()), variables)
