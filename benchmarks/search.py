"""Benchmark of the best-meld search (the hint and AI call), side by side with rummikub-solver.

Positions (all seeded by ``config.seed``):

- *card hands*: 13 cards drawn from two 52-card packs plus 2 jokers (15 cards);
- *racks*: 12 or 13 tiles drawn from the Romanian 106-tile set (2 x 4 colours x 1..13)
  plus its 2 Jolys (14 or 15 tiles).

Figures:

1. :func:`engine.search.best_melds` per call on hands it has never seen (its per-hand
   cache is cleared before every timed call; the small per-suit caches below it stay
   warm, as in a running bot), under German Rommé rules for the card hands (the
   two-pack variant) and under the real Romanian rules for the racks. Every partition
   is then checked meld by meld with :func:`engine.melds.readings` (untimed).
2. The rack-only problem of rummikub-solver (maximise the tiles placed, empty table)
   on the same positions, under Rummikub meld rules for both sides (sets of 3-4 distinct
   colours, runs of one colour with the 1 low only, a joker anywhere, one real tile per
   meld at least): ours is :func:`engine.search.best_partition` with every card worth 1
   point; the peer is ``RuleSet.solve(state, SolverMode.TILE_COUNT)``. Its one-time
   set-up (``RuleSet(...)``, which builds the MILP) is excluded from its timing.

The same optimum is asserted against rummikub-solver's MILP with a *complete* list of
sets (:func:`complete_ruleset`): the stock list leaves out runs of 4-5 tiles with a
joker at an end and sets of 4 with a joker (by design, ``RuleSet._combine_with_jokers``),
so on some positions the stock solver places fewer tiles than the optimum; those are
counted apart, and a position where it places *more* than ours would be our bug.
"""

from __future__ import annotations

import importlib
import os
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Protocol

from benchmarks.heap import NOTE as HEAP_NOTE
from benchmarks.heap import WorkerHeap, worker_heap
from benchmarks.machine import package_version
from benchmarks.report import BenchConfig, Row, Section, median, percentile
from engine import search as engine_search
from engine.cards import CARD_SUITS, JOKER, TILE_COLOURS, Card, Suit, standard_deck
from engine.melds import AceMode, MeldRules, readings
from engine.rules import RuleSet, make_rules
from engine.search import Partition, best_melds, best_partition
from engine.variants import get_variant

__all__ = [
    "RUMMIKUB_RULES",
    "PeerComparison",
    "RummikubPeer",
    "card_hands",
    "compare",
    "complete_ruleset",
    "illegal_melds",
    "racks",
    "run",
]

#: Rummikub's meld rules in the engine's terms (the problem rummikub-solver solves).
RUMMIKUB_RULES = MeldRules(ace=AceMode.LOW, min_cards=3, max_set=4, min_naturals=1, check=None)

MEDIAN_TARGET_MS = 0.2
P99_TARGET_MS = 2.0
RATIO_TARGET = 25.0

# The solver's colour names for the engine's suits and colours (a bijection per family).
_PEER_COLOUR = {
    Suit.RED: "RED",
    Suit.YELLOW: "ORANGE",
    Suit.BLUE: "BLUE",
    Suit.BLACK: "BLACK",
    Suit.CLUBS: "BLACK",
    Suit.DIAMONDS: "ORANGE",
    Suit.HEARTS: "RED",
    Suit.SPADES: "BLUE",
}


def _one(card: Card) -> int:
    return 1


# --- positions ----------------------------------------------------------------------------


def card_hands(rng: random.Random, count: int) -> list[tuple[Card, ...]]:
    """``count`` hands of 15 cards: 13 from two 52-card packs and 2 jokers, shuffled."""
    pack = standard_deck(2)
    out = []
    for _ in range(count):
        hand = [*rng.sample(pack, 13), JOKER, JOKER]
        rng.shuffle(hand)
        out.append(tuple(hand))
    return out


def racks(rng: random.Random, count: int) -> list[tuple[Card, ...]]:
    """``count`` Romanian racks of 14 or 15 tiles with exactly 2 Jolys, shuffled."""
    tiles = [Card(n, c) for c in TILE_COLOURS for _ in range(2) for n in range(1, 14)]
    out = []
    for _ in range(count):
        rack = [*rng.sample(tiles, rng.choice((12, 13))), JOKER, JOKER]
        rng.shuffle(rack)
        out.append(tuple(rack))
    return out


