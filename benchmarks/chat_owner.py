"""A change committed by another worker: how long until the chat's owner shows it.

``python -m benchmarks.chat_owner`` (or ``rummy-bot bench --only chat_owner``). Several
workers on one PostgreSQL database: one shows a chat (its owner,
:mod:`bot.service.delivery`), a move may land on any of them. On a fresh throwaway server,
the owner (:mod:`benchmarks.chat_owner_child`, its own process) opens ``TABLES`` tables of
two people; this process, a second worker with no chat front end, then makes their moves
(draw, discard) one every ``PACE`` seconds round the tables. For every move: the time from
the moment its commit returned here to the moment the owner handed the change to its chat
notifier (the change feed's announcement, the owner's load of the table and the change
rows, the screens). Printed: p50, p99 and max in milliseconds, the move of the max, and
changes never shown (which would be a defect), with the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.report import BenchConfig, Row, Section, skipped_without_postgres

__all__ = ["main", "run"]

CHILD = Path(__file__).resolve().with_name("chat_owner_child.py")


@dataclass
class Timing:
    """``tables`` tables, ``moves`` moves in all, one every ``pace`` seconds."""

    tables: int = 20
    moves: int = 400
    pace: float = 0.05


@dataclass
class Result:
    load: float
    latencies: list[tuple[float, int, int, str]] = field(default_factory=list)
    unseen: list[tuple[int, int]] = field(default_factory=list)


async def _moves(url: str, ids: list[int], timing: Timing) -> list[tuple[int, int, str, float]]:
    """Make the moves as the second worker: (table id, version, move, commit returned)."""
    from benchmarks.chat_owner_child import SETTINGS, chat, people
    from bot.ports.intents import InChat, Intent, Move
    from bot.service.flow import FlowControl
    from bot.service.service import GameService
    from bot.storage.postgres import PostgresRepository, open_postgres
    from engine.game import current_player

    db = await open_postgres(url, max_size=4)
    done: list[tuple[int, int, str, float]] = []
    try:
        service = GameService(
            PostgresRepository(db), {}, defaults=SETTINGS, seed_source=lambda: 7, worker_id="mover"
        )
        service.flow = FlowControl(limited=False)
        n = 0
        while len(done) < timing.moves:
            index = n % len(ids)
            n += 1
            table = await service.repo.get_table(ids[index])
            assert table is not None and table.state is not None
            seat = current_player(table.state)
            if seat is None:
                continue  # between deals: the owner's scheduler deals again
            user = people(index)[seat]
            commands = await service.queries.legal_commands(chat(index), user)
            move = (
                "draw"
                if "draw" in commands
                else next((c for c in commands if c.startswith("discard")), None)
            )
            if move is None:
                continue
            outcome = await service.entry.handle(
                Intent(Move(tuple(move.split())), user, InChat(chat(index)))
            )
            returned = time.monotonic()
            if outcome.error is None and outcome.info is not None:
                done.append((outcome.info.id, outcome.info.version, move, returned))
            await asyncio.sleep(timing.pace)
    finally:
        await db.close()
    return done


def measure(timing: Timing) -> Result:
    """One run on a fresh server (see the module docstring)."""
    from devsupport.pg_server import running_server

    with running_server() as server, tempfile.TemporaryDirectory() as folder:
        url = server.create("owner")
        out = Path(folder) / "shown.jsonl"
        load = os.getloadavg()[0]
        env = {**os.environ, "LOG_LEVEL": "WARNING"}
        child = subprocess.Popen(
            [
                sys.executable,
                str(CHILD),
                "--url",
                url,
                "--tables",
                str(timing.tables),
                "--out",
                str(out),
            ],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        try:
            assert child.stdout is not None
            line = child.stdout.readline()
            if not line.startswith("ready"):
                raise RuntimeError(f"the owner did not start: {line!r}")
            ids = json.loads(line.split(" ", 1)[1])
            moves = asyncio.run(_moves(url, ids, timing))
            time.sleep(3.0)  # the owner's feed and sweep catch up
        finally:
            child.send_signal(signal.SIGTERM)
            child.wait(30)
        shown: dict[tuple[int, int], float] = {}
        for row in out.read_text(encoding="utf-8").splitlines():
            table_id, version, at = json.loads(row)
            shown.setdefault((table_id, version), at)
    result = Result(load)
    for table_id, version, move, returned in moves:
        # a change may be drawn together with a later one (the owner showed both at once)
        at = min(
            (t for (tid, v), t in shown.items() if tid == table_id and v >= version), default=None
        )
        if at is None:
            result.unseen.append((table_id, version))
        else:
            result.latencies.append((at - returned, table_id, version, move))
    return result


def _figures(result: Result) -> tuple[float, float, float, str]:
    ms = sorted(result.latencies)
    values = [x[0] * 1000 for x in ms]
    p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
    worst = ms[-1]
    return (
        statistics.median(values),
        p99,
        values[-1],
        f"table {worst[1]} version {worst[2]} ({worst[3]})",
    )


def run(config: BenchConfig) -> Section:
    """The section of ``rummy-bot bench``."""
    out = Section("Another worker's change shown by the chat's owner (PostgreSQL, 2 workers)")
    if skipped_without_postgres(out):
        return out
    timing = Timing(tables=4, moves=40) if config.quick else Timing()
    result = measure(timing)
    if result.latencies:
        p50, p99, worst, where = _figures(result)
        out.add(Row("commit to shown by the owner, p50", p50, "ms"))
        out.add(Row("commit to shown by the owner, p99", p99, "ms"))
        out.add(Row("commit to shown by the owner, max", worst, "ms", note=where))
    out.add(Row("changes never shown", len(result.unseen), "changes", target=0))
    out.notes.append(
        f"{timing.tables} tables of two people, {timing.moves} moves one every "
        f"{timing.pace * 1000:.0f} ms; load average {result.load:.2f} before, "
        f"{os.getloadavg()[0]:.2f} after, {os.cpu_count()} CPUs"
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=Timing.tables)
    parser.add_argument("--moves", type=int, default=Timing.moves)
    parser.add_argument("--pace", type=float, default=Timing.pace)
    args = parser.parse_args()
    timing = Timing(args.tables, args.moves, args.pace)
    result = measure(timing)
    if result.latencies:
        p50, p99, worst, where = _figures(result)
        print(
            f"commit to shown by the owner: p50 {p50:.1f} ms, p99 {p99:.1f} ms, max "
            f"{worst:.1f} ms ({where}) over {len(result.latencies)} moves"
        )
    print(f"changes never shown: {len(result.unseen)} {result.unseen[:5]}")
    print(
        f"{timing.tables} tables, one move every {timing.pace * 1000:.0f} ms; load average "
        f"{result.load:.2f} before, {os.getloadavg()[0]:.2f} after"
    )


if __name__ == "__main__":
    main()
