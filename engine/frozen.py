"""A faster :func:`dataclasses.replace` for the engine's frozen, slotted records.

Every move builds a new :class:`engine.state.GameState` (and often a new turn or
variant record) from the old one with a few fields changed; ``dataclasses.replace``
re-reads the field list and calls ``__init__`` with keyword arguments each time,
which made it the largest single cost of applying a move (about half of it goes).
The engine's records have no ``__post_init__`` and no init-less fields, so copying
the slots is equivalent.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")

_FIELDS: dict[type, tuple[str, ...]] = {}
_set_slot = object.__setattr__


def _fields_of(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        fields = dataclasses.fields(cls)
        if not hasattr(cls, "__slots__") or hasattr(cls, "__post_init__") \
                or any(not f.init for f in fields):
            raise TypeError(f"{cls.__name__} is not a plain slotted dataclass")
        names = tuple(f.name for f in fields)
        _FIELDS[cls] = names
    return names


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the slotted dataclass instance ``obj`` with ``changes`` applied.

    Same result as :func:`dataclasses.replace` for the engine's records (frozen,
    ``slots=True``, no ``__post_init__``). Raises ``TypeError`` for an unknown field
    name or a class that is not such a record.
    """
    cls = type(obj)
    new = object.__new__(cls)
    get = changes.pop
    for name in _fields_of(cls):
        _set_slot(new, name, get(name) if name in changes else getattr(obj, name))
    if changes:
        raise TypeError(f"{cls.__name__} has no field(s) {sorted(changes)}")
    return new