# --- our side -----------------------------------------------------------------------------


def illegal_melds(hand: Sequence[Card], part: Partition, rules: MeldRules) -> int:
    """How many melds of ``part`` ``rules`` refuse (no reading), plus 1 when the melds and
    deadwood are not exactly the cards of ``hand``."""
    bad = sum(1 for group in part.melds if not readings(group, 0, rules))
    used = Counter(part.melded_cards()) + Counter(part.deadwood)
    return bad + (used != Counter(hand))


def _time_best_melds(
    positions: Sequence[tuple[Card, ...]], rules: RuleSet, heap: WorkerHeap
) -> tuple[list[float], int]:
    """Per-call wall times of ``best_melds`` in ms (each hand new to its cache; ``heap``
    collects after each call) and the number of partitions holding a meld the variant's
    rules refuse."""
    cache = getattr(engine_search, "_best_cached", None)
    meld_rules = get_variant(rules.variant).meld_rules(rules)
    times: list[float] = []
    parts: list[Partition] = []
    clock = time.perf_counter_ns
    for hand in positions:
        if cache is not None:
            cache.cache_clear()
        start = clock()
        part = best_melds(hand, rules)
        times.append((clock() - start) / 1e6)
        parts.append(part)
        heap.after_call()
    bad = sum(
        1
        for hand, part in zip(positions, parts, strict=True)
        if illegal_melds(hand, part, meld_rules)
    )
    return times, bad


# --- the peer -----------------------------------------------------------------------------


def complete_ruleset(module: Any) -> Any:
    """A subclass of rummikub-solver's ``RuleSet`` whose set list has every placement of
    up to ``jokers`` jokers in every run of ``min_len``..``2*min_len-1`` tiles and every
    group, keeping one number tile at least (longer runs split into these). Used only to
    check the optimum; the stock class is the one timed."""

    class CompleteRuleSet(module.RuleSet):  # type: ignore[misc]
        def _combine_with_jokers(self, sets: Any, runs: bool = False) -> set[tuple[Any, ...]]:
            joker = self._joker
            if joker is None:
                return {tuple(s) for s in sets}
            out: set[tuple[Any, ...]] = set()
            for series in sets:
                tiles = list(series)
                for k in range(min(self._jokers, len(tiles) - 1) + 1):
                    for places in combinations(range(len(tiles)), k):
                        out.add(
                            tuple(sorted(joker if i in places else t for i, t in enumerate(tiles)))
                        )
            return out

    return CompleteRuleSet


class Peer(Protocol):
    """What :func:`compare` needs from a solver: the most tiles a rack can place."""

    def max_tiles(self, hand: Sequence[Card]) -> int:
        """Tiles placed by the best move from ``hand`` onto an empty table."""
        ...


@dataclass
class RummikubPeer:
    """rummikub-solver for 13 numbers x 4 colours x 2 copies + 2 jokers, runs/sets of 3+.

    ``complete``: use :func:`complete_ruleset` (every joker placement) instead of the
    stock set list. ``setup_seconds``: the one-time ``RuleSet`` construction.
    """

    complete: bool = False
    setup_seconds: float = 0.0
    backend: str = ""
    sets: int = 0
    _ruleset: Any = None
    _mode: Any = None
    _tile_of: dict[tuple[str, int], Any] = field(default_factory=dict)
    _joker: Any = None

    def __post_init__(self) -> None:
        module = importlib.import_module("rummikub_solver")
        cls = complete_ruleset(module) if self.complete else module.RuleSet
        start = time.perf_counter()
        self._ruleset = cls(numbers=13, repeats=2, colours=4, jokers=2, min_len=3)
        self.setup_seconds = time.perf_counter() - start
        self._mode = module.SolverMode.TILE_COUNT
        self.backend = str(self._ruleset.backend)
        self.sets = len(self._ruleset.sets)
        for tile in self._ruleset.tiles:
            if isinstance(tile, module.Joker):
                self._joker = tile
            else:
                self._tile_of[(tile.colour.name, tile.value)] = tile

    def state(self, hand: Sequence[Card]) -> Any:
        """The solver's game state for ``hand`` on its rack, table empty, opening done."""
        tiles = []
        for card in hand:
            if card.suit is None:
                tiles.append(self._joker)
            else:
                tiles.append(self._tile_of[(_PEER_COLOUR[card.suit], card.rank)])
        state = self._ruleset.new_game()
        state.add_rack(*tiles)
        state.initial = False
        return state

    def solve_count(self, state: Any) -> int:
        """Tiles placed by the solver's solution for ``state`` (0 when it finds none)."""
        solution = self._ruleset.solve(state, self._mode)
        return 0 if solution is None else len(solution.tiles)

    def max_tiles(self, hand: Sequence[Card]) -> int:
        """See :class:`Peer`."""
        return self.solve_count(self.state(hand))

    def melds_text(self, hand: Sequence[Card]) -> str:
        """The solver's melds for ``hand`` in the engine's notation (``jo`` for a joker),
        e.g. ``"[c9 jo jo c12] [ah ac ad]"`` -- for reports of differing positions."""
        solution = self._ruleset.solve(self.state(hand), self._mode)
        if solution is None:
            return "[]"
        cards = any(c.suit is not None and not c.suit.is_colour for c in hand)
        suit_of = {name: suit for suit, name in _PEER_COLOUR.items() if suit.is_colour != cards}
        melds = []
        for group in solution.sets:
            names = [
                "jo" if tile == self._joker else str(Card(tile.value, suit_of[tile.colour.name]))
                for tile in group
            ]
            melds.append("[" + " ".join(names) + "]")
        return " ".join(melds)


