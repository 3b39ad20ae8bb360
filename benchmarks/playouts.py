"""Benchmark of complete hands with random legal play, side by side with RLCard's gin rummy.

One *hand* is one deal of a new two-player game, from the shuffle to the end of the deal
(phase ``HAND_OVER`` or ``GAME_OVER``), both seats :class:`engine.ai.random_ai.RandomPlayer`
and every action taken as :func:`engine.simulate.simulate` takes it: the seat's view
(:func:`engine.views.view_for`), the legal list (:func:`engine.game.legal_actions`), the
choice, then the trusted :func:`engine.game.apply_legal` (no second check of a listed
action). Deal ``i`` uses
the game seed ``config.seed + i`` and the AI seeds of :func:`engine.simulate.seat_seed`.

Basic Rummy is measured twice: with its standard rules (the discard pile may be turned
over without limit, so random hands are long) and with ``reuses=0`` (Block Rummy: the
hand ends when the stock runs out, like RLCard's dead hand in gin rummy).

RLCard: ``rlcard.make("gin-rummy")`` with two ``RandomAgent`` seats, ``env.run()`` per
hand (its reset deals); ``numpy.random`` is seeded because ``RandomAgent`` draws from it.
Importing RLCard and making the environment are not timed.
"""

from __future__ import annotations

import importlib
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from benchmarks.heap import FROZEN_NOTE, frozen_heap
from benchmarks.machine import package_version
from benchmarks.report import BenchConfig, Row, Section
from engine.ai import make_ai
from engine.dealing import new_game
from engine.game import apply_legal, legal_actions
from engine.rules import OptionValue, RuleSet, make_rules
from engine.simulate import seat_seed
from engine.state import Phase
from engine.views import view_for

__all__ = [
    "HANDS_TARGET",
    "RATIO_TARGET",
    "VARIANTS",
    "OpenSpielPeer",
    "Playout",
    "RLCardPeer",
    "random_hands",
    "rlcard_hands",
    "run",
]

RATIO_TARGET = 3.0
#: Hands/s targets against a peer per variant (their hands differ in length).
HANDS_TARGET: dict[str, float] = {
    "basic": 1.0,
    "basic, block (reuses=0)": 3.0,
    "500": 1.0,
    "german": 1.0,
    "romanian": 0.3,
}
#: Alternating rounds (full run, quick run).
ROUNDS = (5, 2)
MAX_ACTIONS = 20000
_LIVE = (Phase.DRAW, Phase.PLAY)

#: (label, variant, options, hands in a full run, hands in a quick run).
VARIANTS: tuple[tuple[str, str, dict[str, OptionValue], int, int], ...] = (
    ("basic", "basic", {}, 100, 5),
    ("basic, block (reuses=0)", "basic", {"reuses": 0}, 300, 10),
    ("500", "500", {}, 300, 10),
    ("german", "german", {}, 200, 10),
    ("romanian", "romanian", {}, 30, 3),
)
RLCARD_HANDS = (600, 40)


@dataclass(frozen=True, slots=True)
class Playout:
    """Hands played: ``hands`` in ``seconds`` of wall time with ``actions`` in all;
    ``unfinished``: hands stopped at :data:`MAX_ACTIONS`. ``split``: seconds spent in
    each step (``deal``, ``view``, ``legal``, ``decide``, ``apply``) when measured."""

    hands: int
    seconds: float
    actions: int
    unfinished: int = 0
    split: tuple[tuple[str, float], ...] = ()

    @property
    def per_second(self) -> float:
        """Finished hands per second of the whole run (stopped hands count no hand)."""
        return (self.hands - self.unfinished) / self.seconds if self.seconds > 0 else 0.0

    @property
    def actions_per_second(self) -> float:
        """Actions (moves of either seat) per second."""
        return self.actions / self.seconds if self.seconds > 0 else 0.0

    @property
    def mean_actions(self) -> float:
        """Actions per hand."""
        return self.actions / self.hands if self.hands else 0.0


def random_hands(rules: RuleSet, hands: int, seed: int, *, split: bool = False) -> Playout:
    """Play ``hands`` single deals of two random players under ``rules`` (timed).

    ``split=True`` also times each step (``Playout.split``) through wrappers around the
    five steps; their calls and clock reads add to every action, so the rates compared
    with the peers come from runs without them (``split=False``) and the split from a run
    of its own (the same games, action for action)."""
    if not split:
        start = time.perf_counter()
        actions, unfinished = _play(
            rules, hands, seed, new_game, _random_seat, view_for, legal_actions, apply_legal
        )
        return Playout(hands, time.perf_counter() - start, actions, unfinished)
    spent = dict.fromkeys(("deal", "view", "legal", "decide", "apply"), 0)

    def timed_seat(seed: int) -> Any:
        player = _random_seat(seed)
        player.decide = _timed(player.decide, "decide", spent)
        return player

    start = time.perf_counter()
    actions, unfinished = _play(
        rules,
        hands,
        seed,
        _timed(new_game, "deal", spent),
        timed_seat,
        _timed(view_for, "view", spent),
        _timed(legal_actions, "legal", spent),
        _timed(apply_legal, "apply", spent),
    )
    seconds = time.perf_counter() - start
    return Playout(
        hands, seconds, actions, unfinished, tuple((k, v / 1e9) for k, v in spent.items())
    )


