"""A rack of tiles as one int, for the searches of the going-out plan and the opening.

Each tile kind of the rack gets a field of bits: the count in the low bits and a guard
bit on top. Taking a group of tiles is one subtraction of its packed counts from the
rack with every guard set (:attr:`PackedRack.guards`): a field that held fewer tiles
than the group takes borrows its own guard, and no other field, so the guards still all
set say the group was there. A search's memo key is then one int, not a tuple of counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from engine.cards import SORT_KEY, Card


class PackedRack:
    """The packing of the multiset ``tiles``: ``kinds`` (its distinct tiles ordered by
    ``key``, card order by default; field ``i`` is ``kinds[i]``, so :meth:`lowest` is the
    first kind in that order), ``field`` (bits a kind: two packs hold two of a tile,
    three bits), ``guards`` (every field's guard bit) and ``full`` (the rack packed)."""

    __slots__ = ("field", "full", "guards", "kinds", "where")

    def __init__(self, tiles: Sequence[Card],
                 key: Callable[[Card], Any] = SORT_KEY) -> None:
        counts = Counter(tiles)
        self.kinds = sorted(counts, key=key)
        self.where = {card: i for i, card in enumerate(self.kinds)}
        self.field = max(counts.values(), default=0).bit_length() + 1
        guard = 1 << (self.field - 1)
        self.guards = sum(guard << (self.field * i) for i in range(len(self.kinds)))
        self.full = self.pack(tiles)

    def pack(self, tiles: Iterable[Card]) -> int:
        """``tiles`` (a sub-multiset of the rack, kinds of the rack only) packed."""
        field, where = self.field, self.where
        return sum(1 << (field * where[t]) for t in tiles)

    def count(self, packed: int, kind: int) -> int:
        """How many tiles of ``kinds[kind]`` ``packed`` holds."""
        return (packed >> (self.field * kind)) & ((1 << (self.field - 1)) - 1)

    def lowest(self, packed: int) -> int:
        """The index of the first kind ``packed`` holds (``packed`` not empty)."""
        return ((packed & -packed).bit_length() - 1) // self.field
