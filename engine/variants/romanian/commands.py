"""The verbs only Romanian Rummy has.

Before play (each player in turn, from the first player)::

    doubla [high|low]     announce two identical tiles (hoch/niedrig accepted)
    offer r7 ben          offer ben your pair of r7 (face down) for his doubla
    accept k12            accept the offered swap, giving your pair of k12
    reject                reject the offered swap
    announce              announce that you hold the twin of the face-up tile (+25)
    ready                 finish the step

During play::

    faceup                take the face-up tile instead of drawing, to go out with it
    joly k7 3             put k7 in place of the Joly of meld 3 and take the Joly
                          (the shared ``swap k7 3`` does the same)
    joly b7 k7 3          the two missing colours for the Joly of a set of three

The freed Joly must then be melded at once with two tiles of the rack
(``meld jo r5 r6``). Verbs are shared by all variants of the command language, so
none of these is a verb of another variant (German Rommé has ``exchange``, ``done``
and ``decline``).

Tiles use the tile notation of :mod:`engine.cards` (``r7``, ``rot7``, ``jo``).

romanian-rummy.de.txt: "Zwei Spieler, die Doublas haben, können – wenn sie wollen –
diese tauschen"; "vorausgesetzt, man gebraucht ihn sofort mit zwei Steinen vom eigenen
Ständer, um einen neuen Satz oder eine neue Folge zu melden."
"""

from __future__ import annotations

from engine.cards import parse_card
from engine.errors import N_
from engine.variants.base import VariantCommand
from engine.variants.romanian.actions import (
    AnnounceDoubla,
    AnnounceFaceUp,
    AnswerDoubla,
    ExchangeJoly,
    OfferDoubla,
    Ready,
    TakeFaceUp,
)
from engine.verbs import (
    BadMeldNumber,
    CommandHelp,
    MissingCards,
    MissingMeldNumber,
    TooManyArgs,
    VerbError,
    WordError,
    help_override,
)

_HINT_WORDS = {"high": "high", "hoch": "high", "low": "low", "niedrig": "low"}


class MissingPlayerName(VerbError):
    """``offer`` without the name of the player the swap is offered to."""

    code = "missing_player_name"
    template = N_("{verb}: name your pair's tile and the player, e.g. offer r7 ben.")


class BadHint(WordError):
    """``doubla`` with a word that is neither high nor low."""

    code = "bad_doubla_hint"
    template = N_("'{text}' is not high or low (doubla, doubla high, doubla low).")


def _none(verb: str, args: list[str]) -> None:
    if args:
        raise TooManyArgs(verb)


def parse_ready(verb: str, args: list[str], seat: int) -> Ready:
    """``ready``."""
    _none(verb, args)
    return Ready(seat)


def parse_doubla(verb: str, args: list[str], seat: int) -> AnnounceDoubla:
    """``doubla``, ``doubla high``, ``doubla low`` (``hoch``/``niedrig``)."""
    if len(args) > 1:
        raise TooManyArgs(verb)
    if not args:
        return AnnounceDoubla(seat)
    hint = _HINT_WORDS.get(args[0].lower())
    if hint is None:
        raise BadHint(args[0])
    return AnnounceDoubla(seat, hint)


def parse_offer(verb: str, args: list[str], seat: int) -> OfferDoubla:
    """``offer r7 ben`` (the name may hold blanks: every word after the tile)."""
    if not args:
        raise MissingCards(verb)
    if len(args) < 2:
        raise MissingPlayerName(verb)
    return OfferDoubla(seat, parse_card(args[0]), " ".join(args[1:]))


def parse_accept(verb: str, args: list[str], seat: int) -> AnswerDoubla:
    """``accept k12``."""
    if not args:
        raise MissingCards(verb)
    if len(args) > 1:
        raise TooManyArgs(verb)
    return AnswerDoubla(seat, parse_card(args[0]))


def parse_reject(verb: str, args: list[str], seat: int) -> AnswerDoubla:
    """``reject``."""
    _none(verb, args)
    return AnswerDoubla(seat, None)


def parse_announce(verb: str, args: list[str], seat: int) -> AnnounceFaceUp:
    """``announce``."""
    _none(verb, args)
    return AnnounceFaceUp(seat)


def parse_faceup(verb: str, args: list[str], seat: int) -> TakeFaceUp:
    """``faceup``."""
    _none(verb, args)
    return TakeFaceUp(seat)