def _random_seat(seed: int) -> Any:
    return make_ai("random", seed)


def _timed(step: Callable[..., Any], key: str, spent: dict[str, int]) -> Callable[..., Any]:
    """``step`` adding its time (ns) to ``spent[key]``."""
    clock = time.perf_counter_ns

    def timed(*args: Any, **kwargs: Any) -> Any:
        begin = clock()
        try:
            return step(*args, **kwargs)
        finally:
            spent[key] += clock() - begin

    return timed


def _play(
    rules: RuleSet,
    hands: int,
    seed: int,
    deal: Callable[..., Any],
    player: Callable[[int], Any],
    view: Callable[..., Any],
    legal: Callable[..., Any],
    apply: Callable[..., Any],
) -> tuple[int, int]:
    """The games of :func:`random_hands` with its steps passed in: (actions, hands stopped
    at :data:`MAX_ACTIONS`)."""
    names = ("ana", "ben")
    actions = unfinished = 0
    for number in range(hands):
        state = deal(rules, names, seed=seed + number)
        seats = [player(seat_seed(seed, number, seat)) for seat in range(2)]
        count = 0
        while state.phase in _LIVE:
            if count >= MAX_ACTIONS:
                unfinished += 1
                break
            seat = state.current
            action = seats[seat].decide(view(state, seat), legal(state, seat))
            state, _ = apply(state, action)
            count += 1
        actions += count
    return actions, unfinished


class RLCardPeer:
    """RLCard's gin rummy with two random agents, set up once (not timed)."""

    def __init__(self, seed: int) -> None:
        rlcard = importlib.import_module("rlcard")
        agents = importlib.import_module("rlcard.agents")
        numpy = importlib.import_module("numpy")
        numpy.random.seed(seed % 2**32)
        self.env = rlcard.make("gin-rummy", config={"seed": seed})
        self.env.set_agents(
            [agents.RandomAgent(num_actions=self.env.num_actions) for _ in range(2)]
        )

    def hands(self, hands: int) -> Playout:
        """Play ``hands`` hands (timed); ``env.run`` deals each."""
        actions = 0
        start = time.perf_counter()
        for _ in range(hands):
            trajectories, _payoffs = self.env.run(is_training=False)
            actions += sum(1 for t in trajectories for item in t if not isinstance(item, dict))
        return Playout(hands, time.perf_counter() - start, actions)


def rlcard_hands(hands: int, seed: int) -> Playout:
    """Play ``hands`` hands of RLCard's gin rummy with two random agents (timed)."""
    return RLCardPeer(seed).hands(hands)


class OpenSpielPeer:
    """OpenSpiel's ``gin_rummy`` (C++ game through pyspiel) played by uniform random
    choices among its legal actions; chance nodes (the deal, draws) follow their
    probabilities. Loading the game is not timed."""

    def __init__(self, seed: int) -> None:
        pyspiel = importlib.import_module("pyspiel")
        self.game = pyspiel.load_game("gin_rummy")
        self.rng = random.Random(seed)

    def hands(self, hands: int) -> Playout:
        """Play ``hands`` complete hands (timed); actions count the players' moves."""
        actions = 0
        rng = self.rng
        start = time.perf_counter()
        for _ in range(hands):
            state = self.game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(outcomes, weights)[0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])
                    actions += 1
        return Playout(hands, time.perf_counter() - start, actions)


def _merge(parts: list[Playout]) -> Playout:
    """One playout from the chunks of the alternating rounds."""
    split: dict[str, float] = {}
    for part in parts:
        for key, value in part.split:
            split[key] = split.get(key, 0.0) + value
    return Playout(
        sum(p.hands for p in parts),
        sum(p.seconds for p in parts),
        sum(p.actions for p in parts),
        sum(p.unfinished for p in parts),
        tuple(split.items()),
    )


def _ratio_note(ours: Playout, peer: Playout) -> str:
    """The hands/s ratio split into speed per action and hand length."""
    if not (peer.actions_per_second and peer.mean_actions and ours.mean_actions):
        return ""
    speed = ours.actions_per_second / peer.actions_per_second
    length = ours.mean_actions / peer.mean_actions
    return f"= {speed:.2f}x actions/s / {length:.2f}x actions per hand"


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _peers(config: BenchConfig, section: Section) -> dict[str, RLCardPeer | OpenSpielPeer]:
    """The peers that are installed and set up (missing ones are noted)."""
    peers: dict[str, RLCardPeer | OpenSpielPeer] = {}
    if not config.peers:
        section.notes.append("Peer comparison skipped (--no-peers).")
        return peers
    for name, package, factory, extra in (
        ("RLCard", "rlcard", RLCardPeer, "bench"),
        ("OpenSpiel", "open_spiel", OpenSpielPeer, "openspiel"),
    ):
        if package_version(package) is None:
            section.notes.append(
                f"{name} is missing: pip install -e '.[{extra}]' (its comparison is left out)."
            )
            continue
        try:
            peers[name] = factory(config.seed)
        except Exception as error:  # a broken peer is reported, not fatal
            section.notes.append(f"{name} could not be set up: {error!r}")
    return peers


