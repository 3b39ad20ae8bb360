"""Each colour's step as the going-out walk takes it, and the walk's necessary
conditions: the elements a colour may have after a step (by what its way uses), kept
only when the colour alone can still end (its least needs of Jolys and of the tile that
may stay); and whether the colours together, the opening value and the meld owed can
still end a node. A node that fails them is not taken on; they never refuse a node that
leads to a cover.

romanian-rummy.de.txt: "Um das Spiel zu gewinnen, muss man alle Steine, die man noch
hat, melden bis auf einen Stein – dieser letzte Stein muss abgelegt werden."
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from engine.variants.romanian.cover_alone import Alone
from engine.variants.romanian.cover_codec import (
    _COLOURS,
    _LAST,
    _PAID,
    _Belief,
    _credit,
    _Element,
    _holds_owed,
    _jolys,
    _Node,
    _phase,
    _real,
    _Use,
)
from engine.variants.romanian.cover_sets import _Sets


class _Needs(_Sets):
    """The question with each colour's step as the walk takes it and the necessary
    conditions."""

    # --- one colour at one step ---------------------------------------------------------

    def start(self) -> tuple[_Belief, ...]:
        """The beliefs before the first step: per colour one element, nothing placed."""
        return tuple(
            frozenset({(_Element((), (0,) * len(self.runs_of[c]), 0, 0, 0), 0)})
            for c in range(_COLOURS)
        )

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

    def _steps(
        self, p: int, c: int, belief: Iterable[tuple[_Element, int]], alive: bool = True
    ) -> Iterator[tuple[_Element, _Element, int, tuple[Any, ...]]]:
        """Every (element before, element after, merit, way) from the elements of
        ``belief`` at step ``p`` (``alive``: only elements the colour alone can still end
        from)."""
        entering = tuple(
            k for k, gi in enumerate(self.runs_of[c]) if self.table_runs[gi].first == p
        )
        need = self.need
        jolys = min(2, self.jolys)
        for source, merit in belief:
            runs, groups, kept, flags, pay = source
            if entering:
                # a group below a table run that starts here is whole: it waits for the end
                groups = tuple(
                    g + 1 if k in entering and _phase(g) == 1 else g for k, g in enumerate(groups)
                )
            avail = self.tiles[p][c] if p <= 13 else kept
            ways = self.colour_ways(p, c, runs, groups, avail, jolys, 0, flags & _PAID)
            self.ops += len(ways)
            for way in ways:
                runs2, groups2, _, _, _, wait, fl, gain, more_room, more_pay, _ = way
                kept2 = wait if wait or p == _LAST else kept
                elem = _Element(runs2, groups2, kept2, flags | fl, pay | more_pay)
                if alive and not self._alive(p, c, elem):
                    continue
                merit2 = min(need, merit + gain) if need is not None else min(2, merit + more_room)
                yield source, elem, merit2, way

    def belief_needs(
        self, p: int, c: int, belief: _Belief, paying: bool = False
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
            if (
                paying
                and not flags & _PAID
                and not any(_holds_owed(r) and _credit(r) + ahead >= 2 for r in runs)
            ):
                continue
            best.update(self.colour_needs(p, c, runs, groups, kept))
        result = _least(best)
        self.belief_memo[key] = result
        return result

    def _alive(self, p: int, c: int, elem: _Element) -> bool:
        """Whether the colour alone can still place its tiles after step ``p`` from
        ``elem`` with the Jolys and the one tile that may stay (:meth:`colour_needs`)."""
        runs, groups, kept = elem[:3]
        return any(jolys <= self.jolys for jolys, _ in self.colour_needs(p, c, runs, groups, kept))

    # --- sets -------------------------------------------------------------------------

    def colour_needs(
        self, p: int, c: int, runs: tuple[int, ...], groups: tuple[int, ...], kept: int
    ) -> tuple[tuple[int, int], ...]:
        """The least (Jolys, tiles staying) with which the tiles of colour ``c`` after step
        ``p`` can all be placed, from its open ``runs``, table-run ``groups`` and 1s
        waiting, the colour alone (:mod:`.cover_alone`, sets allowed where the rack might
        make one): the pairs none other beats. Cached per question."""
        raw = (p, c, runs, groups, kept)
        found = self.raw_need_memo.get(raw)
        if found is None:
            found = self.raw_need_memo[raw] = self._colour_needs(p, c, runs, groups, kept)
        return found

    def _colour_needs(
        self, p: int, c: int, runs: tuple[int, ...], groups: tuple[int, ...], kept: int
    ) -> tuple[tuple[int, int], ...]:
        """:meth:`colour_needs` on its canonical key (:mod:`.cover_alone`): what the
        colour alone needs does not depend on the owed bits, nor on where a run started
        (it counts only for the room of free Jolys), nor on more than three tiles of a
        run, nor on a group's tiles before the end."""
        state = Alone(
            tuple(sorted(_length(r) for r in runs)), tuple(_phase(g) for g in groups), kept
        )
        return self.alone_needs(p, c, state)

    def _may_go_on(self, node: _Node) -> bool:
        """Necessary conditions on the colours together after a step: the Jolys and the
        one tile that may stay suffice for what each colour needs to end (past the tile
        owed, unpaid, the colour of the tile from elements that may still pay with it),
        the opening value can still be reached, the meld owed can still be paid."""
        if node.step < _LAST and not (self._needs_met(node) and self._value_in_reach(node)):
            return False
        if node.flags & _PAID or self.owed is None:
            return True
        paid, pay, runs = self._owed_reach(node.beliefs)
        return paid or self._may_pay(node.step, runs, self.jolys - node.jolys, pay | node.pay)

    def _owed_reach(self, beliefs: tuple[_Belief, ...]) -> tuple[bool, int, list[tuple[int, int]]]:
        """What the colours' elements hold towards the meld owed: whether one paid it,
        their pay room, and their open runs (colour, run). Cached per question."""
        known: tuple[bool, int, list[tuple[int, int]]] | None = self.owed_memo.get(beliefs)
        if known is not None:
            return known
        pay = 0
        runs: list[tuple[int, int]] = []
        paid = False
        for c, belief in enumerate(beliefs):
            for e, _ in belief:
                paid = paid or bool(e.flags & _PAID)
                pay |= e.pay
                runs += ((c, r) for r in e.runs)
        found = self.owed_memo[beliefs] = (paid, pay, runs)
        return found

    def _needs_met(self, node: _Node) -> bool:
        """The Jolys and the one tile that may stay suffice for what each colour needs."""
        jolys, left = self.jolys - node.jolys, 1 - node.left
        return any(
            j <= jolys and s <= left
            for j, s in self._joint_needs(node.step, node.beliefs, self._paying(node))
        )

    def _paying(self, node: _Node) -> int:
        """The colour whose elements must hold the tile owed (past its place, unpaid), or
        -1."""
        if (
            not node.flags & _PAID
            and self.owed_colour >= 0
            and self.owed_number != 1
            and node.step >= self.owed_step
        ):
            return self.owed_colour
        return -1

    def _joint_needs(
        self, p: int, beliefs: tuple[_Belief, ...], paying: int
    ) -> tuple[tuple[int, int], ...]:
        """The least (Jolys, tiles left) with which every colour ends after step ``p``,
        each from its belief (``paying``: the colour that must still pay the meld owed
        with its tile, or -1). Cached per question."""
        key = (p, beliefs, paying)
        found = self.joint_memo.get(key)
        if found is not None:
            return found
        combos = {(0, 0)}
        for c, belief in enumerate(beliefs):
            needs = self.belief_needs(p, c, belief, c == paying)
            combos = {
                (j + j2, s + s2)
                for j, s in combos
                for j2, s2 in needs
                if j + j2 <= self.jolys and s + s2 <= 1
            }
            if not combos:
                break
        found = self.joint_memo[key] = _least(combos)
        return found

    def _value_in_reach(self, node: _Node) -> bool:
        """The opening value can still be reached (always, once opened)."""
        if self.need is None:
            return True
        best = node.merit + sum(max(m + 10 * e.kept for e, m in belief) for belief in node.beliefs)
        return best + self.potential[node.step + 1] + 25 * (self.jolys - node.jolys) >= self.need

    def _may_pay(self, p: int, runs: list[tuple[int, int]], jolys: int, pay: int) -> bool:
        """Whether the meld owed may still be paid after step ``p`` (a necessary condition;
        ``runs``: (colour, open run), ``jolys``: the most Jolys left, ``pay``: a new meld
        would pay a Joly owed with a free Joly): past the tile owed, an open run holds it;
        a Joly owed: a Joly is left, or an open run holds one. A meld owed to the row also
        needs two tiles of the rack before the take: held by the run, or still to come at
        the steps after ``p`` (its colour's for a run, two of a number for a set)."""
        row = self.row and not self.before_jolys  # a Joly before the take counts too
        if self.owed_joly:
            return self._may_pay_joly(p, runs, jolys, pay, row)
        if p < self.owed_step or (self.owed_number == 1 and p < _LAST):
            return True
        mine = [r for c, r in runs if c == self.owed_colour]
        if not row:
            return any(_holds_owed(r) for r in mine)
        ahead = self.before_after[p][self.owed_colour]
        return any(_holds_owed(r) and _credit(r) + ahead >= 2 for r in mine)

    def _may_pay_joly(
        self, p: int, runs: list[tuple[int, int]], jolys: int, pay: int, row: bool
    ) -> bool:
        """:meth:`_may_pay` for a Joly owed."""
        if not row:
            return bool(jolys) or any(_holds_owed(r) for _, r in runs)
        if pay and jolys:
            return True
        after = self.before_after[p]
        if any((jolys or _holds_owed(r)) and _credit(r) + after[c] >= 2 for c, r in runs):
            return True
        return bool(jolys) and self.pair_after[p]


def _length(run: int) -> int:
    """An open run as the colour alone reads it: its tiles (a Joly counts), up to three."""
    return min(3, _real(run) + _jolys(run))


def _least(pairs: set[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The (Jolys, tiles) pairs of ``pairs`` that none other beats, in order."""
    return tuple(
        sorted(b for b in pairs if not any(o != b and o[0] <= b[0] and o[1] <= b[1] for o in pairs))
    )
