"""The engine worker pool: results and engine errors come back, a runaway call is cut at
its budget and its worker replaced, background work never takes the last worker, and the
service falls back as documented when a budget runs out."""

from __future__ import annotations

import asyncio
import gc
import os
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.i18n import use_locale
from bot.i18n.errors import localize_error
from bot.ports.model import Status
from bot.service import engine_work
from bot.service.compute import BudgetExceeded, InlineCompute, Lane, WorkerPool
from bot.service.errors import EngineTimeout, NoHintInTime
from engine.actions import Discard, Draw
from engine.cards import Card, parse_cards
from engine.commands import format_action
from engine.errors import CardNotInHand, NotYourTurn
from engine.game import apply, quick_action
from engine.rules import make_rules
from engine.state import GameState

from .support import ANA, BEN, CHAT, make_harness


@pytest.fixture
async def pool() -> AsyncIterator[WorkerPool]:
    workers = WorkerPool(2, warm_up=engine_work.warm_up)
    await workers.start()
    yield workers
    await workers.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a killed child not yet reaped is a zombie: dead for our purpose
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        return stat.read().split(")")[-1].split()[0] != "Z"


def _state() -> GameState:
    from engine.game import new_game

    return new_game(make_rules("basic"), ["ana", "ben"], seed=3)


async def test_a_warmed_up_worker_has_frozen_its_start_up_heap(pool: WorkerPool) -> None:
    """The collector of a worker skips what the warm-up built (gc.freeze); the warm-up run
    in the bot's own process freezes nothing there."""
    assert await pool.call(gc.get_freeze_count, budget=5) > 10_000
    before = gc.get_freeze_count()
    engine_work.warm_up()
    assert gc.get_freeze_count() == before


async def test_a_worker_collects_garbage_only_between_calls(pool: WorkerPool) -> None:
    """A worker's automatic collector is off (it collects after each reply,
    bot.service.collector); the bot's own process keeps its collector."""
    assert await pool.call(gc.isenabled, budget=5) is False
    assert gc.isenabled()


async def test_a_call_returns_the_engine_result(pool: WorkerPool) -> None:
    state = _state()
    action = Draw(state.current)
    new, events, _facts = await pool.call(engine_work.apply_move, state, action, budget=5)
    assert (new, events) == apply(state, action)
    assert new.version == state.version + 1


async def test_engine_errors_come_back_with_their_params(pool: WorkerPool) -> None:
    state = _state()
    other = 1 - state.current
    with pytest.raises(NotYourTurn) as raised:
        await pool.call(engine_work.apply_move, state, Draw(other), budget=5)
    assert raised.value.params["seat"] == other
    with use_locale("de"):
        assert "nicht" in localize_error(raised.value)  # localizable like a local error
    with pytest.raises(CardNotInHand):
        await pool.call(
            engine_work.apply_move,
            apply(state, Draw(state.current))[0],
            Discard(state.current, _missing_card(state)),
            budget=5,
        )


def _missing_card(state: GameState) -> Card:
    held = set(state.hands[state.current])
    return next(c for c in parse_cards("2c 3c 4c 5c 6c 7c 8c 9c 10c") if c not in held)


@pytest.mark.parametrize("runaway", ["sleep", "cpu"])
async def test_a_runaway_call_is_cut_at_its_budget_and_its_worker_replaced(
    pool: WorkerPool, runaway: str
) -> None:
    before = pool.pids()
    assert len(before) == 2
    started = time.monotonic()
    with pytest.raises(BudgetExceeded):
        if runaway == "sleep":
            await pool.call(time.sleep, 3600, budget=0.3)
        else:  # pure CPU under the GIL: only another process can stop it
            await pool.call(sum, range(10**13), budget=0.3)
    assert time.monotonic() - started < 2.0
    assert pool.exhausted == 1 and pool.replaced == 1
    # the stuck worker is gone and a new one takes its place
    for _ in range(100):
        if len(pool.pids()) == 2:
            break
        await asyncio.sleep(0.05)
    after = pool.pids()
    assert len(after) == 2 and set(after) != set(before)
    killed = set(before) - set(after)
    assert killed and not any(_alive(pid) for pid in killed)
    # and the pool keeps working
    assert await pool.call(sum, [1, 2, 3], budget=5) == 6


