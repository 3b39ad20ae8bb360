"""The going-out planner's quick test (engine/variants/romanian/plan.py ``_may_go_out``):
before the search it rejects racks where two tiles (or the tile that may not be the
discard) fit no meld of the rack and no lay-off. It is a necessary condition only:
whenever the full search finds a plan, the quick test lets the rack through.

romanian-rummy.de.txt: "Um das Spiel zu gewinnen, muss man alle Steine, die man noch
hat, melden bis auf einen Stein – dieser letzte Stein muss abgelegt werden."
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import JOKER, TILE_COLOURS, Card, parse_cards
from engine.melds import CardSpec, readings
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.plan import (
    SEARCH_BUDGET,
    PlanContext,
    _cached_plan,
    _may_go_out,
    going_out_plan,
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
