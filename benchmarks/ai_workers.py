"""All-AI due work: committed actions/s and statements per AI action with 1, 2 or 4 worker
processes, this checkout against another one (alternating).

``python -m benchmarks.ai_workers [--before TREE]`` (or ``rummy-bot bench --only
ai_workers``, this checkout alone unless ``RUMMY_BENCH_BEFORE=TREE`` is set). For every
configuration (SQLite x1, PostgreSQL x1, x2, x4) and round, each tree in turn (A B A B):
a fresh database gets ``TABLES`` busy all-AI tables (every seat played by the AI, no
delays: every table is always due), created by that tree's own code; then ``W`` bot
processes of that tree (:mod:`benchmarks.ai_workers_child`: ``run_bot`` without chat
platforms, engine work in each one's worker pool) run their schedulers on it. After a
warm-up the committed actions (rows of the action log) are read every second for the
window; at its start and end every worker reports how many statements and transactions
it sent (client side, so round trips: see the child). Printed per tree and
configuration: committed actions/s over the window (each round), the p50 and the worst
one-second rate, statements and transactions per committed action, on PostgreSQL the
server's committed transactions per action (``pg_stat_database.xact_commit``, a
cross-check) and the compare-and-set updates that lost (a claim that another worker
had already moved on), with the 1-minute load average before each run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.report import BenchConfig, Row, Section, skipped_without_postgres

__all__ = ["main", "run"]

CHILD = Path(__file__).resolve().with_name("ai_workers_child.py")
HERE = Path(__file__).resolve().parents[1]
CONFIGS: tuple[tuple[str, int], ...] = (
    ("sqlite", 1),
    ("postgres", 1),
    ("postgres", 2),
    ("postgres", 4),
)


@dataclass
class Timing:
    """How long one run lasts: ``tables`` busy tables, ``warm`` seconds before and
    ``window`` seconds of measurement, ``rounds`` per configuration and tree."""

    tables: int = 24
    warm: float = 3.0
    window: float = 8.0
    rounds: int = 2


@dataclass
class Result:
    """One run of one tree and configuration."""

    load: float
    rate: float
    seconds: list[float] = field(default_factory=list)  # actions/s of each second
    counts: Counter[str] = field(default_factory=Counter)
    actions: int = 0
    xact: int | None = None


def _python(tree: Path) -> str:
    own = tree / ".venv" / "bin" / "python"
    return str(own) if own.exists() else sys.executable


def _env(tree: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(tree), "RUMMY_TREE": str(tree), "LOG_LEVEL": "WARNING"}


def _create(tree: Path, target: str, tables: int) -> None:
    subprocess.run(
        [_python(tree), str(CHILD), target, "create", str(tables)],
        cwd=tree,
        env=_env(tree),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )


class _Reader:
    """The committed actions of the database (and the server's committed transactions)."""

    def __init__(self, target: str) -> None:
        self.target = target
        self._pg: Any = None

    async def open(self) -> None:
        if self.target.startswith("postgresql://"):
            import asyncpg

            self._pg = await asyncpg.connect(self.target)

    async def actions(self) -> int:
        if self._pg is not None:
            return int(await self._pg.fetchval("SELECT COUNT(*) FROM actions"))
        with sqlite3.connect(self.target, timeout=10) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0])

    async def xact(self) -> int | None:
        if self._pg is None:
            return None
        await self._pg.execute("SELECT pg_stat_clear_snapshot()")
        return int(
            await self._pg.fetchval(
                "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
            )
        )

    async def close(self) -> None:
        if self._pg is not None:
            await self._pg.close()


async def _line(process: subprocess.Popen[str], prefix: str, timeout: float = 60.0) -> str:
    """The next line of ``process`` starting with ``prefix``."""
    assert process.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = await asyncio.wait_for(
            asyncio.to_thread(process.stdout.readline), deadline - time.monotonic()
        )
        if not line:
            err = process.stderr.read() if process.stderr else ""
            raise RuntimeError(f"a bench worker ended: {err[-800:]}")
        if line.startswith(prefix):
            return line
    raise RuntimeError(f"no {prefix} from a bench worker")


async def _snapshot(processes: list[subprocess.Popen[str]]) -> Counter[str]:
    for process in processes:
        process.send_signal(signal.SIGUSR1)
    total: Counter[str] = Counter()
    for process in processes:
        data = json.loads((await _line(process, "SNAP "))[5:])
        data.pop("at", None)
        total.update(data)
    return total


