"""Tests for bot.settings: defaults, .env loading, precedence and validation errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.i18n import use_locale
from bot.settings import ENV_VARIABLES, TIMER_CHOICES, Settings, SettingsError

REPO_ROOT = Path(__file__).resolve().parents[2]


def write_env(tmp_path: Path, text: str) -> Path:
    env_file = tmp_path / ".env"
    env_file.write_text(text, encoding="utf-8")
    return env_file


def test_defaults_without_any_configuration(tmp_path: Path) -> None:
    settings = Settings.from_env({}, env_file=tmp_path / "missing.env")
    assert settings == Settings()
    assert settings.discord_token is None
    assert settings.telegram_token is None
    assert settings.database_path == Path("rummy.sqlite3")
    assert settings.log_level == "INFO"
    assert settings.log_level_number == 20
    assert settings.default_timer == "24h"
    assert settings.default_timer_seconds == 24 * 60 * 60
    assert settings.default_locale == "en"
    assert settings.discord_guild_id is None
    assert settings.telegram_webhook_url is None


def test_env_file_none_is_skipped() -> None:
    assert Settings.from_env({}, env_file=None) == Settings()


def test_reads_every_variable_from_env_file(tmp_path: Path) -> None:
    env_file = write_env(
        tmp_path,
        "\n".join(
            [
                "# comment",
                "DISCORD_TOKEN=discord-secret",
                "TELEGRAM_TOKEN='123456:telegram-secret'",
                "DATABASE_PATH=data/games.sqlite3",
                "LOG_LEVEL=debug",
                "DEFAULT_TIMER=2m",
                "DEFAULT_LOCALE=de-DE",
                "DISCORD_GUILD_ID=123456789012345678",
                'TELEGRAM_WEBHOOK_URL="https://example.org/telegram"',
            ]
        ),
    )
    settings = Settings.from_env({}, env_file=env_file)
    assert settings == Settings(
        discord_token="discord-secret",
        telegram_token="123456:telegram-secret",
        database_path=Path("data/games.sqlite3"),
        log_level="DEBUG",
        default_timer="2m",
        default_locale="de",
        discord_guild_id=123456789012345678,
        telegram_webhook_url="https://example.org/telegram",
    )
    assert settings.default_timer_seconds == 120


def test_environment_wins_over_env_file(tmp_path: Path) -> None:
    env_file = write_env(tmp_path, "LOG_LEVEL=DEBUG\nDEFAULT_TIMER=30s\nDISCORD_TOKEN=from-file\n")
    settings = Settings.from_env({"LOG_LEVEL": "WARNING", "DISCORD_TOKEN": ""}, env_file=env_file)
    assert settings.log_level == "WARNING"  # environment wins
    assert settings.default_timer == "30s"  # only in the file
    # Present-but-empty in the environment still wins, and empty means unset.
    assert settings.discord_token is None


def test_other_lines_of_the_env_file_are_ignored(tmp_path: Path) -> None:
    """Only the variables of ENV_VARIABLES, spelled as there: PORT (for the webhook) and a
    lower-case name are not settings."""
    env_file = write_env(tmp_path, "PORT=8443\ndiscord_token=lower-case\nLOG_LEVEL=ERROR\n")
    settings = Settings.from_env({"telegram_token": "1:lower"}, env_file=env_file)
    assert (settings.discord_token, settings.telegram_token) == (None, None)
    assert settings.log_level == "ERROR"


def test_defaults_to_os_environ(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for variable in ENV_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("DEFAULT_TIMER", "OFF")
    settings = Settings.from_env(env_file=tmp_path / "missing.env")
    assert settings.default_timer == "off"
    assert settings.default_timer_seconds is None


def test_default_env_file_is_dot_env_in_working_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    write_env(tmp_path, "DEFAULT_LOCALE=de\n")
    monkeypatch.chdir(tmp_path)
    assert Settings.from_env({}).default_locale == "de"


def test_whitespace_is_stripped() -> None:
    settings = Settings.from_env({"LOG_LEVEL": " error ", "DISCORD_TOKEN": " abc "}, env_file=None)
    assert settings.log_level == "ERROR"
    assert settings.discord_token == "abc"


@pytest.mark.parametrize("timer", TIMER_CHOICES)
def test_all_timer_choices_are_accepted(timer: str) -> None:
    assert Settings.from_env({"DEFAULT_TIMER": timer}, env_file=None).default_timer == timer


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("LOG_LEVEL", "verbose"),
        ("DEFAULT_TIMER", "5m"),
        ("DEFAULT_TIMER", "24"),
        ("DEFAULT_LOCALE", "fr"),
        ("DISCORD_GUILD_ID", "my-guild"),
        ("DISCORD_GUILD_ID", "12.5"),
        ("DISCORD_GUILD_ID", "0"),
        ("DISCORD_GUILD_ID", "-5"),
        ("TELEGRAM_WEBHOOK_URL", "http://example.org/hook"),
        ("TELEGRAM_WEBHOOK_URL", "example.org/hook"),
        ("TELEGRAM_WEBHOOK_URL", "https://"),
        ("DISCORD_TOKEN", "two words"),
        ("TELEGRAM_TOKEN", "a\tb"),
    ],
)
def test_bad_values_raise_naming_the_variable(variable: str, value: str) -> None:
    with pytest.raises(SettingsError) as excinfo:
        Settings.from_env({variable: value}, env_file=None)
    assert excinfo.value.variable == variable
    assert variable in str(excinfo.value)
    assert isinstance(excinfo.value, ValueError)


def test_bad_value_in_env_file_names_the_variable(tmp_path: Path) -> None:
    env_file = write_env(tmp_path, "DEFAULT_TIMER=1h\n")
    with pytest.raises(
        SettingsError, match=r"DEFAULT_TIMER must be one of: off, 30s, 2m, 10m, 24h"
    ):
        Settings.from_env({}, env_file=env_file)


def test_error_message_is_translated() -> None:
    with use_locale("de"), pytest.raises(SettingsError) as excinfo:
        Settings.from_env({"DISCORD_GUILD_ID": "abc"}, env_file=None)
    assert str(excinfo.value) == "DISCORD_GUILD_ID muss eine ganze Zahl sein (erhalten: 'abc')."


def test_direct_construction_is_validated() -> None:
    with pytest.raises(SettingsError, match="default_timer"):
        Settings(default_timer="1h")  # type: ignore[arg-type]
    with pytest.raises(SettingsError, match="log_level"):
        Settings(log_level="verbose")  # type: ignore[arg-type]
    with pytest.raises(SettingsError, match="default_locale"):
        Settings(default_locale="fr")
    with pytest.raises(SettingsError, match="discord_guild_id"):
        Settings(discord_guild_id=0)
    # the same rules as for the environment: any case, a locale's region dropped
    settings = Settings(log_level="debug", default_locale="de-DE")  # type: ignore[arg-type]
    assert (settings.log_level, settings.default_locale) == ("DEBUG", "de")


def test_direct_construction_reads_no_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("TELEGRAM_TOKEN", "123:from-environment")
    write_env(tmp_path, "LOG_LEVEL=DEBUG\n")
    monkeypatch.chdir(tmp_path)
    assert Settings().telegram_token is None
    assert Settings().log_level == "INFO"


def test_every_bad_variable_gets_its_own_line() -> None:
    env = {
        "LOG_LEVEL": "loud",
        "ENGINE_WORKERS": "0",
        "DISCORD_TOKEN": "a b",
        "DEFAULT_TIMER": "2m",
    }
    with pytest.raises(SettingsError) as excinfo:
        Settings.from_env(env, env_file=None)
    assert excinfo.value.variables == ("DISCORD_TOKEN", "LOG_LEVEL", "ENGINE_WORKERS")
    assert str(excinfo.value).splitlines() == [
        "DISCORD_TOKEN must not contain whitespace.",
        "LOG_LEVEL must be one of: CRITICAL, ERROR, WARNING, INFO, DEBUG (got 'loud').",
        "ENGINE_WORKERS must be between 1 and 64 (got '0').",
    ]
    with use_locale("de"), pytest.raises(SettingsError) as excinfo:
        Settings.from_env(env, env_file=None)
    assert str(excinfo.value).splitlines() == [
        "DISCORD_TOKEN darf keine Leerzeichen enthalten.",
        "LOG_LEVEL muss einer der folgenden Werte sein: CRITICAL, ERROR, WARNING, INFO, DEBUG "
        "(erhalten: 'loud').",
        "ENGINE_WORKERS muss zwischen 1 und 64 liegen (erhalten: '0').",
    ]


def test_a_bad_database_url_is_named_without_its_password() -> None:
    with pytest.raises(SettingsError) as excinfo:
        Settings.from_env({"DATABASE_URL": "mysql://rummy:s3cret@db.example/rummy"}, env_file=None)
    assert (
        str(excinfo.value) == "DATABASE_URL must start with postgresql:// (got 'db.example/rummy')."
    )
    assert "s3cret" not in repr(Settings(database_url="postgresql://rummy:s3cret@db/rummy"))


def test_settings_are_frozen_and_hide_tokens() -> None:
    settings = Settings(discord_token="discord-secret", telegram_token="telegram-secret")
    with pytest.raises(ValidationError, match="frozen"):
        settings.log_level = "DEBUG"  # type: ignore[misc]
    assert settings.log_level == "INFO"
    assert "secret" not in repr(settings)


def test_require_tokens() -> None:
    settings = Settings(discord_token="d")
    assert settings.require_discord_token() == "d"
    with pytest.raises(SettingsError, match="TELEGRAM_TOKEN is not set"):
        settings.require_telegram_token()


def test_env_example_documents_every_variable() -> None:
    lines = (REPO_ROOT / ".env.example").read_text(encoding="utf-8").splitlines()
    for variable in ENV_VARIABLES:
        index = next((i for i, line in enumerate(lines) if line.startswith(f"{variable}=")), None)
        assert index is not None, f".env.example lacks {variable}="
        assert index > 0 and lines[index - 1].startswith("#"), (
            f".env.example: {variable} needs a comment line above it"
        )


def test_env_example_parses_to_valid_settings() -> None:
    Settings.from_env({}, env_file=REPO_ROOT / ".env.example")
