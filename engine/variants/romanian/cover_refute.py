"""A quick refutation before the going-out walk: a relaxed walk over the run places that
may only ever say "no way out" when there is none (a necessary condition for a cover);
when it finds a relaxed way, the exact walk (:mod:`.cover`) decides.

romanian-rummy.de.txt: "Um das Spiel zu gewinnen, muss man alle Steine, die man noch
hat, melden bis auf einen Stein – dieser letzte Stein muss abgelegt werden." "Ein Satz
(terta) besteht aus drei oder vier Steinen mit derselben Zahl und in verschiedenen
Farben."

**The relaxation.** The places 1..14 are walked as in :mod:`.cover`, each colour on the
small state of what one colour alone needs (:class:`.cover_alone.Alone`: its open runs
as length classes 1, 2, 3 or more, the phase of the group on each of its table runs,
its 1s waiting for place 14), its moves those of :mod:`.cover_alone` (a run takes a
tile or a Joly or ends, groups grow below or above a table run, the tiles left start
runs, stay, wait or go to sets), and the colours coupled exactly where a cover couples
them: the tiles that they send to sets of a number must make new sets (three or four
distinct colours, or two and a Joly) and lay-offs on the table sets of that number (each
once, four tiles at most, distinct colours); at most the rack's Jolys are used, at most
one tile stays. A tile owed from the row that only a set can pay (its colour holds fewer
than two other tiles of the rack before the take, no Joly) must be in a new set of its
number with two tiles of that rack. Left out: two real tiles per Joly, twelve tiles per
run, the size of a table run, the opening value, any other meld owed, where the last
tile and the Jolys not placed go.

**Why it is sound.** Take a cover and read it into the relaxation: each colour's new
runs and lay-off groups give its length classes and phases place by place; each new set
and each lay-off on a table set gives the tiles sent to sets. Jolys the relaxation does
not need are dropped (an unused Joly costs nothing here): one in a set of four, on a
table set, at the outer end of a lay-off group, at the first place of a run of four or
more; a Joly at the first place of a run of three anywhere but the 12 (12-13-1) moves to
its other end (J 5 6 reads 5 6 J). Two new runs of one colour, one ending just before
the other begins, read as one run (no longest run here). Each step of the reading is a
move of the relaxation with no more Jolys and the same tile staying, so a rack with a
cover always has a relaxed way, and "no relaxed way" means "no cover". The walk's own
necessary conditions (:mod:`.cover_alone`: what a colour alone needs) prune here too.

**The search.** Depth first, one colour after another within a step (so a node's
children are one colour's moves, never the product of four), dead nodes remembered
with the Jolys and the tile left they had (a node with no more of either leads nowhere
either). Its states are those of the colours alone, a few per colour and step, so a rack
without a way out is refuted in a few hundred nodes.
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

from engine.cards import TILE_COLOURS, shared_card
from engine.variants.romanian.cover_alone import Alone, _ColourAlone, _runs_after
from engine.variants.romanian.cover_codec import _COLOURS, _LAST
from engine.variants.romanian.cover_refute_sets import NEVER, least_set_jolys

__all__ = ["Refutation", "RelaxedMove", "RelaxedNode", "refutes"]


class RelaxedMove(NamedTuple):
    """One colour's move at one step of the relaxation: its state after, the tiles it
    sends to sets of the number, the Jolys it uses, the tiles it leaves on the rack."""

    after: Alone
    to_sets: int
    jolys: int
    stay: int


class _Use(NamedTuple):
    """What a colour's move uses at a step: tiles to sets, Jolys, tiles left."""

    to_sets: int
    jolys: int
    stay: int


_Belief = frozenset[Alone]


class RelaxedNode(NamedTuple):
    """A node of the relaxed walk: the step done, per colour the states it may be in
    (every state reached by the same uses step by step, so that any choice of one state
    per colour is reachable), the Jolys used times two plus the tiles left."""

    step: int
    beliefs: tuple[_Belief, ...]
    used: int


_NODE_OPS = 4  # a node's work besides its children, in the exact walk's ways tried