async def test_background_work_leaves_a_worker_for_moves(pool: WorkerPool) -> None:
    hogs = [
        asyncio.ensure_future(pool.call(time.sleep, 0.8, budget=5, lane=Lane.BACKGROUND))
        for _ in range(3)
    ]
    await asyncio.sleep(0.2)  # one hog runs, two wait for the background share
    started = time.monotonic()
    state = _state()
    await pool.call(engine_work.apply_move, state, Draw(state.current), budget=5)
    assert time.monotonic() - started < 1.0  # did not wait behind the hogs
    for hog in hogs:
        await hog


async def test_waiting_for_a_worker_counts_against_the_budget(pool: WorkerPool) -> None:
    hogs = [asyncio.ensure_future(pool.call(time.sleep, 1.0, budget=5)) for _ in range(2)]
    await asyncio.sleep(0.1)
    with pytest.raises(BudgetExceeded):
        await pool.call(sum, [1], budget=0.2)
    for hog in hogs:
        await hog
    assert pool.replaced == 0  # nobody was killed for a call that never started


async def test_a_cancelled_call_does_not_leave_its_worker_busy(pool: WorkerPool) -> None:
    task = asyncio.ensure_future(pool.call(time.sleep, 3600, budget=60))
    await asyncio.sleep(0.2)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await pool.call(sum, [2, 2], budget=5) == 4


async def test_quick_action_is_legal_in_every_variant() -> None:
    from engine.game import can, new_game

    for variant in ("basic", "500", "german", "romanian"):
        state = new_game(make_rules(variant), ["ana", "ben", "cem"], seed=11)
        for _ in range(40):
            seat = state.current
            action = quick_action(state, seat)
            assert can(state, action), (variant, action)
            state, _ = apply(state, action)
            if state.phase.value not in ("draw", "play", "preplay"):
                break


# --- the service when a budget runs out ------------------------------------------------


async def test_an_ai_over_budget_plays_a_quick_legal_move(tmp_path: Path) -> None:
    h = await make_harness(tmp_path / "db.sqlite3")
    h.service.compute = InlineCompute(exhaust=lambda fn: fn is engine_work.ai_move)
    s = h.people
    await s.new_table(CHAT, ANA)
    await s.add_ai(CHAT, ANA)
    await s.add_ai(CHAT, ANA)
    await s.start(CHAT, ANA)
    moved = 0
    for _ in range(30):
        table = await s.repo.active_table(CHAT)
        assert table is not None and table.state is not None
        state = table.state
        if not table.seats[state.current].automated:
            await s.act(CHAT, ANA, format_action(quick_action(state, state.current)))
            continue
        h.clock.advance(3)
        moved += await s.tick()
    assert moved >= 4
    log = await s.repo.action_log(table.id)
    ai_lines = [e.command for e in log if e.actor == "ai"]
    # the quick move: draw when drawing is legal, else a discard
    assert ai_lines and all(c == "draw" or c.startswith("discard ") for c in ai_lines)
    assert not s.scheduler.faults  # the fallback is not a failure
    await h.db.close()


