"""Press latency, before and after: ``python -m benchmarks.press [--before TREE]``.

Runs :mod:`benchmarks.press_child` (a table of three people whose every move is a press,
beside 0 or 100 busy AI tables) in a fresh process per run, alternating this checkout (A)
and, with ``--before``, another checkout of the project (B, run with that tree's own
interpreter, ``TREE/.venv/bin/python``) in the order A B A B, and prints per tree and load
the press-to-answer and press-to-every-other-screen times: p50, p99, max (milliseconds),
with the load average before each run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = Path(__file__).with_name("press_child.py")
HERE = Path(__file__).resolve().parents[1]


def _run(tree: Path, busy: int, presses: int, seed: int) -> dict[str, object]:
    python = tree / ".venv" / "bin" / "python"
    env = {**os.environ, "PYTHONPATH": str(tree)}
    load = os.getloadavg()[0]
    done = subprocess.run(
        [
            str(python if python.exists() else sys.executable),
            str(CHILD),
            "--busy",
            str(busy),
            "--presses",
            str(presses),
            "--seed",
            str(seed),
        ],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    result["load"] = load
    return result


def _figures(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return f"p50 {statistics.median(ms):6.1f}  p99 {p99:6.1f}  max {ms[-1]:6.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--before",
        type=Path,
        default=None,
        help="another checkout to compare with (alternating runs)",
    )
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--busy", default="0,100", help="busy AI tables, comma-separated")
    args = parser.parse_args()
    trees = [("A (this checkout)", HERE)]
    if args.before is not None:
        trees.append(("B (" + str(args.before) + ")", args.before.resolve()))
    results: dict[tuple[str, int], list[dict[str, object]]] = {}
    for busy in (int(b) for b in args.busy.split(",")):
        for round_ in range(args.rounds):
            for name, tree in trees:
                run = _run(tree, busy, args.presses, 7 + round_)
                results.setdefault((name, busy), []).append(run)
                print(
                    f"  ran {name}, busy {busy}, round {round_ + 1}: load "
                    f"{run['load']:.2f}, tree {run['tree']}",
                    file=sys.stderr,
                    flush=True,
                )
    print(
        f"{'tree':<40} {'busy':>4}  {'press -> answer (ms)':<34} "
        f"{'press -> every other screen (ms)':<34} loads"
    )
    slowest = []
    for (name, busy), runs in results.items():
        answers = [t for r in runs for t in r["answer"]]  # type: ignore[attr-defined]
        others = [t for r in runs for t in r["others"]]  # type: ignore[attr-defined]
        commands = [c for r in runs for c in r["commands"]]  # type: ignore[attr-defined]
        loads = " ".join(f"{r['load']:.2f}" for r in runs)
        print(
            f"{name:<40} {busy:>4}  {_figures(answers):<34} {_figures(others):<34} "
            f"{loads}  ({len(answers)} presses)"
        )
        worst = max(range(len(others)), key=others.__getitem__)
        slowest.append(
            f"  {name}, busy {busy}: the slowest press ({others[worst] * 1000:.1f}"
            f" ms to every screen) was {commands[worst]}, press {worst + 1}"
        )
    print("\n".join(slowest))


if __name__ == "__main__":
    main()
