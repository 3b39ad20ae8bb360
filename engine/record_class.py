"""The class decorator of the engine's event and action records: :func:`record`.

A module of its own, interpreted in the compiled build (pyproject's mypyc exclude list):
``typing.dataclass_transform`` marks the function it decorates with an attribute, which a
compiled function cannot take (importing the compiled :mod:`engine.frozen` would fail).
"""

from __future__ import annotations

import dataclasses
from typing import TypeVar, dataclass_transform

from engine.frozen import fast_init

T = TypeVar("T")


@dataclass_transform(frozen_default=True)
def record(cls: type[T]) -> type[T]:
    """Class decorator of the engine's event and action records: the class as
    ``@dataclass(frozen=True, slots=True)`` with the :func:`engine.frozen.fast_init`
    ``__init__``, written once here instead of the two decorators on every record. Same
    class, fields, equality, hash, ``repr`` and pickling as the two decorators stacked by
    hand; type checkers see a frozen dataclass (``dataclass_transform``). Only for modules
    the compiled build leaves interpreted (``actions.py``, ``events.py``: pyproject's mypyc
    exclude list): mypyc makes native classes only of plain ``@dataclass`` ones. Raises
    ``TypeError`` as :func:`engine.frozen.fast_init` does (keyword-only fields, a
    ``__post_init__``)."""
    return fast_init(dataclasses.dataclass(frozen=True, slots=True)(cls))
