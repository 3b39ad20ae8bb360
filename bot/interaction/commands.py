"""The chat command language of every front end: a typed line, a slash command, a
terminal line all become one :data:`bot.ports.intents.Request` through :func:`parse`
(:func:`request_of` for a verb and its words); the registry :data:`VERBS` holds each table
verb's aliases in English and German, its syntax and its help text. The service carries commands out
(:mod:`bot.service.verbs`).

Table verbs: ``new [variant] [preset] [option=value ...]``, ``join``, ``leave``,
``addbot [easy|normal|hard|expert]``, ``removebot [seat]``, ``set name=value ...``, ``start``,
``cancel``, ``back``, ``lang [en|de|auto]``, ``stats``, ``top``, ``season new``,
``export``, ``hand``,
``rules``, ``help``. Every other line is a game command of :mod:`engine.commands`
(``draw``, ``meld 7h 8h 9h``, ...): the verb ``move`` with the line's words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.i18n import N_
from bot.ports.intents import (
    AddAI,
    Back,
    Cancel,
    Coach,
    Configure,
    Export,
    Help,
    Join,
    Leave,
    Move,
    NewSeason,
    OpenTable,
    RemoveAI,
    ReplayGame,
    Request,
    Rules,
    SetLanguage,
    ShowHand,
    Start,
    Stats,
    TooLong,
    Top,
    Unknown,
)
from engine.errors import CommandError
from engine.rules import make_rules
from engine.variants import VARIANTS

__all__ = [
    "MAX_COMMAND",
    "MOVE",
    "RULES_HINT",
    "RULES_TOPICS",
    "TABLE_HELP",
    "TABLE_VERBS",
    "VERBS",
    "CommandTooLong",
    "NotNameValue",
    "NotSeatNumber",
    "Verb",
    "pairs",
    "parse",
    "request_of",
    "seat_number",
    "split_new_args",
]


@dataclass(frozen=True, slots=True)
class Verb:
    """One table verb of the registry: its ``name``, ``aliases`` (English and German),
    the ``syntax`` shown in help and the ``help`` msgid."""

    name: str
    aliases: tuple[str, ...]
    syntax: str
    help: str


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
    variant, preset = "basic", None
    rest = list(words)
    if rest and "=" not in rest[0]:
        variant, preset = _variant_or_preset(rest.pop(0).lower())
    if rest and "=" not in rest[0] and preset is None:
        preset = rest.pop(0).lower()
    options = _name_values(rest)
    make_rules(variant, preset, options)
    return variant, preset, options


def _variant_or_preset(word: str) -> tuple[str, str | None]:
    """The first word of ``new`` as (variant, preset): a variant's id (no preset yet), or
    a preset of the first variant that has it (basic when none has it: ``make_rules``
    then refuses the preset)."""
    if word in VARIANTS:
        return word, None
    for var in VARIANTS.values():
        if word in var.presets:
            return var.id, word
    return "basic", word


def _name_values(words: Sequence[str]) -> dict[str, str]:
    """``name=value`` words as options (names in lower case); raises
    :class:`NotNameValue` for a word that is not one."""
    options = {}
    for word in words:
        name, sep, value = word.partition("=")
        if not sep or not name:
            raise NotNameValue(verb="new", word=word)
        options[name.lower()] = value
    return options


RULES_HINT = N_("There is no game here; new [variant] [preset] opens one.")
"""Said for ``rules`` where no table is."""
RULES_TOPICS = N_(
    "One topic: rules goal, deal, turn, melds, opening, layoff, jokers, out, "
    "scoring; the options alone: rules options."
)
"""Under the how-to of ``rules``: how to ask for one topic or the options alone."""
TABLE_HELP = N_(
    "Table: new [variant] [preset] [option=value], join, leave, addbot, "
    "removebot, set option=value, start, cancel, back, lang de|en, coach on|off, "
    "stats, top, season new, export, replay."
)
"""The table verbs in a line, under ``help``."""

VERBS: dict[str, Verb] = {
    v.name: v
    for v in (
        Verb(
            "new",
            ("neu",),
            "new [variant] [preset] [option=value ...]",
            N_("Open a table in this chat"),
        ),
        Verb("join", ("beitreten", "mitspielen"), "join", N_("Join the table")),
        Verb("leave", ("verlassen",), "leave", N_("Leave the table")),
        Verb(
            "addbot",
            ("addai", "ki"),
            "addbot [easy|normal|hard|expert]",
            N_("Add an AI player (host)"),
        ),
        Verb(
            "removebot",
            ("removeai", "entfernen"),
            "removebot [seat]",
            N_("Remove an AI player (host)"),
        ),
        Verb(
            "set",
            ("settings", "einstellungen"),
            "set option=value ...",
            N_("Show or change the table settings (host)"),
        ),
        Verb("start", ("los",), "start", N_("Start the game (host)")),
        Verb("cancel", ("abbrechen",), "cancel", N_("Cancel the game (host or admin)")),
        Verb("back", ("zurück", "zurueck"), "back", N_("Play your seat again")),
        Verb(
            "lang",
            ("sprache", "language"),
            "lang [en|de|auto]",
            N_("Your language: en, de or auto"),
        ),
        Verb(
            "coach",
            ("trainer",),
            "coach [on|off]",
            N_("Your costliest moves after each deal, privately: on or off"),
        ),
        Verb("stats", ("statistik",), "stats", N_("Your games and wins")),
        Verb(
            "top",
            ("rangliste",),
            "top [global] [variant] [season N]",
            N_("Best players in this chat"),
        ),
        Verb(
            "season",
            ("saison",),
            "season new",
            N_("Start a new rating season in this chat (host or admin)"),
        ),
        Verb("export", ("exportieren",), "export", N_("The record of the last game here")),
        Verb(
            "replay",
            ("wiederholung",),
            "replay",
            N_("Step through the finished deals of the game here in the web table"),
        ),
        Verb("hand", (), "hand [melds]", N_("Send me my hand privately")),
        Verb("rules", ("regeln",), "rules [topic]", N_("How to play and the rules of this table")),
        Verb("help", ("hilfe",), "help [command]", N_("How to play with this bot")),
    )
}
"""The table verbs, by name."""

MOVE = Verb("move", (), "draw | take | meld 7h 8h 9h | ...", N_("A move of the game"))
"""Every line that is no table verb: a game command (:mod:`engine.commands`)."""

TABLE_VERBS: dict[str, str] = {
    word: verb.name for verb in VERBS.values() for word in (verb.name, *verb.aliases)
}
"""Every word (name or alias) of a table verb -> its name."""


def parse(text: str) -> Request:
    """The request of a typed line (``/join@RummyBot``, ``!addbot hard``, ``meld 7h 8h 9h``):
    a table verb with its words, else a :class:`~bot.ports.intents.Move` of the whole line;
    a line longer than :data:`MAX_COMMAND` is :class:`~bot.ports.intents.TooLong` (the
    service refuses it with :class:`CommandTooLong`); an empty line is
    ``Unknown("")``."""
    if len(text) > MAX_COMMAND:
        return TooLong()
    body = text.strip()
    if body[:1] in ("/", "!"):
        body = body[1:]
    words = body.split()
    if not words:
        return Unknown("")
    head = words[0].split("@", 1)[0].lower()  # Telegram: /join@RummyBot
    verb = TABLE_VERBS.get(head)
    if verb is None:
        return Move((head, *words[1:]))
    return request_of(verb, words[1:])


_REQUESTS: dict[str, Callable[[tuple[str, ...]], Request]] = {
    "new": OpenTable,
    "join": lambda _words: Join(),
    "leave": lambda _words: Leave(),
    "addbot": lambda words: AddAI(words[0] if words else None),
    "removebot": lambda words: RemoveAI(words[0] if words else None),
    "set": Configure,
    "start": lambda _words: Start(),
    "cancel": lambda _words: Cancel(),
    "back": lambda _words: Back(),
    "lang": lambda words: SetLanguage(words[0] if words else None),
    "coach": lambda words: Coach(words[0] if words else None),
    "stats": lambda _words: Stats(),
    "top": Top,
    "season": NewSeason,
    "export": lambda _words: Export(),
    "replay": lambda _words: ReplayGame(),
    "hand": lambda words: ShowHand(bool(words) and words[0].lower() in ("melds", "grouped")),
    "rules": lambda words: Rules(words[0] if words else None),
    "help": lambda words: Help(words[0] if words else None),
    "move": Move,
}
"""Table verb (a name of :data:`VERBS`, or ``move``) -> its request, from its words."""


def request_of(verb: str, words: Sequence[str] = ()) -> Request:
    """The request of the table verb ``verb`` (a name of :data:`VERBS`, or ``move``) with
    its ``words``; any other verb is :class:`~bot.ports.intents.Unknown`."""
    make = _REQUESTS.get(verb)
    return Unknown(verb) if make is None else make(tuple(words))


def seat_number(word: str | None) -> int | None:
    """The seat number ``removebot`` names (``None``: the last AI seat). Raises
    :class:`NotSeatNumber`."""
    if word is None:
        return None
    # ASCII digits only: "²".isdigit() is True, yet int("²") fails; seats are small numbers
    if not (word.isascii() and word.isdigit()) or len(word) > 9:
        raise NotSeatNumber(word=word)
    return int(word)


def pairs(verb: str, args: Sequence[str]) -> dict[str, str]:
    """``set`` words as name -> value. Raises :class:`NotNameValue`."""
    changes = {}
    for word in args:
        name, sep, value = word.partition("=")
        if not sep or not name or not value:
            raise NotNameValue(verb=verb, word=word)
        changes[name.lower()] = value
    if not changes:
        raise NotNameValue(verb=verb, word="")
    return changes
