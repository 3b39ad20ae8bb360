"""The opening: the first melds of a player.

romanian-rummy.de.txt: "Bei der ersten Meldung muss man Meldungen von seinem Ständer
machen, die folgende Bedingungen erfüllen: Bei den Meldungen muss mindestens eine eine
Folge sein; Der Gesamtwert der Meldungen muss mindestens 50 Punkte betragen." The
opening is one meld action (several melds may go down together); further melds may
follow in the same turn ("kann man sofort oder später ... weitere Sätze und Folgen
melden").
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import cast

from engine.candidates import unmeldable
from engine.cards import Card
from engine.melds import CardSpec, Meld, MeldKind, MeldProblem, check_meld
from engine.search import best_partition
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.plan import specs_of
from engine.variants.romanian.shapes import GUARDS, count, kind_of, new_meld_shapes, pack
from engine.variants.romanian.tiles import meld_value, most_value, rack_points

Groups = tuple[tuple[CardSpec, ...], ...]

_SEARCH_BUDGET = 3000


def opening_value(melds: Sequence[Meld]) -> int:
    """The value of the opening melds (Jolys as the tile they stand for)."""
    return sum(meld_value(m) for m in melds)


def has_run(melds: Sequence[Meld]) -> bool:
    """True when at least one of ``melds`` is a run."""
    return any(m.kind is MeldKind.RUN for m in melds)


def qualifies(melds: Sequence[Meld], threshold: int) -> bool:
    """True when ``melds`` make an opening: a run among them and ``threshold`` points."""
    return has_run(melds) and opening_value(melds) >= threshold


def _read(group: tuple[CardSpec, ...], seat: int) -> Meld | None:
    try:
        found = check_meld(group, seat, MELD_RULES)
    except MeldProblem:
        return None
    return found[0] if len(found) == 1 else None


def may_open(hand: Sequence[Card], threshold: int) -> bool:
    """A quick necessary condition for an opening of ``threshold`` points: the tiles that
    some meld of the rack might hold (:func:`engine.candidates.unmeldable` leaves the
    others out) are worth ``threshold`` at most
    (:func:`engine.variants.romanian.tiles.most_value` each). ``False``: no opening; most
    racks of players who have not opened end here, before any meld is built."""
    refused = unmeldable(hand, MELD_RULES)
    return sum(most_value(t) for t in hand if t not in refused) >= threshold


def opening_choices(hand: Sequence[Card], seat: int, threshold: int,
                    rack_one: int = 25) -> list[Groups]:
    """Openings the hand can make, best first (a canonical selection, not every one):
    every qualifying subset of the best partition's melds and every single meld that is
    an opening alone; each leaves at least one tile to discard."""
    if not may_open(hand, threshold) or not may_open_at_all(hand, seat, threshold):
        return []
    part = best_partition(hand, MELD_RULES, rack_points(rack_one))
    melds = [m for m in (_read(g, seat) for g in part.melds) if m is not None]
    found: dict[Groups, int] = {}
    for size in range(len(melds), 0, -1):
        for combo in combinations(melds, size):
            if qualifies(combo, threshold) and sum(len(m.cards) for m in combo) < len(hand):
                found.setdefault(tuple(specs_of(m) for m in combo), opening_value(combo))
    for shape in new_meld_shapes(hand):
        if shape.run and shape.value >= threshold and shape.size < len(hand):
            found.setdefault((shape.specs,), shape.value)
    return sorted(found, key=lambda g: (-found[g], -sum(len(x) for x in g)))


def opening_with(hand: Sequence[Card], seat: int, threshold: int, tile: Card) -> Groups | None:
    """An opening of ``hand`` whose melds hold ``tile`` (the previous discard, taken this
    turn) and leave a tile to discard other than ``tile`` (a twin of the taken tile may not
    be discarded either: :func:`engine.moves.verify_discard`), or ``None``. Branches whose
    tiles left cannot reach ``threshold`` however they are melded are cut (each tile at
    most :func:`engine.variants.romanian.tiles.most_value`), and so are melds that would
    leave no tile; a step budget stays as a guard. The tiles left are packed
    (:mod:`engine.variants.romanian.shapes`): trying a meld is one subtraction."""
    found = _search(hand, seat, threshold, tile)
    return None if found is _GAVE_UP else cast(Groups | None, found)


def may_open_at_all(hand: Sequence[Card], seat: int, threshold: int) -> bool:
    """``False`` when no set of new melds of ``hand`` is an opening of ``threshold`` points
    that leaves a tile (the search of :func:`opening_with` without a tile to hold, cut by
    the same value bound); ``True`` when one is found or the step budget ran out. Every
    opening :func:`opening_choices` lists is such a set, so ``False`` means it lists
    none."""
    return _search(hand, seat, threshold, None) is not None


_GAVE_UP = object()


def _search(hand: Sequence[Card], seat: int, threshold: int,
            tile: Card | None) -> Groups | object | None:
    """The opening search of :func:`opening_with` (with ``tile``: its melds hold it and a
    tile other than its twins stays); ``_GAVE_UP`` once the step budget is spent."""
    shapes = new_meld_shapes(hand)
    delta = [m.tiles for m in shapes]
    size = [m.size for m in shapes]
    value = [m.value for m in shapes]
    most = [m.most for m in shapes]
    runs = [m.run for m in shapes]
    twin = kind_of(tile) if tile is not None else -1
    guards = GUARDS
    steps = 0

    def grow(chosen: list[int], left: int, tiles: int, start: int, total: int, run: bool,
             potential: int) -> Groups | object | None:
        """``left``: the tiles not in ``chosen`` (packed), ``tiles`` of them, worth
        ``potential`` at most; ``total``: the value of ``chosen``."""
        nonlocal steps
        steps += 1
        if steps > _SEARCH_BUDGET:
            return _GAVE_UP
        twins = count(left, twin) if twin >= 0 else 0
        if run and total >= threshold and tiles > twins:
            return tuple(shapes[i].specs for i in chosen)
        if total + potential < threshold:
            return None  # pruning by value: the tiles left cannot lift the melds enough
        padded = left | guards
        # from ``start`` on, ``start`` itself included: a meld may go down twice when the
        # rack holds its tiles twice (b11 b12 b13 twice: two runs, 60 points)
        for i in range(start, len(shapes)):
            rest = padded - delta[i]
            if rest & guards == guards and tiles > size[i]:
                found = grow([*chosen, i], rest ^ guards, tiles - size[i], i,
                             total + value[i], run or runs[i], potential - most[i])
                if found is not None:
                    return found
        return None

    full = pack(hand)
    potential = sum(most_value(c) for c in hand)
    if tile is None:
        return grow([], full, len(hand), 0, 0, False, potential)
    for i, shape in enumerate(shapes):
        if not any(s.card == tile for s in shape.specs):
            continue
        rest = (full | guards) - delta[i]
        if rest & guards == guards and len(hand) > size[i]:
            found = grow([i], rest ^ guards, len(hand) - size[i], 0, value[i], runs[i],
                         potential - most[i])
            if found is not None:
                return found
    return None