class _Relaxed:
    """The relaxed walk of one question (see the module docstring). ``question``: the
    walk's question up the run places, whose caches of what each colour alone needs are
    shared with the walk that may follow."""

    def __init__(self, question: _ColourAlone) -> None:
        self.q = question
        self.jolys = question.jolys
        self.moves_memo: dict[tuple[int, int, Alone], list[RelaxedMove]] = {}
        self.sets_memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.needs_memo: dict[tuple[int, int, _Belief], tuple[int, int]] = {}
        self.step_memo: dict[tuple[int, int, _Belief], dict[int, list[tuple[_Use, _Belief]]]] = {}
        self.dead: dict[tuple[int, tuple[_Belief, ...]], list[int]] = {}
        self.owed_number, self.owed_colour = _set_owed(question)
        self.ops = 0  # the work done, in about the exact walk's ways tried

    # --- the search -------------------------------------------------------------------

    def expand(self, node: RelaxedNode) -> list[RelaxedNode] | None:
        """The children of ``node`` that the colours alone can still end (the cheapest
        first); ``None`` when the node is known to lead nowhere (a dead node of its step
        and beliefs that used no more Jolys and tiles left)."""
        dead = self.dead.get((node.step, node.beliefs))
        if dead is not None and any(_covers(d, node.used) for d in dead):
            return None
        p = node.step + 1
        steps = [self.colour_step(p, c, node.beliefs[c]) for c in range(_COLOURS)]
        scored = [
            (self._promise(p, child, used), RelaxedNode(p, child, used))
            for child, used in self._children(p, steps, node.used)
        ]
        kids = [kid for score, kid in sorted(scored, key=_score) if score < NEVER]
        self.ops += _NODE_OPS + len(kids)
        return kids

    def leads_nowhere(self, node: RelaxedNode) -> None:
        """Remember that ``node`` leads nowhere."""
        self.dead.setdefault((node.step, node.beliefs), []).append(node.used)

    def ends(self, node: RelaxedNode) -> bool:
        """After the last step: some state of each colour ends."""
        return all(self._ends(c, belief) for c, belief in enumerate(node.beliefs))

    def _children(
        self, p: int, steps: list[dict[int, list[tuple[_Use, _Belief]]]], used: int
    ) -> list[tuple[tuple[_Belief, ...], int]]:
        """The nodes after step ``p``: per colour a use of its step, the tiles they send
        to sets made into sets (:meth:`set_jolys`), within the Jolys and the tile left;
        the cheapest first."""
        jolys, left = used >> 1, used & 1
        out = []
        for sets in itertools.product(*steps):
            extra = self.set_jolys(p, sets) if p < _LAST else 0
            if jolys + extra > self.jolys:
                continue
            combos: list[tuple[int, int, tuple[_Belief, ...]]] = [(jolys + extra, left, ())]
            for c, step in enumerate(steps):
                mine = step[sets[c]]
                combos = [
                    (j + u.jolys, s + u.stay, (*made, after))
                    for j, s, made in combos
                    for u, after in mine
                    if j + u.jolys <= self.jolys and s + u.stay <= 1
                ]
                if not combos:
                    break
            out += [(made, j << 1 | s) for j, s, made in combos]
        out.sort(key=_cost)
        return out

    def colour_step(self, p: int, c: int, belief: _Belief) -> dict[int, list[tuple[_Use, _Belief]]]:
        """The states colour ``c`` may be in after step ``p`` from those of ``belief``, by
        what its move uses (tiles to sets, Jolys, tiles left), grouped by the tiles to
        sets. Cached per question."""
        key = (p, c, belief)
        found = self.step_memo.get(key)
        if found is None:
            grouped: dict[_Use, set[Alone]] = {}
            for state in belief:
                for move in self.colour_moves(p, c, state):
                    use = _Use(move.to_sets, move.jolys, move.stay)
                    grouped.setdefault(use, set()).add(move.after)
            found = {}
            for use, after in sorted(grouped.items()):
                found.setdefault(use.to_sets, []).append((use, frozenset(after)))
            self.step_memo[key] = found
        return found

    def _ends(self, c: int, belief: _Belief) -> bool:
        """After the last step: some state of the colour ends (runs of three or more,
        groups whole, no 1 waiting)."""
        return any(not st.kept and self.q._alone_ends(c, st) for st in belief)

    def _promise(self, p: int, beliefs: tuple[_Belief, ...], used: int) -> int:
        """The least Jolys and tiles left that the node after step ``p`` uses to the end,
        with what the colours alone need (each from the best state of its belief);
        :data:`NEVER` when they do not fit the Jolys and the one tile left (a necessary
        condition: such a node leads nowhere)."""
        jolys, left = used >> 1, used & 1
        all_kept = 0  # the Jolys needed when no colour leaves a tile
        best_swap = NEVER  # the least extra when one colour leaves its tile
        for c in range(_COLOURS):
            kept, any_left = self._needs(p, c, beliefs[c])
            if any_left == NEVER:
                return NEVER
            all_kept += kept
            best_swap = min(best_swap, any_left - kept)
        best = NEVER
        if jolys + all_kept <= self.jolys:
            best = jolys + all_kept + left
        if not left and jolys + all_kept + best_swap <= self.jolys:
            best = min(best, jolys + all_kept + best_swap + 1)
        return best

    def _needs(self, p: int, c: int, belief: _Belief) -> tuple[int, int]:
        """The least Jolys colour ``c`` alone needs to end from some state of ``belief``
        after step ``p``: leaving no tile, and leaving one (:data:`NEVER` when it
        cannot). Cached per question."""
        key = (p, c, belief)
        found = self.needs_memo.get(key)
        if found is None:
            kept, any_left = NEVER, NEVER
            for state in belief:
                for j, s in self.q.alone_needs(p, c, state):
                    any_left = min(any_left, j)
                    if not s:
                        kept = min(kept, j)
            found = self.needs_memo[key] = (kept, any_left)
        return found

    # --- one colour at one step -------------------------------------------------------

    def colour_moves(self, p: int, c: int, state: Alone) -> list[RelaxedMove]:
        """Colour ``c``'s moves at step ``p`` from ``state``, the cheapest first, one per
        (state after, tiles to sets) and least (Jolys, tiles left); only those after
        which the colour alone can still end. Cached per question."""
        key = (p, c, state)
        found = self.moves_memo.get(key)
        if found is None:
            found = self.moves_memo[key] = self._colour_moves(p, c, state)
        return found

    def _colour_moves(self, p: int, c: int, state: Alone) -> list[RelaxedMove]:
        q = self.q
        avail = q.tiles[p][c] if p <= 13 else state.kept
        jolys = min(self.jolys, 2)
        costs: dict[tuple[Alone, int], set[tuple[int, int]]] = {}
        groups_of = q._alone_groups(p, c, state.groups)
        for made, used, jused, ended in _runs_after(state.runs, avail, jolys):
            for groups, du, dj in groups_of:
                if used + du > avail or jused + dj > jolys:
                    continue
                for start in self._leaves(p, c, avail - used - du, jolys - jused - dj, ended):
                    runs = tuple(sorted((1,) * start.starts + made))
                    kept = start.wait if p == 1 else (0 if p == _LAST else state.kept)
                    into = costs.setdefault((Alone(runs, groups, kept), start.to_sets), set())
                    into.add((jused + dj + start.jolys, start.stay))
        out = []
        for (after, to_sets), pairs in costs.items():
            if not any(j <= self.jolys for j, _ in q.alone_needs(p, c, after)):
                continue
            out += [RelaxedMove(after, to_sets, j, s) for j, s in _least(pairs)]
        out.sort(key=lambda m: (m.jolys + m.stay, m.to_sets))
        return out

    def _leaves(self, p: int, c: int, rest: int, free: int, ended: bool) -> list[_Leave]:
        """What the ``rest`` tiles of colour ``c`` no run or group took at ``p`` do (with
        up to ``free`` Jolys starting runs: only at the 12, for 12-13-1)."""
        q = self.q
        tile = shared_card(q.number[p], TILE_COLOURS[c])
        may_start = p <= 12 and not ended
        may_set = p <= 13 and q.settable[p][c]
        may_stay = p != _LAST and tile != q.keep and (q.only is None or tile == q.only)
        may_wait = p == 1 and q._may_wait(c, min(self.jolys, 2))
        joly_starts = min(free, 1) if p == 12 and may_start else 0
        out = []
        for starts in range(rest + 1) if may_start else (0,):
            for to_sets in range(rest - starts + 1) if may_set else (0,):
                for stay in range(min(1, rest - starts - to_sets) + 1) if may_stay else (0,):
                    wait = rest - starts - to_sets - stay
                    if wait and not may_wait:
                        continue
                    out += [
                        _Leave(starts + js, js, to_sets, stay, wait)
                        for js in range(joly_starts + 1)
                    ]
        return out

    # --- the sets of a number ---------------------------------------------------------

    def set_jolys(self, p: int, sets: tuple[int, ...]) -> int:
        """The least Jolys with which ``sets[c]`` tiles of each colour ``c`` at step ``p``
        make new sets and lay-offs on the table sets of the number, the set owed among
        them when it is of this number (:func:`.cover_refute_sets.least_set_jolys`);
        :data:`NEVER` when they cannot. Cached per question."""
        key = (p, sets)
        found = self.sets_memo.get(key)
        if found is None:
            q = self.q
            number = q.number[p]
            tables = tuple((t.present, t.size) for t in q.table_sets.get(number, []))
            owed = self.owed_colour if number == self.owed_number else -1
            credit = sum(1 << c for c in range(_COLOURS) if q.before[number][c])
            found = self.sets_memo[key] = least_set_jolys(sets, tables, owed, credit)
        return found


