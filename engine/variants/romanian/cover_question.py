"""A going-out question as the walk reads it: the rack's tiles per step of the walk and
colour, the meld owed and the tiles of the rack before the take, the table runs and sets
the seat may lay off on, and the bounds the search prunes with.

romanian-rummy.de.txt: "Um das Spiel zu gewinnen, muss man alle Steine, die man noch
hat, melden bis auf einen Stein – dieser letzte Stein muss abgelegt werden."
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.cards import JOKER, TILE_COLOURS, Card, Suit, shared_card
from engine.melds import Meld, MeldKind, rank_at
from engine.variants.romanian.cover_codec import (
    _COLOURS,
    _LAST,
    ColourWay,
    SetWay,
    _Belief,
    _TableRun,
    _TableSet,
    _Use,
)
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.state import Obligation
from engine.variants.romanian.tiles import most_value

_COLOUR_OF: dict[Suit | None, int] = {c: i for i, c in enumerate(TILE_COLOURS)}


class _Question:
    """One cover question (see :func:`engine.variants.romanian.cover.cover`): what the
    walk reads, and its caches.

    The walk goes up the run places, or down (``down``: the rules read the same from
    either end, and a rack with no cover often fails early one way). ``real[p]``: the run
    place at step ``p`` of the walk; ``number[p]``: the number there (1 at both ends);
    ``tiles[p][c]``: tiles at step ``p`` (1..13) of colour ``c`` (the 1s are at step 1 and
    may wait for step 14, the other end). Free Jolys wait for the end when the seat has
    opened (``lazy``: no value to reach)."""

    def __init__(
        self,
        hand: Sequence[Card],
        melds: Sequence[Meld],
        targets: Sequence[int],
        need: int | None,
        keep: Card | None,
        owed: Obligation | None,
        only: Card | None,
        down: bool = False,
    ) -> None:
        counts = Counter(hand)
        self.jolys = counts.pop(JOKER, 0)
        self.down = down
        self.real = [_LAST + 1 - p if down and 1 <= p <= _LAST else p for p in range(_LAST + 2)]
        self.number = [rank_at(r) if 1 <= r <= _LAST else 0 for r in self.real]
        self.tiles = [
            [
                counts[shared_card(self.number[p], col)] if 1 <= p <= 13 else 0
                for col in TILE_COLOURS
            ]
            for p in range(_LAST + 2)
        ]
        self.need = need
        self.keep = keep
        self.only = only
        self.owed = owed
        self.lazy = need is None
        self._read_owed(owed)
        self._read_table(melds, targets)
        self.potential = self._potential()
        self.settable = self._settable()
        self.ops = 0  # ways tried: the walks' measure of work
        self.colour_memo: dict[tuple[Any, ...], list[ColourWay]] = {}
        self.need_memo: dict[tuple[Any, ...], tuple[tuple[int, int], ...]] = {}
        self.start_memo: dict[tuple[Any, ...], Any] = {}
        self.joint_memo: dict[tuple[Any, ...], tuple[tuple[int, int], ...]] = {}
        self.owed_memo: dict[tuple[Any, ...], Any] = {}
        self.cost_memo: dict[tuple[Any, ...], Any] = {}
        self.raw_need_memo: dict[tuple[Any, ...], tuple[tuple[int, int], ...]] = {}
        self.set_memo: dict[tuple[Any, ...], list[SetWay]] = {}
        self.groups_memo: dict[tuple[Any, ...], list[tuple[tuple[int, ...], int, int]]] = {}
        self.step_memo: dict[tuple[Any, ...], dict[_Use, _Belief]] = {}
        self.belief_memo: dict[tuple[Any, ...], tuple[tuple[int, int], ...]] = {}

    def _read_owed(self, owed: Obligation | None) -> None:
        """The tile owed: its number and colour (a Joly: ``owed_joly``), the step after
        which a run without it never holds it (``owed_step``); for a tile owed to the row
        the tiles of the rack before the take (``before[number][c]``), how many of each
        colour come after each step (``before_after[p][c]``, a 1 at both ends) and whether
        two of them might still share a new meld after it (``pair_after[p]``: a set of
        their number, or a run of their colour)."""
        self.owed_colour = -1
        self.owed_number = 0
        self.owed_step = 0
        self.owed_joly = owed is not None and owed.tile.is_joker
        if owed is not None and not owed.tile.is_joker:
            rank = owed.tile.rank
            self.owed_colour = _COLOUR_OF[owed.tile.suit]
            self.owed_number = rank
            self.owed_step = _LAST if rank == 1 else (_LAST + 1 - rank if self.down else rank)
        self.row = owed is not None and owed.kind == "row"
        before = Counter(owed.rack) if owed is not None and self.row else Counter()
        self.before_jolys = before.pop(JOKER, 0)
        self.before = [
            [before[shared_card(p, col)] > 0 if 1 <= p <= 13 else False for col in TILE_COLOURS]
            for p in range(_LAST + 2)
        ]
        self.before_after = [
            [
                sum(1 for q in range(p + 1, _LAST + 1) if self.before[self.number[q]][c])
                for c in range(_COLOURS)
            ]
            for p in range(_LAST + 1)
        ]
        self.pair_after = [
            any(n >= 2 for n in self.before_after[p])
            or any(sum(self.before[self.number[q]]) >= 2 for q in range(p + 1, 14))
            for p in range(_LAST + 1)
        ]

    def _read_table(self, melds: Sequence[Meld], targets: Sequence[int]) -> None:
        """The table melds the seat may lay off on: runs in the walk's places
        (``table_runs``, their indexes per colour in ``runs_of``) and sets by number
        (``table_sets``)."""
        self.table_runs: list[_TableRun] = []
        self.table_sets: dict[int, list[_TableSet]] = {}
        for t in targets:
            meld = melds[t]
            if meld.kind is MeldKind.RUN:
                self.table_runs.append(self._table_run(t, meld))
            else:
                self.table_sets.setdefault(meld.rank, []).append(_table_set(t, meld))
        self.runs_of = [
            tuple(i for i, r in enumerate(self.table_runs) if r.colour == c)
            for c in range(_COLOURS)
        ]

    def _table_run(self, target: int, meld: Meld) -> _TableRun:
        jolys = sum(1 for placed in meld.cards if placed.card.is_joker)
        face = meld.cards[0].face
        first, last = face.rank, face.rank + len(meld.cards) - 1
        if self.down:
            first, last = _LAST + 1 - last, _LAST + 1 - first
        return _TableRun(
            target,
            _COLOUR_OF[face.suit],
            first,
            last,
            len(meld.cards),
            len(meld.cards) - jolys,
            jolys,
        )

    def _potential(self) -> list[int]:
        """The most the tiles from each place on can add to an opening (pruning by
        value)."""
        potential = [0] * (_LAST + 2)
        for step in range(13, 0, -1):
            potential[step] = potential[step + 1] + sum(self.tiles[step]) * most_value(
                shared_card(self.number[step], TILE_COLOURS[0])
            )
        return potential

    def _settable(self) -> list[list[bool]]:
        """``settable[p][c]``: a tile of colour ``c`` at step ``p`` might go into a set of
        its number: two other colours there, or one and a Joly, or a table set that
        lacks it."""
        settable = [[False] * _COLOURS for _ in range(_LAST + 2)]
        for step in range(1, 14):
            tables = self.table_sets.get(self.number[step], [])
            for c in range(_COLOURS):
                others = sum(1 for o in range(_COLOURS) if o != c and self.tiles[step][o])
                lacking = any(
                    not t.present >> c & 1 and t.size < MELD_RULES.max_set for t in tables
                )
                settable[step][c] = others >= 2 or (others >= 1 and self.jolys > 0) or lacking
        return settable


def _table_set(target: int, meld: Meld) -> _TableSet:
    jolys = sum(1 for placed in meld.cards if placed.card.is_joker)
    present = 0
    for placed in meld.cards:
        if not placed.card.is_joker:
            present |= 1 << _COLOUR_OF[placed.card.suit]
    return _TableSet(target, meld.rank, present, len(meld.cards), jolys)
