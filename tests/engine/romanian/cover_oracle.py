"""An independent oracle for :func:`engine.variants.romanian.cover.cover` on small racks:
every split of the rack into new melds, lay-off groups (one per table meld) and tiles
left, each group read the way the moves read it (:func:`engine.melds.readings`,
:func:`engine.melds.extend_readings`: one reading, a Joly declared where it must be),
and :func:`check_cover`, which reads a cover back the same way."""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from engine.cards import JOKER, TILE_COLOURS, Card
from engine.melds import CardSpec, Meld, MeldKind, extend_readings, joker_spec, rank_at, readings
from engine.variants.romanian.cover import Cover
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.obligation import paid_by, pays
from engine.variants.romanian.state import Obligation
from engine.variants.romanian.tiles import meld_value, tile_set


def new_meld_readings(tiles: Sequence[Card]) -> list[Meld]:
    """The melds ``tiles`` make as one new meld with every Joly declared (each reading that
    its declared form keeps as the only one)."""
    specs = [CardSpec(t) for t in tiles]
    out = []
    for reading in readings(specs, 0, MELD_RULES):
        declared = [
            joker_spec(p.face.rank, p.face.suit if reading.kind is MeldKind.RUN else None)
            if p.card.is_joker
            else CardSpec(p.card)
            for p in reading.cards
        ]
        if len(readings(declared, 0, MELD_RULES)) == 1:
            out.append(reading)
    return out


def layoff_fits(meld: Meld, tiles: Sequence[Card]) -> bool:
    """Whether ``tiles`` can be laid off on ``meld`` in one move with one reading (a Joly
    declared as any tile of a run's colour, or plain in a set)."""
    jolys = sum(1 for t in tiles if t.is_joker)
    naturals = [CardSpec(t) for t in tiles if not t.is_joker]
    if meld.kind is MeldKind.SET or not jolys:
        group = naturals + [CardSpec(JOKER)] * jolys
        return len(extend_readings(meld, group, 0, MELD_RULES)) == 1
    colour = meld.cards[0].face.suit
    faces = [joker_spec(rank, colour) for rank in range(1, 14)]
    for chosen in combinations(faces, jolys):
        if len(extend_readings(meld, naturals + list(chosen), 0, MELD_RULES)) == 1:
            return True
    return False


def has_cover(
    hand: Sequence[Card],
    melds: Sequence[Meld] = (),
    targets: Sequence[int] = (),
    need: int | None = None,
    keep: Card | None = None,
    owed: Obligation | None = None,
    one_left: bool = True,
) -> bool:
    """Brute force: is there a split of ``hand`` as :func:`cover` describes it?"""
    tiles = tuple(sorted(hand, key=lambda t: t.sort_key))

    @functools.cache
    def walk(
        rest: tuple[Card, ...],
        used: frozenset[int],
        left: tuple[Card, ...],
        value: int,
        run: bool,
        paid: bool,
    ) -> bool:
        if not rest:
            if one_left and (len(left) != 1 or left[0] == keep):
                return False
            if not one_left and all(t == keep for t in left):
                return False
            if owed is not None and not paid:
                return False
            return need is None or (run and value >= need)
        first, others = rest[0], rest[1:]
        if walk(
            others, used, tuple(sorted((*left, first), key=lambda t: t.sort_key)), value, run, paid
        ):
            return True
        for size in range(0, len(others) + 1):
            for combo in set(combinations(others, size)):
                group = (first, *combo)
                remaining = list(others)
                for t in combo:
                    remaining.remove(t)
                after = tuple(remaining)
                if len(group) >= 3:
                    for meld in new_meld_readings(group):
                        if walk(
                            after,
                            used,
                            left,
                            value + meld_value(meld),
                            run or meld.kind is MeldKind.RUN,
                            paid or (owed is not None and pays(owed, meld)),
                        ):
                            return True
                for t in targets:
                    if (
                        t not in used
                        and layoff_fits(melds[t], group)
                        and walk(after, used | {t}, left, value, run, paid)
                    ):
                        return True
        return False

    return walk(tiles, frozenset(), (), 0, False, False)


def check_cover(
    found: Cover,
    hand: Sequence[Card],
    melds: Sequence[Meld] = (),
    targets: Sequence[int] = (),
    need: int | None = None,
    keep: Card | None = None,
    owed: Obligation | None = None,
    one_left: bool = True,
) -> None:
    """Assert that ``found`` is a cover of ``hand`` the moves accept: its tiles are the
    rack's, every new meld and every lay-off group reads one way, one group per table meld
    (a target), the tiles left, the opening value and run, the meld owed."""
    used = Counter(s.card for g in found.melds for s in g)
    used += Counter(s.card for _, g in found.layoffs for s in g)
    used += Counter(found.left)
    assert used == Counter(hand), (found, hand)
    new = []
    for group in found.melds:
        read = readings(group, 0, MELD_RULES)
        assert len(read) == 1, group
        new.append(read[0])
    seen = set()
    for target, group in found.layoffs:
        assert target in targets and target not in seen, (target, targets)
        seen.add(target)
        assert len(extend_readings(melds[target], group, 0, MELD_RULES)) == 1, (target, group)
    if one_left:
        assert len(found.left) == 1 and found.left[0] != keep, found.left
    else:
        assert any(t != keep for t in found.left), found.left
    if owed is not None:
        assert paid_by(owed, new), (owed, found.melds)
    if need is not None:
        assert sum(meld_value(m) for m in new) >= need
        assert any(m.kind is MeldKind.RUN for m in new)


POOL = [Card(rank, colour) for colour in TILE_COLOURS for rank in (1, 2, 3, 4, 5, 11, 12, 13)]


def built_rack(rng: random.Random, size: int, jolys: int) -> list[Card]:
    """A rack of ``size`` tiles with a way out: random melds (runs of 3-6 tiles of one
    colour, the 1 low or after the 13, sets of 3-4 colours; up to ``jolys`` Jolys standing
    for a tile, two real tiles per Joly) drawn from the 106 tiles until ``size - 1`` tiles,
    then one tile more (the discard)."""
    pool = Counter(tile_set())
    melds: list[list[Card]] = []
    left = jolys
    while sum(map(len, melds)) < size - 1:
        room = size - 1 - sum(map(len, melds))
        if room < 3:  # no meld fits: give the last one back
            last = melds.pop()
            pool += Counter(t for t in last if not t.is_joker)
            left += last.count(JOKER)
            continue
        if rng.random() < 0.6:
            colour = rng.choice(TILE_COLOURS)
            length = rng.randint(3, min(6, room))
            start = rng.randint(1, 15 - length)
            tiles = [Card(rank_at(p), colour) for p in range(start, start + length)]
        else:
            number = rng.randint(1, 13)
            tiles = [Card(number, c) for c in rng.sample(TILE_COLOURS, rng.choice((3, 4)))]
            tiles = tiles[:room]
            if len(tiles) < 3:
                continue
        if left and rng.random() < 0.3:
            tiles[rng.randrange(len(tiles))] = JOKER
            left -= 1
        need = Counter(t for t in tiles if not t.is_joker)
        if any(pool[t] < n for t, n in need.items()):
            left += tiles.count(JOKER)
            continue
        pool -= need
        melds.append(tiles)
    rack = [t for meld in melds for t in meld]
    extra = rng.choice(sorted(pool.elements(), key=lambda t: t.sort_key))
    rack.append(extra)
    rng.shuffle(rack)
    return rack
