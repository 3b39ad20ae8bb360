"""The engine calls the service hands to :mod:`bot.service.compute`: module-level
functions (a worker process imports them by name), pure, each returning only what the
service needs back, so little travels through the pipe."""

from __future__ import annotations

import gc
import multiprocessing
from collections.abc import Sequence
from typing import Any, cast

from bot.i18n import use_locale
from bot.interaction.hand import offer_actions, order_cards
from bot.ports.hand import SortMode
from bot.ports.replays import ReplayPosition
from bot.ports.screens import SeatFacts
from bot.render.events import render_event
from bot.service.errors import UnknownOffer
from engine.actions import Action
from engine.ai import make_ai
from engine.ai.coach import DealReview, review_record
from engine.ai.interrupt import interrupt
from engine.cards import Card
from engine.commands import format_action
from engine.dealing import new_game
from engine.events import Event
from engine.game import apply, can, current_player, legal_actions, quick_action
from engine.records import ReplayStopped, replay_steps
from engine.rules import RuleSet
from engine.search import Partition, best_melds
from engine.state import GameState
from engine.views import public_view, view_for

Applied = tuple[Action, GameState, tuple[Event, ...]]
Facts = dict[int, SeatFacts]
"""Seat -> the engine's facts for that seat's screen (:func:`seat_facts`)."""


def facts_seed(table_seed: int, state: GameState, seat: int) -> int:
    """The seed of a seat's suggested move: a function of the table, the game state's
    version and the seat only, so the facts of a position are the same whoever computes
    them (another worker, after a restart) and a pressed offer number is resolved against
    exactly the offers its screen showed."""
    return table_seed + 7919 * state.version + 104729 * seat


def seat_facts(state: GameState, seat: int, table_seed: int) -> SeatFacts:
    """What a seat's hand screen is built from: its legal actions now (in the engine's
    order), the suggestion (:func:`engine.ai.make_ai` ``"greedy"`` deciding on the seat's
    own view; always one of the returned actions: a decision outside the engine's list is
    added when :func:`engine.game.can` accepts it, else the list's first move is
    suggested; ``None`` when the seat has nothing to do) and the best melds of the hand
    for the "melds first" order (:func:`engine.search.best_melds`)."""
    legal = legal_actions(state, seat)
    suggestion = (
        make_ai("greedy", seed=facts_seed(table_seed, state, seat)).decide(
            view_for(state, seat), legal
        )
        if legal
        else None
    )
    if suggestion is not None and suggestion not in legal:
        # An AI may compose a move the list leaves out (German: a first meld of several
        # melds); offered only when the engine accepts it, else the list's first move.
        if can(state, suggestion):
            legal.append(suggestion)
        else:
            suggestion = legal[0]
    return SeatFacts(tuple(legal), suggestion, best_melds(state.hands[seat], state.rules))


def facts_for(state: GameState, seats: Sequence[int], table_seed: int) -> Facts:
    """:func:`seat_facts` of each of ``seats``."""
    return {seat: seat_facts(state, seat, table_seed) for seat in seats}


def apply_move(
    state: GameState, action: Action, seats: Sequence[int] = (), table_seed: int = 0
) -> tuple[GameState, tuple[Event, ...], Facts]:
    """:func:`engine.game.apply` (a person's move, verified by the engine), and the facts
    of ``seats`` in the new position."""
    new, events = apply(state, action)
    return new, events, facts_for(new, seats, table_seed)


def pressed_offer(
    state: GameState, seat: int, mask: int, sort: int, number: int, table_seed: int
) -> Action:
    """The action of offer ``number`` on the seat's hand screen drawn for the selection
    ``mask`` over the hand in order ``sort``
    (:func:`bot.interaction.hand.offer_actions` of :func:`seat_facts`). Raises
    :class:`UnknownOffer` when the screen has no such offer."""
    facts = seat_facts(state, seat, table_seed)
    order = order_cards(state.hands[seat], SortMode(sort), facts.melds)
    offers = offer_actions(order, mask, facts.legal)
    if not 0 <= number < len(offers):
        raise UnknownOffer(number=number)
    # a legal action of the seat: the shared ones or a variant's own (typed as Action)
    return cast("Action", offers[number][0])


def press_offer(
    state: GameState,
    seat: int,
    mask: int,
    sort: int,
    number: int,
    seats: Sequence[int],
    table_seed: int,
) -> tuple[Action, GameState, tuple[Event, ...], Facts]:
    """:func:`pressed_offer`, applied, and the facts of ``seats`` in the new position:
    a pressed button is one worker call."""
    action = pressed_offer(state, seat, mask, sort, number, table_seed)
    new, events = apply(state, action)
    return action, new, events, facts_for(new, seats, table_seed)


