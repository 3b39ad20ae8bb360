"""The one text command language: terminal input, chat text commands and game records.

A command is a verb followed by arguments, case-insensitive, e.g.::

    draw                      take
    meld 7h 8h 9h             meld 7h 8h 9h | 2c 2d 2s     meld 6h 7h jk=8h
    layoff 10h 3              layoff 7h jh 3                swap 8h 3
    discard ks                next

Cards use the notation of :mod:`engine.cards` (``10h`` or ``th``, suit symbols
``7♥``, German ranks ``B``/``D`` for Bube/Dame). A joker may declare what it
stands for: ``jk=8h`` (a card) or ``jk=8`` (a set's rank, any suit). Several
melds in one action are separated by ``|`` or ``/``. The meld number of
``layoff`` and ``swap`` is the LAST argument and is 1-based, as shown on the
table; actions store it 0-based. Each verb has short and German aliases
(:data:`COMMANDS`).

:func:`parse_command` turns text into an :class:`engine.actions.Action` or a
:class:`UiCommand` (sort, hint, help, ...). :func:`format_action` writes the
canonical English form, and ``parse_command(format_action(a), a.seat) == a``
for every action. A game record line is ``"<player>: <command>"``
(:func:`parse_record_line`, :func:`format_record_line`).

Errors are :class:`engine.errors.CommandError` subclasses with stable codes
(``unknown_command``, ``missing_cards``, ``missing_meld_number``,
``bad_meld_number``, ``too_many_args``, ``empty``, ``unknown_player``,
``missing_player``, ``not_an_action``) or :class:`engine.errors.CardParseError`
(``bad_card``) for a card that is not in the notation.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine import actions
from engine.cards import Card, parse_card
from engine.melds import CardSpec
from engine.variant import VariantCommand
from engine.variants import VARIANTS, variant_commands
from engine.verbs import (
    ACTION_VERBS,
    COMMANDS,
    UI_VERBS,
    BadMeldNumber,
    CommandHelp,
    EmptyCommand,
    MissingCards,
    MissingMeldNumber,
    MissingPlayer,
    NotAnAction,
    TooManyArgs,
    UnknownCommand,
    UnknownPlayer,
    find_player,
)

__all__ = [
    "ACTION_VERBS",
    "COMMANDS",
    "UI_VERBS",
    "BadMeldNumber",
    "CommandHelp",
    "EmptyCommand",
    "MissingCards",
    "MissingMeldNumber",
    "MissingPlayer",
    "NotAnAction",
    "TooManyArgs",
    "UiCommand",
    "UnknownCommand",
    "UnknownPlayer",
    "canonical_verb",
    "command_table",
    "find_player",
    "format_action",
    "format_card",
    "format_record_line",
    "parse_action",
    "parse_command",
    "parse_record_line",
]


# --- UI commands ---


@dataclass(frozen=True, slots=True)
class UiCommand:
    """A command for the interface, not the game: ``verb`` is the canonical English verb
    (sort, hint, help, rules, hand, table, score, quit, back); ``args`` the further words,
    lower-cased (``help meld`` -> ``UiCommand("help", ("meld",))``)."""

    verb: str
    args: tuple[str, ...] = ()


_VERB_BY_WORD: dict[str, str] = {}
for _entry in COMMANDS:
    _VERB_BY_WORD[_entry.verb] = _entry.verb
    for _alias in _entry.aliases:
        _VERB_BY_WORD[_alias] = _entry.verb


_SEPARATORS = re.compile(r"[|/]")
_EQUALS = re.compile(r"\s*=\s*")


def canonical_verb(word: str) -> str | None:
    """The English verb for ``word`` (an English verb or alias, any case), or ``None``.

    Variant-only verbs (:attr:`engine.variants.base.Variant.commands`) count too.
    """
    key = word.strip().lower()
    found = _VERB_BY_WORD.get(key)
    if found is not None:
        return found
    for command in _variant_commands():
        if key == command.help.verb or key in command.help.aliases:
            return str(command.help.verb)
    return None


def _variant_commands() -> tuple[VariantCommand, ...]:
    return variant_commands()


def command_table(variant: str | None = None) -> tuple[CommandHelp, ...]:
    """The help table: the shared verbs, plus the verbs of ``variant`` (or of every
    variant when ``None``). For one ``variant``, its ``help_overrides`` replace the shared
    verbs' lines of the same name (the variant's notation and options)."""
    extra = [c.help for v in VARIANTS.values() if variant in (None, v.id) for c in v.commands]
    shared = COMMANDS
    if variant is not None and variant in VARIANTS:
        overrides = {c.verb: c for c in VARIANTS[variant].help_overrides}
        shared = tuple(overrides.get(c.verb, c) for c in COMMANDS)
    return shared + tuple(extra)


# --- parsing --------------------------------------------------------------------------------


def _tokens(text: str) -> list[str]:
    """Split a command into words; ``|`` and ``/`` become their own word, ``jk = 8h`` one word,
    commas count as blanks."""
    body = _EQUALS.sub("=", text.replace(",", " "))
    return _SEPARATORS.sub(" | ", body).split()


def _no_args(verb: str, args: list[str]) -> None:
    if args:
        raise TooManyArgs(verb)


def _specs(words: Sequence[str]) -> tuple[CardSpec, ...]:
    return tuple(CardSpec.parse(w) for w in words)


_MAX_NUMBER_DIGITS = 100


def _is_number(text: str) -> bool:
    """``text`` is a whole number in ASCII digits (at most 100 of them). ``str.isdigit``
    alone also accepts ``²`` or ``١``, which ``int`` refuses or reads as another digit, and
    ``int`` refuses more than 4300 digits."""
    return text.isascii() and text.isdigit() and len(text) <= _MAX_NUMBER_DIGITS


def _unreadable_number(word: str) -> bool:
    """A word that looks like a (meld) number to ``str.isdigit`` but is no plain number."""
    text = word[1:] if word.startswith("#") else word
    return text.isdigit() and not _is_number(text)


def _meld_number(verb: str, args: list[str]) -> tuple[list[str], int]:
    """Split ``args`` into the card words and the 0-based meld index from the last word."""
    if not args:
        raise MissingCards(verb)
    last = args[-1]
    number_text = last[1:] if last.startswith("#") else last
    if not _is_number(number_text):
        if _is_card_spec(last):
            raise MissingMeldNumber(verb)
        raise BadMeldNumber(last)
    number = int(number_text)
    if number < 1:
        raise BadMeldNumber(last)
    if len(args) == 1:
        raise MissingCards(verb)
    return args[:-1], number - 1


def _is_card_spec(word: str) -> bool:
    try:
        CardSpec.parse(word)
    except ValueError:
        return False
    return True


def _parse_draw(verb: str, args: list[str], seat: int) -> actions.Action:
    _no_args(verb, args)
    return actions.Draw(seat)


def _parse_take(verb: str, args: list[str], seat: int) -> actions.Action:
    if len(args) > 1:
        raise TooManyArgs(verb)
    return actions.TakeDiscard(seat, parse_card(args[0]) if args else None)


def _parse_next(verb: str, args: list[str], seat: int) -> actions.Action:
    _no_args(verb, args)
    return actions.NextDeal(seat)


def _parse_meld(verb: str, args: list[str], seat: int) -> actions.Action:
    groups: list[list[str]] = [[]]
    for word in args:
        if word == "|":
            groups.append([])
        else:
            groups[-1].append(word)
    parsed = tuple(_specs(g) for g in groups if g)
    if not parsed:
        raise MissingCards(verb)
    return actions.MeldCards(seat, parsed)


def _parse_layoff(verb: str, args: list[str], seat: int) -> actions.Action:
    if args and args[0] == "off":  # "lay off 10h 3"
        args = args[1:]
    if "|" in args:
        raise TooManyArgs(verb)
    words, index = _meld_number(verb, args)
    return actions.LayOff(seat, _specs(words), index)


def _parse_swap(verb: str, args: list[str], seat: int) -> actions.Action:
    words, index = _meld_number(verb, args)
    if len(words) > 1:
        raise TooManyArgs(verb)
    return actions.SwapJoker(seat, parse_card(words[0]), index)


def _parse_discard(verb: str, args: list[str], seat: int) -> actions.Action:
    if not args:
        raise MissingCards(verb)
    if len(args) > 1:
        raise TooManyArgs(verb)
    return actions.Discard(seat, parse_card(args[0]))


_ACTION_PARSERS: dict[str, Callable[[str, list[str], int], actions.Action]] = {
    "draw": _parse_draw,
    "take": _parse_take,
    "meld": _parse_meld,
    "layoff": _parse_layoff,
    "swap": _parse_swap,
    "discard": _parse_discard,
    "next": _parse_next,
}


def parse_command(text: str, seat: int) -> actions.Action | UiCommand:
    """Parse one command typed by ``seat`` (0-based).

    Returns an :class:`engine.actions.Action` for a game verb (``seat`` becomes its
    seat) or a :class:`UiCommand` for an interface verb. A leading ``/`` or ``!`` (chat
    habit) is ignored. Raises a :class:`engine.errors.CommandError` subclass (codes
    ``empty``, ``unknown_command``, ``missing_cards``, ``missing_meld_number``,
    ``bad_meld_number``, ``too_many_args``) or :class:`engine.errors.CardParseError`
    (code ``bad_card``). Whether the action is legal is for :func:`engine.game.verify`.
    """
    body = text.strip()
    if body[:1] in ("/", "!"):
        body = body[1:]
    words = _tokens(body)
    if not words:
        raise EmptyCommand()
    verb = canonical_verb(words[0])
    if verb is None:
        raise UnknownCommand(words[0].lower())
    args = words[1:]
    parser = _ACTION_PARSERS.get(verb)
    if parser is not None:
        return parser(verb, args, seat)
    for command in _variant_commands():
        if command.help.verb == verb:
            # The variants' parsers read meld numbers with int() after str.isdigit().
            odd = next((a for a in args if _unreadable_number(a)), None)
            if odd is not None:
                raise BadMeldNumber(odd)
            action: actions.Action = command.parse(verb, args, seat)
            return action
    return UiCommand(verb, tuple(a.lower() for a in args))


def parse_action(text: str, seat: int) -> actions.Action:
    """Like :func:`parse_command` but only game actions; a UI verb raises
    :class:`NotAnAction` (code ``not_an_action``)."""
    parsed = parse_command(text, seat)
    if isinstance(parsed, UiCommand):
        raise NotAnAction(parsed.verb)
    return parsed


# --- formatting -----------------------------------------------------------------------------


def _format_specs(specs: Sequence[CardSpec]) -> str:
    return " ".join(str(s) for s in specs)


def format_action(action: actions.Action) -> str:
    """The canonical English command for ``action``: ``draw``, ``take``,
    ``meld 6h 7h jk=8h``, ``meld 7h 8h 9h | 2c 2d 2s``, ``layoff 10h 3`` (meld number
    1-based), ``swap 8h 3``, ``discard ks``, ``next``.

    ``parse_command(format_action(a), a.seat) == a`` for every well-formed action
    (non-empty groups and lay-off cards, faces declared only on jokers). Raises
    ``TypeError`` for an object that is no action.
    """
    if isinstance(action, actions.Draw):
        return "draw"
    if isinstance(action, actions.TakeDiscard):
        return "take" if action.card is None else f"take {action.card}"
    if isinstance(action, actions.MeldCards):
        return "meld " + " | ".join(_format_specs(g) for g in action.groups)
    if isinstance(action, actions.LayOff):
        return f"layoff {_format_specs(action.cards)} {action.meld + 1}"
    if isinstance(action, actions.SwapJoker):
        return f"swap {action.card} {action.meld + 1}"
    if isinstance(action, actions.Discard):
        return f"discard {action.card}"
    if isinstance(action, actions.NextDeal):
        return "next"
    for command in _variant_commands():
        if isinstance(action, command.action_type):
            return command.format(action)
    raise TypeError(f"not an action: {action!r}")


def format_card(card: Card) -> str:
    """A card in command notation (``10h``, ``qs``, ``jk``)."""
    return str(card)


# --- record lines ---------------------------------------------------------------------------


def parse_record_line(line: str, players: Sequence[str]) -> actions.Action:
    """Parse a record line ``"<player>: <command>"`` (``"ben: meld 7h 8h 9h"``).

    The player name selects the seat (see :func:`find_player`). Raises
    :class:`MissingPlayer`, :class:`UnknownPlayer`, :class:`NotAnAction` and every
    error of :func:`parse_command`.
    """
    name, sep, command = line.partition(":")
    if not sep or not name.strip():
        raise MissingPlayer(line.strip())
    return parse_action(command, find_player(name, players))


def format_record_line(action: actions.Action, players: Sequence[str]) -> str:
    """The record line of ``action``: ``"ben: layoff 10h 3"``. Raises ``IndexError`` for a
    seat that has no player."""
    return f"{players[action.seat]}: {format_action(action)}"
