"""The last answer of a function, reused while the same objects are asked about again.

Views and move lists ask some questions of every state (the points on the table per
seat, who is out of the match), and the answer changes only when one of the state's
immutable parts changes (the table, the totals). A state copy shares the parts it did
not change, so "the same object as last time" means "the same answer": one entry,
compared by identity, is enough, and is far cheaper than hashing a table.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:  # types only: the card and meld layers below the rules import this module
    from engine.options import RuleSet

__all__ = ["ByIdentity", "reuse_last", "reuse_last_tuple"]

P = TypeVar("P")
R = TypeVar("R")
S = TypeVar("S", bound=Sequence[Any])
Q = TypeVar("Q")


def reuse_last(fn: Callable[[P, RuleSet, int], R]) -> Callable[[P, RuleSet, int], R]:
    """``fn(part, rules, seats)`` answering from its last call while ``part`` (an immutable
    part of a state: its table, its totals) and ``rules`` are the same objects as then
    and ``seats`` is equal. A mutable ``part`` (a list changed in place) must not come
    here. One read of the entry per call, so a thread that replaces it meanwhile is
    harmless. Written for three arguments, not any: the views call it for every state,
    and a general comparison loop cost 2-4 % of random-play actions."""
    last: tuple[P, RuleSet, int, R] | None = None

    @functools.wraps(fn)
    def answer(part: P, rules: RuleSet, seats: int) -> R:
        nonlocal last
        seen = last
        if seen is not None and seen[0] is part and seen[1] is rules and seen[2] == seats:
            return seen[3]
        out = fn(part, rules, seats)
        last = (part, rules, seats, out)
        return out

    return answer


def reuse_last_tuple(fn: Callable[[S, Q], R]) -> Callable[[S, Q], R]:
    """``fn(part, rules)`` answering from its last call while ``part`` is a tuple (a state's
    hand or table, immutable) and it and ``rules`` are the same objects as then; a list or
    any other sequence is answered afresh every time. One read of the entry per call, as
    in :func:`reuse_last`. For questions one move list asks twice or more of the same hand
    or table (the lay-off index of the table, the unmeldable cards of a rack)."""
    last: tuple[S, Q, R] | None = None

    @functools.wraps(fn)
    def answer(part: S, rules: Q) -> R:
        nonlocal last
        if type(part) is not tuple:
            return fn(part, rules)
        seen = last
        if seen is not None and seen[0] is part and seen[1] is rules:
            return seen[2]
        out = fn(part, rules)
        last = (part, rules, out)
        return out

    return answer


K = TypeVar("K")
V = TypeVar("V")


class ByIdentity(Generic[K, V]):
    """Answers kept per object by its identity, for objects that other caches share and
    that hash slowly (tuples of card specs): the object is held with its answer, so its id
    is not reused while the entry lives. Past ``limit`` entries the memo starts afresh:
    keep it small, every object kept is walked by the garbage collector's full
    collections (16,384 entries of Romanian meld shapes made a worker's full collection
    190 ms long)."""

    __slots__ = ("_entries", "_limit")

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._entries: dict[int, tuple[K, V]] = {}

    def get(self, key: K) -> V | None:
        """The answer kept for ``key`` (this very object), or ``None``."""
        seen = self._entries.get(id(key))
        return seen[1] if seen is not None and seen[0] is key else None

    def put(self, key: K, value: V) -> V:
        """Keep ``value`` for ``key`` and return it."""
        if len(self._entries) >= self._limit:
            self._entries = {}
        self._entries[id(key)] = (key, value)
        return value
