"""What one colour alone needs to end the going-out walk: the least (Jolys, tiles left)
with which its tiles from a step on can all be placed, from its open runs and the groups
on its table runs, every other colour ignored (sets allowed where the rack might make
one). A necessary condition of the walk (:mod:`.cover_needs`): a node whose colours
together need more Jolys than the rack holds, or more than the one discard, is not
taken on.

romanian-rummy.de.txt: "Um das Spiel zu gewinnen, muss man alle Steine, die man noch
hat, melden bis auf einen Stein – dieser letzte Stein muss abgelegt werden."

The colour alone is read on a small state (:class:`Alone`): its open runs as length
classes (1, 2, 3 or more tiles; a Joly counts as a tile), the phase of each group laid
off on its table runs (none, below the run, below and waiting, above), the 1s kept for
the place after the 13. The moves are those of the walk's colour step
(:mod:`.cover_colours`) with the rules that only bind a whole cover left out (two real
tiles per Joly, twelve tiles at most, the size of a table run, the meld owed, the
opening value) and the other colours read as always willing to make a set: each of them
is a relaxation, so the needs never refuse a node that leads to a cover. The states
are plain ints and tuples, one per key, and the moves of the open runs are shared
between steps and colours (:func:`_runs_after`): this is most of the walk's work on big
racks.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from engine.cards import TILE_COLOURS, shared_card
from engine.variants.romanian.cover_codec import _LAST, _splits
from engine.variants.romanian.cover_colours import _ColourSteps

# The phases of a group laid off on a table run (as cover_codec packs them).
_BELOW, _WAITING, _ABOVE = 1, 2, 3

Needs = tuple[tuple[int, int], ...]


class Alone(NamedTuple):
    """One colour after a step, as its needs read it: the open runs (length classes,
    sorted), each table run's group phase, the 1s kept for the place after the 13."""

    runs: tuple[int, ...]
    groups: tuple[int, ...]
    kept: int


class _RunsAfter(NamedTuple):
    """The open runs after their moves at one step: length classes, tiles and Jolys
    used, whether one ended."""

    runs: tuple[int, ...]
    used: int
    jolys: int
    ended: bool


class _Start(NamedTuple):
    """What the tiles left of a colour do at a step: runs started (with a tile or a
    Joly), Jolys among them, tiles staying on the rack."""

    starts: int
    jolys: int
    stay: int


class _Leaves(NamedTuple):
    """Where a colour's tiles at a step that no run takes may go: to a set of their
    number (the rack might make one), stay (the discard: not the tile kept, and the one
    tile that may stay if known), wait for place 14 (a 1 that some run may take there)."""

    set: bool
    stay: bool
    wait: bool


