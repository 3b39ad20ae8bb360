"""Benchmark of complete hands with random legal play, side by side with RLCard's gin rummy.

One *hand* is one deal of a new two-player game, from the shuffle to the end of the deal
(phase ``HAND_OVER`` or ``GAME_OVER``), both seats :class:`engine.ai.random_ai.RandomPlayer`
and every action taken as :func:`engine.simulate.simulate` takes it: the seat's view
(:func:`engine.views.view_for`), the legal list (:func:`engine.game.legal_actions`), the
choice, then :func:`engine.game.apply` (which checks the action again). Deal ``i`` uses
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
import time
from dataclasses import dataclass

from bot.bench.machine import package_version
from bot.bench.report import BenchConfig, Row, Section
from engine.ai import make_ai
from engine.dealing import new_game
from engine.game import apply, legal_actions
from engine.rules import OptionValue, RuleSet, make_rules
from engine.simulate import seat_seed
from engine.state import Phase
from engine.views import view_for

__all__ = ["RATIO_TARGET", "VARIANTS", "Playout", "random_hands", "rlcard_hands", "run"]

RATIO_TARGET = 3.0
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


def random_hands(rules: RuleSet, hands: int, seed: int) -> Playout:
    """Play ``hands`` single deals of two random players under ``rules`` (timed)."""
    names = ("ana", "ben")
    actions = unfinished = 0
    clock = time.perf_counter_ns
    spent = dict.fromkeys(("deal", "view", "legal", "decide", "apply"), 0)
    start = time.perf_counter()
    for deal in range(hands):
        t0 = clock()
        state = new_game(rules, names, seed=seed + deal)
        seats = [make_ai("random", seat_seed(seed, deal, seat)) for seat in range(2)]
        t1 = clock()
        spent["deal"] += t1 - t0
        count = 0
        while state.phase in _LIVE:
            if count >= MAX_ACTIONS:
                unfinished += 1
                break
            seat = state.current
            t0 = clock()
            view = view_for(state, seat)
            t1 = clock()
            legal = legal_actions(state, seat)
            t2 = clock()
            action = seats[seat].decide(view, legal)
            t3 = clock()
            state, _ = apply(state, action)
            t4 = clock()
            spent["view"] += t1 - t0
            spent["legal"] += t2 - t1
            spent["decide"] += t3 - t2
            spent["apply"] += t4 - t3
            count += 1
        actions += count
    seconds = time.perf_counter() - start
    return Playout(hands, seconds, actions, unfinished,
                   tuple((k, v / 1e9) for k, v in spent.items()))


def rlcard_hands(hands: int, seed: int) -> Playout:
    """Play ``hands`` hands of RLCard's gin rummy with two random agents (timed)."""
    rlcard = importlib.import_module("rlcard")
    agents = importlib.import_module("rlcard.agents")
    numpy = importlib.import_module("numpy")
    numpy.random.seed(seed % 2**32)
    env = rlcard.make("gin-rummy", config={"seed": seed})
    env.set_agents([agents.RandomAgent(num_actions=env.num_actions) for _ in range(2)])
    actions = 0
    start = time.perf_counter()
    for _ in range(hands):
        trajectories, _payoffs = env.run(is_training=False)
        actions += sum(1 for t in trajectories for item in t if not isinstance(item, dict))
    return Playout(hands, time.perf_counter() - start, actions)


def _ratio_note(ours: Playout, peer: Playout) -> str:
    """The hands/s ratio split into speed per action and hand length."""
    if not (peer.actions_per_second and peer.mean_actions and ours.mean_actions):
        return ""
    speed = ours.actions_per_second / peer.actions_per_second
    length = ours.mean_actions / peer.mean_actions
    return f"= {speed:.2f}x actions/s / {length:.2f}x actions per hand"


def run(config: BenchConfig) -> Section:
    """Hands per second of random play per variant, RLCard gin rummy and their ratio."""
    section = Section("Random playouts: complete hands, 2 random players")
    ours: list[tuple[str, Playout]] = []
    for label, variant, options, full, quick in VARIANTS:
        result = random_hands(make_rules(variant, options=options),
                              quick if config.quick else full, config.seed)
        ours.append((label, result))
        note = (f"{result.hands} hands, {result.mean_actions:.0f} actions/hand, "
                f"{result.actions_per_second:,.0f} actions/s")
        if result.unfinished:
            note += (f", {result.unfinished} stopped at {MAX_ACTIONS} actions (their time "
                     "counts, they do not)")
        if result.seconds > 0:
            note += "; time: " + ", ".join(f"{k} {v / result.seconds:.0%}"
                                           for k, v in result.split)
        section.add(Row(f"{label}: hands/s", result.per_second, "hands/s", None, "higher",
                        note))
    peer: Playout | None = None
    if not config.peers:
        section.notes.append("RLCard comparison skipped (--no-peers).")
    elif package_version("rlcard") is None:
        section.notes.append("RLCard is not installed: pip install -e '.[bench]'.")
    else:
        try:
            peer = rlcard_hands(RLCARD_HANDS[config.quick], config.seed)
        except Exception as error:  # a broken peer is reported, not fatal
            section.notes.append(f"RLCard gin rummy failed: {error!r}")
    if peer is not None:
        section.add(Row("RLCard gin-rummy: hands/s", peer.per_second, "hands/s", None,
                        "higher", f"{peer.hands} hands, {peer.mean_actions:.0f} actions/hand,"
                                  f" {peer.actions_per_second:,.0f} actions/s"))
        for label, result in ours:
            section.add(Row(f"{label} / RLCard", result.per_second / peer.per_second, "x",
                            RATIO_TARGET, "higher", _ratio_note(result, peer)))
        section.notes.append(
            f"RLCard {package_version('rlcard')}: gin rummy (52 cards, 10-card hands; a hand "
            "ends at a knock, gin or a dead hand with 2 stock cards left); its env.run also "
            "encodes every observation as numpy arrays. Import and env set-up not timed.")
    section.notes.append(
        "Ours: view_for + legal_actions (every legal move listed and checked) + choice + "
        "apply per action, as engine.simulate plays; basic standard turns the discard pile "
        "over without limit, 'block' ends the hand when the stock is empty.")
    return section
