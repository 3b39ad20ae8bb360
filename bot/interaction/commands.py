"""The one command route of every front end: typed text, a slash command, a button and a
terminal line all become a :class:`Command` (verb + typed arguments), run by
:func:`dispatch` through one registry of verbs (:data:`VERBS`: aliases in English and
German, syntax, help text key, handler). The service fills in the seat.

Table verbs: ``new [variant] [preset] [option=value ...]``, ``join``, ``leave``,
``addbot [easy|normal|hard]``, ``removebot [seat]``, ``set name=value ...``, ``start``,
``cancel``, ``back``, ``lang [en|de|auto]``, ``stats``, ``top``, ``export``, ``hand``,
``rules``, ``help``. Every other line is a game command of :mod:`engine.commands`
(``draw``, ``meld 7h 8h 9h``, ...): the verb ``move`` with the line, or with an engine
action when a button carries one, goes to :meth:`GameService.act`.
"""

from __future__ import annotations

import json
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

from bot.i18n import N_, _, normalize_locale, use_locale
from bot.i18n.errors import localize_error
from bot.ports.model import ChatKey, Status, UserRef
from bot.render.guide import refusal_lesson
from bot.render.howto import render_how_to_play, topic_of
from bot.render.lobby import render_lobby
from bot.render.text import render_hand, render_help, render_rules
from bot.service.errors import BadSetting, NoTable, NotFinished
from bot.service.service import GameService
from bot.service.table_rules import table_rules
from engine.actions import LayOff, SwapJoker
from engine.commands import MissingMeldNumber, canonical_verb
from engine.errors import CardParseError, CommandError, EngineError
from engine.melds import CardSpec
from engine.rules import make_rules
from engine.variants import VARIANTS


@dataclass(frozen=True, slots=True)
class Reply:
    """What to answer the user: ``text`` (localised) and whether only they may see it
    (``private``: an ephemeral message or the private chat). ``None`` text: nothing to say,
    the table message shows the change."""

    text: str | None
    private: bool = False
    ok: bool = True
    code: str | None = None
    """The refusal's error code (``invalid_meld`` ...) when ``ok`` is False."""


@dataclass(frozen=True, slots=True)
class Command:
    """One request of a person: the canonical ``verb`` (a key of :data:`VERBS`, or
    ``move``), its words ``args`` and, from a button, the engine ``action`` it stands for
    (its seat is replaced by the person's seat)."""

    verb: str
    args: tuple[str, ...] = ()
    action: object | None = field(default=None, compare=True)


@dataclass(frozen=True, slots=True)
class Context:
    """Who sent a command, where: the chat ``key``, the ``user``, the platform update's
    idempotency key and whether the user administers the chat."""

    service: GameService
    key: ChatKey
    user: UserRef
    update_key: str | None = None
    is_admin: bool = False
    guide: bool = True
    """Explain the rule behind the first refusal of a kind in a person's first game of the
    variant (:func:`bot.render.guide.refusal_lesson`)."""


Handler = Callable[[Context, Command], Awaitable[Reply]]


@dataclass(frozen=True, slots=True)
class Verb:
    """One table verb of the registry: its ``name``, ``aliases`` (English and German),
    the ``syntax`` shown in help, the ``help`` msgid and the ``handler``."""

    name: str
    aliases: tuple[str, ...]
    syntax: str
    help: str
    handler: Handler


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


# --- handlers ---------------------------------------------------------------------------


async def _new(ctx: Context, command: Command) -> Reply:
    variant, preset, options = split_new_args(command.args)
    info = await ctx.service.new_table(ctx.key, ctx.user, variant, preset, options)
    return Reply(render_lobby(info))


async def _join(ctx: Context, command: Command) -> Reply:
    await ctx.service.join(ctx.key, ctx.user, ctx.update_key)
    return Reply(None)


async def _leave(ctx: Context, command: Command) -> Reply:
    await ctx.service.leave(ctx.key, ctx.user, ctx.update_key)
    return Reply(None)


