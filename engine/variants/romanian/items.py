"""Going out on small racks, decided exactly item by item: can a rack meld and lay off all
its tiles but one this turn?

romanian-rummy.de.txt: "Um das Spiel zu gewinnen, muss man alle Steine, die man noch
hat, melden bis auf einen Stein – dieser letzte Stein muss abgelegt werden."

The items are the rack's new melds (the candidates of one reading, read as packed
shapes: :mod:`engine.variants.romanian.shapes`, plus runs where a Joly stands for a tile
the rack holds) and the lay-off groups on the table melds the seat may lay off on; items
a plan can always replace by shorter ones are left out: a run that cuts into two runs
(unless it pays the meld owed), and a lay-off whose outer three or more tiles are a new
meld of their own next to a shorter lay-off. :func:`item_plan` places a meld owed first
(each new meld that pays it), then takes the lowest tile left (number by number, every
colour of a number before the next, the Jolys last) and tries it as the discard or in
each item whose first tile it is, remembering every state (the tiles left, the table
melds used, the discard, the opening value, the run, the meld owed) that leads nowhere:
exact, its work bounded by the states of the rack's tiles, never by a budget of steps.
That is few on the racks of a game; racks of dozens of tiles go to the walk over the run
places of :mod:`engine.variants.romanian.cover`, whose work grows with the tiles per number
and colour instead (:func:`engine.variants.romanian.plan.going_out_plan`).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Container, Sequence
from dataclasses import dataclass
from itertools import combinations

from engine.cards import JOKER, TILE_COLOURS, Card, shared_card
from engine.melds import (
    CardSpec,
    Meld,
    MeldKind,
    extend_readings,
    joker_spec,
    layoff_index,
    natural_spec,
    rank_at,
)
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.shapes import (
    FIELD,
    GUARDS,
    MOST,
    TILE_OF,
    count,
    kind_of,
    lowest,
    new_meld_shapes,
    pack,
)
from engine.variants.romanian.state import Obligation
from engine.variants.romanian.tiles import most_value

__all__ = ["item_plan", "layoff_groups", "reached_melds"]

#: A way out: new melds, lay-off groups (table meld index, tiles), the discard.
Found = tuple[tuple[tuple[CardSpec, ...], ...], tuple[tuple[int, tuple[CardSpec, ...]], ...], Card]


@dataclass(frozen=True, slots=True)
class _Item:
    tiles: int  # the tiles it uses, packed (engine.variants.romanian.shapes.pack)
    lowest: int  # the field of its first tile (number_first order)
    gain: int  # the most its tiles can add to an opening's value (most_value)
    target: int
    specs: tuple[CardSpec, ...]
    value: int
    run: bool
    pays: bool


def _run_extensions(meld: Meld, stock: Counter[Card], seat: int) -> list[tuple[CardSpec, ...]]:
    """Tile groups from ``stock`` that extend run ``meld`` at either end (a Joly in a
    position only where needed or where the hand holds the tile too)."""
    colour = meld.cards[0].face.suit
    assert colour is not None
    held = tuple(min(stock[shared_card(rank, colour)], 1) for rank in range(1, 14))
    return list(_run_groups(meld, held, min(stock[JOKER], 2)))


@functools.lru_cache(maxsize=1024)
def _run_groups(meld: Meld, held: tuple[int, ...], jolys: int) -> tuple[tuple[CardSpec, ...], ...]:
    """:func:`_run_extensions` for the tiles of the run's colour the hand holds (``held``
    per number 1..13) and its Jolys: it depends on nothing else, so it is cached. An
    extension stops growing at the first end that needs more Jolys than there are."""
    colour = meld.cards[0].face.suit
    start = meld.cards[0].face.rank
    end = start + len(meld.cards) - 1
    out: list[tuple[CardSpec, ...]] = []

    def reach(positions: list[int]) -> int:
        """How many of ``positions`` (in order) can be covered before the gaps need more
        Jolys than there are."""
        gaps = 0
        for n, pos in enumerate(positions):
            gaps += not held[rank_at(pos) - 1]
            if gaps > jolys:
                return n
        return len(positions)

    # The lay-off makes one run with one reading (melds.extend_readings) when it stays
    # within 1..13 (positions 1..14: 14 is the 1 after the 13) and keeps two real tiles
    # per Joly, except a run of all thirteen numbers: 1..13 also reads 2..13-1, and the
    # table run is a block of both readings unless it holds the 1.
    real = sum(1 for p in meld.cards if not p.card.is_joker)
    on_table_jolys = len(meld.cards) - real
    holds_the_one = start == 1 or end == 14
    lefts = list(range(start - 1, 0, -1))
    rights = list(range(end + 1, 15))
    for left in range(0, reach(lefts) + 1):
        for right in range(0, reach(rights) + 1):
            if left + right == 0:
                continue
            length = len(meld.cards) + left + right
            if length > 13 or (length == 13 and not holds_the_one):
                continue
            positions = list(range(start - left, start)) + list(range(end + 1, end + 1 + right))
            tiles = [shared_card(rank_at(pos), colour) for pos in positions]
            gaps = [i for i, t in enumerate(tiles) if not held[t.rank - 1]]
            if len(gaps) > jolys:
                continue
            for size in range(len(gaps), jolys + 1):
                if real + len(tiles) - size < 2 * (on_table_jolys + size):
                    break
                for chosen in combinations(range(len(tiles)), size):
                    if not set(gaps) <= set(chosen):
                        continue
                    out.append(
                        tuple(
                            joker_spec(t.rank, colour) if i in chosen else natural_spec(t)
                            for i, t in enumerate(tiles)
                        )
                    )
    return tuple(out)


def _set_extensions(meld: Meld, stock: Counter[Card], seat: int) -> list[tuple[CardSpec, ...]]:
    """Tile groups from ``stock`` that complete set ``meld`` (missing colours, a Joly)."""
    rank = meld.rank
    present = {p.card.suit for p in meld.cards if not p.card.is_joker}
    missing = [
        shared_card(rank, c)
        for c in TILE_COLOURS
        if c not in present and stock[shared_card(rank, c)]
    ]
    out: list[tuple[CardSpec, ...]] = []
    room = MELD_RULES.max_set - len(meld.cards)
    for mask in range(1, 1 << len(missing)):
        picked = [missing[i] for i in range(len(missing)) if mask >> i & 1]
        if len(picked) <= room:
            combo = tuple(CardSpec(c) for c in picked)
            if len(extend_readings(meld, combo, seat, MELD_RULES)) == 1:
                out.append(combo)
    if stock[JOKER]:
        base = [()] + [
            tuple(CardSpec(c) for c in [missing[i] for i in range(len(missing)) if mask >> i & 1])
            for mask in range(1, 1 << len(missing))
        ]
        for combo in base:
            group = (*combo, CardSpec(JOKER))
            if len(group) <= room and len(extend_readings(meld, group, seat, MELD_RULES)) == 1:
                out.append(group)
    return out


def layoff_groups(
    meld: Meld, hand: Sequence[Card] | Counter[Card], seat: int
) -> list[tuple[CardSpec, ...]]:
    """Every group of tiles of ``hand`` (tiles, or their counts) that can be laid off on
    ``meld`` in one move by ``seat``: a list of tile groups, each as the lay-off command
    names it (a Joly with its face), read one way only (:func:`engine.melds.extend_readings`);
    empty when none fits. Raises nothing. romanian-rummy.de.txt: "Man darf danach
    zusätzliche Meldungen machen oder Steine an bestehende Meldungen anlegen."
    """
    stock = hand if isinstance(hand, Counter) else Counter(hand)
    if meld.kind is MeldKind.RUN:
        return _run_extensions(meld, stock, seat)
    return _set_extensions(meld, stock, seat)


def reached_melds(stock: Counter[Card], melds: Sequence[Meld]) -> Container[int]:
    """The indexes of ``melds`` that a lay-off group from the tiles ``stock`` may go on: a
    group holds the tile at an open end of its meld or a Joly (the melds
    :class:`engine.melds.LayoffIndex` names for one of the tiles: a set's number while it
    has room, a run's colour next to either end, every meld for a Joly). A necessary
    condition for :func:`layoff_groups`; late in a deal most table melds take nothing
    from a small rack."""
    ends = layoff_index(melds, MELD_RULES)
    return {i for tile in stock for i in ends.targets(tile)}


def _items(
    hand: Sequence[Card],
    melds: Sequence[Meld],
    targets: Sequence[int],
    seat: int,
    owed: Obligation | None,
    every_item: bool = False,
) -> list[_Item]:
    """The new melds and lay-off groups a plan may use (every tile of each is in ``hand``:
    they are built from it). Items that a plan can always replace by shorter ones are
    left out (:func:`_splits`, :func:`_lays_off_in_parts`) unless ``every_item`` (the
    oracle of that pruning in the tests). The new melds are those of :func:`new_melds`,
    read as shapes (:func:`engine.variants.romanian.shapes.new_meld_shapes`)."""
    items: list[_Item] = []
    # A run that cuts into two runs is no item (_splits) unless it pays the meld owed:
    # longer runs are built only in the owed tile's colour (every colour for a Joly).
    longest = _longest_whole(min(hand.count(JOKER), 2))
    long_colour = None if owed is None else owed.tile.suit
    if every_item or (owed is not None and owed.tile.is_joker):
        longest = 13
    for shape in new_meld_shapes(hand):
        specs = shape.specs
        if shape.run and shape.size > longest and shape.first.suit is not long_colour:
            continue  # a long run that is not the owed tile's colour (see longest)
        paid = owed is not None and shape.pays(owed)
        if not paid and not every_item and shape.run and _splits(specs):
            continue
        items.append(
            _Item(
                shape.tiles,
                lowest(shape.tiles),
                shape.most,
                -1,
                specs,
                shape.value,
                shape.run,
                paid,
            )
        )
    melded = {item.specs for item in items}
    return items + _layoff_items(hand, melds, targets, seat, melded, every_item)


def _layoff_items(
    hand: Sequence[Card],
    melds: Sequence[Meld],
    targets: Sequence[int],
    seat: int,
    melded: set[tuple[CardSpec, ...]],
    every_item: bool,
) -> list[_Item]:
    """The lay-off groups a plan may use on the ``targets`` (not those it can lay off in
    parts and meld the rest as one of ``melded``, unless ``every_item``)."""
    items = []
    stock = Counter(hand)
    reached = reached_melds(stock, melds)
    for target in targets:
        if target not in reached:
            continue
        meld = melds[target]
        for group in layoff_groups(meld, stock, seat):
            if every_item or not _lays_off_in_parts(meld, group, melded):
                tiles = pack(s.card for s in group)
                items.append(
                    _Item(
                        tiles,
                        lowest(tiles),
                        sum(MOST[kind_of(s.card)] for s in group),
                        target,
                        group,
                        0,
                        False,
                        False,
                    )
                )
    return items


def _lays_off_in_parts(
    meld: Meld, group: tuple[CardSpec, ...], melded: set[tuple[CardSpec, ...]]
) -> bool:
    """True when a plan can lay off part of ``group`` on run ``meld`` and meld the rest, the
    outer three or more tiles at one end, as a new meld of its own (one of ``melded``):
    the same tiles leave the rack, the table meld still takes one lay-off, and the new
    meld only adds to the opening's value and brings a run. Racks of dozens of tiles have
    thousands of long lay-off groups."""
    if meld.kind is not MeldKind.RUN or len(group) < 1 + MELD_RULES.min_cards:
        return False
    start = meld.cards[0].face.rank
    # The group is the tiles below the run (low to high), then those above it. A 1 after a
    # run ending in 13 counts as below too: it is the group's last tile and alone above,
    # so it is never in an outer part of three or more on either side.
    below = sum(1 for spec in group if (spec.face or spec.card).rank < start)
    real = sum(1 for p in meld.cards if not p.card.is_joker)
    jolys = len(meld.cards) - real
    for far, near in _outer_parts(group, below):
        near_jolys = sum(1 for s in near if s.card.is_joker)
        if real + len(near) - near_jolys >= 2 * (jolys + near_jolys) and far in melded:
            return True
    return False


def _outer_parts(
    group: tuple[CardSpec, ...], below: int
) -> list[tuple[tuple[CardSpec, ...], tuple[CardSpec, ...]]]:
    """Ways to cut ``group`` (``below`` tiles before the run, the rest after it) into an
    outer part of three or more tiles at either end and a near part of one or more:
    (outer, near)."""
    out = []
    above = len(group) - below
    for size in range(MELD_RULES.min_cards, below + 1):
        if len(group) - size:
            out.append((group[:size], group[size:]))
    for size in range(MELD_RULES.min_cards, above + 1):
        if len(group) - size:
            out.append((group[len(group) - size :], group[: len(group) - size]))
    return out


def _splits(specs: tuple[CardSpec, ...]) -> bool:
    """True for a run (given by its tiles, a Joly with its face) of six or more tiles that
    cuts into two runs the rules accept: a plan can meld the two parts instead (the same
    tiles, the same value, still runs), so the long run need not be an item of its own
    (racks of dozens of tiles have thousands of long runs). Runs that pay the meld owed are
    kept (the part with the owed tile might not pay it)."""
    if len(specs) < 2 * MELD_RULES.min_cards:
        return False
    return _cuts(tuple(s.card.is_joker for s in specs))


def _cuts(jolys: tuple[bool, ...]) -> bool:
    """:func:`_splits` for a run whose places hold a Joly where ``jolys`` says so."""
    # A part of a run (its faces declared, three to twelve tiles) is a run with one
    # reading; the rules ask it only for twice as many real tiles as Jolys (melds.check).
    total = sum(jolys)
    size = len(jolys)
    for cut in range(MELD_RULES.min_cards, size - MELD_RULES.min_cards + 1):
        first = sum(jolys[:cut])
        if cut - first >= 2 * first and size - cut - (total - first) >= 2 * (total - first):
            return True
    return False


@functools.cache
def _longest_whole(jolys: int) -> int:
    """The longest run with at most ``jolys`` Jolys that the rules accept and that does not
    cut into two runs (:func:`_cuts`): 5 with none or one Joly, 8 with two."""
    longest = MELD_RULES.min_cards
    for size in range(MELD_RULES.min_cards, 14):
        for placed in range(min(jolys, size) + 1):
            for places in combinations(range(size), placed):
                if size - placed >= 2 * placed and not _cuts(
                    tuple(i in places for i in range(size))
                ):
                    longest = size
    return longest


def item_plan(
    hand: Sequence[Card],
    melds: Sequence[Meld],
    targets: Sequence[int],
    seat: int,
    need: int | None = None,
    keep: Card | None = None,
    owed: Obligation | None = None,
    every_item: bool = False,
) -> Found | None:
    """A way out for ``hand`` (see the module docstring), or ``None`` when there is none;
    ``melds``, ``targets``, ``need``, ``keep``, ``owed`` as for
    :func:`engine.variants.romanian.cover.cover`, ``seat`` the acting seat; ``every_item``:
    no item left out (the oracle of that pruning in the tests). The way out is (the new
    melds, each a tuple of :class:`engine.melds.CardSpec`; the lay-off groups as (table
    meld index, tiles); the discard). Exact: the answer never depends on a budget. Raises
    nothing. romanian-rummy.de.txt: "Um das Spiel zu gewinnen, muss man alle Steine, die
    man noch hat, melden bis auf einen Stein – dieser letzte Stein muss abgelegt
    werden."
    """
    full = pack(hand)
    items = _items(hand, melds, targets, seat, owed, every_item)
    covered = 0
    for item in items:
        covered |= item.tiles
    loose = sorted({kind for kind in map(kind_of, hand) if not count(covered, kind)})
    if sum(count(full, kind) for kind in loose) > 1 or (loose and TILE_OF[loose[0]] == keep):
        return None
    # The tiles left are packed (engine.variants.romanian.shapes): taking an item is one
    # subtraction, and a tile it lacks clears a guard bit. Per item, by its lowest tile
    # kind: (index, packed tiles, bit of its table meld or 0, value, run, pays, the most
    # its tiles can add to the opening's value).
    by_lowest: dict[int, list[tuple[int, int, int, int, bool, bool, int]]] = {}
    for n, item in enumerate(items):
        by_lowest.setdefault(item.lowest, []).append(
            (
                n,
                item.tiles,
                1 << item.target if item.target >= 0 else 0,
                item.value,
                item.run,
                item.pays,
                item.gain,
            )
        )
    guards = GUARDS
    field = FIELD
    # The most each tile can add to the opening's value (a 1: 25 in a set of 1s; a Joly:
    # the tile it stands for, at most 25): with the tiles left worth less than what the
    # opening still lacks, no way out remains (pruning by value).
    most = MOST
    keep_kind = kind_of(keep) if keep is not None else -1
    owing = owed is not None
    lacking = need or 0
    memo: set[tuple[object, ...]] = set()
    chosen: list[int] = []

    def search(
        rest: int, used: int, discard: int, value: int, run: bool, paid: bool, potential: int
    ) -> int | None:
        """``rest``: the tiles left (packed); ``potential``: the most they can still add."""
        if not rest:
            if discard < 0 or (owing and not paid):
                return None
            if need is not None and (value < need or not run):
                return None
            return discard
        low = ((rest & -rest).bit_length() - 1) // field  # shapes.lowest, inline
        key = (rest, used, discard >= 0, min(value, lacking), run, paid)
        if key in memo:
            return None
        if need is not None and value < need and value + potential < need:
            memo.add(key)
            return None
        drop = discard < 0 and low != keep_kind  # the lowest tile may be the discard
        padded = rest | guards
        for n, tiles, bit, worth, is_run, pays_owed, gain in by_lowest.get(low, ()):
            if used & bit:
                continue
            left = padded - tiles
            if left & guards != guards:
                continue  # a tile of the item is not (or no longer) in the rack
            chosen.append(n)
            found = search(
                left ^ guards,
                used | bit,
                discard,
                value + worth,
                run or is_run,
                paid or pays_owed,
                potential - gain,
            )
            if found is not None:
                return found
            chosen.pop()
        if drop:
            found = drop_lowest(rest, used, low, value, run, paid, potential)
            if found is not None:
                return found
        memo.add(key)
        return None

    def drop_lowest(
        rest: int, used: int, low: int, value: int, run: bool, paid: bool, potential: int
    ) -> int | None:
        """The search continued with one tile of the lowest kind ``low`` as the discard."""
        return search(rest - (1 << field * low), used, low, value, run, paid, potential - most[low])

    potential = sum(most_value(c) for c in hand)

    def start() -> int | None:
        if not owing:
            return search(full, 0, -1, 0, False, False, potential)
        # The meld owed is placed first: each paying item, then the rest of the rack.
        for n, item in enumerate(items):
            if not item.pays:
                continue
            chosen.append(n)
            found = search(
                full - item.tiles, 0, -1, item.value, item.run, True, potential - item.gain
            )
            if found is not None:
                return found
            chosen.pop()
        return None

    discard = start()
    if discard is None:
        return None
    picked = [items[n] for n in chosen]
    return (
        tuple(i.specs for i in picked if i.target < 0),
        tuple((i.target, i.specs) for i in picked if i.target >= 0),
        TILE_OF[discard],
    )
