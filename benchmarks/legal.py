"""Benchmark of the legal-move generator's worst cases: :func:`engine.game.legal_actions`
per call over random-option games.

Per variant, two-player games under option sets drawn at random from the options that
change what may be played (:data:`OPTION_SPACE`), both seats random players (their racks
grow large, the hardest positions for the generator), each game until its first deal
ends or :data:`MAX_ACTIONS`. Every call of ``legal_actions`` for the seat to move is
timed; the report gives p50, p99 and max, and the position of the max (game, action,
hand size, options). Game ``i`` uses seed ``config.seed + i`` and its option set from a
generator seeded the same way, so a max can be replayed. The stored corpus of the 50
slowest Romanian going-out questions (:mod:`benchmarks.cover_corpus`) is timed too (its
three quickest in a quick run), the slowest named by game seed and action.

The interpreter's cyclic garbage collector runs between the timed calls, as in the
engine workers (:func:`benchmarks.heap.worker_heap`, :mod:`bot.service.collector`); its
longest run is measured (``gc.callbacks``) and printed, and is in no timed call.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from benchmarks.heap import NOTE as HEAP_NOTE
from benchmarks.heap import Collections, worker_heap
from benchmarks.report import BenchConfig, Row, Section, median, percentile
from engine.ai import make_ai
from engine.dealing import new_game
from engine.game import apply_legal, legal_actions
from engine.options import OptionValue
from engine.rules import make_rules
from engine.state import Phase
from engine.views import view_for

__all__ = [
    "GAMES",
    "MAX_TARGET_MS",
    "OPTION_SPACE",
    "P99_TARGET_MS",
    "Latency",
    "run",
    "timed_games",
]

#: The options drawn per game: name -> the values drawn from (uniformly).
OPTION_SPACE: dict[str, dict[str, tuple[OptionValue, ...]]] = {
    "basic": {
        "jokers": (0, 2, 4),
        "joker_swap": (False, True),
        "multiple_melds": (False, True),
        "layoff_after_meld": (False, True),
        "ace": ("low", "high_or_low", "around"),
        "final_discard": (False, True),
        "reuses": (0, 2, None),
    },
    "500": {
        "jokers": (False, True),
        "take_must_meld": (False, True),
        "take_new_meld": (False, True),
        "calling": ("any", "last_layoff", "off"),
        "going_out": ("any", "discard", "float", "unplayable"),
    },
    "german": {
        "four_jokers": (False, True),
        "around": (False, True),
        "opening": (30, 40, 50),
        "set_swap_four": (False, True),
        "open_turn_play": (False, True),
        "one_layoff": (False, True),
        "closing_layoffs": (False, True),
        "dealer_extra": (False, True),
    },
    "romanian": {
        "opening": (25, 50, 100, 200),
        "opening_take": (False, True),
        "preplay": (False, True),
        "renewals": (0, 1, 2, None),
    },
}
#: Games per variant: (full run, quick run). The issue's figure is Romanian over 1,000.
GAMES: dict[str, tuple[int, int]] = {
    "basic": (200, 8),
    "500": (200, 8),
    "german": (200, 8),
    "romanian": (1000, 8),
}
MAX_ACTIONS = 3000
P99_TARGET_MS = 5.0
MAX_TARGET_MS = 50.0


@dataclass
class Latency:
    """Timed calls of one variant: ``ms`` per call, the ``worst`` (ms, game, action, hand
    size, options) and the longest garbage collection between the calls (``gc_ms``)."""

    ms: list[float] = field(default_factory=list)
    worst: tuple[float, int, int, int, dict[str, OptionValue]] = (0.0, 0, 0, 0, {})
    gc_ms: float = 0.0
    games: int = 0
    in_calls: int = 0  # collections that started inside a timed call (must stay 0)


def _options(variant: str, rng: random.Random) -> dict[str, OptionValue]:
    return {name: rng.choice(values) for name, values in OPTION_SPACE[variant].items()}


def timed_games(variant: str, games: int, seed: int) -> Latency:
    """Play ``games`` random-option games of ``variant`` (first deal each) and time every
    ``legal_actions`` call of the seat to move, on a frozen start-up heap, collecting
    garbage after each call (:func:`benchmarks.heap.worker_heap`)."""
    out = Latency(games=games)
    # the heap first: its own collection at the start is not one of the run's
    with worker_heap() as heap, Collections() as collections:
        for game in range(games):
            options = _options(variant, random.Random(seed + game))
            state = new_game(make_rules(variant, options=options), ["ana", "ben"], seed=seed + game)
            seats = [make_ai("random", (seed + game) * 2 + s) for s in range(2)]
            for step in range(MAX_ACTIONS):
                if state.phase not in (Phase.DRAW, Phase.PLAY):
                    break
                seat = state.current
                collections.timing = True
                start = time.perf_counter()
                legal = legal_actions(state, seat)
                ms = (time.perf_counter() - start) * 1000
                collections.timing = False
                out.ms.append(ms)
                if ms > out.worst[0]:
                    out.worst = (ms, seed + game, step, len(state.hands[seat]), options)
                heap.after_call()
                action = seats[seat].decide(view_for(state, seat), legal)
                state, _ = apply_legal(state, action)
    out.gc_ms, out.in_calls = collections.longest_ms, collections.inside
    return out


def run(config: BenchConfig) -> Section:
    """The section: per variant p50 / p99 / max of ``legal_actions``."""
    section = Section("Legal moves: legal_actions per call, random-option games, random play")
    for variant, counts in GAMES.items():
        games = counts[1] if config.quick else counts[0]
        result = timed_games(variant, games, config.seed)
        ms, worst = result.ms, result.worst
        section.add(
            Row(
                f"{variant}: p50",
                median(ms),
                "ms",
                None,
                "lower",
                f"{len(ms):,} calls in {games} games",
            )
        )
        section.add(Row(f"{variant}: p99", percentile(ms, 99), "ms", P99_TARGET_MS, "lower"))
        section.add(
            Row(
                f"{variant}: max",
                worst[0],
                "ms",
                MAX_TARGET_MS,
                "lower",
                f"longest collection between calls {result.gc_ms:.1f} ms",
            )
        )
        section.add(
            Row(
                f"{variant}: collections inside timed calls",
                result.in_calls,
                "calls",
                0,
                "lower",
                "the collector runs between calls",
            )
        )
        section.notes.append(
            f"{variant} max {worst[0]:.1f} ms: game seed {worst[1]}, action {worst[2]}, "
            f"{worst[3]} cards in hand, options {worst[4]}"
        )
    _corpus_rows(section, config)
    section.notes.append(
        "Both seats play at random (racks grow to 40-70 tiles in Romanian games). Python's "
        "cyclic garbage collector runs after each timed call, never inside one, as in the "
        "engine workers (its longest run is printed)."
    )
    section.notes.append(HEAP_NOTE)
    return section


#: Questions of the stored corpus timed in a quick run (the quickest of it).
QUICK_CORPUS = 3


def _corpus_rows(section: Section, config: BenchConfig) -> None:
    """The stored corpus of the slowest Romanian going-out questions
    (:mod:`benchmarks.cover_corpus`), each asked once more: p50 and max, the max named."""
    from benchmarks.cover_corpus import load, timed

    questions = load()
    if config.quick:
        questions = questions[-QUICK_CORPUS:]
    figures = timed(questions)
    ms = [m for m, _ in figures]
    worst, q = max(figures, key=lambda f: f[0])
    section.add(
        Row(
            "romanian going-out corpus: p50",
            median(ms),
            "ms",
            None,
            "lower",
            f"{len(ms)} stored questions (benchmarks/romanian_cover_corpus.json)",
        )
    )
    section.add(Row("romanian going-out corpus: max", worst, "ms", MAX_TARGET_MS, "lower"))
    section.notes.append(
        f"romanian going-out corpus max {worst:.1f} ms: game seed {q.seed}, action {q.action}, "
        f"{len(q.hand)} tiles, {'a way out' if q.found else 'no way out'}"
    )
