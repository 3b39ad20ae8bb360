"""Public events of Romanian Rummy (no hidden tile is named in them).

romanian-rummy.de.txt: "Jeder Spieler gibt sein Paar gleicher Steine verdeckt dem
anderen Spieler" (a doubla swap names no tile); "Ein Spieler, der nur noch drei oder
weniger Steine hat, muss das den anderen Spielern ansagen."
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from engine.cards import Card
from engine.events import Event
from engine.record_class import record


@record
class DoublaAnnounced:
    """``seat`` announced a doubla; ``hint`` is ``""``, ``"high"`` or ``"low"``."""

    seat: int
    hint: str


@record
class FaceUpAnnounced:
    """``seat`` announced holding the twin of the face-up ``tile`` (+25 at the end)."""

    seat: int
    tile: Card


@record
class DoublaOffered:
    """``seat`` offered ``partner`` to swap doublas (the tiles stay hidden)."""

    seat: int
    partner: int


@record
class DoublaAnswered:
    """``partner`` accepted (the pairs were swapped face down) or declined ``seat``'s offer."""

    seat: int
    partner: int
    accepted: bool


@record
class PlayerReady:
    """``seat`` finished the pre-play step."""

    seat: int


@record
class PlayBegins:
    """The pre-play step is over; ``seat`` (15 tiles) begins by discarding."""

    seat: int


@record
class TookFromRow:
    """``seat`` took ``tile`` from the discard row with every tile after it (``tiles``,
    ``tile`` first) and must meld ``tile`` at once."""

    seat: int
    tile: Card
    tiles: tuple[Card, ...]


@record
class TookFaceUp:
    """``seat`` took the face-up ``tile`` to go out with it."""

    seat: int
    tile: Card


@record
class JolyExchanged:
    """``seat`` put ``tiles`` in place of the Joly of meld ``index`` (0-based) and must
    meld the Joly at once."""

    seat: int
    index: int
    tiles: tuple[Card, ...]


@record
class FewTilesLeft:
    """``seat`` has ``count`` tiles left (3 or fewer): "Ein Spieler, der nur noch drei
    oder weniger Steine hat, muss das den anderen Spielern ansagen"."""

    seat: int
    count: int


@record
class GameBlocked:
    """No tile in play can be melded, laid off or take a Joly's place any more: the wall
    would be renewed for ever, so game ``deal_number`` ends without a winner
    (:mod:`engine.variants.romanian.blocked`)."""

    deal_number: int


@record
class SeatScore:
    """One line of the score sheet: ``melded`` (tiles this seat put on the table, Jolys
    excluded), ``jolys`` (+50 per Joly it melded first), ``rack`` (value left on the rack,
    a Joly 25), ``no_meld`` (the penalty of a seat that never melded, else 0),
    ``bonus`` (winner 100, all at once 100, face-up announcement 25), ``doubled`` and
    ``total``."""

    melded: int
    jolys: int
    rack: int
    no_meld: int
    bonus: int
    doubled: bool
    total: int


@record
class ScoreSheet:
    """How each seat's score of the game was made up (after ``HandEnded``)."""

    lines: tuple[SeatScore, ...]


def as_events(items: Iterable[object]) -> tuple[Event, ...]:
    """Events for the shared ``(state, events)`` result: the variant's events are not
    members of the :data:`engine.events.Event` union, so the tuple is cast."""
    return cast("tuple[Event, ...]", tuple(items))
