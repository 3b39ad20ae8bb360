"""The steps of the going-out walk together: a node (the step, each colour's belief, the
Jolys and flags of the sets so far), its children after the next step (each colour's
use of its step and a way of the sets of that number), and the end (an element per
colour that ends, and the whole a cover).

romanian-rummy.de.txt: "Um das Spiel zu gewinnen, muss man alle Steine, die man noch
hat, melden bis auf einen Stein – dieser letzte Stein muss abgelegt werden."
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from engine.cards import JOKER
from engine.variants.romanian.cover_codec import (
    _COLOURS,
    _LAST,
    _PAID,
    _RUN,
    Cover,
    SetWay,
    _Belief,
    _closable,
    _Element,
    _group_below,
    _group_jolys,
    _group_last_joly,
    _group_tiles,
    _jolys,
    _last_joly,
    _Node,
    _phase,
    _real,
    _Use,
    _value_in_set,
)
from engine.variants.romanian.cover_needs import _Needs
from engine.variants.romanian.cover_rebuild import rebuild


class _Cover(_Needs):
    """One cover question (see :func:`engine.variants.romanian.cover.cover`): the whole
    walk, layer by layer (:mod:`cover_question`, :mod:`cover_colours`, :mod:`cover_sets`,
    :mod:`cover_needs`, here the steps together)."""

    # --- the steps together -------------------------------------------------------------

    def children(self, node: _Node) -> Iterator[tuple[_Node, Any]]:
        """The nodes after the next step, each with how it is reached (:meth:`_children`),
        the likeliest to lead to a cover first: those where the meld owed is paid (or
        needs nothing more), then those whose colours together need least, with the
        Jolys and the tile left used so far (the order the ways came in breaks ties, so
        the search is the same every time). A node with a cover usually finds it down
        its first children; one without tries them all in any order."""
        kids = list(self._children(node))
        if len(kids) > 1:
            kids.sort(key=self._promise)
        return iter(kids)

    def _promise(self, kid: tuple[_Node, Any]) -> tuple[bool, int]:
        """How far a child seems from a cover (lower is nearer): the meld owed still
        unpaid by every element, then the least Jolys and tiles left the colours need
        with those used so far."""
        node = kid[0]
        unpaid = not node.flags & _PAID and (
            self.owed is not None and not self._owed_reach(node.beliefs)[0]
        )
        if node.step >= _LAST:
            return unpaid, 0
        needs = self._joint_needs(node.step, node.beliefs, self._paying(node))
        return unpaid, min((j + s for j, s in needs), default=4) + node.jolys + node.left

    def _children(self, node: _Node) -> Iterator[tuple[_Node, Any]]:
        """The nodes after the next step, each with how it is reached: per colour what its
        way uses (tiles to sets, Jolys, tiles left), and the way of :meth:`set_ways` (none
        at the end); the ways that use least first."""
        p = node.step + 1
        steps = [self.colour_step(p, c, node.beliefs[c]) for c in range(_COLOURS)]
        by_sets: list[dict[int, list[_Use]]] = []
        for step_uses in steps:
            grouped: dict[int, list[_Use]] = {}
            for use in step_uses:
                grouped.setdefault(use[0], []).append(use)
            by_sets.append(grouped)
        if p == _LAST:
            return self._last_children(node, steps, by_sets)
        return self._set_children(node, steps, by_sets)

    def _last_children(
        self, node: _Node, steps: list[dict[_Use, _Belief]], by_sets: list[dict[int, list[_Use]]]
    ) -> Iterator[tuple[_Node, Any]]:
        """The children at the last step (no sets there: the 1s are all at step 1)."""
        if any(0 not in grouped for grouped in by_sets):
            return
        for used_jolys, used_left, uses in self._uses(
            by_sets, (0,) * _COLOURS, self.jolys - node.jolys, 1 - node.left
        ):
            after = tuple(steps[c][uses[c]] for c in range(_COLOURS))
            child = node._replace(
                step=_LAST, beliefs=after, jolys=node.jolys + used_jolys, left=node.left + used_left
            )
            if self._may_go_on(child):
                yield child, (uses, None)

    def _set_children(
        self, node: _Node, steps: list[dict[_Use, _Belief]], by_sets: list[dict[int, list[_Use]]]
    ) -> Iterator[tuple[_Node, Any]]:
        """The children at a step before the last: per colour the tiles it sends to sets,
        the colours' uses with those (:meth:`_bounded_uses`), and the ways of the sets."""
        p = node.step + 1
        number = self.number[p]
        jolys_left, tiles_left = self.jolys - node.jolys, 1 - node.left
        costs = [
            self._use_costs(p, c, node.beliefs[c], steps[c], by_sets[c], jolys_left, tiles_left)
            for c in range(_COLOURS)
        ]
        options = [sorted(n for n, uses in cost.items() if uses) for cost in costs]
        most = min(2, jolys_left)
        for sets in itertools.product(*options):
            if not self.set_ways(number, sets, most):
                continue  # no sets of these tiles, whatever Jolys the colours leave
            for used_jolys, used_left, uses in self._bounded_uses(
                costs, sets, jolys_left, tiles_left
            ):
                jolys = node.jolys + used_jolys
                after = tuple(steps[c][uses[c]] for c in range(_COLOURS))
                left = node.left + used_left
                for way in self.set_ways(number, sets, min(2, self.jolys - jolys)):
                    child = _Node(
                        p,
                        after,
                        jolys + way.jolys,
                        left,
                        node.flags | (_PAID if way.pays else 0),
                        node.pay | way.pay,
                        self._set_merit(node.merit, number, way),
                    )
                    if self._may_go_on(child):
                        yield child, (uses, way)

    def _use_costs(
        self,
        p: int,
        c: int,
        belief: _Belief,
        step: dict[_Use, _Belief],
        grouped: dict[int, list[_Use]],
        jolys: int,
        left: int,
    ) -> dict[int, list[tuple[_Use, tuple[tuple[int, int], ...]]]]:
        """Per tiles to sets, colour ``c``'s uses at step ``p`` from ``belief`` (its step
        ``step``, the uses grouped by tiles to sets in ``grouped``), each with what it
        costs to the end: the least (Jolys, tiles left) of the use and of what the colour
        then needs alone (:meth:`belief_needs`), within ``jolys`` and ``left``; a use
        whose colour cannot end within them is left out. Cached per question: a colour's
        belief recurs in many nodes."""
        key = (p, c, belief, jolys, left)
        known: dict[int, list[tuple[_Use, tuple[tuple[int, int], ...]]]] | None = (
            self.cost_memo.get(key)
        )
        if known is not None:
            return known
        out: dict[int, list[tuple[_Use, tuple[tuple[int, int], ...]]]] = {}
        for count, uses in grouped.items():
            kept = []
            for use in uses:
                pairs = tuple(
                    (use[1] + nj, use[2] + ns)
                    for nj, ns in self.belief_needs(p, c, step[use])
                    if use[1] + nj <= jolys and use[2] + ns <= left
                )
                if pairs:
                    kept.append((use, pairs))
            out[count] = kept
        self.cost_memo[key] = out
        return out

    def _set_merit(self, merit: int, number: int, way: SetWay) -> int:
        """The merit after the sets' ``way``: the opening value (up to the value needed),
        or the room for free Jolys (up to two)."""
        if self.need is not None:
            return min(self.need, merit + way.tiles * _value_in_set(number))
        return min(2, merit + way.room)

    @staticmethod
    def _uses(
        steps: list[dict[int, list[_Use]]], sets: tuple[int, ...], jolys: int, left: int
    ) -> list[tuple[int, int, tuple[_Use, ...]]]:
        """Per colour a use of its step (``steps[c]``: the uses by their tiles to sets) with
        ``sets[c]`` tiles to sets, together at most ``jolys`` Jolys and ``left`` tiles
        left, as (Jolys, tiles left, the uses); those that use least first. Plain triples:
        this is the walk's innermost loop, and a named record costs a call each."""
        combos: list[tuple[int, int, tuple[_Use, ...]]] = [(0, 0, ())]
        for c, step in enumerate(steps):
            mine = step[sets[c]]
            combos = [
                (j + use[1], s + use[2], (*done, use))
                for j, s, done in combos
                for use in mine
                if j + use[1] <= jolys and s + use[2] <= left
            ]
            if not combos:
                return []
        combos.sort(key=lambda combo: (combo[0] + combo[1], combo[2]))
        return combos

    @staticmethod
    def _bounded_uses(
        costs: list[dict[int, list[tuple[_Use, tuple[tuple[int, int], ...]]]]],
        sets: tuple[int, ...],
        jolys: int,
        left: int,
    ) -> list[tuple[int, int, tuple[_Use, ...]]]:
        """:meth:`_uses` with each colour's costs to the end (:meth:`_use_costs`): a
        combination is dropped as soon as the colours so far need more than ``jolys``
        Jolys or ``left`` tiles left to end, whatever the others do. Every child it drops
        the necessary condition of :meth:`_may_go_on` refuses too (the sets' Jolys only
        add, a colour paying the meld owed needs no less), so the children are the same,
        found without listing the hopeless combinations."""
        combos: list[tuple[int, int, tuple[_Use, ...], tuple[tuple[int, int], ...]]] = [
            (0, 0, (), ((0, 0),))
        ]
        for c in range(_COLOURS):
            mine = costs[c][sets[c]]
            grown = []
            for j, s, done, reach in combos:
                for use, pairs in mine:
                    if j + use[1] > jolys or s + use[2] > left:
                        continue
                    reach2 = {
                        (a + b, x + y)
                        for a, x in reach
                        for b, y in pairs
                        if a + b <= jolys and x + y <= left
                    }
                    if reach2:
                        grown.append((j + use[1], s + use[2], (*done, use), tuple(reach2)))
            combos = grown
            if not combos:
                return []
        combos.sort(key=lambda combo: (combo[0] + combo[1], combo[2]))
        return [(j, s, done) for j, s, done, _ in combos]

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
            (sflags if self.owed is not None else sflags | _PAID, spay): (smerit, ())
        }
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

    def _colour_end(self, c: int, elem: _Element, merit: int) -> tuple[tuple[int, int], int] | None:
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

    def _end(
        self, jolys: int, left: int, flags: int, pay: int, merit: int
    ) -> tuple[int, bool] | None:
        """Whether the whole is a cover: the opening value and a run, the discard (a Joly
        when no tile is left), the free Jolys in melds with room, the meld owed paid
        (``merit``: the opening value, or the room for free Jolys). ``None`` when not, else
        (the free Jolys that go into melds, whether the discard is a Joly)."""
        if self.need is not None and (merit < self.need or not flags & _RUN):
            return None
        jolys_left = self.jolys - jolys
        joly_left = not left
        if joly_left and (
            not jolys_left or self.keep == JOKER or (self.only is not None and self.only != JOKER)
        ):
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

    # --- the answer -------------------------------------------------------------------

    def rebuild(
        self, path: list[Any], chosen: tuple[_Element, ...], end: tuple[int, bool]
    ) -> Cover:
        """The cover a path of the search describes (:func:`cover_rebuild.rebuild`)."""
        return rebuild(self, path, chosen, end)