async def _addbot(ctx: Context, command: Command) -> Reply:
    level = command.args[0] if command.args else None
    await ctx.service.add_ai(ctx.key, ctx.user, level or "normal", ctx.update_key)
    return Reply(None)


async def _removebot(ctx: Context, command: Command) -> Reply:
    await ctx.service.remove_ai(ctx.key, ctx.user, _seat_number(command.args), ctx.update_key)
    return Reply(None)


async def _set(ctx: Context, command: Command) -> Reply:
    await ctx.service.configure(ctx.key, ctx.user, _pairs("set", command.args), ctx.update_key)
    return Reply(None)


async def _start(ctx: Context, command: Command) -> Reply:
    await ctx.service.start(ctx.key, ctx.user, ctx.update_key)
    return Reply(None)


async def _cancel(ctx: Context, command: Command) -> Reply:
    await ctx.service.cancel(ctx.key, ctx.user, ctx.is_admin, ctx.update_key)
    return Reply(None)


async def _back(ctx: Context, command: Command) -> Reply:
    await ctx.service.back(ctx.key, ctx.user, ctx.update_key)
    return Reply(None)


async def _lang(ctx: Context, command: Command) -> Reply:
    args = command.args
    if not args or args[0].lower() in ("auto", "platform"):
        await ctx.service.set_locale(ctx.user, None)
        with use_locale(normalize_locale(ctx.user.locale)):
            return Reply(_("Language: from your app settings."), private=True)
    word = args[0].lower()
    if word[:2] not in ("en", "de"):
        raise BadSetting(name="lang", value=word, accepts="en, de, auto")
    locale = normalize_locale(word)
    await ctx.service.set_locale(ctx.user, locale)
    with use_locale(locale):
        return Reply(_("Language: English."), private=True)


async def _stats(ctx: Context, command: Command) -> Reply:
    stats = await ctx.service.stats(ctx.user)
    return Reply(_("{name}: {games} games, {wins} won.").format(name=ctx.user.name, **stats),
                 private=True)


async def _top(ctx: Context, command: Command) -> Reply:
    rows = await ctx.service.leaderboard(ctx.key, 10)
    if not rows:
        return Reply(_("No finished games here yet."))
    lines = [_("Best players here:")]
    for rank, row in enumerate(rows, start=1):
        lines.append(_("{rank}. {name}: {wins} won of {games}").format(rank=rank, **row))
    return Reply("\n".join(lines))


async def _export(ctx: Context, command: Command) -> Reply:
    ended = await ctx.service.latest_ended(ctx.key)
    if ended is None:
        running = await ctx.service.table_info(ctx.key)
        if running is not None and running.status is Status.PLAYING:
            raise NotFinished()
        raise NoTable()
    record = await ctx.service.export(ended.id)
    return Reply(json.dumps(record, ensure_ascii=False), private=True)


async def _hand(ctx: Context, command: Command) -> Reply:
    grouped = bool(command.args and command.args[0] in ("melds", "grouped"))
    if not grouped:
        _info, view = await ctx.service.player_view(ctx.key, ctx.user)
        return Reply(render_hand(view), private=True)
    facts = await ctx.service.hand_facts(ctx.key, ctx.user, melds=True)
    return Reply(render_hand(facts.view, facts.melds), private=True)


async def _rules(ctx: Context, command: Command) -> Reply:
    """``rules``: how to play this table's variant (:mod:`bot.render.howto`), then its
    options; ``rules <topic>`` one topic (``regeln folge``, ``rules scoring``);
    ``rules options`` the options only."""
    table = await ctx.service.table_info(ctx.key)
    if table is None:
        return Reply(_(_RULES_HINT), private=True)
    rules = table_rules(table.variant, table.preset, dict(table.options))
    word = command.args[0].lower() if command.args else ""
    if word in ("options", "optionen"):
        return Reply(render_rules(rules), private=True)
    topic = topic_of(word) if word else None
    if topic is not None:
        return Reply(render_how_to_play(rules, topic), private=True)
    return Reply(render_how_to_play(rules) + "\n\n" + _(_RULES_TOPICS) + "\n\n"
                 + render_rules(rules), private=True)


