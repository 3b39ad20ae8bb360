"""Benchmark of the coach (:mod:`engine.ai.coach`): the time to review one deal of one
seat, and how many notes it writes.

Per variant (standard rules), two-player deals: deal ``i`` is the first deal of a game
with seed ``config.seed + i``; seat 0 is played by the *reviewed* kind, seat 1 by the hard
player. The reviewed kind is the greedy player for the time figures: it plays a
beginner's moves, most of which differ from the hard player's, so the coach evaluates
most of its decisions (the most work a deal gives it). Per deal, the time is
:func:`engine.ai.coach.review_deal` on the seat's decisions with the variant's budget
(:data:`engine.ai.coach.COACH_BUDGETS`), in CPU seconds of the process (the coach runs
in one engine worker process, single-threaded; on a machine shared with other work the
wall time is longer by the load, and is printed beside it).

``python -m benchmarks.coach [--deals N] [--kind greedy|expert|...] [--variant V]``
prints, per variant, p50/p99/max and the deal of the max, and the notes per deal; with
``--kind expert`` it measures the threshold's false alarms (docs/ai.md, "The coach"): a
deal the expert played should get no notes.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from benchmarks.report import BenchConfig, Row, Section, median, percentile
from engine.ai import make_ai
from engine.ai.coach import Decision, deal_decisions, deal_review
from engine.ai.interrupt import interrupt
from engine.dealing import new_game
from engine.game import apply, legal_actions
from engine.rules import make_rules
from engine.simulate import seat_seed
from engine.state import Phase
from engine.views import view_for

__all__ = ["DEALS", "TARGET_SECONDS", "VARIANTS", "CoachTimes", "main", "measure", "run"]

VARIANTS: tuple[str, ...] = ("basic", "500", "german", "romanian")
#: Deals per variant: (full run, quick run).
DEALS = (40, 3)
#: The issue's bound on a deal's review, p99 (seconds).
TARGET_SECONDS = 2.0
MAX_ACTIONS = 600
_LIVE = (Phase.DRAW, Phase.PLAY)


@dataclass
class CoachTimes:
    """The reviews of one variant: per deal the CPU ``seconds`` (and ``wall`` time), the
    notes, the decisions and
    how many were evaluated (``reviewed``); ``seeds``: each deal's game seed."""

    variant: str
    kind: str
    seconds: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    notes: list[int] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)
    reviewed: list[int] = field(default_factory=list)
    seeds: list[int] = field(default_factory=list)

    def slowest(self) -> str:
        """The input of the longest review: game seed, decisions and those evaluated."""
        if not self.seconds:
            return "-"
        at = max(range(len(self.seconds)), key=self.seconds.__getitem__)
        return (
            f"game seed {self.seeds[at]}, {self.decisions[at]} decisions, "
            f"{self.reviewed[at]} evaluated"
        )


def played_deal(variant: str, seed: int, kind: str) -> list[Decision]:
    """The decisions of seat 0 (played by ``kind``; seat 1 the hard player) in the first
    deal of a two-player game of ``variant`` with ``seed``."""
    state = new_game(make_rules(variant), ("ana", "ben"), seed=seed)
    players = [make_ai(kind, seat_seed(seed, 0, 0)), make_ai("hard", seat_seed(seed, 0, 1))]
    steps = []
    for _ in range(MAX_ACTIONS):
        if state.phase not in _LIVE:
            break
        mover = state.current
        called = interrupt(state, players, mover)
        if called is not None:
            state, _ = apply(state, called)
            continue
        view, legal = view_for(state, mover), legal_actions(state, mover)
        action = players[mover].decide(view, legal)
        if mover == 0:
            steps.append((view, legal, action))
        state, _ = apply(state, action)
    return deal_decisions(steps)


def measure(variant: str, deals: int, seed: int, kind: str = "greedy") -> CoachTimes:
    """Review seat 0 in ``deals`` deals of ``variant`` (see the module docstring)."""
    out = CoachTimes(variant, kind)
    for i in range(deals):
        game_seed = seed + i
        decisions = played_deal(variant, game_seed, kind)
        start, wall = time.process_time(), time.perf_counter()
        review = deal_review(decisions, 1, 0, seed=game_seed)
        out.seconds.append(time.process_time() - start)
        out.wall.append(time.perf_counter() - wall)
        out.notes.append(len(review.notes))
        out.decisions.append(review.decisions)
        out.reviewed.append(review.reviewed)
        out.seeds.append(game_seed)
    return out


def run(config: BenchConfig) -> Section:
    """A deal's review time p50/p99/max and notes per deal, per variant."""
    deals = DEALS[config.quick]
    section = Section("Coach: review time per deal and seat")
    for variant in VARIANTS:
        times = measure(variant, deals, config.seed)
        seconds = times.seconds or [0.0]
        section.add(Row(f"{variant}: review p50", median(seconds), "s", None, "lower"))
        section.add(
            Row(
                f"{variant}: review p99",
                percentile(seconds, 99),
                "s",
                TARGET_SECONDS,
                "lower",
                f"max {max(seconds):.2f} s ({times.slowest()})",
            )
        )
        section.add(
            Row(
                f"{variant}: notes per deal",
                sum(times.notes) / len(times.notes) if times.notes else None,
                "",
                None,
                "lower",
                f"{deals} deals, {sum(times.reviewed)} of {sum(times.decisions)} decisions "
                "evaluated",
            )
        )
    section.notes.append(
        "Seat 0 greedy (a beginner's moves), seat 1 hard; the first deal of a two-player "
        "game per seed; deal_review with the variant's COACH_BUDGETS, CPU time of the "
        "process."
    )
    return section


def main(argv: Sequence[str] | None = None) -> int:
    """Print p50/p99/max per variant, the input of the max and the notes per deal."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.coach")
    parser.add_argument("--deals", type=int, default=DEALS[0])
    parser.add_argument("--seed", type=int, default=BenchConfig().seed)
    parser.add_argument("--kind", default="greedy")
    parser.add_argument("--variant", action="append", default=None)
    args = parser.parse_args(argv)
    for variant in args.variant or VARIANTS:
        times = measure(variant, args.deals, args.seed, args.kind)
        seconds = times.seconds or [0.0]
        noted = sum(1 for n in times.notes if n)
        print(
            f"{variant} ({args.kind}, {args.deals} deals): p50 {median(seconds):.2f} s, "
            f"p99 {percentile(seconds, 99):.2f} s, max {max(seconds):.2f} s "
            f"({times.slowest()}); wall p99 {percentile(times.wall or [0.0], 99):.2f} s; "
            f"notes {sum(times.notes)} in {noted} deals, "
            f"{sum(times.reviewed)} of {sum(times.decisions)} decisions evaluated",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
