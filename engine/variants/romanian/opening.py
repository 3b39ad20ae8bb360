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

from engine.candidates import unmeldable
from engine.cards import Card
from engine.melds import CardSpec, Meld, MeldKind, MeldProblem, check_meld
from engine.search import best_partition
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.plan import specs_of
from engine.variants.romanian.shapes import (
    FIELD,
    GUARDS,
    MOST,
    count,
    kind_of,
    lowest,
    new_meld_shapes,
    pack,
)
from engine.variants.romanian.tiles import meld_value, most_value, rack_points

Groups = tuple[tuple[CardSpec, ...], ...]


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


def opening_choices(
    hand: Sequence[Card], seat: int, threshold: int, rack_one: int = 25
) -> list[Groups]:
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
    be discarded either: :func:`engine.moves.verify_discard`), or ``None`` when there is
    none (:func:`_search`: exact, no step budget)."""
    return _search(hand, threshold, tile)


def may_open_at_all(hand: Sequence[Card], seat: int, threshold: int) -> bool:
    """Whether some set of new melds of ``hand`` is an opening of ``threshold`` points that
    leaves a tile (the search of :func:`opening_with` without a tile to hold). Every
    opening :func:`opening_choices` lists is such a set, so ``False`` means it lists
    none."""
    return _search(hand, threshold, None) is not None


def _search(hand: Sequence[Card], threshold: int, tile: Card | None) -> Groups | None:
    """The opening search: the rack's new melds (:func:`engine.variants.romanian.shapes.
    new_meld_shapes`) whose value reaches ``threshold`` with a run among them, leaving a
    tile (with ``tile``: the melds hold it, and a tile other than its twins stays).

    Exact, and bounded by the rack: the lowest tile not yet decided either stays or goes
    into one of the melds that hold it (each meld is tried only from its lowest tile, so a
    choice of melds is met once), and a rest of tiles that led nowhere with a value, a run
    and a tile kept is remembered (:data:`engine.variants.romanian.shapes.FIELD` bits per
    tile kind, the tiles packed: taking a meld is one subtraction). A rest whose tiles
    cannot lift the value to ``threshold`` however they are melded is cut (each tile at
    most :func:`engine.variants.romanian.tiles.most_value`). A seat that has not opened
    holds 16 tiles at most (it draws one and discards one each turn and may take from the
    row only for its opening), so the rests are few. The first opening met that reaches
    the value is answered, melding no more than it needs."""
    shapes = new_meld_shapes(hand)
    by_lowest: dict[int, list[int]] = {}
    for i, shape in enumerate(shapes):
        by_lowest.setdefault(lowest(shape.tiles), []).append(i)
    twin = kind_of(tile) if tile is not None else -1
    holds = [tile is not None and any(s.card == tile for s in m.specs) for m in shapes]
    guards = GUARDS
    field = FIELD
    most = MOST
    failed: set[tuple[int, int, bool, bool, bool]] = set()
    chosen: list[int] = []

    def grow(
        rest: int, total: int, run: bool, kept: bool, held: bool, potential: int, others: int
    ) -> bool:
        """``rest``: the tiles not yet decided (packed), worth ``potential`` at most, of
        which ``others`` are no twin of ``tile``; ``total``: the value of ``chosen``;
        ``kept``: a tile that is no twin of ``tile`` stays; ``held``: ``chosen`` holds
        ``tile``."""
        if run and total >= threshold and held and (kept or others):
            return True  # everything else stays
        if not rest or total + potential < threshold:
            return False
        key = (rest, min(total, threshold), run, kept, held)
        if key in failed:
            return False
        low = ((rest & -rest).bit_length() - 1) // field
        padded = rest | guards
        for i in by_lowest.get(low, ()):
            shape = shapes[i]
            left = padded - shape.tiles
            if left & guards != guards:
                continue  # a tile of the meld is not (or no longer) on the rack
            twins = count(shape.tiles, twin) if twin >= 0 else 0
            chosen.append(i)
            if grow(
                left ^ guards,
                total + shape.value,
                run or shape.run,
                kept,
                held or holds[i],
                potential - shape.most,
                others - shape.size + twins,
            ):
                return True
            chosen.pop()
        if grow(
            rest - (1 << field * low),
            total,
            run,
            kept or low != twin,
            held,
            potential - most[low],
            others - (low != twin),
        ):
            return True
        failed.add(key)
        return False

    full = pack(hand)
    potential = sum(most_value(c) for c in hand)
    others = len(hand) - (count(full, twin) if twin >= 0 else 0)
    if grow(full, 0, False, False, tile is None, potential, others):
        return tuple(shapes[i].specs for i in chosen)
    return None
