"""Going out, decided exactly: can a rack meld and lay off all its tiles but one this
turn? The cost is bounded by the rack's shape (its tiles per number and colour, the
table runs it may lay off on), never by a budget of steps.

romanian-rummy.de.txt: "Um das Spiel zu gewinnen, muss man alle Steine, die man noch
hat, melden bis auf einen Stein – dieser letzte Stein muss abgelegt werden."

:func:`cover` answers with a *cover*: new melds (one meld action) and lay-off groups on
table melds (one group per meld) holding every tile but one, the discard (never ``keep``),
with the opening value and a run when the seat has not opened, and the meld owed this
turn among the new melds; or with ``None`` when there is none.

**The walk.** The places of a run are walked in order: 1..13, then 14 (the 1 after the
13). At each step every tile of that number is placed at once: it continues an open run
of its colour (a new run, or a group laid off below or above a table run), starts one,
goes into a set of its number (new, or laid off on a table set), is the discard, or (a 1)
waits for place 14; a Joly stands for a tile in a run or a set. Between steps only what
the rest of the walk needs is kept, per colour as an *element*: its open new runs (Jolys
and real tiles held, up to what the rules still ask of them; where it started, as far as
its length matters; whether it holds the tile owed and how many tiles of the rack before
the take besides), the groups laid off so far on its table runs, its 1s waiting, whether
it made a run or paid the meld owed, with a *merit* that is only ever better higher (the
opening value, up to the value needed; or the room for free Jolys, below). The colours
meet only through what their ways *use* at a step (tiles to sets of the number, Jolys,
the tile left), so a node of the search holds per colour the *belief* (every element the
colour may have after the same uses step by step), the Jolys and flags of the sets so
far: every combination of one element per colour is reachable, and none other
(:meth:`_Cover.children`; each colour's ways for a given element are listed once per
question, :meth:`_Cover.colour_ways`, the tiles meant for sets grouped by
:meth:`_Cover.set_ways`). A node is taken on only when the colours together still can
end (:meth:`_Cover.colour_needs`, a necessary condition: the Jolys and the one discard
suffice for what each colour needs, the opening value is within reach, the meld owed can
still be paid). The search goes depth first, one child after another, and remembers the
nodes that lead nowhere (with the merit of their sets): a node is taken on once per merit
at most, so the work is bounded by the number of nodes, which the tiles per number and
colour bound (two of a tile, two Jolys). At the end one element per colour is chosen
(:meth:`_Cover.final`) and each colour's ways are found again along the uses of the path
(:meth:`_Cover.rebuild`). The rules read the same from either end (1-2-3 and 12-13-1), so
a second search goes down the places; the two take turns (:func:`cover`).

**Free Jolys.** When the seat has opened (no opening value to reach), a Joly that its meld
can do without (at an end of a run of four tiles or more, in a set of four, at the outer
end of a group laid off, on a table set) is *free*: take it out and the cover stays a
cover. Free Jolys are not placed during the walk; the merit counts how many Jolys the
melds could take at their ends (up to two), and at the end the Jolys left go there, or one
is the discard. So during the walk a Joly only fills a gap of a run or of a group, or
completes a run or a set of two real tiles (a run may begin with one only at the 12, for
12-13-1: any other run beginning with a Joly can have it at its other end instead). A Joly
owed (freed, or taken from the row) is paid by a new meld holding a Joly: one placed in
the walk, or a free one that goes to a new meld with room for it.

**The rules** as they bind a cover (:mod:`engine.variants.romanian.melds`, the moves'
:func:`engine.melds.readings` and :func:`engine.melds.extend_readings`, one reading each):
runs of three or more, the 1 low or after the 13, never round the corner; a new run of
thirteen tiles reads two ways (1..13 and 2..13-1), so new runs have twelve at most, and a
table run grows to thirteen only when it holds the 1 already; sets of three or four
distinct colours; every meld twice as many real tiles as Jolys. Values: 2-9 five, 10-13
ten, a 1 five low, ten after the 13, 25 in a set; a Joly as the tile it stands for. A tile
owed from the row is paid by a new meld holding it with two tiles that were on the rack
before the take (:func:`engine.variants.romanian.obligation.pays`), a freed Joly by a new
meld holding a Joly, the previous discard of an opening by a new meld holding it.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import JOKER, TILE_COLOURS, Card, Suit, shared_card
from engine.melds import CardSpec, Meld, MeldKind, joker_spec, natural_spec, rank_at
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.state import Obligation
from engine.variants.romanian.tiles import most_value, number_value

__all__ = ["Cover", "cover"]

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
    return (jolys | min(real, 4) << 2 | start << 5 | last_joly << 8 | owed << 9
            | min(credit, 2) << 10)


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
    last: int   # the walk goes down)
    size: int
    real: int
    jolys: int

    def fits(self, tiles: int, jolys: int, partial: bool = False, relaxed: bool = False
             ) -> bool:
        """Whether the run with a group of ``tiles`` (``jolys`` among them) is one the
        moves accept: thirteen tiles at most, thirteen only when the table run holds the 1
        already (else the group reads two ways), twice as many real tiles as Jolys (not
        asked while the group may still grow: ``partial``)."""
        if relaxed:
            return True
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
        return int(self.size + tiles < MELD_RULES.max_set
                   and real >= 2 * (self.jolys + jolys + 1))


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
    return tuple(sorted(((starts, to_sets, stay, rest - starts - to_sets - stay)
                         for starts in range(rest + 1) for to_sets in range(rest - starts + 1)
                         for stay in range(rest - starts - to_sets + 1)),
                        key=lambda s: (s[2], -s[0], s[3])))


def _order(items: Sequence[int]) -> tuple[int, ...]:
    """The indexes of ``items`` in the order of their values (a stable sort)."""
    return tuple(sorted(range(len(items)), key=items.__getitem__))


# An element: what one colour has after a step (its open new runs, the groups on its table
# runs, the Jolys it used, the tile it left, its 1s waiting, flags, whether a new meld with
# room would pay a Joly owed); a belief: the elements a colour may have after a step, each
# with its merit (the opening value so far, or the room for free Jolys: more is never
# worse). A node of the search: (the step, the four beliefs, the Jolys of the sets so far,
# their flags, pay room and merit).
_Element = tuple[Any, ...]
_Belief = frozenset[tuple[_Element, int]]
_Use = tuple[int, int, int]
_Node = tuple[int, tuple[_Belief, ...], int, int, int, int, int]


class _Cover:
    """One cover question (see :func:`cover`)."""

    def __init__(self, hand: Sequence[Card], melds: Sequence[Meld], targets: Sequence[int],
                 need: int | None, keep: Card | None, owed: Obligation | None,
                 only: Card | None, down: bool = False) -> None:
        counts = Counter(hand)
        self.jolys = counts.pop(JOKER, 0)
        colour_of: dict[Suit | None, int] = {c: i for i, c in enumerate(TILE_COLOURS)}
        # The walk goes up the run places, or down (``down``: the rules read the same from
        # either end, and a rack with no cover often fails early one way). real[p]: the
        # run place at step p of the walk; number[p]: the number there (1 at both ends).
        self.down = down
        self.real = [_LAST + 1 - p if down and 1 <= p <= _LAST else p for p in range(_LAST + 2)]
        self.number = [rank_at(r) if 1 <= r <= _LAST else 0 for r in self.real]
        # tiles[p][c]: tiles at step p (1..13) of colour c; the 1s are at step 1 and may
        # wait for step 14, the other end
        self.tiles = [[counts[shared_card(self.number[p], col)] if 1 <= p <= 13 else 0
                       for col in TILE_COLOURS] for p in range(_LAST + 2)]
        self.need = need
        self.keep = keep
        self.only = only
        self.owed = owed
        # free Jolys wait for the end when the seat has opened (no value to reach)
        self.lazy = need is None
        # the tile owed: its number and colour (a Joly: owed_joly); the row's rule also
        # counts the tiles of the rack before the take
        self.owed_colour = -1
        self.owed_number = 0
        self.owed_step = 0  # after this step a run without the tile owed never holds it
        self.owed_joly = owed is not None and owed.tile.is_joker
        if owed is not None and not owed.tile.is_joker:
            self.owed_colour = colour_of[owed.tile.suit]
            self.owed_number = owed.tile.rank
            rank = owed.tile.rank
            self.owed_step = _LAST if rank == 1 else (_LAST + 1 - rank if down else rank)
        self.row = owed is not None and owed.kind == "row"
        before = Counter(owed.rack) if owed is not None and self.row else Counter()
        self.before_jolys = before.pop(JOKER, 0)
        self.before = [[before[shared_card(p, col)] > 0 if 1 <= p <= 13 else False
                        for col in TILE_COLOURS] for p in range(_LAST + 2)]
        # before_after[p][c]: tiles of colour c of the rack before the take at the steps
        # after p (a 1 at both ends); pair_after[p]: two of them might share a new meld
        # after p (a set of their number, or a run of their colour)
        self.before_after = [[sum(1 for q in range(p + 1, _LAST + 1)
                                  if self.before[self.number[q]][c]) for c in range(_COLOURS)]
                             for p in range(_LAST + 1)]
        self.pair_after = [any(n >= 2 for n in self.before_after[p]) or any(
            sum(self.before[self.number[q]]) >= 2 for q in range(p + 1, 14))
            for p in range(_LAST + 1)]
        self.table_runs: list[_TableRun] = []
        self.table_sets: dict[int, list[_TableSet]] = {}
        for t in targets:
            meld = melds[t]
            jolys = sum(1 for placed in meld.cards if placed.card.is_joker)
            if meld.kind is MeldKind.RUN:
                face = meld.cards[0].face
                first, last = face.rank, face.rank + len(meld.cards) - 1
                if down:
                    first, last = _LAST + 1 - last, _LAST + 1 - first
                self.table_runs.append(_TableRun(t, colour_of[face.suit], first, last,
                                                 len(meld.cards), len(meld.cards) - jolys,
                                                 jolys))
            else:
                present = 0
                for placed in meld.cards:
                    if not placed.card.is_joker:
                        present |= 1 << colour_of[placed.card.suit]
                self.table_sets.setdefault(meld.rank, []).append(
                    _TableSet(t, meld.rank, present, len(meld.cards), jolys))
        self.runs_of = [tuple(i for i, r in enumerate(self.table_runs) if r.colour == c)
                        for c in range(_COLOURS)]
        # the most the tiles from each place on can add to an opening (pruning by value)
        self.potential = [0] * (_LAST + 2)
        for step in range(13, 0, -1):
            self.potential[step] = self.potential[step + 1] + sum(
                self.tiles[step]) * most_value(shared_card(self.number[step], TILE_COLOURS[0]))
        self.colour_memo: dict[tuple[Any, ...], list[tuple[Any, ...]]] = {}
        self.ops = 0  # ways tried: the walks' measure of work
        self.need_memo: dict[tuple[Any, ...], tuple[tuple[int, int], ...]] = {}
        self.raw_need_memo: dict[tuple[Any, ...], tuple[tuple[int, int], ...]] = {}
        # settable[p][c]: a tile of colour c at step p might go into a set of its number:
        # two other colours there, or one and a Joly, or a table set that lacks it
        self.settable = [[False] * _COLOURS for _ in range(_LAST + 2)]
        for step in range(1, 14):
            number = self.number[step]
            for c in range(_COLOURS):
                others = sum(1 for o in range(_COLOURS) if o != c and self.tiles[step][o])
                tables = any(not t.present >> c & 1 and t.size < MELD_RULES.max_set
                             for t in self.table_sets.get(number, ()))
                self.settable[step][c] = others >= 2 or (others >= 1 and self.jolys > 0) \
                    or tables
        self.set_memo: dict[tuple[Any, ...], list[tuple[Any, ...]]] = {}
        self.step_memo: dict[tuple[Any, ...], dict[_Use, _Belief]] = {}
        self.belief_memo: dict[tuple[Any, ...], tuple[tuple[int, int], ...]] = {}

    # --- one colour at one step ---------------------------------------------------------

    def start(self) -> tuple[_Belief, ...]:
        """The beliefs before the first step: per colour one element, nothing placed."""
        return tuple(frozenset({(((), (0,) * len(self.runs_of[c]), 0, 0, 0), 0)})
                     for c in range(_COLOURS))

    def colour_step(self, p: int, c: int, belief: _Belief) -> dict[_Use, _Belief]:
        """The elements of colour ``c`` after step ``p`` from those of ``belief``, by what
        the colour's way there uses (tiles to sets, Jolys, tiles left on the rack; each
        way of :meth:`colour_ways`, an element kept only when the colour alone can still
        end, :meth:`_alive`). Cached per question: the same beliefs recur."""
        key = (p, c, belief)
        found = self.step_memo.get(key)
        if found is not None:
            return found
        out: dict[_Use, dict[_Element, int]] = {}
        for _, elem, merit, way in self._steps(p, c, belief):
            use = (way[3], way[2], way[4])
            into = out.get(use)
            if into is None:
                into = out[use] = {}
            if into.get(elem, -1) < merit:
                into[elem] = merit
        result = {use: frozenset(d.items()) for use, d in out.items()}
        self.step_memo[key] = result
        return result

    def _steps(self, p: int, c: int, belief: Iterable[tuple[_Element, int]],
               alive: bool = True
               ) -> Iterator[tuple[_Element, _Element, int, tuple[Any, ...]]]:
        """Every (element before, element after, merit, way) from the elements of
        ``belief`` at step ``p`` (``alive``: only elements the colour alone can still end
        from)."""
        entering = tuple(k for k, gi in enumerate(self.runs_of[c])
                         if self.table_runs[gi].first == p)
        need = self.need
        jolys = min(2, self.jolys)
        for source, merit in belief:
            runs, groups, kept, flags, pay = source
            if entering:
                # a group below a table run that starts here is whole: it waits for the end
                groups = tuple(g + 1 if k in entering and _phase(g) == 1 else g
                               for k, g in enumerate(groups))
            avail = self.tiles[p][c] if p <= 13 else kept
            ways = self.colour_ways(p, c, runs, groups, avail, jolys, 0, flags & _PAID)
            self.ops += len(ways)
            for way in ways:
                runs2, groups2, _, _, _, wait, fl, gain, more_room, more_pay, _ = way
                kept2 = wait if wait or p == _LAST else kept
                elem = (runs2, groups2, kept2, flags | fl, pay | more_pay)
                if alive and not self._alive(p, c, elem):
                    continue
                merit2 = min(need, merit + gain) if need is not None \
                    else min(2, merit + more_room)
                yield source, elem, merit2, way

    def belief_needs(self, p: int, c: int, belief: _Belief, paying: bool = False
                     ) -> tuple[tuple[int, int], ...]:
        """The least (Jolys, tiles left) with which colour ``c`` ends after step ``p`` from
        some element of ``belief`` (:meth:`colour_needs`), the pairs none other beats
        (``paying``: only elements that paid the meld owed or hold the tile owed in an
        open run that may still pay). Cached per question."""
        key = (p, c, belief, paying)
        found = self.belief_memo.get(key)
        if found is not None:
            return found
        best: set[tuple[int, int]] = set()
        ahead = self.before_after[p][c] if self.row and not self.before_jolys else 2
        for (runs, groups, kept, flags, _), _ in belief:
            if paying and not flags & _PAID and not any(
                    _holds_owed(r) and _credit(r) + ahead >= 2 for r in runs):
                continue
            best.update(self.colour_needs(p, c, runs, groups, kept))
        result = tuple(sorted(b for b in best
                              if not any(o != b and o[0] <= b[0] and o[1] <= b[1]
                                         for o in best)))
        self.belief_memo[key] = result
        return result

    def _alive(self, p: int, c: int, elem: _Element) -> bool:
        """Whether the colour alone can still place its tiles after step ``p`` from
        ``elem`` with the Jolys and the one tile that may stay (:meth:`colour_needs`)."""
        runs, groups, kept = elem[:3]
        return any(jolys <= self.jolys for jolys, _ in
                   self.colour_needs(p, c, runs, groups, kept))

    def colour_ways(self, p: int, c: int, runs: tuple[int, ...], groups: tuple[int, ...],
                    avail: int, jolys: int, left: int, paid: int, relaxed: bool = False
                    ) -> list[tuple[Any, ...]]:
        """Every way to place the ``avail`` tiles of colour ``c`` at place ``p`` given the
        open runs ``runs`` of the colour, its table runs' ``groups``, ``jolys`` Jolys (up to
        two), the tile ``left`` and whether the meld owed is ``paid``: (runs after,
        groups after, Jolys used, tiles to sets, left after, 1s waiting, flags, value,
        room, pay room, what happened: the run codes, real and Joly starts, the group
        codes, tiles staying). Cached per question: the same run states recur."""
        key = (p, c, runs, groups, avail, jolys, left, paid, relaxed)
        found = self.colour_memo.get(key)
        if found is None:
            found = self.colour_memo[key] = self._colour_ways(*key)
        return found

    def _colour_ways(self, p: int, c: int, runs: tuple[int, ...], groups: tuple[int, ...],
                     avail: int, jolys: int, left: int, paid: int, relaxed: bool
                     ) -> list[tuple[Any, ...]]:
        lazy = self.lazy
        number = self.number[p]
        gain = _value_in_run(self.real[p]) if self.need is not None else 0
        owed_here = int(not paid and self.owed_colour == c and self.owed_number == number)
        credit_here = int(self.row and not owed_here and self.before[number][c])
        track = self._track
        # (runs made, tiles used, Jolys used, flags, value, room, pay room, codes)
        partial: list[tuple[Any, ...]] = [((), 0, 0, 0, 0, 0, 0, ())]
        for i, run in enumerate(runs):
            same = i > 0 and runs[i - 1] == run
            grow = _may_grow(run, p)
            grown: list[tuple[Any, ...]] = []
            for made, used, jused, fl, val, room, pay, codes in partial:
                floor = codes[-1] if same else 0
                if grow and floor <= _TILE and used < avail:
                    holds, credit = track(c, p, _holds_owed(run) | owed_here,
                                          _credit(run) + credit_here)
                    new = _run(_jolys(run), _real(run) + 1, _start(run), 0, holds, credit)
                    grown.append(((*made, new), used + 1, jused, fl, val + gain, room, pay,
                                  (*codes, _TILE)))
                if grow and floor <= _JOLY and jused < jolys and _jolys(run) < 2:
                    holds, credit = track(c, p, *self._joly_owed(run, _jolys(run) + 1))
                    new = _run(_jolys(run) + 1, _real(run), _start(run), 1, holds, credit)
                    grown.append(((*made, new), used, jused + 1, fl, val + gain, room, pay,
                                  (*codes, _JOLY)))
                if _closable(run) and not (lazy and _last_joly(run)
                                           and _real(run) + _jolys(run) > 3):
                    ends = self._ends_run(run, p - 1)
                    grown.append((made, used, jused, fl | ends[0], val, room + ends[1],
                                  pay | ends[2], (*codes, _END)))
            partial = grown
            if not partial:
                return []
        # A run that could have grown and ended here, next to a run started here: the run
        # grown by the new one's tiles is a way out whenever the two are (it started at
        # place 5 or later: the two have twelve tiles at most).
        ended_free = [any(code == _END and _may_grow(run, p) and not _start(run)
                          for code, run in zip(item[7], runs, strict=True)) for item in partial]

        # The table runs of this colour: a group below, waiting, or above each.
        with_groups: list[tuple[Any, ...]] = []
        for item, ended in zip(partial, ended_free, strict=True):
            options: list[tuple[Any, ...]] = [(item, (), (), ended)]
            for gi, group in zip(self.runs_of[c], groups, strict=True):
                table = self.table_runs[gi]
                grown = []
                for (made, used, jused, fl, val, room, pay, codes), new_groups, gcodes, e in \
                        options:
                    for du, dj, g2, code, more_room in self._group_moves(
                            p, table, group, avail - used, jolys - jused, relaxed):
                        grown.append(((made, used + du, jused + dj, fl, val, room + more_room,
                                       pay, codes), (*new_groups, g2), (*gcodes, code), e))
                options = grown
            with_groups += options

        # The tiles left: start runs, go to sets, stay, or (the 1s) wait for place 14.
        out: list[tuple[Any, ...]] = []
        tile = shared_card(number, TILE_COLOURS[c])
        start = _start_of(p)
        for (made, used, jused, fl, val, room, pay, codes), new_groups, gcodes, ended in \
                with_groups:
            rest = avail - used
            for starts, to_sets, stay, wait in _splits(rest):
                if starts and (p > 12 or ended):
                    continue
                if to_sets and p > 13:
                    continue
                if wait and (p != 1 or not self._may_wait(c, jolys)):
                    continue
                if p == _LAST and stay:
                    continue  # a 1 kept for 14 could have stayed at place 1
                left2 = self._left(left, stay, tile)
                if left2 < 0:
                    continue
                holds, credit = track(c, p, owed_here, credit_here)
                started = (_run(0, 1, start, 0, holds, credit),) * starts
                # Jolys that start runs of this colour here (free ones wait: only a
                # Joly for the 12 of 12-13-1)
                most = 0 if ended or p > 12 or (lazy and p != 12) else jolys - jused
                for jstart in range(0, min(most, 2 if not lazy else 1) + 1):
                    jholds, jcredit = track(c, p, *self._joly_owed(0, 1))
                    jruns = (_run(1, 0, start, 1, jholds, jcredit),) * jstart
                    listed = (*made, *started, *jruns)
                    order = _order(listed)
                    out.append((tuple(listed[k] for k in order), tuple(new_groups),
                                jused + jstart, to_sets, left2, wait, fl,
                                val + gain * (starts + jstart), room, pay,
                                (codes, starts, jstart, gcodes, stay, order)))
        return out

    def _ends_run(self, run: int, last: int) -> tuple[int, int, int]:
        """What a new run ending at place ``last`` brings: flags (a run; the meld owed
        paid), room for free Jolys, room of a new meld that would pay a Joly owed."""
        paid = _PAID if self._pays_run(run) else 0
        room = _run_room(run, last) if self.lazy else 0
        pay = 0
        if room and self.owed_joly and not paid and (
                not self.row or _credit(run) >= 2):
            pay = 1
        return (_RUN if self.need is not None else 0) | paid, room, pay

    def _track(self, c: int, p: int, holds: int, credit: int) -> tuple[int, int]:
        """The owed bits a run of colour ``c`` keeps at place ``p``: none where it cannot
        pay the meld owed (another colour than the tile owed, or past its place without
        it; a 1 owed may still come after the 13), the rack's tiles counted only for a
        tile owed from the row."""
        if self.owed is None:
            return 0, 0
        if not self.row:
            credit = 0
        if self.owed_joly:
            return holds, credit
        if c != self.owed_colour:
            return 0, 0
        past = p == _LAST if self.owed_number == 1 else p > self.owed_step
        if not holds and past:
            return 0, 0
        return holds, credit

    def _joly_owed(self, run: int, jolys: int) -> tuple[int, int]:
        """The owed bits of ``run`` after a Joly joins it (``jolys`` Jolys then)."""
        if self.owed is None:
            return 0, 0
        owed_bit = _holds_owed(run)
        credit = _credit(run)
        if self.owed_joly:
            if jolys == 1:
                owed_bit = 1
            elif self.row and jolys - 1 <= self.before_jolys:
                credit += 1
        elif self.row and jolys <= self.before_jolys:
            credit += 1
        return owed_bit, credit

    def _pays_run(self, run: int) -> bool:
        if self.owed is None or not _holds_owed(run):
            return False
        return not self.row or _credit(run) >= 2

    def _may_wait(self, colour: int, jolys: int) -> bool:
        """A 1 of ``colour`` may wait for place 14: some run of the colour can reach 13."""
        return bool(self.tiles[13][colour] or jolys
                    or any(self.table_runs[i].last == 13 for i in self.runs_of[colour]))

    def _left(self, left: int, stay: int, tile: Card) -> int:
        """The tiles left after ``stay`` more of ``tile`` stay on the rack, ``-1`` when that
        is not allowed: one tile at most (the discard), not ``keep`` (nor other than
        ``only``)."""
        if not stay:
            return left
        if left + stay > 1 or tile == self.keep or (self.only is not None
                                                     and tile != self.only):
            return -1
        return left + stay

    # --- table runs -------------------------------------------------------------------

    def _group_moves(self, p: int, table: _TableRun, group: int, tiles: int, jolys: int,
                     relaxed: bool = False) -> list[tuple[int, int, int, int, int]]:
        """What the group laid off on ``table`` may do at place ``p`` (``tiles`` and
        ``jolys`` still free here): (tiles used, Jolys used, the new group, what happened,
        room for free Jolys of a group done here)."""
        phase = _phase(group)
        n, j, below = _group_tiles(group), _group_jolys(group), _group_below(group)
        lazy = self.lazy
        adds = []
        if tiles:
            adds.append((1, 0, _TILE))
        if jolys:
            adds.append((0, 1, _JOLY))
        out: list[tuple[int, int, int, int, int]] = []
        if p < table.first:
            if phase == 1:  # a group below must reach its table run
                for du, dj, code in adds:
                    if table.fits(n + 1, j + dj, partial=True, relaxed=relaxed):
                        out.append((du, dj, _group(1, n + 1, j + dj, n + 1), code, 0))
                return out
            out.append((0, 0, group, _NONE, 0))
            if self._reach(p, table):
                for du, dj, code in adds:
                    if not (lazy and dj):  # a free Joly at the group's outer end waits
                        out.append((du, dj, _group(1, 1, dj, 1), code, 0))
            return out
        if p <= table.last:
            return [(0, 0, group, _NONE, 0)]
        if phase == 2 or (phase == 0 and p == table.last + 1):
            base_n, base_j = (n, j) if phase == 2 else (0, 0)
            for du, dj, code in adds:
                if p <= _LAST and table.fits(base_n + 1, base_j + dj, partial=True,
                                             relaxed=relaxed):
                    out.append((du, dj, _group(3, base_n + 1, base_j + dj, below if phase == 2
                                               else 0, dj), code, 0))
            if phase == 2:
                if table.fits(n, j, relaxed=relaxed):
                    out.append((0, 0, 0, _DONE, table.room(n, j, below) if lazy else 0))
            else:
                out.append((0, 0, 0, _DONE, table.room(0, 0, 0) if lazy else 0))
            return out
        if phase == 3:
            for du, dj, code in adds:
                if p <= _LAST and table.fits(n + 1, j + dj, partial=True, relaxed=relaxed):
                    out.append((du, dj, _group(3, n + 1, j + dj, below, dj), code, 0))
            if table.fits(n, j, relaxed=relaxed) and not (lazy and _group_last_joly(group)):
                out.append((0, 0, 0, _DONE, table.room(n, j, below) if lazy else 0))
            return out
        return [(0, 0, group, _NONE, 0)]

    def _reach(self, p: int, table: _TableRun) -> bool:
        """A group below ``table`` starting at ``p`` might reach it (a tile or a Joly for
        every place up to the run: a quick bound)."""
        gaps = sum(1 for q in range(p + 1, table.first) if not self.tiles[q][table.colour])
        return gaps <= self.jolys

    # --- sets -------------------------------------------------------------------------

    def colour_needs(self, p: int, c: int, runs: tuple[int, ...], groups: tuple[int, ...],
                     kept: int) -> tuple[tuple[int, int], ...]:
        """The least (Jolys, tiles staying) with which the tiles of colour ``c`` after step
        ``p`` can all be placed, from its open ``runs``, table-run ``groups`` and 1s
        waiting, the colour alone (every way of :meth:`colour_ways`, sets allowed where
        the rack might make one): the pairs none other beats. Cached per question."""
        raw = (p, c, runs, groups, kept)
        found = self.raw_need_memo.get(raw)
        if found is None:
            found = self.raw_need_memo[raw] = self._colour_needs(p, c, runs, groups, kept)
        return found

    def _colour_needs(self, p: int, c: int, runs: tuple[int, ...], groups: tuple[int, ...],
                      kept: int) -> tuple[tuple[int, int], ...]:
        # what the colour alone needs does not depend on the owed bits, nor on a start
        # at place 3 or 4 (it counts only for the room of free Jolys)
        runs = tuple(sorted(_run(0, min(3, _real(r) + _jolys(r)), 0, 0, 0, 0) for r in runs))
        groups = tuple(_phase(g) for g in groups)
        key = (p, c, runs, groups, kept)
        found = self.need_memo.get(key)
        if found is not None:
            return found
        if p == _LAST:
            ok = all(_closable(r) and not (self.lazy and _last_joly(r)
                                           and _real(r) + _jolys(r) > 3) for r in runs)
            for gi, g in zip(self.runs_of[c], groups, strict=True):
                phase = _phase(g)
                if phase == 1 or (phase == 3 and self.lazy and _group_last_joly(g)) or (
                        phase and not self.table_runs[gi].fits(_group_tiles(g),
                                                               _group_jolys(g))):
                    ok = False
            result: tuple[tuple[int, int], ...] = ((0, 0),) if ok and not kept else ()
            self.need_memo[key] = result
            return result
        q = p + 1
        avail = self.tiles[q][c] if q <= 13 else kept
        # a group below a table run that starts at q is whole (as _place has it)
        groups = tuple(g + 1 if _phase(g) == 1 and self.table_runs[gi].first == q else g
                       for gi, g in zip(self.runs_of[c], groups, strict=True))
        best: set[tuple[int, int]] = set()
        ways = self.colour_ways(q, c, runs, groups, avail, min(self.jolys, 2), 0, _PAID,
                                relaxed=True)
        self.ops += len(ways)
        for way in ways:
            new_runs, new_groups, jused, to_sets, left2, _, _, _, _, _, _ = way
            if to_sets and not self.settable[q][c]:
                continue
            for nj, ns in self.colour_needs(q, c, new_runs, new_groups,
                                            0 if q == _LAST else kept):
                if jused + nj <= 2 and left2 + ns <= 1:
                    best.add((jused + nj, left2 + ns))
        result = tuple(sorted(b for b in best
                              if not any(o != b and o[0] <= b[0] and o[1] <= b[1]
                                         for o in best)))
        self.need_memo[key] = result
        return result

    # --- the steps together -------------------------------------------------------------

    def children(self, node: _Node) -> Iterator[tuple[_Node, Any]]:
        """The nodes after the next step, each with how it is reached: per colour what its
        way uses (tiles to sets, Jolys, tiles left), and the way of :meth:`set_ways` (none
        at the end); the ways that use least first."""
        step, beliefs, jolys, left, sflags, spay, smerit = node
        p = step + 1
        steps = [self.colour_step(p, c, beliefs[c]) for c in range(_COLOURS)]
        by_sets: list[dict[int, list[_Use]]] = []
        for step_uses in steps:
            grouped: dict[int, list[_Use]] = {}
            for use in step_uses:
                grouped.setdefault(use[0], []).append(use)
            by_sets.append(grouped)
        if p == _LAST:
            if any(0 not in grouped for grouped in by_sets):
                return
            for uses in self._uses(by_sets, (0,) * _COLOURS, self.jolys - jolys, 1 - left):
                after = tuple(steps[c][uses[c]] for c in range(_COLOURS))
                child = (p, after, jolys + sum(u[1] for u in uses),
                         left + sum(u[2] for u in uses), sflags, spay, smerit)
                if self._may_go_on(child):
                    yield child, (uses, None)
            return
        number = self.number[p]
        need = self.need
        options = [sorted(grouped) for grouped in by_sets]
        most = min(2, self.jolys - jolys)
        for sets in itertools.product(*options):
            if not self.set_ways(number, sets, most):
                continue  # no sets of these tiles, whatever Jolys the colours leave
            for uses in self._uses(by_sets, sets, self.jolys - jolys, 1 - left):
                jolys2 = jolys + sum(u[1] for u in uses)
                after = tuple(steps[c][uses[c]] for c in range(_COLOURS))
                left2 = left + sum(u[2] for u in uses)
                for way in self.set_ways(number, sets, min(2, self.jolys - jolys2)):
                    more, tiles, pays, more_room, more_pay, _ = way
                    if need is not None:
                        merit = min(need, smerit + tiles * _value_in_set(number))
                    else:
                        merit = min(2, smerit + more_room)
                    child = (p, after, jolys2 + more, left2, sflags | (_PAID if pays else 0),
                             spay | more_pay, merit)
                    if self._may_go_on(child):
                        yield child, (uses, way)

    @staticmethod
    def _uses(steps: list[dict[int, list[_Use]]], sets: tuple[int, ...], jolys: int,
              left: int) -> list[tuple[_Use, ...]]:
        """Per colour a use of its step (``steps[c]``: the uses by their tiles to sets) with
        ``sets[c]`` tiles to sets, together at most
        ``jolys`` Jolys and ``left`` tiles left; those that use least first."""
        combos: list[tuple[int, int, tuple[_Use, ...]]] = [(0, 0, ())]
        for c, step in enumerate(steps):
            mine = step[sets[c]]
            combos = [(j + use[1], s + use[2], (*done, use)) for j, s, done in combos
                      for use in mine if j + use[1] <= jolys and s + use[2] <= left]
            if not combos:
                return []
        combos.sort(key=lambda combo: (combo[0] + combo[1], combo[2]))
        return [done for _, _, done in combos]

    def _may_go_on(self, node: _Node) -> bool:
        """Necessary conditions on the colours together after a step: the Jolys and the
        one tile that may stay suffice for what each colour needs to end (past the tile
        owed, unpaid, the colour of the tile from elements that may still pay with it),
        the opening value can still be reached, the meld owed can still be paid."""
        p, beliefs, jolys, left, sflags, spay, smerit = node
        if p < _LAST:
            paying = -1
            if not sflags & _PAID and self.owed_colour >= 0 and self.owed_number != 1 \
                    and p >= self.owed_step:
                paying = self.owed_colour
            combos = {(jolys, left)}
            for c, belief in enumerate(beliefs):
                needs = self.belief_needs(p, c, belief, c == paying)
                combos = {(j + j2, s + s2) for j, s in combos for j2, s2 in needs
                          if j + j2 <= self.jolys and s + s2 <= 1}
                if not combos:
                    return False
            if self.need is not None:
                best = smerit + sum(max(m + 10 * e[2] for e, m in belief) for belief in beliefs)
                if best + self.potential[p + 1] + 25 * (self.jolys - jolys) < self.need:
                    return False
        if sflags & _PAID or self.owed is None:
            return True
        pay = spay
        runs: list[tuple[int, int]] = []
        for c, belief in enumerate(beliefs):
            for e, _ in belief:
                if e[3] & _PAID:
                    return True
                pay |= e[4]
                runs += ((c, r) for r in e[0])
        return self._may_pay(p, runs, self.jolys - jolys, pay)

    def _may_pay(self, p: int, runs: list[tuple[int, int]], jolys: int, pay: int) -> bool:
        """Whether the meld owed may still be paid after step ``p`` (a necessary condition;
        ``runs``: (colour, open run), ``jolys``: the most Jolys left, ``pay``: a new meld
        would pay a Joly owed with a free Joly): past the tile owed, an open run holds it;
        a Joly owed: a Joly is left, or an open run holds one. A meld owed to the row also
        needs two tiles of the rack before the take: held by the run, or still to come at
        the steps after ``p`` (its colour's for a run, two of a number for a set)."""
        row = self.row and not self.before_jolys  # a Joly before the take counts too
        if self.owed_joly:
            if not row:
                return bool(jolys) or any(_holds_owed(r) for _, r in runs)
            if pay and jolys:
                return True
            after = self.before_after[p]
            if any((jolys or _holds_owed(r)) and _credit(r) + after[c] >= 2 for c, r in runs):
                return True
            return bool(jolys) and self.pair_after[p]
        if p < self.owed_step or (self.owed_number == 1 and p < _LAST):
            return True
        mine = [r for c, r in runs if c == self.owed_colour]
        if not row:
            return any(_holds_owed(r) for r in mine)
        ahead = self.before_after[p][self.owed_colour]
        return any(_holds_owed(r) and _credit(r) + ahead >= 2 for r in mine)

    def set_ways(self, number: int, sets: tuple[int, ...], jolys: int
                 ) -> list[tuple[Any, ...]]:
        """Every way to group ``sets[c]`` tiles of each colour ``c`` of ``number`` into new
        sets and lay-offs on table sets (each table set once), with up to ``jolys`` Jolys:
        (Jolys used, tiles in new sets, whether a new set pays the meld owed, room for free
        Jolys, pay room, the items made), one per distinct (Jolys, tiles, pays, room, pay
        room). Free Jolys (in a set of four, on a table set) wait for the end."""
        key = (number, sets, jolys)
        found = self.set_memo.get(key)
        if found is not None:
            return found
        lazy = self.lazy
        tables = self.table_sets.get(number, [])
        results: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        spec_of = [natural_spec(shared_card(number, col)) for col in TILE_COLOURS]

        def walk(left: list[int], jleft: int, used_tables: int, tiles: int, pays: bool,
                 room: int, pay: int, made: tuple[Any, ...], floor: int) -> None:
            first = next((c for c in range(_COLOURS) if left[c]), -1)
            if first < 0:
                # the table sets left alone may take free Jolys
                more = 0
                if lazy:
                    more = sum(t.room(0, 0) for ti, t in enumerate(tables)
                               if not used_tables >> ti & 1)
                out_key = (jolys - jleft, tiles, pays, min(2, room + more), pay)
                results.setdefault(out_key, (*out_key, made))
                return
            # a new set whose lowest colour is ``first`` (the sets in the order of their
            # lowest colours, those alike by increasing colour mask: the same sets in
            # another order are the same way)
            if (floor and not floor >> first & 1) or floor & ((1 << first) - 1):
                floor = 0  # the set before had another lowest colour
            for mask in range(max(floor, 1), 1 << _COLOURS):
                if mask & ((1 << first) - 1) or not mask >> first & 1:
                    continue
                colours = [c for c in range(_COLOURS) if mask >> c & 1]
                if any(not left[c] for c in colours):
                    continue
                for joly in (0, 1):
                    size = len(colours) + joly
                    if size < 3 or size > MELD_RULES.max_set or len(colours) < 2 * joly \
                            or joly > jleft or (lazy and joly and len(colours) > 2):
                        continue
                    for c in colours:
                        left[c] -= 1
                    specs = tuple(spec_of[c] for c in colours)
                    if joly:
                        specs += (joker_spec(number, None),)
                    payer = self._pays_set(number, colours, joly)
                    set_room = int(lazy and size == 3 and not joly)
                    set_pay = int(set_room and self.owed_joly
                                  and (not self.row or self._credit_set(number, colours) >= 2))
                    walk(left, jleft - joly, used_tables, tiles + size, pays or payer,
                         room + set_room, pay | set_pay, (*made, ("m", specs)), mask)
                    for c in colours:
                        left[c] += 1
            # or a lay-off on a table set, holding a tile of ``first``
            for ti, table in enumerate(tables):
                if used_tables >> ti & 1 or table.present >> first & 1:
                    continue
                free_room = MELD_RULES.max_set - table.size
                missing = [c for c in range(_COLOURS)
                           if not table.present >> c & 1 and left[c] and c >= first]
                for sub in range(1, 1 << len(missing)):
                    colours = [missing[k] for k in range(len(missing)) if sub >> k & 1]
                    if first not in colours:
                        continue
                    for joly in (0, 1):
                        added = len(colours) + joly
                        real = table.size - table.jolys + len(colours)
                        if added > free_room or joly > jleft or (lazy and joly) \
                                or real < 2 * (table.jolys + joly):
                            continue
                        for c in colours:
                            left[c] -= 1
                        specs = tuple(spec_of[c] for c in colours)
                        if joly:
                            specs += (CardSpec(JOKER),)
                        more = table.room(added, joly) if lazy else 0
                        walk(left, jleft - joly, used_tables | 1 << ti, tiles, pays,
                             room + more, pay, (*made, ("s", table.target, specs)), floor)
                        for c in colours:
                            left[c] += 1

        walk(list(sets), jolys, 0, 0, False, 0, 0, (), 0)
        out = list(results.values())
        self.set_memo[key] = out
        return out

    def _credit_set(self, number: int, colours: list[int]) -> int:
        return sum(1 for c in colours if self.before[number][c])

    def _pays_set(self, number: int, colours: list[int], joly: int) -> bool:
        if self.owed is None:
            return False
        if self.owed_joly:
            holds = joly > 0
            credit = self._credit_set(number, colours)
        else:
            holds = number == self.owed_number and self.owed_colour in colours
            credit = sum(1 for c in colours
                         if c != self.owed_colour and self.before[number][c])
            credit += min(joly, self.before_jolys)
        return holds and (not self.row or credit >= 2)

    # --- the end ----------------------------------------------------------------------

    def final(self, node: _Node) -> tuple[tuple[_Element, ...], tuple[int, bool]] | None:
        """After the last step: an element per colour that ends (:meth:`_colour_end`) such
        that together with the sets they make a cover (:meth:`_end`): the elements chosen
        and (the free Jolys that go into melds, whether the discard is a Joly); ``None``
        when there is none. The colours are combined by their flags (the run, the meld
        owed) and pay room, the best merit kept for each."""
        _, beliefs, jolys, left, sflags, spay, smerit = node
        cap = self.need if self.need is not None else 2
        combos: dict[tuple[int, int], tuple[int, tuple[_Element, ...]]] = {
            (sflags if self.owed is not None else sflags | _PAID, spay): (smerit, ())}
        for c in range(_COLOURS):
            ends: dict[tuple[int, int], tuple[int, _Element]] = {}
            for elem, merit in beliefs[c]:
                done = self._colour_end(c, elem, merit)
                if done is not None and ends.get(done[0], (-1, elem))[0] < done[1]:
                    ends[done[0]] = (done[1], elem)
            nxt: dict[tuple[int, int], tuple[int, tuple[_Element, ...]]] = {}
            for (flags, pay), (merit, chosen) in combos.items():
                for (flags2, pay2), (merit2, elem) in ends.items():
                    use = (flags | flags2, pay | pay2)
                    total = min(cap, merit + merit2)
                    if nxt.get(use, (-1, ()))[0] < total:
                        nxt[use] = (total, (*chosen, elem))
            combos = nxt
            if not combos:
                return None
        for (flags, pay), (merit, chosen) in sorted(combos.items()):
            end = self._end(jolys, left, flags, pay, merit)
            if end is not None:
                return chosen, end
        return None

    def _colour_end(self, c: int, elem: _Element, merit: int
                    ) -> tuple[tuple[int, int], int] | None:
        """After the last step, the open runs and the groups of colour ``c`` end: the
        colour's flags and pay room then, and its merit; ``None`` when ``elem`` cannot end
        (a run too short, a group not whole, a 1 still waiting)."""
        runs, groups, kept, flags, pay = elem
        if kept:
            return None
        lazy = self.lazy
        room = merit
        for run in runs:
            if not _closable(run) or (lazy and _last_joly(run) and _real(run) + _jolys(run) > 3):
                return None
            fl, more_room, more_pay = self._ends_run(run, _LAST)
            flags |= fl
            room += more_room
            pay |= more_pay
        for gi, g in zip(self.runs_of[c], groups, strict=True):
            table = self.table_runs[gi]
            phase = _phase(g)
            if phase == 1 or (phase == 3 and lazy and _group_last_joly(g)):
                return None
            if phase and not table.fits(_group_tiles(g), _group_jolys(g)):
                return None
            if lazy and (phase or table.last == _LAST):  # done only now
                room += table.room(_group_tiles(g), _group_jolys(g), _group_below(g))
        return (flags, pay), min(2, room) if lazy else merit

    def _end(self, jolys: int, left: int, flags: int, pay: int, merit: int
             ) -> tuple[int, bool] | None:
        """Whether the whole is a cover: the opening value and a run, the discard (a Joly
        when no tile is left), the free Jolys in melds with room, the meld owed paid
        (``merit``: the opening value, or the room for free Jolys). ``None`` when not, else
        (the free Jolys that go into melds, whether the discard is a Joly)."""
        if self.need is not None and (merit < self.need or not flags & _RUN):
            return None
        jolys_left = self.jolys - jolys
        joly_left = not left
        if joly_left and (not jolys_left or self.keep == JOKER
                          or (self.only is not None and self.only != JOKER)):
            return None
        into = jolys_left - joly_left
        if not self.lazy:
            return (0, joly_left) if not into and flags & _PAID else None
        if min(2, merit) < into:
            return None
        if not flags & _PAID and not (self.owed_joly and pay and into):
            return None
        return into, joly_left

    # --- the answer -------------------------------------------------------------------

    def rebuild(self, path: list[Any], chosen: tuple[_Element, ...], end: tuple[int, bool]
                ) -> Cover:
        """The cover a path of the search describes (per step what each colour's way uses
        and the sets' way; ``chosen``: each colour's element at the end): each colour's
        ways found again along the path, then replayed with the tiles."""
        chains = [self._chain(c, [how[0][c] for how in path], chosen[c])
                  for c in range(_COLOURS)]
        build = _Build(self)
        for p in range(1, _LAST + 1):
            for c in range(_COLOURS):
                build.colour(p, c, chains[c][p - 1])
            way = path[p - 1][1]
            if way is not None:
                build.sets(self.number[p], way, None)
        return build.finish(*end)

    def _chain(self, c: int, uses: list[_Use], last: _Element) -> list[tuple[Any, ...]]:
        """The ways of colour ``c``, step by step, that lead to the element ``last`` with
        the use ``uses[p - 1]`` at each step ``p`` (the best merit at each)."""
        layer: dict[_Element, tuple[int, Any]] = {elem: (merit, None)
                                                  for elem, merit in self.start()[c]}
        history = []
        for p in range(1, _LAST + 1):
            nxt: dict[_Element, tuple[int, Any]] = {}
            for source, elem, merit, way in self._steps(
                    p, c, [(e, m) for e, (m, _) in layer.items()], alive=False):
                if (way[3], way[2], way[4]) == uses[p - 1] \
                        and nxt.get(elem, (-1, None))[0] < merit:
                    nxt[elem] = (merit, (source, way))
            history.append(nxt)
            layer = nxt
        ways = []
        elem = last
        for p in range(_LAST, 0, -1):
            source, way = history[p - 1][elem][1]
            ways.append(way)
            elem = source
        ways.reverse()
        return ways


class _Build:
    """The replay of one trace with the tiles (see :meth:`_Cover._rebuild`)."""

    def __init__(self, cover: _Cover) -> None:
        self.cover = cover
        # the open runs per colour in the walk's order: (run int, tiles)
        self.runs: list[list[tuple[int, list[CardSpec]]]] = [[] for _ in range(_COLOURS)]
        self.groups: list[list[CardSpec]] = [[] for _ in cover.table_runs]
        self.below: list[int] = [0] * len(cover.table_runs)
        self.ended: set[int] = set()
        self.melds: list[list[CardSpec]] = []
        self.layoffs: dict[int, list[CardSpec]] = {}
        self.left: list[Card] = []
        # melds with room for free Jolys: (kind, the tiles or table run, how many, whether
        # a Joly there pays the Joly owed)
        self.rooms: list[tuple[str, Any, int, bool]] = []

    def colour(self, p: int, c: int, way: tuple[Any, ...]) -> None:
        """Replay a way of :meth:`_Cover.colour_ways`."""
        cover = self.cover
        runs_after = way[0]
        codes, starts, jstarts, gcodes, stay, order = way[10]
        tile = shared_card(cover.number[p], TILE_COLOURS[c])
        spec = natural_spec(tile)
        joly = joker_spec(cover.number[p], TILE_COLOURS[c])
        listed: list[list[CardSpec]] = []
        for (run, specs), code in zip(self.runs[c], codes, strict=True):
            if code == _TILE:
                listed.append([*specs, spec])
            elif code == _JOLY:
                listed.append([*specs, joly])
            else:
                self._end_run(run, specs, p - 1)
        listed += [[spec] for _ in range(starts)] + [[joly] for _ in range(jstarts)]
        self.runs[c] = [(run, listed[k]) for run, k in zip(runs_after, order, strict=True)]
        for gi, code in zip(cover.runs_of[c], gcodes, strict=True):
            if code in (_TILE, _JOLY):
                if p < cover.table_runs[gi].first:
                    self.below[gi] += 1
                self.groups[gi].append(spec if code == _TILE else joly)
            elif code == _DONE:
                self._end_group(gi)
        self.left += [tile] * stay

    def sets(self, p: int, way: tuple[Any, ...], orders: Any) -> None:
        """Replay a way of :meth:`_Cover.set_ways` (and the runs' new order, if any)."""
        cover = self.cover
        used = set()
        for item in way[5]:
            if item[0] == "m":
                specs = list(item[1])
                self.melds.append(specs)
                if cover.lazy and len(specs) == 3 and not any(s.card.is_joker for s in specs):
                    colours = [TILE_COLOURS.index(s.card.suit) for s in specs]
                    pays = cover.owed_joly and (not cover.row
                                                or cover._credit_set(p, colours) >= 2)
                    self.rooms.append(("set", specs, 1, pays))
            else:
                target, specs = item[1], list(item[2])
                used.add(target)
                self.layoffs[target] = specs
                table = next(t for t in cover.table_sets[p] if t.target == target)
                if cover.lazy and table.room(len(specs), 0):
                    self.rooms.append(("table_set", target, 1, False))
        if cover.lazy:
            for table in cover.table_sets.get(p, []):
                if table.target not in used and table.room(0, 0):
                    self.rooms.append(("table_set", table.target, 1, False))
        if orders is not None:
            for c, order in enumerate(orders):
                runs = self.runs[c]
                self.runs[c] = [(runs[k][0] & ~_OWED_BITS, runs[k][1]) for k in order]

    def _end_run(self, run: int, specs: list[CardSpec], last: int) -> None:
        cover = self.cover
        if cover.down:
            specs.reverse()  # low to high
        self.melds.append(specs)
        room = _run_room(run, last) if cover.lazy else 0
        if room:
            pays = cover.owed_joly and not cover._pays_run(run) and (
                not cover.row or _credit(run) >= 2)
            self.rooms.append(("run", specs, room, pays))

    def _end_group(self, gi: int) -> None:
        cover = self.cover
        self.ended.add(gi)
        table = cover.table_runs[gi]
        group = self.groups[gi]
        if cover.down:  # low to high, and the tiles below the run as the table sees it
            group.reverse()
            self.below[gi] = len(group) - self.below[gi]
        if group:
            self.layoffs[table.target] = group
        if cover.lazy:
            jolys = sum(1 for s in group if s.card.is_joker)
            room = table.room(len(group), jolys, self.below[gi])
            if room:
                self.rooms.append(("table_run", gi, room, False))

    def finish(self, into: int, joly_left: bool) -> Cover:
        """The last runs and groups end; the free Jolys go where there is room (a meld
        that pays a Joly owed first), one is the discard if none was left."""
        cover = self.cover
        for c in range(_COLOURS):
            for run, specs in self.runs[c]:
                self._end_run(run, specs, _LAST)
        for gi in range(len(cover.table_runs)):
            if gi not in self.ended:
                self._end_group(gi)
        if joly_left:
            self.left.append(JOKER)
        for kind, ref, room, _ in sorted(self.rooms, key=lambda r: not r[3]):
            if not into:
                break
            more = min(room, into)
            into -= more
            self._absorb(kind, ref, more)
        assert not into
        melds = tuple(tuple(m) for m in self.melds)
        layoffs = tuple(sorted((t, tuple(g)) for t, g in self.layoffs.items()))
        return Cover(melds, layoffs, tuple(self.left))

    def _absorb(self, kind: str, ref: Any, more: int) -> None:
        """Put ``more`` free Jolys into the meld ``ref`` (at the ends of a run)."""
        if kind == "set":
            ref.append(joker_spec(ref[0].card.rank, None))
            return
        if kind == "table_set":
            self.layoffs.setdefault(ref, []).append(CardSpec(JOKER))
            return
        if kind == "run":
            specs: list[CardSpec] = ref
            colour = (specs[0].face or specs[0].card).suit
            first = (specs[0].face or specs[0].card).rank  # a run's first tile: a 1 is low
            last = first + len(specs) - 1
            for _ in range(more):
                if last < _LAST:
                    last += 1
                    specs.append(joker_spec(rank_at(last), colour))
                else:
                    first -= 1
                    specs.insert(0, joker_spec(rank_at(first), colour))
            return
        cover = self.cover
        table = cover.table_runs[ref]
        first, last = table.first, table.last
        if cover.down:
            first, last = _LAST + 1 - last, _LAST + 1 - first
        group = self.layoffs.setdefault(table.target, [])
        below = self.below[ref]
        above = len(group) - below
        colour = TILE_COLOURS[table.colour]
        for _ in range(more):
            high = last + above + 1
            if high <= _LAST:
                group.append(joker_spec(rank_at(high), colour))
                above += 1
            else:
                low = first - below - 1
                group.insert(0, joker_spec(rank_at(low), colour))
                below += 1
        self.below[ref] = below


def cover(hand: Sequence[Card], melds: Sequence[Meld] = (), targets: Sequence[int] = (), *,
          need: int | None = None, keep: Card | None = None, owed: Obligation | None = None,
          only: Card | None = None) -> Cover | None:
    """A cover of ``hand`` (see the module docstring), or ``None`` when there is none.

    ``melds``: the table; ``targets``: the indexes of the table melds the seat may lay off
    on; ``need``: the opening value the new melds must reach, with a run (``None``: none
    needed); ``keep``: a tile that may not be left (the tile taken this turn: it may not
    be discarded); ``owed``: the meld owed this turn, which one new meld must pay;
    ``only``: the one tile that may stay, when it is known (a tile that fits nowhere).

    Two searches take turns, up the run places and down them (the rules read the same from
    either end, and a rack often settles within a few steps at one end and only late at
    the other), each exact on its own: the search that has done less work (ways tried)
    goes on, and the first to conclude answers. Deterministic: the same question gets the
    same cover."""
    walks = [_Search(_Cover(hand, melds, targets, need, keep, owed, only, down))
             for down in (False, True)]
    while True:
        walk = min(walks, key=_work)
        done, found = walk.advance()
        if done:
            return found


def _work(walk: _Search) -> int:
    return walk.question.ops


class _Search:
    """The search depth first over the steps: a node (the step, the beliefs of the four
    colours, the Jolys of the sets so far, flags, pay room and merit of the sets), then its
    first child not known to lead nowhere, down to the last step; a node all of whose
    children lead nowhere leads nowhere too (with the merit its sets had: one with more
    may still lead somewhere)."""

    def __init__(self, question: _Cover) -> None:
        self.question = question
        root: _Node = (0, question.start(), 0, 0, 0 if question.owed is not None else _PAID,
                       0, 0)
        # (node, its children not yet tried, how it was reached)
        self.stack: list[list[Any]] = [[root, None, None]]
        self.nowhere: dict[tuple[Any, ...], int] = {}

    def advance(self) -> tuple[bool, Cover | None]:
        """One child tried (or a node at the end): (whether the search has concluded, the
        cover found)."""
        question = self.question
        stack = self.stack
        while stack:
            top = stack[-1]
            node, kids, how = top
            if node[0] == _LAST:
                stack.pop()
                found = question.final(node)
                if found is not None:
                    path = [entry[2] for entry in stack[1:]] + [how]
                    return True, question.rebuild(path, *found)
                self._leads_nowhere(node)
                return False, None
            if kids is None:
                kids = top[1] = question.children(node)
            question.ops += 1
            for child, how2 in kids:
                seen = self.nowhere.get(child[:6])
                if seen is None or seen < child[6]:
                    stack.append([child, None, how2])
                    return False, None
            stack.pop()
            self._leads_nowhere(node)
            return False, None
        return True, None

    def _leads_nowhere(self, node: _Node) -> None:
        key = node[:6]
        self.nowhere[key] = max(node[6], self.nowhere.get(key, -1))
