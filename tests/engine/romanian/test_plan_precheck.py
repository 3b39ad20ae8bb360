"""Quick paths of the Romanian planner and opening search, held against slower ones.

The going-out planner's quick test (engine/variants/romanian/plan.py ``_loose``):
before the walk it rejects racks where two tiles (or the tile that may not be the
discard) fit no meld of the rack and no lay-off. It is a necessary condition only:
whenever the walk (engine/variants/romanian/cover.py) finds a way out, the quick test
lets the rack through. The opening with the taken discard
(engine/variants/romanian/opening.py ``opening_with``) searches packed racks; a brute
force over the rack's melds is its oracle, and so is the independent brute force of
``cover_oracle``. The opening list's quick test (``may_open``) is held against the list
built without it.

romanian-rummy.de.txt: "Um das Spiel zu gewinnen, muss man alle Steine, die man noch
hat, melden bis auf einen Stein – dieser letzte Stein muss abgelegt werden."
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations_with_replacement
from unittest.mock import patch

from hypothesis import given
from hypothesis import strategies as st

import engine.variants.romanian.opening as opening_module
from engine.candidates import candidate_melds
from engine.cards import JOKER, TILE_COLOURS, Card, parse_cards
from engine.melds import CardSpec, readings
from engine.variants.romanian.cover import cover
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.opening import (
    may_open,
    may_open_at_all,
    opening_choices,
    opening_with,
    qualifies,
)
from engine.variants.romanian.plan import (
    PlanContext,
    _loose,
    going_out_plan,
    new_melds,
)
from engine.variants.romanian.state import Obligation
from engine.variants.romanian.tiles import tile_set

from .cover_oracle import has_cover

# Two colours and numbers 9..13 and 1: racks from this pool often have a way out.
POOL = [Card(rank, colour) for colour in TILE_COLOURS[:2] for rank in (1, 9, 10, 11, 12, 13)]
POOL += [JOKER]


def racks(
    pool: Sequence[Card], min_size: int = 0, max_size: int = 14
) -> st.SearchStrategy[list[Card]]:
    """Racks of the real tile set (:func:`engine.variants.romanian.tiles.tile_set`: two of
    each tile, two Jolys) made of the tiles in ``pool``, in the order drawn."""
    kinds = set(pool)
    tiles = [tile for tile in tile_set() if tile in kinds]
    return st.lists(
        st.integers(0, len(tiles) - 1), unique=True, min_size=min_size, max_size=max_size
    ).map(lambda picked: [tiles[i] for i in picked])


def _may_go_out(hand: Sequence[Card], ctx: PlanContext) -> bool:
    """The quick test's yes or no (``_loose`` returns ``False`` only when no plan exists)."""
    return _loose(hand, ctx) is not False


def _table() -> tuple:
    groups = ("r2 r3 r4", "y5 b5 k5", "r11 r12 r13")
    return tuple(
        readings(tuple(CardSpec(c) for c in parse_cards(g)), 1, MELD_RULES)[0] for g in groups
    )


@given(
    racks(POOL, min_size=2, max_size=14),
    st.sampled_from([None, 25, 50]),
    st.booleans(),
    st.booleans(),
)
def test_the_quick_test_never_refuses_a_rack_with_a_way_out(
    rack: list[Card], threshold: int | None, table: bool, keep: bool
) -> None:
    melds = _table() if table else ()
    ctx = PlanContext(
        melds=melds,
        seat=0,
        targets=tuple(range(len(melds))),
        threshold=threshold,
        keep=rack[0] if keep else None,
    )
    walked = cover(rack, melds, ctx.targets, need=threshold, keep=ctx.keep)
    if walked is not None:
        assert _may_go_out(rack, ctx)
    assert (going_out_plan(rack, ctx) is None) == (walked is None)


def test_the_quick_test_refuses_two_loose_tiles_and_a_loose_kept_tile() -> None:
    """Two tiles that fit nothing end the question before the search; one loose tile
    is the discard, unless it is the tile taken this turn."""
    ctx = PlanContext(melds=(), seat=0, targets=())
    assert not _may_go_out(parse_cards("r1 r2 r3 y7 b9"), ctx)
    assert _may_go_out(parse_cards("r1 r2 r3 b9"), ctx)
    kept = PlanContext(melds=(), seat=0, targets=(), keep=parse_cards("b9")[0])
    assert not _may_go_out(parse_cards("r1 r2 r3 b9"), kept)
    table = _table()
    on_table = PlanContext(melds=table, seat=0, targets=(0,))
    assert _may_go_out(parse_cards("r1 r2 r3 r5 r6 b9"), on_table)  # r5 r6 extend r2-r4
    assert not _may_go_out(parse_cards("r1 r2 r3 r6 r7 b9"), on_table)  # r5 missing


