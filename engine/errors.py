"""Typed errors of the engine.

Every rejected move raises an :class:`IllegalMove` subclass and leaves the
state unchanged. Each error has a stable ``code`` and ``params`` so the bot can
render it in the player's language; ``str(error)`` is the English message.

An error's ``template`` is written once, here: marked with :func:`N_`, it is the msgid
of the bot's catalogue (``pybabel extract ... bot engine``), and the bot translates it
(:func:`bot.i18n.errors.localize_error`); only the few codes whose params carry English
parts are rebuilt there.
"""

from __future__ import annotations

from typing import Any


def N_(message: str) -> str:
    """Mark an English template as a msgid for extraction; returns it unchanged (the
    engine does no I/O and knows no gettext)."""
    return message


class EngineError(Exception):
    """Base class of every error the engine raises on purpose.

    ``code``: stable snake_case id used by translations. ``params``: the values
    the message template refers to (strings or numbers only).
    """

    code = "engine_error"
    template = "{detail}"

    def __init__(self, **params: Any) -> None:
        self.params: dict[str, Any] = params
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """The English message with ``params`` filled in."""
        try:
            return self.template.format(**self.params)
        except (KeyError, IndexError):
            return self.code


class CardParseError(EngineError, ValueError):
    """A card name that is not in the notation (``'11h'``, ``'7x'``). ``piece`` and
    ``examples`` name the notation of the table: ``"card"`` with card examples, or
    ``"tile"`` with tile examples where a variant plays with tiles."""

    code = "bad_card"
    template = "'{text}' is not a {piece} (examples: {examples})"

    def __init__(self, text: str, piece: str = "card", examples: str = "7h 10d qs ac jk") -> None:
        super().__init__(text=text, piece=piece, examples=examples)


class CommandError(EngineError, ValueError):
    """A text command that cannot be parsed (unknown verb, missing argument)."""

    code = "bad_command"
    template = "{detail}"


class RuleOptionError(EngineError, ValueError):
    """An unknown rule option, a bad option value, or an unknown variant/preset."""

    code = "bad_option"
    template = "{detail}"


class IllegalMove(EngineError):
    """An action the rules forbid in this state. The state is left unchanged."""

    code = "illegal_move"
    template = N_("That move is not allowed.")


class NotYourTurn(IllegalMove):
    """A seat acted out of turn."""

    code = "not_your_turn"
    template = N_("It is not your turn ({player} is to play).")


class WrongPhase(IllegalMove):
    """The action does not fit the phase (e.g. discarding before drawing)."""

    code = "wrong_phase"
    template = "you cannot {action} now: {expected}"


class CardNotInHand(IllegalMove):
    """A card named in an action is not in the acting seat's hand."""

    code = "card_not_in_hand"
    template = N_("{card} is not in your hand.")


class InvalidMeld(IllegalMove):
    """The cards do not form a valid set or run (``reason`` says why)."""

    code = "invalid_meld"
    template = N_("{cards} is not a valid meld: {reason}")


class AmbiguousJoker(IllegalMove):
    """A joker could stand for several cards; the player must declare it (``jk=8h``)."""

    code = "ambiguous_joker"
    template = N_("Say what the joker stands for, e.g. jk=8h. Possible melds: {readings}")


class NoSuchMeld(IllegalMove):
    """A meld number that is not on the table."""

    code = "no_such_meld"
    template = N_("There is no meld {number} on the table.")


class InvalidLayOff(IllegalMove):
    """The cards cannot be laid off on that meld."""

    code = "invalid_layoff"
    template = N_("{cards} cannot be laid off on meld {number}: {reason}")


class MeldLimit(IllegalMove):
    """More melds in one turn than the rules allow."""

    code = "meld_limit"
    template = "only one meld per turn is allowed"


class MustMeldFirst(IllegalMove):
    """Laying off before an own meld, when the house rule forbids it."""

    code = "must_meld_first"
    template = N_("You may lay off only after you have melded yourself.")


class CannotDiscardTaken(IllegalMove):
    """Discarding the card just taken from the discard pile in the same turn."""

    code = "cannot_discard_taken"
    template = N_("You cannot discard {card}: you took it from the discard pile this turn.")


class NoDiscardLeft(IllegalMove):
    """The move would leave only copies of the card taken from the pile, so the turn could
    not end with a discard."""

    code = "no_discard_left"
    template = N_("You would have nothing left to discard but {card}, which you took this turn.")


class FinalDiscardRequired(IllegalMove):
    """Melding or laying off the last card when going out needs a final discard."""

    code = "final_discard_required"
    template = N_("You must keep one card to discard when you go out.")


class AllAtOnceRequired(IllegalMove):
    """Wrotham deals 4-6: melding is allowed only when the whole hand goes down at once."""

    code = "all_at_once_required"
    template = N_("In this deal you may only meld when you put down your whole hand at once.")


class DeepTakeNotAllowed(IllegalMove):
    """Taking a card from below the top of the discard pile, where the rules allow only
    the upcard."""

    code = "deep_take_not_allowed"
    template = N_("Only the top card of the discard pile may be taken here, not {card}.")


class NothingToDraw(IllegalMove):
    """The discard pile is empty, so there is no upcard to take."""

    code = "nothing_to_take"
    template = N_("The discard pile is empty.")


class InvalidJokerSwap(IllegalMove):
    """A joker exchange that the rules do not allow (``reason`` says why)."""

    code = "invalid_joker_swap"
    template = "no joker swap: {reason}"


class GameOver(IllegalMove):
    """The match has ended; no more moves."""

    code = "game_over"
    template = N_("The game is over.")
