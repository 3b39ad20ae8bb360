"""Benchmark of the default AI: decision time per variant and win share against random play.

Per variant (standard rules), two-player hands of the default AI (``"greedy"``) against
``"random"``: hand ``i`` is the first deal of a game with seed ``config.seed + i``; the
greedy seat alternates every hand and the dealer every two hands, so each seat/dealer
combination is played equally often.

*Decision time* is what the bot service spends choosing one AI action
(``Service._ai_action`` in :mod:`bot.service.service`): a new AI from
:func:`engine.ai.make_ai` seeded as the service seeds it, the seat's view
(:func:`engine.views.view_for`), the legal list (:func:`engine.game.legal_actions`) and
``decide``. Every greedy decision of the hands is timed.

*Win share*: the hand's winner is the seat that went out; when nobody went out, the seat
with the fewest penalty points left in hand; ties count half. Hands stopped at
:data:`MAX_ACTIONS` are left out and reported.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction

from benchmarks.heap import NOTE as HEAP_NOTE
from benchmarks.heap import WorkerHeap, worker_heap
from benchmarks.report import BenchConfig, Row, Section, median, percentile
from engine.ai import make_ai
from engine.dealing import new_game
from engine.game import apply, legal_actions
from engine.rules import RuleSet, make_rules
from engine.simulate import seat_seed
from engine.state import GameState, Phase
from engine.views import view_for

__all__ = ["HANDS", "VARIANTS", "Duel", "deal_winners", "duel", "run"]

VARIANTS: tuple[str, ...] = ("basic", "500", "german", "romanian")
#: Hands per variant: (full run, quick run).
HANDS = (500, 20)
WIN_TARGET = 95.0
MAX_ACTIONS = 5000
_LIVE = (Phase.DRAW, Phase.PLAY)


@dataclass
class Duel:
    """Greedy against random over some hands.

    ``greedy_wins``: hands won by the greedy seat (ties half). ``finished``: hands that
    ended. ``no_winner``: finished hands nobody went out of. ``decision_ms``: every
    greedy decision through the service path (ms); ``decide_ms``: ``decide`` alone.
    """

    hands: int = 0
    finished: int = 0
    no_winner: int = 0
    greedy_wins: Fraction = Fraction(0)
    decision_ms: list[float] = field(default_factory=list)
    decide_ms: list[float] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def win_share(self) -> float | None:
        """Greedy's share of the finished hands in percent (``None`` when none finished)."""
        return float(self.greedy_wins * 100 / self.finished) if self.finished else None


def deal_winners(state: GameState) -> tuple[int, ...]:
    """The seats that won the last finished deal of ``state``: the one that went out, else
    those with the fewest penalty points left in hand; ``()`` without a scored deal."""
    if not state.results:
        return ()
    result = state.results[-1]
    if result.winner is not None:
        return (result.winner,)
    least = min(result.points)
    return tuple(seat for seat, points in enumerate(result.points) if points == least)


def duel(rules: RuleSet, hands: int, seed: int) -> Duel:
    """Play ``hands`` single deals of greedy against random under ``rules``, timing every
    greedy decision as the service makes it."""
    out = Duel(hands=hands)
    with worker_heap() as heap:
        _duel(rules, hands, seed, out, heap)
    return out


def _duel(rules: RuleSet, hands: int, seed: int, out: Duel, heap: WorkerHeap) -> None:
    clock = time.perf_counter_ns
    begin = time.perf_counter()
    for hand in range(hands):
        greedy = hand % 2
        game_seed = seed + hand
        state = new_game(rules, ("ana", "ben"), seed=game_seed, dealer=(hand // 2) % 2)
        opponent = make_ai("random", seat_seed(seed, hand, 1 - greedy))
        count = 0
        while state.phase in _LIVE and count < MAX_ACTIONS:
            seat = state.current
            if seat == greedy:
                start = clock()
                ai = make_ai("greedy", seed=game_seed + 7919 * state.version + seat)
                view = view_for(state, seat)
                legal = legal_actions(state, seat)
                chosen = clock()
                action = ai.decide(view, legal)
                end = clock()
                out.decision_ms.append((end - start) / 1e6)
                out.decide_ms.append((end - chosen) / 1e6)
                heap.after_call()  # as a worker collects after each reply
            else:
                action = opponent.decide(view_for(state, seat), legal_actions(state, seat))
            state, _ = apply(state, action)
            count += 1
        if state.phase in _LIVE:
            continue
        winners = deal_winners(state)
        if not winners:
            continue
        out.finished += 1
        out.no_winner += state.results[-1].winner is None
        if greedy in winners:
            out.greedy_wins += Fraction(1, len(winners))
    out.seconds = time.perf_counter() - begin


def run(config: BenchConfig) -> Section:
    """Decision time p50/p99 and win share against random play, per variant."""
    hands = HANDS[config.quick]
    section = Section("Default AI (greedy): decision time and win share against random play")
    for variant in VARIANTS:
        result = duel(make_rules(variant), hands, config.seed)
        times = result.decision_ms or [0.0]
        section.add(
            Row(
                f"{variant}: decision p50",
                median(times),
                "ms",
                None,
                "lower",
                f"{len(result.decision_ms)} decisions; decide() alone "
                f"{median(result.decide_ms or [0.0]):.3f} ms",
            )
        )
        section.add(
            Row(
                f"{variant}: decision p99",
                percentile(times, 99),
                "ms",
                None,
                "lower",
                f"max {max(times):.1f} ms",
            )
        )
        note = f"{result.finished} of {hands} hands"
        if config.quick:
            note += " (quick run; the full run plays 500)"
        if result.no_winner:
            note += f", {result.no_winner} without a winner (fewest points won)"
        if result.finished < hands:
            note += f", {hands - result.finished} stopped at {MAX_ACTIONS} actions"
        note += f", {result.seconds:.1f} s"
        section.add(
            Row(
                f"{variant}: win share vs random", result.win_share, "%", WIN_TARGET, "higher", note
            )
        )
    section.notes.append(
        "Decision = make_ai + view_for + legal_actions + decide, as Service._ai_action does "
        "it; standard rules of each variant; the greedy seat alternates every hand, the "
        "dealer every two hands; a hand is the first deal of a new game."
    )
    section.notes.append(HEAP_NOTE)
    return section