# Tiles for openings: three colours, numbers 9..13 (runs and sets worth 10 a tile) and 1.
OPENING_POOL = [
    Card(rank, colour) for colour in TILE_COLOURS[:3] for rank in (1, 9, 10, 11, 12, 13)
] + [JOKER]


def _openings_by_brute_force(hand: list[Card], tile: Card, threshold: int) -> bool:
    """Whether some multiset of up to three of the rack's melds holds ``tile``, fits in the
    rack, has a run, reaches ``threshold`` and leaves a tile other than ``tile``."""
    melds = new_melds(hand, 0)
    have = Counter(hand)
    for size in (1, 2, 3):
        for combo in combinations_with_replacement(melds, size):
            used = Counter(p.card for m in combo for p in m.cards)
            left = have - used
            if (
                used <= have
                and any(p.card == tile for m in combo for p in m.cards)
                and qualifies(combo, threshold)
                and any(c != tile for c in left.elements())
            ):
                return True
    return False


@given(racks(OPENING_POOL, min_size=3, max_size=9), st.sampled_from([25, 50, 100]), st.data())
def test_an_opening_with_the_taken_tile_is_found_exactly_when_one_exists(
    hand: list[Card], threshold: int, data: st.DataObject
) -> None:
    """romanian-rummy.de.txt: the previous discard may be taken for the opening only
    when it is used in it at once. The packed search of ``opening_with`` finds an
    opening holding the tile whenever melds of the rack make one (up to three melds on
    racks this small), and what it returns is one."""
    tile = data.draw(st.sampled_from(hand))
    found = opening_with(hand, 0, threshold, tile)
    assert (found is not None) == _openings_by_brute_force(hand, tile, threshold)
    if found is not None:
        melds = [readings(g, 0, MELD_RULES)[0] for g in found]
        used = Counter(s.card for g in found for s in g)
        assert used <= Counter(hand) and qualifies(melds, threshold)
        assert any(s.card == tile for g in found for s in g)
        assert any(c != tile for c in (Counter(hand) - used).elements())


def test_a_meld_may_go_down_twice_in_an_opening() -> None:
    """ "Der Gesamtwert der Meldungen muss mindestens 50 Punkte betragen": a rack holding
    b11 b12 b13 twice opens with both (60 points, one is 30); with y9 taken, y9 y10 y11 and
    the blue run twice reach 85 (the brute force over multisets of melds agrees)."""
    twice = parse_cards("r1 b11 b11 b12 b12 b13 b13")
    assert may_open_at_all(twice, 0, 45)
    assert opening_choices(twice, 0, 45)
    assert not may_open_at_all(twice, 0, 61)
    more = parse_cards("y9 y10 y11 b11 b12 b13 b11 b12 b13 r1")
    found = opening_with(more, 0, 85, more[0])
    assert found is not None and len(found) == 3
    assert _openings_by_brute_force(more, more[0], 85)


def test_an_opening_that_leaves_only_the_taken_tiles_twin_is_none() -> None:
    """r9 r10 r11 opens with 30 points, but the tile left is the twin of the r11 taken:
    it may not be discarded, so there is no opening (and the brute force agrees)."""
    hand = parse_cards("r9 r10 r11 r11")
    assert opening_with(hand, 0, 25, hand[3]) is None
    assert not _openings_by_brute_force(hand, hand[3], 25)
    more = parse_cards("r9 r10 r11 r11 b5")
    assert opening_with(more, 0, 25, more[3]) is not None


def _new_melds_by_readings(hand: list[Card], seat: int) -> list:
    """The oracle of :func:`new_melds`: the candidate melds read back one by one, plus runs
    of real tiles with one tile's place taken by a Joly, each kept with one reading."""
    groups = candidate_melds(hand, MELD_RULES)
    if JOKER in hand:
        groups += [
            (*g[:i], CardSpec(JOKER, g[i].card), *g[i + 1 :])
            for g in groups
            if not any(s.card.is_joker for s in g) and len({s.card.suit for s in g}) == 1
            for i in range(len(g))
        ]
    out = []
    for group in groups:
        found = readings(group, seat, MELD_RULES)
        if len(found) == 1:
            out.append(found[0])
    return out


