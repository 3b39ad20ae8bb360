"""When a table next needs the service on its own: AI moves, turn timers, the next deal,
idle ends. Pure functions of the table and the time (seconds)."""

from __future__ import annotations

import enum
from dataclasses import replace

from bot.ports.model import Status
from bot.service.model import Table
from engine.game import current_player
from engine.state import GameState, Phase
from engine.views import public_view


class Due(enum.Enum):
    """What a due table needs now."""

    NOTHING = "nothing"
    AI_MOVE = "ai_move"  # the seat to act is an AI or on autopilot
    NEXT_DEAL = "next_deal"  # the score sheet was shown long enough
    WARN = "warn"  # the human's turn time runs out soon
    EXPIRED = "expired"  # the human's turn time is over: autopilot plays the turn
    IDLE_END = "idle_end"  # no human action for too long: the game ends
    LOBBY_EXPIRED = "lobby_expired"


def _turn_key(state: GameState | None) -> tuple[int, int, str] | None:
    if state is None or current_player(state) is None:
        return None
    return (state.deal_number, state.current, "turn")


def reschedule(before: Table | None, table: Table, now: float) -> Table:
    """Recompute ``deadline``, ``warned`` and ``due_at`` after a change.

    A new turn (another seat, or a new deal) starts a new deadline; the same
    seat continuing its turn keeps it.
    """
    settings = table.settings
    if table.status is Status.LOBBY:
        return replace(
            table,
            due_at=table.updated_at + settings.lobby_idle_hours * 3600,
            deadline=None,
            warned=False,
        )
    if table.status is not Status.PLAYING or table.state is None:
        return replace(table, due_at=None, deadline=None, warned=False)
    state = table.state
    idle_end = table.last_human_at + settings.idle_days * 86400
    if state.phase is Phase.HAND_OVER:
        return replace(
            table, due_at=min(now + settings.next_deal_delay, idle_end), deadline=None, warned=False
        )
    seat = state.current
    if table.seats[seat].automated:
        delay = settings.ai_delay
        if _humans_may_call(table):
            delay = max(delay, settings.call_window)  # give people time to press Rommé!
        return replace(table, due_at=min(now + delay, idle_end), deadline=None, warned=False)
    return _human_turn(before, table, now, idle_end)


def _human_turn(before: Table | None, table: Table, now: float, idle_end: float) -> Table:
    """``table`` (playing) at a human's turn: a new turn (another seat, or a new deal)
    starts a new deadline, the same seat continuing keeps it; due at the warning before
    the deadline, at the deadline once warned, at ``idle_end`` at the latest."""
    settings = table.settings
    state = table.state
    limit = settings.turn_seconds
    new_turn = (
        before is None or _turn_key(before.state) != _turn_key(state) or before.deadline is None
    )
    deadline = table.deadline
    warned = table.warned
    if limit is None:
        deadline, warned = None, False
    elif new_turn:
        deadline, warned = now + limit, False
    due = idle_end
    if deadline is not None:
        lead = settings.warning_lead() or 0.0
        due = min(due, deadline if warned else deadline - lead)
    return replace(table, deadline=deadline, warned=warned, due_at=due)


def _humans_may_call(table: Table) -> bool:
    """True when a human seat may act out of turn now (a variant's call window)."""
    assert table.state is not None
    may_call = getattr(public_view(table.state).extra, "may_call", ())
    return any(not table.seats[s].automated for s in may_call)


def due_kind(table: Table, now: float) -> Due:
    """What the table needs at time ``now`` (``NOTHING`` when it is not due)."""
    if table.due_at is None or table.due_at > now:
        return Due.NOTHING
    if table.status is Status.LOBBY:
        return Due.LOBBY_EXPIRED
    if table.status is not Status.PLAYING or table.state is None:
        return Due.NOTHING
    if table.last_human_at + table.settings.idle_days * 86400 <= now:
        return Due.IDLE_END
    return _turn_due(table, now)


def _turn_due(table: Table, now: float) -> Due:
    """What a playing table (``state`` set), due at ``now`` and not idle, needs: the next
    deal, an AI's move, or the expiry of (or the warning before) a human's deadline."""
    state = table.state
    assert state is not None
    if state.phase is Phase.HAND_OVER:
        return Due.NEXT_DEAL
    if table.seats[state.current].automated:
        return Due.AI_MOVE
    if table.deadline is not None:
        if table.deadline <= now:
            return Due.EXPIRED
        return Due.WARN
    return Due.NOTHING
