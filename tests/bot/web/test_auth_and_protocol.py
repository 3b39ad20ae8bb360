"""Units of the web table: Telegram's initData check (as Telegram specifies it), the
signed page sessions, the chat adapters' links, the page's message parser and the
settings that switch the web table on."""

from __future__ import annotations

import hashlib
import hmac
import json
from urllib.parse import parse_qsl, urlencode

import pytest

from bot.ports.model import UserRef
from bot.ports.web_links import (
    activity_enabled,
    mini_app_link,
    table_of_start_param,
    web_app_url,
)
from bot.settings import Settings, SettingsError
from bot.web import WebConfig
from bot.web.auth import AuthRefused
from bot.web.auth.session import SessionSigner, derive_secret
from bot.web.auth.telegram import sign_init_data, validate_init_data
from bot.web.protocol import BadMessage, bits, mask_of_indices, parse_incoming
from bot.web.strings import PAGE_PLURALS, PAGE_STRINGS, page_strings

TOKEN = "123456:ABC-test"
NOW = 1_700_000_000
USER = json.dumps({"id": 42, "first_name": "Ana", "language_code": "de"})


def signed(**fields: str) -> str:
    return sign_init_data({"auth_date": str(NOW), "user": USER, **fields}, TOKEN)


def test_init_data_is_checked_as_telegram_specifies() -> None:
    """core.telegram.org/bots/webapps: secret_key = HMAC_SHA256(<bot_token>, "WebAppData");
    hash = hex(HMAC_SHA256(data_check_string, secret_key)) over the sorted key=value lines
    without ``hash``."""
    fields = {"auth_date": str(NOW), "query_id": "AAE", "user": USER, "start_param": "t9"}
    check = "\n".join(f"{k}={fields[k]}" for k in sorted(fields))
    secret = hmac.new(b"WebAppData", TOKEN.encode(), hashlib.sha256).digest()
    digest = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    data = urlencode({**fields, "hash": digest})
    login = validate_init_data(data, TOKEN, max_age=60, now=NOW + 30)
    assert login.user == UserRef("telegram", "42", "Ana", "de")
    assert login.start_param == "t9" and login.auth_date == NOW
    assert table_of_start_param(login.start_param) == 9


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (signed().replace("Ana", "Eve"), "forged"),
        (sign_init_data({"auth_date": str(NOW), "user": USER}, "999:other"), "forged"),
        (signed() + "&extra=1", "forged"),
        ("", "malformed"),
        ("a=1&a=2&hash=x", "malformed"),
        (signed().replace(str(NOW), str(NOW - 3601)), "forged"),
    ],
)
def test_bad_init_data_is_refused(data: str, code: str) -> None:
    with pytest.raises(AuthRefused) as refused:
        validate_init_data(data, TOKEN, max_age=3600, now=NOW)
    assert refused.value.code == code


def test_init_data_expires_after_the_setting() -> None:
    data = signed()
    assert validate_init_data(data, TOKEN, max_age=3600, now=NOW + 3600).user.user_id == "42"
    for now in (NOW + 3601, NOW - 61):
        with pytest.raises(AuthRefused) as refused:
            validate_init_data(data, TOKEN, max_age=3600, now=now)
        assert refused.value.code == "expired"


def test_a_signed_hash_changes_with_every_field() -> None:
    data = dict(parse_qsl(signed(start_param="t1")))
    other = dict(parse_qsl(signed(start_param="t2")))
    assert data["hash"] != other["hash"]


def test_sessions_name_one_person_and_table() -> None:
    signer = SessionSigner(derive_secret("a", "b"), seconds=60)
    ana = UserRef("telegram", "1", "ana", "de")
    token = signer.issue(ana, 7, now=NOW)
    session = signer.read(token, now=NOW + 59)
    assert session.user == ana and session.table_id == 7
    with pytest.raises(AuthRefused, match="expired"):
        signer.read(token, now=NOW + 61)
    with pytest.raises(AuthRefused, match="forged"):
        SessionSigner(derive_secret("a", "c")).read(token, now=NOW)
    payload, mac = token.split(".")
    with pytest.raises(AuthRefused):
        signer.read(payload[:-2] + "xx." + mac, now=NOW)
    assert derive_secret("a", "b") != derive_secret("a", None)


