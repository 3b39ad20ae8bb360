"""Rebuilding the cover: the search keeps per step only what each colour's way uses;
the answer is found again along that path, colour by colour (:func:`_chain`), and
replayed with the tiles (:class:`_Build`): new runs and sets, the groups laid off, the
free Jolys put where there is room, the discard.

romanian-rummy.de.txt: "Um das Spiel zu gewinnen, muss man alle Steine, die man noch
hat, melden bis auf einen Stein – dieser letzte Stein muss abgelegt werden."
"""

from __future__ import annotations

from typing import Any

from engine.cards import JOKER, TILE_COLOURS, Card, shared_card
from engine.melds import CardSpec, joker_spec, natural_spec, rank_at
from engine.variants.romanian.cover_codec import (
    _COLOURS,
    _DONE,
    _JOLY,
    _LAST,
    _TILE,
    Cover,
    SetWay,
    _credit,
    _Element,
    _run_room,
    _Use,
)
from engine.variants.romanian.cover_needs import _Needs


def rebuild(
    question: _Needs, path: list[Any], chosen: tuple[_Element, ...], end: tuple[int, bool]
) -> Cover:
    """The cover a path of the search describes (per step what each colour's way uses
    and the sets' way; ``chosen``: each colour's element at the end): each colour's
    ways found again along the path, then replayed with the tiles."""
    chains = [_chain(question, c, [how[0][c] for how in path], chosen[c]) for c in range(_COLOURS)]
    build = _Build(question)
    for p in range(1, _LAST + 1):
        for c in range(_COLOURS):
            build.colour(p, c, chains[c][p - 1])
        way = path[p - 1][1]
        if way is not None:
            build.sets(question.number[p], way)
    return build.finish(*end)


def _chain(question: _Needs, c: int, uses: list[_Use], last: _Element) -> list[tuple[Any, ...]]:
    """The ways of colour ``c``, step by step, that lead to the element ``last`` with
    the use ``uses[p - 1]`` at each step ``p`` (the best merit at each)."""
    layer: dict[_Element, tuple[int, Any]] = {
        elem: (merit, None) for elem, merit in question.start()[c]
    }
    history = []
    for p in range(1, _LAST + 1):
        nxt: dict[_Element, tuple[int, Any]] = {}
        for source, elem, merit, way in question._steps(
            p, c, [(e, m) for e, (m, _) in layer.items()], alive=False
        ):
            if (way[3], way[2], way[4]) == uses[p - 1] and nxt.get(elem, (-1, None))[0] < merit:
                nxt[elem] = (merit, (source, way))
        history.append(nxt)
        layer = nxt
    ways = []
    elem = last
    for p in range(_LAST, 0, -1):
        source, way = history[p - 1][elem][1]
        ways.append(way)
        elem = source
    ways.reverse()
    return ways


