"""Going out found number by number: the search that decides, within its budget, whether
a rack can go out.

romanian-rummy.de.txt: "Um das Spiel zu gewinnen, muss man alle Steine, die man noch
hat, melden bis auf einen Stein – dieser letzte Stein muss abgelegt werden."

:mod:`engine.variants.romanian.plan` searches over whole melds and lay-off groups; on racks
of dozens of tiles the racks left after each choice are too many to refute within its
step budget. This search walks the numbers instead (the places of a run: 1..13, then 14,
the 1 after the 13), Rummikub-solver style: at each number every tile of that number is
placed at once (it extends an open run of its colour, starts a run, joins a set of the
number, completes a table set, extends a table run at either end, or is the discard) and
a Joly may join anything there or wait. What is left open between numbers is small (the
open runs, by colour, length and Jolys; the Jolys left; whether the discard is made and
the meld owed paid; the 1s kept for the place after the 13), so the dead ends it
remembers are few and most racks of 60 tiles are settled in a few hundred steps.

The rules read the same from either end (1-2-3 and 12-13-1), so a second sweep walks the
numbers downwards; :func:`sweep_plan` lets the two take turns. New runs are at most
:data:`LONGEST_RUN` tiles; a table run's lay-off is one group (both ends, one action);
every meld and group it proposes is read back by :func:`engine.melds.readings` and
:func:`engine.melds.extend_readings` before the plan is returned.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial

from engine.cards import JOKER, TILE_COLOURS, Card, shared_card
from engine.melds import (
    CardSpec,
    Meld,
    MeldKind,
    extend_readings,
    joker_spec,
    natural_spec,
    rank_at,
    readings,
)
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.obligation import from_the_rack, paid_by, pays_with
from engine.variants.romanian.state import Obligation
from engine.variants.romanian.tiles import meld_value, number_value

LONGEST_RUN = 12
"""The longest new run: a run of all thirteen numbers reads two ways (1..13 and
2..13-1) and is no new meld (``engine.candidates.one_reading_groups``); the longest table
run is 13."""

SWEEP_BUDGET = 4_000
"""Steps (places visited, runs and groups opened or carried on) of both directions
together before :func:`sweep_plan` gives up: 20-40 ms. Of 1,792 racks of 40-60 tiles
built from melds (and the same with one tile more), the sweep settled 99 % within 4,036
steps and half within 106; 13 needed more than 5,000 (the most 41,731). A rack of 63
tiles from a random game with a meld owed and no way out took about 30,000 places
(1.2 s) to refute: it is answered "no plan" within the budget."""

_FIRST_CHUNK = 500
"""Steps each direction may take in the first round; each round doubles it."""

_NEW, _LEFT, _RIGHT = 0, 1, 2
_DISCARD = -2  # the mark of the discard among the placed groups (new melds: -1)
_RUN_DOWN, _PAID = 1, 2  # flags: a new run is made; the meld owed is paid
_DISCARD_CHOICE = 9  # after every side (_NEW, _LEFT, _RIGHT) in the order of choices
_COLOURS = len(TILE_COLOURS)


class Steps:
    """A budget of steps, spent by :func:`sweep_plan` (several sweeps may share one)."""

    __slots__ = ("left",)

    def __init__(self, left: int) -> None:
        self.left = left


class GaveUp(Exception):
    """The sweep ran out of steps (:data:`SWEEP_BUDGET`): no answer either way."""


@dataclass(frozen=True, slots=True)
class SweepResult:
    """A way out found by the sweep: new ``melds``, ``layoffs`` (table meld index, tiles)
    and the ``discard``, in the shape of :class:`engine.variants.romanian.plan.Plan`."""

    melds: tuple[tuple[CardSpec, ...], ...]
    layoffs: tuple[tuple[int, tuple[CardSpec, ...]], ...]
    discard: Card


# An open run: (colour, length, Jolys, side, target, tiles). ``side``: a new run, the
# part below a table run (``_LEFT``; it must reach the run) or above it (``_RIGHT``;
# ``length`` and Jolys then count the whole table run, ``tiles`` its whole group).
_Open = tuple[int, int, int, int, int, tuple[CardSpec, ...]]
# A group laid off below a table run that may still grow above it: (target, tiles, Jolys).
_Below = tuple[int, tuple[CardSpec, ...], int]
# A table run to lay off on: (colour, first place, last place, length, Jolys).
_TableRun = tuple[int, int, int, int, int]


def _key(p: int, run: _Open, left: int) -> tuple[int, ...]:
    """What the rest of the sweep needs of an open run at place ``p`` with ``left`` Jolys
    not yet placed: a new run's length only up to three (it may end from then on), where
    it started if at place 1 or 2 (it may not reach thirteen tiles), and its Jolys and
    real tiles only while they can still matter (a run holding two Jolys needs four real
    tiles; with one it has two at three tiles); a group at a table run its length (the
    run may not pass thirteen tiles). The side comes second in every key: a new run and a
    group at a table run must never read alike (they once did, and a way out was lost)."""
    colour, length, jolys, side, target, _ = run
    if side != _NEW:
        return (colour, side, length, jolys, target)
    start = p - length
    counted = jolys + left >= 2
    return (colour, _NEW, min(length, 3), jolys if counted or left else 0,
            min(length - jolys, 4) if counted else 0, start if start <= 2 else 0)


def _value(position: int, in_set: bool) -> int:
    """What a tile (or a Joly standing for it) adds at run place / set number
    ``position``: a 1 25 in a set, 5 at a run's low end, 10 after the 13."""
    if position == 1:
        return 25 if in_set else 5
    if position == 14:
        return 10
    return number_value(position)