def run(config: BenchConfig) -> Section:
    """Hands and actions per second of random play per variant and of the peers, measured
    in alternating rounds (engine, peers, engine, peers, ...) in one run."""
    section = Section("Random playouts: complete hands, 2 random players")
    section.notes.append(f"Load average at the start: {_load()}")
    peers = _peers(config, section)
    with frozen_heap():
        ours, theirs = _rounds(config, section, peers)
    section.notes.append(f"Load average at the end: {_load()}")
    section.notes.append(FROZEN_NOTE)
    rounds = ROUNDS[config.quick]
    splits = {
        label: random_hands(
            make_rules(variant, options=options),
            max(1, (quick if config.quick else full) // rounds),
            config.seed,
            split=True,
        )
        for label, variant, options, full, quick in VARIANTS
    }
    merged = {label: _merge(parts) for label, parts in ours.items()}
    for label, *_ in VARIANTS:
        result = merged[label]
        note = (
            f"{result.hands} hands, {result.mean_actions:.0f} actions/hand, "
            f"{result.actions_per_second:,.0f} actions/s"
        )
        if result.unfinished:
            note += (
                f", {result.unfinished} stopped at {MAX_ACTIONS} actions (their time "
                "counts, they do not)"
            )
        timed = splits[label]
        if timed.seconds > 0:
            note += "; time (a run of its own, each step timed): " + ", ".join(
                f"{k} {v / timed.seconds:.0%}" for k, v in timed.split
            )
        section.add(Row(f"{label}: hands/s", result.per_second, "hands/s", None, "higher", note))
    for name, parts in theirs.items():
        if not parts:
            continue
        total = _merge(parts)
        section.add(
            Row(
                f"{name} gin rummy: hands/s",
                total.per_second,
                "hands/s",
                None,
                "higher",
                f"{total.hands} hands, {total.mean_actions:.0f} actions/hand,"
                f" {total.actions_per_second:,.0f} actions/s",
            )
        )
        for label, *_ in VARIANTS:
            result = merged[label]
            targets = name == "RLCard"  # the targets are against RLCard
            section.add(
                Row(
                    f"{label} / {name}: actions/s",
                    result.actions_per_second / total.actions_per_second
                    if total.actions_per_second
                    else None,
                    "x",
                    RATIO_TARGET if targets else None,
                    "higher",
                    "",
                )
            )
            section.add(
                Row(
                    f"{label} / {name}: hands/s",
                    result.per_second / total.per_second if total.per_second else None,
                    "x",
                    HANDS_TARGET.get(label) if targets else None,
                    "higher",
                    _ratio_note(result, total),
                )
            )
    if "RLCard" in theirs:
        section.notes.append(
            f"RLCard {package_version('rlcard')}: gin rummy (52 cards, 10-card hands; a hand "
            "ends at a knock, gin or a dead hand with 2 stock cards left); its env.run also "
            "encodes every observation as numpy arrays. Import and env set-up not timed."
        )
    if "OpenSpiel" in theirs:
        section.notes.append(
            f"OpenSpiel {package_version('open_spiel')}: gin_rummy in C++ through pyspiel, "
            "uniform random legal actions, chance outcomes by their probabilities."
        )
    section.notes.append(
        f"Engine and peers alternate in {rounds} rounds (each variant's chunk, then each "
        "peer's) in this one process, so load changes hit both sides alike."
    )
    section.notes.append(
        "Ours: view_for + legal_actions + choice + apply per action, as engine.simulate "
        "plays; basic standard turns the discard pile over without limit, 'block' ends the "
        "hand when the stock is empty."
    )
    return section


def _rounds(
    config: BenchConfig, section: Section, peers: dict[str, RLCardPeer | OpenSpielPeer]
) -> tuple[dict[str, list[Playout]], dict[str, list[Playout]]]:
    """The alternating rounds of :func:`run`: each variant's chunk, then each peer's."""
    rounds = ROUNDS[config.quick]
    ours: dict[str, list[Playout]] = {label: [] for label, *_ in VARIANTS}
    theirs: dict[str, list[Playout]] = {name: [] for name in peers}
    peer_hands = max(1, RLCARD_HANDS[config.quick] // (rounds * len(VARIANTS)))
    for round_number in range(rounds):
        for label, variant, options, full, quick in VARIANTS:
            count = max(1, (quick if config.quick else full) // rounds)
            ours[label].append(
                random_hands(
                    make_rules(variant, options=options),
                    count,
                    config.seed + round_number * 1_000_003,
                )
            )
            for name, player in peers.items():
                try:
                    theirs[name].append(player.hands(peer_hands))
                except Exception as error:  # a broken peer is reported, not fatal
                    section.notes.append(f"{name} failed: {error!r}")
                    theirs[name] = []
    return ours, theirs
