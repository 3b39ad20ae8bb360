"""The colour transitions of the going-out walk: what one colour's tiles of one number
may do at one step (continue an open run of the colour, start one, go to a set, stay as
the discard, wait for the place after the 13, grow a group laid off on a table run), and
the element (open runs, groups, flags) the colour has after it.

romanian-rummy.de.txt: "Um das Spiel zu gewinnen, muss man alle Steine, die man noch
hat, melden bis auf einen Stein – dieser letzte Stein muss abgelegt werden."
"Eine Folge (suita), die aus mindestens drei Zahlen der gleichen Farbe besteht. Eine 1
kann für eine Folge von 1 – 2 – 3 benutzt werden, oder man kann sie benutzen als die
Zahl, die der 13 folgt"; "Ein Joly kann anstelle irgendeines Steines stehen".
"""

from __future__ import annotations

from typing import NamedTuple

from engine.cards import TILE_COLOURS, Card, shared_card
from engine.variants.romanian.cover_codec import (
    _DONE,
    _END,
    _JOLY,
    _LAST,
    _NONE,
    _PAID,
    _RUN,
    _TILE,
    ColourWay,
    WayHow,
    _closable,
    _credit,
    _group,
    _group_below,
    _group_jolys,
    _group_last_joly,
    _group_tiles,
    _holds_owed,
    _jolys,
    _last_joly,
    _may_grow,
    _order,
    _phase,
    _real,
    _run,
    _run_room,
    _splits,
    _start,
    _start_of,
    _TableRun,
    _value_in_run,
)
from engine.variants.romanian.cover_question import _Question


class GroupMove(NamedTuple):
    """What the group laid off on a table run does at a step."""

    tiles: int  # tiles used
    jolys: int  # Jolys used
    group: int  # the group after (packed, cover_codec)
    code: int  # what happened: nothing, a tile, a Joly, it is done
    room: int  # room for free Jolys of a group done here


class _Partial(NamedTuple):
    """A way in the making: the open runs so far, tiles and Jolys used, flags, value,
    room, pay room and the codes of the runs so far."""

    made: tuple[int, ...]
    used: int
    jolys: int
    flags: int
    value: int
    room: int
    pay: int
    codes: tuple[int, ...]


class _Grouped(NamedTuple):
    partial: _Partial
    groups: tuple[int, ...]
    group_codes: tuple[int, ...]


class _Here(NamedTuple):
    """What holds for every way of one colour at one step."""

    gain: int  # the value a tile adds in a run here (0 once opened)
    owed: int  # the tile owed is this colour's tile here
    credit: int  # this tile was on the rack before the take (a tile owed to the row)
    tile: Card  # the colour's tile here
    new_run: int  # a new run started here with the tile (packed)
    new_joly_run: int  # a new run started here with a Joly (packed)