async def test_a_person_over_budget_is_asked_to_try_again_and_nothing_changes(
    tmp_path: Path,
) -> None:
    h = await make_harness(tmp_path / "db.sqlite3")
    s = h.people
    await s.new_table(CHAT, ANA)
    await s.join(CHAT, BEN)
    info = await s.start(CHAT, ANA)
    table = await s.repo.get_table(info.id)
    assert table is not None and table.state is not None
    mover = ANA if table.seats[table.state.current].user == ANA.key else BEN
    s.compute = InlineCompute(exhaust=lambda fn: fn is engine_work.apply_move)
    with pytest.raises(EngineTimeout) as raised:
        await s.act(CHAT, mover, "draw", update_key="u1")
    with use_locale("de"):
        assert "noch einmal" in localize_error(raised.value)
    after = await s.repo.get_table(info.id)
    assert after is not None and after.version == table.version
    assert await s.repo.update_table("u1") is None  # the same update may come again
    s.compute = InlineCompute()
    await s.act(CHAT, mover, "draw", update_key="u1")
    assert (await s.repo.get_table(info.id)).version == table.version + 1  # type: ignore
    await h.db.close()


async def test_a_hint_over_budget_says_so_and_is_not_computed_twice(tmp_path: Path) -> None:
    h = await make_harness(tmp_path / "db.sqlite3")
    s = h.people
    await s.new_table(CHAT, ANA)
    await s.join(CHAT, BEN)
    await s.start(CHAT, ANA)
    assert (await s.hint(CHAT, ANA)).hand is not None
    # the deal's worker call brought every seat's facts; another worker (or a restart)
    # has none and computes them for the first hint
    h.service.screens._facts.clear()
    compute = InlineCompute(exhaust=lambda fn: fn is engine_work.facts_for)
    s.compute = compute
    table = await s.repo.active_table(CHAT)
    assert table is not None and table.status is Status.PLAYING
    for _ in range(5):
        with pytest.raises(NoHintInTime) as raised:
            await s.hint(CHAT, BEN)
    assert compute.calls == 1
    with use_locale("de"):
        assert "Tipp" in localize_error(raised.value)
    await h.db.close()


async def test_the_service_runs_moves_and_ai_through_a_real_pool(
    tmp_path: Path, pool: WorkerPool
) -> None:
    h = await make_harness(tmp_path / "db.sqlite3")
    s = h.people
    s.compute = pool
    await s.new_table(CHAT, ANA)
    await s.add_ai(CHAT, ANA)
    await s.start(CHAT, ANA)
    for _ in range(40):
        table = await s.repo.active_table(CHAT)
        assert table is not None and table.state is not None
        if table.seats[table.state.current].user == ANA.key:
            commands = await s.legal_commands(CHAT, ANA)
            assert commands
            await s.act(CHAT, ANA, commands[0] if commands[0] != "take" else "draw")
        else:
            h.clock.advance(3)
            await s.tick()
    log = await s.repo.action_log(table.id)
    assert any(e.actor == "ai" for e in log) and any(e.actor == ANA.key for e in log)
    await h.db.close()


async def test_after_one_decision_over_budget_a_table_plays_quick_moves_for_a_while(
    tmp_path: Path,
) -> None:
    from bot.service.limits import QUICK_AFTER_TIMEOUT

    h = await make_harness(tmp_path / "db.sqlite3")
    s = h.people
    asked: list[str] = []

    def exhaust(fn: object) -> bool:
        asked.append(getattr(fn, "__name__", ""))
        return fn is engine_work.ai_move and asked.count("ai_move") == 1

    s.compute = InlineCompute(exhaust=exhaust)
    await s.new_table(CHAT, ANA)
    await s.add_ai(CHAT, ANA)
    await s.add_ai(CHAT, ANA)
    await s.start(CHAT, ANA)
    await s.leave(CHAT, ANA)  # every seat is automated now
    for _ in range(QUICK_AFTER_TIMEOUT + 6):
        h.clock.advance(3)
        await s.tick()
    ai_steps = [name for name in asked if name in ("ai_move", "quick_move")]
    # the first decision ran out; the next QUICK_AFTER_TIMEOUT actions did not ask the AI
    assert ai_steps[: QUICK_AFTER_TIMEOUT + 2] == ["ai_move"] + ["quick_move"] * (
        QUICK_AFTER_TIMEOUT + 1
    )
    assert ai_steps[QUICK_AFTER_TIMEOUT + 2] == "ai_move"
    await h.db.close()
