"""The JSON form of events, and back: ``event_from_json(event_to_json(e)) == e``.

Every event :func:`engine.game.apply` can return (the shared ones of
:mod:`engine.events` and the variants' own, :mod:`engine.variants.german.events`,
:mod:`engine.variants.romanian.events`, :mod:`engine.variants.rummy500.events`) has a
JSON form, so that a committed change's events can be stored (no pickles) and rendered
later by another process. The form is an object naming the class, with one key per field::

    {"type": "Discarded", "seat": 1, "card": "7h"}
    {"type": "LaidOff", "seat": 0, "index": 2, "cards": ["8h"],
     "meld": {"kind": "run", "owner": 1, "cards": ["6h", "7h", "8h"], "owners": [1, 1, 0]}}
    {"type": "HandEnded", "deal_number": 1, "winner": null, "rummy": false,
     "hands": [["jk"], []], "points": [25, 0], "scores": ["25/2", 0], "totals": [25, 0]}

Values follow :mod:`engine.serialize`: cards as notation strings (``"7h"``, ``"r7"``,
``"jk"``), fractions as an ``int`` when whole else ``"n/d"``, melds as
:func:`engine.jsonio.meld_to_dict`, tuples as lists, ``None`` as ``null``, and the records
inside an event (a :class:`~engine.variants.romanian.events.SeatScore`, a
:class:`~engine.variants.german.events.Payment`) as objects of their fields without
``"type"``. The codec of each class is derived once from its field annotations, so a field
of a type this module does not know fails at import, not when an event is stored.

Reading validates the shape and the types and raises :class:`engine.jsonio.RecordError`
(code ``bad_record``; :class:`engine.jsonio.RecordCardError`, code ``bad_card``, for a
card that is not in the notation) naming the place (``"events[3].meld.cards[1]"``). It does
not check that the event is possible in a game (a seat number against the table size,
cards against the deck): the events come from the engine.

This module is not compiled (pyproject's mypyc exclude list): the variants' events are
not members of the :data:`engine.events.Event` union that compiled code would check.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any, cast

from engine import events as shared
from engine import jsonio
from engine.cards import Card
from engine.events import Event
from engine.melds import Meld
from engine.variants import VARIANTS
from engine.variants.german import events as german
from engine.variants.romanian import events as romanian
from engine.variants.rummy500 import events as rummy500

__all__ = [
    "EVENT_CLASSES",
    "event_from_json",
    "event_to_json",
    "events_from_json",
    "events_to_json",
]

#: Every event class with a JSON form, by module. A new event class must be added here
#: (tests/engine/test_events_json.py fails for an event module's class that is not).
EVENT_CLASSES: tuple[type, ...] = (
    shared.DealStarted,
    shared.Drew,
    shared.TookDiscard,
    shared.StockRenewed,
    shared.Melded,
    shared.LaidOff,
    shared.JokerSwapped,
    shared.Discarded,
    shared.WentOut,
    shared.HandEnded,
    shared.GameEnded,
    german.OpeningProgress,
    german.OpeningWithdrawn,
    german.JokerExchanged,
    german.DealBlocked,
    german.JokerStolen,
    german.ClosingLayOffs,
    german.LayOffsDone,
    german.Eliminated,
    german.BuyBackOffered,
    german.BoughtBack,
    german.BuyBackDeclined,
    german.ChipsMoved,
    romanian.DoublaAnnounced,
    romanian.FaceUpAnnounced,
    romanian.DoublaOffered,
    romanian.DoublaAnswered,
    romanian.PlayerReady,
    romanian.PlayBegins,
    romanian.TookFromRow,
    romanian.TookFaceUp,
    romanian.JolyExchanged,
    romanian.FewTilesLeft,
    romanian.GameBlocked,
    romanian.ScoreSheet,
    rummy500.PileTaken,
    rummy500.RummyCalled,
    rummy500.Floated,
)

#: Records that appear inside events (as objects of their fields, without ``"type"``).
_NESTED: tuple[type, ...] = (romanian.SeatScore, german.Payment)

# a meld's owner is read against the largest table of any variant (the event does not
# say how many seats its game has)
_SEATS = max(v.max_players for v in VARIANTS.values())

_Encode = Callable[[Any], Any]
_Decode = Callable[[Any, str], Any]


class _Field:
    """How one field is written and read."""

    __slots__ = ("decode", "encode", "name", "required")

    def __init__(self, field: dataclasses.Field[Any], kind: Any) -> None:
        self.name = field.name
        self.encode, self.decode = _codec(kind)
        self.required = (
            field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING
        )


class _Record:
    """The codec of one class: its fields, in declaration order."""

    __slots__ = ("cls", "fields", "names")

    def __init__(self, cls: type) -> None:
        hints = typing.get_type_hints(cls)
        self.cls = cls
        self.fields = tuple(_Field(f, hints[f.name]) for f in dataclasses.fields(cls))
        self.names = frozenset(f.name for f in self.fields)

    def to_json(self, obj: Any) -> dict[str, Any]:
        return {f.name: f.encode(getattr(obj, f.name)) for f in self.fields}

    def from_json(
        self, data: typing.Mapping[str, Any], where: str, skip: frozenset[str] = frozenset()
    ) -> Any:
        for key in data:
            if key not in self.names and key not in skip:
                raise jsonio.RecordError(
                    jsonio.place(where, str(key)), f"{self.cls.__name__} has no such field"
                )
        values: dict[str, Any] = {}
        for f in self.fields:
            if f.name in data:
                values[f.name] = f.decode(data[f.name], jsonio.place(where, f.name))
            elif f.required:
                raise jsonio.RecordError(jsonio.place(where, f.name), "missing")
        return self.cls(**values)


def _codec(kind: Any) -> tuple[_Encode, _Decode]:
    """The writer and reader of a field annotated ``kind``; ``TypeError`` for a type that
    has no JSON form here."""
    if kind is bool:
        return _same, jsonio.as_bool
    if kind is int:
        return _same, _read_int
    if kind is str:
        return _same, jsonio.as_str
    if kind is Card:
        return str, jsonio.card_from_json
    if kind is Fraction:
        return _write_fraction, jsonio.fraction_from_json
    if kind is Meld:
        return jsonio.meld_to_dict, _read_meld
    if kind in _NESTED:
        record = _Record(kind)
        return record.to_json, lambda value, where: record.from_json(
            jsonio.as_mapping(value, where), where
        )
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item_encode, item_decode = _codec(args[0])
        return (
            lambda value: [item_encode(v) for v in value],
            lambda value, where: tuple(
                item_decode(v, jsonio.place(where, i))
                for i, v in enumerate(jsonio.as_list(value, where))
            ),
        )
    if origin in (types.UnionType, typing.Union) and len(args) == 2 and type(None) in args:
        inner_encode, inner_decode = _codec(next(a for a in args if a is not type(None)))
        return (
            lambda value: None if value is None else inner_encode(value),
            lambda value, where: None if value is None else inner_decode(value, where),
        )
    raise TypeError(f"no JSON form for an event field of type {kind!r}")


def _same(value: Any) -> Any:
    return value


def _read_int(value: Any, where: str) -> int:
    return jsonio.as_int(value, where)


def _write_fraction(value: Any) -> Any:
    return jsonio.fraction_to_json(cast("Fraction", value))


def _read_meld(value: Any, where: str) -> Meld:
    return jsonio.meld_from_dict(value, _SEATS, where)


_RECORDS: dict[str, _Record] = {}
for _cls in EVENT_CLASSES:
    if _cls.__name__ in _RECORDS:  # pragma: no cover - a mistake in the table above
        raise TypeError(f"two event classes named {_cls.__name__}")
    _RECORDS[_cls.__name__] = _Record(_cls)
_TYPE_KEY = frozenset({"type"})


def event_to_json(event: object) -> dict[str, Any]:
    """``{"type": "<class name>", <field>: <value>, ...}`` for any event of
    :data:`EVENT_CLASSES` (every field, defaults included; values as in the module
    docstring). It takes an ``object``: the variants' events reach callers typed as
    :data:`engine.events.Event` (``as_events``) but are not members of that union. The
    result holds only JSON types (``dict``, ``list``, ``str``, ``int``, ``bool``,
    ``None``). Raises ``TypeError`` for an object that is not such an event."""
    record = _RECORDS.get(type(event).__name__)
    if record is None or record.cls is not type(event):
        raise TypeError(f"{type(event).__name__} is not an event with a JSON form")
    return {"type": record.cls.__name__, **record.to_json(event)}


def event_from_json(value: Any, where: str = "event") -> Event:
    """The event :func:`event_to_json` wrote (equal to the original), typed as
    :data:`engine.events.Event` like the events of :func:`engine.game.apply`.

    Raises :class:`engine.jsonio.RecordError` naming the place under ``where`` when
    ``value`` is not an object, ``"type"`` is missing or names no event class, a field is
    missing (one with a default may be left out), unknown or of the wrong type, and
    :class:`engine.jsonio.RecordCardError` for a card that is not in the notation.
    """
    data = jsonio.as_mapping(value, where)
    if "type" not in data:
        raise jsonio.RecordError(jsonio.place(where, "type"), "missing")
    name = jsonio.as_str(data["type"], jsonio.place(where, "type"))
    record = _RECORDS.get(name)
    if record is None:
        raise jsonio.RecordError(jsonio.place(where, "type"), f"'{name}' is not an event")
    return cast("Event", record.from_json(data, where, _TYPE_KEY))


def events_to_json(events: Iterable[object]) -> list[dict[str, Any]]:
    """A list of :func:`event_to_json` objects, in order."""
    return [event_to_json(e) for e in events]


def events_from_json(value: Any, where: str = "events") -> tuple[Event, ...]:
    """The events :func:`events_to_json` wrote; :class:`engine.jsonio.RecordError` when
    ``value`` is not a list or an item is no event (the place is ``where[i]...``)."""
    return tuple(
        event_from_json(v, jsonio.place(where, i))
        for i, v in enumerate(jsonio.as_list(value, where))
    )