async def _measure(tree: Path, target: str, workers: int, timing: Timing) -> Result:
    load = os.getloadavg()[0]
    processes = [
        subprocess.Popen(
            [_python(tree), str(CHILD), target, "run"],
            cwd=tree,
            env=_env(tree),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(workers)
    ]
    reader = _Reader(target)
    try:
        for process in processes:
            await _line(process, "READY")
        await reader.open()
        await asyncio.sleep(timing.warm)
        xact0 = await reader.xact()
        first = await _snapshot(processes)
        began = time.monotonic()
        start = last = await reader.actions()
        seconds: list[float] = []
        at = began
        while at - began < timing.window - 1e-6:
            await asyncio.sleep(max(began + len(seconds) + 1.0 - time.monotonic(), 0.0))
            now = await reader.actions()
            stamp = time.monotonic()
            seconds.append((now - last) / (stamp - at))
            last, at = now, stamp
        end = await _snapshot(processes)
        elapsed = time.monotonic() - began
        xact1 = await reader.xact()
        total = await reader.actions()
        end.subtract(first)
        # the reader's own transactions: two per second plus the snapshots
        xact = None if xact0 is None or xact1 is None else xact1 - xact0 - 2 * (len(seconds) + 2)
        return Result(load, (total - start) / elapsed, seconds, end, total - start, xact)
    finally:
        await reader.close()
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()


def measure_all(
    trees: list[tuple[str, Path]], timing: Timing, progress: Any = None
) -> dict[tuple[str, str, int], list[Result]]:
    """Every configuration x round x tree (trees alternating); (tree name, backend,
    workers) -> the runs."""
    from devsupport.pg_server import running_server

    results: dict[tuple[str, str, int], list[Result]] = {}
    folder = Path(tempfile.mkdtemp(prefix="rummy-bench-ai-workers-"))
    try:
        with running_server() as server:
            for backend, workers in CONFIGS:
                for round_ in range(timing.rounds):
                    for index, (name, tree) in enumerate(trees):
                        target = (
                            server.create(f"ai{index}")
                            if backend == "postgres"
                            else str(folder / f"{index}-{round_}.sqlite3")
                        )
                        _create(tree, target, timing.tables)
                        result = asyncio.run(_measure(tree, target, workers, timing))
                        results.setdefault((name, backend, workers), []).append(result)
                        if progress is not None:
                            print(
                                f"  {name} {backend} x{workers} round {round_ + 1}: "
                                f"{result.rate:.0f} actions/s, load {result.load:.2f}",
                                file=progress,
                                flush=True,
                            )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return results


def _per(runs: list[Result], key: str) -> float:
    actions = sum(r.actions for r in runs)
    return sum(r.counts[key] for r in runs) / actions if actions else float("nan")


def summary(results: dict[tuple[str, str, int], list[Result]]) -> list[dict[str, Any]]:
    """One dict per (tree, configuration): the figures the table prints."""
    rows = []
    for (name, backend, workers), runs in results.items():
        seconds = [s for r in runs for s in r.seconds]
        actions = sum(r.actions for r in runs)
        commits = sum(r.counts["commits"] for r in runs)
        xacts = [r.xact for r in runs if r.xact is not None]
        kinds: Counter[str] = Counter()
        for r in runs:
            kinds.update({k[5:]: v for k, v in r.counts.items() if k.startswith("kind:")})
        rows.append(
            {
                "tree": name,
                "backend": backend,
                "workers": workers,
                "rates": [r.rate for r in runs],
                "p50": statistics.median(seconds),
                "worst": min(seconds),
                "statements": _per(runs, "statements"),
                "transactions": _per(runs, "transactions"),
                "server_xact": sum(xacts) / actions if xacts and actions else None,
                "lost": (
                    sum(r.counts["lost"] for r in runs) / commits
                    if backend == "postgres" and commits
                    else None
                ),
                "loads": [r.load for r in runs],
                "kinds": {k: v / actions for k, v in kinds.most_common(8)} if actions else {},
            }
        )
    return rows


def format_table(rows: list[dict[str, Any]]) -> str:
    """The printed table (and, below it, the statements per action by kind)."""
    lines = [
        f"{'tree':<28} {'config':<13} {'actions/s (runs)':<17} {'p50 1s':>7} "
        f"{'worst 1s':>8} {'stmt/act':>8} {'tx/act':>7} {'srv tx/act':>10} "
        f"{'lost/commit':>11}  load before each run"
    ]
    for row in rows:
        config = f"{'SQLite' if row['backend'] == 'sqlite' else 'PostgreSQL'} x{row['workers']}"
        rates = "/".join(f"{r:.0f}" for r in row["rates"])
        server = "-" if row["server_xact"] is None else f"{row['server_xact']:.2f}"
        lost = "-" if row["lost"] is None else f"{row['lost']:.3f}"
        lines.append(
            f"{row['tree']:<28} {config:<13} {rates:<17} {row['p50']:>7.0f} "
            f"{row['worst']:>8.0f} {row['statements']:>8.2f} "
            f"{row['transactions']:>7.2f} {server:>10} {lost:>11}  "
            + " ".join(f"{x:.2f}" for x in row["loads"])
        )
    lines.append("")
    lines.append("statements per committed action by kind (client side):")
    for row in rows:
        kinds = ", ".join(f"{k} {v:.2f}" for k, v in row["kinds"].items())
        lines.append(f"  {row['tree']} {row['backend']} x{row['workers']}: {kinds}")
    return "\n".join(lines)


def run(config: BenchConfig) -> Section:
    """The section of ``rummy-bot bench`` (this checkout; with ``RUMMY_BENCH_BEFORE=TREE``
    that tree too, alternating)."""
    out = Section("All-AI due work: worker processes on SQLite and PostgreSQL")
    if skipped_without_postgres(out):
        return out
    trees = [("A (this checkout)", HERE)]
    before = os.environ.get("RUMMY_BENCH_BEFORE")
    if before:
        trees.append((f"B ({before})", Path(before).resolve()))
    # alone, one round keeps the section near a minute and a half
    timing = (
        Timing(tables=8, warm=2.0, window=3.0, rounds=1)
        if config.quick
        else Timing()
        if before
        else Timing(rounds=1)
    )
    rows = summary(measure_all(trees, timing))
    for row in rows:
        name = (
            f"{row['tree'][:1]} {'SQLite' if row['backend'] == 'sqlite' else 'PostgreSQL'}"
            f" x{row['workers']}"
        )
        out.add(
            Row(
                f"{name}: committed actions/s",
                statistics.median(row["rates"]),
                "actions/s",
                better="higher",
                note=f"p50 1 s {row['p50']:.0f}, worst 1 s {row['worst']:.0f}",
            )
        )
        out.add(
            Row(
                f"{name}: statements per action",
                row["statements"],
                "stmt",
                note=f"transactions {row['transactions']:.2f}",
            )
        )
    out.notes.append(
        f"{timing.tables} all-AI tables, {timing.warm:.0f} s warm-up, "
        f"{timing.window:.0f} s window, {timing.rounds} round(s); load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} after the run on "
        f"{os.cpu_count()} CPUs"
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--before",
        type=Path,
        default=None,
        help="another checkout to compare with (alternating runs)",
    )
    parser.add_argument("--tables", type=int, default=Timing.tables)
    parser.add_argument("--warm", type=float, default=Timing.warm)
    parser.add_argument("--window", type=float, default=Timing.window)
    parser.add_argument("--rounds", type=int, default=Timing.rounds)
    parser.add_argument(
        "--only", default=None, help="configurations, e.g. sqlite1,postgres4 (default all)"
    )
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args()
    global CONFIGS
    if args.only:
        wanted = {part.strip() for part in args.only.split(",")}
        CONFIGS = tuple(c for c in CONFIGS if f"{c[0]}{c[1]}" in wanted)
    trees = [("A (this checkout)", HERE)]
    if args.before is not None:
        trees.append((f"B ({args.before})", args.before.resolve()))
    timing = Timing(args.tables, args.warm, args.window, args.rounds)
    began = time.monotonic()
    print(
        f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on "
        f"{os.cpu_count()} CPUs",
        flush=True,
    )
    rows = summary(measure_all(trees, timing, progress=sys.stderr))
    print(format_table(rows))
    print(
        f"{timing.tables} all-AI tables per database, {timing.warm:.0f} s warm-up, "
        f"{timing.window:.0f} s window, {timing.rounds} round(s) per tree and "
        f"configuration, trees alternating; {time.monotonic() - began:.0f} s in all; "
        f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
