"""The number-by-number sweep behind the going-out planner (engine/variants/romanian/sweep.py).

romanian-rummy.de.txt: "Um das Spiel zu gewinnen, muss man alle Steine, die man noch
hat, melden bis auf einen Stein – dieser letzte Stein muss abgelegt werden. Nur bei
diesem letzten Spielzug darf man den offen liegenden Anfangsstein vom Ende der Mauer
aufnehmen": whether the face-up tile may be taken depends on a way out existing, so the
planner must find one whenever there is one, on racks of any size.

The oracle is the naive cover of the rack by the planner's items (every item kept) of
``test_plan_order``; the sweep must agree with it in each direction on its own, and its
plans must read back as the moves read them.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.variants.romanian.plan as plan_module
import engine.variants.romanian.sweep as sweep_module
from engine.ai import make_ai
from engine.cards import JOKER, SORT_KEY, Card, parse_cards
from engine.dealing import new_game
from engine.game import apply_legal, legal_actions
from engine.melds import CardSpec, extend_readings, readings
from engine.rules import make_rules
from engine.state import Phase
from engine.variants.romanian.flow import extra_of, first_turn, plan_context
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.obligation import paid_by
from engine.variants.romanian.opening import qualifies
from engine.variants.romanian.plan import Plan, PlanContext, _swept, going_out_plan
from engine.variants.romanian.state import Obligation
from engine.variants.romanian.sweep import _Sweep
from engine.views import view_for

from .test_plan_order import _covers, _meld, _way_out_by_cover, racks

TABLE = (_meld("r5 r6 r7"), _meld("y3 b3 k3"), _meld("b11 b12 b13"), _meld("k2 jk k4"))


def _reads_as_the_moves_read_it(plan: Plan, hand: list[Card], ctx: PlanContext) -> None:
    assert _covers(plan, hand)
    assert plan.discard != ctx.keep
    new = []
    for group in plan.melds:
        found = readings(group, ctx.seat, MELD_RULES)
        assert len(found) == 1
        new.append(found[0])
    assert len({target for target, _ in plan.layoffs}) == len(plan.layoffs)
    for target, group in plan.layoffs:
        assert target in ctx.targets
        assert len(extend_readings(ctx.melds[target], group, ctx.seat, MELD_RULES)) == 1
    if ctx.obligation is not None:
        assert paid_by(ctx.obligation, new)
    if ctx.threshold is not None:
        assert qualifies(new, ctx.threshold)


@st.composite
def contexts(draw: st.DrawFn, rack: list[Card]) -> PlanContext:
    """A table of up to four melds (or none), an opening of 25 or none, maybe a tile
    that may not be the discard and maybe a row tile owed."""
    threshold = draw(st.sampled_from([None, 25]))
    melds = TABLE if threshold is None and draw(st.booleans()) else ()
    keep = draw(st.sampled_from(rack)) if draw(st.booleans()) else None
    owed = None
    if draw(st.booleans()):
        tile = draw(st.sampled_from(rack))
        before = list(rack)
        before.remove(tile)
        owed = Obligation("row", tile, tuple(before))
    return PlanContext(melds=melds, seat=0, targets=tuple(range(len(melds))),
                       threshold=threshold, keep=keep, obligation=owed)


@settings(max_examples=1000, deadline=None)
@given(racks(), st.data())
def test_the_sweep_finds_a_way_out_exactly_when_the_rack_has_one(
        rack: list[Card], data: st.DataObject) -> None:
    """On racks of up to ten tiles (numbers 12, 13, 1..4 in four colours, a Joly: runs
    1-2-3 and 12-13-1, sets of 1s) with table runs and sets to lay off on (one holding a
    Joly), an opening value, a kept tile and a row tile owed, the sweep finds a way out
    exactly when the cover oracle does, and its plan reads back as the moves read it."""
    ctx = data.draw(contexts(rack))
    plan = _swept(tuple(rack), ctx)
    assert (plan is not None) == _way_out_by_cover(rack, ctx)
    if plan is not None:
        _reads_as_the_moves_read_it(plan, rack, ctx)


@settings(max_examples=600, deadline=None)
@given(racks(), st.booleans(), st.sampled_from([None, 25]), st.booleans())
def test_each_direction_alone_is_exact(rack: list[Card], table: bool, threshold: int | None,
                                       mirror: bool) -> None:
    """The sweep upwards and the sweep downwards (the numbers read from the 13: the 1 after
    it first) each decide alone whether a way out exists; the planner lets them take
    turns only for speed."""
    melds = TABLE if table and threshold is None else ()
    ctx = PlanContext(melds=melds, seat=0, targets=tuple(range(len(melds))),
                      threshold=threshold)
    sweep = _Sweep(rack, melds, ctx.targets, threshold, None, 0, False, None, 10 ** 6,
                   mirror)
    assert (sweep.solve() is not None) == _way_out_by_cover(rack, ctx)


def test_a_rack_of_60_tiles_the_item_search_gives_up_on_is_swept(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """60 tiles built from melds and one tile more, a Joly among them: the item search
    runs out of its 3,000 steps; the sweep finds the way out (downwards in 16 places,
    upwards it needs about 55,000)."""
    rack = parse_cards(
        "b2 b3 b3 b4 b5 b5 b6 b7 b7 b8 b9 jk k2 k3 k3 k4 k4 k5 k5 k6 k7 k7 k8 k8 k9 r2 r3 "
        "r4 r4 r5 r5 r6 r6 r7 r7 r8 r8 r9 r9 y10 y10 y11 y12 y12 y13 y13 y2 y3 y3 y4 y4 y5 "
        "y5 y6 y7 y7 y8 y8 y9 y9")
    ctx = PlanContext(melds=(), seat=0, targets=())
    plan_module._cached_plan.cache_clear()
    with monkeypatch.context() as patched:
        patched.setattr(plan_module, "SWEEP_FIRST", 1000)
        patched.setattr(sweep_module, "SWEEP_BUDGET", 0)
        assert going_out_plan(rack, ctx) is None  # the item search alone gives up
    plan_module._cached_plan.cache_clear()
    plan = going_out_plan(rack, ctx)
    assert plan is not None
    _reads_as_the_moves_read_it(plan, rack, ctx)


def test_a_way_out_through_both_ends_of_a_table_run_and_the_1_after_the_13() -> None:
    """One lay-off group may take tiles below and above a table run ("an eine Folge ...
    anlegen"), and a run may end with the 1 after the 13 ("12 – 13 – 1"): b10 and b1 go
    on b11 b12 b13 in one move, y12 y13 y1 is a new run, r9 is the discard."""
    rack = parse_cards("b10 b1 y12 y13 y1 r9")
    ctx = PlanContext(melds=TABLE, seat=0, targets=(0, 1, 2, 3))
    for mirror in (False, True):
        sweep = _Sweep(rack, TABLE, ctx.targets, None, None, 0, False, None, 10 ** 4,
                       mirror)
        found = sweep.solve()
        assert found is not None
        plan = Plan(found.melds, found.layoffs, found.discard)
        _reads_as_the_moves_read_it(plan, rack, ctx)
        assert plan.layoffs == ((2, tuple(CardSpec(c) for c in parse_cards("b10 b1"))),)
        assert plan.discard == parse_cards("r9")[0]


def test_an_open_run_that_would_pay_the_meld_owed_is_remembered_apart() -> None:
    """A tile owed from the row must go into a new meld with two tiles from the rack
    ("Wenn man zwei Steine auf seinem Ständer hat, mit denen man einen Satz oder eine
    Folge mit irgendeinem Stein der abgelegten Steine vervollständigen kann, darf man
    diesen Stein aufnehmen und die Meldung machen"). Here the owed tile is a Joly: jk r12
    r13 r1 pays, r12 r13 r1 is a run, r1 the discard. Upwards, the runs at the last place
    look alike with the Joly placed or laid off on the table set: the sweep once
    remembered the state without the Joly's run as refuted and missed the way out."""
    rack = parse_cards("r12 r13 r1 r12 r13 jk r1 r1")
    owed = Obligation("row", JOKER, tuple(parse_cards("r12 r13 r1 r12 r13 r1 r1")))
    for mirror in (False, True):
        sweep = _Sweep(rack, TABLE, (1,), None, None, 0, False, None, 10 ** 4, mirror,
                       owed)
        found = sweep.solve()
        assert found is not None
        ctx = PlanContext(melds=TABLE, seat=0, targets=(1,), obligation=owed)
        _reads_as_the_moves_read_it(Plan(found.melds, found.layoffs, found.discard), rack,
                                    ctx)


def test_the_sweep_agrees_with_the_item_search_in_random_games(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In the play phase of random three-player games under three option sets (tables of
    runs and sets, openings of 25 to 100, tiles owed from the row and for the opening),
    for the rack and the rack with the face-up tile: the sweep finds a way out exactly
    when the item search, without a step limit, does; its plan reads back as the moves
    read it."""
    monkeypatch.setattr(plan_module, "SWEEP_FIRST", 10 ** 6)  # the item search alone
    checked = 0
    for game, options in enumerate(({}, {"opening": 50, "opening_take": True},
                                    {"opening": 100})):
        state = new_game(make_rules("romanian", options=options), ["ana", "ben", "cem"],
                         seed=400 + game)
        seats = [make_ai("random", 40 + 3 * game + s) for s in range(3)]
        for _ in range(300):
            if state.phase not in (Phase.DRAW, Phase.PLAY):
                break
            seat = state.current
            if state.phase is Phase.PLAY and not first_turn(state):
                face_up = extra_of(state).face_up
                racks = [state.hands[seat]] + ([(*state.hands[seat], face_up)]
                                               if face_up is not None else [])
                for rack in racks:
                    if len(rack) > 20:
                        continue
                    ctx = plan_context(state, seat)
                    tiles = tuple(sorted(rack, key=SORT_KEY))
                    exact = plan_module._cached_plan.__wrapped__(tiles, ctx, 10 ** 7)
                    swept = _swept(tiles, ctx)
                    assert (swept is None) == (exact is None)
                    if swept is not None:
                        _reads_as_the_moves_read_it(swept, list(rack), ctx)
                    checked += 1
            action = seats[seat].decide(view_for(state, seat), legal_actions(state, seat))
            state, _ = apply_legal(state, action)
    assert checked > 300


def test_a_new_run_and_a_group_below_a_table_run_are_remembered_apart() -> None:
    """r3 and a Joly for r4 laid off below r5 r6 r7, the other r3 on y3 b3 k3, r4 y4 and a
    Joly a set, y4 the discard. Upwards, the group r3 below the table run was remembered
    under the same key as a new run holding r3 alone, refuted before, and the way out was
    missed (hypothesis found it)."""
    rack = parse_cards("r3 jk r3 r4 jk y4 y4")
    ctx = PlanContext(melds=TABLE, seat=0, targets=(0, 1, 2, 3))
    for mirror in (False, True):
        found = _Sweep(rack, TABLE, ctx.targets, None, None, 0, False, None, 10 ** 4,
                       mirror).solve()
        assert found is not None
        _reads_as_the_moves_read_it(Plan(found.melds, found.layoffs, found.discard), rack,
                                    ctx)
