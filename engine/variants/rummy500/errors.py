"""Illegal moves of Rummy 500 (stable codes; params are strings or numbers).

English templates here; the bot's translations are keyed by ``code`` in
``bot/i18n/errors.py``.
"""

from __future__ import annotations

from engine.errors import N_, IllegalMove


class NotInPile(IllegalMove):
    """The named card is not in the discard pile (below the top card, for a deep take)."""

    code = "not_in_pile"
    template = N_("{card} is not in the discard pile.")


class PileCardUnplayable(IllegalMove):
    """Taking a card from the discard pile that could not be played this turn.

    rummy-500.de.txt: "Sie spielen die Karte sofort - entweder durch Auslegen einer
    neuen Zusammenstellung oder indem Sie sie an eine bestehende Meldung anlegen".
    """

    code = "pile_card_unplayable"
    template = N_(
        "You could not meld or lay off {card} this turn, so you may not take it from the discard "
        "pile."
    )


class PileCardNoNewMeld(IllegalMove):
    """Taking a card from the pile that could not go into a new meld this turn
    (``take_new_meld``)."""

    code = "pile_card_no_new_meld"
    template = N_(
        "You could not put {card} into a new meld this turn, so you may not take it from the "
        "discard pile."
    )


class MustPlayPileCard(IllegalMove):
    """Ending the turn while the card taken from the pile is still in the hand."""

    code = "must_play_pile_card"
    template = N_("Meld or lay off {card} first: you took it from the discard pile this turn.")


class PileCardBlocked(IllegalMove):
    """A move that would leave no way to play the card taken from the pile this turn."""

    code = "pile_card_blocked"
    template = N_("That would leave no way to play {card}, which you took from the discard pile.")


class PileCardNeedsNewMeld(IllegalMove):
    """Laying off the card taken from the pile when it must go into a new meld."""

    code = "pile_card_needs_new_meld"
    template = N_(
        "{card} must go into a new meld of three or more cards; laying it off does not count."
    )


class CallingOff(IllegalMove):
    """A call under rules without calls (``calling=off``)."""

    code = "calling_off"
    template = N_("These rules have no Rommé! calls.")


class NoCallWindow(IllegalMove):
    """A call outside the call window (after a discard, before the next player draws)."""

    code = "no_call_window"
    template = N_("Rommé! can be called only after a discard, before the next player draws.")


class DiscarderCannotCall(IllegalMove):
    """The player who just discarded calls on their own discard."""

    code = "discarder_cannot_call"
    template = N_("You discarded last; only the other players may call Rommé! now.")


class NothingToCall(IllegalMove):
    """A call when no card of the discard pile can be played at once."""

    code = "nothing_to_call"
    template = N_("There is nothing to call: no card of the discard pile can be played at once.")


class NotCallable(IllegalMove):
    """A call naming a card that cannot be played at once (or is not the last discard where
    only that may be called)."""

    code = "not_callable"
    template = N_("{card} cannot be called: it cannot be played at once.")


class CallNeedsCard(IllegalMove):
    """A call without a card when several cards could be called."""

    code = "call_needs_card"
    template = N_("Say which card you call: {cards}.")


class CallNeedsMeld(IllegalMove):
    """A lay-off call without a meld number when the card fits several melds."""

    code = "call_needs_meld"
    template = N_("Say on which meld to lay off {card}: {numbers}.")


class CallTakesNoMeld(IllegalMove):
    """A meld number in a call where the caller plays a turn of their own."""

    code = "call_takes_no_meld"
    template = N_("Name only the card (call {card}); you meld or lay it off in your own turn.")


class LastCardCallable(IllegalMove):
    """A take while the last card of a player who discarded it may still be called
    (``going_out=callable``): call it, or draw and let the hand end."""

    code = "last_card_callable"
    template = N_(
        "{player} goes out with {card} unless someone calls Rommé! on it: call it, or draw "
        "and the hand ends."
    )


class PlayableLastCard(IllegalMove):
    """Going out by discarding a card that could be laid off (``going_out=unplayable``)."""

    code = "playable_last_card"
    template = N_(
        "You cannot go out by discarding {card}: it can be laid off, so lay it off instead."
    )