def test_links_need_the_web_table() -> None:
    config = WebConfig("https://rummy.example.org", telegram_token=TOKEN).links()
    assert mini_app_link(config, "RummyBot", 12) == "https://t.me/RummyBot?startapp=t12"
    assert web_app_url(config, 12) == "https://rummy.example.org/web/tg/?t=12"
    assert not activity_enabled(config)
    assert mini_app_link(None, "RummyBot", 12) is None and web_app_url(None, 12) is None
    assert mini_app_link(config, "no spaces!", 1) is None
    discord = WebConfig(
        "https://x.example", discord_token="t", discord_client_id="1", discord_client_secret="s"
    ).links()
    assert activity_enabled(discord) and web_app_url(discord, 1) is None
    assert table_of_start_param("x12") is None and table_of_start_param("t") is None


def test_settings_switch_the_web_table_on() -> None:
    assert WebConfig.from_settings(Settings(telegram_token=TOKEN)) is None
    config = WebConfig.from_settings(
        Settings(telegram_token=TOKEN, web_base_url="https://r.example/")
    )
    assert config is not None and config.pages_url == "https://r.example/web"
    env = Settings.from_env(
        {
            "WEB_BASE_URL": "https://r.example",
            "DISCORD_CLIENT_ID": "12",
            "DISCORD_CLIENT_SECRET": "hush-9f3",
            "WEB_AUTH_MAX_AGE": "600",
        },
        env_file=None,
    )
    assert env.web_auth_max_age == 600 and "hush-9f3" not in repr(env)
    for bad in (
        {"WEB_BASE_URL": "http://r.example"},
        {"DISCORD_CLIENT_ID": "abc"},
        {"WEB_AUTH_MAX_AGE": "5"},
    ):
        with pytest.raises(SettingsError) as error:
            Settings.from_env(bad, env_file=None)
        assert error.value.variable == next(iter(bad))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "[]",
        '{"type": "boom", "table": 1}',
        '{"type": "select"}',
        '{"type": "select", "table": -1}',
        '{"type": "select", "table": 1, "selected": [300]}',
        '{"type": "select", "table": 1, "sort": "colour"}',
        '{"type": "offer", "table": 1, "version": 3, "offer": 0}',
        '{"type": "select", "table": true}',
        "x" * 5000,
    ],
)
def test_bad_messages_do_not_parse(text: str) -> None:
    with pytest.raises(BadMessage):
        parse_incoming(text)


def test_a_selection_is_a_list_of_indices() -> None:
    message = parse_incoming(
        '{"type": "select", "table": 3, "version": 9, "selected": [0, 2, 60], "sort": "rank"}'
    )
    assert message.mask == 1 | 4 | 1 << 60 and bits(message.mask) == [0, 2, 60]
    assert mask_of_indices(bits(12345)) == 12345


def test_the_page_strings_exist_in_both_languages() -> None:
    german = page_strings("de-AT")["strings"]
    english = page_strings("fr")["strings"]
    assert isinstance(german, dict) and isinstance(english, dict)
    plurals = {form for pair in PAGE_PLURALS for form in pair}
    assert set(german) == set(english) == set(PAGE_STRINGS) | plurals
    assert german["{rank} of {suit}"] == "{suit} {rank}" and german["queen"] == "Dame"
    # counts in both forms, from the chats' plural entries ("1 Karte", "2 Karten")
    assert (german["{n} card"], german["{n} cards"]) == ("{n} Karte", "{n} Karten")
    assert (english["{n} tile"], english["{n} tiles"]) == ("{n} tile", "{n} tiles")
    assert english["queen"] == "queen"


def test_a_lobby_step_names_its_action_and_an_ai_seats_level() -> None:
    step = parse_incoming('{"type": "lobby", "table": 3, "action": "addbot", "level": "expert"}')
    assert (step.type, step.action, step.level) == ("lobby", "addbot", "expert")
    assert parse_incoming('{"type": "lobby", "table": 3, "action": "join"}').level is None
    for bad, field in (
        ('{"type": "lobby", "table": 3}', "action"),
        ('{"type": "lobby", "table": 3, "action": "cancel"}', "action"),
        ('{"type": "lobby", "table": 3, "action": "addbot", "level": "god"}', "level"),
        ('{"type": "lobby", "table": 3, "action": "join", "level": "hard"}', "level"),
    ):
        with pytest.raises(BadMessage) as refused:
            parse_incoming(bad)
        assert str(refused.value) == field
