"""Bench section "stall": does anything one table or one person does stall the bot?

One service as ``rummy-bot run`` builds it (engine work in the worker pool, the
background loop running, flow control in front, the heap alive at that point frozen:
:func:`bot.service.collector.freeze_start_up`) on a fresh database. While a 10 ms
ticker measures how late the event loop wakes up (the lag every chat would feel) and
ten other tables' people move at 20 actions/s (their latency from scheduled arrival),
one hostile load runs at a time:

(a) ``hostile_tables`` Romanian tables with ``opening=200 opening_take=on`` played by AI
    seats with no pause (every AI decision goes to the pool; one over its budget is cut
    and replaced by :func:`engine.game.quick_action`);
(b) hints asked on Romanian racks of 50-60 tiles with both Jolys (``best_melds``, each a
    fresh position so nothing is answered from the cache);
(c) one person sending 1,000 commands a second to one table through flow control, as
    the adapters do; and for comparison the same flood with flow control off.

Figures: loop lag max and p99 (with the longest garbage collection of the process in
the run), the other tables' action p99 and max (with the command that was slowest), and
the pool's counters (calls over budget, workers replaced).
Targets from the issue: loop lag max <= 20 ms, other tables' action p99 <= 30 ms and max
<= 100 ms. Beside each loop lag: the longest garbage collection and the heap the
collector walks at the end of the load (objects tracked besides the frozen start-up heap).
"""

from __future__ import annotations

import asyncio
import gc
import os
import random
import shutil
import tempfile
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field, replace
from pathlib import Path

from benchmarks.heap import Collections
from benchmarks.intents import act, hint, say
from benchmarks.report import BenchConfig, Row, Section, percentile
from bot.ports.intents import Outcome
from bot.ports.model import ChatKey, TableSettings, UserRef
from bot.ports.screens import CoachAdvice, TableFault, TableUpdate, TimerWarning
from bot.service import engine_work
from bot.service.collector import freeze_start_up
from bot.service.compute import WorkerPool
from bot.service.flow import FlowControl
from bot.service.service import GameService
from bot.storage import open_database
from bot.storage.repository import SqliteRepository
from engine.actions import Action, NextDeal
from engine.ai import make_ai
from engine.commands import format_action
from engine.dealing import new_game
from engine.game import apply, current_player, legal_actions
from engine.state import GameState, Phase
from engine.variants import get_variant
from engine.views import view_for

PLATFORM = "bench"
LAG_TARGET_MS = 20.0
ACTION_P99_TARGET_MS = 30.0
ACTION_MAX_TARGET_MS = 100.0
TICK = 0.010
OTHER_TABLES = 10
OTHER_RATE = 20.0  # actions/s over the other tables
FLOOD_RATE = 1000.0  # commands/s of the flooding person
HOSTILE = {"opening": "200", "opening_take": "on"}
SLOW_SEED, SLOW_STEP = 6, 346
"""A two-player game under :data:`HOSTILE` whose state after this many greedy-AI moves
made ``legal_actions`` take 3.4-5.8 s on a 14-tile rack with the engine of 2026-11-23
(found by random play); the full run puts one table in that state."""


@dataclass(frozen=True)
class Sizes:
    """How long each load runs and how much of it there is."""

    duration: float
    hostile_tables: int
    hint_racks: int
    hint_rate: float
    slow_state: bool

    @staticmethod
    def of(config: BenchConfig) -> Sizes:
        """The full sizes, or the reduced ones of a quick run."""
        if config.quick:
            return Sizes(
                duration=2.0, hostile_tables=2, hint_racks=6, hint_rate=3.0, slow_state=False
            )
        return Sizes(duration=15.0, hostile_tables=4, hint_racks=60, hint_rate=4.0, slow_state=True)


@dataclass
class Phase_:
    """What one load's run measured (seconds)."""

    name: str
    lags: list[float] = field(default_factory=list)
    actions: list[tuple[float, str]] = field(default_factory=list)
    refused: int = 0
    exhausted: int = 0
    replaced: int = 0
    load_done: int = 0
    load_note: str = ""
    started: float = 0.0
    gc_ms: float = 0.0  # the longest collection of the bot's own process in the run
    heap: int = 0  # objects the collector tracks at the end, besides the frozen ones


