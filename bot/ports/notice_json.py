"""The JSON form of a table's notices (:class:`bot.ports.screens.Notice`), and back:
``notice_from_json(notice_to_json(n)) == n``, so that a committed change's notices can be
stored with its events (:mod:`engine.events_json`) and rendered by another process.

The form is ``{"code": "player_joined", "params": {"name": "Ana"}}``. Every notice the
service makes carries only strings (a seat's name, the ``settings_changed`` text); the
params may be any JSON scalar (a string, a whole number, ``true``/``false``, ``null``),
which reads back as the same value. Anything else (a tuple, a float, a record) has no
exact JSON form here: writing it raises ``TypeError``, so a new kind of param is found
when the change is stored, not when another process reads a different value back.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.ports.screens import Notice
from engine.jsonio import RecordError, as_list, as_mapping, as_str, need, place, type_name

__all__ = ["notice_from_json", "notice_to_json", "notices_from_json", "notices_to_json"]

_SCALARS = (str, int, bool, type(None))


def notice_to_json(notice: Notice) -> dict[str, Any]:
    """``{"code": str, "params": {str: str | int | bool | None}}``.

    Raises ``TypeError`` for a param key that is not a string or a value that is not one
    of those scalars (a float is refused too: ``1.0`` would not keep its type everywhere)."""
    params: dict[str, Any] = {}
    for key, value in notice.params.items():
        if not isinstance(key, str):
            raise TypeError(f"notice {notice.code}: param name {key!r} is not a string")
        if not isinstance(value, _SCALARS):
            raise TypeError(
                f"notice {notice.code}: param {key}={value!r} has no JSON form "
                f"(strings, whole numbers, true/false and null have)"
            )
        params[key] = value
    return {"code": notice.code, "params": params}


def notice_from_json(value: Any, where: str = "notice") -> Notice:
    """The notice :func:`notice_to_json` wrote (equal to the original).

    Raises :class:`engine.jsonio.RecordError` naming the place under ``where`` when
    ``value`` is not an object, ``code`` is missing or not a string, ``params`` is not an
    object (it may be left out: no params), a param is not a scalar, or there is a key
    other than ``code`` and ``params``."""
    data = as_mapping(value, where)
    for key in data:
        if key not in ("code", "params"):
            raise RecordError(place(where, str(key)), "a notice has no such field")
    code = as_str(need(data, "code", where), place(where, "code"))
    where_params = place(where, "params")
    raw = as_mapping(data.get("params", {}), where_params)
    params: dict[str, Any] = {}
    for key, item in raw.items():
        if not isinstance(item, _SCALARS):
            raise RecordError(
                place(where_params, str(key)),
                f"expected a string, number, true/false or null, got {type_name(item)}",
            )
        params[str(key)] = item
    return Notice(code, params)


def notices_to_json(notices: Iterable[Notice]) -> list[dict[str, Any]]:
    """A list of :func:`notice_to_json` objects, in order."""
    return [notice_to_json(n) for n in notices]


def notices_from_json(value: Any, where: str = "notices") -> tuple[Notice, ...]:
    """The notices :func:`notices_to_json` wrote; :class:`engine.jsonio.RecordError` when
    ``value`` is not a list or an item is no notice (the place is ``where[i]...``)."""
    return tuple(notice_from_json(v, place(where, i)) for i, v in enumerate(as_list(value, where)))
