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
the rest of the walk needs is kept, the *state*: per colour the open new runs (Jolys and
real tiles held, up to what the rules still ask of them; where it started, as far as its
length matters; whether it holds the tile owed and how many tiles of the rack before the
take besides), per table run the group laid off so far, the Jolys left, whether the
discard is chosen, the 1s waiting per colour, whether the meld owed is paid, and a
*merit* that is only ever better higher (the opening value, up to the value needed; or
the room for free Jolys, below). Within a step the colours are taken one after the other
(each colour's ways for a given run state are listed once per question,
:meth:`_Cover.colour_ways`), the tiles meant for sets are counted per colour and grouped
last (:meth:`_Cover.set_ways`); states that read alike merge, keeping the best merit. The
walk goes depth first, one next state after another, and remembers the states that lead
nowhere (with their merit): a state is taken on once per merit at most, so the work is
bounded by the number of states, which the tiles per number and colour bound (two of a
tile, two Jolys). Each state keeps a pointer to the state it came from and the way taken;
the cover is rebuilt from those. The rules read the same from either end (1-2-3 and
12-13-1), so a second walk goes down the places; the two take turns (:func:`cover`). On
racks of :data:`LOOK_AHEAD` tiles or more a state is taken on only when each colour on its
own can still place its tiles with the Jolys left and the one discard
(:meth:`_Cover.colour_needs`, a set allowed where the rack has the colours for one): a
condition every cover meets, which stops most walks of big racks before a dead end.

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

from collections import Counter
from collections.abc import Sequence
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
LOOK_AHEAD = 30
"""Racks of this many tiles or more check each colour on its own before a state is taken
on (:meth:`_Cover.colour_needs`). Measured on the going-out questions of 150 random-option
games (56,880 questions): without the check a 60-tile rack with two Jolys took 31 s; with
it on every rack the questions' p99 rose from 2.2 to 12.6 ms (small racks pay for tables
they never need); from 30 tiles on, p99 5 ms and the longest 2.4 s."""
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


def _order(items: Sequence[int]) -> tuple[int, ...]:
    """The indexes of ``items`` in the order of their values (a stable sort)."""
    return tuple(sorted(range(len(items)), key=items.__getitem__))


def _replace(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1:])


# A state: (runs per colour, groups per table run, Jolys left, the discard chosen, 1s
# waiting per colour, flags, whether a new meld with room would pay a Joly owed); within a
# step also the tiles meant for sets, per colour. With it: (merit, trace); a trace is (the
# trace before, the step: ("c", step, colour, way) or ("s", step, way, orders)) or None.
_State = tuple[Any, ...]
_Entry = tuple[int, Any]


