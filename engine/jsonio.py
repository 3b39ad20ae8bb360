"""JSON reading and writing helpers shared by saved states, records and the variants' own
state: readers that name the place of a problem (:class:`RecordError`), and the JSON
form of cards, fractions and melds (see :mod:`engine.serialize` for the encoding).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from engine.cards import Card, parse_card, parse_face
from engine.errors import CardParseError, EngineError
from engine.melds import Meld, MeldKind, Placed


class RecordError(EngineError, ValueError):
    """A game record or saved state that cannot be read: ``where`` names the place
    (``"deal.hands.ana"``), ``detail`` says what is wrong. Code ``bad_record``."""

    code = "bad_record"
    template = "{where}: {detail}"

    def __init__(self, where: str, detail: str, **params: Any) -> None:
        super().__init__(where=where or "record", detail=detail, **params)


class RecordCardError(RecordError):
    """A card in a record or saved state that is not in the notation. Code ``bad_card``
    (like :class:`engine.errors.CardParseError`, with the same ``text`` parameter)."""

    code = "bad_card"
    template = "{where}: '{text}' is not a card (examples: 7h 10d qs ac jk)"

    def __init__(self, where: str, text: str) -> None:
        super().__init__(where, f"'{text}' is not a card", text=text)


# --- small readers that name the place of a problem ------------------------------------------


def place(where: str, key: str | int) -> str:
    """The place ``key`` inside ``where``: ``"deal.hands"``, ``"melds[2]"``."""
    if isinstance(key, int):
        return f"{where}[{key}]"
    return f"{where}.{key}" if where else key


def need(data: Mapping[str, Any], key: str, where: str = "") -> Any:
    """``data[key]``; raises :class:`RecordError` naming the missing key."""
    if key not in data:
        raise RecordError(place(where, key), "missing")
    return data[key]


def as_mapping(value: Any, where: str) -> Mapping[str, Any]:
    """``value`` if it is a JSON object, else :class:`RecordError`."""
    if not isinstance(value, Mapping):
        raise RecordError(where, f"expected an object, got {type_name(value)}")
    return value


def as_list(value: Any, where: str) -> Sequence[Any]:
    """``value`` if it is a JSON array, else :class:`RecordError`."""
    if not isinstance(value, list | tuple):
        raise RecordError(where, f"expected a list, got {type_name(value)}")
    return value


def as_int(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` if it is a whole number (not a bool) within ``low..high``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(where, f"expected a whole number, got {type_name(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise RecordError(where, f"{value} is out of range {low}..{high}")
    return value


def as_bool(value: Any, where: str) -> bool:
    """``value`` if it is ``true`` or ``false``."""
    if not isinstance(value, bool):
        raise RecordError(where, f"expected true or false, got {type_name(value)}")
    return value


def as_str(value: Any, where: str) -> str:
    """``value`` if it is a string."""
    if not isinstance(value, str):
        raise RecordError(where, f"expected a string, got {type_name(value)}")
    return value


def type_name(value: Any) -> str:
    """What kind of JSON value ``value`` is, for messages (``"a list"``, ``"null"``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, str):
        return f"'{value}'"
    return type(value).__name__


# --- cards, fractions, melds ----------------------------------------------------------------


def card_from_json(value: Any, where: str) -> Card:
    """A card from its notation; :class:`RecordCardError` when it is none."""
    text = as_str(value, where)
    try:
        return parse_card(text)
    except CardParseError:
        raise RecordCardError(where, text) from None


def cards_to_json(cards: Iterable[Card]) -> list[str]:
    """Cards as notation strings."""
    return [str(c) for c in cards]


def cards_from_json(value: Any, where: str) -> tuple[Card, ...]:
    """A list of notation strings as cards."""
    return tuple(card_from_json(v, place(where, i)) for i, v in enumerate(as_list(value, where)))


def fraction_to_json(value: Fraction) -> int | str:
    """An ``int`` when whole, else ``"n/d"``."""
    if value.denominator == 1:
        return value.numerator
    return f"{value.numerator}/{value.denominator}"


def fraction_from_json(value: Any, where: str) -> Fraction:
    """Read an ``int`` or an ``"n/d"`` string."""
    if isinstance(value, str):
        try:
            return Fraction(value)
        except (ValueError, ZeroDivisionError):
            raise RecordError(where, f"'{value}' is not a number or fraction n/d") from None
    return Fraction(as_int(value, where))


def placed_to_json(placed: Placed) -> str:
    """``"7h"``, or ``"jk=8h"`` when the card stands for another one."""
    if placed.face == placed.card:
        return str(placed.card)
    return f"{placed.card}={placed.face}"


def _placed_from_json(value: Any, owner: int, where: str) -> Placed:
    text = as_str(value, where)
    left, sep, right = text.partition("=")
    card = card_from_json(left, where)
    if not sep:
        return Placed(card, card, owner)
    try:
        face = parse_face(right)
    except CardParseError:
        raise RecordCardError(where, text) from None
    return Placed(card, face, owner)


def meld_to_dict(meld: Meld) -> dict[str, Any]:
    """``{"kind": "run", "owner": 0, "cards": ["6h", "7h", "jk=8h"], "owners": [0, 0, 1]}``
    (``owners``: who put each card there, for variants that score laid-off cards)."""
    return {
        "kind": meld.kind.value,
        "owner": meld.owner,
        "cards": [placed_to_json(p) for p in meld.cards],
        "owners": [p.owner for p in meld.cards],
    }


def meld_from_dict(value: Any, seats: int, where: str) -> Meld:
    """The inverse of :func:`meld_to_dict`."""
    data = as_mapping(value, where)
    kind_text = as_str(need(data, "kind", where), place(where, "kind"))
    try:
        kind = MeldKind(kind_text)
    except ValueError:
        raise RecordError(place(where, "kind"), f"'{kind_text}' is not set or run") from None
    owner = as_int(need(data, "owner", where), place(where, "owner"), 0, seats - 1)
    cards = as_list(need(data, "cards", where), place(where, "cards"))
    owners = as_list(need(data, "owners", where), place(where, "owners"))
    if len(owners) != len(cards):
        raise RecordError(place(where, "owners"), "needs one owner per card")
    placed = tuple(
        _placed_from_json(
            c,
            as_int(o, place(place(where, "owners"), i), 0, seats - 1),
            place(place(where, "cards"), i),
        )
        for i, (c, o) in enumerate(zip(cards, owners, strict=True))
    )
    return Meld(kind, placed, owner)
