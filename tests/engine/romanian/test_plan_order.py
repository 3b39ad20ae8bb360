"""The going-out planner's search order: a meld owed first, then number by number.

romanian-rummy.de.txt: "Um das Spiel zu gewinnen, muss man alle Steine, die man noch
hat, melden bis auf einen Stein – dieser letzte Stein muss abgelegt werden", and for a
tile taken from the discard row: "Wenn man zwei Steine auf seinem Ständer hat, mit denen
man einen Satz oder eine Folge mit irgendeinem Stein der abgelegten Steine
vervollständigen kann, darf man diesen Stein aufnehmen und die Meldung machen".

The order only decides how soon the search finds a way out or runs out of steps; whether
one exists must not depend on it. A naive cover of the rack by the planner's items (every
item kept) is the oracle on small racks.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import JOKER, TILE_COLOURS, Card, parse_card, parse_cards
from engine.melds import CardSpec, Meld, readings
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.obligation import paid_by
from engine.variants.romanian.plan import (
    SEARCH_BUDGET,
    Plan,
    PlanContext,
    _items,
    going_out_plan,
    number_first,
)
from engine.variants.romanian.shapes import kind_of
from engine.variants.romanian.state import Obligation


def _meld(text: str, owner: int = 1) -> Meld:
    return readings(tuple(CardSpec.parse(t) for t in text.split()), owner, MELD_RULES)[0]


def _covers(plan: Plan, hand: list[Card]) -> bool:
    """Every tile of ``hand`` is in the plan's melds, its lay-offs or its discard."""
    used = Counter(s.card for group in plan.melds for s in group)
    used += Counter(s.card for _, group in plan.layoffs for s in group)
    used[plan.discard] += 1
    return used == Counter(hand)


def test_a_rack_of_61_tiles_with_a_row_tile_owed_finds_its_way_out() -> None:
    """A random game (seed 2391, action 127 of ``rummy-bot bench --only legal``) left a
    rack of 61 tiles with y2 taken from the row: y2 b2 k2 pays it and the rest goes out.
    Placed colour after colour and the meld owed last, the search ran out of its step
    budget (865,263 steps found the way out); owed meld first and number by number it
    takes about 1,100."""
    hand = parse_cards(
        "r1 r2 r3 r4 r5 r7 r8 r9 r10 r11 r11 r12 r12 r13 y1 y2 y3 y3 y4 y4 y5 y6 y7 y7 y8 "
        "y9 y10 y12 y13 b1 b2 b3 b3 b4 b5 b6 b6 b7 b10 b10 b11 b11 b12 b12 b13 k1 k2 k2 k4 "
        "k4 k5 k6 k6 k7 k8 k8 k9 k10 k13 jk jk")
    before = tuple(parse_cards("k4 k2 k10 b12 r13 b2 b4 y1 k5 k1 k7 y9 b11"))
    owed = Obligation("row", parse_card("y2"), before)
    melds = (_meld("y11 y12 y13 y1"), _meld("b7 b8 b9"), _meld("k10 k11 k12"))
    ctx = PlanContext(melds=melds, seat=0, targets=(0, 1, 2), obligation=owed)
    plan = going_out_plan(hand, ctx, SEARCH_BUDGET)
    assert plan is not None
    assert _covers(plan, hand)
    new = [readings(group, 0, MELD_RULES) for group in plan.melds]
    assert all(len(found) == 1 for found in new)
    assert paid_by(owed, [found[0] for found in new])
    assert len({target for target, _ in plan.layoffs}) == len(plan.layoffs)


def test_a_rack_of_49_tiles_finds_its_way_out_in_the_second_pass() -> None:
    """49 tiles built from melds and one tile more, so a way out exists (the table is
    empty, the player has opened). Discarding the lowest tile first, the search spent its
    whole budget refuting racks without a discard and gave up; it now has two passes over
    one memo, discard first for half the budget and then cover first, and finds it."""
    hand = parse_cards(
        "r9 k4 y6 k2 k7 b13 b10 k1 r11 y2 b6 k8 k5 y3 r11 r1 y8 r8 r7 k8 y4 k1 b12 y5 y2 "
        "b5 k5 r5 y5 b11 r10 b1 r1 b13 r6 y7 r2 k10 y6 y11 y1 b1 k6 r8 b11 k9 b2 k11 k3")
    ctx = PlanContext(melds=(), seat=0, targets=())
    plan = going_out_plan(hand, ctx, SEARCH_BUDGET)
    assert plan is not None
    assert _covers(plan, hand) and not plan.layoffs
    assert all(len(readings(group, 0, MELD_RULES)) == 1 for group in plan.melds)


