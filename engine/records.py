"""JSON game records: read, replay and export (the format is documented in docs/records.md).

A record names the rules, the players, the first dealer, how each deal was dealt
and the actions as command lines (``"ben: meld 7h 8h 9h"``, see
:mod:`engine.commands`)::

    {"variant": "basic", "preset": "beginner", "options": {"going_rummy": "double"},
     "players": ["ana", "ben", "cem"], "dealer": 0, "seed": 7,
     "deal": {"hands": {"ana": [...], "ben": [...], "cem": [...]},
              "upcard": "4c", "stock": ["9s", ...]},
     "actions": ["ben: draw", "ben: meld 7h 8h 9h", "ben: discard ks"]}

A deal is explicit (``hands``/``upcard``/``stock``, stock top card first), a deck
dealt as the rules deal (``{"deck": [...]}``, :func:`engine.dealing.deal_from_deck`)
or a shuffle (``{"seed": S}``: deal number k is shuffled with
``engine.dealing.deal_rng(S, k)``, exactly as a game with seed S deals it).
Several deals: ``"deals": [{"deal": {...}, "actions": [...]}, ...]``; the replay
starts each further deal itself (``next``), the dealer rotating by the rules.
A record of format 2 may deal from a revealed secret (fair dealing,
:mod:`engine.fairness`): ``{"secret": hex, "commitment": hex, "deck": [...]}``; the
replay deals from the secret, and :mod:`engine.fair_check` checks the commitment and
the listed deck against it.

:func:`replay` never raises for a bad record: it reports the first problem.
:func:`export_record` writes what the game service stores as a record that
replays to the same state.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import jsonio
from engine.actions import Action, NextDeal
from engine.cards import Card
from engine.commands import find_player, format_record_line, parse_record_line
from engine.dealing import DealSpec, new_game, start_deal
from engine.errors import EngineError
from engine.events import Event
from engine.fairness import secret_from_hex
from engine.game import apply
from engine.jsonio import RecordError
from engine.rules import OptionValue, RuleSet, make_rules
from engine.serialize import check_cards_in_deck, options_from_json, state_to_dict
from engine.state import GameState, Phase
from engine.variants import get_variant

__all__ = [
    "FAIR_RECORD_FORMAT",
    "RECORD_FORMAT",
    "DealPlan",
    "RecordError",
    "RecordPlan",
    "RecordRun",
    "ReplayStep",
    "ReplayStopped",
    "deal_to_json",
    "dump_record",
    "export_record",
    "failed_report",
    "fair_deal_to_json",
    "parse_record_text",
    "read_record",
    "replay",
    "replay_steps",
    "revealed_deals",
    "run_record",
]

#: The format of a record whose deals carry no commitments (written before fair dealing).
RECORD_FORMAT = 1
#: The format of a record with fair deals (``{"secret", "commitment", "deck"}``).
FAIR_RECORD_FORMAT = 2
_FORMATS = (RECORD_FORMAT, FAIR_RECORD_FORMAT)
_FAIR_KEYS = frozenset({"secret", "commitment", "deck"})

_TOP_KEYS = frozenset(
    {
        "format",
        "comment",
        "variant",
        "preset",
        "options",
        "players",
        "dealer",
        "seed",
        "deal",
        "actions",
        "deals",
    }
)
_ENTRY_KEYS = frozenset({"deal", "actions", "comment"})


@dataclass(frozen=True, slots=True)
class DealPlan:
    """How one deal of a record is dealt, and its action lines (not yet parsed).

    Exactly one source is set: ``seed`` (shuffle with ``deal_rng(seed, deal number)``),
    ``deck`` (dealt from the front as the rules deal), ``hands``/``upcard``/``stock``
    (explicit; ``hands`` in seat order) or ``secret`` (fair dealing: shuffled from the
    revealed secret; ``commitment`` and ``listed``, the deck the record lists, are what
    :mod:`engine.fair_check` checks). All unset: shuffle with the game seed.
    ``where`` names the deal in messages (``"deals[1].deal"``).
    """

    where: str
    actions: tuple[Any, ...]
    seed: int | None = None
    deck: tuple[Card, ...] | None = None
    hands: tuple[tuple[Card, ...], ...] | None = None
    upcard: Card | None = None
    stock: tuple[Card, ...] = ()
    extra: Any = None
    secret: bytes | None = None
    commitment: str | None = None
    listed: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class RecordPlan:
    """A validated record: the rules, players, game seed, first dealer (``None``: drawn
    from the seed as :func:`engine.dealing.new_game` does) and the deals in order."""

    rules: RuleSet
    players: tuple[str, ...]
    seed: int
    dealer: int | None
    deals: tuple[DealPlan, ...]


# --- reading --------------------------------------------------------------------------------


def parse_record_text(text: str, where: str = "record") -> dict[str, Any]:
    """Parse the JSON text of a record. Raises :class:`RecordError` for invalid JSON
    (naming line and column) or when the top level is not an object."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise jsonio.RecordError(
            where, f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        raise jsonio.RecordError(where, "invalid JSON: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise jsonio.RecordError(where, f"invalid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise jsonio.RecordError(where, "a record is a JSON object {...}")
    return data


def dump_record(record: Mapping[str, Any]) -> str:
    """The JSON text of a record laid out for reading: one key or action line per line,
    card lists, number lists and small objects (``{"seed": 7}``) on one line.
    ``parse_record_text(dump_record(r))`` gives ``r`` back."""
    return _dump(record, "") + "\n"


def _dump(value: Any, indent: str) -> str:
    inner = indent + "  "
    if isinstance(value, Mapping):
        flat = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
        if (
            all(not isinstance(v, Mapping | list | tuple) for v in value.values())
            and len(flat) <= 60
        ):
            return flat
        items = [
            f"{inner}{json.dumps(str(k), ensure_ascii=False)}: {_dump(v, inner)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list | tuple):
        if _inline(value):
            return "[" + ", ".join(json.dumps(v, ensure_ascii=False) for v in value) + "]"
        return "[\n" + ",\n".join(inner + _dump(v, inner) for v in value) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=False)


def _inline(items: Sequence[Any]) -> bool:
    """Lists of cards or numbers go on one line."""
    return all(
        v is None or isinstance(v, int | float) or (isinstance(v, str) and len(v) <= 6)
        for v in items
    )


def read_record(record: Mapping[str, Any]) -> RecordPlan:
    """Validate a record and build its rules: a :class:`RecordPlan`.

    Raises :class:`RecordError` (``bad_record``, ``bad_card``),
    :class:`engine.errors.RuleOptionError` (``bad_option``) for unknown rules, and
    :class:`engine.commands.UnknownPlayer` for a dealer or hand of nobody at the table.
    Action lines are checked only when replayed.
    """
    data = jsonio.as_mapping(record, "record")
    unknown = sorted(str(k) for k in data if k not in _TOP_KEYS)
    if unknown:
        raise jsonio.RecordError(unknown[0], "unknown key; keys: " + ", ".join(sorted(_TOP_KEYS)))
    fmt = data.get("format", RECORD_FORMAT)
    if fmt not in _FORMATS or isinstance(fmt, bool):
        raise jsonio.RecordError(
            "format",
            f"unknown record format {fmt!r}, expected {RECORD_FORMAT} or {FAIR_RECORD_FORMAT}",
        )
    if "variant" not in data:
        raise jsonio.RecordError("variant", 'missing (e.g. "basic")')
    variant = jsonio.as_str(data["variant"], "variant")
    preset_raw = data.get("preset")
    preset = None if preset_raw is None else jsonio.as_str(preset_raw, "preset")
    options = options_from_json(data.get("options", {}), "options")
    rules = make_rules(variant, preset, options)
    if "players" not in data:
        raise jsonio.RecordError("players", "missing (a list of names)")
    players = tuple(
        jsonio.as_str(p, f"players[{i}]")
        for i, p in enumerate(jsonio.as_list(data["players"], "players"))
    )
    seed_raw = data.get("seed")
    top_seed = None if seed_raw is None else jsonio.as_int(seed_raw, "seed")
    dealer = _read_dealer(data.get("dealer"), players)
    deals = _read_deals(data, rules, players)
    seed = top_seed if top_seed is not None else deals[0].seed
    if seed is None:
        if any(_is_auto(d) for d in deals):
            where = next(d.where for d in deals if _is_auto(d))
            raise jsonio.RecordError(where, "missing, and the record has no seed to deal from")
        seed = 0
    return RecordPlan(rules, players, seed, dealer, deals)


def _is_auto(deal: DealPlan) -> bool:
    return deal.seed is None and deal.deck is None and deal.hands is None and deal.secret is None


def _read_dealer(value: Any, players: Sequence[str]) -> int | None:
    if value is None:
        return None
    if isinstance(value, str):
        return find_player(value, players)
    return jsonio.as_int(value, "dealer", 0, max(len(players) - 1, 0))


def _read_deals(
    data: Mapping[str, Any], rules: RuleSet, players: Sequence[str]
) -> tuple[DealPlan, ...]:
    if "deals" in data:
        if "deal" in data or "actions" in data:
            raise jsonio.RecordError("deals", "give either deals or deal and actions, not both")
        entries = jsonio.as_list(data["deals"], "deals")
        if not entries:
            raise jsonio.RecordError("deals", "no deals")
        out = []
        for i, raw in enumerate(entries):
            where = f"deals[{i}]"
            entry = jsonio.as_mapping(raw, where)
            unknown = sorted(str(k) for k in entry if k not in _ENTRY_KEYS)
            if unknown:
                raise jsonio.RecordError(
                    f"{where}.{unknown[0]}", "unknown key; keys: deal, actions"
                )
            out.append(
                _read_deal(
                    entry.get("deal"),
                    entry.get("actions", []),
                    f"{where}.deal",
                    f"{where}.actions",
                    rules,
                    players,
                )
            )
        return tuple(out)
    return (
        _read_deal(data.get("deal"), data.get("actions", []), "deal", "actions", rules, players),
    )


def _read_deal(
    value: Any, actions: Any, where: str, actions_where: str, rules: RuleSet, players: Sequence[str]
) -> DealPlan:
    lines = tuple(jsonio.as_list(actions, actions_where))
    if value is None:
        return DealPlan(where, lines)
    deal = jsonio.as_mapping(value, where)
    keys = set(deal)
    seats = len(players)
    if keys == {"seed"}:
        return DealPlan(where, lines, seed=jsonio.as_int(deal["seed"], f"{where}.seed"))
    if keys == {"deck"}:
        deck = jsonio.cards_from_json(deal["deck"], f"{where}.deck")
        check_cards_in_deck(rules, seats, deck, f"{where}.deck")
        return DealPlan(where, lines, deck=deck)
    if keys == _FAIR_KEYS:
        return _read_fair_deal(deal, lines, where)
    var = rules.var
    if keys <= {"hands", "upcard", "stock"} | var.deal_keys and "hands" in keys:
        hands = _read_hands(deal["hands"], players, f"{where}.hands")
        up_raw = deal.get("upcard")
        upcard = None if up_raw is None else jsonio.card_from_json(up_raw, f"{where}.upcard")
        stock = jsonio.cards_from_json(deal.get("stock", []), f"{where}.stock")
        every = [c for h in hands for c in h] + list(stock) + ([upcard] if upcard else [])
        check_cards_in_deck(rules, seats, every, where)
        return DealPlan(
            where,
            lines,
            hands=hands,
            upcard=upcard,
            stock=stock,
            extra=var.deal_extra_from_json(deal, where),
        )
    raise jsonio.RecordError(
        where,
        'a deal is {"hands", "upcard", "stock"}, {"deck"}, '
        '{"seed"} or {"secret", "commitment", "deck"}; got keys '
        + ", ".join(sorted(map(str, keys))),
    )


def _read_fair_deal(deal: Mapping[str, Any], lines: tuple[Any, ...], where: str) -> DealPlan:
    """``{"secret", "commitment", "deck"}``: 64 hex digits each, and the deck's cards (not
    checked against the pack here: :mod:`engine.fair_check` compares it with the deck the
    secret deals)."""
    secret_text = jsonio.as_str(deal["secret"], f"{where}.secret")
    secret = secret_from_hex(secret_text)
    if secret is None:
        raise jsonio.RecordError(f"{where}.secret", "expected 64 hex digits")
    committed = jsonio.as_str(deal["commitment"], f"{where}.commitment").lower()
    if secret_from_hex(committed) is None:
        raise jsonio.RecordError(f"{where}.commitment", "expected 64 hex digits")
    listed = jsonio.cards_from_json(deal["deck"], f"{where}.deck")
    return DealPlan(where, lines, secret=secret, commitment=committed, listed=listed)


def _read_hands(value: Any, players: Sequence[str], where: str) -> tuple[tuple[Card, ...], ...]:
    if isinstance(value, list | tuple):
        if len(value) != len(players):
            raise jsonio.RecordError(where, f"needs one hand per player ({len(players)})")
        return tuple(jsonio.cards_from_json(h, f"{where}[{i}]") for i, h in enumerate(value))
    data = jsonio.as_mapping(value, where)
    hands: list[tuple[Card, ...] | None] = [None] * len(players)
    for name, cards in data.items():
        seat = find_player(str(name), players)
        hands[seat] = jsonio.cards_from_json(cards, f"{where}.{name}")
    out = []
    for seat, hand in enumerate(hands):
        if hand is None:
            raise jsonio.RecordError(where, f"no hand for {players[seat]}")
        out.append(hand)
    return tuple(out)


def _deal_spec(
    plan: RecordPlan, deal: DealPlan, dealer: int, number: int, state: GameState
) -> DealSpec:
    """The explicit deal of ``deal`` with ``dealer`` dealing deal ``number`` after
    ``state`` (the new game, or the hand before); checks hand sizes (none for a seat the
    rules deal no cards, e.g. a player out of a German match), the upcard and what else
    the deal says (:meth:`engine.variant.Variant.check_deal_extra`) against the rules."""
    rules = plan.rules
    seats = len(plan.players)
    if deal.seed is not None:
        return rules.var.deal(rules, seats, dealer, deal.seed, number)
    if deal.deck is not None:
        return rules.var.deal_from_deck(rules, seats, dealer, deal.deck)
    assert deal.hands is not None
    dealt = rules.var.seats_dealt(state)
    sizes, upcard = rules.var.deal_shape(rules, seats, dealer, dealt)
    for seat, hand in enumerate(deal.hands):
        if len(hand) != sizes[seat]:
            why = "" if dealt[seat] else " (the player is out of the match)"
            raise jsonio.RecordError(
                f"{deal.where}.hands.{plan.players[seat]}",
                f"has {len(hand)} cards, the rules deal {sizes[seat]}{why}",
            )
    if not upcard and deal.upcard is not None:
        raise jsonio.RecordError(
            f"{deal.where}.upcard", "must be null: a player gets an extra card instead"
        )
    if upcard and deal.upcard is None:
        raise jsonio.RecordError(f"{deal.where}.upcard", "missing")
    spec = DealSpec(deal.hands, deal.upcard, deal.stock, deal.extra)
    rules.var.check_deal_extra(rules, spec, dealer, dealt, deal.where)
    return spec


def _uses_game_shuffle(deal: DealPlan, seed: int) -> bool:
    return _is_auto(deal) or deal.seed == seed


def _first_state(plan: RecordPlan) -> GameState:
    deal = plan.deals[0]
    if deal.secret is not None:
        dealer = plan.dealer
        if dealer is None:
            dealer = new_game(plan.rules, plan.players, seed=plan.seed).dealer
        return new_game(plan.rules, plan.players, seed=plan.seed, dealer=dealer, secret=deal.secret)
    state = new_game(plan.rules, plan.players, seed=plan.seed, dealer=plan.dealer)
    if _uses_game_shuffle(deal, plan.seed):
        return state
    spec = _deal_spec(plan, deal, state.dealer, 1, state)
    return new_game(plan.rules, plan.players, seed=plan.seed, dealer=state.dealer, deal=spec)


def _next_state(state: GameState, plan: RecordPlan, deal: DealPlan) -> GameState:
    """Deal the next hand as ``next`` does (the rules rotate the dealer), but from the
    record's deal when it is not the game's own shuffle."""
    dealt, _ = apply(state, NextDeal(state.dealer))
    if deal.secret is not None:
        number = dealt.deal_number
        spec = plan.rules.var.deal_next(state, dealt.dealer, deal.secret, number)
        new, _ = start_deal(state, dealt.dealer, spec, deal.secret)
        return new
    if _uses_game_shuffle(deal, state.seed):
        return dealt
    spec = _deal_spec(plan, deal, dealt.dealer, dealt.deal_number, state)
    new, _ = start_deal(state, dealt.dealer, spec)
    return new


# --- replay ---------------------------------------------------------------------------------


def _score_tables(state: GameState | None) -> dict[str, Any]:
    if state is None:
        return {"deals": [], "total": {}}
    names = state.players
    return {
        "deals": [
            {names[s]: jsonio.fraction_to_json(v) for s, v in enumerate(r.scores)}
            for r in state.results
        ],
        "total": {names[s]: jsonio.fraction_to_json(v) for s, v in enumerate(state.totals)},
    }


def _report(state: GameState | None, applied: int, error: dict[str, Any] | None) -> dict[str, Any]:
    phase = state.phase if state is not None else None
    return {
        "ok": error is None,
        "applied": applied,
        "error": error,
        "scores": _score_tables(state),
        "hand_over": phase in (Phase.HAND_OVER, Phase.GAME_OVER),
        "game_over": phase is Phase.GAME_OVER,
        "winners": [state.players[s] for s in state.winners] if state is not None else [],
        "state": state_to_dict(state) if state is not None else None,
    }


def _json_safe(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [_json_safe(v) for v in value]
    return str(value)


def _error(index: int | None, action: Any, exc: EngineError, prefix: str = "") -> dict[str, Any]:
    text = None if action is None else action if isinstance(action, str) else repr(action)
    return {
        "index": index,
        "action": text,
        "code": exc.code,
        "message": prefix + exc.message,
        "params": {k: _json_safe(v) for k, v in exc.params.items()},
    }


def failed_report(error: EngineError) -> dict[str, Any]:
    """The :func:`replay` report for a record that could not even be read (e.g. the
    :class:`RecordError` of :func:`parse_record_text`): ``ok`` false, ``index`` ``None``."""
    return _report(None, 0, _error(None, None, error))


def replay(record: Mapping[str, Any]) -> dict[str, Any]:
    """Replay a record and report the outcome; never raises for a bad record.

    Returns ``{"ok", "applied", "error", "scores", "hand_over", "game_over", "winners",
    "state"}``: ``applied`` counts the action lines applied; ``error`` is ``None`` or
    ``{"index", "action", "code", "message", "params"}`` for the first problem (``index``: 0-based
    position in all action lines of all deals, ``None`` for a problem of the record
    itself or of a deal; ``code``: the engine error's stable code, e.g. ``bad_record``,
    ``bad_card``, ``bad_option``, ``unknown_command``, ``card_not_in_hand``; ``params``:
    the error's parameters for a translated message).
    ``scores``: ``{"deals": [{player: score}, ...], "total": {player: score}}`` (ints, or
    ``"n/d"`` strings for split ties). ``state``: :func:`engine.serialize.state_to_dict`
    of the last good state (``None`` when the record could not start a game).
    The scores are the engine's (e.g. basic-rummy.de.txt: "Der Gesamtwert aller Karten
    in den Händen der anderen Spieler wird zur Gesamtpunktzahl des Gewinners addiert.");
    a deal the record stops in is not scored.
    """
    run = run_record(record)
    if run.error is None:
        return _report(run.state, run.applied, None)
    if run.state is None:
        return failed_report(run.error)
    if run.action_number is None:
        return _report(run.state, run.applied, _error(None, None, run.error, f"deal {run.deal}: "))
    return _report(run.state, run.applied, _error(run.applied, run.line, run.error))


@dataclass(frozen=True, slots=True)
class RecordRun:
    """What :func:`run_record` did: the last good ``state`` (``None``: the record could not
    start a game), the action lines ``applied``, and the first ``error`` (``None``: all
    went through) with the ``deal`` (1-based) it happened in, and for an action's error
    its ``action_number`` (1-based, within the deal) and ``line``."""

    state: GameState | None
    applied: int
    error: EngineError | None = None
    deal: int | None = None
    action_number: int | None = None
    line: Any = None


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One action line of a record replayed (:func:`replay_steps`): the ``deal`` (1-based),
    the action's ``number`` within it (1-based), the record ``line`` (``"ana: draw"``),
    the ``state`` after it and its ``events``. The first step of each deal has
    ``number`` 0, ``line`` ``None`` and no events: the deal as dealt."""

    deal: int
    number: int
    line: str | None
    state: GameState
    events: tuple[Event, ...] = ()


class ReplayStopped(Exception):
    """A record's replay stopped at its first problem: the engine's ``error``, the last
    good ``state`` (``None``: no game could start), the action lines ``applied`` before,
    the ``deal`` (1-based) and, for an action's error, its ``number`` and ``line``."""

    def __init__(
        self,
        error: EngineError,
        state: GameState | None,
        applied: int,
        deal: int,
        number: int | None = None,
        line: Any = None,
    ) -> None:
        super().__init__(str(error))
        self.error = error
        self.state = state
        self.applied = applied
        self.deal = deal
        self.number = number
        self.line = line


def replay_steps(record: Mapping[str, Any]) -> Iterator[ReplayStep]:
    """The positions of a record, one per deal start and one per action line, in order.
    Raises :class:`ReplayStopped` at the first problem (after yielding every good step
    before it)."""
    try:
        plan = read_record(record)
        state = _first_state(plan)
    except EngineError as exc:
        raise ReplayStopped(exc, None, 0, 1) from None
    applied = 0
    for deal_number, deal in enumerate(plan.deals, start=1):
        if deal_number > 1:
            try:
                state = _next_state(state, plan, deal)
            except EngineError as exc:
                raise ReplayStopped(exc, state, applied, deal_number) from None
        yield ReplayStep(deal_number, 0, None, state)
        for position, line in enumerate(deal.actions, start=1):
            try:
                text = jsonio.as_str(line, f"{deal.where.removesuffix('.deal')} action")
                state, events = apply(state, parse_record_line(text, plan.players))
            except EngineError as exc:
                raise ReplayStopped(exc, state, applied, deal_number, position, line) from None
            applied += 1
            yield ReplayStep(deal_number, position, text, state, events)


def run_record(record: Mapping[str, Any]) -> RecordRun:
    """Replay a record up to its first problem (the engine's error, not a report):
    :func:`replay` reports it, :mod:`engine.fair_check` names the deal and action."""
    state: GameState | None = None
    applied = 0
    try:
        for step in replay_steps(record):
            state = step.state
            if step.number:
                applied += 1
    except ReplayStopped as stop:
        return RecordRun(stop.state, stop.applied, stop.error, stop.deal, stop.number, stop.line)
    return RecordRun(state, applied)


# --- export ---------------------------------------------------------------------------------


def deal_to_json(
    spec: DealSpec, players: Sequence[str], variant: str | None = None
) -> dict[str, Any]:
    """An explicit deal as a record writes it: hands by player name, upcard, stock
    (top card first), and what ``variant`` deals besides (``DealSpec.extra``, e.g. a
    face-up tile)."""
    out = {
        "hands": {players[s]: jsonio.cards_to_json(h) for s, h in enumerate(spec.hands)},
        "upcard": None if spec.upcard is None else str(spec.upcard),
        "stock": jsonio.cards_to_json(spec.stock),
    }
    if variant is not None:
        out |= get_variant(variant).deal_extra_to_json(spec.extra)
    return out


def _options_vs_preset(rules: RuleSet) -> dict[str, OptionValue]:
    """The option values that differ from the preset (defaults < preset < options)."""
    var = rules.var
    base: dict[str, OptionValue] = {o.name: o.default for o in var.options}
    base.update(var.presets[rules.preset].values)
    return {k: v for k, v in rules.values if base.get(k) != v}


def revealed_deals(state: GameState) -> list[tuple[bytes, str] | None]:
    """The secret and commitment of each deal of the game of ``state`` (index k: deal
    k+1) for :func:`export_record`: from the finished deals' results and the running
    deal's own (for a game that has ended, or was given up; never show it to the players
    before), ``None`` for a deal not dealt from a secret."""
    out: list[tuple[bytes, str] | None] = [None] * state.deal_number
    for result in state.results:
        if (
            result.secret is not None
            and result.commitment is not None
            and 1 <= result.deal_number <= state.deal_number
        ):
            out[result.deal_number - 1] = (bytes.fromhex(result.secret), result.commitment)
    if state.deal_number and state.deal_secret is not None and state.commitment is not None:
        out[state.deal_number - 1] = (state.deal_secret, state.commitment)
    return out


def fair_deal_to_json(
    rules: RuleSet, seats: int, number: int, secret: bytes, committed: str
) -> dict[str, Any]:
    """A fair deal as a record writes it: the revealed secret, the commitment announced
    when the deal started and the deck the secret deals
    (:meth:`engine.variant.Variant.deck_order`), first card dealt first."""
    deck = rules.var.deck_order(rules, seats, secret, number)
    return {"secret": secret.hex(), "commitment": committed, "deck": jsonio.cards_to_json(deck)}


def export_record(
    rules: RuleSet,
    players: Sequence[str],
    seed: int,
    dealer: int,
    actions: Iterable[Action | str],
    deals: Sequence[DealSpec | None] = (),
    comment: str | None = None,
    fair: Sequence[tuple[bytes, str] | None] = (),
) -> dict[str, Any]:
    """A record of a game as the game service stores it.

    ``rules``, ``players``, ``seed`` and the first ``dealer`` are what
    :func:`engine.dealing.new_game` was called with; ``actions`` is the whole action
    log in order, as actions or record lines (``"ben: draw"``). Every ``next``
    (:class:`engine.actions.NextDeal`) in the log ends a deal; the record lists the
    deals and the replay deals the next one itself. ``deals[k]`` is the explicit
    :class:`engine.dealing.DealSpec` of deal k+1 when the game was not dealt from its
    seed (``None`` or missing: ``{"seed": seed}``). ``fair[k]``: the secret and
    commitment of deal k+1 of a fair game (:func:`revealed_deals`), written as
    :func:`fair_deal_to_json`; a record with one is of format 2
    (:data:`FAIR_RECORD_FORMAT`). ``replay(export_record(...))``
    ends in the same state as the game. Raises a
    :class:`engine.errors.CommandError` for a text line that does not parse.
    """
    names = tuple(players)
    per_deal: list[list[str]] = [[]]
    for item in actions:
        action = parse_record_line(item, names) if isinstance(item, str) else item
        if isinstance(action, NextDeal):
            per_deal.append([])
        else:
            per_deal[-1].append(format_record_line(action, names))
    entries = []
    any_fair = False
    for k, lines in enumerate(per_deal):
        spec = deals[k] if k < len(deals) else None
        revealed = fair[k] if k < len(fair) else None
        if revealed is not None:
            deal = fair_deal_to_json(rules, len(names), k + 1, *revealed)
            any_fair = True
        else:
            deal = {"seed": seed} if spec is None else deal_to_json(spec, names, rules.variant)
        entries.append({"deal": deal, "actions": lines})
    record: dict[str, Any] = {"format": FAIR_RECORD_FORMAT if any_fair else RECORD_FORMAT}
    if comment:
        record["comment"] = comment
    record |= {
        "variant": rules.variant,
        "preset": rules.preset,
        "options": _options_vs_preset(rules),
        "players": list(names),
        "seed": seed,
        "dealer": dealer,
    }
    if len(entries) == 1:
        record |= entries[0]
    else:
        record["deals"] = entries
    return record
