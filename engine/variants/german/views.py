"""What the views show of the variant's state (``PublicView.extra`` / ``PlayerView.extra``).

No hidden card is in either: the public record holds numbers and seats only; the seat's
own record says where its first meld stands ("Show the running total while a player
builds the opening") and what it may do this turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import cast

from engine.frozen import fast_init
from engine.state import GameState, Phase
from engine.variants.german.ending import buyback_terms
from engine.variants.german.moves import may_play_on_table, opening_needed
from engine.variants.german.state import eliminated_seats, game_extra, turn_extra


@fast_init
@dataclass(frozen=True, slots=True)
class GermanTable:
    """Public: ``opening_needed`` (first-meld minimum), ``opening_total`` and
    ``provisional`` (the seat to move: first-meld points melded this turn, melds still
    below the minimum), ``eliminated`` / ``bought_back`` per seat, ``chips`` per seat and the
    ``pot`` (``None`` / 0 without a chip sheet), ``stolen`` (seat that kept a joker when
    cutting), ``closing`` (seats still to lay off after someone went out), ``buyback``
    (seat deciding on a buy-back, with ``buyback_price`` and ``buyback_points``)."""

    opening_needed: int
    opening_total: int
    provisional: int
    eliminated: tuple[bool, ...]
    bought_back: tuple[bool, ...]
    chips: tuple[Fraction, ...] | None
    pot: Fraction
    stolen: int | None
    closing: tuple[int, ...]
    buyback: int | None
    buyback_price: Fraction
    buyback_points: Fraction


@fast_init
@dataclass(frozen=True, slots=True)
class SeatStatus:
    """Private to one seat: ``opened`` (first meld stands), ``may_lay_off`` (lay-offs and
    exchanges allowed now), ``first_turn`` (its first turn of the deal), ``fresh`` (nothing
    melded in earlier turns: hand rummy is still possible), ``opening_total`` /
    ``opening_needed`` / ``provisional`` (this turn's first meld), ``dealer_discard`` (it
    opens the deal by discarding), ``laid_off`` (cards laid off this turn)."""

    opened: bool
    may_lay_off: bool
    first_turn: bool
    fresh: bool
    opening_total: int
    opening_needed: int
    provisional: int
    dealer_discard: bool
    laid_off: int


_NO_BUYBACK = (Fraction(0), Fraction(0))


def _moving(state: GameState) -> bool:
    return state.phase in (Phase.DRAW, Phase.PLAY)


_LAST_TABLE: tuple[object, object, object, object, bool, GermanTable] | None = None


def public_extra(state: GameState) -> GermanTable:
    """The public record of ``state``. It is read from the match record, the turn record,
    the totals and the rules only (all immutable), so while the same objects come again
    (a draw keeps them; 44 % of the views of a random German game) the last record is
    reused."""
    global _LAST_TABLE
    moving = _moving(state)
    last = _LAST_TABLE  # one read: another thread may replace it meanwhile
    if (
        last is not None
        and last[0] is state.extra
        and last[1] is state.turn.extra
        and last[2] is state.totals
        and last[3] is state.rules
        and last[4] == moving
    ):
        return last[5]
    table = _public_extra(state, moving)
    _LAST_TABLE = (state.extra, state.turn.extra, state.totals, state.rules, moving, table)
    return table


def _public_extra(state: GameState, moving: bool) -> GermanTable:
    extra = game_extra(state)
    turn = turn_extra(state)
    moving = moving and extra.closing is None and not extra.buyback
    price, points = buyback_terms(state) if extra.buyback else _NO_BUYBACK
    return GermanTable(
        opening_needed=opening_needed(state),
        opening_total=turn.total if moving else 0,
        provisional=turn.provisional if moving else 0,
        eliminated=eliminated_seats(state),
        bought_back=extra.bought_back,
        chips=extra.chips if state.rules.text("chips") != "off" else None,
        pot=extra.pot,
        stolen=extra.stolen,
        closing=extra.closing.queue if extra.closing is not None else (),
        buyback=extra.buyback[0] if extra.buyback else None,
        buyback_price=price,
        buyback_points=points,
    )


# The last record per (seat, phase): a draw-phase view of a seat comes every other turn,
# with the turn's shared start record and, mostly, the same match record.
_LAST_SEAT: dict[tuple[int, Phase], tuple[object, ...]] = {}


def private_extra(state: GameState, seat: int) -> SeatStatus:
    """The record of ``seat``; turn details only while it is the seat to move. It is read
    from immutable parts of the state only, so while they are the same objects as at the
    seat's last view in the same phase (a turn starts with a shared turn record) that
    record is reused."""
    key = (seat, state.phase)
    last = _LAST_SEAT.get(key)
    if (
        last is not None
        and last[0] is state.extra
        and last[1] is state.turn
        and last[2] == state.current
        and last[3] is state.has_melded
        and last[4] is state.has_played
        and last[5] is state.totals
        and last[6] is state.rules
    ):
        return cast(SeatStatus, last[7])
    status = _private_extra(state, seat)
    if len(_LAST_SEAT) >= 64:
        _LAST_SEAT.clear()
    _LAST_SEAT[key] = (
        state.extra,
        state.turn,
        state.current,
        state.has_melded,
        state.has_played,
        state.totals,
        state.rules,
        status,
    )
    return status


def _private_extra(state: GameState, seat: int) -> SeatStatus:
    extra = game_extra(state)
    mine = _moving(state) and state.current == seat and extra.closing is None and not extra.buyback
    if not mine:
        # positional, in field order: a view is built for every action of a simulation
        return SeatStatus(
            bool(state.has_melded) and state.has_melded[seat],
            False,
            not extra.played[seat],
            not state.has_played[seat] if state.has_played else True,
            0,
            opening_needed(state),
            0,
            False,
            0,
        )
    turn = turn_extra(state)
    return SeatStatus(
        bool(state.has_melded) and state.has_melded[seat],
        state.phase is Phase.PLAY and may_play_on_table(state, seat),
        turn.first,
        state.turn.fresh,
        turn.total,
        opening_needed(state),
        turn.provisional,
        turn.dealer_discard,
        turn.laid_off,
    )
