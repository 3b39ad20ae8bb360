"""Refusals of German Rommé (``german``): :class:`engine.errors.IllegalMove` subclasses with
stable codes and params (for translations), and the one command-syntax error of its verbs.

Sentences are from shared/rules/german-romme.de.txt.
"""

from __future__ import annotations

from engine.errors import N_, CommandError, IllegalMove


class OpeningTooLow(IllegalMove):
    """The melds of this turn do not reach the first-meld minimum yet, so the turn cannot
    end: "wenn die Punktsumme der gemeldeten Karten zusammen 40 (30) oder mehr Punkte
    beträgt". ``total``: points melded this turn; ``needed``: the minimum."""

    code = "opening_too_low"
    template = N_(
        "Your first meld has {total} points; it needs {needed}. Meld more, or take your melds "
        "back with takeback."
    )


class NotOpenedYet(IllegalMove):
    """Laying off or exchanging a joker before the first meld of an earlier turn: "Wenn er
    bereits seine erste Figur(en) in einem vorherigen Spielzug melden konnte"."""

    code = "not_opened_yet"
    template = N_(
        "You may lay off or exchange jokers only after your first meld, from your next turn on."
    )


class OneLayOffPerTurn(IllegalMove):
    """House rule: "In einem Spielzug darf ein Spieler nur eine Karte an eine Figur
    ergänzen." """

    code = "one_layoff_per_turn"
    template = N_("Only one card may be laid off per turn.")


class NoRummyFirstTurn(IllegalMove):
    """House rule: "Es ist nicht erlaubt im 1. Spielzug Rummy zu gehen"."""

    code = "no_rummy_first_turn"
    template = N_("You may not go out with hand rummy in your first turn.")


class NothingToTakeBack(IllegalMove):
    """``takeback`` without melds of this turn that are still below the first-meld minimum."""

    code = "nothing_to_take_back"
    template = N_(
        "There is nothing to take back: only the melds of an unfinished first meld can be."
    )


class ExchangeNeedsMeld(IllegalMove):
    """A plain ``swap`` would put the joker into the hand: "Ein ausgetauschter Joker darf
    also nicht für spätere Spielzüge in sein Blatt eingegliedert werden, sondern muss sofort
    mit einer Figur ausgelegt werden." """

    code = "exchange_needs_meld"
    template = N_(
        "The freed joker must go into a new meld at once: use exchange, e.g. exchange 8h 3 | jk "
        "9h 10h."
    )


class ExchangeNoJoker(IllegalMove):
    """No joker of meld ``number`` stands for ``card`` (or more than one card was named)."""

    code = "exchange_no_joker"
    template = N_("No joker in meld {number} stands for {card}.")


class ExchangeNeedsFour(IllegalMove):
    """House rule: "Ein Joker in einem gemeldeten Drilling darf nur ausgetauscht werden, wenn
    er beide fehlenden Karten der selben Ranghöhe ergänzt werden, also nach dem Tausch ein
    Vierling ohne Joker da liegt." ``cards``: the cards that would do it."""

    code = "exchange_needs_four"
    template = N_(
        "The joker in meld {number} may only be exchanged for all missing cards at once, a four "
        "without jokers: {cards}."
    )


class FreedJokerNotMelded(IllegalMove):
    """The new meld of an exchange does not hold the freed joker(s) (``jokers``)."""

    code = "freed_joker_not_melded"
    template = N_("The new meld must hold the freed joker: write jk in it ({jokers} needed).")


class DealerDiscardsFirst(IllegalMove):
    """Option: the dealer took an extra card and opens the deal by discarding: "Er wirft
    dann eine Karte aufgedeckt als erste Karte des Abwurfstapels ab"."""

    code = "dealer_discards_first"
    template = N_("The dealer begins this deal by discarding one card.")


class ClosingLayOffsOnly(IllegalMove):
    """House rule: after someone went out, the others only lay off (or say ``done``): "dürfen
    die Spieler der Reihe nach eine oder mehrere Karten an (alle) Figuren ergänzen, bevor
    abgerechnet wird"."""

    code = "closing_layoffs_only"
    template = N_("Someone went out: lay off cards on the melds, or say done.")


class NotClosing(IllegalMove):
    """``done`` outside the lay-offs after someone went out."""

    code = "not_closing"
    template = N_("done ends your lay-offs after someone went out; there are none now.")


class BuyBackPending(IllegalMove):
    """An eliminated player must first say ``buyback`` or ``decline`` (pot play money)."""

    code = "buyback_pending"
    template = N_("First decide about buying back into the game: buyback or decline.")


class NoBuyBack(IllegalMove):
    """``buyback``/``decline`` when no buy-back is offered."""

    code = "no_buyback"
    template = N_("There is no buy-back to decide now.")


class ExchangeSyntax(CommandError):
    """``exchange`` needs: card(s), the meld number, ``|`` and the new meld with the joker."""

    code = "exchange_syntax"
    template = N_(
        "exchange: name the card, the meld number, | and the new meld with the joker, e.g. "
        "exchange 8h 3 | jk 9h 10h."
    )

    def __init__(self) -> None:
        super().__init__()