def test_tiles_are_placed_number_by_number_and_the_jolys_last() -> None:
    """The planner's tile order (number_first) is the order of the packed fields: the
    search always places the tiles of the lowest field left."""
    rack = parse_cards("k2 r1 jk y2 r2 b1")
    assert [str(k) for k in sorted(rack, key=number_first)] == ["r1", "b1", "r2", "y2", "k2",
                                                               "jk"]
    assert sorted(rack, key=kind_of) == sorted(rack, key=number_first)


def _way_out_by_cover(hand: list[Card], ctx: PlanContext) -> bool:
    """The oracle: some items (every item kept, a new meld as often as the tiles allow,
    each table meld at most once) cover the
    rack but one tile, which is not ``ctx.keep``; a meld owed is among the new melds; an
    opening, when needed, is worth ``ctx.threshold`` with a run."""
    items = _items(hand, ctx, every_item=True)
    need = ctx.threshold

    def cover(rest: Counter[Card], start: int, used: frozenset[int], value: int, run: bool,
              paid: bool) -> bool:
        left = list(rest.elements())
        if len(left) == 1:
            return (left[0] != ctx.keep and (ctx.obligation is None or paid)
                    and (need is None or (value >= need and run)))
        for n in range(start, len(items)):
            item = items[n]
            tiles = Counter(s.card for s in item.specs)
            if item.target in used or tiles - rest:
                continue
            taken = used | {item.target} if item.target >= 0 else used
            if cover(rest - tiles, n, taken, value + item.value, run or item.run,
                     paid or item.pays):
                return True
        return False

    return len(hand) >= 1 and cover(Counter(hand), 0, frozenset(), 0, False, False)


POOL = [Card(rank, colour) for colour in TILE_COLOURS for rank in (1, 2, 3, 4, 12, 13)]
# Melds of the pool: racks built from them often have a way out.
GROUPS = [parse_cards(g) for g in ("r1 r2 r3", "y2 y3 y4", "b12 b13 b1", "r2 y2 b2",
                                   "k1 r1 y1", "r3 r4 jk", "y13 b13 k13", "k2 k3 k4",
                                   "r12 r13 r1", "b2 b3 b4 b12")]


@st.composite
def racks(draw: st.DrawFn) -> list[Card]:
    """Up to nine tiles: one or two of ``GROUPS`` (the last may lose a tile) and one or
    two tiles of the pool; two Jolys at most, as in the game."""
    groups = draw(st.lists(st.sampled_from(GROUPS), min_size=1, max_size=2))
    tiles = [t for g in groups for t in g]
    tiles += draw(st.lists(st.sampled_from([*POOL, JOKER]), min_size=1, max_size=2))
    while tiles.count(JOKER) > 2:  # "Die beiden Steine ohne Nummern nennt man Joly"
        tiles.remove(JOKER)
    if draw(st.booleans()):
        tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    return draw(st.permutations(tiles))


@settings(max_examples=300, deadline=None)
@given(racks(), st.sampled_from([None, 25]), st.booleans(), st.data())
def test_a_way_out_is_found_exactly_when_the_rack_has_one(
        rack: list[Card], threshold: int | None, table: bool, data: st.DataObject) -> None:
    """On racks of up to ten tiles (numbers 12, 13, 1..4 in four colours, a Joly), with and
    without a tile owed from the row (the rack before the take: the other tiles), the
    planner finds a way out exactly when a cover by its items exists, and its plan goes
    out."""
    owed = None
    if data.draw(st.booleans()):
        tile = data.draw(st.sampled_from(rack))
        before = list(rack)
        before.remove(tile)
        owed = Obligation("row", tile, tuple(before))
    melds = (_meld("r5 r6 r7"), _meld("y3 b3 k3")) if table else ()
    ctx = PlanContext(melds=melds, seat=0, targets=tuple(range(len(melds))),
                      threshold=threshold, obligation=owed)
    plan = going_out_plan(rack, ctx, 100 * SEARCH_BUDGET)
    assert (plan is not None) == _way_out_by_cover(rack, ctx)
    if plan is not None:
        assert _covers(plan, rack)
        if owed is not None:
            assert paid_by(owed, [readings(g, 0, MELD_RULES)[0] for g in plan.melds])