async def _help(ctx: Context, command: Command) -> Reply:
    current = await ctx.service.table_info(ctx.key)
    rules = None if current is None else \
        table_rules(current.variant, current.preset, dict(current.options))
    return Reply(render_help(command.args[0] if command.args else None,
                             None if current is None else current.variant, rules)
                 + "\n\n" + _(_TABLE_HELP), private=True)


async def _move(ctx: Context, command: Command) -> Reply:
    move = command.action if command.action is not None else " ".join(command.args)
    try:
        await ctx.service.act(ctx.key, ctx.user, move, ctx.update_key)  # type: ignore[arg-type]
    except MissingMeldNumber:
        # ``layoff 2h`` / ``swap 8h``: when exactly one meld on the table takes those
        # cards among the seat's legal moves, that meld is meant.
        meld = await _the_only_meld(ctx, str(move))
        if meld is None:
            raise
        await ctx.service.act(ctx.key, ctx.user, f"{move} {meld + 1}", ctx.update_key)
    return Reply(None)


async def _the_only_meld(ctx: Context, move: str) -> int | None:
    """The index of the one meld that a ``layoff``/``swap`` of the move's cards may go to
    (from the seat's legal moves, computed by the service's engine workers), else
    ``None``."""
    words = move.split()
    verb = canonical_verb(words[0]) if words else None
    try:
        cards = Counter(CardSpec.parse(word).card for word in words[1:])
    except CardParseError:
        return None
    facts = await ctx.service.hand_facts(ctx.key, ctx.user)
    melds = set()
    for action in facts.legal:
        if verb == "layoff" and isinstance(action, LayOff):
            put = Counter(spec.card for spec in action.cards)
        elif verb == "swap" and isinstance(action, SwapJoker):
            put = Counter((action.card,))
        else:
            continue
        if put == cards:
            melds.add(action.meld)
    return melds.pop() if len(melds) == 1 else None


_RULES_HINT = N_("There is no game here; new [variant] [preset] opens one.")
_RULES_TOPICS = N_("One topic: rules goal, deal, turn, melds, opening, layoff, jokers, out, "
                   "scoring; the options alone: rules options.")
_TABLE_HELP = N_("Table: new [variant] [preset] [option=value], join, leave, addbot, "
                 "removebot, set option=value, start, cancel, back, lang de|en, stats, top, "
                 "export.")

VERBS: dict[str, Verb] = {v.name: v for v in (
    Verb("new", ("neu",), "new [variant] [preset] [option=value ...]",
         N_("Open a table in this chat"), _new),
    Verb("join", ("beitreten", "mitspielen"), "join", N_("Join the table"), _join),
    Verb("leave", ("verlassen",), "leave", N_("Leave the table"), _leave),
    Verb("addbot", ("addai", "ki"), "addbot [easy|normal|hard]",
         N_("Add an AI player (host)"), _addbot),
    Verb("removebot", ("removeai", "entfernen"), "removebot [seat]",
         N_("Remove an AI player (host)"), _removebot),
    Verb("set", ("settings", "einstellungen"), "set option=value ...",
         N_("Show or change the table settings (host)"), _set),
    Verb("start", ("los",), "start", N_("Start the game (host)"), _start),
    Verb("cancel", ("abbrechen",), "cancel", N_("Cancel the game (host or admin)"), _cancel),
    Verb("back", ("zurück", "zurueck"), "back", N_("Play your seat again"), _back),
    Verb("lang", ("sprache", "language"), "lang [en|de|auto]",
         N_("Your language: en, de or auto"), _lang),
    Verb("stats", ("statistik",), "stats", N_("Your games and wins"), _stats),
    Verb("top", ("rangliste",), "top", N_("Best players in this chat"), _top),
    Verb("export", ("exportieren",), "export", N_("The record of the last game here"), _export),
    Verb("hand", (), "hand [melds]", N_("Send me my hand privately"), _hand),
    Verb("rules", ("regeln",), "rules [topic]",
         N_("How to play and the rules of this table"), _rules),
    Verb("help", ("hilfe",), "help [command]", N_("How to play with this bot"), _help),
)}
"""The table verbs, by name."""

