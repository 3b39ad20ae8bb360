"""The engine calls the service hands to :mod:`bot.service.compute`: module-level
functions (a worker process imports them by name), pure, each returning only what the
service needs back, so little travels through the pipe."""

from __future__ import annotations

import gc
import multiprocessing
from collections.abc import Sequence

from engine.actions import Action
from engine.ai import make_ai
from engine.ai.interrupt import interrupt
from engine.cards import Card
from engine.commands import format_action
from engine.events import Event
from engine.game import apply, can, legal_actions, quick_action
from engine.rules import RuleSet
from engine.search import Partition, best_melds
from engine.state import GameState
from engine.views import view_for

Applied = tuple[Action, GameState, tuple[Event, ...]]


def apply_move(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """:func:`engine.game.apply` (a person's move, verified by the engine)."""
    return apply(state, action)


def ai_move(state: GameState, seat: int, kind: str, callers: Sequence[str | None],
            seed: int) -> Applied:
    """The AI's move for ``seat`` (the seat to act, an AI of ``kind``), applied.

    First the AI seats of ``callers`` (per seat an AI kind, ``None`` for a person, who is
    never asked) may act out of turn (:func:`engine.ai.interrupt.interrupt`: Rummy 500's
    "Rommé!"). ``seed``: seat ``n`` decides with ``seed + n``, so a replayed step decides
    the same.
    """
    players = [None if caller is None else make_ai(caller, seed=seed + n)
               for n, caller in enumerate(callers)]
    called = interrupt(state, players, seat)
    action = called if called is not None else make_ai(kind, seed=seed + seat).decide(
        view_for(state, seat), legal_actions(state, seat))
    new, events = apply(state, action)
    return action, new, events


def ai_decision(state: GameState, seat: int, kind: str, seed: int) -> Action:
    """The AI's choice for ``seat`` (autopilot of a person's turn), not applied."""
    return make_ai(kind, seed=seed).decide(view_for(state, seat), legal_actions(state, seat))


def quick_move(state: GameState, seat: int) -> Applied:
    """:func:`engine.game.quick_action` for ``seat``, applied: the fallback when an AI
    decision ran out of its budget."""
    action = quick_action(state, seat)
    new, events = apply(state, action)
    return action, new, events


def hint(hand: Sequence[Card], rules: RuleSet) -> Partition:
    """The best melds of a hand (:func:`engine.search.best_melds`)."""
    return best_melds(tuple(hand), rules)


def hand_facts(state: GameState, seat: int, seed: int, melds: bool
               ) -> tuple[list[Action], Action | None, Partition | None]:
    """What a seat's hand screen is built from: its legal actions now (in the engine's
    order), the suggestion (:func:`engine.ai.make_ai` ``"greedy"`` deciding on the seat's
    own view; always one of the returned actions: a decision outside the engine's list is
    added when :func:`engine.game.can` accepts it, else the list's first move is
    suggested; ``None`` when the seat has nothing to do) and, when ``melds``, the best
    melds of the hand for the "melds first" order (:func:`engine.search.best_melds`)."""
    legal = legal_actions(state, seat)
    suggestion = make_ai("greedy", seed=seed).decide(view_for(state, seat), legal) \
        if legal else None
    if suggestion is not None and suggestion not in legal:
        # An AI may compose a move the list leaves out (German: a first meld of several
        # melds); offered only when the engine accepts it, else the list's first move.
        if can(state, suggestion):
            legal.append(suggestion)
        else:
            suggestion = legal[0]
    partition = best_melds(state.hands[seat], state.rules) if melds else None
    return legal, suggestion, partition


def legal_commands(state: GameState, seat: int) -> list[str]:
    """The seat's legal actions now as command lines, in the engine's order."""
    return [format_action(action) for action in legal_actions(state, seat)]


def warm_up() -> int:
    """A few moves of every variant, so a new worker process has its modules imported and
    its caches filled before its first real call; returns the moves made.

    In a worker process (one with a parent) the heap built so far is then frozen
    (:func:`gc.freeze`): the interpreter's cyclic collector no longer walks the modules
    and tables that live as long as the worker (19,000 objects after warm-up, 2.5-5 ms
    of every full collection). What is frozen is alive, collected just before; an object
    frozen that dies later is freed by reference counting as usual."""
    from engine.dealing import new_game
    from engine.game import current_player
    from engine.rules import make_rules
    from engine.variants import VARIANTS

    moves = 0
    for variant in VARIANTS:
        state = new_game(make_rules(variant), ["a", "b", "c"], seed=1)
        for _ in range(12):
            seat = current_player(state)
            if seat is None:
                break
            state, _events = apply(state, quick_action(state, seat))
            moves += 1
        best_melds(state.hands[0], state.rules)
    if multiprocessing.parent_process() is not None:
        gc.collect()
        gc.freeze()
    return moves
