"""Two quick paths of the Romanian planner and opening search, held against slower ones.

The going-out planner's quick test (engine/variants/romanian/plan.py ``_may_go_out``):
before the search it rejects racks where two tiles (or the tile that may not be the
discard) fit no meld of the rack and no lay-off. It is a necessary condition only:
whenever the full search finds a plan, the quick test lets the rack through. The opening
with the taken discard (engine/variants/romanian/opening.py ``opening_with``) searches
packed racks; a brute force over the rack's melds is its oracle.

romanian-rummy.de.txt: "Um das Spiel zu gewinnen, muss man alle Steine, die man noch
hat, melden bis auf einen Stein – dieser letzte Stein muss abgelegt werden."
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import JOKER, TILE_COLOURS, Card, parse_cards
from engine.melds import CardSpec, MeldKind, readings
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.opening import opening_with, qualifies
from engine.variants.romanian.plan import (
    SEARCH_BUDGET,
    PlanContext,
    _cached_plan,
    _may_go_out,
    _splits,
    going_out_plan,
    new_melds,
    specs_of,
)

# Two colours and numbers 9..13 and 1: racks from this pool often have a way out.
POOL = [Card(rank, colour) for colour in TILE_COLOURS[:2] for rank in (1, 9, 10, 11, 12, 13)]
POOL += [JOKER]


def _table() -> tuple:
    groups = ("r2 r3 r4", "y5 b5 k5", "r11 r12 r13")
    return tuple(readings(tuple(CardSpec(c) for c in parse_cards(g)), 1, MELD_RULES)[0]
                 for g in groups)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(POOL), min_size=2, max_size=14),
       st.sampled_from([None, 25, 50]), st.booleans(), st.booleans())
def test_the_quick_test_never_refuses_a_rack_with_a_way_out(
        rack: list[Card], threshold: int | None, table: bool, keep: bool) -> None:
    melds = _table() if table else ()
    ctx = PlanContext(melds=melds, seat=0, targets=tuple(range(len(melds))),
                      threshold=threshold, keep=rack[0] if keep else None)
    searched = _cached_plan(tuple(sorted(rack, key=lambda c: c.sort_key)), ctx, SEARCH_BUDGET)
    if searched is not None:
        assert _may_go_out(rack, ctx)
    assert going_out_plan(rack, ctx) == searched


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
OPENING_POOL = [Card(rank, colour) for colour in TILE_COLOURS[:3]
                for rank in (1, 9, 10, 11, 12, 13)] + [JOKER]


def _openings_by_brute_force(hand: list[Card], tile: Card, threshold: int) -> bool:
    """Whether some multiset of up to three of the rack's melds holds ``tile``, fits in the
    rack, has a run, reaches ``threshold`` and leaves a tile other than ``tile``."""
    melds = new_melds(hand, 0)
    have = Counter(hand)
    for size in (1, 2, 3):
        for combo in combinations_with_replacement(melds, size):
            used = Counter(p.card for m in combo for p in m.cards)
            left = have - used
            if (used <= have and any(p.card == tile for m in combo for p in m.cards)
                    and qualifies(combo, threshold)
                    and any(c != tile for c in left.elements())):
                return True
    return False


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(OPENING_POOL), min_size=3, max_size=9),
       st.sampled_from([25, 50, 100]), st.data())
def test_an_opening_with_the_taken_tile_is_found_exactly_when_one_exists(
        hand: list[Card], threshold: int, data: st.DataObject) -> None:
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


def test_an_opening_that_leaves_only_the_taken_tiles_twin_is_none() -> None:
    """r9 r10 r11 opens with 30 points, but the tile left is the twin of the r11 taken:
    it may not be discarded, so there is no opening (and the brute force agrees)."""
    hand = parse_cards("r9 r10 r11 r11")
    assert opening_with(hand, 0, 25, hand[3]) is None
    assert not _openings_by_brute_force(hand, hand[3], 25)
    more = parse_cards("r9 r10 r11 r11 b5")
    assert opening_with(more, 0, 25, more[3]) is not None


RUN_POOL = [Card(rank, colour) for colour in TILE_COLOURS[:2] for rank in range(1, 14)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([*RUN_POOL, JOKER]), min_size=8, max_size=24))
def test_a_long_run_splits_exactly_when_both_parts_read_as_runs(rack: list[Card]) -> None:
    """The planner leaves out a run of six or more tiles that cuts into two runs the rules
    accept (the parts cover the same tiles); counting real tiles and Jolys per part says
    the same as reading both parts ("mindestens doppelt so viele echte Steine ... wie
    Jolys")."""
    for meld in new_melds(rack, 0):
        if meld.kind is not MeldKind.RUN or len(meld.cards) < 6:
            continue
        specs = specs_of(meld)
        read = any(len(readings(specs[:cut], 0, MELD_RULES)) == 1
                   and len(readings(specs[cut:], 0, MELD_RULES)) == 1
                   for cut in range(3, len(specs) - 2))
        assert _splits(meld) == read
