"""Benchmark of AI strength: two-player matches in duplicate format.

Per variant (standard rules), deal ``i`` (the first deal of a game with seed
``config.seed + i``) is played twice with the same cards, the two AIs swapping seats, so
luck of the deal cancels out. A hand's winner is the seat that went out, else the one
with the fewest penalty points (:func:`benchmarks.ai.deal_winners`; ties count half).
The share of hands won by the first AI comes with a 95 % confidence interval over the
deal pairs (each pair scores 0, 1/4, ... 1; normal approximation, so the interval is
honest about the pairs' correlation), and so does its *points per hand*: the deal's
score of the first AI less the second's in the variant's own scoring, counted positive
when it favours the first AI (fewer points where the scoring counts penalties, as German
Rommé does), which says whether winning more hands also wins more points. Every
decision of the first AI is timed as the service makes it (a new AI seeded per version,
the view, the legal list, ``decide``), in wall time and in CPU time of the process
(printed with the load average: on a shared machine the wall time follows the load).

Matches: ``hard`` against ``greedy`` (target: at least 60 %), ``greedy`` against
``random`` (target: at least 95 %), ``expert`` against ``hard`` (target: at least 55 %,
the interval's lower bound above 52 %, a lead in points per hand; 1,200 deal pairs, 2,400
hands, measure a share to about +-2 % at 95 %) and ``expert`` against ``greedy``. The
expert's decisions have a p99 target of 500 ms (its budget is counted in playouts, not
time: :data:`engine.ai.expert.BUDGETS`). A full run of the expert's matches takes hours
on a small machine; ``--quick`` plays a few pairs of each.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, field
from fractions import Fraction

from benchmarks.ai import MAX_ACTIONS, deal_winners
from benchmarks.heap import NOTE as HEAP_NOTE
from benchmarks.heap import WorkerHeap, worker_heap
from benchmarks.report import BenchConfig, Row, Section, median, percentile
from engine.ai import make_ai
from engine.dealing import new_game
from engine.game import apply, legal_actions
from engine.rules import RuleSet, make_rules
from engine.state import Phase
from engine.views import view_for

__all__ = ["MATCHES", "PAIRS", "Match", "match", "run"]

VARIANTS: tuple[str, ...] = ("basic", "500", "german", "romanian")
#: (first AI, second AI, target share of the first in %, or ``None``).
MATCHES: tuple[tuple[str, str, float | None], ...] = (
    ("hard", "greedy", 60.0),
    ("greedy", "random", 95.0),
    ("expert", "hard", 55.0),
    ("expert", "greedy", None),
)
#: Deal pairs per variant and match: (full run, quick run); each pair is two hands.
PAIRS = (300, 3)
#: Deal pairs of a match that differ from :data:`PAIRS` (full run, quick run).
MATCH_PAIRS: dict[tuple[str, str], tuple[int, int]] = {
    ("expert", "hard"): (1200, 2),
    ("expert", "greedy"): (300, 2),
}
#: The first AI's decision p99 target in ms.
DECISION_TARGET_MS: dict[str, float] = {"hard": 200.0, "expert": 500.0}
#: The lower bound of the 95 % interval the expert's share against hard must exceed (%).
EXPERT_LOWER_BOUND = 52.0
_LIVE = (Phase.DRAW, Phase.PLAY)


@dataclass
class Match:
    """A duplicate match: ``pair_scores`` (the first AI's share of each deal pair, 0..1),
    ``pair_points`` (the first AI's mean score lead over the pair's two hands),
    ``decision_ms`` of the first AI (wall time; ``slowest``: the deal seed and table
    version of the slowest) and ``decision_cpu_ms`` (CPU time of the process for the same
    decisions, in the same order: on a shared machine the wall time follows the load, the
    CPU time is what the decision costs a worker of its own), hands ``unfinished``
    (stopped at the action limit)."""

    first: str
    second: str
    pair_scores: list[Fraction] = field(default_factory=list)
    pair_points: list[float] = field(default_factory=list)
    decision_ms: list[float] = field(default_factory=list)
    decision_cpu_ms: list[float] = field(default_factory=list)
    unfinished: int = 0
    seconds: float = 0.0
    slowest: tuple[int, int] | None = None
    slowest_ms: float = -1.0

    @property
    def hands(self) -> int:
        """Hands that counted (two per scored pair)."""
        return 2 * len(self.pair_scores)

    @property
    def share(self) -> float | None:
        """The first AI's share of the hands in percent."""
        if not self.pair_scores:
            return None
        return float(sum(self.pair_scores) * 100 / len(self.pair_scores))

    @property
    def interval(self) -> tuple[float, float] | None:
        """95 % confidence interval of :attr:`share` (percent) over the deal pairs."""
        found = _interval([float(s) for s in self.pair_scores])
        if found is None:
            return None
        return (max(0.0, found[0]) * 100, min(1.0, found[1]) * 100)

    @property
    def points(self) -> float | None:
        """The first AI's mean score lead per hand (points of the variant's scoring)."""
        return sum(self.pair_points) / len(self.pair_points) if self.pair_points else None

    @property
    def points_interval(self) -> tuple[float, float] | None:
        """95 % confidence interval of :attr:`points` over the deal pairs."""
        return _interval(self.pair_points)


def _bound_note(first: str, second: str, low: float) -> str:
    """The expert-vs-hard target on the interval's lower bound, said beside the share."""
    if (first, second) != ("expert", "hard"):
        return ""
    verdict = "ok" if low > EXPERT_LOWER_BOUND else "MISSED"
    return f"; lower bound {low:.1f} % (target > {EXPERT_LOWER_BOUND:.0f} %: {verdict})"


def _max_input(result: Match) -> str:
    """Where the slowest decision was (deal seed and table version), when known."""
    if result.slowest is None:
        return ""
    seed, version = result.slowest
    return f" (deal seed {seed}, version {version})"


def _load() -> str:
    """The machine's load average over 1, 5 and 15 minutes (``?`` where it is not known):
    printed beside decision times, which follow it on a shared machine."""
    try:
        return " ".join(f"{v:.1f}" for v in os.getloadavg())
    except OSError:
        return "?"


def _interval(values: list[float]) -> tuple[float, float] | None:
    """Mean +- 1.96 standard errors, ``None`` for fewer than two values."""
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return (mean - half, mean + half)


def _hand(
    rules: RuleSet, kinds: tuple[str, str], seed: int, timed: int, out: Match, heap: WorkerHeap
) -> tuple[Fraction, float] | None:
    """One hand of the deal ``seed`` with ``kinds[s]`` at seat ``s``: the share of seat
    ``timed`` (whose decisions are timed; ``heap`` collects after each decision, as a
    worker after each reply) and its score lead, ``None`` when it did not finish."""
    state = new_game(rules, ("ana", "ben"), seed=seed)
    count = 0
    while state.phase in _LIVE and count < MAX_ACTIONS:
        seat = state.current
        start, cpu = time.perf_counter(), time.process_time()
        ai = make_ai(kinds[seat], seed=seed + 7919 * state.version + seat)
        action = ai.decide(view_for(state, seat), legal_actions(state, seat))
        if seat == timed:
            spent = (time.perf_counter() - start) * 1000
            out.decision_cpu_ms.append((time.process_time() - cpu) * 1000)
            if spent > out.slowest_ms:
                out.slowest, out.slowest_ms = (seed, state.version), spent
            out.decision_ms.append(spent)
        heap.after_call()
        state, _ = apply(state, action)
        count += 1
    winners = deal_winners(state) if state.phase not in _LIVE else ()
    if not winners:
        out.unfinished += 1
        return None
    scores = state.results[-1].scores
    lead = _better(rules) * float(scores[timed] - scores[1 - timed])
    return (Fraction(1, len(winners)) if timed in winners else Fraction(0)), lead


def _better(rules: RuleSet) -> int:
    """+1 when the variant's scoring favours the higher total, -1 when the lower (penalty
    points, as German Rommé counts them): asked of its own match winners."""
    return 1 if rules.var.match_winners(rules, (Fraction(1), Fraction(0))) == (0,) else -1


def match(rules: RuleSet, first: str, second: str, pairs: int, seed: int) -> Match:
    """``pairs`` deals, each played with ``first`` at seat 0 and then at seat 1."""
    out = Match(first, second)
    begin = time.perf_counter()
    with worker_heap() as heap:
        for pair in range(pairs):
            deal = seed + pair
            a = _hand(rules, (first, second), deal, 0, out, heap)
            b = _hand(rules, (second, first), deal, 1, out, heap)
            if a is not None and b is not None:
                out.pair_scores.append((a[0] + b[0]) / 2)
                out.pair_points.append((a[1] + b[1]) / 2)
    out.seconds = time.perf_counter() - begin
    return out


def run(config: BenchConfig) -> Section:
    """Per variant and match: the first AI's share with its interval, decision times."""
    section = Section("AI strength: duplicate two-player matches")
    for variant in VARIANTS:
        rules = make_rules(variant)
        for first, second, target in MATCHES:
            pairs = MATCH_PAIRS.get((first, second), PAIRS)[config.quick]
            result = match(rules, first, second, pairs, config.seed)
            low, high = result.interval or (0.0, 100.0)
            section.add(
                Row(
                    f"{variant}: {first} vs {second}, hands won",
                    result.share,
                    "%",
                    target,
                    "higher",
                    f"95% CI {low:.1f}-{high:.1f} %, {result.hands} hands "
                    f"({len(result.pair_scores)} deal pairs), {result.unfinished} unfinished, "
                    f"{result.seconds:.0f} s" + _bound_note(first, second, low),
                )
            )
            points = result.points
            p_low, p_high = result.points_interval or (0.0, 0.0)
            section.add(
                Row(
                    f"{variant}: {first} vs {second}, points per hand",
                    points,
                    "pts",
                    None,
                    "higher",
                    f"95% CI {p_low:+.1f} to {p_high:+.1f}",
                )
            )
            times = result.decision_ms or [0.0]
            cpu = result.decision_cpu_ms or [0.0]
            label = f"{variant}: {first} decision p50 / p99"
            if first == "expert":  # two expert matches per variant: say which one
                label += f" (vs {second})"
            section.add(
                Row(
                    label,
                    percentile(times, 99),
                    "ms",
                    DECISION_TARGET_MS.get(first),
                    "lower",
                    f"p50 {median(times):.1f} ms, max {max(times):.1f} ms{_max_input(result)}; "
                    f"CPU p50 {median(cpu):.1f} ms, p99 {percentile(cpu, 99):.1f} ms, "
                    f"max {max(cpu):.1f} ms; load {_load()}",
                )
            )
    section.notes.append(
        "Duplicate format: every deal is played twice with the same cards and the AIs in "
        "swapped seats; the interval is over the deal pairs. A hand is the first deal of a "
        "new game; the winner went out, else had the fewest points left (ties half)."
    )
    section.notes.append(HEAP_NOTE)
    return section
