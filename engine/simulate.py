"""AI-vs-AI matches played through the engine, for benchmarks and balance checks.

Every action an AI picks from :func:`engine.game.legal_actions` is applied on the trusted
path (:func:`engine.game.apply_legal`), any other through :func:`engine.game.apply`,
which verifies it (a German Rommé first meld of several melds at once is one move; the
list names each meld alone); each AI sees only its
:class:`engine.views.PlayerView` and :func:`engine.game.legal_actions`.
Wall time is measured with :func:`time.perf_counter` (a measurement, not game
randomness). Example::

    >>> from engine.rules import make_rules
    >>> result = simulate(make_rules("basic", options={"deals": 1}), 2, 2, ai=("greedy", "random"))
    >>> result.games, result.unfinished
    (2, 0)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.actions import Action
from engine.ai import Player, make_ai
from engine.ai.interrupt import interrupt
from engine.dealing import new_game
from engine.events import Event
from engine.fairness import fair_key_from_seed
from engine.game import apply, apply_legal, current_player, is_over, legal_actions
from engine.records import export_record, revealed_deals
from engine.rules import RuleSet
from engine.state import GameState
from engine.views import view_for

NAMES = ("ana", "ben", "cem", "dan", "eve", "fay", "gus", "hal")


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """What :func:`simulate` measured.

    ``games``: matches started. ``players``: seats per match. ``ai``: the AI
    kind of each seat. ``seconds``: wall time of the whole run. ``actions``:
    actions applied in all matches. ``deals``: deals started in all matches.
    ``wins[seat]``: matches won by that seat, a tie shared equally (so the
    shares add up to ``games - unfinished``). ``unfinished``: matches stopped
    at ``max_actions``. ``record``: the game record of the last match
    (:func:`engine.records.export_record`, with its revealed deals) when asked for, else
    ``None``.
    """

    games: int
    players: int
    ai: tuple[str, ...]
    seconds: float
    actions: int
    deals: int
    wins: tuple[Fraction, ...]
    unfinished: int
    record: dict[str, Any] | None = None

    @property
    def games_per_second(self) -> float:
        """Matches per wall-clock second."""
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def mean_actions(self) -> float:
        """Actions per match."""
        return self.actions / self.games if self.games else 0.0

    @property
    def win_shares(self) -> tuple[float, ...]:
        """Each seat's share of the finished matches' wins (0..1)."""
        finished = self.games - self.unfinished
        return tuple(float(w / finished) if finished else 0.0 for w in self.wins)


def seat_seed(seed: int, game: int, seat: int) -> int:
    """The seed of the AI at ``seat`` in match number ``game`` (0-based) of a run."""
    return ((seed + game) << 4) + seat


def simulate(
    rules: RuleSet,
    games: int,
    players: int,
    seed: int = 0,
    ai: str | Sequence[str] = "greedy",
    max_actions: int = 20000,
    progress: Callable[[int], object] | None = None,
    keep_record: bool = False,
) -> SimulationResult:
    """Play ``games`` matches of ``players`` AIs under ``rules``.

    Match ``g`` uses the game seed ``seed + g`` and deals fairly from it (each deal from
    its own secret, :func:`engine.fairness.fair_key_from_seed`); ``keep_record``: return
    the record of the last match (``SimulationResult.record``). Each seat gets its own AI of
    kind ``ai`` (one kind for all, or one per seat, e.g. ``("greedy",
    "random")``) seeded by :func:`seat_seed`. A match that has not ended after
    ``max_actions`` actions is stopped and counted in ``unfinished``. ``progress`` is
    called with 1 after each match (e.g. a progress bar's ``update``). Raises
    ``ValueError`` for a negative ``games``, ``max_actions < 1`` or a wrong
    number of AI kinds, ``UnknownAI`` for an unknown kind and
    ``RuleOptionError`` for a player count the variant does not allow.
    """
    kinds = (ai,) * players if isinstance(ai, str) else tuple(ai)
    if len(kinds) != players:
        raise ValueError(f"{len(kinds)} AI kinds for {players} players")
    if games < 0 or max_actions < 1:
        raise ValueError("games must be >= 0 and max_actions >= 1")
    if players > len(NAMES):
        raise ValueError(f"at most {len(NAMES)} players")
    names = NAMES[:players]
    wins = [Fraction(0)] * players
    actions = deals = unfinished = 0
    record: dict[str, Any] | None = None
    start = time.perf_counter()
    for game in range(games):
        state = new_game(rules, names, seed=seed + game, fair_key=fair_key_from_seed(seed + game))
        first_dealer = state.dealer
        seats: list[Player] = [
            make_ai(kind, seat_seed(seed, game, seat)) for seat, kind in enumerate(kinds)
        ]
        log: list[Action] = []
        keep = keep_record and game == games - 1
        count = 0
        while not is_over(state):
            if count >= max_actions:
                unfinished += 1
                break
            action, state, _ = ai_move(state, seats)
            if keep:
                log.append(action)
            count += 1
        else:
            for winner in state.winners:
                wins[winner] += Fraction(1, len(state.winners))
        actions += count
        deals += state.deal_number
        if keep:
            record = export_record(
                rules, names, seed + game, first_dealer, log, fair=revealed_deals(state)
            )
        if progress is not None:
            progress(1)
    seconds = time.perf_counter() - start
    return SimulationResult(
        games=games,
        players=players,
        ai=kinds,
        seconds=seconds,
        actions=actions,
        deals=deals,
        wins=tuple(wins),
        unfinished=unfinished,
        record=record,
    )


def ai_step(state: GameState, seats: Sequence[Player]) -> tuple[GameState, tuple[Event, ...]]:
    """One action of an AI match, as :func:`simulate` plays it: a seat's call out of turn
    (:func:`engine.ai.interrupt.interrupt`), else the decision of the seat to act (between
    deals: the dealer's next seat). Returns the new state and its events, like
    :func:`engine.game.apply`; the state must not be over."""
    _, new, events = ai_move(state, seats)
    return new, events


def ai_move(
    state: GameState, seats: Sequence[Player]
) -> tuple[Action, GameState, tuple[Event, ...]]:
    """:func:`ai_step` that also returns the action taken (first)."""
    seat = current_player(state)
    if seat is None:
        seat = state.next_seat(state.dealer)
    called = interrupt(state, seats, seat)
    legal = legal_actions(state, seat) if called is None else []
    action = called or seats[seat].decide(view_for(state, seat), legal)
    if called is not None or action in legal:
        return (action, *apply_legal(state, action))
    return (action, *apply(state, action))