class _Null:
    """A notifier that shows nothing (platform costs are not what is measured)."""

    async def publish(self, update: TableUpdate) -> None:
        """Ignore."""

    async def warn(self, warning: TimerWarning) -> None:
        """Ignore."""

    async def fault(self, fault: TableFault) -> None:
        """Ignore."""

    async def coach(self, advice: CoachAdvice) -> None:
        """Ignore."""


@dataclass
class _Other:
    """One of the other tables: two people whose moves are chosen ahead of time."""

    key: ChatKey
    users: tuple[UserRef, UserRef]
    plan: list[tuple[UserRef, str]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


def _plan(
    state: GameState, users: tuple[UserRef, UserRef], count: int, seed: int
) -> list[tuple[UserRef, str]]:
    ai = make_ai("greedy", seed=seed)
    plan = []
    for _ in range(count):
        if state.phase is Phase.GAME_OVER:
            break
        if state.phase is Phase.HAND_OVER:
            action: Action = NextDeal(0)
            user = users[0]
        else:
            seat = state.current
            action = ai.decide(view_for(state, seat), legal_actions(state, seat))
            user = users[seat]
        state, _ = apply(state, action)
        plan.append((user, format_action(action)))
    return plan


async def _open(folder: Path, workers: int) -> tuple[GameService, WorkerPool, object]:
    db = await open_database(folder / "stall.sqlite3")
    pool = WorkerPool(workers, warm_up=engine_work.warm_up)
    await pool.start()
    service = GameService(
        SqliteRepository(db), {PLATFORM: _Null()}, defaults=TableSettings(timer="off"), compute=pool
    )
    return service, pool, db


async def _others(service: GameService, count: int, per_table: int, seed: int) -> list[_Other]:
    made = []
    for n in range(count):
        users = (UserRef(PLATFORM, f"o{n}a", f"ana{n}"), UserRef(PLATFORM, f"o{n}b", f"ben{n}"))
        key = ChatKey(PLATFORM, f"other{n}")
        await service.lobby.new_table(key, users[0], "basic", None, {"deals": 20})
        await service.lobby.join(key, users[1])
        await service.lobby.start(key, users[0])
        table = await service.repo.active_table(key)
        assert table is not None and table.state is not None
        made.append(_Other(key, users, _plan(table.state, users, per_table, seed + n)))
    return made


async def _ticker(lags: list[float], stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        due = loop.time() + TICK
        await asyncio.sleep(TICK)
        lags.append(max(loop.time() - due, 0.0))


async def _drive_others(
    others: list[_Other],
    service: GameService,
    duration: float,
    seed: int,
    out: list[tuple[float, str]],
) -> None:
    rng = random.Random(seed)
    count = int(OTHER_RATE * duration)
    start = time.perf_counter() + 0.05
    tasks = []

    async def fire(other: _Other, due: float) -> None:
        async with other.lock:
            if not other.plan:
                return
            user, command = other.plan.pop(0)
            try:
                await act(service, other.key, user, command)
            except Exception as error:  # a refusal is measured too, and named
                command = f"{command} (refused: {type(error).__name__})"
            out.append((time.perf_counter() - due, command))

    for i in range(count):
        due = start + i / OTHER_RATE
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(fire(others[rng.randrange(len(others))], due)))
    await asyncio.gather(*tasks)


async def _hostile_tables(service: GameService, sizes: Sizes, phase: Phase_) -> list[int]:
    """Open the hostile tables; returns their table ids."""
    ids = []
    for n in range(sizes.hostile_tables):
        key = ChatKey(PLATFORM, f"romanian{n}")
        host = UserRef(PLATFORM, f"r{n}", f"host{n}")
        await service.lobby.new_table(
            key,
            host,
            "romanian",
            None,
            HOSTILE,
            TableSettings(timer="off", ai_delay=0.0, next_deal_delay=0.0, call_window=0.0),
        )
        for _ in range(3):
            await service.lobby.add_ai(key, host)
        await service.lobby.start(key, host)
        await service.lobby.leave(key, host)  # the autopilot plays the host: four AI seats
        table = await service.repo.active_table(key)
        assert table is not None
        ids.append(table.id)
    phase.load_note = (
        f"{sizes.hostile_tables} Romanian tables {HOSTILE}, four AI seats "
        "each, no pause between moves"
    )
    if sizes.slow_state:
        await _slow_table(service)
        phase.load_note += (
            f", and one two-AI table in the state after {SLOW_STEP} moves "
            f"of seed {SLOW_SEED}, where legal_actions took seconds"
        )
    return ids


async def _slow_table(service: GameService) -> None:
    key = ChatKey(PLATFORM, "romanian-slow")
    host = UserRef(PLATFORM, "slow", "slow")
    await service.lobby.new_table(
        key,
        host,
        "romanian",
        None,
        HOSTILE,
        TableSettings(timer="off", ai_delay=0.0, next_deal_delay=0.0, call_window=0.0),
    )
    await service.lobby.add_ai(key, host)
    await service.lobby.start(key, host)
    await service.lobby.leave(key, host)
    table = await service.repo.active_table(key)
    assert table is not None and table.state is not None
    state = new_game(table.state.rules, [s.name for s in table.seats], seed=SLOW_SEED)
    players = [make_ai("greedy", seed=SLOW_SEED + n) for n in range(2)]
    for _ in range(SLOW_STEP):
        seat = current_player(state)
        if seat is None:
            break
        action = players[seat].decide(view_for(state, seat), legal_actions(state, seat))
        state, _ = apply(state, action)
    await service.repo.commit(replace(table, state=state, version=table.version + 1), table.version)


async def _count_hostile(service: GameService, ids: list[int]) -> int:
    """Actions logged on the tables ``ids`` (also after their game ended, when the chat
    has no active table any more: counting the active tables' versions went negative)."""
    return sum([len(await service.repo.action_log(table_id)) for table_id in ids])


async def _hint_racks(service: GameService, sizes: Sizes, seed: int) -> list[ChatKey]:
    """Romanian tables whose second seat holds a rack of 50-60 tiles with both Jolys."""
    rng = random.Random(seed)
    keys = []
    for n in range(sizes.hint_racks):
        key = ChatKey(PLATFORM, f"rack{n}")
        host, guest = UserRef(PLATFORM, f"k{n}a", f"a{n}"), _hinter(n)
        await service.lobby.new_table(key, host, "romanian")
        await service.lobby.join(key, guest)
        await service.lobby.start(key, host)
        table = await service.repo.active_table(key)
        assert table is not None and table.state is not None
        state = table.state
        deck = list(get_variant("romanian").deck(state.rules, state.seats))
        jolys = [c for c in deck if c.is_joker][:2]
        rest = [c for c in deck if c not in jolys]
        rack = tuple(rng.sample(rest, rng.randint(48, 58)) + jolys)
        hands = list(state.hands)
        hands[1] = rack
        new = replace(
            table, state=replace_state(state, hands=tuple(hands)), version=table.version + 1
        )
        await service.repo.commit(new, table.version)
        keys.append(key)
    return keys


def replace_state(state: GameState, **changes: object) -> GameState:
    """``state`` with ``changes`` (the engine's fast copy of frozen records)."""
    from engine.frozen import replace as frozen_replace

    return frozen_replace(state, **changes)


def _hinter(n: int) -> UserRef:
    """The person asking for hints at rack table ``n`` (one person may sit at 20 tables)."""
    return UserRef(PLATFORM, f"hinter{n}", f"hin{n}")


async def _ask_hints(
    service: GameService, keys: list[ChatKey], sizes: Sizes, phase: Phase_
) -> None:
    """One hint per rack table at ``hint_rate`` per second, each asked by its own person
    without waiting for the others (people do not queue politely)."""
    answers: list[tuple[float, str, bool]] = []

    async def ask(n: int, key: ChatKey) -> None:
        began = time.perf_counter()
        try:
            await hint(service, key, _hinter(n))
            found = True
        except Exception:
            found = False
        answers.append((time.perf_counter() - began, str(key), found))

    tasks = []
    try:
        for n, key in enumerate(keys):
            wait = n / sizes.hint_rate - (time.perf_counter() - phase.started)
            if wait > 0:
                await asyncio.sleep(wait)
            tasks.append(asyncio.create_task(ask(n, key)))
        await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        found = sum(1 for *_, ok in answers if ok)
        slowest = max(answers) if answers else (0.0, "-", False)
        phase.load_done = len(answers)
        phase.load_note = (
            f"{len(keys)} hints asked on 50-60-tile racks with 2 Jolys at "
            f"{sizes.hint_rate:.0f}/s, {len(answers)} answered in the run: "
            f"{found} found, {len(answers) - found} none in time; slowest "
            f"answer {slowest[0] * 1000:.0f} ms ({slowest[1]})"
        )


async def _flood(service: GameService, duration: float, phase: Phase_, flow_on: bool) -> None:
    """One person sends ``draw`` at :data:`FLOOD_RATE` for ``duration`` seconds. Each
    command is a task of its own, as a chat library hands each update to its handler; an
    answered one is counted and dropped at once (a chat front end keeps no answered
    update), so the bot process's heap holds only the commands still in flight."""
    key = ChatKey(PLATFORM, "other0")
    user = UserRef(PLATFORM, "flooder", "flo")
    count = int(FLOOD_RATE * duration)
    start = time.perf_counter()
    pending: set[asyncio.Future[Outcome]] = set()

    def answered(future: asyncio.Future[Outcome]) -> None:
        pending.discard(future)
        if not future.cancelled() and future.exception() is None:
            phase.refused += future.result().reply.code == "too_fast"

    for i in range(count):
        due = start + i / FLOOD_RATE
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        future = asyncio.ensure_future(say(service, key, user, "draw"))
        pending.add(future)
        future.add_done_callback(answered)
    if pending:
        await asyncio.gather(*pending, return_exceptions=True)
    passed = count - phase.refused
    phase.load_done = count
    phase.load_note = (
        f"{count} commands in {duration:.0f} s from one person to one table; "
        f"{passed} reached the service" + ("" if flow_on else " (flow control off)")
    )


async def _measure(
    folder: Path,
    name: str,
    sizes: Sizes,
    seed: int,
    load: Callable[[GameService, Phase_], Coroutine[object, object, None]],
    prepare: Callable[[GameService, Phase_], Awaitable[object]] | None = None,
    flow_on: bool = True,
    after: Callable[[GameService, Sizes], Awaitable[int]] | None = None,
) -> Phase_:
    phase = Phase_(name)
    service, pool, db = await _open(folder / name, 2)
    freeze_start_up()  # as `rummy-bot run` does once its service is up
    if not flow_on:
        service.flow = FlowControl(limited=False)
    stop = asyncio.Event()
    background = asyncio.create_task(service.run(stop))
    try:
        others = await _others(
            service, OTHER_TABLES, int(OTHER_RATE * sizes.duration / OTHER_TABLES * 2) + 10, seed
        )
        if prepare is not None:
            await prepare(service, phase)
        ticking = asyncio.Event()
        ticker = asyncio.create_task(_ticker(phase.lags, ticking))
        phase.started = time.perf_counter()
        with Collections() as collections:
            hostile = asyncio.create_task(load(service, phase))
            await _drive_others(others, service, sizes.duration, seed, phase.actions)
            if not hostile.done():
                hostile.cancel()
            await asyncio.gather(hostile, return_exceptions=True)
            ticking.set()
            await ticker
        phase.gc_ms = collections.longest_ms
        phase.heap = len(gc.get_objects())
        phase.exhausted, phase.replaced = pool.exhausted, pool.replaced
        if after is not None:
            phase.load_done += await after(service, sizes)
            phase.load_note += f"; {phase.load_done} AI actions committed"
    finally:
        gc.unfreeze()
        stop.set()
        await background
        await pool.close()
        await db.close()  # type: ignore[attr-defined]
    return phase


async def _all(folder: Path, sizes: Sizes, seed: int) -> list[Phase_]:
    (folder / "a").mkdir()
    (folder / "b").mkdir()
    (folder / "c").mkdir()
    (folder / "c0").mkdir()
    results = []

    async def hostile_load(service: GameService, phase: Phase_) -> None:
        await asyncio.sleep(3600)  # the tables run in the service's own loop

    hostile: list[int] = []

    async def hostile_prepare(service: GameService, phase: Phase_) -> None:
        hostile.extend(await _hostile_tables(service, sizes, phase))
        phase.load_done = -await _count_hostile(service, hostile)

    async def hostile_count(service: GameService, sizes: Sizes) -> int:
        return await _count_hostile(service, hostile)

    results.append(
        await _measure(folder, "a", sizes, seed, hostile_load, hostile_prepare, after=hostile_count)
    )

    keys: list[ChatKey] = []

    async def hint_prepare(service: GameService, phase: Phase_) -> None:
        keys.extend(await _hint_racks(service, sizes, seed))

    async def hint_load(service: GameService, phase: Phase_) -> None:
        await _ask_hints(service, keys, sizes, phase)

    results.append(await _measure(folder, "b", sizes, seed, hint_load, hint_prepare))

    async def flood_on(service: GameService, phase: Phase_) -> None:
        await _flood(service, sizes.duration, phase, True)

    async def flood_off(service: GameService, phase: Phase_) -> None:
        await _flood(service, sizes.duration, phase, False)

    results.append(await _measure(folder, "c", sizes, seed, flood_on))
    results.append(await _measure(folder, "c0", sizes, seed, flood_off, flow_on=False))
    return results


LABELS = {
    "a": "(a) Romanian opening=200 opening_take=on, AI seats",
    "b": "(b) hints on 50-60-tile racks with 2 Jolys",
    "c": "(c) one person floods 1,000 commands/s",
    "c0": "(c) the same flood, flow control off (for comparison)",
}


def section(phases: list[Phase_], sizes: Sizes, quick: bool) -> Section:
    """The report section."""
    ms = 1000.0
    reduced = " (quick: reduced size)" if quick else ""
    out = Section("Stall: event-loop lag and other tables' actions under hostile load")
    for phase in phases:
        label = LABELS[phase.name]
        target = phase.name != "c0"
        lag_max = max(phase.lags) * ms if phase.lags else None
        out.add(
            Row(
                f"{label}: loop lag max",
                lag_max,
                "ms",
                LAG_TARGET_MS if target else None,
                note=f"10 ms ticker, {len(phase.lags)} ticks over {sizes.duration:.0f} s"
                f"{reduced}; the bot process's longest garbage collection "
                f"{phase.gc_ms:.1f} ms, heap {phase.heap:,} objects tracked (start-up "
                "heap frozen)",
            )
        )
        out.add(
            Row("  loop lag p99", percentile(phase.lags, 99) * ms if phase.lags else None, "ms")
        )
        times = [t for t, _ in phase.actions]
        worst = max(phase.actions) if phase.actions else (0.0, "-")
        out.add(
            Row(
                "  other tables' action p99",
                percentile(times, 99) * ms if times else None,
                "ms",
                ACTION_P99_TARGET_MS if target else None,
                note=f"{len(times)} actions on {OTHER_TABLES} tables at "
                f"{OTHER_RATE:.0f}/s, from scheduled arrival",
            )
        )
        out.add(
            Row(
                "  other tables' action max",
                worst[0] * ms,
                "ms",
                ACTION_MAX_TARGET_MS if target else None,
                note=f"slowest: {worst[1]}",
            )
        )
        out.notes.append(
            f"{label}: {phase.load_note}; pool: {phase.exhausted} calls over "
            f"budget, {phase.replaced} workers replaced"
            + (f"; {phase.refused} commands refused by flow control" if phase.refused else "")
        )
    return out


def run(config: BenchConfig) -> Section:
    """Measure the three loads (and the flood without flow control); one section."""
    sizes = Sizes.of(config)
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    folder = Path(tempfile.mkdtemp(prefix="rummy-bench-stall-"))
    try:
        phases = asyncio.run(_all(folder, sizes, config.seed))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    result = section(phases, sizes, config.quick)
    after = os.getloadavg() if hasattr(os, "getloadavg") else None
    if load is not None and after is not None:
        result.notes.append(
            f"load average before {load[0]:.2f}, after {after[0]:.2f} on "
            f"{os.cpu_count()} CPUs; engine pool of 2 worker processes, "
            f"budget 2 s per call"
        )
    return result
