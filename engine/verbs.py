"""The shared verbs of the command language (:mod:`engine.commands`): the help table
(:data:`COMMANDS`) and the errors of a command that cannot be parsed. The variants' own
verbs use them too, so they live below the variants; :mod:`engine.commands` re-exports
them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.errors import N_, CommandError

# --- errors -------------------------------------------------------------------------------


class VerbError(CommandError):
    """A command error about its verb, the one param ``verb`` (the word typed: ``'fly'``,
    ``'offer'``); the subclasses name the fault."""

    def __init__(self, verb: str) -> None:
        super().__init__(verb=verb)


class VerbExampleError(CommandError):
    """A command error about its verb's arguments: params ``verb`` and ``example`` (the
    verb's example from :data:`COMMANDS`, e.g. ``'discard 7h'``; the verb itself when
    there is none), so the message can show how it is written."""

    def __init__(self, verb: str) -> None:
        super().__init__(verb=verb, example=_EXAMPLES.get(verb, verb))


class WordError(CommandError):
    """A command error about one argument that is not what the verb takes, the one param
    ``text`` (the word typed: ``'x'`` for a meld number, ``'up'`` for a doubla hint)."""

    def __init__(self, text: str) -> None:
        super().__init__(text=text)


class UnknownCommand(VerbError):
    """The first word is no verb of the command language."""

    code = "unknown_command"
    template = N_("Unknown command '{verb}'. Type help for the list of commands.")


class MissingCards(VerbExampleError):
    """A verb that needs cards was given none (``discard``, ``meld``)."""

    code = "missing_cards"
    template = N_("{verb}: name the cards, e.g. {example}.")


class MissingMeldNumber(VerbExampleError):
    """``layoff``/``swap`` without the meld number as the last argument."""

    code = "missing_meld_number"
    template = N_("{verb}: end with the number of the meld on the table, e.g. {example}.")


class BadMeldNumber(WordError):
    """A meld number that is not a whole number from 1 up."""

    code = "bad_meld_number"
    template = N_("'{text}' is not a meld number (melds are numbered from 1).")


class TooManyArgs(VerbExampleError):
    """More arguments than the verb takes (``draw 7h``, ``discard ks qh``)."""

    code = "too_many_args"
    template = N_("{verb}: too many arguments, e.g. {example}.")


class EmptyCommand(CommandError):
    """Nothing but blanks was typed."""

    code = "empty"
    template = N_("Type a command (help lists them).")

    def __init__(self) -> None:
        super().__init__()


class MissingPlayer(CommandError):
    """A record line without the ``player:`` prefix."""

    code = "missing_player"
    template = N_("'{line}' does not start with a player name and ':'.")

    def __init__(self, line: str) -> None:
        super().__init__(line=line)


class UnknownPlayer(CommandError):
    """A record line names a player who is not at the table."""

    code = "unknown_player"
    template = N_("'{name}' is not a player here (players: {players}).")

    def __init__(self, name: str, players: Sequence[str]) -> None:
        super().__init__(name=name, players=", ".join(players))


class NotAnAction(VerbError):
    """A record line holds a UI command (``help``, ``sort``) instead of a game action."""

    code = "not_an_action"
    template = N_("'{verb}' is not a game action.")


# --- the help table --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CommandHelp:
    """One line of the help screen: the English ``verb``, its ``aliases`` (short and
    German), the ``syntax`` and an English ``help`` sentence."""

    verb: str
    aliases: tuple[str, ...]
    syntax: str
    help: str


COMMANDS: tuple[CommandHelp, ...] = (
    CommandHelp("draw", ("d", "ziehen"), "draw", "Draw the top card of the stock."),
    CommandHelp(
        "take",
        ("t", "nehmen", "aufnehmen"),
        "take",
        "Take the upcard (the top card of the discard pile).",
    ),
    CommandHelp(
        "meld",
        ("m", "melden"),
        "meld 7h 8h 9h | 2c 2d 2s",
        "Put a set or run on the table; separate several melds with | or /. "
        "Say what a joker stands for with jk=8h (or jk=8 in a set).",
    ),
    CommandHelp(
        "layoff",
        ("l", "lay", "anlegen"),
        "layoff 10h 3",
        "Add cards from your hand to meld number 3 on the table (the number comes last).",
    ),
    CommandHelp(
        "swap",
        ("tauschen",),
        "swap 8h 3",
        "Exchange the card a joker in meld 3 stands for against that joker.",
    ),
    CommandHelp(
        "discard",
        ("x", "drop", "abwerfen"),
        "discard ks",
        "Discard a card onto the discard pile; this ends your turn.",
    ),
    CommandHelp("next", ("weiter", "deal"), "next", "Deal the next hand once a hand is scored."),
    CommandHelp("sort", ("sortieren",), "sort", "Sort your hand."),
    CommandHelp("hint", ("tipp",), "hint", "Suggest a move."),
    CommandHelp("help", ("hilfe", "?"), "help [command]", "Show this list or help on a command."),
    CommandHelp("rules", ("regeln",), "rules", "Show the rules this table plays."),
    CommandHelp("hand", (), "hand", "Show your hand."),
    CommandHelp("table", ("tisch",), "table", "Show the melds, the upcard and the stock size."),
    CommandHelp("score", ("punkte",), "score", "Show the scores."),
    CommandHelp("quit", ("exit", "ende"), "quit", "Leave the game."),
    CommandHelp(
        "back",
        ("zurück", "zurueck"),
        "back",
        "Play your seat again after the autopilot played it (else: show the table again).",
    ),
)

ACTION_VERBS = ("draw", "take", "meld", "layoff", "swap", "discard", "next")
UI_VERBS = ("sort", "hint", "help", "rules", "hand", "table", "score", "quit", "back")

_EXAMPLES: dict[str, str] = {c.verb: c.syntax for c in COMMANDS}
_SHARED: dict[str, CommandHelp] = {c.verb: c for c in COMMANDS}


def help_override(verb: str, syntax: str, help: str) -> CommandHelp:
    """The help line of the shared ``verb`` as a variant's players type it (for
    ``Variant.help_overrides``): the verb's name and aliases from :data:`COMMANDS`, the
    variant's own ``syntax`` and English ``help`` sentence. Raises ``KeyError`` for a verb
    that is not shared."""
    return replace(_SHARED[verb], syntax=syntax, help=help)


def find_player(name: str, players: Sequence[str]) -> int:
    """The seat of player ``name``: an exact match, else the one case-insensitive match.

    Raises :class:`UnknownPlayer` (code ``unknown_player``).
    """
    wanted = name.strip()
    if wanted in players:
        return list(players).index(wanted)
    folded = [i for i, p in enumerate(players) if p.casefold() == wanted.casefold()]
    if len(folded) == 1:
        return folded[0]
    raise UnknownPlayer(wanted, players)