def parse_joly(verb: str, args: list[str], seat: int) -> ExchangeJoly:
    """``joly k7 3`` or ``joly b7 k7 3`` (the meld number last, 1-based)."""
    if not args:
        raise MissingCards(verb)
    last = args[-1][1:] if args[-1].startswith("#") else args[-1]
    if not last.isdigit():
        try:
            parse_card(args[-1])
        except ValueError:
            raise BadMeldNumber(args[-1]) from None
        raise MissingMeldNumber(verb)
    if int(last) < 1:
        raise BadMeldNumber(args[-1])
    tiles = args[:-1]
    if not tiles:
        raise MissingCards(verb)
    if len(tiles) > 2:
        raise TooManyArgs(verb)
    return ExchangeJoly(seat, tuple(parse_card(t) for t in tiles), int(last) - 1)


def format_answer(action: AnswerDoubla) -> str:
    """``accept k12`` or ``reject``."""
    return "reject" if action.tile is None else f"accept {action.tile}"


def _help(verb: str, aliases: tuple[str, ...], syntax: str, text: str) -> CommandHelp:
    return CommandHelp(verb, aliases, syntax, text)


COMMANDS: tuple[VariantCommand, ...] = (
    VariantCommand(
        _help(
            "doubla",
            ("dubla",),
            "doubla [high|low]",
            "Before play: announce two identical tiles, as high (8-13) or low (1-7) if you like.",
        ),
        parse_doubla,
        AnnounceDoubla,
        lambda a: "doubla" if not a.hint else f"doubla {a.hint}",
    ),
    VariantCommand(
        _help(
            "offer",
            ("anbieten",),
            "offer r7 ben",
            "Before play: offer a player who announced a doubla your pair of r7 for theirs.",
        ),
        parse_offer,
        OfferDoubla,
        lambda a: f"offer {a.tile} {a.partner}",
    ),
    VariantCommand(
        _help(
            "accept",
            ("annehmen",),
            "accept k12",
            "Before play: accept the doubla swap offered to you, giving your pair of k12.",
        ),
        parse_accept,
        AnswerDoubla,
        format_answer,
    ),
    VariantCommand(
        _help("reject", ("ablehnen",), "reject", "Before play: reject the offered swap."),
        parse_reject,
        AnswerDoubla,
        format_answer,
    ),
    VariantCommand(
        _help(
            "announce",
            ("ansagen",),
            "announce",
            "Before play: announce that you hold the twin of the face-up tile (+25).",
        ),
        parse_announce,
        AnnounceFaceUp,
        lambda a: "announce",
    ),
    VariantCommand(
        _help(
            "ready",
            ("bereit",),
            "ready",
            "Before play: you are done with doubla and announcements.",
        ),
        parse_ready,
        Ready,
        lambda a: "ready",
    ),
    VariantCommand(
        _help(
            "faceup",
            ("fu", "aufgedeckt"),
            "faceup",
            "Take the face-up tile instead of drawing, to go out with it this turn.",
        ),
        parse_faceup,
        TakeFaceUp,
        lambda a: "faceup",
    ),
    VariantCommand(
        _help(
            "joly",
            ("jolly",),
            "joly k7 3",
            "Put the tile a Joly in meld 3 stands for in its place and take the Joly "
            "(a set of three: both missing colours, joly b7 k7 3); then meld the Joly at "
            "once with two tiles of your rack (meld jo r5 r6).",
        ),
        parse_joly,
        ExchangeJoly,
        lambda a: "joly " + " ".join(str(t) for t in a.tiles) + f" {a.meld + 1}",
    ),
)


HELP_OVERRIDES: tuple[CommandHelp, ...] = (
    help_override("draw", "draw", "Draw the top tile of the wall."),
    help_override(
        "take",
        "take [r7]",
        "Take the previous player's discard instead of drawing; or a tile further "
        "back in the row of discards (take r7) that two tiles of your rack meld at "
        "once, together with every tile discarded after it.",
    ),
    help_override(
        "swap",
        "swap r8 3",
        "Exchange the tile a Joly in meld 3 stands for against that Joly (see joly).",
    ),
    help_override(
        "meld",
        "meld r5 r6 r7 | b9 k9 y9",
        "Put a set or run of tiles on the table; separate several melds with | or /. "
        "Say what a Joly stands for with jo=r8 (or jo=8 in a set). Tiles: colour r, "
        "y, b or k and the number 1-13; jo is a Joly.",
    ),
    help_override(
        "layoff",
        "layoff r8 3",
        "Add tiles from your rack to meld number 3 on the table (the number comes last).",
    ),
    help_override("discard", "discard k13", "Discard a tile; this ends your turn."),
    help_override("hand", "hand", "Show your rack."),
    help_override(
        "table",
        "table",
        "Show the melds, the face-up tile, the discard row and the size of the wall.",
    ),
)
"""The shared verbs in tile notation (romanian-rummy.de.txt: "rot, gelb, blau und
schwarz"), shown by :func:`engine.commands.command_table` for Romanian tables."""
