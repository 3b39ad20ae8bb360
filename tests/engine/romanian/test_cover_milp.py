"""Going out on big racks, held against an independent oracle: the MILP of rummikub-solver
(the bench extra: ``pip install -e '.[bench]'``; these tests carry the ``bench`` marker and
run with ``pytest -m bench``), given the Romanian melds.

romanian-rummy.de.txt: "Um das Spiel zu gewinnen, muss man alle Steine, die man noch
hat, melden bis auf einen Stein – dieser letzte Stein muss abgelegt werden." A rack goes
out (the table empty, the seat opened) exactly when, for some tile, every other tile of
the rack can be placed in melds: the solver's most tiles placed from the rack without
that tile is the whole rest. Its set list is replaced by every Romanian meld: runs of 3
to 12 tiles of one colour on the places 1..14 (the 1 low or after the 13; thirteen tiles
read two ways), sets of 3-4 colours, a Joly anywhere with two real tiles per Joly.
"""

from __future__ import annotations

import importlib
import random
from collections import Counter
from functools import cached_property
from itertools import combinations
from typing import Any

import pytest

from engine.cards import TILE_COLOURS, Card
from engine.melds import rank_at
from engine.variants.romanian.cover import _Cover, cover
from engine.variants.romanian.cover_refute import refutes
from engine.variants.romanian.tiles import tile_set

from .cover_oracle import built_rack, check_cover

pytestmark = pytest.mark.bench


class MilpOracle:
    """rummikub-solver's MILP with the Romanian melds as its set list."""

    def __init__(self) -> None:
        module = importlib.import_module("rummikub_solver")
        self.module = module

        class RomanianRuleSet(module.RuleSet):  # type: ignore[misc]
            @cached_property
            def sets(self) -> list[tuple[Any, ...]]:
                joker = self._joker

                def tile(colour: int, number: int) -> int:
                    return colour * 13 + number

                out: set[tuple[Any, ...]] = set()
                for c in range(4):
                    for length in range(3, 13):
                        for start in range(1, 16 - length):
                            tiles = [tile(c, rank_at(p)) for p in range(start, start + length)]
                            for jolys in range(3):
                                if length - jolys < 2 * jolys:
                                    break
                                for places in combinations(range(length), jolys):
                                    out.add(
                                        tuple(
                                            sorted(
                                                joker if i in places else t
                                                for i, t in enumerate(tiles)
                                            )
                                        )
                                    )
                for number in range(1, 14):
                    for size in (3, 4):
                        for colours in combinations(range(4), size):
                            out.add(tuple(sorted(tile(c, number) for c in colours)))
                        for colours in combinations(range(4), size - 1):
                            if len(colours) >= 2:
                                out.add(tuple(sorted([*(tile(c, number) for c in colours), joker])))
                return sorted(out)

            @cached_property
            def set_values(self) -> list[int]:
                return [0] * len(self.sets)  # the opening mode is not used

        self.ruleset = RomanianRuleSet(numbers=13, repeats=2, colours=4, jokers=2, min_len=3)
        self.tile_of: dict[tuple[str, int], Any] = {}
        for t in self.ruleset.tiles:
            if isinstance(t, module.Joker):
                self.joker = t
            else:
                self.tile_of[(t.colour.name, t.value)] = t
        self.names = dict(zip(TILE_COLOURS, ("RED", "ORANGE", "BLUE", "BLACK"), strict=True))

    def placed(self, rack: list[Card]) -> int:
        """The most tiles of ``rack`` that melds can hold."""
        tiles = [
            self.joker if c.is_joker else self.tile_of[(self.names[c.suit], c.rank)] for c in rack
        ]
        state = self.ruleset.new_game()
        state.add_rack(*tiles)
        state.initial = False
        solution = self.ruleset.solve(state, self.module.SolverMode.TILE_COUNT)
        return 0 if solution is None else len(solution.tiles)

    def goes_out(self, rack: list[Card]) -> bool:
        """Some tile can be the discard: the rest is placed whole."""
        for tile in set(rack):
            rest = list(rack)
            rest.remove(tile)
            if self.placed(rest) == len(rest):
                return True
        return False


@pytest.fixture(scope="module")
def milp() -> MilpOracle:
    return MilpOracle()


def test_racks_built_from_melds_go_out_by_both(milp: MilpOracle) -> None:
    """Racks of 40-60 tiles built from melds and one tile more: the walk and the MILP both
    find the way out."""
    rng = random.Random(900)
    for _ in range(15):
        rack = built_rack(rng, rng.randint(40, 60), rng.choice((0, 1, 2)))
        found = cover(rack)
        assert found is not None
        check_cover(found, rack)
        assert milp.goes_out(rack)


def test_big_racks_without_a_way_out_are_confirmed_by_the_milp(milp: MilpOracle) -> None:
    """Racks of 40-60 tiles built from melds with two tiles swapped for others (so that
    many have no way out): whenever the walk answers "no way out", the MILP finds no tile
    whose rest it can place whole; when the walk finds one, the MILP agrees; and whenever
    the quick refutation (cover_refute.py, up or down alone) says "no way out", the MILP
    finds none either."""
    rng = random.Random(901)
    refuted = relaxed = 0
    for _ in range(30):
        rack = built_rack(rng, rng.randint(40, 60), rng.choice((0, 1, 2)))
        pool = Counter(tile_set()) - Counter(rack)
        for _ in range(2):
            rack.pop(rng.randrange(len(rack)))
            extra = rng.choice(sorted(pool.elements(), key=lambda c: c.sort_key))
            pool[extra] -= 1
            rack.append(extra)
        found = cover(rack)
        goes_out = milp.goes_out(rack)
        assert (found is not None) == goes_out, sorted(map(str, rack))
        refuted += found is None
        for down in (False, True):  # the quick refutation, each direction alone
            if refutes(_Cover(rack, (), (), None, None, None, None, down)):
                assert not goes_out, (sorted(map(str, rack)), down)
                relaxed += 1
    assert refuted >= 5
    assert relaxed >= 5
