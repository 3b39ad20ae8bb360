"""The verbs only German Rommé has, for :attr:`engine.variants.base.Variant.commands`.

::

    exchange 8h 3 | jk 9h 10h    the joker of meld 3 for 8h, the joker melded with 9h 10h
    exchange 8c 8d 2 | jk=qs qh qd  (house rule set_swap_four: all missing cards of a set)
    takeback                     take back this turn's melds below the first-meld minimum
    done                         end your lay-offs after someone went out
    buyback / decline            buy back into the game once, or stay out (pot play)

The help records are :class:`engine.verbs.CommandHelp` lines.
"""

from __future__ import annotations

from typing import Any

from engine.cards import parse_card
from engine.melds import CardSpec
from engine.variants.base import VariantCommand
from engine.variants.german.actions import (
    BuyBack,
    DeclineBuyBack,
    EndLayOffs,
    ExchangeJoker,
    TakeBack,
)
from engine.variants.german.errors import ExchangeSyntax
from engine.verbs import BadMeldNumber, CommandHelp, TooManyArgs


def _no_args(verb: str, args: list[str]) -> None:
    if args:
        raise TooManyArgs(verb)


def parse_exchange(verb: str, args: list[str], seat: int) -> ExchangeJoker:
    """``exchange CARD... MELD | NEW MELD``; raises :class:`ExchangeSyntax`,
    ``CardParseError`` or ``BadMeldNumber``."""
    if "|" not in args:
        raise ExchangeSyntax()
    cut = args.index("|")
    left, group = args[:cut], args[cut + 1 :]
    if len(left) < 2 or not group or "|" in group:
        raise ExchangeSyntax()
    number_text = left[-1].removeprefix("#")
    if not number_text.isdigit() or int(number_text) < 1:
        raise BadMeldNumber(left[-1])
    cards = tuple(parse_card(w) for w in left[:-1])
    return ExchangeJoker(seat, cards, int(number_text) - 1, tuple(CardSpec.parse(w) for w in group))


def format_exchange(action: Any) -> str:
    """``exchange 8h 3 | jk=7h 9h 10h`` (meld number 1-based)."""
    cards = " ".join(str(c) for c in action.cards)
    group = " ".join(str(s) for s in action.group)
    return f"exchange {cards} {action.meld + 1} | {group}"


def _simple(
    verb: str,
    aliases: tuple[str, ...],
    help_text: str,
    action_type: type,
) -> VariantCommand:
    def parse(word: str, args: list[str], seat: int) -> Any:
        """The action of ``seat``; the verb takes no arguments."""
        _no_args(verb, args)
        return action_type(seat)

    return VariantCommand(
        CommandHelp(verb, aliases, verb, help_text), parse, action_type, lambda _action: verb
    )


COMMANDS: tuple[VariantCommand, ...] = (
    VariantCommand(
        CommandHelp(
            "exchange",
            ("austauschen", "jokertausch"),
            "exchange 8h 3 | jk 9h 10h",
            "Exchange a natural card for the joker in meld 3 and meld the freed joker at "
            "once with cards from your hand (after | ; write jk=... if needed).",
        ),
        parse_exchange,
        ExchangeJoker,
        format_exchange,
    ),
    _simple(
        "takeback",
        ("zurücknehmen", "zuruecknehmen"),
        "Take back this turn's melds while they are below the first-meld minimum.",
        TakeBack,
    ),
    _simple(
        "done",
        ("fertig",),
        "End your lay-offs after someone went out (then the deal is scored).",
        EndLayOffs,
    ),
    _simple(
        "buyback",
        ("rückkauf", "rueckkauf"),
        "Buy back into the game once after being eliminated (pot play, chips).",
        BuyBack,
    ),
    _simple("decline", ("verzichten",), "Do not buy back into the game: stay out.", DeclineBuyBack),
)