@dataclass
class PeerComparison:
    """The rack-only comparison over some positions.

    ``counts[i]``: (ours, stock solver, complete solver or ``None``) tiles placed.
    ``ours_ms`` / ``peer_ms``: per-call times (ms) of ``best_partition`` and of the stock
    solver's ``solve``. ``mismatches``: positions where ours differs from the complete
    solver (the optimum check; 0 expected). ``peer_fewer`` / ``peer_more``: positions
    where the stock solver places fewer / more tiles than ours. ``illegal``: our
    partitions with a meld Rummikub rules refuse. ``examples``: a few differing positions.
    """

    counts: list[tuple[int, int, int | None]] = field(default_factory=list)
    ours_ms: list[float] = field(default_factory=list)
    peer_ms: list[float] = field(default_factory=list)
    mismatches: int = 0
    peer_fewer: int = 0
    peer_more: int = 0
    illegal: int = 0
    examples: list[str] = field(default_factory=list)


def compare(
    positions: Sequence[Sequence[Card]], stock: Peer | RummikubPeer, complete: Peer | None
) -> PeerComparison:
    """Solve every position with ours and the peers; times ours and ``stock`` per call.

    A :class:`RummikubPeer` is timed on ``solve`` alone (its input state is built
    beforehand); any other :class:`Peer` on ``max_tiles``.
    """
    out = PeerComparison()
    clock = time.perf_counter_ns
    for hand in positions:
        start = clock()
        part = best_partition(hand, RUMMIKUB_RULES, _one)
        out.ours_ms.append((clock() - start) / 1e6)
        ours = part.melded
        if isinstance(stock, RummikubPeer):
            state = stock.state(hand)
            start = clock()
            theirs = stock.solve_count(state)
        else:
            start = clock()
            theirs = stock.max_tiles(hand)
        out.peer_ms.append((clock() - start) / 1e6)
        exact = complete.max_tiles(hand) if complete is not None else None
        out.counts.append((ours, theirs, exact))
        out.illegal += bool(illegal_melds(hand, part, RUMMIKUB_RULES))
        if theirs < ours:
            out.peer_fewer += 1
        elif theirs > ours:
            out.peer_more += 1
        if exact is not None and exact != ours:
            out.mismatches += 1
        if (theirs > ours or (exact is not None and exact != ours)) and len(out.examples) < 3:
            example = (
                " ".join(str(c) for c in hand) + f": ours {ours}, stock {theirs}, complete {exact}"
            )
            if isinstance(complete, RummikubPeer):
                mine = " ".join("[" + " ".join(map(str, g)) + "]" for g in part.melds)
                example += f"; ours {mine}, the solver's {complete.melds_text(hand)}"
            out.examples.append(example)
    return out


# --- the section --------------------------------------------------------------------------


