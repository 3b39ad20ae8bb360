"""Several worker processes on one PostgreSQL database, next to one worker on SQLite.

Each worker is a process of its own (``python -m benchmarks.workers URL TABLES ACTIONS
SEED``): it opens the game service on the database, starts ``TABLES`` two-player games in
chats of its own and plays ``ACTIONS`` actions on each, every table closed loop (the next
action when the last one was answered), all tables at once, with the drivers of
:mod:`benchmarks.service_load` (moves chosen ahead, outside the timed calls). It prints one
JSON line: the wall time of every ``act`` call and the elapsed time.

Configurations, measured in one run and alternated (round 1: SQLite x1, PostgreSQL x1,
x2, x4; round 2 the same again; the better round is reported): committed actions/s over
all workers, and per action p50, p99 and max (with the worker and the action number of
the max). The PostgreSQL server is a throwaway one on 127.0.0.1
(:mod:`devsupport.pg_server`; ``fsync=off``, as the SQLite bench's
``synchronous=NORMAL`` does not wait for the disk either); without its binaries the
section says so.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.intents import unlimited
from benchmarks.report import BenchConfig, Row, Section, percentile, skipped_without_postgres
from benchmarks.service_load import PLATFORM, Driver, NullNotifier
from bot.ports.model import ChatKey, TableSettings, UserRef
from bot.service.service import GameService
from bot.settings import Settings
from bot.storage.backend import open_storage
from devsupport.pg_server import running_server
from engine.ai import make_ai

__all__ = ["run"]

CONFIGS: tuple[tuple[str, int], ...] = (
    ("sqlite", 1),
    ("postgres", 1),
    ("postgres", 2),
    ("postgres", 4),
)


async def _work(target: str, tables: int, actions: int, seed: int) -> dict[str, Any]:
    settings = (
        Settings(database_url=target)
        if target.startswith("postgresql://")
        else Settings(database_path=Path(target))
    )
    db, repo = await open_storage(settings)
    service = unlimited(GameService(repo, {PLATFORM: NullNotifier()}, defaults=TableSettings()))
    try:
        drivers = []
        for n in range(tables):
            users = (
                UserRef(PLATFORM, f"{seed}-{n}a", "ana"),
                UserRef(PLATFORM, f"{seed}-{n}b", "ben"),
            )
            driver = Driver(
                service, ChatKey(PLATFORM, f"w{seed}-{n}"), users, make_ai("greedy", seed=seed + n)
            )
            await driver.start_game()
            driver.prepare(actions)
            drivers.append(driver)
        times: list[list[float]] = [[] for _ in drivers]

        async def play(index: int, driver: Driver) -> None:
            for _ in range(actions):
                times[index].append(await driver.act())

        began = time.perf_counter()
        await asyncio.gather(*(play(i, d) for i, d in enumerate(drivers)))
        elapsed = time.perf_counter() - began
        return {
            "times": [t for row in times for t in row],
            "elapsed": elapsed,
            "errors": sum(d.errors for d in drivers),
        }
    finally:
        await db.close()


def _spawn(target: str, tables: int, actions: int, seed: int) -> subprocess.Popen[str]:
    # the child imports this package from the same checkout, whatever its working directory
    checkout = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (checkout, env.get("PYTHONPATH")) if p)
    return subprocess.Popen(
        [sys.executable, "-m", "benchmarks.workers", target, str(tables), str(actions), str(seed)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _measure(target: str, workers: int, tables: int, actions: int, seed: int) -> dict[str, Any]:
    processes = [_spawn(target, tables, actions, seed + 1000 * w) for w in range(workers)]
    results = []
    for process in processes:
        out, err = process.communicate(timeout=600)
        if process.returncode != 0:
            raise RuntimeError(f"a bench worker failed: {err[-500:]}")
        results.append(json.loads(out.strip().splitlines()[-1]))
    times = [t for r in results for t in r["times"]]
    worst = max(range(len(results)), key=lambda w: max(results[w]["times"]))
    return {
        "rate": len(times) / max(r["elapsed"] for r in results),
        "times": times,
        "max_at": (worst, results[worst]["times"].index(max(results[worst]["times"]))),
        "errors": sum(r["errors"] for r in results),
    }


def run(config: BenchConfig) -> Section:
    """Measure every configuration twice, alternating; returns the section."""
    out = Section("Workers: committed actions through the service, SQLite and PostgreSQL")
    if skipped_without_postgres(out):
        return out
    tables, actions = (4, 40) if config.quick else (8, 150)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    folder = Path(tempfile.mkdtemp(prefix="rummy-bench-workers-"))
    best: dict[tuple[str, int], dict[str, Any]] = {}
    try:
        with running_server() as server:
            for round_ in range(2):
                for backend, workers in CONFIGS:
                    target = (
                        server.create("bench")
                        if backend == "postgres"
                        else str(folder / f"round{round_}-{workers}.sqlite3")
                    )
                    figures = _measure(target, workers, tables, actions, config.seed + round_)
                    key = (backend, workers)
                    if key not in best or figures["rate"] > best[key]["rate"]:
                        best[key] = figures
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    ms = 1000.0
    for (backend, workers), fig in best.items():
        name = f"{'SQLite' if backend == 'sqlite' else 'PostgreSQL'} x{workers}"
        times = fig["times"]
        note = (
            f"{workers} process(es) x {tables} tables x {actions} actions, closed loop; "
            f"errors {fig['errors']}"
        )
        out.add(
            Row(
                f"{name}: committed actions/s", fig["rate"], "actions/s", better="higher", note=note
            )
        )
        out.add(Row(f"{name}: action p50", percentile(times, 50) * ms, "ms"))
        out.add(Row(f"{name}: action p99", percentile(times, 99) * ms, "ms"))
        worker, index = fig["max_at"]
        out.add(
            Row(
                f"{name}: action max",
                max(times) * ms,
                "ms",
                note=f"worker {worker}, its action {index}",
            )
        )
    out.notes.append(
        "order per round: "
        + ", ".join(f"{b} x{w}" for b, w in CONFIGS)
        + "; two rounds, the better one per configuration"
        + (
            ""
            if load is None
            else f"; 1-minute load average before the run {load:.2f} on {os.cpu_count()} CPUs"
        )
    )
    out.notes.append(
        "every worker also runs the engine in-process (no worker pool): on a "
        "machine with few cores more workers share the same CPUs"
    )
    return out


if __name__ == "__main__":
    target, tables_arg, actions_arg, seed_arg = sys.argv[1:5]
    print(json.dumps(asyncio.run(_work(target, int(tables_arg), int(actions_arg), int(seed_arg)))))
