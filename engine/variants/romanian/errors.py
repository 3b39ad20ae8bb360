"""Illegal moves of Romanian Rummy (each with a stable code and its parameters).

romanian-rummy.de.txt, one of the rules they enforce: "Eine Meldung muss immer mindestens
doppelt so viele echte Steine enthalten wie Jolys."
"""

from __future__ import annotations

from engine.errors import N_, IllegalMove


class PrePlayPending(IllegalMove):
    """A play move while the pre-play step (doubla, announcements) is not over."""

    code = "romanian_preplay"
    template = N_(
        "Before play: {player} may announce a doubla or the face-up tile, then says ready."
    )


class PrePlayOver(IllegalMove):
    """A pre-play move (doubla, announce, ready ...) once play has begun."""

    code = "romanian_preplay_over"
    template = N_("Doubla and announcements are made before the first discard only.")


class AnnounceTooLate(IllegalMove):
    """Announcing the face-up tile's twin after one's first turn has begun (the reading of
    "vor seinem ersten Spiel": before the seat's own first turn, docs/readings.md)."""

    code = "romanian_announce_too_late"
    template = N_("The twin of the face-up tile is announced before your first turn only.")


class NoPair(IllegalMove):
    """A doubla move naming a tile the seat does not hold twice (or no pair at all)."""

    code = "romanian_no_pair"
    template = N_("You do not hold two {tile}.")


class NoDoubla(IllegalMove):
    """Announcing a doubla without two identical tiles."""

    code = "romanian_no_doubla"
    template = N_("You hold no two identical tiles.")


class DoublaAgain(IllegalMove):
    """Announcing a second doubla."""

    code = "romanian_doubla_again"
    template = N_("You have announced your doubla already.")


class NoDoublaHint(IllegalMove):
    """Announcing a doubla as high or low when no pair fits."""

    code = "romanian_no_doubla_hint"
    template = N_("None of your pairs is {hint} (low: 1 to 7, high: 8 to 13).")


class HintMismatch(IllegalMove):
    """A doubla announced as high or low that does not fit (low: 1..7, high: 8..13)."""

    code = "romanian_hint_mismatch"
    template = N_("{tile} is not a {hint} doubla (low: 1 to 7, high: 8 to 13).")


class OfferNotAllowed(IllegalMove):
    """A doubla swap offer that the rules do not allow now."""

    code = "romanian_offer_not_allowed"
    template = N_(
        "You cannot offer {player} a doubla swap: both of you must have announced a doubla, "
        "neither has swapped, and each player offers once."
    )


class OfferPending(IllegalMove):
    """Another pre-play move while a doubla swap offered to this seat awaits its answer."""

    code = "romanian_offer_pending"
    template = N_(
        "{player} offers you a doubla swap: accept it with one of your pairs or reject it."
    )


class NoOffer(IllegalMove):
    """An answer when no doubla swap is offered to this seat."""

    code = "romanian_no_offer"
    template = N_("Nobody offers you a doubla swap.")


class NoTwin(IllegalMove):
    """Announcing the face-up tile's twin without holding it (or a second time)."""

    code = "romanian_no_twin"
    template = N_("You cannot announce {tile}: you do not hold it, or you announced it already.")


class FirstDiscard(IllegalMove):
    """The first player's first move is a discard, nothing else."""

    code = "romanian_first_discard"
    template = N_("The first player begins by discarding one tile.")


class NotOpened(IllegalMove):
    """A move that needs an opening made in an earlier turn (lay-off, taking from the row,
    Joly exchange)."""

    code = "romanian_not_opened"
    template = N_(
        "You have not opened yet: first meld at least {points} points from your rack, with at "
        "least one run."
    )


class OpeningTooLow(IllegalMove):
    """The opening melds are worth too little."""

    code = "romanian_opening_low"
    template = N_("Your opening is worth {value} points; it must be worth at least {points}.")


class OpeningNeedsRun(IllegalMove):
    """The opening melds hold no run."""

    code = "romanian_opening_run"
    template = N_("Your opening must hold at least one run.")


class OpeningTurn(IllegalMove):
    """Laying off on another player's meld or exchanging a Joly in the opening turn."""

    code = "romanian_opening_turn"
    template = N_(
        "In the turn of your opening you may not lay off on other players' melds or exchange a "
        "Joly."
    )


class FewTiles(IllegalMove):
    """Taking from the discard row with one or two tiles."""

    code = "romanian_few_tiles"
    template = N_("With one or two tiles you must draw from the wall.")


class FirstTileTaken(IllegalMove):
    """Taking the first discard of the row, or from a row that holds only it."""

    code = "romanian_first_tile"
    template = N_("The first tile of the discard row can never be taken.")


class NotInRow(IllegalMove):
    """Taking a tile that is not in the discard row (after its first tile)."""

    code = "romanian_not_in_row"
    template = N_("There is no {tile} in the discard row to take.")


class NoRowMeld(IllegalMove):
    """Taking a tile from deeper in the row without two rack tiles to meld it with."""

    code = "romanian_no_row_meld"
    template = N_("You hold no two tiles that make a set or run with {tile}.")


class ObligationPending(IllegalMove):
    """Something else before the meld owed this turn (``kind``: row, joly, opening)."""

    code = "romanian_obligation"
    template = N_("First meld {tile} in a new meld with at least two tiles of your rack.")


class ObligationNotMet(IllegalMove):
    """A meld that does not fulfil the meld owed this turn."""

    code = "romanian_obligation_meld"
    template = N_("This meld must hold {tile} and at least two tiles that were on your rack.")


class NoFaceUp(IllegalMove):
    """Taking the face-up tile when it is gone."""

    code = "romanian_no_face_up"
    template = N_("The face-up tile has been taken already.")


class FaceUpNotOut(IllegalMove):
    """Taking the face-up tile without being able to go out with it this turn."""

    code = "romanian_face_up_not_out"
    template = N_("You may take the face-up tile {tile} only to go out with it this turn.")


class MustGoOut(IllegalMove):
    """After taking the face-up tile, a move that would not let the turn end by going out."""

    code = "romanian_must_go_out"
    template = N_(
        "You took the face-up tile: meld or lay off all tiles but one and discard the last; this "
        "move would not let you go out."
    )


class ExchangeNeedsPair(IllegalMove):
    """One tile for the Joly of a set of three: rule 6 needs both missing colours."""

    code = "romanian_exchange_pair"
    template = N_(
        "The Joly in a set of three can only be exchanged for both missing colours together; a "
        "single tile may be laid off instead."
    )


class ExchangeUnusable(IllegalMove):
    """A Joly exchange whose freed Joly could not be melded at once with two rack tiles."""

    code = "romanian_exchange_use"
    template = N_("You could not meld the freed Joly at once with two tiles of your rack.")