def _ms_rows(section: Section, label: str, times: list[float], note: str) -> None:
    section.add(Row(f"{label}: median", median(times), "ms", MEDIAN_TARGET_MS, "lower", note))
    section.add(
        Row(
            f"{label}: p99",
            percentile(times, 99),
            "ms",
            P99_TARGET_MS,
            "lower",
            f"max {max(times):.2f} ms",
        )
    )


def _peer_rows(section: Section, label: str, result: PeerComparison, complete: bool) -> None:
    ours, theirs = median(result.ours_ms), median(result.peer_ms)
    n = len(result.counts)
    section.add(
        Row(
            f"{label}: ours, most tiles melded",
            ours,
            "ms",
            None,
            "lower",
            f"best_partition, p99 {percentile(result.ours_ms, 99):.2f} ms, {n} positions",
        )
    )
    section.add(
        Row(
            f"{label}: rummikub-solver",
            theirs,
            "ms",
            None,
            "lower",
            f"solve(TILE_COUNT), p99 {percentile(result.peer_ms, 99):.1f} ms",
        )
    )
    section.add(
        Row(
            f"{label}: speed ratio",
            theirs / ours if ours else None,
            "x",
            RATIO_TARGET,
            "higher",
            "solver median / our median",
        )
    )
    if complete:
        section.add(
            Row(
                f"{label}: optimum mismatches",
                result.mismatches,
                "positions",
                0,
                "lower",
                "ours vs the solver's MILP with the complete set list",
            )
        )
    section.add(
        Row(
            f"{label}: stock solver places fewer",
            result.peer_fewer,
            "positions",
            None,
            "lower",
            "its set list lacks some joker melds (see notes)",
        )
    )
    section.add(
        Row(
            f"{label}: stock solver places more",
            result.peer_more,
            "positions",
            0,
            "lower",
            "would be a bug of ours",
        )
    )
    section.add(
        Row(
            f"{label}: illegal melds of ours",
            result.illegal,
            "positions",
            0,
            "lower",
            "checked with readings() under Rummikub rules",
        )
    )


#: (label, variant) of the big racks: 58 natural cards or tiles and two jokers / Jolys.
BIG_RACKS = (("Romanian", "romanian"), ("German Rommé", "german"), ("Rummy 500", "500"))
BIG_TARGET_MS = 50.0


def big_rows(section: Section, rng: random.Random, count: int, heap: WorkerHeap) -> None:
    """``best_melds`` on racks of 60 cards/tiles with two jokers (racks that size follow
    takes of whole discard rows): p99 and max, the rack of the max, and how often the
    search's guard (:data:`engine.search.SEARCH_STEPS`) answered instead of the end of the
    search."""
    for label, variant in BIG_RACKS:
        rules = make_rules(variant)
        if variant == "romanian":
            pool = [Card(n, c) for c in TILE_COLOURS for _ in range(2) for n in range(1, 14)]
        else:
            pool = [Card(n, s) for s in CARD_SUITS for _ in range(2) for n in range(1, 14)]
        positions = [(*rng.sample(pool, 58), JOKER, JOKER) for _ in range(count)]
        times, bad = _time_best_melds(positions, rules, heap)
        worst = max(range(count), key=times.__getitem__)
        section.add(
            Row(
                f"{label}: 60 cards with 2 jokers, p99",
                percentile(times, 99),
                "ms",
                BIG_TARGET_MS,
                "lower",
                f"median {median(times):.1f}, max {max(times):.1f} ms, {count} racks"
                f"; illegal melds {bad}",
            )
        )
        section.notes.append(
            f"{label} 60-card max ({times[worst]:.1f} ms): " + " ".join(map(str, positions[worst]))
        )
    section.notes.append(
        "60-card racks: the exhaustive search takes up to 28 natural cards; bigger racks use "
        "branch and bound with a guard of engine.search.SEARCH_STEPS states, which answers "
        "the best partition met when it trips (not always the optimum on such racks)."
    )


