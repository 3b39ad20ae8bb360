"""Small readers of a Romanian state shared by the moves, the legal actions and the AI.

romanian-rummy.de.txt: "Nur bei diesem letzten Spielzug darf man den offen liegenden
Anfangsstein vom Ende der Mauer aufnehmen, um so seine Hand zu vervollständigen" (the
going-out plan read here keeps that move possible)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from engine.cards import Card
from engine.errors import WrongPhase
from engine.frozen import replace
from engine.melds import Meld
from engine.state import GameState, Phase
from engine.variants.romanian.errors import FirstDiscard, PrePlayPending
from engine.variants.romanian.plan import Plan, PlanContext, going_out_plan
from engine.variants.romanian.state import Obligation, RomanianExtra, TurnExtra

Owed = Obligation | None | Literal["now"]
"""The meld a plan must pay: an :class:`Obligation`, ``None``, or ``"now"``: the one
pending this turn."""

_EXPECTED = {
    Phase.DRAW: "draw from the wall, take from the discard row or take the face-up tile",
    Phase.PLAY: "you have drawn; meld, lay off, exchange a Joly or discard",
    Phase.HAND_OVER: "the game is over; the next one starts with 'next'",
    Phase.GAME_OVER: "the match is over",
}


def extra_of(state: GameState) -> RomanianExtra:
    """The state's :class:`RomanianExtra` (a deal always sets one)."""
    extra = state.extra
    assert isinstance(extra, RomanianExtra)
    return extra


def turn_of(state: GameState) -> TurnExtra:
    """The turn's :class:`TurnExtra` (an empty one when the turn has none yet)."""
    extra = state.turn.extra
    return extra if isinstance(extra, TurnExtra) else TurnExtra()


def with_extra(state: GameState, **changes: object) -> GameState:
    """A copy with fields of :class:`RomanianExtra` changed."""
    return replace(state, extra=replace(extra_of(state), **changes))


def with_turn(state: GameState, **changes: object) -> GameState:
    """A copy with fields of the turn's :class:`TurnExtra` changed."""
    turn = replace(turn_of(state), **changes)
    return replace(state, turn=replace(state.turn, extra=turn))


def need_phase(state: GameState, phase: Phase, action: str) -> None:
    """Raise ``WrongPhase`` unless the state is in ``phase``."""
    if state.phase is not phase:
        raise WrongPhase(action=action, expected=_EXPECTED[state.phase], phase=state.phase.value)


def need_play_started(state: GameState) -> None:
    """Raise ``PrePlayPending`` while doubla and announcements are still being made."""
    if state.phase in (Phase.DRAW, Phase.PLAY) and extra_of(state).preplay is not None:
        raise PrePlayPending(player=state.players[state.current])


def first_turn(state: GameState) -> bool:
    """True in the first player's first turn, which is a discard and nothing else:
    "Der erste Spieler ... beginnt das Spiel, indem er einen unerwünschten Stein offen auf
    den Tisch legt."""
    return state.phase is Phase.PLAY and not state.discard and state.reuses == 0


def need_not_first_turn(state: GameState) -> None:
    """Raise ``FirstDiscard`` in the first player's opening discard turn."""
    if first_turn(state):
        raise FirstDiscard()


def opened_before(state: GameState, seat: int) -> bool:
    """True when ``seat`` opened in an earlier turn (not in this one)."""
    return state.has_melded[seat] and not (seat == state.current and turn_of(state).opening)


def plan_context(
    state: GameState,
    seat: int,
    melds: Sequence[Meld] | None = None,
    opened: bool | None = None,
    opening_turn: bool | None = None,
    obligation: Owed = "now",
) -> PlanContext:
    """The limits of a going-out plan for ``seat`` now (or after a move: ``melds``,
    ``opened``, ``opening_turn`` and the owed meld ``obligation`` as they would be; by
    default the meld owed now, which the plan's new melds must pay first)."""
    table = tuple(state.melds if melds is None else melds)
    has_opened = state.has_melded[seat] if opened is None else opened
    in_opening = (
        (turn_of(state).opening or not state.has_melded[seat])
        if opening_turn is None
        else opening_turn
    )
    threshold = None if has_opened else state.rules.number("opening")
    if not has_opened:
        targets: tuple[int, ...] = ()
    elif in_opening:
        targets = tuple(i for i, m in enumerate(table) if m.owner == seat)
    else:
        targets = tuple(range(len(table)))
    owed = turn_of(state).obligation if obligation == "now" else obligation
    return PlanContext(table, seat, targets, threshold, state.turn.taken, owed)


def plan_for(
    state: GameState,
    seat: int,
    hand: Sequence[Card] | None = None,
    melds: Sequence[Meld] | None = None,
    opened: bool | None = None,
    opening_turn: bool | None = None,
    obligation: Owed = "now",
) -> Plan | None:
    """A going-out plan of ``seat`` for its current hand (or ``hand``); the other arguments
    describe the table after a move, as in :func:`plan_context`. None in the first
    player's first turn, which is a discard and nothing else (:func:`first_turn`)."""
    if first_turn(state):
        return None
    ctx = plan_context(state, seat, melds, opened, opening_turn, obligation)
    return going_out_plan(state.hands[seat] if hand is None else hand, ctx)