class _Build:
    """The replay of one trace with the tiles (see :func:`rebuild`)."""

    def __init__(self, cover: _Needs) -> None:
        self.cover = cover
        # the open runs per colour in the walk's order: (run int, tiles)
        self.runs: list[list[tuple[int, list[CardSpec]]]] = [[] for _ in range(_COLOURS)]
        self.groups: list[list[CardSpec]] = [[] for _ in cover.table_runs]
        self.below: list[int] = [0] * len(cover.table_runs)
        self.ended: set[int] = set()
        self.melds: list[list[CardSpec]] = []
        self.layoffs: dict[int, list[CardSpec]] = {}
        self.left: list[Card] = []
        # melds with room for free Jolys: (kind, the tiles or table run, how many, whether
        # a Joly there pays the Joly owed)
        self.rooms: list[tuple[str, Any, int, bool]] = []

    def colour(self, p: int, c: int, way: tuple[Any, ...]) -> None:
        """Replay a way of :meth:`_Cover.colour_ways`."""
        cover = self.cover
        runs_after = way[0]
        codes, starts, jstarts, gcodes, stay, order = way[10]
        tile = shared_card(cover.number[p], TILE_COLOURS[c])
        spec = natural_spec(tile)
        joly = joker_spec(cover.number[p], TILE_COLOURS[c])
        listed: list[list[CardSpec]] = []
        for (run, specs), code in zip(self.runs[c], codes, strict=True):
            if code == _TILE:
                listed.append([*specs, spec])
            elif code == _JOLY:
                listed.append([*specs, joly])
            else:
                self._end_run(run, specs, p - 1)
        listed += [[spec] for _ in range(starts)] + [[joly] for _ in range(jstarts)]
        self.runs[c] = [(run, listed[k]) for run, k in zip(runs_after, order, strict=True)]
        for gi, code in zip(cover.runs_of[c], gcodes, strict=True):
            if code in (_TILE, _JOLY):
                if p < cover.table_runs[gi].first:
                    self.below[gi] += 1
                self.groups[gi].append(spec if code == _TILE else joly)
            elif code == _DONE:
                self._end_group(gi)
        self.left += [tile] * stay

    def sets(self, number: int, way: SetWay) -> None:
        """Replay a way of :meth:`_Cover.set_ways` at ``number``: its new sets and lay-offs
        on table sets; with the table sets left alone, the room they have for free
        Jolys."""
        used = set()
        for item in way.items:
            if item[0] == "m":
                self._new_set(number, list(item[1]))
            else:
                used.add(item[1])
                self._layoff_on_set(number, item[1], list(item[2]))
        if self.cover.lazy:
            for table in self.cover.table_sets.get(number, []):
                if table.target not in used and table.room(0, 0):
                    self.rooms.append(("table_set", table.target, 1, False))

    def _new_set(self, number: int, specs: list[CardSpec]) -> None:
        cover = self.cover
        self.melds.append(specs)
        if cover.lazy and len(specs) == 3 and not any(s.card.is_joker for s in specs):
            colours = [TILE_COLOURS.index(s.card.suit) for s in specs]
            pays = cover.owed_joly and (not cover.row or cover._credit_set(number, colours) >= 2)
            self.rooms.append(("set", specs, 1, pays))

    def _layoff_on_set(self, number: int, target: int, specs: list[CardSpec]) -> None:
        self.layoffs[target] = specs
        table = next(t for t in self.cover.table_sets[number] if t.target == target)
        if self.cover.lazy and table.room(len(specs), 0):
            self.rooms.append(("table_set", target, 1, False))

    def _end_run(self, run: int, specs: list[CardSpec], last: int) -> None:
        cover = self.cover
        if cover.down:
            specs.reverse()  # low to high
        self.melds.append(specs)
        room = _run_room(run, last) if cover.lazy else 0
        if room:
            pays = (
                cover.owed_joly
                and not cover._pays_run(run)
                and (not cover.row or _credit(run) >= 2)
            )
            self.rooms.append(("run", specs, room, pays))

    def _end_group(self, gi: int) -> None:
        cover = self.cover
        self.ended.add(gi)
        table = cover.table_runs[gi]
        group = self.groups[gi]
        if cover.down:  # low to high, and the tiles below the run as the table sees it
            group.reverse()
            self.below[gi] = len(group) - self.below[gi]
        if group:
            self.layoffs[table.target] = group
        if cover.lazy:
            jolys = sum(1 for s in group if s.card.is_joker)
            room = table.room(len(group), jolys, self.below[gi])
            if room:
                self.rooms.append(("table_run", gi, room, False))

    def finish(self, into: int, joly_left: bool) -> Cover:
        """The last runs and groups end; the free Jolys go where there is room (a meld
        that pays a Joly owed first), one is the discard if none was left."""
        cover = self.cover
        for c in range(_COLOURS):
            for run, specs in self.runs[c]:
                self._end_run(run, specs, _LAST)
        for gi in range(len(cover.table_runs)):
            if gi not in self.ended:
                self._end_group(gi)
        if joly_left:
            self.left.append(JOKER)
        for kind, ref, room, _ in sorted(self.rooms, key=lambda r: not r[3]):
            if not into:
                break
            more = min(room, into)
            into -= more
            self._absorb(kind, ref, more)
        assert not into
        melds = tuple(tuple(m) for m in self.melds)
        layoffs = tuple(sorted((t, tuple(g)) for t, g in self.layoffs.items()))
        return Cover(melds, layoffs, tuple(self.left))

    def _absorb(self, kind: str, ref: Any, more: int) -> None:
        """Put ``more`` free Jolys into the meld ``ref`` (at the ends of a run)."""
        if kind == "set":
            ref.append(joker_spec(ref[0].card.rank, None))
            return
        if kind == "table_set":
            self.layoffs.setdefault(ref, []).append(CardSpec(JOKER))
            return
        if kind == "run":
            specs: list[CardSpec] = ref
            colour = (specs[0].face or specs[0].card).suit
            first = (specs[0].face or specs[0].card).rank  # a run's first tile: a 1 is low
            last = first + len(specs) - 1
            for _ in range(more):
                if last < _LAST:
                    last += 1
                    specs.append(joker_spec(rank_at(last), colour))
                else:
                    first -= 1
                    specs.insert(0, joker_spec(rank_at(first), colour))
            return
        cover = self.cover
        table = cover.table_runs[ref]
        first, last = table.first, table.last
        if cover.down:
            first, last = _LAST + 1 - last, _LAST + 1 - first
        group = self.layoffs.setdefault(table.target, [])
        below = self.below[ref]
        above = len(group) - below
        colour = TILE_COLOURS[table.colour]
        for _ in range(more):
            high = last + above + 1
            if high <= _LAST:
                group.append(joker_spec(rank_at(high), colour))
                above += 1
            else:
                low = first - below - 1
                group.insert(0, joker_spec(rank_at(low), colour))
                below += 1
        self.below[ref] = below
