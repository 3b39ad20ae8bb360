"""Sets in the going-out walk: the tiles of one number that the colours send to sets are
grouped into new sets and lay-offs on table sets, with Jolys; what each grouping uses and
brings (the meld owed paid, room for free Jolys).

romanian-rummy.de.txt: "Um das Spiel zu gewinnen, muss man alle Steine, die man noch
hat, melden bis auf einen Stein – dieser letzte Stein muss abgelegt werden."
"Ein Satz (terta) besteht aus drei oder vier Steinen mit derselben Zahl und in
verschiedenen Farben."
"""

from __future__ import annotations

from typing import Any

from engine.cards import JOKER, TILE_COLOURS, shared_card
from engine.melds import CardSpec, joker_spec, natural_spec
from engine.variants.romanian.cover_alone import _ColourAlone
from engine.variants.romanian.cover_codec import _COLOURS, SetWay
from engine.variants.romanian.melds import MELD_RULES


class _Sets(_ColourAlone):
    """The question with the colour transitions and the sets of one number."""

    def set_ways(self, number: int, sets: tuple[int, ...], jolys: int) -> list[SetWay]:
        """Every way to group ``sets[c]`` tiles of each colour ``c`` of ``number`` into new
        sets and lay-offs on table sets (each table set once), with up to ``jolys`` Jolys:
        (Jolys used, tiles in new sets, whether a new set pays the meld owed, room for free
        Jolys, pay room, the items made), one per distinct (Jolys, tiles, pays, room, pay
        room). Free Jolys (in a set of four, on a table set) wait for the end."""
        key = (number, sets, jolys)
        found = self.set_memo.get(key)
        if found is not None:
            return found
        lazy = self.lazy
        tables = self.table_sets.get(number, [])
        results: dict[tuple[Any, ...], SetWay] = {}
        spec_of = [natural_spec(shared_card(number, col)) for col in TILE_COLOURS]

        def walk(
            left: list[int],
            jleft: int,
            used_tables: int,
            tiles: int,
            pays: bool,
            room: int,
            pay: int,
            made: tuple[Any, ...],
            floor: int,
        ) -> None:
            first = next((c for c in range(_COLOURS) if left[c]), -1)
            if first < 0:
                # the table sets left alone may take free Jolys
                more = 0
                if lazy:
                    more = sum(
                        t.room(0, 0) for ti, t in enumerate(tables) if not used_tables >> ti & 1
                    )
                out_key = (jolys - jleft, tiles, pays, min(2, room + more), pay)
                results.setdefault(out_key, SetWay(*out_key, made))
                return
            # a new set whose lowest colour is ``first`` (the sets in the order of their
            # lowest colours, those alike by increasing colour mask: the same sets in
            # another order are the same way)
            if (floor and not floor >> first & 1) or floor & ((1 << first) - 1):
                floor = 0  # the set before had another lowest colour
            for mask in range(max(floor, 1), 1 << _COLOURS):
                if mask & ((1 << first) - 1) or not mask >> first & 1:
                    continue
                colours = [c for c in range(_COLOURS) if mask >> c & 1]
                if any(not left[c] for c in colours):
                    continue
                for joly in (0, 1):
                    size = len(colours) + joly
                    if (
                        size < 3
                        or size > MELD_RULES.max_set
                        or len(colours) < 2 * joly
                        or joly > jleft
                        or (lazy and joly and len(colours) > 2)
                    ):
                        continue
                    for c in colours:
                        left[c] -= 1
                    specs = tuple(spec_of[c] for c in colours)
                    if joly:
                        specs += (joker_spec(number, None),)
                    payer = self._pays_set(number, colours, joly)
                    set_room = int(lazy and size == 3 and not joly)
                    set_pay = int(
                        set_room
                        and self.owed_joly
                        and (not self.row or self._credit_set(number, colours) >= 2)
                    )
                    walk(
                        left,
                        jleft - joly,
                        used_tables,
                        tiles + size,
                        pays or payer,
                        room + set_room,
                        pay | set_pay,
                        (*made, ("m", specs)),
                        mask,
                    )
                    for c in colours:
                        left[c] += 1
            # or a lay-off on a table set, holding a tile of ``first``
            for ti, table in enumerate(tables):
                if used_tables >> ti & 1 or table.present >> first & 1:
                    continue
                free_room = MELD_RULES.max_set - table.size
                missing = [
                    c
                    for c in range(_COLOURS)
                    if not table.present >> c & 1 and left[c] and c >= first
                ]
                for sub in range(1, 1 << len(missing)):
                    colours = [missing[k] for k in range(len(missing)) if sub >> k & 1]
                    if first not in colours:
                        continue
                    for joly in (0, 1):
                        added = len(colours) + joly
                        real = table.size - table.jolys + len(colours)
                        if (
                            added > free_room
                            or joly > jleft
                            or (lazy and joly)
                            or real < 2 * (table.jolys + joly)
                        ):
                            continue
                        for c in colours:
                            left[c] -= 1
                        specs = tuple(spec_of[c] for c in colours)
                        if joly:
                            specs += (CardSpec(JOKER),)
                        more = table.room(added, joly) if lazy else 0
                        walk(
                            left,
                            jleft - joly,
                            used_tables | 1 << ti,
                            tiles,
                            pays,
                            room + more,
                            pay,
                            (*made, ("s", table.target, specs)),
                            floor,
                        )
                        for c in colours:
                            left[c] += 1

        walk(list(sets), jolys, 0, 0, False, 0, 0, (), 0)
        out = list(results.values())
        self.set_memo[key] = out
        return out

    def _credit_set(self, number: int, colours: list[int]) -> int:
        return sum(1 for c in colours if self.before[number][c])

    def _pays_set(self, number: int, colours: list[int], joly: int) -> bool:
        if self.owed is None:
            return False
        if self.owed_joly:
            holds = joly > 0
            credit = self._credit_set(number, colours)
        else:
            holds = number == self.owed_number and self.owed_colour in colours
            credit = sum(1 for c in colours if c != self.owed_colour and self.before[number][c])
            credit += min(joly, self.before_jolys)
        return holds and (not self.row or credit >= 2)
