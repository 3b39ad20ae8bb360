"""The ``call`` verb of the command language (Rummy 500).

Forms (``call`` or the aliases ``rommé``, ``romme``, ``rommé!``, ``romme!``,
``rufen``)::

    call                  the one card that can be called
    call kh               take the discard pile down to K♥ and play it (calling=any)
    call 10h 2            lay the last discard 10♥ off on meld 2 (calling=last_layoff)
    call jk=8h 2          the same for a joker, saying what it stands for

The meld number is 1-based as on the table and comes last, as in ``layoff``.
"""

from __future__ import annotations

from engine.melds import CardSpec
from engine.variants.base import VariantCommand
from engine.variants.rummy500.actions import CallRummy
from engine.verbs import BadMeldNumber, CommandHelp, TooManyArgs, help_override

TAKE_HELP = help_override(
    "take",
    "take [7h]",
    "Take the upcard, or the discard pile down to a card you name (take 7h); a card taken "
    "from under the upcard must be played at once.",
)
"""Rummy 500's ``take``: the whole spread discard pile may be taken down to a card
(rummy-500.de.txt)."""

CALL_HELP = CommandHelp(
    "call",
    ("rommé", "romme", "rommé!", "romme!", "rufen"),
    "call [kh] [2]",
    "Call Rommé! after another player's discard, before the next player draws: take the "
    "discard pile down to a card that can be played at once (call kh) and play it; with "
    "calling=last_layoff, lay the last discard off on a meld (call 10h 2).",
)


def parse_call(verb: str, args: list[str], seat: int) -> CallRummy:
    """``call``, ``call kh``, ``call 10h 2`` or ``call jk=8h 2`` typed by ``seat``.

    Raises ``CommandError`` (``too_many_args``, ``bad_meld_number``) or
    ``CardParseError`` (``bad_card``).
    """
    if len(args) > 2:
        raise TooManyArgs(verb)
    if not args:
        return CallRummy(seat)
    meld: int | None = None
    if len(args) == 2:
        text = args[1][1:] if args[1].startswith("#") else args[1]
        if not text.isdigit() or int(text) < 1:
            raise BadMeldNumber(args[1])
        meld = int(text) - 1
    spec = CardSpec.parse(args[0])
    return CallRummy(seat, spec.card, meld, spec.face)


def format_call(action: CallRummy) -> str:
    """The canonical text: ``call``, ``call kh``, ``call 10h 2``, ``call jk=8h 2``."""
    words = ["call"]
    if action.card is not None:
        words.append(str(CardSpec(action.card, action.face)))
    if action.meld is not None:
        words.append(str(action.meld + 1))
    return " ".join(words)


CALL_COMMAND = VariantCommand(
    help=CALL_HELP, parse=parse_call, action_type=CallRummy, format=format_call
)