def _group_fits(length: int, jolys: int, first: int) -> bool:
    """Whether a table run with a group laid off is a run the rules accept: ``length`` and
    ``jolys`` of the whole run, from place ``first`` (thirteen tiles only from the 1 or up
    to the 1 after the 13: ``plan._run_groups``)."""
    last = first + length - 1
    if length > 13 or (length == 13 and first != 1 and last != 14):
        return False
    return length - jolys >= 2 * jolys


def _tiles_at(place: int, tiles: list[list[int]], kept: tuple[int, ...]) -> list[int]:
    """The tiles of ``place`` per colour: ``tiles`` up to the 13, the ``kept`` 1s at 14,
    none after (at place 15 the open runs only end)."""
    if place <= 13:
        return list(tiles[place])
    return list(kept) if place == 14 else [0] * _COLOURS


class _Frame:
    """What one place's choices change as they go (undone on the way back): the tiles of
    the place not yet placed (``avail`` per colour), the open runs after it (``out``),
    the Jolys left, the discard made, the groups below table runs (``below``), the opening
    value, whether a new run is down (``run`` before the place, ``closed`` in it) and the
    1s kept for the place after the 13."""

    __slots__ = ("avail", "below", "closed", "discarded", "jolys", "kept", "later", "nxt",
                 "out", "p", "run", "table_runs", "value", "wanted", "wanted_later")

    def __init__(self, p: int, avail: list[int], jolys: int, discarded: bool,
                 below: list[_Below], value: int, run: int, kept: tuple[int, ...],
                 tiles: list[list[int]], table_runs: dict[int, _TableRun]) -> None:
        self.p = p
        self.table_runs = table_runs
        self.avail = avail
        self.out: list[_Open] = []
        self.jolys = jolys
        self.discarded = discarded
        self.below = below
        self.value = value
        self.run = run
        self.closed = 0  # what the place adds to ``run`` (_RUN_DOWN, _PAID)
        self.kept = kept
        # the tiles of the next place, and the open runs that need one of them (a new run
        # under three tiles, a group below a table run) per colour
        self.nxt = _tiles_at(p + 1, tiles, kept)
        self.later = _tiles_at(p + 2, tiles, kept)  # the tiles two places on
        self.wanted = [0] * _COLOURS
        self.wanted_later = [0] * _COLOURS

    def push(self, run: _Open) -> bool:
        """Add ``run`` to the open runs after this place; False (nothing added) when the
        runs that must grow at the next place would need more Jolys than are left."""
        now, later = self._needs(run)
        if now:
            colour = run[0]
            self.wanted[colour] += 1
            self.wanted_later[colour] += later
            if self.short() > self.jolys:
                self.wanted[colour] -= 1
                self.wanted_later[colour] -= later
                return False
        self.out.append(run)
        return True

    def pop(self) -> None:
        """Undo the last :meth:`push`."""
        run = self.out.pop()
        now, later = self._needs(run)
        if now:
            self.wanted[run[0]] -= 1
            self.wanted_later[run[0]] -= later

    def _needs(self, run: _Open) -> tuple[bool, bool]:
        """Whether ``run`` must grow at the next place, and at the one after it too."""
        side = run[3]
        if side == _NEW:
            return run[1] < MELD_RULES.min_cards, run[1] == 1
        if side == _LEFT:  # up to the place before its table run
            return self.p + 1 < self.table_runs[run[4]][1], False
        return False, False

    def short(self) -> int:
        """How many runs that must grow at the next two places find no tile there (each
        needs a Joly of its own)."""
        gaps = 0
        for c in range(_COLOURS):
            if self.wanted[c] > self.nxt[c]:
                gaps += self.wanted[c] - self.nxt[c]
            if self.wanted_later[c] > self.later[c]:
                gaps += self.wanted_later[c] - self.later[c]
        return gaps