class _Leave(NamedTuple):
    """What a colour's tiles that no run or group took do at a step: runs started
    (Jolys among them), tiles to sets, tiles staying, 1s waiting for place 14."""

    starts: int
    jolys: int
    to_sets: int
    stay: int
    wait: int


class Refutation:
    """The relaxed walk of one question, depth first, one node at a time
    (:meth:`advance`), so that it can take turns with the exact walks
    (:func:`engine.variants.romanian.cover.cover`). ``question``: the walk's question in
    one direction (the rules read the same from either end), whose caches of what each
    colour alone needs it shares with the exact walk of that direction."""

    def __init__(self, question: _ColourAlone) -> None:
        self.relaxed = _Relaxed(question)
        start = tuple(
            frozenset({Alone((), (0,) * len(question.runs_of[c]), 0)}) for c in range(_COLOURS)
        )
        # (node, its children not yet tried)
        self.stack: list[tuple[RelaxedNode, list[RelaxedNode] | None]] = [
            (RelaxedNode(0, start, 0), None)
        ]

    @property
    def ops(self) -> int:
        """The work done so far (nodes expanded and children listed)."""
        return self.relaxed.ops

    def advance(self) -> bool | None:
        """One node expanded or left: ``True`` when the relaxation has no way (so the
        question has no cover), ``False`` when it found one (it says nothing more),
        ``None`` while it goes on."""
        relaxed = self.relaxed
        while self.stack:
            node, kids = self.stack[-1]
            if node.step == _LAST:
                if relaxed.ends(node):
                    return False
                self.stack.pop()
                continue
            if kids is None:
                kids = relaxed.expand(node)
                if kids is None:
                    self.stack.pop()
                    continue
                kids.reverse()  # popped from the end: the cheapest first
                self.stack[-1] = (node, kids)
                return None
            if kids:
                self.stack.append((kids.pop(), None))
                continue
            self.stack.pop()
            relaxed.leads_nowhere(node)
        return True


