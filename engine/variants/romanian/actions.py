"""The actions only Romanian Rummy has (their command text is in :mod:`.commands`).

Pre-play (before the first discard, each player in turn from the first player):
:class:`AnnounceDoubla`, :class:`OfferDoubla`, :class:`AnswerDoubla`,
:class:`AnnounceFaceUp`, :class:`Ready`. Play: :class:`TakeFaceUp` and
:class:`ExchangeJoly` (the shared ``swap`` is the one-tile exchange).

romanian-rummy.de.txt: "Bevor das eigentliche Spiel beginnt, kann ein Spieler, der zwei
gleiche Steine (von derselben Farbe und mit der gleichen Zahl) hat, „doubla“ ansagen";
"Hat man genau den Stein, den ein Joly in einer eigenen oder der Meldung eines anderen
Spielers ersetzt, darf man den Joly nehmen und durch diesen Stein ersetzen"; "Nur bei
diesem letzten Spielzug darf man den offen liegenden Anfangsstein vom Ende der Mauer
aufnehmen".
"""

from __future__ import annotations

from typing import cast

from engine.actions import Action
from engine.cards import Card
from engine.record_class import record


@record
class AnnounceDoubla:
    """Announce a doubla (two identical tiles), optionally as ``"high"`` or ``"low"``
    (``doubla``, ``doubla high``)."""

    seat: int
    hint: str = ""


@record
class OfferDoubla:
    """Offer the pair of ``tile`` (given face down) to player ``partner`` (a name) for
    theirs (``offer r7 ben``)."""

    seat: int
    tile: Card
    partner: str


@record
class AnswerDoubla:
    """Answer the offered swap: give the pair of ``tile`` (``accept k12``) or reject
    (``reject``, ``tile`` ``None``)."""

    seat: int
    tile: Card | None = None


@record
class AnnounceFaceUp:
    """Announce holding the twin of the face-up tile (``announce``; +25 at the end)."""

    seat: int


@record
class Ready:
    """Finish the pre-play step (``ready``)."""

    seat: int


@record
class TakeFaceUp:
    """Take the face-up tile instead of drawing, to go out with it this turn (``faceup``)."""

    seat: int


@record
class ExchangeJoly:
    """Put ``tiles`` (one, or the two missing colours of a set of three) in place of the
    Joly in meld ``meld`` (0-based) and take the Joly (``joly b7 k7 3``)."""

    seat: int
    tiles: tuple[Card, ...]
    meld: int


PRE_PLAY_ACTIONS: tuple[type, ...] = (
    AnnounceDoubla,
    OfferDoubla,
    AnswerDoubla,
    AnnounceFaceUp,
    Ready,
)


def as_action(action: object) -> Action:
    """A variant action where the shared flow expects an :data:`engine.actions.Action`
    (the variant's actions are not members of that union)."""
    return cast("Action", action)