class _Sweep:
    """One sweep over a rack; see the module docstring. ``value``/``run``: what the melds
    made before it (a meld owed) bring to an opening."""

    def __init__(self, hand: Sequence[Card], melds: Sequence[Meld], targets: Sequence[int],
                 need: int | None, keep: Card | None, value: int, run: bool,
                 discard: Card | None, budget: int, mirror: bool = False,
                 owed: Obligation | None = None) -> None:
        self.mirror = mirror
        self.owed = owed
        # the place of the tile owed: past it, only an open run holding it can still pay
        self.owed_place = 16
        if owed is not None and not owed.tile.is_joker and owed.tile.rank != 1:
            self.owed_place = 15 - owed.tile.rank if mirror else owed.tile.rank
        self.need = need
        self.keep = keep
        self.only = discard  # the one tile that may be the discard, when one fits nowhere
        self.budget = budget
        self.steps = 0
        self.value0 = value
        self.run0 = run
        counts = Counter(hand)
        self.jolys = counts.pop(JOKER, 0)
        # tiles[p][c]: tiles of place p (1..13; mirrored: of number 15 - p, the 1s at 1)
        # and colour c
        self.tiles = [[counts[shared_card(self.rank(p), col)] if 1 <= p <= 13 else 0
                       for col in TILE_COLOURS] for p in range(16)]
        colour = {col: i for i, col in enumerate(TILE_COLOURS)}
        self.runs: dict[int, _TableRun] = {}
        # table sets by number: (target, colours present, size, Jolys)
        self.sets: dict[int, list[tuple[int, frozenset[int], int, int]]] = {}
        for t in targets:
            meld = melds[t]
            jolys = sum(1 for p in meld.cards if p.card.is_joker)
            if meld.kind is MeldKind.RUN:
                face = meld.cards[0].face
                assert face.suit is not None
                first, last = face.rank, face.rank + len(meld.cards) - 1
                if mirror:
                    first, last = 15 - last, 15 - first
                self.runs[t] = (colour[face.suit], first, last, len(meld.cards), jolys)
            else:
                present = frozenset(colour[p.card.suit] for p in meld.cards
                                    if not p.card.is_joker and p.card.suit is not None)
                place = 15 - meld.rank if mirror and meld.rank != 1 else meld.rank
                self.sets.setdefault(place, []).append((t, present, len(meld.cards), jolys))
        self.memo: set[tuple[object, ...]] = set()
        # (table meld, new meld -1 or the discard _DISCARD; its tiles), in placing order
        self.placed: list[tuple[int, tuple[CardSpec, ...]]] = []

    def rank(self, place: int) -> int:
        """The number of the tiles at ``place`` (the 1 at 1 and 14)."""
        return rank_at(15 - place if self.mirror else place)

    def worth(self, place: int, in_set: bool) -> int:
        """What a tile adds to an opening at ``place`` (:func:`_value` of the real place)."""
        if self.mirror and not (in_set and place == 1):
            place = 15 - place
        return _value(place, in_set)

    # -- the walk -------------------------------------------------------------------

    def solve(self) -> SweepResult | None:
        """The way out, or ``None``; raises :class:`GaveUp` past the budget (memo kept:
        a later call with a larger budget goes on where this one stopped)."""
        self.placed.clear()
        ones = self.tiles[1]
        for kept in _splits_of(ones, self._may_keep_one):
            avail = [ones[c] - kept[c] for c in range(_COLOURS)]
            down = (_RUN_DOWN if self.run0 else 0) | (_PAID if self.owed is None else 0)
            if self._walk(1, avail, (), self.jolys, False, (), down, self.value0,
                          tuple(kept)):
                return self._result()
        return None

    def _may_keep_one(self, colour: int) -> bool:
        """Whether a 1 of ``colour`` may wait for the place after the 13: some run of the
        colour can end at the 13."""
        return bool(self.tiles[13][colour] or self.jolys
                    or any(r[0] == colour and r[2] == 13 for r in self.runs.values()))

    def _walk(self, p: int, avail: list[int], runs: tuple[_Open, ...], jolys: int,
              discarded: bool, below: tuple[_Below, ...], down: int, value: int,
              kept: tuple[int, ...]) -> bool:
        """Place the tiles of place ``p`` (``avail`` per colour) and the places after it;
        True once every tile is placed (the answer is then in ``self.placed``). ``down``:
        :data:`_RUN_DOWN` once a new run is made, :data:`_PAID` once the meld owed is."""
        self.steps += 1
        if self.steps > self.budget:
            raise GaveUp()
        need = self.need
        if self.owed is not None and not down & _PAID:
            shapes = sorted([(*_key(p, r, jolys), self._towards_paying(r)) for r in runs])
        else:
            shapes = sorted([_key(p, r, jolys) for r in runs])
        key = (p, tuple(shapes), jolys, discarded,
               tuple(sorted([(b[0], len(b[1]), b[2]) for b in below])),
               down, min(value, need) if need is not None else 0, kept if p <= 14 else ())
        if key in self.memo:
            return False
        if p == 16:  # every place done, the last open runs ended at place 15
            found = self._finish(jolys, discarded, below, down, value)
        else:
            found = self._place(_Frame(p, avail, jolys, discarded, list(below), value, down,
                                       kept, self.tiles, self.runs), runs)
        if not found:
            self.memo.add(key)
        return found

    def _finish(self, jolys: int, discarded: bool, below: tuple[_Below, ...], down: int,
                value: int) -> bool:
        if below or not down & _PAID:
            return False
        if self.need is not None and (value < self.need or not down & _RUN_DOWN):
            return False
        if discarded:
            return jolys == 0
        if jolys == 1 and self.keep != JOKER and self.only is None:
            self._mark(_DISCARD, (CardSpec(JOKER),))  # the Joly left is the discard
            return True
        return False

    def _pays(self, run: bool, where: int, tiles: tuple[CardSpec, ...]) -> int:
        """:data:`_PAID` when the new meld ``tiles`` (a run of colour index ``where``, or a
        set at place ``where``) pays the meld owed (:func:`engine.variants.romanian.
        obligation.pays_with`), else 0."""
        owed = self.owed
        if owed is None:
            return 0
        cards = [s.card for s in tiles]
        if run:
            return _PAID if pays_with(owed, True, TILE_COLOURS[where], 0, cards) else 0
        return _PAID if pays_with(owed, False, None, self.rank(where), cards) else 0

    def _towards_paying(self, run: _Open) -> int:
        """How far open new ``run`` is from paying the meld owed (part of the memo key: two
        runs alike but for that have different futures): 0 without the tile owed, else 1
        plus the tiles it holds from the rack before the take, up to two (for a tile taken
        from the row; :func:`engine.variants.romanian.obligation.pays`)."""
        owed = self.owed
        assert owed is not None
        if run[3] != _NEW:
            return 0
        tile = owed.tile
        cards = [s.card for s in run[5]]
        if tile not in cards:
            return 0
        if owed.kind != "row":
            return 1
        return 1 + from_the_rack(owed, cards)

    def _may_pay(self, runs: list[_Open]) -> bool:
        """Whether one of the open new ``runs`` holds the tile owed (and may pay later)."""
        return any(self._towards_paying(r) for r in runs)

    def _mark(self, target: int, tiles: tuple[CardSpec, ...]) -> int:
        self.placed.append((target, tiles))
        return len(self.placed) - 1

    # -- one place: each step tries its choices and calls the next step ----------------

    def _place(self, f: _Frame, runs: tuple[_Open, ...]) -> bool:
        """Groups below a table run whose first place is ``f.p`` join it; then the open
        runs, the sets, the starts and the next place."""
        depth = len(self.placed)
        going: list[_Open] = []
        for r in runs:
            if r[3] == _LEFT and self.runs[r[4]][1] == f.p:
                _, first, last, length, table_jolys = self.runs[r[4]]
                if last == 14:  # nothing can follow above: the group is whole now
                    if not _group_fits(length + r[1], table_jolys + r[2], first - r[1]):
                        del self.placed[depth:]
                        return False
                    self._mark(r[4], r[5])
                else:
                    f.below.append((r[4], r[5], r[2]))
            else:
                going.append(r)
        going.sort(key=lambda r: r[:5])
        if self._extend(f, going, 0, 0):
            return True
        del self.placed[depth:]
        return False

    def _extend(self, f: _Frame, runs: list[_Open], i: int, floor: int) -> bool:
        """Open run ``i`` goes on with a tile of place ``f.p`` (choice 0), ends (1) or goes
        on with a Joly (2); a run like the one before it takes no lower choice than that one
        (``floor``): the same runs in another order are the same state."""
        self.steps += 1
        if i == len(runs):
            return self._sets(f)
        colour, length, run_jolys, side, target, tiles = runs[i]
        same = i + 1 < len(runs) and runs[i + 1][:5] == runs[i][:5]
        p = f.p
        grow = p <= 14 and (side == _LEFT or length < (LONGEST_RUN if side == _NEW else 13))
        gain = self.worth(p, False) if side == _NEW and self.need is not None else 0
        if grow and f.avail[colour] and floor <= 0 and f.push((
                colour, length + 1, run_jolys, side, target,
                (*tiles, natural_spec(shared_card(self.rank(p), TILE_COLOURS[colour]))))):
            f.avail[colour] -= 1
            f.value += gain
            if self._extend(f, runs, i + 1, 0):
                return True
            f.value -= gain
            f.pop()
            f.avail[colour] += 1
        if side == _NEW and floor <= 1:
            if length >= MELD_RULES.min_cards and length - run_jolys >= 2 * run_jolys:
                mark = self._mark(-1, tiles)
                closed = f.closed
                f.closed |= _RUN_DOWN | self._pays(True, colour, tiles)
                if self._extend(f, runs, i + 1, 1 if same else 0):
                    return True
                f.closed = closed
                del self.placed[mark:]
        elif side == _RIGHT and _group_fits(length, run_jolys, p - length):
            mark = self._mark(target, tiles)
            if self._extend(f, runs, i + 1, 0):
                return True
            del self.placed[mark:]
        if grow and f.jolys:
            f.jolys -= 1
            if f.push((colour, length + 1, run_jolys + 1, side, target,
                       (*tiles, joker_spec(self.rank(p), TILE_COLOURS[colour])))):
                f.value += gain
                if self._extend(f, runs, i + 1, 2 if same else 0):
                    return True
                f.value -= gain
                f.pop()
            f.jolys += 1
        return False

    def _sets(self, f: _Frame) -> bool:
        """New sets of number ``f.p`` (none after the 13), then the table sets."""
        if f.p > 13:
            return self._starts(f, 0)
        return self._new_sets(f, 0)

    def _new_sets(self, f: _Frame, first: int) -> bool:
        """One more new set of ``f.p`` of shape ``first`` or later (shapes in
        :data:`_SET_SHAPES` order, so each list of sets is built once), or no more."""
        p = f.p
        avail = f.avail
        gain = self.worth(p, True) if self.need is not None else 0
        for n in range(first, len(_SET_SHAPES)):
            colours, joly = _SET_SHAPES[n]
            if joly > f.jolys or any(not avail[c] for c in colours):
                continue
            for c in colours:
                avail[c] -= 1
            specs = tuple(natural_spec(shared_card(self.rank(p), TILE_COLOURS[c])) for c in colours)
            if joly:
                specs += (joker_spec(self.rank(p), None),)
            mark = self._mark(-1, specs)
            f.jolys -= joly
            f.value += gain * len(specs)
            closed = f.closed
            f.closed |= self._pays(False, p, specs)
            if self._new_sets(f, n):
                return True
            f.closed = closed
            f.value -= gain * len(specs)
            f.jolys += joly
            del self.placed[mark:]
            for c in colours:
                avail[c] += 1
        return self._table_sets(f, 0)

    def _table_sets(self, f: _Frame, i: int) -> bool:
        """Table set ``i`` of number ``f.p`` takes nothing, or missing colours and a Joly."""
        sets = self.sets.get(f.p, ())
        if i == len(sets):
            return self._starts(f, 0)
        target, present, size, set_jolys = sets[i]
        avail = f.avail
        missing = [c for c in range(_COLOURS) if c not in present and avail[c]]
        for mask in range(1 << len(missing)):
            picked = [missing[k] for k in range(len(missing)) if mask >> k & 1]
            for joly in range(min(f.jolys, 1) + 1):
                added = len(picked) + joly
                real = size - set_jolys + len(picked)
                if not added or size + added > MELD_RULES.max_set \
                        or real < 2 * (set_jolys + joly):
                    continue
                for c in picked:
                    avail[c] -= 1
                specs = tuple(natural_spec(shared_card(self.rank(f.p), TILE_COLOURS[c]))
                              for c in picked)
                if joly:
                    specs += (CardSpec(JOKER),)
                mark = self._mark(target, specs)
                f.jolys -= joly
                if self._table_sets(f, i + 1):
                    return True
                f.jolys += joly
                del self.placed[mark:]
                for c in picked:
                    avail[c] += 1
        return self._table_sets(f, i + 1)

    def _starts(self, f: _Frame, colour: int, floor: tuple[int, int] = (0, -1)) -> bool:
        """Each tile of colour ``colour`` (and later colours) still unplaced at ``f.p``
        starts a run or a group at a table run, or is the discard; then the Jolys. The
        second tile of a colour takes no choice before the first one's (``floor``: side,
        target; the discard last): the two in the other order are the same state."""
        avail = f.avail
        if colour < _COLOURS and not avail[colour]:
            colour += 1
            floor = (0, -1)
            while colour < _COLOURS and not avail[colour]:
                colour += 1
        if colour == _COLOURS:
            return self._joly_starts(f, (0, 0, -1))
        tile = shared_card(self.rank(f.p), TILE_COLOURS[colour])
        spec = natural_spec(tile)
        avail[colour] -= 1
        for started, part in self._openers(f, colour, spec, 0):
            choice = (started[3], started[4])
            if choice < floor:
                continue
            if self._open(f, started, part, partial(self._starts, f, colour, choice)):
                return True
        if not f.discarded and f.p <= 13 and tile != self.keep and (
                self.only is None or tile == self.only):
            mark = self._mark(_DISCARD, (spec,))
            f.discarded = True
            if self._starts(f, colour, (_DISCARD_CHOICE, 0)):
                return True
            f.discarded = False
            del self.placed[mark:]
        avail[colour] += 1
        return False

    def _open(self, f: _Frame, started: _Open, part: _Below | None,
              then: Callable[[], bool]) -> bool:
        """Open ``started`` (taking ``part``, a group below the same table run, into it)
        and go on with ``then``."""
        self.steps += 1
        gain = self.worth(f.p, False) if started[3] == _NEW and self.need is not None else 0
        if not f.push(started):
            return False
        f.value += gain
        if part is not None:
            f.below.remove(part)
        if then():
            return True
        if part is not None:
            f.below.append(part)
        f.value -= gain
        f.pop()
        return False

    def _joly_starts(self, f: _Frame, floor: tuple[int, int, int]) -> bool:
        """A Joly may start a run (any colour) or a group at a table run here, or wait;
        the second Joly takes no choice before the first one's (``floor``)."""
        if self._end_place(f):
            return True
        if not f.jolys:
            return False
        f.jolys -= 1
        for colour in range(floor[0], _COLOURS):
            spec = joker_spec(self.rank(f.p), TILE_COLOURS[colour])
            for started, part in self._openers(f, colour, spec, 1):
                choice = (colour, started[3], started[4])
                if choice < floor:
                    continue
                if self._open(f, started, part, partial(self._joly_starts, f, choice)):
                    return True
        f.jolys += 1
        return False

    def _openers(self, f: _Frame, colour: int, spec: CardSpec, joly: int
                 ) -> list[tuple[_Open, _Below | None]]:
        """What a tile (``joly``: a Joly) of ``colour`` at ``f.p`` may start: a new run, a
        group below a table run of the colour, or one above a table run ending at
        ``f.p - 1`` (taking its group below, if any)."""
        p = f.p
        out: list[tuple[_Open, _Below | None]] = []
        if p <= 12 and self._reachable(p, colour, 2, f.jolys):
            out.append(((colour, 1, joly, _NEW, -1, (spec,)), None))
        busy = {r[4] for r in f.out if r[3] != _NEW}
        for target, (run_colour, first, last, length, table_jolys) in self.runs.items():
            if run_colour != colour or target in busy:
                continue
            if p < first and p != 14 and self._reachable(p, colour, first - 1 - p, f.jolys) \
                    and all(b[0] != target for b in f.below):
                out.append(((colour, 1, joly, _LEFT, target, (spec,)), None))
            elif p == last + 1 <= 14:
                part = next((b for b in f.below if b[0] == target), None)
                if part is None:
                    out.append(((colour, length + 1, table_jolys + joly, _RIGHT, target,
                                 (spec,)), None))
                else:
                    out.append(((colour, length + len(part[1]) + 1,
                                 table_jolys + part[2] + joly, _RIGHT, target,
                                 (*part[1], spec)), part))
        return out

    def _reachable(self, p: int, colour: int, more: int, jolys: int) -> bool:
        """Whether places ``p + 1 .. p + more`` of ``colour`` can be filled (tiles or the
        Jolys: a quick bound)."""
        gaps = 0
        for q in range(p + 1, p + more + 1):
            if q > 14:
                return False
            held = self.tiles[q][colour] if q <= 13 else self.tiles[1][colour]
            gaps += not held
        return gaps <= jolys

    def _end_place(self, f: _Frame) -> bool:
        """Groups below a table run ending at ``f.p - 1`` that nothing extends above are
        whole now (checked on their own); then the next place."""
        self.steps += 1
        p = f.p
        depth = len(self.placed)
        rest: list[_Below] = []
        for target, tiles, group_jolys in f.below:
            _, first, last, length, table_jolys = self.runs[target]
            if last + 1 == p:
                if not _group_fits(length + len(tiles), table_jolys + group_jolys,
                                   first - len(tiles)):
                    return False
                self._mark(target, tiles)
            else:
                rest.append((target, tiles, group_jolys))
        if f.short() > f.jolys or (p >= self.owed_place and not (f.run | f.closed) & _PAID
                                   and not self._may_pay(f.out)):
            del self.placed[depth:]
            return False
        if self._walk(p + 1, list(f.nxt), tuple(f.out), f.jolys, f.discarded, tuple(rest),
                      f.run | f.closed, f.value, f.kept):
            return True
        del self.placed[depth:]
        return False

    # -- the answer ---------------------------------------------------------------

    def _result(self) -> SweepResult:
        def ordered(target: int, tiles: tuple[CardSpec, ...]) -> tuple[CardSpec, ...]:
            # mirrored, a run's tiles were placed from its high end: low to high again
            is_run = target in self.runs if target >= 0 else len(
                {(s.face or s.card).rank for s in tiles}) > 1
            return tiles[::-1] if self.mirror and is_run else tiles

        melds = tuple(ordered(-1, tiles) for target, tiles in self.placed if target == -1)
        layoffs = tuple(sorted((target, ordered(target, tiles))
                               for target, tiles in self.placed if target >= 0))
        discard = next(tiles[0].card for target, tiles in self.placed if target == _DISCARD)
        return SweepResult(melds, layoffs, discard)