class _ColourAlone(_ColourSteps):
    """The question with each colour's needs alone."""

    def alone_needs(self, p: int, c: int, state: Alone) -> Needs:
        """The least (Jolys, tiles left) with which colour ``c`` ends after step ``p``
        from ``state``: the pairs none other beats. Cached per question."""
        key = (p, c, state)
        found = self.need_memo.get(key)
        if found is None:
            if p == _LAST:
                found = ((0, 0),) if not state.kept and self._alone_ends(c, state) else ()
            else:
                found = self._alone_after(p + 1, c, state)
            self.need_memo[key] = found
        return found

    def _alone_ends(self, c: int, state: Alone) -> bool:
        """After the last step: the open runs are melds, and the groups whole."""
        if any(r < 3 for r in state.runs):
            return False
        for gi, phase in zip(self.runs_of[c], state.groups, strict=True):
            if phase == _BELOW or (phase and not self.table_runs[gi].fits(0, 0)):
                return False
        return True

    def _alone_after(self, q: int, c: int, state: Alone) -> Needs:
        """The least needs from step ``q`` on: every move of the colour there (by the
        state it leads to, with the least Jolys and tiles left it takes), then what it
        needs after. A move that needs nothing, then or after, ends the question: no pair
        beats (0, 0). The moves that take nothing come first, so most states end at
        their first few."""
        best: set[tuple[int, int]] = set()
        moves = self._alone_moves(q, c, state)
        self.ops += len(moves)
        for after, costs in sorted(moves.items(), key=_cheapest):
            for nj, ns in self.alone_needs(q, c, after):
                for j, s in costs:
                    if j + nj <= 2 and s + ns <= 1:
                        if not j + nj + s + ns:
                            return _NOTHING
                        best.add((j + nj, s + ns))
        return _least(best)

    def _alone_moves(self, q: int, c: int, state: Alone) -> dict[Alone, set[tuple[int, int]]]:
        """Every state the colour may be in after step ``q``, each with the (Jolys, tiles
        left) its moves there take."""
        avail = self.tiles[q][c] if q <= 13 else state.kept
        jolys = min(self.jolys, 2)
        kept = 0 if q == _LAST else state.kept
        out: dict[Alone, set[tuple[int, int]]] = {}
        groups_of = self._alone_groups(q, c, state.groups)
        for made, used, jused, ended in _runs_after(state.runs, avail, jolys):
            for groups, du, dj in groups_of:
                if used + du > avail or jused + dj > jolys:
                    continue
                for starts, wj, stay in self._alone_starts(
                    q, c, avail - used - du, jolys - jused - dj, ended
                ):
                    after = Alone((1,) * starts + made, groups, kept)
                    into = out.get(after)
                    if into is None:
                        into = out[after] = set()
                    into.add((jused + dj + wj, stay))
        return out

    def _alone_groups(
        self, q: int, c: int, phases: tuple[int, ...]
    ) -> list[tuple[tuple[int, ...], int, int]]:
        """The groups on the colour's table runs at ``q``: (phases after, tiles used,
        Jolys used) for each way. Cached per question: the phases recur in many states."""
        key = (q, c, phases)
        known = self.groups_memo.get(key)
        if known is None:
            known = self.groups_memo[key] = self._group_options(q, c, phases)
        return known

    def _group_options(
        self, q: int, c: int, phases: tuple[int, ...]
    ) -> list[tuple[tuple[int, ...], int, int]]:
        """:meth:`_alone_groups` computed."""
        options: list[tuple[tuple[int, ...], int, int]] = [((), 0, 0)]
        for gi, phase in zip(self.runs_of[c], phases, strict=True):
            if phase == _BELOW and self.table_runs[gi].first == q:
                phase = _WAITING
            moves = self._group_phase_moves(q, gi, phase)
            options = [
                ((*made, after), used + du, jused + dj)
                for made, used, jused in options
                for after, du, dj in moves
                if used + du <= 2 and jused + dj <= 2
            ]
        return options

    def _group_phase_moves(self, q: int, gi: int, phase: int) -> list[tuple[int, int, int]]:
        """What a group in ``phase`` may do at ``q``: (phase after, tiles, Jolys)."""
        table = self.table_runs[gi]
        adds_to = (
            [(_BELOW, 1, 0), (_BELOW, 0, 1)]
            if q < table.first
            else [(_ABOVE, 1, 0), (_ABOVE, 0, 1)]
        )
        if q < table.first:
            if phase == _BELOW:
                return adds_to
            out = [(phase, 0, 0)]
            if self._reach(q, table):
                out += adds_to if not self.lazy else adds_to[:1]
            return out
        if q <= table.last:
            return [(phase, 0, 0)]
        if phase in (_WAITING, _ABOVE) or (phase == 0 and q == table.last + 1):
            return [*adds_to, (0, 0, 0)]
        return [(phase, 0, 0)]

    def _alone_starts(self, q: int, c: int, rest: int, free: int, ended: bool) -> list[_Start]:
        """The ``rest`` tiles left of colour ``c`` at ``q`` (``free`` Jolys left, whether
        a run ended here): the runs they start (with up to ``free`` Jolys starting runs
        too), the tiles staying; the others go to sets or wait for place 14. Cached per
        question."""
        key = (q, c, rest, free, ended)
        known: list[_Start] | None = self.start_memo.get(key)
        if known is not None:
            return known
        may = self._may_leave(q, c)
        joly_starts = q <= 12 and (not self.lazy or q == 12) and not ended
        most = min(free, 2 if not self.lazy else 1) if joly_starts else 0
        out: set[_Start] = set()
        for starts, to_sets, stay, wait in _splits(rest):
            if (
                (starts and (q > 12 or ended))
                or (to_sets and not may.set)
                or (stay and (stay > 1 or not may.stay))
                or (wait and not may.wait)
            ):
                continue
            for jstart in range(most + 1):
                out.add(_Start(starts + jstart, jstart, stay))
        found = self.start_memo[key] = list(out)
        return found

    def _may_leave(self, q: int, c: int) -> _Leaves:
        """Where the tiles of colour ``c`` at ``q`` that no run takes may go."""
        tile = shared_card(self.number[q], TILE_COLOURS[c])
        return _Leaves(
            q <= 13 and self.settable[q][c],
            q != _LAST and tile != self.keep and (self.only is None or tile == self.only),
            q == 1 and self._may_wait(c, min(self.jolys, 2)),
        )


@functools.cache
def _runs_after(runs: tuple[int, ...], avail: int, jolys: int) -> tuple[_RunsAfter, ...]:
    """Each open run (length classes, sorted) takes a tile, takes a Joly or ends (three
    tiles or more), with ``avail`` tiles and ``jolys`` Jolys: the runs after (sorted),
    tiles and Jolys used, whether one ended."""
    out = {_RunsAfter((), 0, 0, False)}
    for r in runs:
        grown = min(3, r + 1)
        nxt: set[_RunsAfter] = set()
        for made, used, jused, ended in out:
            if used < avail:
                nxt.add(_RunsAfter((*made, grown), used + 1, jused, ended))
            if jused < jolys:
                nxt.add(_RunsAfter((*made, grown), used, jused + 1, ended))
            if r >= 3:
                nxt.add(_RunsAfter(made, used, jused, True))
        out = nxt
    return tuple(out)


_NOTHING: Needs = ((0, 0),)


def _cheapest(move: tuple[Alone, set[tuple[int, int]]]) -> int:
    """A move's least cost (Jolys and tiles left together)."""
    return min(j + s for j, s in move[1])


def _least(pairs: set[tuple[int, int]]) -> Needs:
    """The (Jolys, tiles) pairs of ``pairs`` that none other beats, in order."""
    return tuple(
        sorted(b for b in pairs if not any(o != b and o[0] <= b[0] and o[1] <= b[1] for o in pairs))
    )