class _ColourSteps(_Question):
    """The question with the colour transitions (one colour, one step)."""

    # --- one colour at one step ---------------------------------------------------------

    def colour_ways(
        self,
        p: int,
        c: int,
        runs: tuple[int, ...],
        groups: tuple[int, ...],
        avail: int,
        jolys: int,
        left: int,
        paid: int,
    ) -> list[ColourWay]:
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

    def _colour_ways(
        self,
        p: int,
        c: int,
        runs: tuple[int, ...],
        groups: tuple[int, ...],
        avail: int,
        jolys: int,
        left: int,
        paid: int,
    ) -> list[ColourWay]:
        """:meth:`colour_ways` in three phases: the open runs, the table runs' groups,
        the tiles left."""
        here = self._here(p, c, paid)
        partial = self._open_runs(p, c, runs, avail, jolys, here)
        if not partial:
            return []
        out: list[ColourWay] = []
        for item in partial:
            # A run that could have grown and ended here, next to a run started here: the
            # run grown by the new one's tiles is a way out whenever the two are (it
            # started at place 5 or later: the two have twelve tiles at most).
            ended = any(
                code == _END and _may_grow(run, p) and not _start(run)
                for code, run in zip(item.codes, runs, strict=True)
            )
            for grouped in self._table_groups(p, c, item, groups, avail, jolys):
                out += self._tiles_left(p, c, grouped, ended, avail, jolys, left, here)
        return out

    def _here(self, p: int, c: int, paid: int) -> _Here:
        number = self.number[p]
        owed_here = int(not paid and self.owed_colour == c and self.owed_number == number)
        credit_here = int(self.row and not owed_here and self.before[number][c])
        start = _start_of(p)
        holds, credit = self._track(c, p, owed_here, credit_here)
        jholds, jcredit = self._track(c, p, *self._joly_owed(0, 1))
        return _Here(
            _value_in_run(self.real[p]) if self.need is not None else 0,
            owed_here,
            credit_here,
            shared_card(number, TILE_COLOURS[c]),
            _run(0, 1, start, 0, holds, credit),
            _run(1, 0, start, 1, jholds, jcredit),
        )

    def _open_runs(
        self, p: int, c: int, runs: tuple[int, ...], avail: int, jolys: int, here: _Here
    ) -> list[_Partial]:
        """Each open run of the colour takes a tile, takes a Joly or ends (runs alike in
        that order only: the same runs in another order are the same way)."""
        partial = [_Partial((), 0, 0, 0, 0, 0, 0, ())]
        for i, run in enumerate(runs):
            same = i > 0 and runs[i - 1] == run
            grown: list[_Partial] = []
            for item in partial:
                grown += self._run_moves(
                    p, c, run, item, item.codes[-1] if same else 0, avail, jolys, here
                )
            partial = grown
            if not partial:
                return []
        return partial

    def _run_moves(
        self,
        p: int,
        c: int,
        run: int,
        item: _Partial,
        floor: int,
        avail: int,
        jolys: int,
        here: _Here,
    ) -> list[_Partial]:
        """What the open ``run`` may do at ``p`` after ``item`` (``floor``: the least code,
        for runs alike)."""
        made, used, jused, fl, val, room, pay, codes = item
        out = []
        grow = _may_grow(run, p)
        if grow and floor <= _TILE and used < avail:
            holds, credit = self._track(
                c, p, _holds_owed(run) | here.owed, _credit(run) + here.credit
            )
            new = _run(_jolys(run), _real(run) + 1, _start(run), 0, holds, credit)
            out.append(
                _Partial(
                    (*made, new), used + 1, jused, fl, val + here.gain, room, pay, (*codes, _TILE)
                )
            )
        if grow and floor <= _JOLY and jused < jolys and _jolys(run) < 2:
            holds, credit = self._track(c, p, *self._joly_owed(run, _jolys(run) + 1))
            new = _run(_jolys(run) + 1, _real(run), _start(run), 1, holds, credit)
            out.append(
                _Partial(
                    (*made, new), used, jused + 1, fl, val + here.gain, room, pay, (*codes, _JOLY)
                )
            )
        if _closable(run) and not (self.lazy and _last_joly(run) and _real(run) + _jolys(run) > 3):
            ends = self._ends_run(run, p - 1)
            out.append(
                _Partial(
                    made,
                    used,
                    jused,
                    fl | ends[0],
                    val,
                    room + ends[1],
                    pay | ends[2],
                    (*codes, _END),
                )
            )
        return out

    def _table_groups(
        self,
        p: int,
        c: int,
        item: _Partial,
        groups: tuple[int, ...],
        avail: int,
        jolys: int,
    ) -> list[_Grouped]:
        """The table runs of this colour: a group below, waiting, or above each."""
        options = [_Grouped(item, (), ())]
        for gi, group in zip(self.runs_of[c], groups, strict=True):
            table = self.table_runs[gi]
            grown = []
            for before, new_groups, gcodes in options:
                for du, dj, g2, code, more_room in self._group_moves(
                    p, table, group, avail - before.used, jolys - before.jolys
                ):
                    after = before._replace(
                        used=before.used + du, jolys=before.jolys + dj, room=before.room + more_room
                    )
                    grown.append(_Grouped(after, (*new_groups, g2), (*gcodes, code)))
            options = grown
        return options

    def _tiles_left(
        self,
        p: int,
        c: int,
        grouped: _Grouped,
        ended: bool,
        avail: int,
        jolys: int,
        left: int,
        here: _Here,
    ) -> list[ColourWay]:
        """The tiles left: start runs, go to sets, stay, or (the 1s) wait for place 14;
        and Jolys that start runs here (free ones wait: only a Joly for the 12 of
        12-13-1)."""
        item, new_groups, gcodes = grouped
        made, used, jused, fl, val, room, pay, codes = item
        out = []
        most = 0 if ended or p > 12 or (self.lazy and p != 12) else jolys - jused
        jstarts = range(0, min(most, 2 if not self.lazy else 1) + 1)
        for starts, to_sets, stay, wait in _splits(avail - used):
            if (starts and (p > 12 or ended)) or (to_sets and p > 13) or (p == _LAST and stay):
                continue  # (a 1 kept for 14 could have stayed at place 1)
            if wait and (p != 1 or not self._may_wait(c, jolys)):
                continue
            left2 = self._left(left, stay, here.tile)
            if left2 < 0:
                continue
            for jstart in jstarts:
                listed = (*made, *(here.new_run,) * starts, *(here.new_joly_run,) * jstart)
                order = _order(listed)
                out.append(
                    ColourWay(
                        tuple(listed[k] for k in order),
                        new_groups,
                        jused + jstart,
                        to_sets,
                        left2,
                        wait,
                        fl,
                        val + here.gain * (starts + jstart),
                        room,
                        pay,
                        WayHow(codes, starts, jstart, gcodes, stay, order),
                    )
                )
        return out

    def _ends_run(self, run: int, last: int) -> tuple[int, int, int]:
        """What a new run ending at place ``last`` brings: flags (a run; the meld owed
        paid), room for free Jolys, room of a new meld that would pay a Joly owed."""
        paid = _PAID if self._pays_run(run) else 0
        room = _run_room(run, last) if self.lazy else 0
        pay = 0
        if room and self.owed_joly and not paid and (not self.row or _credit(run) >= 2):
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
        return bool(
            self.tiles[13][colour]
            or jolys
            or any(self.table_runs[i].last == 13 for i in self.runs_of[colour])
        )

    def _left(self, left: int, stay: int, tile: Card) -> int:
        """The tiles left after ``stay`` more of ``tile`` stay on the rack, ``-1`` when that
        is not allowed: one tile at most (the discard), not ``keep`` (nor other than
        ``only``)."""
        if not stay:
            return left
        if left + stay > 1 or tile == self.keep or (self.only is not None and tile != self.only):
            return -1
        return left + stay

    # --- table runs -------------------------------------------------------------------

    def _group_moves(
        self, p: int, table: _TableRun, group: int, tiles: int, jolys: int
    ) -> list[GroupMove]:
        """What the group laid off on ``table`` may do at place ``p`` (``tiles`` and
        ``jolys`` still free here): below the run, beside it (nothing), just after it or
        after a group below that waits, above it."""
        adds = []
        if tiles:
            adds.append((1, 0, _TILE))
        if jolys:
            adds.append((0, 1, _JOLY))
        phase = _phase(group)
        if p < table.first:
            return self._group_below_run(p, table, group, adds)
        if p <= table.last:
            return [GroupMove(0, 0, group, _NONE, 0)]
        if phase == 2 or (phase == 0 and p == table.last + 1):
            return self._group_after_run(p, table, group, adds)
        if phase == 3:
            return self._group_above_run(p, table, group, adds)
        return [GroupMove(0, 0, group, _NONE, 0)]

    def _group_below_run(
        self, p: int, table: _TableRun, group: int, adds: list[tuple[int, int, int]]
    ) -> list[GroupMove]:
        """Below the table run: a group growing towards it must reach it; else none
        starts, or one starts here (not with a free Joly at its outer end)."""
        n, j = _group_tiles(group), _group_jolys(group)
        if _phase(group) == 1:
            return [
                GroupMove(du, dj, _group(1, n + 1, j + dj, n + 1), code, 0)
                for du, dj, code in adds
                if table.fits(n + 1, j + dj, partial=True)
            ]
        out = [GroupMove(0, 0, group, _NONE, 0)]
        if self._reach(p, table):
            out += [
                GroupMove(du, dj, _group(1, 1, dj, 1), code, 0)
                for du, dj, code in adds
                if not (self.lazy and dj)
            ]
        return out

    def _group_after_run(
        self, p: int, table: _TableRun, group: int, adds: list[tuple[int, int, int]]
    ) -> list[GroupMove]:
        """The place just after the table run (or after it, a group below that waits):
        the group goes on above the run, or is done."""
        phase = _phase(group)
        n, j, below = _group_tiles(group), _group_jolys(group), _group_below(group)
        base_n, base_j = (n, j) if phase == 2 else (0, 0)
        out = [
            GroupMove(
                du, dj, _group(3, base_n + 1, base_j + dj, below if phase == 2 else 0, dj), code, 0
            )
            for du, dj, code in adds
            if p <= _LAST and table.fits(base_n + 1, base_j + dj, partial=True)
        ]
        if phase != 2:
            out.append(GroupMove(0, 0, 0, _DONE, table.room(0, 0, 0) if self.lazy else 0))
        elif table.fits(n, j):
            out.append(GroupMove(0, 0, 0, _DONE, table.room(n, j, below) if self.lazy else 0))
        return out

    def _group_above_run(
        self, p: int, table: _TableRun, group: int, adds: list[tuple[int, int, int]]
    ) -> list[GroupMove]:
        """Above the table run: the group grows, or is done (not on a free Joly)."""
        n, j, below = _group_tiles(group), _group_jolys(group), _group_below(group)
        out = [
            GroupMove(du, dj, _group(3, n + 1, j + dj, below, dj), code, 0)
            for du, dj, code in adds
            if p <= _LAST and table.fits(n + 1, j + dj, partial=True)
        ]
        if table.fits(n, j) and not (self.lazy and _group_last_joly(group)):
            out.append(GroupMove(0, 0, 0, _DONE, table.room(n, j, below) if self.lazy else 0))
        return out

    def _reach(self, p: int, table: _TableRun) -> bool:
        """A group below ``table`` starting at ``p`` might reach it (a tile or a Joly for
        every place up to the run: a quick bound)."""
        gaps = sum(1 for q in range(p + 1, table.first) if not self.tiles[q][table.colour])
        return gaps <= self.jolys
