"""Where the chat adapters send people to open the web table (:class:`WebLinks`, handed to
them in their :class:`bot.ports.host.Host`; ``None`` when the web table is off).

- Telegram, the group's table message: a URL button to the bot's Main Mini App,
  :func:`mini_app_link` (``https://t.me/<bot>?startapp=t12``; the Main Mini App is set up
  in BotFather, docs/web.md); Telegram then opens :attr:`WebLinks.pages_url` ``/tg/`` with
  ``start_param=t12`` in the signed ``initData``.
- Telegram, the private hand message: an inline ``web_app`` button
  (``InlineKeyboardButton(text, web_app=WebAppInfo(url))``) with :func:`web_app_url`.
- Discord, under the table message and the hand: a button whose press answers the
  interaction with ``interaction.response.launch_activity()`` (discord.py >= 2.6) when
  :func:`activity_enabled`; the Activity opens the URL mapping's root, which docs/web.md
  maps to :attr:`WebLinks.pages_url` ``/dc/``, and finds the table from the activity
  instance's channel.

Every function returns ``None`` when the web table is not configured (no button then).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.i18n import _

__all__ = [
    "START_PREFIX",
    "WebLinks",
    "activity_enabled",
    "button_text",
    "mini_app_link",
    "replay_app_url",
    "replay_button_text",
    "replay_link",
    "replay_of_start_param",
    "start_param",
    "table_of_start_param",
    "web_app_url",
]


@dataclass(frozen=True, slots=True)
class WebLinks:
    """The web table as the chat adapters see it: ``pages_url``, the public URL of its
    pages (``https://rummy.example.org/web``), and which platforms can sign in there."""

    pages_url: str
    telegram: bool = False
    discord: bool = False


START_PREFIX = "t"
"""A Mini App start parameter names a table as ``t<id>``."""

REPLAY_PREFIX = "r"
"""A Mini App start parameter names the replay of a table as ``r<id>``."""

_USERNAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{3,31}$")


def start_param(table_id: int) -> str:
    """``t12``: the ``startapp`` parameter naming table 12."""
    return f"{START_PREFIX}{table_id}"


def table_of_start_param(param: str | None) -> int | None:
    """12 for ``t12``; ``None`` for anything else."""
    if param and param.startswith(START_PREFIX) and param[1:].isdigit() and len(param) < 20:
        return int(param[1:])
    return None


def replay_of_start_param(param: str | None) -> int | None:
    """12 for ``r12`` (the replay of table 12); ``None`` for anything else."""
    if param and param.startswith(REPLAY_PREFIX) and param[1:].isdigit() and len(param) < 20:
        return int(param[1:])
    return None


def mini_app_link(config: WebLinks | None, bot_username: str, table_id: int) -> str | None:
    """``https://t.me/<bot>?startapp=t<table>``: the group's link to the bot's Main Mini
    App on that table; ``None`` without a web table or a Telegram sign-in, or for a name
    that is no bot username."""
    if config is None or not config.telegram or not _USERNAME.match(bot_username):
        return None
    return f"https://t.me/{bot_username}?startapp={start_param(table_id)}"


def web_app_url(config: WebLinks | None, table_id: int) -> str | None:
    """The URL of a ``web_app`` button on table ``table_id`` (a private chat's hand
    message); ``None`` without a web table or a Telegram sign-in."""
    if config is None or not config.telegram:
        return None
    return f"{config.pages_url}/tg/?t={table_id}"


def replay_link(config: WebLinks | None, bot_username: str, table_id: int) -> str | None:
    """``https://t.me/<bot>?startapp=r<table>``: a group's link to the replay of a table's
    finished deals in the bot's Main Mini App; ``None`` as :func:`mini_app_link`."""
    link = mini_app_link(config, bot_username, table_id)
    return (
        None if link is None else f"https://t.me/{bot_username}?startapp={REPLAY_PREFIX}{table_id}"
    )


def replay_app_url(config: WebLinks | None, table_id: int) -> str | None:
    """The URL of a private chat's ``web_app`` button on the replay of table ``table_id``;
    ``None`` without a web table or a Telegram sign-in."""
    if config is None or not config.telegram:
        return None
    return f"{config.pages_url}/tg/?r={table_id}"


def activity_enabled(config: WebLinks | None) -> bool:
    """True when Discord's table and hand messages get the Activity button."""
    return config is not None and config.discord


def button_text() -> str:
    """The web button's label in the current language ("Open the table" / "Tisch
    öffnen"); call inside ``use_locale``."""
    return _("Open the table")


def replay_without_web() -> str:
    """Where a replay goes when the bot has no web table (call inside ``use_locale``)."""
    return _(
        "This bot has no web table to replay in; once the game is over, export its record "
        "(export) and step through it with rummy-bot replay FILE --step."
    )


def replay_button_text() -> str:
    """The replay button's label in the current language ("Replay" / "Wiederholung");
    call inside ``use_locale``."""
    return _("Replay")