def refutes(question: _ColourAlone) -> bool:
    """Whether the relaxation proves that ``question`` has no cover: ``True`` only when
    there is none; ``False`` says nothing (the exact walk decides)."""
    search = Refutation(question)
    while True:
        done = search.advance()
        if done is not None:
            return done


def _set_owed(question: _ColourAlone) -> tuple[int, int]:
    """(number, colour) of a tile owed from the row that only a new set can pay, else
    ``(0, -1)``: a run of its colour holds it with two tiles of the rack before the take
    only when that rack holds two other numbers of the colour or a Joly."""
    q = question
    if q.owed is None or q.owed_joly or not q.row or q.before_jolys:
        return 0, -1
    colour, number = q.owed_colour, q.owed_number
    others = sum(1 for n in range(1, 14) if n != number and q.before[n][colour])
    return (number, colour) if others < 2 else (0, -1)


def _cost(kid: tuple[tuple[_Belief, ...], int]) -> int:
    return kid[1]


def _score(kid: tuple[int, RelaxedNode]) -> int:
    return kid[0]


def _covers(dead: int, used: int) -> bool:
    """A dead node that used ``dead`` (Jolys times two plus tiles left) refutes one that
    used ``used``: no fewer Jolys, no fewer tiles left."""
    return dead >> 1 <= used >> 1 and dead & 1 <= used & 1


def _least(pairs: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """The (Jolys, tiles) pairs of ``pairs`` that none other beats."""
    return sorted(
        b for b in pairs if not any(o != b and o[0] <= b[0] and o[1] <= b[1] for o in pairs)
    )