@given(racks([*POOL, *parse_cards("r5 r6 r7 r8 y2 b2 k2")], max_size=20), st.integers(0, 3))
def test_the_new_melds_are_built_as_the_readings_read_them(rack: list[Card], seat: int) -> None:
    """New melds are built from the generated groups, not read back (a rack of 60 tiles has
    thousands): the same melds in the same order as reading every group, the runs with a
    Joly in the place of a held tile included, Joly ratio and the 1 high or low kept."""
    assert new_melds(rack, seat) == _new_melds_by_readings(rack, seat)


# Tiles of three colours and all numbers with Jolys: racks that open and racks that do not.
MIXED_POOL = [Card(rank, colour) for colour in TILE_COLOURS[:3] for rank in range(1, 14)]
MIXED_POOL += [JOKER]


@given(racks(MIXED_POOL, min_size=3, max_size=16), st.sampled_from([25, 45, 50, 100]))
def test_the_quick_opening_test_never_refuses_a_rack_that_opens(
    hand: list[Card], threshold: int
) -> None:
    """romanian-rummy.de.txt: "Der Gesamtwert der Meldungen muss mindestens 50 Punkte
    betragen." ``may_open`` sums the most each tile that some meld might hold can add:
    the openings listed with it are those listed without it, and none when it says no."""
    found = opening_choices(hand, 0, threshold)
    with patch.object(opening_module, "may_open", lambda hand, threshold: True):
        assert opening_choices(hand, 0, threshold) == found
    if not may_open(hand, threshold):
        assert found == []


@given(racks(MIXED_POOL, min_size=3, max_size=16), st.sampled_from([25, 45, 50, 100]))
def test_the_opening_search_never_refuses_a_rack_that_opens(
    hand: list[Card], threshold: int
) -> None:
    """ "Bei den Meldungen muss mindestens eine eine Folge sein; Der Gesamtwert der
    Meldungen muss mindestens 50 Punkte betragen": ``may_open_at_all`` searches the new
    melds for any such set (leaving a tile); the openings listed after it are those
    listed without it, and it finds one whenever one is listed."""
    found = opening_choices(hand, 0, threshold)
    with patch.object(opening_module, "may_open_at_all", lambda hand, seat, threshold: True):
        assert opening_choices(hand, 0, threshold) == found
    if found:
        assert may_open_at_all(hand, 0, threshold)


def test_the_opening_search_refuses_sets_without_a_run() -> None:
    """ "Bei den Meldungen muss mindestens eine eine Folge sein": a set of 1s is worth
    enough (the quick value test lets it through), but without a run there is no opening;
    with r5 r6 r7 there is one."""
    sets_only = parse_cards("y1 b1 k1 r1 y9")
    assert may_open(sets_only, 50)
    assert not may_open_at_all(sets_only, 0, 50)
    assert opening_choices(sets_only, 0, 50) == []
    with_run = parse_cards("y1 b1 k1 r5 r6 r7 y9")
    assert may_open_at_all(with_run, 0, 50)
    assert opening_choices(with_run, 0, 50)


def test_the_quick_opening_test_counts_only_tiles_some_meld_might_hold() -> None:
    """r11 r12 r13 (30) and a set of 1s (75) may reach 50; r11 r12 r13 with y10, b7 and k2,
    which fit no meld of the rack, may reach 30 but not 50."""
    assert may_open(parse_cards("r11 r12 r13 y1 b1 k1 r5"), 50)
    assert not may_open(parse_cards("r11 r12 r13 y10 b7 k2"), 50)
    assert may_open(parse_cards("r11 r12 r13 y10 b7 k2"), 30)


@given(
    racks([*MIXED_POOL[:26], JOKER], min_size=3, max_size=10),
    st.sampled_from([15, 25, 35, 50]),
    st.data(),
)
def test_the_opening_search_is_exact(hand: list[Card], threshold: int, data: st.DataObject) -> None:
    """The opening search has no step budget: it finds an opening (holding the taken tile,
    leaving a tile other than its twins) exactly when the independent brute force over
    every split of the rack does ("Bei den Meldungen muss mindestens eine eine Folge sein;
    Der Gesamtwert der Meldungen muss mindestens 50 Punkte betragen")."""
    tile = data.draw(st.sampled_from(hand))
    assert (opening_with(hand, 0, threshold, tile) is not None) == has_cover(
        hand, need=threshold, keep=tile, owed=Obligation("opening", tile), one_left=False
    )
    assert may_open_at_all(hand, 0, threshold) == has_cover(hand, need=threshold, one_left=False)
