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
(:mod:`.cover_walk`; each colour's ways for a given element are listed once per
question, :mod:`.cover_colours`, the tiles meant for sets grouped by
:mod:`.cover_sets`). A node is taken on only when the colours together still can
end (:mod:`.cover_needs`, a necessary condition: the Jolys and the one discard
suffice for what each colour needs, the opening value is within reach, the meld owed can
still be paid). The search goes depth first, one child after another, and remembers the
nodes that lead nowhere (with the merit of their sets): a node is taken on once per merit
at most, so the work is bounded by the number of nodes, which the tiles per number and
colour bound (two of a tile, two Jolys). At the end one element per colour is chosen
(:mod:`.cover_walk`) and each colour's ways are found again along the uses of the path
(:mod:`.cover_rebuild`). The rules read the same from either end (1-2-3 and 12-13-1), so
a second search goes down the places; the two take turns (:func:`cover`).

**The refutation.** Beside the two walks, a relaxed walk in each direction
(:mod:`.cover_refute`) may prove that there is no cover: the colours on the small states
of what one colour alone needs, coupled exactly through the sets of each number, the
Jolys and the one tile left. It never refuses a rack with a cover (the argument is in
its docstring); when it finds a relaxed way it stops and the walks decide. The racks
that cost most are those without a cover, which a walk refutes through hundreds of
heavy nodes and the relaxation through a few hundred light ones.

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

**Where things are.** :mod:`.cover_codec`: the records (the answer, a node, a colour's
element and way, a set way) and the packed forms of an open run and of a group laid off
on a table run; :mod:`.cover_question`: what the walk reads of the rack, the table and
the meld owed; :mod:`.cover_colours`: one colour at one step; :mod:`.cover_alone`: what
one colour alone needs to end; :mod:`.cover_sets`: the sets of one number;
:mod:`.cover_needs`: a colour's step as the walk takes it and the necessary conditions;
:mod:`.cover_walk`: the steps together and the end; :mod:`.cover_rebuild`: the cover
found again along the path; :mod:`.cover_refute` (with :mod:`.cover_refute_sets`, the
sets of a number): the refutation; here: the searches taking turns.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cards import Card
from engine.melds import Meld
from engine.variants.romanian.cover_codec import _LAST, Cover, _Node
from engine.variants.romanian.cover_codec import _PAID as _PAID
from engine.variants.romanian.cover_refute import Refutation
from engine.variants.romanian.cover_walk import _Cover as _Cover
from engine.variants.romanian.state import Obligation

__all__ = ["Cover", "cover"]


def cover(
    hand: Sequence[Card],
    melds: Sequence[Meld] = (),
    targets: Sequence[int] = (),
    *,
    need: int | None = None,
    keep: Card | None = None,
    owed: Obligation | None = None,
    only: Card | None = None,
) -> Cover | None:
    """A cover of ``hand`` (see the module docstring), or ``None`` when there is none.

    ``melds``: the table; ``targets``: the indexes of the table melds the seat may lay off
    on; ``need``: the opening value the new melds must reach, with a run (``None``: none
    needed); ``keep``: a tile that may not be left (the tile taken this turn: it may not
    be discarded); ``owed``: the meld owed this turn, which one new meld must pay;
    ``only``: the one tile that may stay, when it is known (a tile that fits nowhere).

    Two searches take turns, up the run places and down them (the rules read the same from
    either end, and a rack often settles within a few steps at one end and only late at
    the other), each exact on its own: the search that has done less work (ways tried)
    goes on, and the first to conclude answers. The two share the ways of the sets of a
    number (:meth:`cover_sets._Sets.set_ways`: keyed by the number, not the step, and read
    the same from either end). A refutation in each direction
    (:class:`.cover_refute.Refutation`) takes its turn whenever it has done no more work
    than the walks: when one proves that there is no cover the answer is ``None``; one
    that finds a relaxed way stops. Deterministic: the same question gets the same cover
    (the work is counted, never timed)."""
    up, down = (_Cover(hand, melds, targets, need, keep, owed, only, d) for d in (False, True))
    down.set_memo = up.set_memo  # the sets of a number read the same from either end
    walks = [_Search(up), _Search(down)]
    refutations = [Refutation(up), Refutation(down)]
    while True:
        walk = min(walks, key=_work)
        refutation = min(refutations, key=_refuting, default=None)
        if refutation is not None and refutation.ops * _SHARE <= walk.question.ops:
            refuted = refutation.advance()
            if refuted:
                return None
            if refuted is not None:
                refutations.remove(refutation)  # a relaxed way: it says nothing more
            continue
        done, found = walk.advance()
        if done:
            return found


_SHARE = 1
"""The refutations' work against the walks': each refutation goes on while its work
(:attr:`Refutation.ops`, in about the walk's ways tried) is at most the least walk's
divided by this."""


def _work(walk: _Search) -> int:
    return walk.question.ops


def _refuting(refutation: Refutation) -> int:
    return refutation.ops


class _Search:
    """The search depth first over the steps: a node (the step, the beliefs of the four
    colours, the Jolys of the sets so far, flags, pay room and merit of the sets), then its
    first child not known to lead nowhere, down to the last step; a node all of whose
    children lead nowhere leads nowhere too (with the merit its sets had: one with more
    may still lead somewhere)."""

    def __init__(self, question: _Cover) -> None:
        self.question = question
        root = _Node(0, question.start(), 0, 0, 0 if question.owed is not None else _PAID, 0, 0)
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
