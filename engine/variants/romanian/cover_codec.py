"""The records of the going-out walk (:mod:`engine.variants.romanian.cover`) and their
packed forms: the answer (:class:`Cover`), an open new run and a group laid off on a table
run as small ints behind one codec each (read and written only through the functions
here), the table melds a rack may lay off on, and the values a tile adds to an opening.

romanian-rummy.de.txt: "Um das Spiel zu gewinnen, muss man alle Steine, die man noch
hat, melden bis auf einen Stein – dieser letzte Stein muss abgelegt werden."
The rules these records keep: "Eine Folge (suita), die aus mindestens drei Zahlen der
gleichen Farbe besteht"; "Ein Satz (terta) besteht aus drei oder vier Steinen mit
derselben Zahl und in verschiedenen Farben"; "Eine Meldung muss immer mindestens doppelt
so viele echte Steine enthalten wie Jolys" (:mod:`engine.variants.romanian.melds`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.cards import TILE_COLOURS, Card
from engine.melds import CardSpec
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.tiles import number_value

_COLOURS = len(TILE_COLOURS)
_LAST = 14  # the place of the 1 after the 13
_LONGEST_NEW = 12  # a new run of 13 tiles reads two ways (1..13 and 2..13-1)
_RUN, _PAID = 1, 2  # flags of a state: a new run is down; the meld owed is paid
# What a way does to an open run: a tile, a Joly, it ends.
_TILE, _JOLY, _END = 0, 1, 2
# What a way does to a table run's group: nothing, a tile, a Joly, it is done.
_NONE, _DONE = 3, 4


@dataclass(frozen=True, slots=True)
class Cover:
    """A cover of a rack: ``melds`` (new melds, their tiles as a meld command names them,
    a Joly with its face), ``layoffs`` (table meld index, the tiles laid off on it, low to
    high for a run) and the tiles ``left`` on the rack (for going out: the discard)."""

    melds: tuple[tuple[CardSpec, ...], ...]
    layoffs: tuple[tuple[int, tuple[CardSpec, ...]], ...]
    left: tuple[Card, ...]


# --- open new runs --------------------------------------------------------------------------
# An open new run is a small int: Jolys held (0-2), real tiles held (up to 4: a run with
# two Jolys needs four), where it started (1-4: that place; 0: later, when its length no
# longer matters: twelve tiles at most, 1..12 or 2..13 at most from place 1 or 2),
# whether its last tile is a Joly, whether it holds the tile owed and how many tiles of the
# rack before the take it holds besides (up to 2).


def _run(jolys: int, real: int, start: int, last_joly: int, owed: int, credit: int) -> int:
    return (
        jolys | min(real, 4) << 2 | start << 5 | last_joly << 8 | owed << 9 | min(credit, 2) << 10
    )


def _jolys(run: int) -> int:
    return run & 3


def _real(run: int) -> int:
    return run >> 2 & 7


def _start(run: int) -> int:
    return run >> 5 & 7


def _last_joly(run: int) -> int:
    return run >> 8 & 1


def _holds_owed(run: int) -> int:
    return run >> 9 & 1


def _credit(run: int) -> int:
    return run >> 10 & 3


_OWED_BITS = 7 << 9
_LATE_START = 7 << 5  # the start field


def _closable(run: int) -> bool:
    """Three tiles or more, twice as many real tiles as Jolys."""
    jolys, real = run & 3, run >> 2 & 7
    return real + jolys >= 3 and real >= 2 * jolys


def _start_of(place: int) -> int:
    return place if place <= 4 else 0


def _may_grow(run: int, place: int) -> bool:
    """A new run may take a tile at ``place``: twelve tiles at most."""
    start = run >> 5 & 7
    return place <= _LAST and not (start == 1 and place >= 13) and not (start == 2 and place >= 14)


def _run_room(run: int, last: int) -> int:
    """How many Jolys (0-2) the run ``run``, ending at place ``last``, could take at its
    ends: twelve tiles at most, room inside places 1..14, two real tiles per Joly."""
    start, jolys, real = _start(run), _jolys(run), _real(run)
    length = last - start + 1 if start else min(10, _LONGEST_NEW - 2)
    ends = (start - 1 if start else 4) + (_LAST - last)
    room = 0
    for more in (1, 2):
        if length + more <= _LONGEST_NEW and ends >= more and real >= 2 * (jolys + more):
            room = more
    return room


# --- table runs -----------------------------------------------------------------------------
# The group laid off on a table run is an int too: 0 when none is open; else its phase
# (1: below the run, still growing towards it; 2: below, done, waiting for the place after
# the run; 3: above the run), tiles so far, Jolys among them, tiles below the run.


def _group(phase: int, tiles: int, jolys: int, below: int, last_joly: int = 0) -> int:
    return phase | tiles << 2 | jolys << 6 | below << 8 | last_joly << 12


def _phase(group: int) -> int:
    return group & 3


def _group_tiles(group: int) -> int:
    return group >> 2 & 15


def _group_jolys(group: int) -> int:
    return group >> 6 & 3


def _group_below(group: int) -> int:
    return group >> 8 & 15


def _group_last_joly(group: int) -> int:
    return group >> 12 & 1


@dataclass(frozen=True, slots=True)
class _TableRun:
    target: int
    colour: int
    first: int  # places of the walk: 1..14 (14 is the 1 after the 13, or the 1 low when
    last: int  # the walk goes down)
    size: int
    real: int
    jolys: int

    def fits(self, tiles: int, jolys: int, partial: bool = False) -> bool:
        """Whether the run with a group of ``tiles`` (``jolys`` among them) is one the
        moves accept: thirteen tiles at most, thirteen only when the table run holds the 1
        already (else the group reads two ways), twice as many real tiles as Jolys (not
        asked while the group may still grow: ``partial``)."""
        size = self.size + tiles
        if size > 13 or (size == 13 and self.first != 1 and self.last != _LAST):
            return False
        return partial or self.real + tiles - jolys >= 2 * (self.jolys + jolys)

    def room(self, tiles: int, jolys: int, below: int) -> int:
        """How many more Jolys (0-2) the run with its group could take at its ends."""
        room = 0
        ends = (self.first - below - 1) + (_LAST - (self.last + tiles - below))
        for more in (1, 2):
            if ends >= more and self.fits(tiles + more, jolys + more):
                room = more
        return room


@dataclass(frozen=True, slots=True)
class _TableSet:
    target: int
    number: int
    present: int  # colour mask of its real tiles
    size: int
    jolys: int

    def room(self, tiles: int, jolys: int) -> int:
        """1 when the set with ``tiles`` laid off (``jolys`` among them) takes a Joly more."""
        real = self.size - self.jolys + tiles - jolys
        return int(self.size + tiles < MELD_RULES.max_set and real >= 2 * (self.jolys + jolys + 1))


def _value_in_run(place: int) -> int:
    """What a tile (or a Joly for it) adds to an opening at run place ``place``."""
    if place == 1:
        return 5
    if place == _LAST:
        return 10
    return number_value(place)


def _value_in_set(number: int) -> int:
    return 25 if number == 1 else number_value(number)


@functools.cache
def _splits(rest: int) -> tuple[tuple[int, int, int, int], ...]:
    """The ways to split ``rest`` tiles into (runs started, to sets, staying, waiting for
    place 14), in the order the walk tries them: a tile stays last, runs first."""
    return tuple(
        sorted(
            (
                (starts, to_sets, stay, rest - starts - to_sets - stay)
                for starts in range(rest + 1)
                for to_sets in range(rest - starts + 1)
                for stay in range(rest - starts - to_sets + 1)
            ),
            key=lambda s: (s[2], -s[0], s[3]),
        )
    )


def _order(items: Sequence[int]) -> tuple[int, ...]:
    """The indexes of ``items`` in the order of their values (a stable sort)."""
    return tuple(sorted(range(len(items)), key=items.__getitem__))


class Element(NamedTuple):
    """What one colour has after a step: its open new runs (packed, in order), the groups
    on its table runs (packed), its 1s waiting for place 14, its flags (a run made, the
    meld owed paid) and whether a new meld with room would pay a Joly owed."""

    runs: tuple[int, ...]
    groups: tuple[int, ...]
    kept: int
    flags: int
    pay: int


_Element = Element
# A belief: the elements a colour may have after a step, each with its merit (the opening
# value so far, or the room for free Jolys: more is never worse).
_Belief = frozenset[tuple[Element, int]]
# What a colour's way uses at a step: (tiles to sets, Jolys, tiles left).
_Use = tuple[int, int, int]


class Node(NamedTuple):
    """A node of the search: the step, the four beliefs, the Jolys of the sets so far,
    their flags, pay room and merit."""

    step: int
    beliefs: tuple[_Belief, ...]
    jolys: int
    left: int
    flags: int
    pay: int
    merit: int


_Node = Node


class WayHow(NamedTuple):
    """What a colour's way did at a step, for the rebuild: per open run its code (a tile,
    a Joly, it ends), the runs started with a tile and with a Joly, per table run its
    group's code, the tiles staying, and the new order of the open runs."""

    codes: tuple[int, ...]
    starts: int
    joly_starts: int
    group_codes: tuple[int, ...]
    stay: int
    order: tuple[int, ...]


class ColourWay(NamedTuple):
    """One way of one colour at one step
    (:meth:`engine.variants.romanian.cover_colours._ColourSteps.colour_ways`)."""

    runs: tuple[int, ...]  # the open runs after (packed, cover_codec), in order
    groups: tuple[int, ...]  # the groups on the colour's table runs after
    jolys: int  # Jolys used
    to_sets: int  # tiles sent to sets of the number
    left: int  # tiles left on the rack after
    wait: int  # 1s waiting for place 14
    flags: int  # a run made, the meld owed paid
    value: int  # what the way adds to an opening
    room: int  # room for free Jolys in the melds done here
    pay: int  # a new meld done here with room would pay a Joly owed
    how: WayHow


class SetWay(NamedTuple):
    """One way to group the tiles that the colours send to sets of one number
    (:meth:`engine.variants.romanian.cover_sets._Sets.set_ways`)."""

    jolys: int  # Jolys used
    tiles: int  # tiles in new sets (their value counts for an opening)
    pays: bool  # a new set pays the meld owed
    room: int  # room for free Jolys (up to two)
    pay: int  # a new set with room would pay a Joly owed
    items: tuple[Any, ...]  # ("m", tiles): a new set; ("s", table meld, tiles): a lay-off
