"""JSON-ready dicts for game states, and back: ``state_from_dict(state_to_dict(s)) == s``.

Encoding (every value is a JSON type):

- cards: notation strings (``"7h"``, ``"10d"``, ``"jk"``); a card on the table is
  ``"7h"`` or, when it stands for another card (a joker), ``"jk=8h"`` / ``"jk=9"``.
- fractions (scores): an ``int`` when whole, else the string ``"n/d"`` (``"25/2"``).
- enums: their values (``"draw"``, ``"run"``).
- rules: ``{"variant", "preset", "options": {every option: value}}``.
- fair dealing (:mod:`engine.fairness`): ``"fair_key"``, ``"deal_secret"`` (hex) and
  ``"commitment"`` only when set, and a deal result's ``"secret"`` and ``"commitment"``
  only when revealed (a state of a game dealt from its seed has none of them).

The format carries ``"format": 1``. Reading validates types, ranges and that the
cards are a part of the variant's deck, and raises :class:`RecordError` (or a
subclass) with the place of the problem, never a bare ``KeyError``/``TypeError``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from engine.cards import Card
from engine.jsonio import (
    RecordCardError,
    RecordError,
    as_bool,
    as_int,
    as_list,
    as_mapping,
    as_str,
    card_from_json,
    cards_from_json,
    cards_to_json,
    fraction_from_json,
    fraction_to_json,
    meld_from_dict,
    meld_to_dict,
    need,
    place,
    placed_to_json,
    type_name,
)
from engine.rules import OptionValue, RuleSet, make_rules
from engine.state import DealResult, GameState, Phase, TurnState

__all__ = [
    "STATE_FORMAT",
    "RecordCardError",
    "RecordError",
    "as_bool",
    "as_int",
    "as_list",
    "as_mapping",
    "as_str",
    "card_from_json",
    "cards_from_json",
    "cards_to_json",
    "check_cards_in_deck",
    "fraction_from_json",
    "fraction_to_json",
    "meld_from_dict",
    "meld_to_dict",
    "need",
    "options_from_json",
    "placed_to_json",
    "rules_from_dict",
    "rules_to_dict",
    "state_from_dict",
    "state_to_dict",
]

STATE_FORMAT = 1
_T = TypeVar("_T")


# --- rules ----------------------------------------------------------------------------------


def rules_to_dict(rules: RuleSet) -> dict[str, Any]:
    """``{"variant": "basic", "preset": "beginner", "options": {every option: value}}``."""
    return {"variant": rules.variant, "preset": rules.preset, "options": rules.as_dict()}


def rules_from_dict(value: Any, where: str = "rules") -> RuleSet:
    """Rebuild a :class:`RuleSet` with :func:`engine.rules.make_rules` (so it is validated).

    Raises :class:`RecordError` for a wrong shape and
    :class:`engine.errors.RuleOptionError` (code ``bad_option``) for an unknown variant,
    preset or option or a bad value.
    """
    data = as_mapping(value, where)
    variant = as_str(need(data, "variant", where), place(where, "variant"))
    preset_raw = data.get("preset")
    preset = None if preset_raw is None else as_str(preset_raw, place(where, "preset"))
    options = options_from_json(data.get("options", {}), place(where, "options"))
    return make_rules(variant, preset, options)


def options_from_json(value: Any, where: str) -> dict[str, OptionValue]:
    """An options object: names to ``true/false``, numbers, strings or ``null``."""
    data = as_mapping(value, where)
    out: dict[str, OptionValue] = {}
    for key, raw in data.items():
        if raw is not None and not isinstance(raw, bool | int | str):
            raise RecordError(place(where, str(key)), f"expected a value, got {type_name(raw)}")
        out[str(key)] = raw
    return out


# --- deal results ---------------------------------------------------------------------------


def _result_to_dict(result: DealResult) -> dict[str, Any]:
    return {
        "deal_number": result.deal_number,
        "dealer": result.dealer,
        "winner": result.winner,
        "rummy": result.rummy,
        "points": list(result.points),
        "scores": [fraction_to_json(s) for s in result.scores],
    } | (
        {} if result.secret is None else {"secret": result.secret, "commitment": result.commitment}
    )


def _result_from_dict(value: Any, seats: int, where: str) -> DealResult:
    data = as_mapping(value, where)
    winner_raw = need(data, "winner", where)
    winner = (
        None if winner_raw is None else as_int(winner_raw, place(where, "winner"), 0, seats - 1)
    )
    return DealResult(
        deal_number=as_int(need(data, "deal_number", where), place(where, "deal_number"), 1),
        dealer=as_int(need(data, "dealer", where), place(where, "dealer"), 0, seats - 1),
        winner=winner,
        rummy=as_bool(need(data, "rummy", where), place(where, "rummy")),
        points=_per_seat(need(data, "points", where), seats, place(where, "points"), as_int),
        scores=_per_seat(
            need(data, "scores", where), seats, place(where, "scores"), fraction_from_json
        ),
        secret=_optional_hex(data.get("secret"), place(where, "secret")),
        commitment=_optional_hex(data.get("commitment"), place(where, "commitment")),
    )


def _optional_hex(value: Any, where: str) -> str | None:
    """``None``, or a string of 64 lowercase hex digits (a secret or a commitment)."""
    if value is None:
        return None
    text = as_str(value, where)
    if len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
        raise RecordError(where, "expected 64 lowercase hex digits")
    return text


def _optional_bytes(value: Any, where: str) -> bytes | None:
    text = _optional_hex(value, where)
    return None if text is None else bytes.fromhex(text)


def _per_seat(value: Any, seats: int, where: str, read: Callable[[Any, str], _T]) -> tuple[_T, ...]:
    items = as_list(value, where)
    if len(items) != seats:
        raise RecordError(where, f"needs one entry per player ({seats}), got {len(items)}")
    return tuple(read(v, place(where, i)) for i, v in enumerate(items))


# --- the state ------------------------------------------------------------------------------


def state_to_dict(state: GameState) -> dict[str, Any]:
    """The whole state as a JSON-ready dict (see the module docstring for the encoding)."""
    turn = state.turn
    var = state.rules.var
    return {
        "format": STATE_FORMAT,
        "rules": rules_to_dict(state.rules),
        "players": list(state.players),
        "seed": state.seed,
        "deal_number": state.deal_number,
        "dealer": state.dealer,
        "phase": state.phase.value,
        "current": state.current,
        "hands": [cards_to_json(h) for h in state.hands],
        "stock": cards_to_json(state.stock),
        "discard": cards_to_json(state.discard),
        "melds": [meld_to_dict(m) for m in state.melds],
        "turn": {
            "taken": None if turn.taken is None else str(turn.taken),
            "fresh": turn.fresh,
            "melds": turn.melds,
            "played": turn.played,
            "extra": var.extra_to_json(turn.extra),
        },
        "has_melded": list(state.has_melded),
        "has_played": list(state.has_played),
        "reuses": state.reuses,
        "totals": [fraction_to_json(t) for t in state.totals],
        "results": [_result_to_dict(r) for r in state.results],
        "winners": list(state.winners),
        "version": state.version,
        "extra": var.extra_to_json(state.extra),
    } | _fairness_to_dict(state)


def _fairness_to_dict(state: GameState) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if state.fair_key is not None:
        out["fair_key"] = state.fair_key.hex()
    if state.deal_secret is not None:
        out["deal_secret"] = state.deal_secret.hex()
    if state.commitment is not None:
        out["commitment"] = state.commitment
    return out


def state_from_dict(value: Any) -> GameState:
    """Rebuild a :class:`GameState` from :func:`state_to_dict`'s output (exactly).

    Raises :class:`RecordError` (code ``bad_record``; ``bad_card`` for an unknown card)
    for a wrong shape, a value out of range or cards that are not part of the
    variant's deck, and :class:`engine.errors.RuleOptionError` for bad rules.
    """
    data = as_mapping(value, "state")
    fmt = data.get("format", STATE_FORMAT)
    if fmt != STATE_FORMAT:
        raise RecordError("format", f"unknown state format {fmt!r}, expected {STATE_FORMAT}")
    rules = rules_from_dict(need(data, "rules"))
    players = tuple(
        as_str(p, place("players", i))
        for i, p in enumerate(as_list(need(data, "players"), "players"))
    )
    seats = len(players)
    if seats == 0 or len(set(players)) != seats:
        raise RecordError("players", "needs distinct names")
    last = seats - 1
    phase_text = as_str(need(data, "phase"), "phase")
    try:
        phase = Phase(phase_text)
    except ValueError:
        raise RecordError("phase", f"'{phase_text}' is not a phase") from None
    var = rules.var
    turn_data = as_mapping(need(data, "turn"), "turn")
    taken_raw = need(turn_data, "taken", "turn")
    turn = TurnState(
        taken=None if taken_raw is None else card_from_json(taken_raw, "turn.taken"),
        fresh=as_bool(need(turn_data, "fresh", "turn"), "turn.fresh"),
        melds=as_int(need(turn_data, "melds", "turn"), "turn.melds", 0),
        played=as_int(need(turn_data, "played", "turn"), "turn.played", 0),
        extra=var.extra_from_json(turn_data.get("extra"), "turn.extra"),
    )
    state = GameState(
        rules=rules,
        players=players,
        seed=as_int(need(data, "seed"), "seed"),
        deal_number=as_int(need(data, "deal_number"), "deal_number", 0),
        dealer=as_int(need(data, "dealer"), "dealer", 0, last),
        phase=phase,
        current=as_int(need(data, "current"), "current", 0, last),
        hands=_per_seat(need(data, "hands"), seats, "hands", cards_from_json),
        stock=cards_from_json(need(data, "stock"), "stock"),
        discard=cards_from_json(need(data, "discard"), "discard"),
        melds=tuple(
            meld_from_dict(m, seats, place("melds", i))
            for i, m in enumerate(as_list(need(data, "melds"), "melds"))
        ),
        turn=turn,
        has_melded=_per_seat(need(data, "has_melded"), seats, "has_melded", as_bool),
        has_played=_per_seat(need(data, "has_played"), seats, "has_played", as_bool),
        reuses=as_int(need(data, "reuses"), "reuses", 0),
        totals=_per_seat(need(data, "totals"), seats, "totals", fraction_from_json),
        results=tuple(
            _result_from_dict(r, seats, place("results", i))
            for i, r in enumerate(as_list(need(data, "results"), "results"))
        ),
        winners=tuple(
            as_int(w, place("winners", i), 0, last)
            for i, w in enumerate(as_list(need(data, "winners"), "winners"))
        ),
        version=as_int(need(data, "version"), "version", 0),
        extra=var.extra_from_json(data.get("extra"), "extra"),
        fair_key=_optional_bytes(data.get("fair_key"), "fair_key"),
        deal_secret=_optional_bytes(data.get("deal_secret"), "deal_secret"),
        commitment=_optional_hex(data.get("commitment"), "commitment"),
    )
    check_cards_in_deck(state.rules, seats, _all_cards(state), "state")
    return state


def _all_cards(state: GameState) -> list[Card]:
    cards = [c for h in state.hands for c in h]
    cards += [*state.stock, *state.discard]
    cards += [p.card for m in state.melds for p in m.cards]
    return cards


def check_cards_in_deck(rules: RuleSet, seats: int, cards: Iterable[Card], where: str) -> None:
    """Raise :class:`RecordError` when ``cards`` hold a card more often than the variant's
    deck for ``seats`` players does (a typo, or a card that is not in the pack)."""
    deck = Counter(rules.var.deck(rules, seats))
    used = Counter(cards)
    for card, count in used.items():
        if count > deck[card]:
            have = deck[card]
            raise RecordError(
                where, f"{card} appears {count} times, the pack has {have}", card=str(card)
            )