def ai_move(
    state: GameState,
    seat: int,
    kind: str,
    callers: Sequence[str | None],
    seed: int,
    seats: Sequence[int] = (),
    table_seed: int = 0,
) -> tuple[Action, GameState, tuple[Event, ...], Facts]:
    """The AI's move for ``seat`` (the seat to act, an AI of ``kind``), applied, and the
    facts of ``seats`` in the new position.

    First the AI seats of ``callers`` (per seat an AI kind, ``None`` for a person, who is
    never asked) may act out of turn (:func:`engine.ai.interrupt.interrupt`: Rummy 500's
    "Rommé!"). ``seed``: seat ``n`` decides with ``seed + n``, so a replayed step decides
    the same.
    """
    players = [
        None if caller is None else make_ai(caller, seed=seed + n)
        for n, caller in enumerate(callers)
    ]
    called = interrupt(state, players, seat)
    action = (
        called
        if called is not None
        else make_ai(kind, seed=seed + seat).decide(
            view_for(state, seat), legal_actions(state, seat)
        )
    )
    new, events = apply(state, action)
    return action, new, events, facts_for(new, seats, table_seed)


def autopilot_turn(
    state: GameState,
    seat: int,
    kind: str,
    seed: int,
    max_actions: int,
    seats: Sequence[int] = (),
    table_seed: int = 0,
    quick: bool = False,
) -> tuple[list[Applied], Facts]:
    """The AI of ``kind`` plays ``seat``'s whole turn (its time ran out): actions until
    another seat is to move, the deal ends or ``max_actions`` were played, each as
    (action, the state after it, its events) in order; then the facts of ``seats``. ``quick``:
    :func:`engine.game.quick_action` decides instead (the fallback when the AI ran out of
    its budget)."""
    played: list[Applied] = []
    deal = state.deal_number
    for _ in range(max_actions):
        if current_player(state) != seat or state.deal_number != deal:
            break
        action = (
            quick_action(state, seat)
            if quick
            else make_ai(kind, seed=seed).decide(view_for(state, seat), legal_actions(state, seat))
        )
        state, events = apply(state, action)
        played.append((action, state, events))
    return played, facts_for(state, seats, table_seed)


def quick_move(
    state: GameState, seat: int, seats: Sequence[int] = (), table_seed: int = 0
) -> tuple[Action, GameState, tuple[Event, ...], Facts]:
    """:func:`engine.game.quick_action` for ``seat``, applied, and the facts of
    ``seats``: the fallback when an AI decision ran out of its budget."""
    action = quick_action(state, seat)
    new, events = apply(state, action)
    return action, new, events, facts_for(new, seats, table_seed)


def deal(
    rules: RuleSet,
    names: Sequence[str],
    seed: int,
    seats: Sequence[int],
    fair_key: bytes | None = None,
) -> tuple[GameState, Facts]:
    """The first deal of a new game (:func:`engine.dealing.new_game`, dealing fairly from
    ``fair_key`` when given) and the facts of ``seats`` (the people's)."""
    state = new_game(rules, list(names), seed=seed, fair_key=fair_key)
    return state, facts_for(state, seats, seed)


def hint(hand: Sequence[Card], rules: RuleSet) -> Partition:
    """The best melds of a hand (:func:`engine.search.best_melds`)."""
    return best_melds(tuple(hand), rules)


def coach_review(record: dict[str, Any], seat: int, deal: int, seed: int) -> DealReview:
    """The coach's review of ``seat`` (0-based) in ``deal`` (1-based) of a game ``record``
    (:func:`engine.ai.coach.review_record`, its budget a count of playouts, never time)."""
    return review_record(record, seat, deal, seed)[0]


def legal_commands(state: GameState, seat: int) -> list[str]:
    """The seat's legal actions now as command lines, in the engine's order."""
    return [format_action(action) for action in legal_actions(state, seat)]


def replay_positions(
    record: dict[str, Any], seat: int | None, over: bool, last_deal: int, locale: str
) -> tuple[ReplayPosition, ...]:
    """The positions of deals 1 to ``last_deal`` of a game ``record`` as one person sees
    them (:mod:`bot.ports.replays`): ``over`` (the game has ended) every hand; else only
    the hand of ``seat`` (``None``: none, someone who watches). The events are lines in
    ``locale``. Raises the record's :class:`~engine.errors.EngineError` when it does not
    replay (a damaged stored record)."""
    positions: list[ReplayPosition] = []
    with use_locale(locale):
        try:
            for step in replay_steps(record):
                if step.deal > last_deal:
                    break
                state = step.state
                tiles = state.rules.var.uses_tiles
                hands = tuple(
                    hand if over or shown == seat else None
                    for shown, hand in enumerate(state.hands)
                )
                lines = tuple(
                    render_event(event, state.players, tiles=tiles) for event in step.events
                )
                positions.append(
                    ReplayPosition(step.deal, step.number, public_view(state), hands, lines)
                )
        except ReplayStopped as stop:
            raise stop.error from None
    return tuple(positions)


def warm_up() -> int:
    """A few moves of every variant, so a new worker process has its modules imported and
    its caches filled before its first real call; returns the moves made.

    In a worker process (one with a parent) the heap built so far is then frozen
    (:func:`gc.freeze`): the interpreter's cyclic collector no longer walks the modules
    and tables that live as long as the worker (19,000 objects after warm-up, 2.5-5 ms
    of every full collection). What is frozen is alive, collected just before; an object
    frozen that dies later is freed by reference counting as usual."""
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