def run(config: BenchConfig) -> Section:
    """The search section: timings of ``best_melds`` and the rummikub-solver comparison.

    Quick: 300 timed hands and 20 compared positions per kind; full: 3000 and 300.
    """
    timed = 300 if config.quick else 3000
    compared = 20 if config.quick else 300
    rng = random.Random(config.seed)
    hands, tiles = card_hands(rng, timed), racks(rng, timed)
    warm = random.Random(config.seed + 1)
    section = Section("Best-meld search (hint / AI): engine.search.best_melds")
    german, romanian = make_rules("german"), make_rules("romanian")

    # Warm the small per-suit caches below the hand cache with other positions.
    for hand in card_hands(warm, 200):
        best_melds(hand, german)
        best_partition(hand, RUMMIKUB_RULES, _one)
    for rack in racks(warm, 200):
        best_melds(rack, romanian)
        best_partition(rack, RUMMIKUB_RULES, _one)

    with worker_heap() as heap:
        hand_ms, hand_bad = _time_best_melds(hands, german, heap)
        rack_ms, rack_bad = _time_best_melds(tiles, romanian, heap)
    _ms_rows(
        section,
        "15-card hands, 2 jokers (German rules)",
        hand_ms,
        f"{len(hands)} hands, each new to the cache",
    )
    section.add(
        Row(
            "  hands whose partition has an illegal meld",
            hand_bad,
            "hands",
            0,
            "lower",
            "meld checked with readings() under German rules",
        )
    )
    _ms_rows(
        section,
        "Romanian racks, 2 Jolys (Romanian rules)",
        rack_ms,
        f"{len(tiles)} racks of 14-15 tiles",
    )
    section.add(
        Row(
            "  racks whose partition has an illegal meld",
            rack_bad,
            "racks",
            0,
            "lower",
            "meld checked with readings() under Romanian rules",
        )
    )
    section.notes.append(
        "best_melds is timed per call with its per-hand cache cleared before each call; the "
        "per-suit candidate caches stay warm (warmed by 400 other positions), as in a "
        "running bot."
    )
    if rack_bad:
        section.notes.append(
            "The Romanian search proposes melds the rules refuse: it applies min_naturals=2 "
            "but not MeldRules.check (at least two real tiles per Joly), e.g. a run of 2 "
            "tiles and 2 Jolys. A bug in engine/search.py (the hint shows such melds)."
        )

    with worker_heap() as heap:
        big_rows(section, random.Random(config.seed + 2), 20 if config.quick else 200, heap)
    section.notes.append(HEAP_NOTE)

    if not config.peers:
        section.notes.append("rummikub-solver comparison skipped (--no-peers).")
        return section
    if package_version("rummikub-solver") is None:
        section.notes.append("rummikub-solver is not installed: pip install -e '.[bench]'.")
        return section
    try:
        stock = RummikubPeer()
        full = RummikubPeer(complete=True)
    except Exception as error:  # a broken peer is reported, not fatal
        section.notes.append(f"rummikub-solver could not be set up: {error!r}")
        return section
    section.notes.append(
        "Load average before the comparison: " + " ".join(f"{x:.2f}" for x in os.getloadavg())
    )
    for label, positions in (
        ("hands vs rummikub-solver", hands[:compared]),
        ("racks vs rummikub-solver", tiles[:compared]),
    ):
        result = compare(positions, stock, full)
        _peer_rows(section, label, result, True)
        section.notes.extend(f"{label} differs: {example}" for example in result.examples)
        if result.mismatches or result.peer_more:
            section.notes.append(
                f"{label}: where the solver places more tiles, engine/search.py misses the "
                "optimum (a bug to fix there; solver melds are tile multisets, jokers last)."
            )
    section.notes.append(
        "Load average after the comparison: " + " ".join(f"{x:.2f}" for x in os.getloadavg())
    )
    section.notes.append("Ours and the solver alternate position by position (A B A B) in one run.")
    section.notes.append(
        f"rummikub-solver {package_version('rummikub-solver')} ({stock.backend} backend, "
        f"{stock.sets} sets): RuleSet set-up {stock.setup_seconds:.2f} s once, not timed; "
        "both sides solve the rack-only problem under Rummikub rules (sets of 3-4 colours, "
        "runs with the 1 low only, jokers anywhere), card suits mapped to colours; ours "
        "times best_partition including its input conversion, theirs solve() only."
    )
    section.notes.append(
        "Stock rummikub-solver lists jokers only in 3-tile melds and inside 4-5 tile runs "
        "(RuleSet._combine_with_jokers), so it misses e.g. r1 r2 r3 r4 jo or 7s of 3 "
        "colours + jo; the optimum is checked against its MILP with the complete set list "
        f"({full.sets} sets, built once in {full.setup_seconds:.2f} s, not timed)."
    )
    return section
