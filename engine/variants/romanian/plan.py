"""Going-out plans: can a seat meld and lay off all its tiles but one this turn?

romanian-rummy.de.txt: "Um das Spiel zu gewinnen, muss man alle Steine, die man noch
hat, melden bis auf einen Stein – dieser letzte Stein muss abgelegt werden. Nur bei
diesem letzten Spielzug darf man den offen liegenden Anfangsstein vom Ende der Mauer
aufnehmen". Taking the face-up tile is allowed only when a plan exists, and every
later move of that turn must keep one (so the turn can always end by going out).

A plan is a set of new melds (one action) plus, for some table melds, the tiles laid
off on each (one action per meld), covering every tile but one, which is discarded.
New melds are the hand's candidates of one reading
(:func:`engine.candidates.one_reading_groups`, read as packed shapes: :mod:`.shapes`),
plus runs where a Joly stands for a tile the hand holds); lay-offs on a new meld are
already among them (a longer run, a set of four). Items a plan can always replace by
shorter ones are left out: a run that cuts into two runs (unless it pays the meld owed),
and a lay-off whose outer three or more tiles are a new meld of their own next to a
shorter lay-off (a property test keeps every item as the oracle). A seat that has not
opened needs new melds worth the opening value with at least one run, and lays off
only on its own melds in the turn of its opening. While a meld is owed (a tile taken
from the row, a freed Joly, the previous discard taken for the opening), the new melds
must pay it (:func:`engine.variants.romanian.obligation.pays`, the check the moves make):
they are played first, before every lay-off and the discard.

Two searches answer. The item search (here) places a meld owed first (each new meld
that pays it), then takes the first tile not yet placed, in the order of
:func:`number_first` (the lowest number, every colour of it, then the next), and tries it
as the discard or in each item (new meld or lay-off group) whose first tile it is,
remembering dead ends; it runs in two passes over one memo (the discard tried first, for
half the step budget, then last). The sweep (:mod:`engine.variants.romanian.sweep`) walks
the numbers instead, keeping only the open runs between them, upwards and downwards in
turns. Racks of :data:`SWEEP_FIRST` tiles or more are swept only; smaller ones are
searched item by item and swept when that search gives up. Of 900 racks of 40-60 tiles
built from melds and one tile more (0-2 Jolys, each with a way out), the item search
alone finds 842 (p50 5.3 ms, max 35 ms), the planner now 895 (p50 0.8 ms, p99 12.6 ms,
max 29 ms; the sweep without its budget finds all 900). In games of the AI players
(racks of up to 15 tiles, 2,176 searches) no item search reached its budget.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Container, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from engine.candidates import unmeldable
from engine.cards import JOKER, SORT_KEY, TILE_COLOURS, Card, shared_card
from engine.frozen import picklable
from engine.melds import (
    CardSpec,
    Meld,
    MeldKind,
    declared_run,
    declared_set,
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
from engine.variants.romanian.sweep import GaveUp, sweep_plan
from engine.variants.romanian.tiles import most_value


@dataclass(frozen=True, slots=True)
class PlanContext:
    """What limits a plan: the table ``melds``, the acting ``seat``, the table melds it
    may lay off on (``targets``), the opening value still needed (``threshold``, ``None``
    once opened), a tile that may not be the last discard (``keep``: the tile taken this
    turn) and the meld owed before anything else (``obligation``: one of the plan's new
    melds must pay it)."""

    melds: tuple[Meld, ...]
    seat: int
    targets: tuple[int, ...]
    threshold: int | None = None
    keep: Card | None = None
    obligation: Obligation | None = None


@dataclass(frozen=True, slots=True)
class Plan:
    """How to go out: ``melds`` (new melds, one action), ``layoffs`` (table meld index and
    the tiles laid off on it) and the ``discard`` that ends the game."""

    melds: tuple[tuple[CardSpec, ...], ...]
    layoffs: tuple[tuple[int, tuple[CardSpec, ...]], ...]
    discard: Card


picklable(PlanContext)
picklable(Plan)


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


def new_melds(hand: Sequence[Card], seat: int) -> list[Meld]:
    """Every meld the hand can make (one reading each, faces declared), owned by ``seat``:
    the melds of its shapes (:func:`engine.variants.romanian.shapes.new_meld_shapes`:
    the candidates of one reading, and runs where one Joly stands for a tile the hand
    holds), each built from its tiles without a reading (a property test holds them equal
    to the readings of the candidates)."""
    return [declared_run(s.specs, seat) if s.run else declared_set(s.specs, seat)
            for s in new_meld_shapes(hand)]


def specs_of(meld: Meld) -> tuple[CardSpec, ...]:
    """The tiles of ``meld`` as a meld command names them (a Joly with its face)."""
    return tuple(joker_spec(p.face.rank, p.face.suit) if p.card.is_joker
                 else natural_spec(p.card) for p in meld.cards)


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
                    out.append(tuple(joker_spec(t.rank, colour) if i in chosen
                                     else natural_spec(t) for i, t in enumerate(tiles)))
    return tuple(out)


def _set_extensions(meld: Meld, stock: Counter[Card], seat: int) -> list[tuple[CardSpec, ...]]:
    """Tile groups from ``stock`` that complete set ``meld`` (missing colours, a Joly)."""
    rank = meld.rank
    present = {p.card.suit for p in meld.cards if not p.card.is_joker}
    missing = [shared_card(rank, c) for c in TILE_COLOURS
               if c not in present and stock[shared_card(rank, c)]]
    out: list[tuple[CardSpec, ...]] = []
    room = MELD_RULES.max_set - len(meld.cards)
    for mask in range(1, 1 << len(missing)):
        picked = [missing[i] for i in range(len(missing)) if mask >> i & 1]
        if len(picked) <= room:
            combo = tuple(CardSpec(c) for c in picked)
            if len(extend_readings(meld, combo, seat, MELD_RULES)) == 1:
                out.append(combo)
    if stock[JOKER]:
        base = [()] + [tuple(CardSpec(c) for c in [missing[i] for i in range(len(missing))
                                                   if mask >> i & 1])
                       for mask in range(1, 1 << len(missing))]
        for combo in base:
            group = (*combo, CardSpec(JOKER))
            if len(group) <= room and len(extend_readings(meld, group, seat, MELD_RULES)) == 1:
                out.append(group)
    return out


def layoff_groups(meld: Meld, hand: Sequence[Card] | Counter[Card],
                  seat: int) -> list[tuple[CardSpec, ...]]:
    """Every group of tiles of ``hand`` (tiles, or their counts) that can be laid off on
    ``meld`` in one move."""
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


def _items(hand: Sequence[Card], ctx: PlanContext, every_item: bool = False) -> list[_Item]:
    """The new melds and lay-off groups a plan may use (every tile of each is in ``hand``:
    they are built from it). Items that a plan can always replace by shorter ones are
    left out (:func:`_splits`, :func:`_lays_off_in_parts`) unless ``every_item`` (the
    oracle of that pruning in the tests). The new melds are those of :func:`new_melds`,
    read as shapes (:func:`engine.variants.romanian.shapes.new_meld_shapes`)."""
    items: list[_Item] = []
    owed = ctx.obligation
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
        items.append(_Item(shape.tiles, lowest(shape.tiles), shape.most, -1, specs,
                           shape.value, shape.run, paid))
    melded = {item.specs for item in items}
    stock = Counter(hand)
    reached = reached_melds(stock, ctx.melds)
    for target in ctx.targets:
        if target not in reached:
            continue
        meld = ctx.melds[target]
        for group in layoff_groups(meld, stock, ctx.seat):
            if every_item or not _lays_off_in_parts(meld, group, melded):
                tiles = pack(s.card for s in group)
                items.append(_Item(tiles, lowest(tiles), sum(MOST[kind_of(s.card)]
                                                             for s in group),
                                   target, group, 0, False, False))
    return items


def _lays_off_in_parts(meld: Meld, group: tuple[CardSpec, ...],
                       melded: set[tuple[CardSpec, ...]]) -> bool:
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
        if (real + len(near) - near_jolys >= 2 * (jolys + near_jolys)
                and far in melded):
            return True
    return False


def _outer_parts(group: tuple[CardSpec, ...], below: int
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
            out.append((group[len(group) - size:], group[:len(group) - size]))
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
                        tuple(i in places for i in range(size))):
                    longest = size
    return longest


def number_first(tile: Card) -> tuple[bool, int, tuple[int, int]]:
    """The order in which the search places tiles: by number, every colour of a number
    before the next number (a set closes at its number, a run grows to higher ones), the
    Jolys last. Placing colour after colour instead commits a set's tiles of three other
    colours while the first colour is placed: on 329 racks of 25 or more tiles from random
    games, the search in card order ran out of its :data:`SEARCH_BUDGET` on 86 racks and
    found 3 ways out within it; number by number (and the meld owed first) it runs out on
    51 and finds 12."""
    return (tile.is_joker, tile.rank, tile.sort_key)


class _GiveUp(Exception):
    """The search ran out of steps."""


SEARCH_BUDGET = 3000
"""Search steps before :func:`going_out_plan` gives up. Racks of a normal game take a
few hundred at most; a rack of dozens of tiles (taken from deep in the discard row) with
no way out could take minutes and gigabytes to refute."""


def going_out_plan(hand: Sequence[Card], ctx: PlanContext,
                   budget: int = SEARCH_BUDGET) -> Plan | None:
    """A way to go out this turn with ``hand`` under ``ctx``, or ``None`` when there is none
    or the search gives up after ``budget`` steps (deterministic: the same question always
    gets the same answer, so the face-up tile's check and the hints agree).

    The plan melds and lays off every tile but one and discards that one (never
    ``ctx.keep``); an opening, when needed, is worth ``ctx.threshold`` with a run; an
    owed meld (``ctx.obligation``) is among its new melds. The answer depends on the
    tiles of ``hand``, not their order, and is cached per (tiles, ``ctx``, ``budget``):
    the legal moves of one turn ask the same question many times.
    """
    loose = _loose(hand, ctx) if hand else False
    if loose is False:
        return None
    return _cached_plan(tuple(sorted(hand, key=SORT_KEY)), ctx, budget, only=loose)


def _loose(hand: Sequence[Card], ctx: PlanContext) -> Card | Literal[False] | None:
    """A quick necessary condition for a plan, with its reason: at most one tile (not
    ``ctx.keep``) is in no meld the rack might make (:func:`engine.candidates.unmeldable`)
    and fits no table meld it may lay off on (:func:`may_lay_off`). ``False`` when no plan
    can exist (the search would find every copy of such a tile loose too; most racks of a
    game end here, before the candidate melds are built), the one tile that fits nowhere
    (it can only be the discard) or ``None`` when every tile might fit."""
    refused = unmeldable(hand, MELD_RULES)
    if not refused:
        return None
    jolys = sum(1 for t in hand if t.is_joker)
    loose = 0
    last: Card | None = None
    for tile, copies in refused.items():
        if any(may_lay_off(tile, ctx.melds[i], hand, jolys) for i in ctx.targets):
            continue
        loose += copies
        last = tile
        if loose > 1:
            return False
    if last is not None and last == ctx.keep:
        return False
    return last


def may_lay_off(tile: Card, meld: Meld, hand: Sequence[Card], jolys: int) -> bool:
    """Whether natural ``tile`` might join ``meld`` in a lay-off group from ``hand``: a set
    of its number with room, or a run of its colour that the rack's tiles of that colour
    (gaps filled by its Jolys) reach from either end (the 1 also after the 13). A
    necessary condition: ``False`` means no lay-off group from ``hand`` holds ``tile``."""
    first = meld.cards[0].face
    if meld.kind is MeldKind.SET:
        return tile.rank == first.rank and len(meld.cards) < MELD_RULES.max_set
    if tile.suit is not first.suit:
        return False
    low = first.rank
    high = low + len(meld.cards) - 1  # positions: 14 is the 1 after the 13
    held = {t.rank for t in hand if t.suit is tile.suit}
    for pos in (tile.rank, 14) if tile.rank == 1 else (tile.rank,):
        if pos < low:
            between = range(pos + 1, low)
        elif pos > high:
            between = range(high + 1, pos)
        else:
            continue
        if sum(1 for p in between if rank_at(p) not in held) <= jolys:
            return True
    return False


SWEEP_FIRST = 30
"""Racks of this many tiles or more are swept number by number
(:mod:`engine.variants.romanian.sweep`) and nothing else: of 1,792 racks of 40-60 tiles
built from melds (and the same with one tile more), the sweep settled all but 18 within
its budget, and the item search would have found a way out on 1 of those 18 for up to
40 ms more. Smaller racks are searched item by item first (the plans of the AI players'
racks, never above 15 tiles in their games, stay as they were), and swept when that
search gives up."""


# The same question recurs within a turn only (5 % hits with 1,024 entries).
@functools.lru_cache(maxsize=64)
def _cached_plan(hand: tuple[Card, ...], ctx: PlanContext, budget: int,
                 every_item: bool = False, only: Card | None = None) -> Plan | None:
    """:func:`going_out_plan` for sorted tiles; ``only``: the one tile that fits nowhere
    (:func:`_loose`; it can only be the discard), a hint for the sweep."""
    if len(hand) >= SWEEP_FIRST and not every_item:
        try:
            return _swept(hand, ctx, only)
        except GaveUp:
            return None
    full = pack(hand)
    items = _items(hand, ctx, every_item)
    covered = 0
    for item in items:
        covered |= item.tiles
    loose = sorted({kind for kind in map(kind_of, hand) if not count(covered, kind)})
    if sum(count(full, kind) for kind in loose) > 1 or (
            loose and TILE_OF[loose[0]] == ctx.keep):
        return None
    need = ctx.threshold
    # The tiles left are packed (engine.variants.romanian.shapes): taking an item is one
    # subtraction, and a tile it lacks clears a guard bit. Per item, by its lowest tile
    # kind: (index, packed tiles, bit of its table meld or 0, value, run, pays, the most
    # its tiles can add to the opening's value).
    by_lowest: dict[int, list[tuple[int, int, int, int, bool, bool, int]]] = {}
    for n, item in enumerate(items):
        by_lowest.setdefault(item.lowest, []).append(
            (n, item.tiles, 1 << item.target if item.target >= 0 else 0, item.value,
             item.run, item.pays, item.gain))
    guards = GUARDS
    field = FIELD
    # The most each tile can add to the opening's value (a 1: 25 in a set of 1s; a Joly:
    # the tile it stands for, at most 25): with the tiles left worth less than what the
    # opening still lacks, no way out remains (pruning by value).
    most = MOST
    keep = kind_of(ctx.keep) if ctx.keep is not None else -1
    owed = ctx.obligation is not None
    lacking = need or 0
    memo: set[tuple[object, ...]] = set()
    chosen: list[int] = []
    steps = 0
    # Two passes share the budget and the memo (a state is memoised only once refuted):
    # the first tries to discard the lowest tile before covering it, which finds a way out
    # at once when that tile is the loose one; the second covers it first, which does not
    # spend its steps refuting the rest of the rack without a discard.
    discard_first = True
    limit = budget // 2

    def search(rest: int, used: int, discard: int, value: int, run: bool, paid: bool,
               potential: int) -> int | None:
        """``rest``: the tiles left (packed); ``potential``: the most they can still add."""
        nonlocal steps
        steps += 1
        if steps > limit:
            raise _GiveUp()
        if not rest:
            if discard < 0 or (owed and not paid):
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
        drop = discard < 0 and low != keep  # the lowest tile may be the discard
        if drop and discard_first:
            found = drop_lowest(rest, used, low, value, run, paid, potential)
            if found is not None:
                return found
        padded = rest | guards
        for n, tiles, bit, worth, is_run, pays_owed, gain in by_lowest.get(low, ()):
            if used & bit:
                continue
            left = padded - tiles
            if left & guards != guards:
                continue  # a tile of the item is not (or no longer) in the rack
            chosen.append(n)
            found = search(left ^ guards, used | bit, discard, value + worth, run or is_run,
                           paid or pays_owed, potential - gain)
            if found is not None:
                return found
            chosen.pop()
        if drop and not discard_first:
            found = drop_lowest(rest, used, low, value, run, paid, potential)
            if found is not None:
                return found
        memo.add(key)
        return None

    def drop_lowest(rest: int, used: int, low: int, value: int, run: bool, paid: bool,
                    potential: int) -> int | None:
        """The search continued with one tile of the lowest kind ``low`` as the discard."""
        return search(rest - (1 << field * low), used, low, value, run, paid,
                      potential - most[low])

    potential = sum(most_value(c) for c in hand)

    def start() -> int | None:
        if not owed:
            return search(full, 0, -1, 0, False, False, potential)
        # The meld owed is placed first: each paying item, then the rest of the rack.
        for n, item in enumerate(items):
            if not item.pays:
                continue
            chosen.append(n)
            found = search(full - item.tiles, 0, -1, item.value, item.run, True,
                           potential - item.gain)
            if found is not None:
                return found
            chosen.pop()
        return None

    try:
        discard = start()
    except _GiveUp:
        chosen.clear()
        discard_first, limit = False, budget
        try:
            discard = start()
        except _GiveUp:
            if every_item:
                return None
            try:
                return _swept(hand, ctx, only)
            except GaveUp:
                return None
    if discard is None:
        return None
    picked = [items[n] for n in chosen]
    return Plan(tuple(i.specs for i in picked if i.target < 0),
                tuple((i.target, i.specs) for i in picked if i.target >= 0), TILE_OF[discard])


def _swept(hand: tuple[Card, ...], ctx: PlanContext, only: Card | None = None
           ) -> Plan | None:
    """The plan of the number-by-number sweep (:mod:`engine.variants.romanian.sweep`),
    within :data:`engine.variants.romanian.sweep.SWEEP_BUDGET` steps; ``only``: the one
    tile that may be the discard, when :func:`_loose` found one. Raises :class:`GaveUp`
    when the steps are spent."""
    found = sweep_plan(hand, ctx.melds, ctx.targets, ctx.seat, ctx.threshold, ctx.keep,
                       discard=only, owed=ctx.obligation)
    return None if found is None else Plan(found.melds, found.layoffs, found.discard)