MOVE = Verb("move", (), "draw | take | meld 7h 8h 9h | ...", N_("A move of the game"), _move)
"""Every line that is no table verb: a game command for :meth:`GameService.act`."""

TABLE_VERBS: dict[str, str] = {word: verb.name for verb in VERBS.values()
                               for word in (verb.name, *verb.aliases)}
"""Every word (name or alias) of a table verb -> its name."""


def parse(text: str) -> Command:
    """The command of a typed line (``/join@RummyBot``, ``!addbot hard``, ``meld 7h 8h 9h``):
    a table verb with its words, else ``move`` with the whole line. Raises
    :class:`CommandTooLong`; an empty line is ``Command("")``."""
    if len(text) > MAX_COMMAND:
        raise CommandTooLong(limit=MAX_COMMAND)
    body = text.strip()
    if body[:1] in ("/", "!"):
        body = body[1:]
    words = body.split()
    if not words:
        return Command("")
    head = words[0].split("@", 1)[0].lower()  # Telegram: /join@RummyBot
    verb = TABLE_VERBS.get(head)
    if verb is None:
        return Command(MOVE.name, (head, *words[1:]))
    return Command(verb, tuple(words[1:]))


async def dispatch(ctx: Context, command: Command) -> Reply:
    """Run ``command`` for ``ctx.user`` and say what to answer. Never raises for bad input:
    refusals come back as a localised, private ``Reply(ok=False)`` in the user's
    language."""
    locale = await ctx.service.locale_of(ctx.user)
    with use_locale(locale):
        try:
            if not command.verb:
                return Reply(_("Type help for the commands."), private=True, ok=False)
            verb = MOVE if command.verb == MOVE.name else VERBS[command.verb]
            return await verb.handler(ctx, command)
        except EngineError as error:
            text = localize_error(error)
            if command.verb == MOVE.name and ctx.guide:
                lesson = await _lesson(ctx, error.code)
                if lesson:
                    text = f"{text}\n{lesson}"
            return Reply(text, private=True, ok=False, code=error.code)


_EXPLAINED: WeakKeyDictionary[GameService, OrderedDict[tuple[str, str, str], None]] = \
    WeakKeyDictionary()
"""Per game service, (person, variant, refusal code) whose rule was explained: the front
end's memory only (never the table's), the oldest forgotten first."""
_EXPLAINED_LIMIT = 10_000


async def _lesson(ctx: Context, code: str) -> str | None:
    """The rule behind the first refusal of kind ``code`` in the person's first game of
    the table's variant, once per person, variant and kind; else ``None``."""
    try:
        info = await ctx.service.table_info(ctx.key)
    except EngineError:
        return None
    if info is None:
        return None
    explained = _EXPLAINED.setdefault(ctx.service, OrderedDict())
    key = (ctx.user.key, info.variant, code)
    if key in explained or not await ctx.service.first_game(ctx.user, info.variant):
        return None
    lesson = refusal_lesson(code, table_rules(info.variant, info.preset, dict(info.options)))
    if lesson is not None:
        explained[key] = None
        while len(explained) > _EXPLAINED_LIMIT:
            explained.popitem(last=False)
    return lesson


async def handle_text(service: GameService, key: ChatKey, user: UserRef, text: str,
                      update_key: str | None = None, is_admin: bool = False,
                      guide: bool = True) -> Reply:
    """Run one typed line (:func:`parse`, then :func:`dispatch`); ``guide``: see
    :attr:`Context.guide`."""
    ctx = Context(service, key, user, update_key, is_admin, guide)
    try:
        command = parse(text)
    except EngineError as error:
        with use_locale(await service.locale_of(user)):
            return Reply(localize_error(error), private=True, ok=False)
    return await dispatch(ctx, command)


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
