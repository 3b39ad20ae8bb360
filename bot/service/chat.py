"""Chat text commands, shared by every adapter: one parser from a chat line to a service
call, so ``/new 500 jokers=off`` means the same on Telegram, Discord and in the terminal.

Table verbs: ``new [variant] [preset] [option=value ...]``, ``join``, ``leave``,
``addbot [greedy|random]``, ``removebot [seat]``, ``set name=value ...``, ``start``,
``cancel``, ``back``, ``lang [en|de|auto]``, ``stats``, ``top``, ``export``,
``hand``, ``rules``, ``help``. Every other line is a game command of
:mod:`engine.commands` (``draw``, ``meld 7h 8h 9h``, ...) and goes to
:meth:`GameService.act`. German aliases work for the table verbs too.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import N_, _, normalize_locale, use_locale
from bot.i18n.errors import localize_error
from bot.render.lobby import render_lobby
from bot.render.text import render_hand, render_help, render_rules
from bot.service.errors import BadSetting, NoTable, NotFinished
from bot.service.model import ChatKey, Status, UserRef
from bot.service.service import GameService
from engine.errors import CommandError, EngineError
from engine.rules import make_rules
from engine.variants import VARIANTS

TABLE_VERBS: dict[str, str] = {
    "new": "new", "neu": "new",
    "join": "join", "beitreten": "join", "mitspielen": "join",
    "leave": "leave", "verlassen": "leave",
    "addbot": "addbot", "addai": "addbot", "ki": "addbot",
    "removebot": "removebot", "removeai": "removebot",
    "set": "set", "settings": "set", "einstellungen": "set",
    "start": "start", "los": "start",
    "cancel": "cancel", "abbrechen": "cancel",
    "back": "back", "zurück": "back", "zurueck": "back",
    "lang": "lang", "sprache": "lang", "language": "lang",
    "stats": "stats", "statistik": "stats",
    "top": "top", "rangliste": "top",
    "export": "export",
    "hand": "hand",
    "rules": "rules", "regeln": "rules",
    "help": "help", "hilfe": "help",
}


@dataclass(frozen=True, slots=True)
class Reply:
    """What to answer the user: ``text`` (localised) and whether only they may see it
    (``private``: an ephemeral message or the private chat). ``None`` text: nothing to say,
    the table message shows the change."""

    text: str | None
    private: bool = False
    ok: bool = True


class NotNameValue(CommandError):
    """``new`` / ``set`` with a word that is not ``name=value``."""

    code = "not_name_value"
    template = "{verb}: '{word}' is not name=value"


MAX_COMMAND = 1000
"""Characters of one command line: every reply that repeats a word of it (a bad option,
the settings changed) stays small, whatever a client sends."""


class CommandTooLong(CommandError):
    """A command line longer than :data:`MAX_COMMAND` characters."""

    code = "command_too_long"
    template = "that command is too long (at most {limit} characters)"


class NotSeatNumber(CommandError):
    """``removebot`` with a word that is not a seat number."""

    code = "not_seat_number"
    template = "'{word}' is not a seat number"


def split_new_args(words: Sequence[str]) -> tuple[str, str | None, dict[str, str]]:
    """``new`` arguments -> (variant, preset, options): ``500 jokers=off``,
    ``basic beginner ace=high_or_low``, ``wrotham`` (a preset of basic) or nothing.

    Raises ``RuleOptionError`` for an unknown variant or preset word.
    """
    variant, preset, options = "basic", None, {}
    rest = list(words)
    if rest and "=" not in rest[0]:
        word = rest.pop(0).lower()
        if word in VARIANTS:
            variant = word
        else:
            preset = word
            for var in VARIANTS.values():
                if word in var.presets:
                    variant = var.id
                    break
    if rest and "=" not in rest[0] and preset is None:
        preset = rest.pop(0).lower()
    for word in rest:
        name, sep, value = word.partition("=")
        if not sep or not name:
            raise NotNameValue(verb="new", word=word)
        options[name.lower()] = value
    make_rules(variant, preset, options)
    return variant, preset, options


async def handle_text(service: GameService, key: ChatKey, user: UserRef, text: str,
                      update_key: str | None = None, is_admin: bool = False) -> Reply:
    """Run one chat line for ``user`` in chat ``key`` and say what to answer.

    Never raises for bad input: refusals come back as a localised, private
    ``Reply(ok=False)``. The reply is in the user's language.
    """
    locale = await service.locale_of(user)
    with use_locale(locale):
        try:
            return await _dispatch(service, key, user, text, update_key, is_admin)
        except EngineError as error:
            return Reply(localize_error(error), private=True, ok=False)


async def _dispatch(service: GameService, key: ChatKey, user: UserRef, text: str,
                    update_key: str | None, is_admin: bool) -> Reply:
    if len(text) > MAX_COMMAND:
        raise CommandTooLong(limit=MAX_COMMAND)
    body = text.strip()
    if body[:1] in ("/", "!"):
        body = body[1:]
    words = body.split()
    if not words:
        return Reply(_("Type help for the commands."), private=True, ok=False)
    head = words[0].split("@", 1)[0].lower()  # Telegram: /join@RummyBot
    verb = TABLE_VERBS.get(head)
    args = words[1:]
    if verb is None:
        await service.act(key, user, " ".join([head, *args]), update_key)
        return Reply(None)
    if verb == "new":
        variant, preset, options = split_new_args(args)
        info = await service.new_table(key, user, variant, preset, options)
        return Reply(render_lobby(info))
    if verb == "join":
        await service.join(key, user, update_key)
        return Reply(None)
    if verb == "leave":
        await service.leave(key, user, update_key)
        return Reply(None)
    if verb == "addbot":
        await service.add_ai(key, user, args[0].lower() if args else "greedy", update_key)
        return Reply(None)
    if verb == "removebot":
        seat = _seat_number(args)
        await service.remove_ai(key, user, seat, update_key)
        return Reply(None)
    if verb == "set":
        changes = _pairs("set", args)
        await service.configure(key, user, changes, update_key)
        return Reply(None)
    if verb == "start":
        await service.start(key, user, update_key)
        return Reply(None)
    if verb == "cancel":
        await service.cancel(key, user, is_admin, update_key)
        return Reply(None)
    if verb == "back":
        await service.back(key, user, update_key)
        return Reply(None)
    if verb == "lang":
        return await _lang(service, user, args)
    if verb == "stats":
        stats = await service.stats(user)
        return Reply(_("{name}: {games} games, {wins} won.").format(name=user.name, **stats),
                     private=True)
    if verb == "top":
        return Reply(await _top(service, key))
    if verb == "export":
        ended = await service.latest_ended(key)
        if ended is None:
            running = await service.table_info(key)
            if running is not None and running.status is Status.PLAYING:
                raise NotFinished()
            raise NoTable()
        record = await service.export(ended.id)
        return Reply(json.dumps(record, ensure_ascii=False), private=True)
    if verb == "hand":
        _info, view = await service.player_view(key, user)
        return Reply(render_hand(view, grouped=bool(args and args[0] in ("melds", "grouped"))),
                     private=True)
    if verb == "rules":
        table = await service.table_info(key)
        if table is None:
            return Reply(_(_RULES_HINT), private=True)
        return Reply(render_rules(make_rules(table.variant, table.preset, dict(table.options))),
                     private=True)
    current = await service.table_info(key)
    return Reply(render_help(args[0] if args else None,
                             None if current is None else current.variant)
                 + "\n\n" + _(_TABLE_HELP), private=True)


_RULES_HINT = N_("There is no game here; new [variant] [preset] opens one.")
_TABLE_HELP = N_("Table: new [variant] [preset] [option=value], join, leave, addbot, "
                 "removebot, set option=value, start, cancel, back, lang de|en, stats, top, "
                 "export.")


def _seat_number(args: Sequence[str]) -> int | None:
    if not args:
        return None
    word = args[0]
    # ASCII digits only: "²".isdigit() is True, yet int("²") fails; seats are small numbers
    if not (word.isascii() and word.isdigit()) or len(word) > 9:
        raise NotSeatNumber(word=word)
    return int(word)


def _pairs(verb: str, args: Sequence[str]) -> dict[str, str]:
    changes = {}
    for word in args:
        name, sep, value = word.partition("=")
        if not sep or not name or not value:
            raise NotNameValue(verb=verb, word=word)
        changes[name.lower()] = value
    if not changes:
        raise NotNameValue(verb=verb, word="")
    return changes


async def _lang(service: GameService, user: UserRef, args: Sequence[str]) -> Reply:
    if not args or args[0].lower() in ("auto", "platform"):
        await service.set_locale(user, None)
        with use_locale(normalize_locale(user.locale)):
            return Reply(_("Language: from your app settings."), private=True)
    word = args[0].lower()
    if word[:2] not in ("en", "de"):
        raise BadSetting(name="lang", value=word, accepts="en, de, auto")
    locale = normalize_locale(word)
    await service.set_locale(user, locale)
    with use_locale(locale):
        return Reply(_("Language: English."), private=True)


async def _top(service: GameService, key: ChatKey) -> str:
    rows = await service.leaderboard(key, 10)
    if not rows:
        return _("No finished games here yet.")
    lines = [_("Best players here:")]
    for rank, row in enumerate(rows, start=1):
        lines.append(_("{rank}. {name}: {wins} won of {games}").format(rank=rank, **row))
    return "\n".join(lines)