def _keep(out: dict[_State, _Entry], state: _State, merit: int, trace: Any) -> None:
    """Merge ``state`` into ``out``: of states that read alike the one with the most merit
    is kept (the opening value so far, or the room for free Jolys: more is never worse)."""
    old = out.get(state)
    if old is None or old[0] < merit:
        out[state] = (merit, trace)


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
        self.look_ahead = len(hand) >= LOOK_AHEAD
        self.need_memo: dict[tuple[Any, ...], tuple[tuple[int, int], ...]] = {}
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

    # --- the walk ---------------------------------------------------------------------

    def _place(self, p: int, layer: dict[_State, _Entry]) -> dict[_State, _Entry]:
        """Every state after place ``p`` from the states before it."""
        entering = tuple(i for i, r in enumerate(self.table_runs) if r.first == p)
        work: dict[_State, _Entry] = {}
        no_sets = (0,) * _COLOURS
        for state, (room, trace) in layer.items():
            groups = state[1]
            if entering and any(_phase(groups[i]) == 1 for i in entering):
                # a group below a table run that starts here is whole: it waits for the end
                groups = tuple(g + 1 if i in entering and _phase(g) == 1 else g
                               for i, g in enumerate(groups))
            _keep(work, (state[0], groups, *state[2:], no_sets), room, trace)
        for c in range(_COLOURS):
            nxt: dict[_State, _Entry] = {}
            for state, (room, trace) in work.items():
                self._colour(p, c, state, room, trace, nxt)
            work = nxt
            if not work:
                return work
        out: dict[_State, _Entry] = {}
        for state, (room, trace) in work.items():
            self._sets(p, state, room, trace, out)
        if self.look_ahead and p < _LAST:
            out = {state: entry for state, entry in out.items()
                   if self._colours_may_end(p, state[0], state[1], state[4], state[2],
                                            state[3])}
        return out

    # --- one colour at one place ------------------------------------------------------

    def _colour(self, p: int, c: int, state: _State, room: int, trace: Any,
                out: dict[_State, _Entry]) -> None:
        """The tiles of colour ``c`` at place ``p``: every way to place them (from
        :meth:`colour_ways`), each as a state in ``out``."""
        runs_all, groups, jolys, left, kept, flags, pay_room, sets = state
        mine = self.runs_of[c]
        my_groups = tuple(groups[i] for i in mine)
        avail = self.tiles[p][c] if p <= 13 else kept[c]
        ways = self.colour_ways(p, c, runs_all[c], my_groups, avail, min(jolys, 2), left,
                                flags & _PAID)
        self.ops += len(ways)
        need = self.need
        for way in ways:
            (runs, new_groups, jused, to_sets, left2, wait, fl, gain, more_room,
             more_pay, _) = way
            if jused > jolys:
                continue
            if new_groups != my_groups:
                new_all = list(groups)
                for i, g in zip(mine, new_groups, strict=True):
                    new_all[i] = g
                groups2 = tuple(new_all)
            else:
                groups2 = groups
            # the merit: the opening value so far, or the room for free Jolys
            merit = min(need, room + gain) if need is not None else min(2, room + more_room)
            kept2 = kept if not wait and p != _LAST else _replace(kept, c, wait)
            sets2 = sets if not to_sets else _replace(sets, c, to_sets)
            _keep(out, (_replace(runs_all, c, runs), groups2, jolys - jused, left2, kept2,
                        flags | fl, pay_room | more_pay, sets2),
                  merit, (trace, ("c", p, c, way)))

    def colour_ways(self, p: int, c: int, runs: tuple[int, ...], groups: tuple[int, ...],
                    avail: int, jolys: int, left: int, paid: int) -> list[tuple[Any, ...]]:
        """Every way to place the ``avail`` tiles of colour ``c`` at place ``p`` given the
        open runs ``runs`` of the colour, its table runs' ``groups``, ``jolys`` Jolys (up to
        two), the tile ``left`` and whether the meld owed is ``paid``: (runs after,
        groups after, Jolys used, tiles to sets, left after, 1s waiting, flags, value,
        room, pay room, what happened: the run codes, real and Joly starts, the group
        codes, tiles staying). Cached per question: the same run states recur."""
        key = (p, c, runs, groups, avail, jolys, left, paid)
        found = self.colour_memo.get(key)
        if found is None:
            found = self.colour_memo[key] = self._colour_ways(*key)
        return found

    def _colour_ways(self, p: int, c: int, runs: tuple[int, ...], groups: tuple[int, ...],
                     avail: int, jolys: int, left: int, paid: int) -> list[tuple[Any, ...]]:
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
                            p, table, group, avail - used, jolys - jused):
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
            for starts in range(rest + 1):
                if starts and (p > 12 or ended):
                    break
                for to_sets in range(rest - starts + 1):
                    if to_sets and p > 13:
                        break
                    for stay in range(rest - starts - to_sets + 1):
                        wait = rest - starts - to_sets - stay
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

    def _group_moves(self, p: int, table: _TableRun, group: int, tiles: int, jolys: int
                     ) -> list[tuple[int, int, int, int, int]]:
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
                    if table.fits(n + 1, j + dj, partial=True):
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
                if p <= _LAST and table.fits(base_n + 1, base_j + dj, partial=True):
                    out.append((du, dj, _group(3, base_n + 1, base_j + dj, below if phase == 2
                                               else 0, dj), code, 0))
            if phase == 2:
                if table.fits(n, j):
                    out.append((0, 0, 0, _DONE, table.room(n, j, below) if lazy else 0))
            else:
                out.append((0, 0, 0, _DONE, table.room(0, 0, 0) if lazy else 0))
            return out
        if phase == 3:
            for du, dj, code in adds:
                if p <= _LAST and table.fits(n + 1, j + dj, partial=True):
                    out.append((du, dj, _group(3, n + 1, j + dj, below, dj), code, 0))
            if table.fits(n, j) and not (lazy and _group_last_joly(group)):
                out.append((0, 0, 0, _DONE, table.room(n, j, below) if lazy else 0))
            return out
        return [(0, 0, group, _NONE, 0)]

    def _reach(self, p: int, table: _TableRun) -> bool:
        """A group below ``table`` starting at ``p`` might reach it (a tile or a Joly for
        every place up to the run: a quick bound)."""
        gaps = sum(1 for q in range(p + 1, table.first) if not self.tiles[q][table.colour])
        return gaps <= self.jolys

    # --- sets -------------------------------------------------------------------------

    def _sets(self, p: int, state: _State, room: int, trace: Any,
              out: dict[_State, _Entry]) -> None:
        """Group the tiles meant for sets of number ``p`` into sets (new, or laid off on a
        table set), Jolys joining where they must; then the state after place ``p``."""
        runs, groups, jolys, left, kept, flags, pay_room, sets = state
        ways = self.set_ways(self.number[p], sets, min(jolys, 2)) if p <= 13 else [
            (0, 0, False, 0, 0, ())]
        for way in ways:
            jused, tiles, pays, more_room, more_pay, _ = way
            if jused > jolys:
                continue
            j2 = jolys - jused
            if not self._viable(p, runs, groups, j2, kept) or not self._may_pay(
                    p, runs, j2, flags | (_PAID if pays else 0), pay_room | more_pay):
                continue
            if self.need is not None:
                merit = min(self.need, room + tiles * _value_in_set(self.number[p]))
                if p < _LAST and merit + self.potential[p + 1] + 25 * j2 + 10 * sum(kept) \
                        < self.need:
                    continue
            else:
                merit = min(2, room + more_room)
            fl = flags | (_PAID if pays else 0)
            runs2, pay2, orders = runs, pay_room | more_pay, None
            if fl & _PAID and self.owed is not None and any(
                    r & _OWED_BITS for colour in runs for r in colour):
                # once paid, the owed bits no longer matter: states alike but for them merge
                orders = tuple(_order([r & ~_OWED_BITS for r in colour]) for colour in runs)
                runs2 = tuple(tuple(colour[k] & ~_OWED_BITS for k in order)
                              for colour, order in zip(runs, orders, strict=True))
            if fl & _PAID:
                pay2 = 0
            _keep(out, (runs2, groups, j2, left, kept, fl, pay2), merit,
                  (trace, ("s", p, way, orders)))

    def _viable(self, p: int, runs: tuple[tuple[int, ...], ...], groups: tuple[int, ...],
                jolys: int, kept: tuple[int, ...]) -> bool:
        """The runs that must grow at the next place (under three tiles or without two
        real tiles per Joly, a Joly at the end that must be covered, or a group still
        below its run) find a tile or a Joly each."""
        if p >= _LAST:
            return True
        short = 0
        nxt = p + 1
        lazy = self.lazy
        for c in range(_COLOURS):
            must = sum(1 for r in runs[c] if not _closable(r)
                       or (lazy and _last_joly(r) and _real(r) + _jolys(r) > 3))
            for gi in self.runs_of[c]:
                if _phase(groups[gi]) == 1 and nxt < self.table_runs[gi].first:
                    must += 1
            if must:
                have = self.tiles[nxt][c] if nxt <= 13 else kept[c]
                if must > have:
                    short += must - have
            if nxt == _LAST and kept[c]:
                # each 1 waiting continues a run of its colour open at 13 (or a group
                # above a table run ending there)
                takers = sum(1 for r in runs[c] if _may_grow(r, _LAST))
                takers += sum(1 for gi in self.runs_of[c]
                              if self.table_runs[gi].last == 13
                              or _phase(groups[gi]) == 3)
                if kept[c] > takers:
                    return False
        return short <= jolys

    def _colours_may_end(self, p: int, runs: tuple[tuple[int, ...], ...],
                         groups: tuple[int, ...], kept: tuple[int, ...], jolys: int,
                         left: int) -> bool:
        """Whether each colour, on its own, can still place its tiles after step ``p``
        with the Jolys left and the one tile that may stay (going out), a tile going to a
        set of its number only where the rack (or a table set) has the other colours for
        one: a condition every cover meets, checked per state (:meth:`colour_needs`)."""
        combos = [(0, 0)]
        for c in range(_COLOURS):
            needs = self.colour_needs(p, c, runs[c], tuple(groups[i] for i in self.runs_of[c]),
                                      kept[c])
            if not needs:
                return False
            combos = [(j + nj, s + ns) for j, s in combos for nj, ns in needs
                      if j + nj <= jolys and s + ns + left <= 1]
            if not combos:
                return False
        return True

    def colour_needs(self, p: int, c: int, runs: tuple[int, ...], groups: tuple[int, ...],
                     kept: int) -> tuple[tuple[int, int], ...]:
        """The least (Jolys, tiles staying) with which the tiles of colour ``c`` after step
        ``p`` can all be placed, from its open ``runs``, table-run ``groups`` and 1s
        waiting, the colour alone (every way of :meth:`colour_ways`, sets allowed where
        the rack might make one): the pairs none other beats. Cached per question."""
        # what the colour alone needs does not depend on the owed bits, nor on a start
        # at place 3 or 4 (it counts only for the room of free Jolys)
        runs = tuple(sorted(r & ~(_OWED_BITS | _LATE_START) if 3 <= _start(r) <= 4
                            else r & ~_OWED_BITS for r in runs))
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
        ways = self.colour_ways(q, c, runs, groups, avail, min(self.jolys, 2), 0, _PAID)
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

    def _may_pay(self, p: int, runs: tuple[tuple[int, ...], ...], jolys: int, flags: int,
                 pay_room: int) -> bool:
        """Whether the meld owed may still be paid after step ``p``: past the tile owed, an
        open run holds it; a Joly owed: a Joly is left, or an open run holds one."""
        if flags & _PAID:
            return True
        if self.owed_joly:
            return bool(jolys) or any(_holds_owed(r) for colour in runs for r in colour)
        if p < self.owed_step or (self.owed_number == 1 and p < _LAST):
            return True
        return any(_holds_owed(r) for r in runs[self.owed_colour])

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

    def _finish(self, state: _State, merit: int) -> tuple[int, bool] | None:
        """After place 14: every open run ends, every group is done; the tiles left, the
        free Jolys, the opening value and run, the meld owed (``merit``: the opening value,
        or the room for free Jolys). ``None`` when the state is no cover, else (the free
        Jolys that go into melds, whether the discard is a Joly)."""
        runs, groups, jolys, left, kept, flags, pay_room = state
        value = merit if self.need is not None else 0
        room = merit if self.need is None else 0
        for colour in runs:
            for run in colour:
                if not _closable(run) or (self.lazy and _last_joly(run)
                                          and _real(run) + _jolys(run) > 3):
                    return None
                fl, more_room, more_pay = self._ends_run(run, _LAST)
                flags |= fl
                room += more_room
                pay_room |= more_pay
        for gi, g in enumerate(groups):
            table = self.table_runs[gi]
            phase = _phase(g)
            if phase == 1 or (phase == 3 and self.lazy and _group_last_joly(g)):
                return None
            if phase and not table.fits(_group_tiles(g), _group_jolys(g)):
                return None
            if self.lazy and (phase or table.last == _LAST):  # done only now
                room += table.room(_group_tiles(g), _group_jolys(g), _group_below(g))
        if any(kept):
            return None
        if self.need is not None and (value < self.need or not flags & _RUN):
            return None
        joly_left = not left
        if joly_left and (not jolys or self.keep == JOKER
                          or (self.only is not None and self.only != JOKER)):
            return None
        into = jolys - joly_left
        if not self.lazy:
            return (0, joly_left) if not into and flags & _PAID else None
        if min(2, room) < into:
            return None
        if not flags & _PAID and not (self.owed_joly and pay_room and into):
            return None
        return into, joly_left

    # --- the answer -------------------------------------------------------------------

    def _rebuild(self, trace: Any, end: tuple[int, bool]) -> Cover:
        """The cover a trace describes: its steps replayed from the start with the tiles,
        the free Jolys put where there is room (a meld that pays a Joly owed first)."""
        steps = []
        while trace is not None:
            trace, step = trace
            steps.append(step)
        steps.reverse()
        build = _Build(self)
        for step in steps:
            if step[0] == "c":
                build.colour(step[1], step[2], step[3])
            else:
                build.sets(self.number[step[1]], step[2], step[3])
        return build.finish(*end)


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

    Two walks take turns, up the run places and down them (the rules read the same from
    either end, and a rack often settles within a few steps at one end and only late at
    the other), each exact on its own: the walk that has done less work (ways tried) goes
    on, and the first to conclude answers. Deterministic: the same question gets the same
    cover."""
    walks = [_Depth(_Cover(hand, melds, targets, need, keep, owed, only, down))
             for down in (False, True)]
    while True:
        walk = min(walks, key=_work)
        done, found = walk.advance()
        if done:
            return found


def _work(walk: _Depth) -> int:
    return walk.work


class _Depth:
    """A walk depth first: a state, then its first next state not known to lead nowhere,
    down to the end; a state all of whose next states lead nowhere leads nowhere too (with
    the room its melds had: one with more room may still lead somewhere)."""

    def __init__(self, question: _Cover) -> None:
        self.question = question
        no_runs: tuple[tuple[int, ...], ...] = ((),) * _COLOURS
        start: _State = (no_runs, (0,) * len(question.table_runs), question.jolys, 0,
                         (0,) * _COLOURS, 0 if question.owed is not None else _PAID, 0)
        # (step, state, merit, trace, the next states not yet tried)
        self.stack: list[list[Any]] = [[0, start, 0, None, None]]
        self.nowhere: dict[tuple[int, _State], int] = {}
        self.work = 0

    def advance(self) -> tuple[bool, Cover | None]:
        """One state taken a step on (or tried at the end): (whether the walk has
        concluded, the cover found)."""
        question = self.question
        stack = self.stack
        while stack:
            top = stack[-1]
            step, state, room, trace, nxt = top
            if step == _LAST:
                stack.pop()
                end = question._finish(state, room)
                if end is not None:
                    return True, question._rebuild(trace, end)
                self._leads_nowhere(step, state, room)
                return False, None
            if nxt is None:
                before = question.ops
                top[4] = iter(question._place(step + 1, {state: (room, trace)}).items())
                self.work += question.ops - before + 1
                return False, None
            for state2, (room2, trace2) in nxt:
                seen = self.nowhere.get((step + 1, state2))
                if seen is None or seen < room2:
                    stack.append([step + 1, state2, room2, trace2, None])
                    break
            else:
                stack.pop()
                self._leads_nowhere(step, state, room)
        return True, None

    def _leads_nowhere(self, step: int, state: _State, room: int) -> None:
        key = (step, state)
        self.nowhere[key] = max(room, self.nowhere.get(key, -1))