def _set_shapes() -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every new set by colours used and Jolys: three or four tiles of distinct colours,
    at most one Joly, twice as many real tiles as Jolys."""
    out: list[tuple[tuple[int, ...], int]] = []
    for mask in range(1, 1 << _COLOURS):
        colours = tuple(c for c in range(_COLOURS) if mask >> c & 1)
        for joly in (0, 1):
            size = len(colours) + joly
            if 3 <= size <= MELD_RULES.max_set and len(colours) >= 2 * joly:
                out.append((colours, joly))
    return tuple(out)


_SET_SHAPES = _set_shapes()


def _splits_of(counts: list[int], allowed: object) -> Iterator[list[int]]:
    """Every way to keep some 1s of each colour for the place after the 13 (``allowed``:
    colour -> bool), keeping none first."""
    assert callable(allowed)
    ranges = [range(counts[c] + 1) if counts[c] and allowed(c) else range(1)
              for c in range(_COLOURS)]

    def walk(c: int, picked: list[int]) -> Iterator[list[int]]:
        if c == _COLOURS:
            yield list(picked)
            return
        for n in ranges[c]:
            yield from walk(c + 1, [*picked, n])

    yield from walk(0, [])


def sweep_plan(hand: Sequence[Card], melds: Sequence[Meld], targets: Sequence[int],
               seat: int, need: int | None = None, keep: Card | None = None,
               value: int = 0, run: bool = False, discard: Card | None = None,
               budget: Steps | None = None, owed: Obligation | None = None
               ) -> SweepResult | None:
    """A way to meld and lay off every tile of ``hand`` but one and discard that one
    (never ``keep``), laying off only on ``targets`` (indexes into the table ``melds``);
    with ``need``, the new melds (with ``value`` and ``run`` already brought by earlier
    ones) are worth ``need`` with a run; ``discard``: the only tile that may be the
    discard (one that fits nowhere); ``owed``: a meld owed, which one of the new melds
    must pay (:func:`engine.variants.romanian.obligation.pays`). ``None`` when there is
    none; raises :class:`GaveUp` once ``budget`` has no steps left (it is spent: several
    sweeps may share one; by default :data:`SWEEP_BUDGET` steps). Every meld and group
    of the answer has been read back by the meld rules (one reading each).

    Two sweeps take turns, numbers upwards and downwards (the rules read the same from
    either end: a 1 before the 2 or after the 13), each with a budget doubling every round
    and its memo kept: a rack whose high numbers decide it is settled fast downwards (on
    racks of 40-60 tiles built from melds, one direction alone needed up to 55,000 places
    where the other needed 16)."""
    steps = Steps(SWEEP_BUDGET) if budget is None else budget
    sweeps = [_Sweep(hand, melds, targets, need, keep, value, run, discard, 0, mirror, owed)
              for mirror in (False, True)]
    found: SweepResult | None = None
    chunk = _FIRST_CHUNK
    while steps.left > 0:
        for sweep in sweeps:
            before = sweep.steps
            sweep.budget = before + min(chunk, steps.left)
            try:
                found = sweep.solve()
            except GaveUp:
                steps.left -= sweep.steps - before
                if steps.left <= 0:
                    break
                continue
            steps.left -= sweep.steps - before
            if found is None or not _reads_back(found, hand, melds, seat, need, keep, value,
                                                run, owed):
                return None  # refuted (either direction settles it)
            return found
        chunk *= 2
    raise GaveUp()


def _reads_back(found: SweepResult, hand: Sequence[Card], melds: Sequence[Meld], seat: int,
                need: int | None, keep: Card | None, value: int, run: bool,
                owed: Obligation | None) -> bool:
    """The answer checked the way the moves check it: each new meld and each group has one
    reading, the tiles are the hand's, the discard is not ``keep``, an opening's value."""
    used = Counter(s.card for group in found.melds for s in group)
    used += Counter(s.card for _, group in found.layoffs for s in group)
    used[found.discard] += 1
    if used != Counter(hand) or found.discard == keep:
        return False
    new: list[Meld] = []
    for group in found.melds:
        read = readings(group, seat, MELD_RULES)
        if len(read) != 1:
            return False
        new.append(read[0])
    for target, group in found.layoffs:
        if len(extend_readings(melds[target], group, seat, MELD_RULES)) != 1:
            return False
    if owed is not None and not paid_by(owed, new):
        return False
    if need is not None:
        total = value + sum(meld_value(m) for m in new)
        if total < need or not (run or any(m.kind is MeldKind.RUN for m in new)):
            return False
    return True


__all__ = ["LONGEST_RUN", "SWEEP_BUDGET", "GaveUp", "Steps", "SweepResult", "sweep_plan"]
