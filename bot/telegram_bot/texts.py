"""Telegram-only texts: button labels, alerts, command descriptions, pings.

English msgids marked with ``N_``; translate with ``_`` inside ``use_locale``.
Everything the game itself says comes from :mod:`bot.render`.
"""

from __future__ import annotations

import html
from collections.abc import Mapping

from bot.i18n import N_, _

#: Bot commands shown in Telegram's menu (``setMyCommands``), in menu order.
COMMANDS: tuple[tuple[str, str], ...] = (
    ("new", N_("Open a table in this chat")),
    ("join", N_("Join the table")),
    ("leave", N_("Leave the table")),
    ("start", N_("Start the game (host)")),
    ("addbot", N_("Add an AI player (host)")),
    ("settings", N_("Show or change the table settings (host)")),
    ("cancel", N_("Cancel the game (host or admin)")),
    ("hand", N_("Send me my hand privately")),
    ("rules", N_("The rules of this table")),
    ("stats", N_("Your games and wins")),
    ("top", N_("Best players in this chat")),
    ("season", N_("Start a new rating season in this chat (host or admin)")),
    ("replay", N_("Step through the finished deals of the game here")),
    ("help", N_("How to play with this bot")),
    ("lang", N_("Your language: en, de or auto")),
    ("coach", N_("Your costliest moves after each deal, privately: on or off")),
)

LABELS: Mapping[str, str] = {
    "join": N_("Join"),
    "leave": N_("Leave"),
    "start": N_("Start"),
    "my_hand": N_("My hand"),
    "next_deal": N_("Next deal"),
    "take_deeper": N_("Take deeper"),
    "sort": N_("Sort"),
    "hint": N_("Hint"),
    "clear": N_("Clear"),
    "back": N_("Back"),
    "start_me": N_("Start me"),
}
"""Button action -> English label."""

CALLBACK_ALERTS: Mapping[str, str] = {
    "malformed": N_("I cannot read this button. Send /hand for a fresh keyboard."),
    "stale": N_("This keyboard is out of date; I have refreshed it. Please try again."),
    "ended": N_("This game is over."),
    "foreign": N_("This button belongs to another table or player."),
}
"""Alert texts for buttons that cannot be carried out (:mod:`bot.telegram_bot.callbacks`)."""


def label(action: str, **params: str) -> str:
    """The localised label of a button action."""
    return _(LABELS[action]).format(**params)


def alert(code: str) -> str:
    """The localised alert for a refused button (``code`` of a ``CallbackError``)."""
    return _(CALLBACK_ALERTS.get(code, CALLBACK_ALERTS["malformed"]))


def mention(user_id: int, name: str) -> str:
    """An HTML mention that notifies the user: ``<a href="tg://user?id=1">Ana</a>``."""
    return f'<a href="tg://user?id={user_id}">{html.escape(name, quote=False)}</a>'


def turn_ping(user_id: int, name: str) -> str:
    """HTML: the player's turn, mentioning them."""
    return _("{player}, it is your turn.").format(player=mention(user_id, name))


def timer_ping(user_id: int, name: str, seconds: int) -> str:
    """HTML: the player's turn time runs out soon."""
    return _("{player}, your turn ends in {seconds} s.").format(
        player=mention(user_id, name), seconds=seconds
    )


def start_me_line(names: str) -> str:
    """The table message's note for players the bot cannot write to yet."""
    return _(
        "I cannot write to {names} yet: open me with the Start me button and press "
        "Start, then you are in."
    ).format(names=names)


def welcome() -> str:
    """The answer to /start without a table."""
    return _(
        "Hello! I deal Rummy in groups. Add me to a group and send /new there; your "
        "cards and buttons arrive here in this chat."
    )


def joined_privately(title: str) -> str:
    """The private answer to a deep-link /start that seated the user."""
    return _(
        "You are at the table in {title}. Your cards arrive here when the game starts."
    ).format(title=title)


def private_only_in_groups() -> str:
    """A table verb sent in the private chat."""
    return _("Open or join tables in a group: add me to a group and send /new there.")


def chosen_table(title: str) -> str:
    """Prefix of a private reply when the user sits at several tables."""
    return _("(table: {title})").format(title=title)


def sent_privately() -> str:
    """Group answer when the reply went to the private chat."""
    return _("I have sent it to you privately.")


def write_me_first(name: str) -> str:
    """Group answer when a private reply cannot be delivered."""
    return _("{name}, I cannot write to you privately yet: press Start me, then Start.").format(
        name=name
    )


def settings_usage() -> str:
    """Help line under the settings shown by /settings."""
    return _("Change with /settings name=value, e.g. /settings timer=2m deals=3.")


def hint_text(text: str) -> str:
    """The hint alert."""
    return _("Hint: {hint}").format(hint=text)


def table_title(title: str | None, table_id: int) -> str:
    """How a private message names its table: the group's title and the table number."""
    if title:
        return _("{title} · table {number}").format(title=title, number=table_id)
    return _("Table {number}").format(number=table_id)
