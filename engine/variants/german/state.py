"""The variant's own state: :class:`GermanState` (``GameState.extra``) and
:class:`GermanTurn` (``TurnState.extra``), helpers to read them, and their JSON form.

Who is still in the match is not stored: with a ``target`` a seat is eliminated
exactly when its penalty total exceeds it (german-romme.de.txt: "ein Spieler welcher
mehr Verlustpunkte geschrieben hat scheidet aus"); a buy-back sets the total back
below the target, so the totals alone say who plays. Eliminated seats are dealt no
cards, never move, never deal (:func:`next_active`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine.frozen import fast_init
from engine.jsonio import (
    RecordError,
    as_bool,
    as_int,
    as_list,
    as_mapping,
    fraction_from_json,
    need,
)
from engine.memo import reuse_last
from engine.options import RuleSet
from engine.state import GameState


@fast_init
@dataclass(frozen=True, slots=True)
class GermanTurn:
    """What the seat to move has done this turn (beyond :class:`engine.state.TurnState`).

    ``first``: it is the seat's first turn of the deal. ``opened_now``: the first meld was
    completed in this turn. ``provisional``: melds put down this turn whose total is still
    below the first-meld minimum (they are the last melds on the table; ``takeback``
    returns them). ``total``: first-meld points melded this turn. ``laid_off``: cards laid
    off this turn. ``exchanged``: a joker was exchanged this turn. ``dealer_discard``: the
    dealer's opening discard (option ``dealer_extra``).
    """

    first: bool = False
    opened_now: bool = False
    provisional: int = 0
    total: int = 0
    laid_off: int = 0
    exchanged: bool = False
    dealer_discard: bool = False


@fast_init
@dataclass(frozen=True, slots=True)
class Closing:
    """Lay-offs after someone went out (option ``closing_layoffs``): the ``winner``, whether
    it was hand ``rummy``, and the seats still to lay off, the one to move first."""

    winner: int
    rummy: bool
    queue: tuple[int, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class GermanState:
    """Per deal: ``played`` (seat finished a turn this deal), ``stolen`` (seat that kept a
    joker when cutting), ``closing`` (the lay-offs after going out), ``buyback`` (eliminated
    seats still to decide on a buy-back, the one to decide first). Per match:
    ``bought_back``, ``out_in`` (deal in which a seat was eliminated, 0 while it plays),
    ``chips`` (each seat's chip balance, + won / - paid) and ``pot``.
    """

    played: tuple[bool, ...]
    bought_back: tuple[bool, ...]
    out_in: tuple[int, ...]
    chips: tuple[Fraction, ...]
    pot: Fraction = Fraction(0)
    stolen: int | None = None
    closing: Closing | None = None
    buyback: tuple[int, ...] = field(default=())


def initial_extra(seats: int) -> GermanState:
    """The state of a new match of ``seats`` players."""
    return GermanState(
        played=(False,) * seats,
        bought_back=(False,) * seats,
        out_in=(0,) * seats,
        chips=(Fraction(0),) * seats,
    )


def game_extra(state: GameState) -> GermanState:
    """``state.extra`` (a fresh one when the match has none yet)."""
    extra = state.extra
    return extra if isinstance(extra, GermanState) else initial_extra(state.seats)


def turn_extra(state: GameState) -> GermanTurn:
    """``state.turn.extra`` (an empty record when there is none)."""
    extra = state.turn.extra
    return extra if isinstance(extra, GermanTurn) else GermanTurn()


def eliminated(state: GameState, seat: int) -> bool:
    """True when ``seat`` is out of the match (its total exceeds the target)."""
    return eliminated_seats(state)[seat]


def eliminated_seats(state: GameState) -> tuple[bool, ...]:
    """:func:`eliminated` for every seat, in seat order. Every view and move list asks,
    and the totals change only between deals: for the same ``totals`` tuple (a state's,
    immutable) and rule set the last answer is reused (:func:`engine.memo.reuse_last`)."""
    return _eliminated(state.totals, state.rules, state.seats)


@reuse_last
def _eliminated(totals: tuple[Fraction, ...], rules: RuleSet, seats: int) -> tuple[bool, ...]:
    target = rules.number("target")
    if target is None:
        return (False,) * seats
    return tuple(_above(total, target) for total in totals)


def _above(total: Fraction | int, target: int) -> bool:
    """``total > target`` without the slow mixed comparison of :class:`Fraction`."""
    if isinstance(total, Fraction):
        return total.numerator > target * total.denominator  # denominators are positive
    return total > target


def active_seats(state: GameState) -> tuple[int, ...]:
    """The seats still in the match, in seat order."""
    return tuple(s for s, out in enumerate(eliminated_seats(state)) if not out)


def next_active(state: GameState, seat: int) -> int:
    """The next seat to the left of ``seat`` that is still in the match (``seat`` itself
    when it is the only one)."""
    for step in range(1, state.seats + 1):
        nxt = (seat + step) % state.seats
        if not eliminated(state, nxt):
            return nxt
    return seat


def previous_active(state: GameState, seat: int) -> int:
    """The next seat to the right of ``seat`` that is still in the match."""
    for step in range(1, state.seats + 1):
        prev = (seat - step) % state.seats
        if not eliminated(state, prev):
            return prev
    return seat


def with_flag(flags: tuple[bool, ...], seat: int, value: bool = True) -> tuple[bool, ...]:
    """``flags`` with ``flags[seat]`` set to ``value``."""
    return tuple(value if i == seat else f for i, f in enumerate(flags))


# --- JSON ---------------------------------------------------------------------------------


def _fraction_json(value: Fraction) -> int | str:
    return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def turn_to_json(turn: GermanTurn) -> dict[str, Any]:
    """The JSON object of a :class:`GermanTurn`."""
    return {
        "first": turn.first,
        "opened_now": turn.opened_now,
        "provisional": turn.provisional,
        "total": turn.total,
        "laid_off": turn.laid_off,
        "exchanged": turn.exchanged,
        "dealer_discard": turn.dealer_discard,
    }


def game_to_json(extra: GermanState) -> dict[str, Any]:
    """The JSON object of a :class:`GermanState` (fractions as ints or ``"n/d"``)."""
    closing = None
    if extra.closing is not None:
        closing = {
            "winner": extra.closing.winner,
            "rummy": extra.closing.rummy,
            "queue": list(extra.closing.queue),
        }
    return {
        "played": list(extra.played),
        "bought_back": list(extra.bought_back),
        "out_in": list(extra.out_in),
        "chips": [_fraction_json(c) for c in extra.chips],
        "pot": _fraction_json(extra.pot),
        "stolen": extra.stolen,
        "closing": closing,
        "buyback": list(extra.buyback),
    }


def turn_from_json(data: Any, where: str) -> GermanTurn:
    """Inverse of :func:`turn_to_json`; raises ``RecordError`` naming the bad field."""
    obj = as_mapping(data, where)

    def flag(key: str) -> bool:
        return as_bool(need(obj, key, where), f"{where}.{key}")

    def number(key: str) -> int:
        return as_int(need(obj, key, where), f"{where}.{key}", 0)

    return GermanTurn(
        first=flag("first"),
        opened_now=flag("opened_now"),
        provisional=number("provisional"),
        total=number("total"),
        laid_off=number("laid_off"),
        exchanged=flag("exchanged"),
        dealer_discard=flag("dealer_discard"),
    )


def game_from_json(data: Any, where: str) -> GermanState:
    """Inverse of :func:`game_to_json`; raises ``RecordError`` naming the bad field."""
    obj = as_mapping(data, where)

    def items(key: str) -> list[tuple[Any, str]]:
        at = f"{where}.{key}"
        return [(v, f"{at}[{i}]") for i, v in enumerate(as_list(need(obj, key, where), at))]

    played = tuple(as_bool(v, w) for v, w in items("played"))
    seats = len(played)
    bought = tuple(as_bool(v, w) for v, w in items("bought_back"))
    out_in = tuple(as_int(v, w, 0) for v, w in items("out_in"))
    chips = tuple(fraction_from_json(v, w) for v, w in items("chips"))
    if not len(bought) == len(out_in) == len(chips) == seats:
        raise RecordError(where, "played, bought_back, out_in and chips need one entry per player")
    pot = fraction_from_json(need(obj, "pot", where), f"{where}.pot")
    stolen_raw = need(obj, "stolen", where)
    stolen = None if stolen_raw is None else as_int(stolen_raw, f"{where}.stolen", 0, seats - 1)
    closing_raw = need(obj, "closing", where)
    closing = None
    if closing_raw is not None:
        at = f"{where}.closing"
        c = as_mapping(closing_raw, at)
        closing = Closing(
            winner=as_int(need(c, "winner", at), f"{at}.winner", 0, seats - 1),
            rummy=as_bool(need(c, "rummy", at), f"{at}.rummy"),
            queue=tuple(
                as_int(v, f"{at}.queue[{i}]", 0, seats - 1)
                for i, v in enumerate(as_list(need(c, "queue", at), f"{at}.queue"))
            ),
        )
    buyback = tuple(as_int(v, w, 0, seats - 1) for v, w in items("buyback"))
    return GermanState(
        played=played,
        bought_back=bought,
        out_in=out_in,
        chips=chips,
        pot=pot,
        stolen=stolen,
        closing=closing,
        buyback=buyback,
    )
